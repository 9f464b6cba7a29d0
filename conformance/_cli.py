"""`gostop-conformance`: the harness command line (thin: parses arguments, calls the library)."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from conformance._engine import ReferenceEngine
from conformance._runner import PASS, run_scenario
from conformance._scenarios import default_root, load_corpus, select
from reference_impl import InputError, load_ruleset, ruleset_ids

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gostop-conformance", description="The Go-Stop conformance suite.")
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the scenario corpus against the bundled reference engine (in process)")
    run.add_argument("--scenarios", type=Path, default=None, help="scenario directory (default: the bundled corpus)")
    run.add_argument("--ruleset", action="append", default=[], help="only scenarios of this ruleset (repeatable)")
    run.add_argument("--area", action="append", default=[], help="only this area (directory under scenarios/)")
    run.add_argument("--clause", action="append", default=[], help="only scenarios citing this clause id")
    run.add_argument("--id", action="append", default=[], help="only this scenario id")
    run.add_argument("--tag", action="append", default=[], help="only scenarios with this tag")
    run.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    sub.add_parser("rulesets", help="list the named rulesets with their option hashes")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "rulesets":
            for rid in ruleset_ids():
                rs = load_ruleset(rid)
                print(f"{rid:18} {rs.hash}  {rs.title}")
            return EXIT_OK
        return _run(args)
    except InputError as exc:
        print(f"gostop-conformance: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _run(args: argparse.Namespace) -> int:
    corpus = load_corpus(args.scenarios or default_root())
    chosen = select(corpus, ids=args.id, rulesets=args.ruleset, areas=args.area, clauses=args.clause, tags=args.tag)
    if not chosen:
        print("gostop-conformance: error: no scenario matches the selection", file=sys.stderr)
        return EXIT_USAGE
    engine = ReferenceEngine()
    counts: Counter[str] = Counter()
    start = time.perf_counter()
    for sc in chosen:
        result = run_scenario(engine, sc)
        counts[result.outcome] += 1
        if result.outcome != PASS:
            print(result.text())
        elif not args.quiet:
            print(f"PASS {sc.id}")
    seconds = time.perf_counter() - start
    failed = sum(v for k, v in counts.items() if k != PASS)
    summary = ", ".join(f"{v} {k.lower()}" for k, v in sorted(counts.items()))
    print(f"{len(chosen)} scenarios against gostop-reference (in process) in {seconds:.2f}s: {summary}")
    print(f"{counts[PASS]} passed, {failed} failed")
    return EXIT_FAIL if failed else EXIT_OK
