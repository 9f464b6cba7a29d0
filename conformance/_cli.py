"""`gostop-conformance`: the harness command line (thin: parses arguments, calls the library).

Exit codes: 0 every scenario passed (or was skipped / a known failure), 1 failures, 2 usage or
input error.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from gostop_conformance.harness import _bounds as bounds
from gostop_conformance.harness import _compat as compat
from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness import _derivecache as derivecache
from gostop_conformance.harness import _fuzzsave as fuzzsave
from gostop_conformance.harness import _profile as profiles
from gostop_conformance.harness import _rulesetfile as rulesetfile
from gostop_conformance.harness import _rulesetpage as rulesetpage
from gostop_conformance.harness import _saved as saved
from gostop_conformance.harness._declaration import DeclarationError, Verdicts, parse, unlocks
from gostop_conformance.harness._defaults import DEFAULT_PIPELINE, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT
from gostop_conformance.harness._engine import EngineError, ReferenceEngine
from gostop_conformance.harness._export import export_corpus
from gostop_conformance.harness._fuzz import (
    FuzzReport,
    Verification,
    fuzz,
    fuzz_configurations,
    fuzz_coverage_lines,
    fuzz_report_lines,
    write_scenarios,
)
from gostop_conformance.harness._fuzzsave import FILE_NAME as FUZZ_FILE
from gostop_conformance.harness._fuzzsave import shard_range
from gostop_conformance.harness._harness import RunReport, engine_factory, ledger_corpus, load_ledger, run
from gostop_conformance.harness._interrupts import Interrupts
from gostop_conformance.harness._jobs import StdioSpawn
from gostop_conformance.harness._lint import (
    coverage,
    coverage_lines,
    coverage_markdown,
    lint,
    players_lines,
    single_configurations,
    two_player_gaps,
)
from gostop_conformance.harness._live import LiveOutput
from gostop_conformance.harness._mutation import kill_rate, report_lines, report_markdown, run_mutants
from gostop_conformance.harness._outputs import REPORT_FILES, claimed_report_dir, writable_dir, writable_file, written_whole
from gostop_conformance.harness._perft import PerftCase, divide_walk, load_perft, perft_engine, reference_table, write_perft
from gostop_conformance.harness._reporters import (
    summary_lines,
    support_profile,
    write_jsonl,
    write_junit,
    write_markdown,
    write_reproducers,
)
from gostop_conformance.harness._runner import PASS, run_scenario
from gostop_conformance.harness._safetext import engine_text, terminal_safe
from gostop_conformance.harness._scenarios import check_selection, corpus_digest, default_root, load_corpus, select, shard
from gostop_conformance.harness._smoke import run_smoke
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.mutants import MUTANTS
from gostop_conformance.reference import PROTOCOL_VERSION, engine_version
from gostop_conformance.spec import (
    EXIT_FAIL,
    EXIT_OK,
    EXIT_USAGE,
    InputError,
    RulesetFile,
    clauses,
    counted,
    load_ruleset,
    load_ruleset_file,
    option_registry,
    parse_json,
    ruleset_ids,
    run_guarded,
)

EXIT_CODES: Final = """exit codes:
  0    every scenario passed, was unsupported or is a known failure, and --min-checked ran
  1    a failure, an error, a crash, a timeout or a protocol breach; too little checked; a failed handshake
  2    a usage or input error (the message names the option, file and line)
  130  interrupted by Ctrl-C (143: by SIGTERM); the reports hold what was decided, the rest NOT_RUN

