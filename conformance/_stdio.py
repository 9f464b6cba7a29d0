"""The stdio client: any engine, in any language, driven through the JSON Lines protocol.

The harness must never be brought down by the engine it tests: every reply is awaited with a
timeout and a line-length limit (conformance/_pipes.py), decoded, parsed, checked for its `seq`
and validated against spec/protocol/; stderr is drained continuously into a bounded buffer.
Every failure becomes an `EngineError` of kind `crash`, `timeout`, `protocol` or `error`.

Requests are pipelined: the caller says which requests a round will make (`plan`) and which
rounds come after it (`expect`), and they go out ahead of the replies it is still checking, so
the engine works while the harness checks; see StdioEngine.plan.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

import jsonschema
import orjson

from conformance._defaults import DEFAULT_PIPELINE, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT
from conformance._engine import EngineError
from conformance._pipes import EOF, OVERSIZE, LineReader, StderrBuffer
from spec import format_path, protocol_check, protocol_validator

Json = dict[str, Any]

#: lines of transcript kept when no caller takes them (a perft replay sends millions)
TRANSCRIPT_LIMIT: Final = 20_000
#: bytes of requests in flight at most: below any pipe's capacity (16 KiB on some systems), so a
#: write never blocks while the engine, its replies unread, cannot read it (no deadlock)
FLIGHT_BYTES: Final = 12 << 10


#: requests that change nothing in the engine: sending one ahead and not needing its reply is harmless
_READ_ONLY: Final = frozenset({"legal", "score", "hello", "perft"})

#: replies whose schema is a oneOf of a success shape and the error shape
_TWO_SHAPED = frozenset({"new_game", "act", "legal", "score", "perft"})


def _reply_ok(cmd: str, reply: Json) -> bool:
    """The compiled check of the one reply shape this reply claims to have."""
    if cmd in _TWO_SHAPED:
        return protocol_check("reply_error")(reply) if "error" in reply else protocol_check(f"reply_{cmd}", 0)(reply)
    return protocol_check(f"reply_{cmd}")(reply)


class _Sent(NamedTuple):
    """A request written to the engine whose reply has not been read yet; `plan` is the serial of
    the round plan it belongs to (0: none)."""

    cmd: str
    payload: Json
    seq: int
    size: int
    text: str
    plan: int


class _Plan:
    """The requests of one round, in the order the caller makes them when every reply is as
    expected; how many of them are out; whether the caller has left it (a call off the plan)."""

    __slots__ = ("left", "requests", "sent", "serial")

    def __init__(self, requests: list[tuple[str, Json]], serial: int) -> None:
        self.requests = requests
        self.serial = serial
        self.sent = 0
        self.left = False


class _NoRoom(Exception):
    """A planned request does not fit in what may be in flight now; it waits for a reply."""


class StdioEngine:
    """An engine process speaking the protocol on stdin/stdout. Never run through a shell."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
        message_timeout: float = DEFAULT_TIMEOUT,
        max_line: int = 8 << 20,
        stderr_limit: int = 1 << 20,
        pipeline: int = DEFAULT_PIPELINE,
    ) -> None:
        if not argv:
            raise ValueError("empty engine command")
        self.argv = list(argv)
        self.startup_timeout = startup_timeout
        self.message_timeout = message_timeout
        self.max_line = max_line
        self.stderr_limit = stderr_limit
        if pipeline < 0:
            raise ValueError(f"pipeline: expected 0 or more requests in flight, got {pipeline}")
        self.pipeline = pipeline
        self.proc: subprocess.Popen[bytes] | None = None
        self.reader: LineReader | None = None
        self.stderr = StderrBuffer(stderr_limit)
        self.seq = 0
        self.transcript: list[tuple[str, str]] = []
        self.hello_reply: Json | None = None
        self.starts = 0
        self._plans: deque[_Plan] = deque()  # the round in progress (when _active) first, then the rounds expected after it
        self._active = False
        self._serials = 0
        self._flight: deque[_Sent] = deque()  # requests sent whose replies are unread, oldest first
        self._flight_bytes = 0
        self.sent_ahead = 0  # requests sent before the caller asked for them
        self.most_in_flight = 0  # the most requests ever unanswered at once
        self.plans_dropped = 0  # calls that left a plan (each costs the rest of its round the overlap)
        self.rounds_sent_ahead = 0  # rounds whose requests had started to go out before the round began

    # -------------------------------------------------------------- process

    def start(self) -> Json:
        """Start the process and shake hands; the hello reply says what the engine supports."""
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
        self.hello_reply = self._request("hello", {"protocol": "1", "suite_version": _suite_version()}, self.startup_timeout)
        return self.hello_reply

    def take_transcript(self) -> list[tuple[str, str]]:
        """The lines exchanged since the last call (the harness takes them scenario by scenario)."""
        out, self.transcript = self.transcript, []
        return out

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

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

    def abort(self) -> None:
        """End the engine's process group at once, from any thread (an interrupted run): a call
        waiting on it gets EOF and fails; close() still tidies up afterwards."""
        proc = self.proc
        if proc is not None:
            _kill_group(proc.pid)

    def close(self) -> None:
        # a new process has nothing in flight, and no round in progress
        self._plans, self._active, self._flight, self._flight_bytes = deque(), False, deque(), 0
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

    # -------------------------------------------------------------- requests

    def plan(self, requests: Sequence[tuple[str, Json]]) -> None:
        """Begin a round: the requests the caller will make, in order, when every reply is as
        expected (a scenario's round); `plan(())` ends it. Up to `pipeline` requests (and
        FLIGHT_BYTES) are out before their replies are read, so the engine works through them
        while the caller checks the replies before; once a round's requests are all out, those
        of the rounds expected after it (`expect`) follow, so that a run costs one wait for the
        engine at its start, not one per message or per round.

        A call that skips planned queries reads and drops their replies; any other call off the
        plan stops the sending ahead until the round ends. The end of a round reads and drops
        what is still in flight of it (a round stopped early by a failure). A round that was
        not expected (the first, or one run again) starts afresh: what is in flight is read and
        dropped, and the expected rounds go out again after it."""
        try:
            self._end()
            if requests:
                self._begin(list(requests))
        except EngineError:  # the caller has stopped listening: restart before the next game
            self.close()

    def expect(self, rounds: Sequence[Sequence[tuple[str, Json]]]) -> None:
        """Rounds that will run, in this order, after those already planned or expected (each
        begins with new_game, so that sending one early, or again, changes nothing)."""
        for requests in rounds:
            self._serials += 1
            self._plans.append(_Plan(list(requests), self._serials))
        self._fill()

    @property
    def expected(self) -> int:
        """How many rounds are expected after the one in progress."""
        return len(self._plans) - (1 if self._active else 0)

    def _begin(self, requests: list[tuple[str, Json]]) -> None:
        plans = self._plans
        found = next((k for k, p in enumerate(plans) if p.requests == requests), None)
        if found is None:
            self._drain(0)
            for p in plans:  # the engine has seen them before this round: they go out again after it
                p.sent, p.left = 0, False
            self._serials += 1
            plans.appendleft(_Plan(requests, self._serials))
        else:
            for _ in range(found):  # expected rounds that did not run
                self._drain(plans.popleft().serial)
            if plans[0].sent:
                self.rounds_sent_ahead += 1
        self._active = True
        self._fill()

    def _end(self) -> None:
        if self._active:
            self._active = False
            self._drain(self._plans.popleft().serial)

    def _drain(self, serial: int) -> None:
        """Read and drop the replies in flight of round plan `serial` and of no plan (0: all)."""
        flight = self._flight
        while flight and (serial == 0 or flight[0].plan in (serial, 0)):
            self._receive(self._pop(), None)

    def _pop(self) -> _Sent:
        sent = self._flight.popleft()
        self._flight_bytes -= sent.size
        return sent

    def _request(self, cmd: str, payload: Json, timeout: float | None = None) -> Json:
        flight = self._flight
        if flight and (not self._active or flight[0].cmd != cmd or flight[0].payload != payload):
            self._skip_to(cmd, payload)
        if not flight:
            self._call(cmd, payload)
        self._fill()
        sent = self._pop()
        try:
            reply = self._receive(sent, timeout)
        except EngineError:
            # out of step with the engine: the replies in flight can no longer be matched to their
            # requests, and waiting for each would only add timeouts; a restart comes next anyway
            self.close()
            raise
        self._fill()
        return reply

    def _call(self, cmd: str, payload: Json) -> None:
        """Send the caller's request, nothing being in flight: the next planned one, or one off the plan."""
        current = self._plans[0] if self._active else None
        if current is not None and not current.left and current.sent < len(current.requests):
            if current.requests[current.sent] == (cmd, payload):
                self._push(cmd, payload, current.serial)
                current.sent += 1
                return
            self.plans_dropped += 1
        if current is not None:
            current.left = True
        self._push(cmd, payload, current.serial if current is not None else 0)

    def _skip_to(self, cmd: str, payload: Json) -> None:
        """The caller skipped requests that are out already (a query it no longer needs after an
        unexpected reply): their answers are read and dropped, up to the request it makes now if
        that one is out too, or else all of the round's. Only questions with no effect can be
        skipped: a change of state sent ahead and not wanted means the engine has moved on, and
        nothing after it can be trusted; so are the requests of a round sent ahead, and a request
        between rounds while they are out."""
        flight = self._flight
        if not self._active:  # only rounds sent ahead are out: they would be answered first
            raise RuntimeError(f"harness bug: the next round went out ahead, and {cmd} came before it began")
        serial = self._plans[0].serial
        own = next((k for k, sent in enumerate(flight) if sent.plan not in (serial, 0)), len(flight))
        upto = next((k for k in range(own) if flight[k].cmd == cmd and flight[k].payload == payload), own)
        changing = [flight[k].cmd for k in range(upto) if flight[k].cmd not in _READ_ONLY]
        if changing or (upto == own < len(flight)):
            what = changing[0] if changing else "the next round"
            raise RuntimeError(f"harness bug: {what} was sent ahead of the reply being checked, and {cmd} came instead")
        for _ in range(upto):
            self._receive(self._pop(), None)

    def _fill(self) -> None:
        """Send planned requests, round after round, while the window has room (`pipeline`
        requests, FLIGHT_BYTES); nothing past a round the caller has left."""
        flight = self._flight
        for p in self._plans:
            if p.left:
                return
            while p.sent < len(p.requests):
                if len(flight) >= self.pipeline:
                    return
                cmd, payload = p.requests[p.sent]
                try:
                    self._push(cmd, payload, p.serial, room=FLIGHT_BYTES - self._flight_bytes)
                except _NoRoom:
                    return
                except EngineError:  # the replies in flight are still good: the next call meets the failure
                    for q in self._plans:
                        q.left = True
                    return
                p.sent += 1
                self.sent_ahead += 1

    def _push(self, cmd: str, payload: Json, plan: int, room: int | None = None) -> None:
        seq, data = self._send(cmd, payload, room)
        flight = self._flight
        flight.append(_Sent(cmd, payload, seq, len(data), data[:-1].decode("utf-8"), plan))
        self._flight_bytes += len(data)
        self.most_in_flight = max(self.most_in_flight, len(flight))

    def _send(self, cmd: str, payload: Json, room: int | None = None) -> tuple[int, bytes]:
        """Write one request: its seq and its line. With `room`, a request larger than that is
        not sent (_NoRoom)."""
        proc = self.proc
        # no poll() here (a system call per message): a dead engine shows as a broken pipe or EOF
        if proc is None or proc.returncode is not None:
            code = proc.returncode if proc is not None else None
            raise EngineError("crash", f"the engine is not running (exit code {code})")
        seq = self.seq + 1
        data = orjson.dumps({"seq": seq, "cmd": cmd, **payload}, option=orjson.OPT_APPEND_NEWLINE)
        if room is not None and len(data) > room:
            raise _NoRoom
        self.seq = seq
        try:
            assert proc.stdin is not None
            proc.stdin.write(data)  # unbuffered: one system call, nothing to flush
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError("crash", f"the engine closed its input before {cmd} (exit code {self._exit_code()})") from None
        return seq, data

    def _receive(self, sent: _Sent, timeout: float | None) -> Json:
        """Read, decode and check the reply to `sent` (the oldest request unanswered). The
        transcript takes the request and its reply together, when the reply is read: each
        scenario's transcript holds its own exchanges, whatever went out ahead."""
        cmd, seq = sent.cmd, sent.seq
        limit = self.message_timeout if timeout is None else timeout
        if len(self.transcript) >= TRANSCRIPT_LIMIT:  # nobody takes it (fuzz, perft): keep the recent part
            del self.transcript[: TRANSCRIPT_LIMIT // 2]
        self.transcript.append((">", sent.text))
        assert self.reader is not None
        item = self.reader.read(limit)
        if item is None:
            raise EngineError("timeout", f"no reply to {cmd} (seq {seq}) within {limit:g}s")
        if item is EOF:
            if self._still_running():
                raise EngineError("crash", f"the engine closed its output while answering {cmd} (it still runs)")
            raise EngineError("crash", f"the engine exited while answering {cmd} (exit code {self._exit_code()})")
        if item is OVERSIZE:
            self.transcript.append(("<", f"[a line longer than {self.max_line} bytes]"))
            raise EngineError("protocol", f"the reply to {cmd} is a line longer than {self.max_line} bytes")
        assert isinstance(item, bytes)
        try:
            text = item.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.transcript.append(("<", item[:200].decode("utf-8", "replace")))
            raise EngineError("protocol", f"the reply to {cmd} is not UTF-8 (byte {exc.start})") from None
        self.transcript.append(("<", _clipped(text)))
        try:
            reply = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise EngineError("protocol", f"the reply to {cmd} is not JSON ({exc.msg} at column {exc.colno}): {text[:120]!r}") from None
        if not isinstance(reply, dict):
            raise EngineError("protocol", f"the reply to {cmd} is not a JSON object")
        if reply.get("seq") != seq:
            raise EngineError("protocol", f"the reply to {cmd} carries seq {reply.get('seq')!r}, expected {seq}")
        if not _reply_ok(cmd, reply):
            # the full validator explains; should the two ever disagree, it decides
            err = jsonschema.exceptions.best_match(protocol_validator(f"reply_{cmd}").iter_errors(reply))
            if err is not None:
                where = format_path(list(err.absolute_path)) or "(reply)"
                raise EngineError("protocol", f"the reply to {cmd} does not follow the protocol schema: {where}: {err.message}")
        del reply["seq"]
        return reply

    def _exit_code(self) -> int | None:
        proc = self.proc
        if proc is None:
            return None
        try:
            return proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return None

    def _checked(self, cmd: str, payload: Json, timeout: float | None = None) -> Json:
        reply = self._request(cmd, payload, timeout)
        if "error" in reply:
            err = reply["error"]
            raise EngineError("error", f"{cmd} failed: {err.get('code')}: {err.get('message')}")
        return reply

    def hello(self) -> Json:
        return self.hello_reply if self.hello_reply is not None else self.start()

    def new_game(self, ruleset: Json, deal: Json) -> Json:
        if not self.alive():
            self.start()
        return self._request("new_game", {"ruleset": ruleset, "deal": deal})

    def legal(self) -> Json:
        return self._checked("legal", {})

    def act(self, action: Json) -> Json:
        return self._request("act", {"action": action})

    def score(self) -> Json:
        return self._checked("score", {})

    def perft(self, depth: int) -> Json:
        return self._checked("perft", {"depth": depth}, timeout=max(self.message_timeout, 600.0))


#: characters of one transcript line kept (its first and last half): a reproducer shows the shape of a
#: huge reply, and a long run's memory stays flat however large the replies
LINE_LIMIT: Final = 64 << 10


def _clipped(text: str) -> str:
    if len(text) <= LINE_LIMIT:
        return text
    half = LINE_LIMIT // 2
    return f"{text[:half]} [... {len(text) - LINE_LIMIT} characters left out ...] {text[-half:]}"


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _suite_version() -> str:
    from reference_impl import engine_version

    return engine_version()
