"""`run`, `support` and `smoke`: an engine checked against the corpus, its declaration read, its adapter tried."""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from pathlib import Path
from typing import Any, Final

from gostop_conformance.harness import _bounds as bounds
from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness import _rulesetfile as rulesetfile
from gostop_conformance.harness import _saved as saved
from gostop_conformance.harness._cli._common import (
    FORCE_JOBS_HELP,
    PIPELINE_HELP,
    RULES_HELP,
    STARTUP_HELP,
    TIMEOUT_HELP,
    AddParser,
    Command,
    required_engine,
    ruleset_file,
    shard_part,
    warn,
)
from gostop_conformance.harness._declaration import DeclarationError, Verdicts, parse, support_lines
from gostop_conformance.harness._defaults import DEFAULT_PIPELINE, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT
from gostop_conformance.harness._engine import EngineError
from gostop_conformance.harness._harness import RunReport, engine_factory, ledger_corpus, load_ledger, run
from gostop_conformance.harness._live import LiveOutput
from gostop_conformance.harness._outputs import REPORT_FILES, claimed_report_dir
from gostop_conformance.harness._reporters import (
    summary_lines,
    support_profile,
    write_jsonl,
    write_junit,
    write_markdown,
    write_reproducers,
)
from gostop_conformance.harness._safetext import terminal_safe
from gostop_conformance.harness._scenarios import check_selection, corpus_digest, default_root, load_corpus, select, shard
from gostop_conformance.harness._smoke import run_smoke
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.spec import (
    EXIT_FAIL,
    EXIT_OK,
    InputError,
    counted,
    parse_json,
)


def _add_run(add_parser: AddParser) -> None:
    run_p = add_parser("run", help="run the scenario corpus against an engine (default: the bundled reference engine, in process)")
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


def _add_support(add_parser: AddParser) -> None:
    sup = add_parser("support", help="what an engine's hello declaration lets run; which undeclared values would unlock the most")
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


def _add_smoke(add_parser: AddParser) -> None:
    smoke = add_parser("smoke", help="check an engine adapter: handshake, card ids, one capture, one rejection")
    smoke.add_argument("--engine", help="engine command, as for run (default: $GOSTOP_ENGINE)")
    smoke.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help=TIMEOUT_HELP)
    smoke.add_argument("--startup-timeout", type=float, default=DEFAULT_STARTUP_TIMEOUT, help=STARTUP_HELP)


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
    part = shard_part(args.shard)
    argv = (
        bounds.engine_argv(args.engine, args.engine_option) if args.engine is not None else None
    )  # "" is an empty command, not the default
    rules = ruleset_file(args.ruleset_file)
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
            warn(
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


def _support(args: argparse.Namespace) -> int:
    bounds.count("--top", args.top, 1, 10_000, "a number of lines")
    root = args.scenarios or default_root()
    everything = load_corpus(root)
    check_selection(everything, rulesets=args.ruleset)
    corpus = select(everything, rulesets=args.ruleset)
    if not corpus:
        raise InputError("selection", "no scenario matches the selection")
    rules = ruleset_file(args.ruleset_file)
    hello: dict[str, Any] = {}
    if args.hello is not None:
        try:
            hello = parse_json(args.hello.read_bytes())
        except (OSError, ValueError) as exc:
            raise InputError(str(args.hello), f"expected a file holding a hello reply as JSON: {exc}") from None
        if not isinstance(hello, dict):
            raise InputError(str(args.hello), "expected a JSON object (a hello reply)")
    elif args.engine is not None or rules is None:  # a ruleset file alone needs no engine: it says what is played
        argv = required_engine(args)
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
    for line in support_lines(corpus, found, hello, args.top):
        print(line)
    if rules is not None:
        outcomes = [(sc, "RUN" if v.supported else "UNSUPPORTED", v) for sc, v in zip(corpus, found, strict=True)]
        for line in rulesetfile.report_lines(rules, outcomes, stored):
            print(line)
    return EXIT_OK


def _smoke(args: argparse.Namespace) -> int:
    argv = required_engine(args)
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


#: the commands of this module, by name
COMMANDS: Final = {
    "run": Command(_add_run, _run),
    "support": Command(_add_support, _support),
    "smoke": Command(_add_smoke, _smoke),
}
