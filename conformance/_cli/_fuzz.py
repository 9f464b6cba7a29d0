"""`fuzz` and `fuzz-merge`: differential fuzzing against the reference engine, and its shards merged."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Final

from gostop_conformance.harness import _bounds as bounds
from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness import _fuzzsave as fuzzsave
from gostop_conformance.harness import _rulesetfile as rulesetfile
from gostop_conformance.harness._cli._common import (
    FORCE_JOBS_HELP,
    JOBS_HELP,
    PIPELINE_HELP,
    RULES_HELP,
    TIMEOUT_HELP,
    AddParser,
    Command,
    required_engine,
    ruleset_file,
    shard_part,
)
from gostop_conformance.harness._declaration import DeclarationError, Verdicts, parse
from gostop_conformance.harness._defaults import DEFAULT_PIPELINE, DEFAULT_TIMEOUT
from gostop_conformance.harness._engine import EngineError
from gostop_conformance.harness._fuzz import (
    FuzzReport,
    Verification,
    fuzz,
    fuzz_configurations,
    fuzz_coverage_lines,
    fuzz_report_lines,
    reproduces,
    write_scenarios,
)
from gostop_conformance.harness._fuzzsave import FILE_NAME as FUZZ_FILE
from gostop_conformance.harness._fuzzsave import shard_range
from gostop_conformance.harness._jobs import StdioSpawn
from gostop_conformance.harness._outputs import writable_dir
from gostop_conformance.harness._scenarios import default_root
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.spec import (
    EXIT_FAIL,
    EXIT_OK,
    InputError,
    counted,
    ruleset_ids,
)


def _add_fuzz(add_parser: AddParser) -> None:
    fz = add_parser("fuzz", help="differential fuzzing against the reference engine, shrinking the first divergences into scenarios")
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


def _add_fuzz_merge(add_parser: AddParser) -> None:
    fm = add_parser("fuzz-merge", help="merge the results of several fuzz runs (the shards of one run) into one report")
    fm.add_argument("results", type=Path, nargs="+", help=f"{FUZZ_FILE} files, or the --out folders of fuzz runs that hold one")
    fm.add_argument("--out", type=Path, default=Path("reports/fuzz"), help=f"where the merged {FUZZ_FILE} and the classes' scenarios go")


#: the most rounds one fuzz run plays (a day of the fastest engine; --shard splits a longer campaign)
MAX_GAMES: Final = 1_000_000_000


def _fuzz(args: argparse.Namespace) -> int:
    argv = required_engine(args)
    bounds.count("--games", args.games, 1, MAX_GAMES, "a number of rounds")
    if args.max_divergences < 1:
        raise InputError("--max-divergences", f"expected a positive number, got {args.max_divergences}")
    writable_dir("--out", args.out)  # before the fuzzing: its divergences must have somewhere to go
    rules = ruleset_file(args.ruleset_file)
    if rules is not None and args.ruleset:
        raise InputError("--ruleset-file", "give --ruleset or --ruleset-file, not both")
    unknown = [r for r in args.ruleset if r not in ruleset_ids()]
    if unknown:
        raise InputError("--ruleset", f"unknown ruleset {unknown[0]!r}")
    jobs = bounds.jobs(args.jobs, force=args.force_jobs)
    if jobs > 1 and args.guided:
        raise InputError("--jobs", "--guided picks each round from what the rounds before it reached: it runs in one job")
    rounds = shard_range(args.games, shard_part(args.shard))
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
            return reproduces(text, engine, verdicts)

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


#: the commands of this module, by name
COMMANDS: Final = {
    "fuzz": Command(_add_fuzz, _fuzz),
    "fuzz-merge": Command(_add_fuzz_merge, _fuzz_merge),
}
