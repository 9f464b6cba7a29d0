"""Values from the command line (of `gostop-conformance` and of the pytest plugin): numbers
bounded by what they mean and by what this machine has, and the engine command split and found;
a located error (the option, what it accepts, the value given) instead of a traceback, a silent
exit or a million worker processes."""

from __future__ import annotations

import math
import os
import shlex
import shutil
from pathlib import Path
from typing import Final

from gostop_conformance.harness._defaults import MAX_PIPELINE, MAX_SECONDS
from gostop_conformance.spec import InputError

#: processes one command may start even when forced (each is a whole engine or interpreter)
MAX_JOBS: Final = 64
#: perft plies at most: the published tables stop at 7, and each ply multiplies the work by the
#: branching factor (about 10), so depth 10 is already hours
MAX_PERFT_DEPTH: Final = 10


def cores() -> int:
    """The cores this process may run on (its affinity, not the machine's total)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def jobs(value: int, *, force: bool = False, zero_is_cores: bool = True, what: str = "worker processes") -> int:
    """--jobs: 0 is every core (where the command allows it); above the cores only with
    --force-jobs (an engine that waits on something other than the CPU), never above MAX_JOBS."""
    have = cores()
    if value == 0 and zero_is_cores:
        return have
    ceiling = MAX_JOBS if force else min(have, MAX_JOBS)
    if 1 <= value <= ceiling:
        return value
    zero = "0 (every core) or " if zero_is_cores else ""
    if value > ceiling and not force and value <= MAX_JOBS:
        raise InputError(
            "--jobs",
            f"expected {zero}1 to {ceiling} {what} (this machine has {have} cores; --force-jobs allows up to {MAX_JOBS}), got {value}",
        )
    raise InputError("--jobs", f"expected {zero}1 to {ceiling} {what}, got {value}")


def seconds(option: str, value: float) -> float:
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise InputError(option, f"expected a number of seconds above 0 and at most {MAX_SECONDS:g}, got {value!r}")
    return value


def pipeline(depth: int, option: str = "--pipeline") -> int:
    if not 0 <= depth <= MAX_PIPELINE:
        raise InputError(option, f"expected 0 to {MAX_PIPELINE} requests in flight, got {depth}")
    return depth


def count(option: str, value: int, low: int, high: int, what: str) -> int:
    """A whole number in [low, high]."""
    if not low <= value <= high:
        raise InputError(option, f"expected {what} from {low} to {high}, got {value}")
    return value


def fraction(option: str, value: float) -> float:
    """A share from 0 to 1 (NaN compares false with everything, so it is refused by name)."""
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise InputError(option, f"expected a fraction from 0 to 1, got {value!r}")
    return value


def engine_argv(command: str, option: str = "--engine") -> list[str]:
    """The engine command (of `option`: --engine, $GOSTOP_ENGINE, --gostop-engine) split like a
    shell would, though it is never run through one, and its program found."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise InputError(option, f"cannot split {command!r} into a command: {exc}") from None
    if not argv:
        raise InputError(option, "empty command")
    program = argv[0]
    if "/" in program:
        found = Path(program)
        if not found.exists():
            raise InputError(option, f"{program} does not exist")
        if found.is_dir() or not os.access(found, os.X_OK):
            raise InputError(option, f"{program} is not an executable file")
    elif shutil.which(program) is None:
        raise InputError(option, f"cannot find {program!r}: it is not on PATH")
    return argv
