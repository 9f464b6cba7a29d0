"""The engine process's pipes (conformance/_transport.py): every write and every read has a
deadline, whatever the engine does with its end."""

from __future__ import annotations

import sys
import time

import pytest

from gostop_conformance.harness._engine import EngineError
from gostop_conformance.harness._transport import Transport

#: an engine that never reads its input and never answers
DEAF = [sys.executable, "-c", "import time; time.sleep(60)"]


def test_a_write_to_an_engine_that_never_reads_times_out() -> None:
    transport = Transport(DEAF, message_timeout=0.5, max_line=1 << 20, stderr_limit=1 << 16)
    transport.open()
    try:
        start = time.monotonic()
        with pytest.raises(EngineError) as caught:
            for _ in range(64):  # far more than a pipe holds (64 KiB on Linux, 1 MiB at most)
                transport.send("new_game", {"pad": "x" * (256 << 10)})
                transport.flush()  # sent requests are written in batches, here one by one
        assert caught.value.kind == "timeout"
        assert "did not read its input" in caught.value.message
        assert time.monotonic() - start < 5.0
    finally:
        transport.close()


def test_a_write_to_an_engine_that_exited_is_a_crash() -> None:
    transport = Transport([sys.executable, "-c", "pass"], message_timeout=2.0, max_line=1 << 20, stderr_limit=1 << 16)
    transport.open()
    try:
        assert transport.proc is not None
        transport.proc.wait(timeout=10)
        with pytest.raises(EngineError) as caught:
            for _ in range(64):
                transport.send("new_game", {"pad": "x" * (64 << 10)})
                transport.flush()
        assert caught.value.kind == "crash"
    finally:
        transport.close()