environment:
  GOSTOP_ENGINE  the engine command when --engine is not given (run, smoke, support, fuzz, perft)"""
#: the engine command when --engine is not given: CI sets it once for every step
ENGINE_VARIABLE: Final = "GOSTOP_ENGINE"
TIMEOUT_HELP = f"seconds to wait for each reply (default {DEFAULT_TIMEOUT:g})"
STARTUP_HELP = f"seconds to wait for the hello reply (default {DEFAULT_STARTUP_TIMEOUT:g})"
PIPELINE_HELP = f"requests sent before their replies are read (default {DEFAULT_PIPELINE}; 0: wait for each reply)"
FORCE_JOBS_HELP = "allow --jobs above this machine's cores (an engine that mostly waits)"
NO_CACHE_HELP = (
    "derive every scenario's option dependencies again (default: reuse what the cache holds for the same "
    "scenario, spec and code; $GOSTOP_CACHE_DIR, else ~/.cache/gostop-conformance)"
)
RULES_HELP = "a ruleset file of your own (house rules, docs/house-rules.md): "
JOBS_HELP = "worker processes, each with an engine of its own (default 1; 0: every core); the report does not depend on it"


class _Version(argparse.Action):
    """--version: the suite, its protocol and its corpus (CHANGELOG.md records each release's
    corpus digest), computed only when asked."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None) -> None:
        print(f"{parser.prog} {engine_version()} (protocol {PROTOCOL_VERSION}, corpus {corpus_digest()})")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gostop-conformance",
        description="The Go-Stop conformance suite.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action=_Version, help="the suite's version, its protocol's and its corpus's digest")
    sub = p.add_subparsers(dest="command", required=True)
    run_p = sub.add_parser("run", help="run the scenario corpus against an engine (default: the bundled reference engine, in process)")
    run_p.add_argument(
        "--engine",
        help='engine command, split like a shell would but never run through one, e.g. "node my_engine.js" '
        "(default: $GOSTOP_ENGINE, else the bundled reference engine in process)",
    )
    run_p.add_argument("--scenarios", type=Path, default=None, help="scenario directory (default: the bundled corpus)")
    run_p.add_argument("--ruleset", action="append", default=[], help="only scenarios of this ruleset (repeatable)")
    run_p.add_argument(
        "--ruleset-file",
        "--rules",
        dest="ruleset_file",
        type=Path,
        default=None,
        help=RULES_HELP + "the engine plays its rules; run every scenario that holds under them, sent with its values, "
        "and say which of its differences and which clauses no scenario checked",
    )
    run_p.add_argument("--area", action="append", default=[], help="only this area (directory under scenarios/)")
    run_p.add_argument("--clause", action="append", default=[], help="only scenarios citing this clause id")
    run_p.add_argument("--id", action="append", default=[], help="only this scenario id")
    run_p.add_argument("--tag", action="append", default=[], help="only scenarios with this tag")
    run_p.add_argument("--shard", default=None, help="K/N: run only the K-th of N equal shares (for CI matrices)")
    run_p.add_argument("--jobs", type=int, default=1, help="parallel engine processes (default 1; 0: every core)")
    run_p.add_argument("--force-jobs", action="store_true", help=FORCE_JOBS_HELP)
    run_p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help=TIMEOUT_HELP)
    run_p.add_argument("--startup-timeout", type=float, default=DEFAULT_STARTUP_TIMEOUT, help=STARTUP_HELP)
    run_p.add_argument("--pipeline", type=int, default=DEFAULT_PIPELINE, help=PIPELINE_HELP)
    run_p.add_argument("--known-failures", type=Path, help="ledger of known failures: known_failures: [{id, reason, link}]")
    run_p.add_argument("--strict", action="store_true", help="an unexpected pass or a stale ledger entry fails the run")
    run_p.add_argument("--report-dir", type=Path, default=Path("reports"), help="where report.jsonl, junit.xml, summary.md and repro/ go")
    run_p.add_argument("--no-reports", action="store_true", help="write no report files")
    run_p.add_argument("--label", default=None, help="the engine's name in the reports (default: the name its hello gives)")
    run_p.add_argument("--timing", action="store_true", help="add wall-clock time to the reports (they are byte-identical without it)")
    run_p.add_argument("--check-determinism", action="store_true", help="run every passing scenario twice and compare the replies")
    run_p.add_argument(
        "--min-checked",
        default="1",
        help="fail unless at least this many scenarios (N) or this share of the selection (N%%) actually ran, "
        "not UNSUPPORTED (default 1: a run that checked nothing is never green)",
    )
    run_p.add_argument("-q", "--quiet", action="store_true", help="print only problems (failures, errors, unexpected passes) and a summary")
    sup = sub.add_parser("support", help="what an engine's hello declaration lets run; which undeclared values would unlock the most")
    source = sup.add_mutually_exclusive_group()
    source.add_argument("--engine", help="engine command: its hello reply is read, nothing is played")
    source.add_argument("--hello", type=Path, help="a file holding a hello reply (JSON), instead of an engine")
    sup.add_argument("--scenarios", type=Path, default=None, help="scenario directory (default: the bundled corpus)")
    sup.add_argument("--ruleset", action="append", default=[], help="only scenarios of this ruleset (repeatable)")
    sup.add_argument(
        "--ruleset-file",
        type=Path,
        default=None,
        help=RULES_HELP + "which scenarios hold under its rules (no engine needed; with one, within its features)",
    )
    sup.add_argument("--top", type=int, default=15, help="how many values and reasons to list (default 15)")
    sup.add_argument("--startup-timeout", type=float, default=DEFAULT_STARTUP_TIMEOUT, help=STARTUP_HELP)
    smoke = sub.add_parser("smoke", help="check an engine adapter: handshake, card ids, one capture, one rejection")
    smoke.add_argument("--engine", help="engine command, as for run (default: $GOSTOP_ENGINE)")
    smoke.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help=TIMEOUT_HELP)
    smoke.add_argument("--startup-timeout", type=float, default=DEFAULT_STARTUP_TIMEOUT, help=STARTUP_HELP)
    lint_p = sub.add_parser("lint", help="check the corpus: clauses cited and covered, scenarios legal, option values exercised")
    lint_p.add_argument("--scenarios", type=Path, default=None)
    lint_p.add_argument("--verbose", action="store_true", help="also list which scenario exercises each option value")
    lint_p.add_argument("--jobs", type=int, default=0, help="processes deriving the option dependencies again (default: every core)")
    lint_p.add_argument("--force-jobs", action="store_true", help=FORCE_JOBS_HELP)
    lint_p.add_argument(
        "--seeds", type=Path, default=None, help="folder of the seed texts the quotes of spec/traceability.yaml are checked in"
    )
    lint_p.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)
    lint_p.add_argument(
        "--ruleset-file",
        type=Path,
        default=None,
        help=RULES_HELP + "lint it instead of the corpus: valid, and which of its values the corpus's scenarios pin",
    )
    dep = sub.add_parser("dependencies", help="derive which options each scenario's outcome depends on (scenarios/dependencies.yaml)")
    dep.add_argument("--scenarios", type=Path, default=None)
    dep.add_argument("--write", action="store_true", help="write <scenarios>/dependencies.yaml")
    dep.add_argument("--id", action="append", default=[], help="print the dependencies of this scenario (repeatable)")
    dep.add_argument("--jobs", type=int, default=0, help="processes (default: every core); the result does not depend on it")
    dep.add_argument("--force-jobs", action="store_true", help=FORCE_JOBS_HELP)
    dep.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)
    cov = sub.add_parser("coverage", help="clause x ruleset x polarity: declared by scenarios against observed in the rule-hit trace")
    cov.add_argument("--scenarios", type=Path, default=None)
    cov.add_argument("--markdown", type=Path, default=None, help="also write the table as markdown")
    mut = sub.add_parser("mutants", help="run the corpus against semantic mutants of the reference engine; report the kill rate")
    mut.add_argument("--scenarios", type=Path, default=None)
    mut.add_argument("--mutant", action="append", default=[], help="only this mutant (repeatable)")
    mut.add_argument("--all-killers", action="store_true", help="list every killing scenario, not only the first")
    mut.add_argument("--markdown", type=Path, default=None, help="also write the table as markdown")
    mut.add_argument("--min-kill-rate", type=float, default=0.0, help="fail when the kill rate is below this fraction")
    fz = sub.add_parser("fuzz", help="differential fuzzing against the reference engine, shrinking the first divergences into scenarios")
    fz.add_argument("--engine", help="engine command, as for run (default: $GOSTOP_ENGINE)")
    fz.add_argument("--games", type=int, default=1000, help="random rounds to play (default 1000)")
    fz.add_argument("--seed", type=int, default=1, help="fuzzing seed; the same seed plays the same rounds")
    fz.add_argument("--ruleset", action="append", default=[], help="only these rulesets (default: every ruleset the engine declares)")
    fz.add_argument("--ruleset-file", type=Path, default=None, help=RULES_HELP + "fuzz under its rules only (instead of --ruleset)")
    fz.add_argument(
        "--max-divergences",
        type=int,
        default=20,
        help="shrink and write the first this many divergence classes; later classes are counted only (default 20)",
    )
    fz.add_argument("--guided", action="store_true", help="prefer actions that reach rule clauses the run has not seen yet")
    fz.add_argument("--event-log", action="store_true", help="compare the event log too (by default only outcomes, as scenarios do)")
    fz.add_argument(
        "--out",
        type=Path,
        default=Path("reports/fuzz"),
        help=f"where shrunk scenarios and the results ({FUZZ_FILE}, for fuzz-merge) are written",
    )
    fz.add_argument(
        "--shard",
        default=None,
        help="play only part K of N of the run's rounds (e.g. 2/4): the N shards' results, merged by fuzz-merge, are the whole run's",
    )
    fz.add_argument("--no-shrink", action="store_true", help="write divergences as found")
    fz.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help=TIMEOUT_HELP)
    fz.add_argument("--pipeline", type=int, default=DEFAULT_PIPELINE, help=PIPELINE_HELP)
    fz.add_argument("--jobs", type=int, default=1, help=JOBS_HELP)
    fz.add_argument("--force-jobs", action="store_true", help=FORCE_JOBS_HELP)
    fm = sub.add_parser("fuzz-merge", help="merge the results of several fuzz runs (the shards of one run) into one report")
    fm.add_argument("results", type=Path, nargs="+", help=f"{FUZZ_FILE} files, or the --out folders of fuzz runs that hold one")
    fm.add_argument("--out", type=Path, default=Path("reports/fuzz"), help=f"where the merged {FUZZ_FILE} and the classes' scenarios go")
    pf = sub.add_parser("perft", help="count a round's decision tree (spec/perft.yaml) and compare it with the published tables")
    pf.add_argument("--deal", type=Path, required=True, help="a perft table file (scenarios/perft/*.yaml)")
    pf.add_argument("--id", default=None, help="only this table of the file")
    pf.add_argument("--depth", type=int, default=3, help="plies to count (default 3)")
    pf.add_argument("--engine", default=None, help="engine command (default: the reference engine, natively)")
    pf.add_argument("--divide", action="store_true", help="on a difference, walk down to the first differing subtree")
    pf.add_argument("--write", action="store_true", help="recompute every table of the file to its own depth with the reference engine")
    pf.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help=TIMEOUT_HELP)
    exp = sub.add_parser(
        "export", help="write the corpus as plain JSON: every scenario's requests and the checks of their replies (docs/export.md)"
    )
    exp.add_argument("--format", choices=("json",), default="json", help="the export's format (json, the only one)")
    exp.add_argument("--out", required=True, help="the file to write (one file: the whole corpus); - writes to standard output")
    exp.add_argument("--scenarios", type=Path, default=None, help="scenario directory (default: the bundled corpus)")
    sub.add_parser("rulesets", help="list the named rulesets with their option hashes")
    rsf = sub.add_parser("ruleset", help="a ruleset file of your own (house rules, docs/house-rules.md): check it, or make its page")
    rsf_sub = rsf.add_subparsers(dest="ruleset_command", required=True)
    chk = rsf_sub.add_parser("check", help="check a ruleset file (errors name file and line); print its resolved options and their hash")
    chk.add_argument("file", type=Path, help="the ruleset file (YAML, in the format of spec/rulesets/*.yaml)")
    chk.add_argument(
        "--json", action="store_true", help="print the resolved ruleset as JSON: id, file, hash, base, and the protocol's ruleset object"
    )
    page = rsf_sub.add_parser("page", help="write a ruleset file's page: one self-contained HTML file to share")
    page.add_argument("file", type=Path, help="the ruleset file (YAML, in the format of spec/rulesets/*.yaml)")
    page.add_argument("--out", type=Path, default=None, help="where the page goes (default: <its id>.html in this folder)")
    summ = sub.add_parser("summary", help="merge the report.jsonl files of several shards into one report (and one verdict)")
    summ.add_argument("reports", type=Path, nargs="+", help="report.jsonl files of one run's shards")
    summ.add_argument("--scenarios", type=Path, default=None, help="the corpus the run used (default: the bundled corpus)")
    summ.add_argument("--report-dir", type=Path, default=None, help="write the merged report.jsonl, junit.xml and summary.md here")
    prof = sub.add_parser("profile", help="learn which house rules an engine plays from its behaviour on the scenarios")
    prof.add_argument("--engine", help="engine command, as for run (default: $GOSTOP_ENGINE)")
    prof.add_argument("--option", action="append", default=[], help="only this option (repeatable)")
    prof.add_argument(
        "--base",
        default=None,
        help="the named ruleset the profile is said against (default: matgo-2p if the engine claims it or none, else the first it claims)",
    )
    prof.add_argument(
        "--ruleset-file",
        type=Path,
        default=None,
        help=RULES_HELP + "profile against its rules: the findings are compared with its values (its base is --base's default)",
    )
    prof.add_argument(
        "--out", type=Path, default=Path("reports/profile"), help="where profile.json, profile.yaml (a ruleset file) and profile.md go"
    )
    prof.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help=TIMEOUT_HELP)
    prof.add_argument("--jobs", type=int, default=1, help=JOBS_HELP)
    prof.add_argument("--force-jobs", action="store_true", help=FORCE_JOBS_HELP)
    rep = sub.add_parser("report", help="a static HTML compatibility report, and a badge per engine, from saved report.jsonl files")
    rep.add_argument("reports", type=Path, nargs="+", help="report.jsonl files: several engines, versions or runs")
    rep.add_argument("--out", type=Path, default=Path("compat"), help="folder for index.html and badges/ (default compat/)")
    led = sub.add_parser("ledger", help="write a known-failures ledger from a run's failures (each reason a placeholder to fill)")
    led.add_argument("reports", type=Path, nargs="+", help="report.jsonl files")
    led.add_argument("--out", type=Path, default=None, help="write the ledger here (default: print it)")
    return p


