"""The engine process and its protocol lines: one request written as one line, one reply read
as one line with a deadline and a length limit (conformance/_pipes.py), decoded, parsed,
matched by its `seq` and validated against spec/protocol/. Every failure becomes an
`EngineError` of kind `crash`, `timeout` or `protocol`; nothing the engine does can stall or
bring down the harness. What is sent when is the pipeline's business (conformance/_pipeline.py)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
from collections.abc import Sequence
from typing import Any, Final

import orjson

from gostop_conformance.harness._engine import EngineError, reply_problem
from gostop_conformance.harness._pipes import EOF, OVERSIZE, LineReader, StderrBuffer

Json = dict[str, Any]

#: lines of transcript kept when no caller takes them (a perft replay sends millions)
TRANSCRIPT_LIMIT: Final = 20_000
#: characters of one transcript line kept (its first and last half): a reproducer shows the shape of a
#: huge reply, and a long run's memory stays flat however large the replies
LINE_LIMIT: Final = 64 << 10


class NoRoom(Exception):
    """A request is larger than the room it was given; it was not sent."""


class Transport:
    """An engine process speaking the protocol on stdin/stdout. Never run through a shell."""

    def __init__(self, argv: Sequence[str], *, message_timeout: float, max_line: int, stderr_limit: int) -> None:
        self.argv = list(argv)
        self.message_timeout = message_timeout
        self.max_line = max_line
        self.stderr_limit = stderr_limit
        self.proc: subprocess.Popen[bytes] | None = None
        self.reader: LineReader | None = None
        self.stderr = StderrBuffer(stderr_limit)
        self.seq = 0
        #: the lines exchanged (direction, text), a request with its reply when the reply is read
        self.transcript: list[tuple[str, str]] = []
        self.starts = 0

    def open(self) -> None:
        """Start the process (a running one is closed first)."""
        self.close()
        self.stderr = StderrBuffer(self.stderr_limit)
        self.transcript = []
        try:
            # a session of its own: the engine and everything it starts form one process group, which
            # close() ends whole, and which a Ctrl-C meant for the harness does not reach directly
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0, start_new_session=True
            )
        except OSError as exc:
            raise EngineError("crash", f"cannot start {self.argv[0]!r}: {exc.strerror or exc}") from None
        self.starts += 1
        assert self.proc.stdout is not None and self.proc.stderr is not None
        proc = self.proc
        # a descendant that keeps the pipe open must not make a dead engine look like a slow one
        self.reader = LineReader(self.proc.stdout, self.max_line, alive=lambda: proc.poll() is None)
        threading.Thread(target=self.stderr.drain, args=(self.proc.stderr,), daemon=True).start()

    def take_transcript(self) -> list[tuple[str, str]]:
        """The lines exchanged since the last call (the harness takes them scenario by scenario)."""
        out, self.transcript = self.transcript, []
        return out

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def abort(self) -> None:
        """End the engine's process group at once, from any thread (an interrupted run): a call
        waiting on it gets EOF and fails; close() still tidies up afterwards."""
        proc = self.proc
        if proc is not None:
            _kill_group(proc.pid)

    def close(self) -> None:
        """Say bye, then end the process and everything it started, whatever state it is in."""
        proc = self.proc
        if proc is None:
            return
        self.proc = None
        if proc.poll() is None:
            try:
                assert proc.stdin is not None
                self.seq += 1
                proc.stdin.write((json.dumps({"seq": self.seq, "cmd": "bye"}) + "\n").encode())
                proc.stdin.flush()
                proc.stdin.close()
                proc.wait(timeout=1.0)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        _kill_group(proc.pid)  # whatever the engine started, nothing survives it
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def send(self, cmd: str, payload: Json, room: int | None = None) -> tuple[int, bytes]:
        """Write one request: its seq and its line. With `room`, a request larger than that is
        not sent (NoRoom)."""
        proc = self.proc
        # no poll() here (a system call per message): a dead engine shows as a broken pipe or EOF
        if proc is None or proc.returncode is not None:
            code = proc.returncode if proc is not None else None
            raise EngineError("crash", f"the engine is not running (exit code {code})")
        seq = self.seq + 1
        data = orjson.dumps({"seq": seq, "cmd": cmd, **payload}, option=orjson.OPT_APPEND_NEWLINE)
        if room is not None and len(data) > room:
            raise NoRoom
        self.seq = seq
        try:
            assert proc.stdin is not None
            proc.stdin.write(data)  # unbuffered: one system call, nothing to flush
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError("crash", f"the engine closed its input before {cmd} (exit code {self.exit_code()})") from None
        return seq, data

    def receive(self, cmd: str, seq: int, text: str, timeout: float | None) -> Json:
        """Read, decode and check the reply to request `seq` (`text`, the oldest unanswered).
        The transcript takes the request and its reply together, when the reply is read: each
        scenario's transcript holds its own exchanges, whatever went out ahead."""
        limit = self.message_timeout if timeout is None else timeout
        if len(self.transcript) >= TRANSCRIPT_LIMIT:  # nobody takes it (fuzz, perft): keep the recent part
            del self.transcript[: TRANSCRIPT_LIMIT // 2]
        self.transcript.append((">", text))
        assert self.reader is not None
        item = self.reader.read(limit)
        if item is None:
            raise EngineError("timeout", f"no reply to {cmd} (seq {seq}) within {limit:g}s")
        if item is EOF:
            if self._still_running():
                raise EngineError("crash", f"the engine closed its output while answering {cmd} (it still runs)")
            raise EngineError("crash", f"the engine exited while answering {cmd} (exit code {self.exit_code()})")
        if item is OVERSIZE:
            self.transcript.append(("<", f"[a line longer than {self.max_line} bytes]"))
            raise EngineError("protocol", f"the reply to {cmd} is a line longer than {self.max_line} bytes")
        assert isinstance(item, bytes)
        try:
            line = item.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.transcript.append(("<", item[:200].decode("utf-8", "replace")))
            raise EngineError("protocol", f"the reply to {cmd} is not UTF-8 (byte {exc.start})") from None
        self.transcript.append(("<", _clipped(line)))
        try:
            reply = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise EngineError("protocol", f"the reply to {cmd} is not JSON ({exc.msg} at column {exc.colno}): {line[:120]!r}") from None
        if not isinstance(reply, dict):
            raise EngineError("protocol", f"the reply to {cmd} is not a JSON object")
        if reply.get("seq") != seq:
            raise EngineError("protocol", f"the reply to {cmd} carries seq {reply.get('seq')!r}, expected {seq}")
        problem = reply_problem(cmd, reply)
        if problem is not None:
            raise EngineError("protocol", problem)
        del reply["seq"]
        return reply

    def _still_running(self, grace: float = 0.5) -> bool:
        """After EOF: whether the engine lives on (it closed its output) or is on its way out."""
        proc = self.proc
        if proc is None:
            return False
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            return True
        return False

    def exit_code(self) -> int | None:
        proc = self.proc
        if proc is None:
            return None
        try:
            return proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return None


def _clipped(text: str) -> str:
    if len(text) <= LINE_LIMIT:
        return text
    half = LINE_LIMIT // 2
    return f"{text[:half]} [... {len(text) - LINE_LIMIT} characters left out ...] {text[-half:]}"


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
