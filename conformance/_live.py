"""What a run prints while it runs: each finished scenario's line as it finishes, so that a CI log
shows progress and problems as they happen, not only at the end.

On a terminal a progress bar with the rate and the time left stays at the bottom (rich), and the
lines scroll above it; `NO_COLOR` is respected (rich reads it). Anywhere else (a CI log, a pipe),
the lines are printed as they come and a progress line goes to stderr every tenth of the run.
With `--quiet`, only problems are printed one by one. The lines go to stdout, the bar and the
progress lines to stderr.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from typing import Final, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from gostop_conformance.harness._harness import XFAIL, Record
from gostop_conformance.harness._reporters import console_line
from gostop_conformance.harness._runner import PASS, UNSUPPORTED
from gostop_conformance.spec import counted

#: outcomes --quiet does not print one by one (the summary counts and groups them)
QUIET: Final = frozenset({PASS, UNSUPPORTED, XFAIL})
#: outcomes counted as problems in the progress line
_PROBLEMS: Final = frozenset({"FAIL", "ERROR", "CRASH", "TIMEOUT", "PROTOCOL", "XPASS"})


class LiveOutput:
    """Receives each record as a worker finishes it (any thread), prints it, shows the progress."""

    def __init__(self, total: int, quiet: bool, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.total = total
        self.quiet = quiet
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.lock = threading.Lock()
        self.done = 0
        self.counts: Counter[str] = Counter()
        self.started = time.monotonic()
        self.step = max(1, total // 10)
        self.progress: Progress | None = None
        self.task: TaskID | None = None
        if self.out.isatty() and self.err.isatty():  # a person watching: a bar, the lines scrolling above it
            self.progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]:>6.1f}/s"),
                TextColumn("{task.fields[problems]}"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=Console(file=self.err),
                transient=True,
                redirect_stdout=False,
            )
            self.task = self.progress.add_task("scenarios", total=total, rate=0.0, problems="")
            self.progress.start()

    def record(self, record: Record) -> None:
        with self.lock:
            self.done += 1
            self.counts[record.outcome] += 1
            if not self.quiet or record.outcome not in QUIET:
                self._line(console_line(record))
            rate = self.done / max(time.monotonic() - self.started, 1e-9)
            problems = sum(n for outcome, n in self.counts.items() if outcome in _PROBLEMS)
            if self.progress is not None and self.task is not None:
                self.progress.update(self.task, completed=self.done, rate=rate, problems=counted(problems, "problem") if problems else "")
            elif self.done % self.step == 0 or self.done == self.total:
                percent = 100 * self.done // self.total
                shown = f", {counted(problems, 'problem')}" if problems else ""
                print(f"progress: {self.done}/{self.total} scenarios ({percent}%){shown}, {rate:.1f}/s", file=self.err, flush=True)

    def _line(self, text: str) -> None:
        if self.progress is not None:
            self.progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, file=self.out, flush=True)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