def _main(argv: Sequence[str] | None = None, interrupts: Interrupts | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.engine_option = "--engine"
    if getattr(args, "engine", "") is None and ENGINE_VARIABLE in os.environ:
        # set but empty is a mistake to report (a CI secret that did not expand), never the default engine
        args.engine = os.environ[ENGINE_VARIABLE]
        args.engine_option = f"${ENGINE_VARIABLE}"
    # SIGTERM (a CI job cancelled) stops a command as Ctrl-C does: a run ends its engines, writes its
    # reports and marks the rest NOT_RUN; any other command stops without a traceback. The console
    # script hands over the handlers it set for the whole process; a caller in process gets its own,
    # restored afterwards.
    own = interrupts is None and threading.current_thread() is threading.main_thread()
    args.interrupts = interrupts = interrupts or Interrupts()
    previous = signal.signal(signal.SIGTERM, interrupts) if own else None
    try:
        code = _dispatch(args)
        interrupts.disarm()  # the result stands
        return code
    except InputError as exc:
        print(f"gostop-conformance: error: {terminal_safe(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("gostop-conformance: interrupted", file=sys.stderr)
        return interrupts.exit_code()
    finally:
        if own:
            signal.signal(signal.SIGTERM, previous)


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "rulesets":
        for rid in ruleset_ids():
            rs = load_ruleset(rid)
            print(f"{rid:18} {rs.hash}  {rs.title}")
        return EXIT_OK
    if args.command == "ruleset":
        return _ruleset(args)
    if args.command == "smoke":
        return _smoke(args)
    if args.command == "support":
        return _support(args)
    if args.command == "lint":
        return _lint(args)
    if args.command == "dependencies":
        return _dependencies(args)
    if args.command == "coverage":
        return _coverage(args)
    if args.command == "mutants":
        return _mutants(args)
    if args.command == "fuzz":
        return _fuzz(args)
    if args.command == "fuzz-merge":
        return _fuzz_merge(args)
    if args.command == "perft":
        return _perft(args)
    if args.command == "export":
        return _export(args)
    if args.command == "summary":
        return _summary(args)
    if args.command == "ledger":
        return _ledger(args)
    if args.command == "profile":
        return _profile(args)
    if args.command == "report":
        runs = [saved.read(path) for path in args.reports]
        _warn(saved.runs_corpora(runs))  # the page says it too, above its overview
        try:
            written = compat.write(writable_dir("--out", args.out), runs)
        except OSError as exc:  # a full disk: said, never a traceback
            print(f"gostop-conformance: the report could not be written into {args.out}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_FAIL
        print(f"wrote {written[0]} and {counted(len(written) - 1, 'badge')} in {args.out}/badges/")
        return EXIT_OK
    return _run(args)


def _export(args: argparse.Namespace) -> int:
    out = None if args.out == "-" else writable_file("--out", Path(args.out))
    exported = export_corpus(args.scenarios)
    data = exported.text.encode("utf-8")
    try:
        if out is None:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
            return EXIT_OK
        with written_whole(out) as stream:
            stream.write(exported.text)
    except OSError as exc:  # a full disk or a closed pipe: said, never a traceback
        print(f"gostop-conformance: the export could not be written to {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAIL
    print(f"wrote {out}: {exported.scenarios} scenarios of corpus {exported.corpus_digest}, {len(data):,} bytes")
    return EXIT_OK


def _rules(path: Path | None) -> RulesetFile | None:
    """The ruleset file of --ruleset-file, loaded (InputError with its file and line), or None."""
    return None if path is None else load_ruleset_file(path)


def _ruleset(args: argparse.Namespace) -> int:
    rules = load_ruleset_file(args.file)
    if args.ruleset_command == "check":
        if args.json:
            print(json.dumps(rulesetfile.check_json(rules), indent=2))
        else:
            for line in rulesetfile.check_lines(rules):
                print(line)
        return EXIT_OK
    out = args.out or Path(f"{rules.ruleset.id}.html")
    writable_file("--out", out)
    out.write_text(rulesetpage.page_html(rulesetpage.view_of_file(rules)), encoding="utf-8")
    print(f"wrote {out}: the page of {rulesetfile.label(rules)}, {rules.hash}")
    return EXIT_OK


def _shard(spec: str | None) -> tuple[int, int] | None:
    if spec is None:
        return None
    try:
        k, n = (int(x) for x in spec.split("/"))
    except ValueError:
        raise InputError("--shard", f"expected K/N such as 2/4, got {spec!r}") from None
    if not 1 <= k <= n:
        raise InputError("--shard", f"expected 1 <= K <= N, got {spec!r}")
    return k, n


def _run(args: argparse.Namespace) -> int:
    if args.no_reports:
        return _run_into(args, None)
    # before anything else: an earlier run's green reports must not look current while this one
    # loads the corpus, waits for a handshake or is killed
    with claimed_report_dir("--report-dir", args.report_dir) as out:
        return _run_into(args, out)


def _run_into(args: argparse.Namespace, out: Path | None) -> int:
    jobs = bounds.jobs(args.jobs, force=args.force_jobs, what="engine processes")
    bounds.seconds("--timeout", args.timeout)
    bounds.seconds("--startup-timeout", args.startup_timeout)
    pipeline = bounds.pipeline(args.pipeline)
    part = _shard(args.shard)
    argv = (
        bounds.engine_argv(args.engine, args.engine_option) if args.engine is not None else None
    )  # "" is an empty command, not the default
    rules = _rules(args.ruleset_file)
    root = args.scenarios or default_root()
    corpus = load_corpus(root)
    if not corpus:
        raise InputError(str(root), "no scenario files here (YAML files with a `scenarios:` list)")
    check_selection(corpus, ids=args.id, rulesets=args.ruleset, areas=args.area, clauses=args.clause, tags=args.tag)
    chosen = select(corpus, ids=args.id, rulesets=args.ruleset, areas=args.area, clauses=args.clause, tags=args.tag)
    if part is not None:
        chosen = shard(chosen, *part)
    if not chosen:
        raise InputError("selection", "no scenario matches the selection (each filter is known, but together they leave nothing)")
    ledger = load_ledger(args.known_failures) if args.known_failures else {}
    if args.known_failures:
        written_from = ledger_corpus(args.known_failures)
        if written_from is not None:
            _warn(
                saved.different_corpora([(f"the ledger {args.known_failures}", written_from), (f"this run ({root})", corpus_digest(root))])
            )
    min_checked = _min_checked(args.min_checked, len(chosen))
    label = args.engine or "gostop-reference (in process)"
    selection = {
        "ids": args.id,
        "rulesets": args.ruleset,
        "areas": args.area,
        "clauses": args.clause,
        "tags": args.tag,
        "shard": args.shard,
    }
    if rules is not None:
        selection["rules"] = rulesetfile.selection_json(rules)
    stored = dependencies.load(root)
    live = LiveOutput(len(chosen), args.quiet)  # each scenario's line as it finishes, and the progress
    try:
        report = run(
            chosen,
            engine_factory(argv, args.timeout, args.startup_timeout, pipeline),
            jobs=jobs,
            ledger=ledger,
            strict=args.strict,
            label=label,
            command=argv,
            selection=selection,
            on_record=live.record,
            check_determinism=args.check_determinism,
            dependencies=stored,
            min_checked=min_checked,
            corpus_ids=[sc.id for sc in corpus],
            rules=rules,
        )
    except EngineError as exc:
        print(f"gostop-conformance: the engine failed its handshake: {exc.kind}: {terminal_safe(exc.message)}", file=sys.stderr)
        return EXIT_FAIL
    finally:
        live.close()
    # from here on the result stands, complete or interrupted: a signal no longer stops the writing
    # of its reports, and the exit status is what they say
    args.interrupts.disarm()
    report.name = args.label
    if report.aborted:
        print(f"gostop-conformance: {terminal_safe(report.aborted)}", file=sys.stderr)
    for line in [] if report.aborted else support_profile(report):
        if not args.quiet:
            print(line)
    lost = None if out is None else _write_reports(report, out, root, args.timing)
    for line in summary_lines(report):
        print(line)
    if rules is not None and not report.aborted:
        for line in rulesetfile.report_lines(rules, [(r.scenario, r.outcome, r.verdict) for r in report.records], stored):
            print(line)
    if lost is not None:  # the verdict is printed above; a run whose reports are lost is never green
        print(f"gostop-conformance: error: {lost}", file=sys.stderr)
    if not report.complete:  # interrupted: the shell's convention, 128 + the signal
        return int(args.interrupts.exit_code())
    return EXIT_OK if report.ok() and lost is None else EXIT_FAIL


def _write_reports(report: RunReport, out: Path, root: Path, timing: bool) -> str | None:
    """Every report file, each whole or not at all; None, or why they could not all be written
    (a full disk): the run still prints its verdict."""
    report = dataclasses.replace(report, corpus_digest=report.corpus_digest or corpus_digest(root))
    try:
        write_jsonl(report, out / "report.jsonl", timing=timing)
        write_junit(report, out / "junit.xml", timing=timing)
        write_markdown(report, out / "summary.md")
        repro = write_reproducers(report, out / "repro")
    except OSError as exc:
        written = [name for name in REPORT_FILES if (out / name).exists()]
        kept = f" (written whole: {', '.join(written)})" if written else ""
        return f"the reports could not all be written into {out}: {exc.strerror or exc}{kept}"
    print(
        f"reports: {out}/report.jsonl, {out}/junit.xml, {out}/summary.md"
        + (f", {counted(len(repro), 'reproducer')} in {out}/repro/" if repro else "")
    )
    return None


def _min_checked(spec: str, selected: int) -> int:
    """--min-checked N or N%: the number of scenarios that must run (a share of the selection, rounded up)."""
    text = spec.strip()
    try:
        if text.endswith("%"):
            share = float(text[:-1])
            if not 0 <= share <= 100:
                raise ValueError
            return math.ceil(selected * share / 100)
        count = int(text)
        if count < 0:
            raise ValueError
        return count
    except ValueError:
        raise InputError("--min-checked", f"expected a number of scenarios (such as 100) or a share (such as 80%), got {spec!r}") from None


def _summary(args: argparse.Namespace) -> int:
    if args.report_dir is None:
        return _summary_into(args, None)
    with claimed_report_dir("--report-dir", args.report_dir) as out:
        return _summary_into(args, out)


def _summary_into(args: argparse.Namespace, out: Path | None) -> int:
    runs = [saved.read(path) for path in args.reports]
    root = args.scenarios or default_root()
    corpus = {sc.id: sc for sc in load_corpus(root)}
    # before the merge, which refuses a scenario the corpus does not hold: the likely cause is said first
    _warn(
        saved.different_corpora(
            [("the reports given", saved.corpus_of(runs[0])), (f"the corpus they are read against ({root})", corpus_digest(root))]
        )
    )
    report = saved.merge(runs, corpus)  # shards of different corpora are refused there
    lost = None
    if out is not None:
        try:
            write_jsonl(report, out / "report.jsonl")
            write_junit(report, out / "junit.xml")
            write_markdown(report, out / "summary.md")
            print(f"reports: {out}/report.jsonl, {out}/junit.xml, {out}/summary.md")
        except OSError as exc:
            lost = f"the merged reports could not all be written into {out}: {exc.strerror or exc}"
    missing = saved.missing_shards(runs)
    if missing:
        n = str((runs[0].header.get("selection") or {}).get("shard", "?/?")).split("/")[1]
        print(f"NOT GREEN: no report for shard {', '.join(f'{k}/{n}' for k in missing)}: its scenarios are NOT_RUN")
    for line in summary_lines(report):
        print(line)
    if lost is not None:
        print(f"gostop-conformance: error: {lost}", file=sys.stderr)
    return EXIT_OK if report.ok() and lost is None else EXIT_FAIL


#: the most rounds one fuzz run plays (a day of the fastest engine; --shard splits a longer campaign)
MAX_GAMES: Final = 1_000_000_000


def _wrote(flag: str, path: Path, text: str) -> bool:
    """`text` written whole into `path`; on failure (a full disk) said on stderr, never a traceback."""
    try:
        if path.exists() and not path.is_file():  # a device or a pipe: written as it is, never replaced
            path.write_text(text, encoding="utf-8")
        else:
            with written_whole(path) as out:
                out.write(text)
    except OSError as exc:
        print(f"gostop-conformance: {flag} {path} could not be written: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def _ledger(args: argparse.Namespace) -> int:
    if args.out is not None:
        writable_file("--out", args.out)
    runs = [saved.read(path) for path in args.reports]
    _warn(saved.runs_corpora(runs))
    text = saved.ledger_text(runs)
    if args.out is None:
        print(text, end="")
    elif not _wrote("--out", args.out, text):
        return EXIT_FAIL
    else:
        print(f"wrote {args.out}: fill in every reason before using it (--known-failures refuses a placeholder)")
    return EXIT_OK


def _warn(warning: str | None) -> None:
    """A warning on stderr (the command goes on): reports of different corpora compared."""
    if warning is not None:
        print(f"gostop-conformance: warning: {terminal_safe(warning)}", file=sys.stderr)


def _required_engine(args: argparse.Namespace) -> list[str]:
    if args.engine is None:
        raise InputError("--engine", f"give the engine command (or set {ENGINE_VARIABLE})")
    return bounds.engine_argv(args.engine, args.engine_option)


def _support(args: argparse.Namespace) -> int:
    bounds.count("--top", args.top, 1, 10_000, "a number of lines")
    root = args.scenarios or default_root()
    everything = load_corpus(root)
    check_selection(everything, rulesets=args.ruleset)
    corpus = select(everything, rulesets=args.ruleset)
    if not corpus:
        raise InputError("selection", "no scenario matches the selection")
    rules = _rules(args.ruleset_file)
    hello: dict[str, Any] = {}
    if args.hello is not None:
        try:
            hello = parse_json(args.hello.read_bytes())
        except (OSError, ValueError) as exc:
            raise InputError(str(args.hello), f"expected a file holding a hello reply as JSON: {exc}") from None
        if not isinstance(hello, dict):
            raise InputError(str(args.hello), "expected a JSON object (a hello reply)")
    elif args.engine is not None or rules is None:  # a ruleset file alone needs no engine: it says what is played
        argv = _required_engine(args)
        engine = StdioEngine(argv, startup_timeout=bounds.seconds("--startup-timeout", args.startup_timeout))
        try:
            hello = engine.start()
        except EngineError as exc:
            print(f"gostop-conformance: the engine failed its handshake: {exc.kind}: {exc.message}", file=sys.stderr)
            return EXIT_FAIL
        finally:
            engine.close()
    try:
        declared = parse(hello) if hello or rules is None else None  # a ruleset file alone: no hello to read
    except DeclarationError as exc:
        raise InputError("hello", f"the declaration is not valid: {exc}") from None
    if rules is not None:
        declared = rulesetfile.within(rules, declared)
    assert declared is not None
    stored = dependencies.load(root)
    verdicts = Verdicts(declared, stored)
    found = [verdicts.of(sc) for sc in corpus]
    running = [v for v in found if v.supported]
    substituted = sum(1 for v in running if v.changes)
    print(
        f"{len(running)} of {counted(len(corpus), 'scenario')} will run, "
        f"{len(corpus) - len(running)} {'is' if len(corpus) - len(running) == 1 else 'are'} unsupported"
    )
    print(f"  {len(running) - substituted} as written, {substituted} with declared values under which the reference gives the same outcome")
    by_ruleset: dict[str, Counter[bool]] = {}
    for sc, v in zip(corpus, found, strict=True):
        by_ruleset.setdefault(sc.ruleset, Counter())[v.supported] += 1
    for rid, c in sorted(by_ruleset.items()):
        print(f"  {rid:18} {c[True]:4} run, {c[False]:4} unsupported")
    best = unlocks(found)[: args.top]
    if best:
        print("undeclared options that would unlock the most (+N: scenarios that need only this value; +M partly: it is one of several)")
        for u in best:
            print("  " + u.text())
    features = Counter(f for v in found for f in v.features)
    for feature, n in features.most_common():
        print(f"  the feature {feature}: +{counted(n, 'scenario')}")
    declined = Counter("constructed positions" if v.constructed else "the event log" for v in found if v.constructed or v.event_log)
    for what, n in sorted(declined.items()):
        print(f"  {counted(n, 'scenario')} about {what}, which the declaration declines")
    reasons = hello.get("reasons") or {}
    if reasons:
        print("why the engine declares as it does (hello.reasons; the scenarios left out that need another value):")
        for option, why in sorted(reasons.items()):
            left = sum(1 for v in found if any(n.option == option for n in v.needs))
            print(f"  {option}: {engine_text(why)} ({left} left out)")
    if rules is not None:
        outcomes = [(sc, "RUN" if v.supported else "UNSUPPORTED", v) for sc, v in zip(corpus, found, strict=True)]
        for line in rulesetfile.report_lines(rules, outcomes, stored):
            print(line)
    return EXIT_OK


def _smoke(args: argparse.Namespace) -> int:
    argv = _required_engine(args)
    engine = StdioEngine(
        argv,
        message_timeout=bounds.seconds("--timeout", args.timeout),
        startup_timeout=bounds.seconds("--startup-timeout", args.startup_timeout),
    )
    try:
        checks = run_smoke(engine)
    finally:
        engine.close()
    for c in checks:
        print(f"{'ok  ' if c.ok else 'FAIL'} {c.name}" + ("" if c.ok else f": {c.message}"))
    if not all(c.ok for c in checks) and engine.stderr.text().strip():
        # the engine's own text: shown, never acted on by the terminal, and never at a line's start
        tail = engine.stderr.text().strip().splitlines()[-10:]
        print("engine stderr (last lines):\n" + "\n".join("  " + terminal_safe(line) for line in tail))
    ok = len(checks) == 4 and all(c.ok for c in checks)
    print(
        "smoke: all checks passed; next: gostop-conformance run --engine ..." if ok else "smoke: fix the first failing check and run again"
    )
    return EXIT_OK if ok else EXIT_FAIL


def _lint(args: argparse.Namespace) -> int:
    jobs = bounds.jobs(args.jobs, force=args.force_jobs)
    root = args.scenarios or default_root()
    if args.ruleset_file is not None:  # the file is linted, not the corpus: loading it is the check
        rules = load_ruleset_file(args.ruleset_file)
        for line in rulesetfile.lint_lines(rules, load_corpus(root), dependencies.load(root)):
            print(line)
        return EXIT_OK
    corpus = load_corpus(root)
    report = lint(corpus, root, jobs, args.seeds, cache=None if args.no_cache else derivecache.default_dir())
    for problem in report.problems:
        print(f"lint: {problem}")
    for note in report.notes:
        print(f"lint: note: {note}")
    for key, value in report.unexercised:
        print(f"lint: option value {key} = {value} is exercised by no scenario whose outcome it changes")
    if args.verbose:
        for (key, value), sid in sorted(report.exercised.items()):
            print(f"ok: {key} = {value}  <- {sid}")
    total = len(report.exercised) + len(report.unexercised)
    print(
        f"{counted(len(corpus), 'scenario')}; {counted(len(report.problems), 'problem')}; "
        f"{len(report.exercised)} of {counted(total, 'option value')} exercised"
    )
    return EXIT_OK if report.ok else EXIT_FAIL


def _dependencies(args: argparse.Namespace) -> int:
    jobs = bounds.jobs(args.jobs, force=args.force_jobs)
    root = args.scenarios or default_root()
    corpus = load_corpus(root)
    unknown = [i for i in args.id if i not in {sc.id for sc in corpus}]
    if unknown:
        raise InputError("--id", f"no scenario {unknown[0]!r} under {root}")
    chosen = [sc for sc in corpus if sc.id in args.id] if args.id else corpus
    found = dependencies.derive_all(chosen, root, jobs, None if args.no_cache else derivecache.default_dir())
    if args.write:
        path = root / dependencies.FILE_NAME
        dependencies.write(path, found)
        print(f"wrote {path}: {counted(len(found), 'scenario')}")
    for sid in args.id:
        print(f"{sid}:")
        for option, values in found[sid].passes.items():
            print(f"  {option}: passes with {', '.join(map(str, values)) or 'no other value probed'}")
        if not found[sid].passes:
            print("  depends on no option")
    counts = Counter(option for dep in found.values() for option in dep.passes)
    print(f"{counted(len(found), 'scenario')}; dependencies per scenario: {sum(counts.values()) / max(1, len(found)):.1f} on average")
    print("options most depended on: " + ", ".join(f"{option} ({n})" for option, n in counts.most_common(12)))
    return EXIT_OK


def _coverage(args: argparse.Namespace) -> int:
    if args.markdown:
        writable_file("--markdown", args.markdown)
    corpus = load_corpus(args.scenarios or default_root())
    report = coverage(corpus)
    lines = coverage_lines(report)
    for line in lines:
        print(line)
    # every behaviour pinned under two configurations at least (issue 15): one configuration fails
    deps = dependencies.load(args.scenarios or default_root())
    single = single_configurations(corpus, deps)
    for what, where in single:
        print(f"ONE CONFIGURATION {what}: every scenario about it is under {where}")
    print(f"{counted(len(single), 'behaviour')} (clauses and depended-on option values) pinned under one ruleset and player count only")
    # most engines are two-player Matgo engines (issue 39): whatever applies to two players is pinned there
    for line in players_lines(corpus):
        print(line)
    gaps = two_player_gaps(corpus, deps)
    for gap in gaps:
        print(f"NO TWO-PLAYER SCENARIO {gap}")
    print(
        f"{counted(len(gaps), 'clause or option value', 'clauses and option values')} "
        f"that {'applies' if len(gaps) == 1 else 'apply'} to two players without a two-player scenario"
    )
    if args.markdown and not _wrote("--markdown", args.markdown, "\n".join(coverage_markdown(report)) + "\n"):
        return EXIT_FAIL
    uncovered = [cid for cid in clauses() if not any(k[0] == cid for k in report.declared)]
    return EXIT_OK if not uncovered and not report.silent and not single and not gaps else EXIT_FAIL


def _mutants(args: argparse.Namespace) -> int:
    bounds.fraction("--min-kill-rate", args.min_kill_rate)
    if args.markdown:
        writable_file("--markdown", args.markdown)
    corpus = load_corpus(args.scenarios or default_root())
    names = [m.name for m in MUTANTS]
    unknown = [m for m in args.mutant if m not in names]
    if unknown:
        raise InputError("--mutant", f"unknown mutant {unknown[0]!r}; expected one of {', '.join(names)}")
    results = run_mutants(corpus, args.mutant, all_killers=args.all_killers)
    for line in report_lines(results):
        print(line)
    if args.markdown and not _wrote("--markdown", args.markdown, "\n".join(report_markdown(results)) + "\n"):
        return EXIT_FAIL
    rate = kill_rate(results)
    if rate < args.min_kill_rate:
        print(f"NOT GREEN: the kill rate {rate:.1%} is below --min-kill-rate {args.min_kill_rate:.1%}")
        return EXIT_FAIL
    return EXIT_OK


def _fuzz(args: argparse.Namespace) -> int:
    argv = _required_engine(args)
    bounds.count("--games", args.games, 1, MAX_GAMES, "a number of rounds")
    if args.max_divergences < 1:
        raise InputError("--max-divergences", f"expected a positive number, got {args.max_divergences}")
    writable_dir("--out", args.out)  # before the fuzzing: its divergences must have somewhere to go
    rules = _rules(args.ruleset_file)
    if rules is not None and args.ruleset:
        raise InputError("--ruleset-file", "give --ruleset or --ruleset-file, not both")
    unknown = [r for r in args.ruleset if r not in ruleset_ids()]
    if unknown:
        raise InputError("--ruleset", f"unknown ruleset {unknown[0]!r}")
    jobs = bounds.jobs(args.jobs, force=args.force_jobs)
    if jobs > 1 and args.guided:
        raise InputError("--jobs", "--guided picks each round from what the rounds before it reached: it runs in one job")
    rounds = shard_range(args.games, _shard(args.shard))
    if not rounds:
        raise InputError("--shard", f"shard {args.shard} of {counted(args.games, 'round')} holds none: give more --games or fewer shards")
    timeout, pipeline = bounds.seconds("--timeout", args.timeout), bounds.pipeline(args.pipeline)
    options: dict[str, object] = {"message_timeout": timeout, "pipeline": pipeline}
    engine = StdioEngine(argv, message_timeout=timeout, pipeline=pipeline)
    try:
        hello = engine.start()
        try:
            declared = parse(hello)
        except DeclarationError as exc:
            raise InputError("hello", f"the engine's declaration is not valid: {exc}") from None
        if rules is not None:  # the file's rules only, and its scenarios judged as `run --ruleset-file` judges them
            configs = [rulesetfile.fuzz_configuration(rules, declared)]
            declared = rulesetfile.within(rules, declared)
        else:
            configs = fuzz_configurations(declared, args.ruleset)
        if not configs:
            raise InputError("--ruleset", "the engine declares no configuration to fuzz (no claimed ruleset, and no options that fit one)")
        start = time.perf_counter()
        step = max(1, args.games // 10)

        def progress(done: int, total: int, report: FuzzReport) -> None:
            if done % step == 0 or done == total:
                rate = done / max(time.perf_counter() - start, 1e-9)
                print(
                    f"fuzz: {done}/{total} rounds, {counted(len(report.found), 'divergence class', 'divergence classes')}, "
                    f"{rate:.0f} rounds/s",
                    file=sys.stderr,
                    flush=True,
                )

        verdicts = Verdicts(declared, dependencies.load(default_root()))

        def check(text: str) -> Verification:
            return _reproduces(text, engine, verdicts)

        report = fuzz(
            engine,
            rounds,
            args.seed,
            configs,
            args.max_divergences,
            progress,
            not args.no_shrink,
            args.guided,
            check,
            args.event_log,
            jobs=jobs,
            spawn=StdioSpawn(argv, options) if jobs > 1 else None,
            label=args.engine or " ".join(argv),
        )
        seconds = time.perf_counter() - start
    except EngineError as exc:
        print(f"gostop-conformance: the engine failed: {exc.kind}: {exc.message}", file=sys.stderr)
        return EXIT_FAIL
    finally:
        engine.close()
    print("fuzzed within the declaration: " + "; ".join(report.configurations))
    if args.shard is not None:
        print(f"shard {args.shard}: rounds {rounds.start + 1}-{rounds.stop} of the run's {args.games} (fuzz-merge joins the shards)")
    run = {
        "seed": args.seed,
        "games": args.games,
        "configurations": report.configurations,
        "event_log": args.event_log,
        "guided": args.guided,
        "engine": args.engine or " ".join(argv),
    }
    paths, lost = _fuzz_outputs(report, run, rounds, args.out)
    for line in fuzz_report_lines(report, paths, args.max_divergences):
        print(line)
    if lost is not None:
        print(f"gostop-conformance: error: {lost}", file=sys.stderr)
    rate = report.rounds / seconds if seconds else 0.0
    print(
        f"{counted(report.rounds, 'round')} in {seconds:.1f}s ({rate:.0f} rounds/s), "
        f"{counted(len(report.found), 'divergence class', 'divergence classes')}"
    )
    for line in fuzz_coverage_lines(report, guided=args.guided):
        print(line)
    return EXIT_FAIL if report.found or lost is not None else EXIT_OK


def _fuzz_outputs(
    report: FuzzReport, run: dict[str, Any], rounds: range | list[tuple[int, int]], out: Path
) -> tuple[dict[tuple[str, ...], Path], str | None]:
    """The classes' scenarios and the results file written into `out`: their paths, by class, and
    why they could not all be written (None: they were). The divergences are printed either way,
    each with the seed that replays it."""
    try:
        paths = write_scenarios(report, out)
        fuzzsave.save(report, run, rounds, out / FUZZ_FILE)
    except OSError as exc:
        return {}, f"the results could not all be written into {out}: {exc.strerror or exc}"
    return paths, None


def _fuzz_merge(args: argparse.Namespace) -> int:
    writable_dir("--out", args.out)
    parts = [fuzzsave.load(path / FUZZ_FILE if path.is_dir() else path) for path in args.results]
    merged = fuzzsave.merge(parts)
    report, run = merged.report, merged.run
    print(
        f"merged {counted(len(parts), 'fuzz result')} of seed {run['seed']}, {counted(run['games'], 'round')}: "
        f"{counted(report.rounds, 'round')} played"
    )
    print("fuzzed within the declaration: " + "; ".join(report.configurations))
    paths, lost = _fuzz_outputs(report, run, merged.rounds, args.out)
    missing = merged.missing
    if missing:
        gaps = ", ".join(f"{a + 1}-{b}" for a, b in missing)
        print(f"NOT GREEN: no results for rounds {gaps} of the run's {run['games']}: a shard is missing or failed")
    for line in fuzz_report_lines(report, paths, len(report.found)):
        print(line)
    if lost is not None:
        print(f"gostop-conformance: error: {lost}", file=sys.stderr)
    print(f"{counted(report.rounds, 'round')}, {counted(len(report.found), 'divergence class', 'divergence classes')}")
    for line in fuzz_coverage_lines(report, guided=run["guided"]):
        print(line)
    return EXIT_FAIL if report.found or missing or lost is not None else EXIT_OK


def _profile(args: argparse.Namespace) -> int:
    argv = _required_engine(args)
    registry = option_registry()
    unknown = [o for o in args.option if o not in registry]
    if unknown:
        raise InputError("--option", f"unknown option {unknown[0]!r}; expected an option id of spec/options.yaml")
    if args.base is not None and args.base not in ruleset_ids():
        raise InputError("--base", f"unknown ruleset {args.base!r}")
    rules = _rules(args.ruleset_file)
    jobs = bounds.jobs(args.jobs, force=args.force_jobs)
    timeout = bounds.seconds("--timeout", args.timeout)
    writable_dir("--out", args.out)
    root = default_root()
    corpus = load_corpus(root)
    engine = StdioEngine(argv, message_timeout=timeout)
    try:
        hello = engine.start()
        claimed = [c if isinstance(c, str) else c.get("id") for c in hello.get("rulesets") or []]
        known = [str(c) for c in claimed if c in ruleset_ids()]
        base = args.base or (rules.base if rules is not None else "matgo-2p" if "matgo-2p" in known or not known else known[0])
        spawn = StdioSpawn(argv, {"message_timeout": timeout}) if jobs > 1 else None
        stored = dependencies.load(root)
        found = profiles.profile(
            engine, corpus, stored, args.option, base=base, jobs=jobs, spawn=spawn, undeclared=_undeclared(hello, corpus, stored)
        )
    except EngineError as exc:
        print(f"gostop-conformance: the engine failed: {exc.kind}: {exc.message}", file=sys.stderr)
        return EXIT_FAIL
    finally:
        engine.close()
    lines = profiles.table(found, base)
    for line in lines:
        print(line)
    if rules is not None:
        for line in rulesetfile.profile_against(found, rules):
            print(line)
    declared = profiles.declaration(found, [args.base] if args.base else known or [base], hello)
    identity = hello.get("engine")
    name = engine_text(identity.get("name") if isinstance(identity, dict) and identity.get("name") else " ".join(argv))
    ruleset_text, parent = rulesetfile.profile_ruleset(found, hello, name, base)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "profile.yaml").write_text(ruleset_text, encoding="utf-8")
    (args.out / "profile.json").write_text(json.dumps(declared, indent=2) + "\n", encoding="utf-8")
    (args.out / "findings.json").write_text(json.dumps(profiles.findings(found), indent=2) + "\n", encoding="utf-8")
    detail = [
        "| option | the engine plays | evidence | conclusive | unexplained | differ elsewhere first | inconclusive |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in found:
        cells = [", ".join(p.scenarios) or "-", ", ".join(p.unexplained) or "-", str(len(p.elsewhere)), str(len(p.inconclusive))]
        detail.append(f"| `{p.option}` | {p.verdict} | {p.confidence} | " + " | ".join(cells) + " |")
    (args.out / "profile.md").write_text(
        "\n".join([f"## Profile against {base}", "", "```text", *lines, "```", "", *detail]) + "\n", encoding="utf-8"
    )
    print(
        f"wrote {args.out}/profile.json (a hello declaration for what was found), {args.out}/profile.yaml (the findings as a "
        f"ruleset file inheriting from {parent}), {args.out}/profile.md and {args.out}/findings.json"
    )
    return EXIT_OK


def _undeclared(hello: dict[str, Any], corpus: Sequence[Any], stored: Mapping[str, Any]) -> dict[str, frozenset[str]]:
    """Per scenario, the options whose value there the engine's hello does not declare: unsupported,
    unknown, or declared with other values only (the engine plays another value of them, so the
    scenario says nothing of a third option); nothing for a hello whose declaration is not valid:
    the profile is how to find one."""
    try:
        verdicts = Verdicts(parse(hello), stored)
    except DeclarationError:
        return {}
    out: dict[str, frozenset[str]] = {}
    for sc in corpus:
        v = verdicts.of(sc)
        out[sc.id] = v.scenario.unjudged if v.scenario is not None else frozenset(n.option for n in v.needs)
    return out


def _reproduces(text: str, engine: StdioEngine, verdicts: Verdicts) -> Verification:
    """A written scenario run as `gostop-conformance run` would run it for this engine: under its
    declaration (substituted values, undeclared options unjudged), it must pass the reference and
    fail the engine; a scenario the declaration does not run is a divergence outside it."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "scenarios" / "fuzz"
        folder.mkdir(parents=True)
        (folder / "case.yaml").write_text(text, encoding="utf-8")
        try:
            [scenario] = load_corpus(Path(tmp) / "scenarios")
            verdict = verdicts.of(scenario)
        except InputError:
            return Verification(False)
    if verdict.scenario is None:
        return Verification(False, outside=verdict.reason())
    sent = verdict.scenario
    if run_scenario(ReferenceEngine(), sent).outcome != PASS:
        return Verification(False)
    try:
        return Verification(run_scenario(engine, sent).outcome != PASS)
    except EngineError:
        return Verification(True)


def _perft(args: argparse.Namespace) -> int:
    cases = [c for c in load_perft(args.deal) if args.id is None or c.id == args.id]
    if not cases:
        raise InputError("--id", f"no table {args.id!r} in {args.deal}")
    bounds.count("--depth", args.depth, 1, bounds.MAX_PERFT_DEPTH, "a number of plies")
    if args.write:
        writable_file("--deal", args.deal)
    timeout = bounds.seconds("--timeout", args.timeout)
    engine = StdioEngine(bounds.engine_argv(args.engine, args.engine_option), message_timeout=timeout) if args.engine is not None else None
    if args.write and engine is not None:
        raise InputError("--write", "tables are written from the reference engine only; drop --engine")
    status = EXIT_OK
    written: list[tuple[PerftCase, list[dict[str, int]]]] = []
    try:
        for case in cases:
            depth = case.depth if args.write else args.depth
            start = time.perf_counter()
            table = perft_engine(engine, case, depth) if engine is not None else reference_table(case, depth)
            seconds = time.perf_counter() - start
            nodes = sum(int(row["nodes"]) for row in table)
            rate = nodes / seconds if seconds else 0.0
            print(f"{case.id} ({case.ruleset}), depth {depth}: {counted(nodes, 'node')} in {seconds:.2f}s ({rate:.0f} nodes/s)")
            for ply, row in enumerate(table, 1):
                expected = case.expected[ply - 1] if ply <= len(case.expected) else None
                mark = (
                    ""
                    if expected is None
                    else ("  ok" if all(row.get(k) == v for k, v in expected.items()) else f"  DIFFERS from {expected}")
                )
                print(f"  ply {ply}: " + " ".join(f"{k}={v}" for k, v in row.items() if v) + mark)
                if mark.startswith("  DIFFERS"):
                    status = EXIT_FAIL
            if status and args.divide and engine is not None:
                for line in divide_walk(engine, case, args.depth):
                    print("  divide: " + line)
            written.append((case, table))
        if args.write:
            write_perft(args.deal, written)
            print(f"wrote {counted(len(written), 'table')} to {args.deal}")
    except EngineError as exc:
        print(f"gostop-conformance: the engine failed: {exc.kind}: {exc.message}", file=sys.stderr)
        return EXIT_FAIL
    finally:
        if engine is not None:
            engine.close()
    return status


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None, *, interrupts: Interrupts | None = None) -> int:
    # an engine's text (its error messages, its name, a value in its replies) reaches the console, and
    # may hold characters the console's encoding cannot (a Latin-1 locale, PYTHONIOENCODING=ascii, a
    # redirected Windows console): they are shown escaped, never a UnicodeEncodeError that ends the
    # run before its reports are written. stderr escapes them already (Python's default for it).
    stdout = sys.stdout
    errors = getattr(stdout, "errors", None)
    reconfigure = getattr(stdout, "reconfigure", None)
    if reconfigure is not None and errors == "strict":
        reconfigure(errors="backslashreplace")
    try:
        return run_guarded(lambda a: _main(a, interrupts), argv)
    finally:
        if reconfigure is not None and errors == "strict":
            with contextlib.suppress(ValueError):  # closed meanwhile
                reconfigure(errors=errors)
