"""What the project's command lines share (`gostop-reference`, `gostop-conformance`): the exit
codes, and the guard that keeps a command going when whoever reads its output has gone."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, Final

EXIT_OK: Final = 0
EXIT_FAIL: Final = 1
EXIT_USAGE: Final = 2


class _Unread:
    """A text stream whose reader may go away (`| head -2`): from then on what is written is dropped
    instead of raising, so that a run still writes its reports and still exits with its verdict
    (under `set -o pipefail` a lost terminal must not turn a failing run into exit 0)."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._lost()
        return len(text)

    def flush(self) -> None:
        flush = getattr(self._stream, "flush", None)  # a stand-in stream (a test's) may have none
        if not self.gone and flush is not None:
            try:
                flush()
            except BrokenPipeError:
                self._lost()

    def _lost(self) -> None:
        self.gone = True
        # what is still buffered can never be delivered; the descriptor now leads nowhere, so that
        # the interpreter's own flush at exit does not raise again
        with contextlib.suppress(OSError, ValueError), open(os.devnull, "w", encoding="utf-8") as null:
            os.dup2(null.fileno(), self._stream.fileno())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def run_guarded(command: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None) -> int:
    """Run a command's main with stdout and stderr that survive their reader going away."""
    saved = sys.stdout, sys.stderr
    out, err = _Unread(sys.stdout), _Unread(sys.stderr)
    sys.stdout, sys.stderr = out, err
    try:
        return command(argv)
    except BrokenPipeError:  # a binary write (the stdio server's replies): nobody reads any more
        with open(os.devnull, "w", encoding="utf-8") as null:
            os.dup2(null.fileno(), saved[0].fileno())
        return EXIT_OK
    finally:
        out.flush()
        err.flush()
        sys.stdout, sys.stderr = saved
