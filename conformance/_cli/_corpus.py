"""`lint`, `dependencies`, `coverage`, `mutants` and `export`: the corpus checked, measured and exported."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Final

from gostop_conformance.harness import _bounds as bounds
from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness import _derivecache as derivecache
from gostop_conformance.harness import _rulesetfile as rulesetfile
from gostop_conformance.harness._cli._common import (
    FORCE_JOBS_HELP,
    NO_CACHE_HELP,
    RULES_HELP,
    AddParser,
    Command,
    wrote,
)
from gostop_conformance.harness._export import export_corpus
from gostop_conformance.harness._lint import (
    breadth_lines,
    coverage,
    coverage_lines,
    coverage_markdown,
    lint,
    lint_lines,
    single_configurations,
    two_player_gaps,
)
from gostop_conformance.harness._mutation import kill_rate, report_lines, report_markdown, run_mutants
from gostop_conformance.harness._outputs import writable_file, written_whole
from gostop_conformance.harness._scenarios import default_root, load_corpus
from gostop_conformance.mutants import MUTANTS
from gostop_conformance.spec import (
    EXIT_FAIL,
    EXIT_OK,
    InputError,
    clauses,
    counted,
    load_ruleset_file,
)


def _add_lint(add_parser: AddParser) -> None:
    lint_p = add_parser("lint", help="check the corpus: clauses cited and covered, scenarios legal, option values exercised")
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


def _add_dependencies(add_parser: AddParser) -> None:
    dep = add_parser("dependencies", help="derive which options each scenario's outcome depends on (scenarios/dependencies.yaml)")
    dep.add_argument("--scenarios", type=Path, default=None)
    dep.add_argument("--write", action="store_true", help="write <scenarios>/dependencies.yaml")
    dep.add_argument("--id", action="append", default=[], help="print the dependencies of this scenario (repeatable)")
    dep.add_argument("--jobs", type=int, default=0, help="processes (default: every core); the result does not depend on it")
    dep.add_argument("--force-jobs", action="store_true", help=FORCE_JOBS_HELP)
    dep.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)


def _add_coverage(add_parser: AddParser) -> None:
    cov = add_parser("coverage", help="clause x ruleset x polarity: declared by scenarios against observed in the rule-hit trace")
    cov.add_argument("--scenarios", type=Path, default=None)
    cov.add_argument("--markdown", type=Path, default=None, help="also write the table as markdown")


def _add_mutants(add_parser: AddParser) -> None:
    mut = add_parser("mutants", help="run the corpus against semantic mutants of the reference engine; report the kill rate")
    mut.add_argument("--scenarios", type=Path, default=None)
    mut.add_argument("--mutant", action="append", default=[], help="only this mutant (repeatable)")
    mut.add_argument("--all-killers", action="store_true", help="list every killing scenario, not only the first")
    mut.add_argument("--markdown", type=Path, default=None, help="also write the table as markdown")
    mut.add_argument("--min-kill-rate", type=float, default=0.0, help="fail when the kill rate is below this fraction")


def _add_export(add_parser: AddParser) -> None:
    exp = add_parser(
        "export", help="write the corpus as plain JSON: every scenario's requests and the checks of their replies (docs/export.md)"
    )
    exp.add_argument("--format", choices=("json",), default="json", help="the export's format (json, the only one)")
    exp.add_argument("--out", required=True, help="the file to write (one file: the whole corpus); - writes to standard output")
    exp.add_argument("--scenarios", type=Path, default=None, help="scenario directory (default: the bundled corpus)")


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
    for line in lint_lines(report, len(corpus), verbose=args.verbose):
        print(line)
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
    for line in dependencies.summary_lines(found, args.id):
        print(line)
    return EXIT_OK


def _coverage(args: argparse.Namespace) -> int:
    if args.markdown:
        writable_file("--markdown", args.markdown)
    corpus = load_corpus(args.scenarios or default_root())
    report = coverage(corpus)
    lines = coverage_lines(report)
    for line in lines:
        print(line)
    # every behaviour pinned under two configurations at least (issue 15): one configuration fails;
    # most engines are two-player Matgo engines (issue 39): whatever applies to two players is pinned there
    deps = dependencies.load(args.scenarios or default_root())
    single = single_configurations(corpus, deps)
    gaps = two_player_gaps(corpus, deps)
    for line in breadth_lines(corpus, single, gaps):
        print(line)
    if args.markdown and not wrote("--markdown", args.markdown, "\n".join(coverage_markdown(report)) + "\n"):
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
    if args.markdown and not wrote("--markdown", args.markdown, "\n".join(report_markdown(results)) + "\n"):
        return EXIT_FAIL
    rate = kill_rate(results)
    if rate < args.min_kill_rate:
        print(f"NOT GREEN: the kill rate {rate:.1%} is below --min-kill-rate {args.min_kill_rate:.1%}")
        return EXIT_FAIL
    return EXIT_OK


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
    print(f"wrote {out}: {counted(exported.scenarios, 'scenario')} of corpus {exported.corpus_digest}, {len(data):,} bytes")
    return EXIT_OK


#: the commands of this module, by name
COMMANDS: Final = {
    "lint": Command(_add_lint, _lint),
    "dependencies": Command(_add_dependencies, _dependencies),
    "coverage": Command(_add_coverage, _coverage),
    "mutants": Command(_add_mutants, _mutants),
    "export": Command(_add_export, _export),
}
