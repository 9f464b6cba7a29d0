"""SIGTERM as Ctrl-C while a command works, and nothing once its result stands.

A CI job that is cancelled sends SIGTERM; the harness must then stop as it does on Ctrl-C (end its
engines, write what it has, mark the rest NOT_RUN). Once a run's result exists, a signal must no
longer change it: the reports being written are finished, and the process exits with the verdict
they hold. Restoring the default disposition at that point would let a late SIGTERM kill the
process between writing a complete report and exiting, so the exit status would contradict the
report.
"""

from __future__ import annotations

import signal
from typing import Final

#: what the shell reports for a stop with no signal recorded (Ctrl-C raised KeyboardInterrupt itself)
_DEFAULT_SIGNAL: Final = signal.SIGINT


class Interrupts:
    """A signal handler that raises KeyboardInterrupt while armed and only records once disarmed."""

    def __init__(self) -> None:
        self.received: list[int] = []
        self.armed = True

    def __call__(self, signum: int, frame: object) -> None:
        self.received.append(signum)
        if self.armed:
            raise KeyboardInterrupt

    def disarm(self) -> None:
        """The result stands: later signals are recorded and change nothing."""
        self.armed = False

    def exit_code(self) -> int:
        """The shell's convention for a stop by a signal: 128 + its number."""
        return 128 + (self.received[0] if self.received else _DEFAULT_SIGNAL)
