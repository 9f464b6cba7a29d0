"""benchmarks/peer.py without a peer: it says why it does not run and exits 0 (the issue's
'skips with a clear message'), and a path that is no checkout is a clear error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PEER = Path(__file__).resolve().parents[2] / "benchmarks" / "peer.py"


def _run(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GOSTOP_TS"}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, str(PEER), *args], capture_output=True, text=True, env=env, check=False)


def test_no_checkout_skips() -> None:
    out = _run()
    assert out.returncode == 0
    assert out.stdout.startswith("skipped: no peer checkout given")


def test_no_node_skips(tmp_path: Path) -> None:
    out = _run("--peer", str(tmp_path), path=str(tmp_path))  # a PATH where no node can be found
    assert out.returncode == 0
    assert out.stdout.startswith("skipped: node is not on PATH")


def test_not_a_checkout_is_an_error(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("no node on this machine: peer.py skips before it looks at the checkout")
    out = _run("--peer", str(tmp_path))
    assert out.returncode != 0
    assert "not a gostop-ts checkout" in out.stderr
