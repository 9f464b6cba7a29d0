"""gostop-reference on the command line."""

from __future__ import annotations

import subprocess
import sys


def test_output_into_a_closed_pipe_is_not_an_error() -> None:
    """`gostop-reference rulesets | head -0`: the reader has gone before the first line."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gostop_conformance.reference", "rulesets"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err


def _play(ruleset: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "gostop_conformance.reference", "play", "--ruleset", ruleset, "--seed", "1", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def test_play_shows_card_points_in_the_point_count_variant() -> None:
    """R-PC-CARD-POINTS: a family round counts card values; Go-Stop points mean nothing there."""
    out = _play("family-3p")
    assert " card points): " in out and " pts): " not in out


def test_play_shows_go_stop_points_in_go_stop() -> None:
    out = _play("matgo-2p")
    assert " pts): " in out and " card points): " not in out
