"""`gostop-conformance`: the harness command line (thin: parses arguments, calls the library)."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from conformance._engine import Engine, EngineError, ReferenceEngine
from conformance._runner import PASS, RESTART_AFTER, UNSUPPORTED, run_scenario, unsupported_reason
from conformance._scenarios import default_root, load_corpus, select
from conformance._stdio import StdioEngine
from reference_impl import InputError, load_ruleset, ruleset_ids

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gostop-conformance", description="The Go-Stop conformance suite.")
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the scenario corpus against an engine (default: the bundled reference engine, in process)")
    run.add_argument("--engine", help='engine command, split like a shell would but never run through one, e.g. "node my_engine.js"')
    run.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each reply (default 10)")
    run.add_argument("--startup-timeout", type=float, default=20.0, help="seconds to wait for the hello reply (default 20)")
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
    engine: Engine
    if args.engine:
        argv = shlex.split(args.engine)
        if not argv:
            print("gostop-conformance: error: --engine: empty command", file=sys.stderr)
            return EXIT_USAGE
        engine = StdioEngine(argv, message_timeout=args.timeout, startup_timeout=args.startup_timeout)
        label = args.engine
    else:
        engine = ReferenceEngine()
        label = "gostop-reference (in process)"
    counts: Counter[str] = Counter()
    start = time.perf_counter()
    try:
        hello = engine.hello()
    except EngineError as exc:
        print(f"gostop-conformance: the engine failed its handshake: {exc.kind}: {exc.message}", file=sys.stderr)
        if isinstance(engine, StdioEngine) and engine.stderr.text():
            print("engine stderr:\n" + engine.stderr.text()[-2000:], file=sys.stderr)
        return EXIT_FAIL
    try:
        for sc in chosen:
            reason = unsupported_reason(sc, hello)
            if reason is not None:
                counts[UNSUPPORTED] += 1
                if not args.quiet:
                    print(f"UNSUPPORTED {sc.id}: {reason}")
                continue
            result = run_scenario(engine, sc)
            counts[result.outcome] += 1
            if result.outcome != PASS:
                print(result.text())
            elif not args.quiet:
                print(f"PASS {sc.id}")
            if result.outcome in RESTART_AFTER and isinstance(engine, StdioEngine):
                engine.close()
    finally:
        engine.close()
    seconds = time.perf_counter() - start
    failed = sum(v for k, v in counts.items() if k not in (PASS, UNSUPPORTED))
    summary = ", ".join(f"{v} {k.lower()}" for k, v in sorted(counts.items()))
    print(f"{len(chosen)} scenarios against {label} in {seconds:.2f}s: {summary}")
    print(f"{counts[PASS]} passed, {failed} failed" + (f", {counts[UNSUPPORTED]} skipped" if counts[UNSUPPORTED] else ""))
    return EXIT_FAIL if failed else EXIT_OK
