"""gostop-conformance on the command line."""

from __future__ import annotations

import subprocess
import sys


def test_output_into_a_closed_pipe_is_not_an_error() -> None:
    """`gostop-conformance rulesets | head -0`: the reader has gone before the first line."""
    code = "import sys; from conformance._cli import main; sys.exit(main(['rulesets']))"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err
