"""The engine process and its protocol lines: one request written as one line, one reply read
as one line with a deadline and a length limit (conformance/_pipes.py), decoded, parsed,
matched by its `seq` and validated against spec/protocol/. Every failure becomes an
`EngineError` of kind `crash`, `timeout` or `protocol`; nothing the engine does can stall or
bring down the harness. What is sent when is the pipeline's business (conformance/_pipeline.py)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import Any, Final

import orjson

from gostop_conformance.harness._engine import EngineError, reply_problem
from gostop_conformance.harness._pipes import EOF, OVERSIZE, LineReader, StderrBuffer
from gostop_conformance.spec import MAX_JSON_DEPTH, counted, json_deeper_than

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
        #: requests sent but not yet written, with the first one's command (for a failure's message):
        #: they go out together at the next flush() or receive()
        self._outbox: list[bytes] = []
        self._outbox_cmd = ""

    def open(self) -> None:
        """Start the process (a running one is closed first)."""
        self.close()
        self.stderr = StderrBuffer(self.stderr_limit)
        self.transcript = []
        # each process numbers its requests from 1: what went out to a dead one before its death was
        # noticed depends on timing, and must not shift the numbers of the next (reports stay byte-identical)
        self.seq = 0
        self._outbox = []
        try:
            # a session of its own: the engine and everything it starts form one process group, which
            # close() ends whole, and which a Ctrl-C meant for the harness does not reach directly
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0, start_new_session=True
            )
        except OSError as exc:
            raise EngineError("crash", f"cannot start {self.argv[0]!r}: {exc.strerror or exc}") from None
        self.starts += 1
        assert self.proc.stdout is not None and self.proc.stderr is not None and self.proc.stdin is not None
        os.set_blocking(self.proc.stdin.fileno(), False)  # every write has a deadline (_write)
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
            _kill_all(proc.pid)

    def close(self) -> None:
        """Say bye, then end the process and everything it started, whatever state it is in."""
        proc = self.proc
        self._outbox = []  # requests never written: the process they were for is ending
        if proc is None:
            return
        self.proc = None
        # the engine's descendants, found while it still runs (a helper that left its process
        # group with setsid is still its child until the engine exits)
        helpers = _descendants(proc.pid)
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
        for pid in helpers:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def send(self, cmd: str, payload: Json, room: int | None = None) -> tuple[int, bytes]:
        """Send one request: its seq and its line. With `room`, a request larger than that is
        not sent (NoRoom). It is written at the next flush() or receive(), with the requests sent
        before it: one system call for a batch rather than one per request (each write also wakes
        the engine; in a fuzz run against a fast engine, a write per request was a third of the
        harness's time, issue 42)."""
        proc = self.proc
        # no poll() here (a system call per message): a dead engine shows as a broken pipe or EOF
        if proc is None:
            raise EngineError("crash", "the engine is not running")
        if proc.returncode is not None:
            raise EngineError("crash", self._gone(cmd))
        seq = self.seq + 1
        data = orjson.dumps({"seq": seq, "cmd": cmd, **payload}, option=orjson.OPT_APPEND_NEWLINE)
        if room is not None and len(data) > room:
            raise NoRoom
        self.seq = seq
        if not self._outbox:
            self._outbox_cmd = cmd
        self._outbox.append(data)
        return seq, data

    def flush(self) -> None:
        """Write the requests sent and not yet written, in one system call when the pipe has room."""
        if not self._outbox:
            return
        data = b"".join(self._outbox) if len(self._outbox) > 1 else self._outbox[0]
        self._outbox = []
        proc = self.proc
        if proc is None:
            raise EngineError("crash", "the engine is not running")
        assert proc.stdin is not None
        self._write(proc.stdin.fileno(), data, self._outbox_cmd)

    def _write(self, fd: int, data: bytes, cmd: str) -> None:
        """Write a whole request, waiting for room in the pipe at most the message timeout: an
        engine that stops reading its input (it writes replies nobody asked for, or hangs) must
        not hold the harness forever."""
        view = memoryview(data)
        deadline: float | None = None
        while view:
            try:
                written = os.write(fd, view)  # usually the whole request in one system call
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, OSError, ValueError):
                raise EngineError("crash", self._gone(cmd)) from None
            view = view[written:]
            if not view:
                return
            if deadline is None:
                deadline = time.monotonic() + self.message_timeout
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineError(
                    "timeout", f"the engine did not read its input: {cmd} could not be written within {self.message_timeout:g}s"
                )
            with contextlib.suppress(OSError, ValueError):
                select.select([], [fd], [], remaining)

    def receive(self, cmd: str, seq: int, text: str, timeout: float | None, record: bool = True) -> Json:
        """Read, decode and check the reply to request `seq` (`text`, the oldest unanswered).
        The transcript takes the request and its reply together, when the reply is read: each
        scenario's transcript holds its own exchanges, whatever went out ahead. Without `record`,
        neither goes in (a reply read and dropped for a round that has not begun: the requests are
        sent again when it does, and belong to its transcript then)."""
        self.flush()
        limit = self.message_timeout if timeout is None else timeout
        if len(self.transcript) >= TRANSCRIPT_LIMIT:  # nobody takes it (fuzz, perft): keep the recent part
            del self.transcript[: TRANSCRIPT_LIMIT // 2]
        transcript = self.transcript if record else []
        transcript.append((">", text))
        assert self.reader is not None
        item = self.reader.read(limit)
        if item is None:
            raise EngineError("timeout", f"no reply to {cmd} (seq {seq}) within {limit:g}s")
        if item is EOF:
            if self._still_running():
                raise EngineError("crash", f"the engine closed its output while answering {cmd} (it still runs)")
            raise EngineError("crash", f"the engine exited while answering {cmd} (exit code {self.exit_code()})")
        if item is OVERSIZE:
            transcript.append(("<", f"[a line longer than {self.max_line} bytes]"))
            raise EngineError("protocol", f"the reply to {cmd} is a line longer than {self.max_line} bytes")
        assert isinstance(item, bytes)
        try:
            line = item.decode("utf-8")
        except UnicodeDecodeError as exc:
            transcript.append(("<", item[:200].decode("utf-8", "replace")))
            raise EngineError("protocol", f"the reply to {cmd} is not UTF-8 (byte {exc.start})") from None
        transcript.append(("<", _clipped(line)))
        if json_deeper_than(item) is not None:  # Python recurses over what it is given
            raise EngineError("protocol", f"the reply to {cmd} nests deeper than {MAX_JSON_DEPTH} levels")
        try:
            reply = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            if self.reader.unterminated:  # it died (or closed its output) halfway through the reply
                how = "closed its output" if self._still_running() else f"exited (exit code {self.exit_code()})"
                raise EngineError("crash", f"the engine {how} in the middle of its reply to {cmd}: {line[:120]!r}") from None
            raise EngineError("protocol", f"the reply to {cmd} is not JSON ({exc.msg} at column {exc.colno}): {line[:120]!r}") from None
        if not isinstance(reply, dict):
            raise EngineError("protocol", f"the reply to {cmd} is not a JSON object")
        if reply.get("seq") != seq:
            raise EngineError("protocol", f"the reply to {cmd} carries seq {_short(reply.get('seq'))}, expected {seq}")
        if "error" in reply and reply["error"] is None:
            del reply["error"]  # what Go and Java serializers write for no error: no error
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

    def _gone(self, cmd: str) -> str:
        """Why a request could not be written: one message however the death was noticed (the
        exit already seen, or a broken pipe), so that a run's reports do not depend on timing."""
        code = self.exit_code()
        if code is None:
            return f"the engine closed its input before {cmd} (it still runs)"
        return f"the engine exited (exit code {code}) before {cmd} could be sent"

    def exit_code(self) -> int | None:
        proc = self.proc
        if proc is None:
            return None
        try:
            return proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


def _clipped(text: str) -> str:
    if len(text) <= LINE_LIMIT:
        return text
    half = LINE_LIMIT // 2
    return f"{text[:half]} [... {counted(len(text) - LINE_LIMIT, 'character')} left out ...] {text[-half:]}"


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _kill_all(pid: int) -> None:
    """The engine's group and every descendant, whatever session it moved to."""
    helpers = _descendants(pid)
    _kill_group(pid)
    for child in helpers:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child, signal.SIGKILL)


def _descendants(pid: int) -> list[int]:
    """Every process below `pid`, read from /proc (empty where there is none: not Linux)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))  # the field after the state is the parent
    out: list[int] = []
    todo = list(children.get(pid, ()))
    while todo:
        child = todo.pop()
        out.append(child)
        todo += children.get(child, ())
    return out
