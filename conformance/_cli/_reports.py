"""`summary`, `report` and `ledger`: saved report.jsonl files merged, published and turned into a ledger."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Final

from gostop_conformance.harness import _compat as compat
from gostop_conformance.harness import _saved as saved
from gostop_conformance.harness._cli._common import (
    AddParser,
    Command,
    warn,
    wrote,
)
from gostop_conformance.harness._outputs import claimed_report_dir, writable_dir, writable_file
from gostop_conformance.harness._reporters import (
    summary_lines,
    write_jsonl,
    write_junit,
    write_markdown,
)
from gostop_conformance.harness._scenarios import corpus_digest, default_root, load_corpus
from gostop_conformance.spec import (
    EXIT_FAIL,
    EXIT_OK,
    counted,
)


def _add_summary(add_parser: AddParser) -> None:
    summ = add_parser("summary", help="merge the report.jsonl files of several shards into one report (and one verdict)")
    summ.add_argument("reports", type=Path, nargs="+", help="report.jsonl files of one run's shards")
    summ.add_argument("--scenarios", type=Path, default=None, help="the corpus the run used (default: the bundled corpus)")
    summ.add_argument("--report-dir", type=Path, default=None, help="write the merged report.jsonl, junit.xml and summary.md here")


def _add_report(add_parser: AddParser) -> None:
    rep = add_parser("report", help="a static HTML compatibility report, and a badge per engine, from saved report.jsonl files")
    rep.add_argument("reports", type=Path, nargs="+", help="report.jsonl files: several engines, versions or runs")
    rep.add_argument("--out", type=Path, default=Path("compat"), help="folder for index.html and badges/ (default compat/)")


def _add_ledger(add_parser: AddParser) -> None:
    led = add_parser("ledger", help="write a known-failures ledger from a run's failures (each reason a placeholder to fill)")
    led.add_argument("reports", type=Path, nargs="+", help="report.jsonl files")
    led.add_argument("--out", type=Path, default=None, help="write the ledger here (default: print it)")


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
    warn(
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


def _ledger(args: argparse.Namespace) -> int:
    if args.out is not None:
        writable_file("--out", args.out)
    runs = [saved.read(path) for path in args.reports]
    warn(saved.runs_corpora(runs))
    text = saved.ledger_text(runs)
    if args.out is None:
        print(text, end="")
    elif not wrote("--out", args.out, text):
        return EXIT_FAIL
    else:
        print(f"wrote {args.out}: fill in every reason before using it (--known-failures refuses a placeholder)")
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    runs = [saved.read(path) for path in args.reports]
    warn(saved.runs_corpora(runs))  # the page says it too, above its overview
    try:
        written = compat.write(writable_dir("--out", args.out), runs)
    except OSError as exc:  # a full disk: said, never a traceback
        print(f"gostop-conformance: the report could not be written into {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAIL
    print(f"wrote {written[0]} and {counted(len(written) - 1, 'badge')} in {args.out}/badges/")
    return EXIT_OK


#: the commands of this module, by name
COMMANDS: Final = {
    "summary": Command(_add_summary, _summary),
    "report": Command(_add_report, _report),
    "ledger": Command(_add_ledger, _ledger),
}
