"""`gostop-conformance` from its first moment: the command line's own module takes a third of a
second to import, and a signal in that time must neither print a traceback nor leave an earlier
run's green reports looking current. So before importing it, this module turns SIGTERM into
the same clean stop as Ctrl-C, and empties the report folder a `run` will write."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    main_thread = threading.current_thread() is threading.main_thread()  # only there can a handler be set
    previous = signal.signal(signal.SIGTERM, stop) if main_thread else None
    try:
        _invalidate_reports(sys.argv[1:] if argv is None else list(argv))
        from gostop_conformance.harness._cli import main as command
    except KeyboardInterrupt:
        print("gostop-conformance: interrupted", file=sys.stderr)
        return 128 + (received[0] if received else signal.SIGINT)
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
    return command(argv)


def _invalidate_reports(argv: list[str]) -> None:
    """For `run`: the earlier reports in its report folder removed now, under the folder's lock
    (never while another run writes there). Best effort: any problem is left to the command,
    which checks the folder again and says what is wrong."""
    if not argv or argv[0] != "run":
        return
    early = argparse.ArgumentParser(add_help=False, allow_abbrev=False, exit_on_error=False)
    early.add_argument("--report-dir", type=Path, default=Path("reports"))
    early.add_argument("--no-reports", action="store_true")
    try:
        known, _ = early.parse_known_args(argv[1:])
    except argparse.ArgumentError:
        return
    if known.no_reports or not known.report_dir.is_dir():
        return
    from gostop_conformance.harness._outputs import claimed_report_dir
    from gostop_conformance.spec import InputError

    with contextlib.suppress(InputError), claimed_report_dir("--report-dir", known.report_dir):
        pass
