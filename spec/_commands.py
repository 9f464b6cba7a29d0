"""What the project's command lines share (`gostop-reference`, `gostop-conformance`): the exit
codes, and the guard that ends a command quietly when whoever reads its output has gone."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Final

EXIT_OK: Final = 0
EXIT_FAIL: Final = 1
EXIT_USAGE: Final = 2


def run_guarded(command: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None) -> int:
    """Run a command's main; it ends quietly when whoever reads its output has gone (`| head`)."""
    try:
        return command(argv)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush at exit
        return EXIT_OK
