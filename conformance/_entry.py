"""`gostop-conformance` from its first moment: the command line's own module takes a third of a
second to import, and a signal in that time must neither print a traceback nor leave an earlier
run's green reports looking current. So before importing it, this module turns SIGTERM into
the same clean stop as Ctrl-C, and empties the report folder a `run` will write.

The process is the command's own: the handlers set here stay for its whole life (the command
disarms them once its result stands), never the default, which would let a signal that lands
after the reports are written kill the process with a status that contradicts them.

Signals are held (blocked, not lost) from before the handlers are set until the earlier reports
are gone. What is left is the interpreter's own start, before this module runs: a SIGTERM there
ends the process with the signal's status (never 0), the earlier reports still in place."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from gostop_conformance.harness._interrupts import Interrupts

#: the signals that stop a command cleanly
_STOPS: Final = {signal.SIGINT, signal.SIGTERM}


def main(argv: Sequence[str] | None = None) -> int:
    interrupts = Interrupts()
    main_thread = threading.current_thread() is threading.main_thread()  # only there can a handler be set
    try:
        if main_thread:
            # held until the earlier reports are gone: a signal in between would stop the run with
            # the last run's green reports still in place (issue 38); it is taken once they are
            signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
            signal.signal(signal.SIGTERM, interrupts)
            signal.signal(signal.SIGINT, interrupts)
        try:
            _invalidate_reports(sys.argv[1:] if argv is None else list(argv))
        finally:
            if main_thread:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
        from gostop_conformance.harness._cli import main as command
    except KeyboardInterrupt:
        print("gostop-conformance: interrupted", file=sys.stderr)
        return interrupts.exit_code()
    code = command(argv, interrupts=interrupts)
    if threading.current_thread() is threading.main_thread():
        # the interpreter's shutdown puts back the default disposition of every Python handler
        # (which would let a late signal kill the process whose reports say it finished), but
        # leaves an ignored signal ignored
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return code


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
