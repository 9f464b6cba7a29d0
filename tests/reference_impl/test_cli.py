"""gostop-reference on the command line."""

from __future__ import annotations

import subprocess
import sys


def test_output_into_a_closed_pipe_is_not_an_error() -> None:
    """`gostop-reference rulesets | head -0`: the reader has gone before the first line."""
    proc = subprocess.Popen([sys.executable, "-m", "reference_impl", "rulesets"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err
