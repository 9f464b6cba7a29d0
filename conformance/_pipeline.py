"""Requests sent ahead of the replies the harness is still checking.

The caller says which requests a round will make (`plan`, a compiled round's plan:
conformance/_steps.py) and which rounds come after it (`expect`); they go out up to a window
ahead of the replies, so that the engine works while the harness checks, and a run costs one
wait for the engine at its start rather than one per message or per round. A request off the
plan is sent and answered in turn; replies to planned questions the caller no longer needs are
read and dropped.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from gostop_conformance.harness._engine import EngineError
from gostop_conformance.harness._transport import NoRoom, Transport

Json = dict[str, Any]

#: bytes of requests in flight at most: below any pipe's capacity (16 KiB on some systems), so a
#: write never blocks while the engine, its replies unread, cannot read it (no deadlock)
FLIGHT_BYTES: Final = 12 << 10

#: requests that change nothing in the engine: sending one ahead and not needing its reply is harmless
_READ_ONLY: Final = frozenset({"legal", "score", "hello", "perft"})


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


class Pipeline:
    """The requests in flight on one transport, and the rounds planned on it; at most `window`
    requests (and FLIGHT_BYTES) unanswered at once (0: each reply is read before the next request)."""

    def __init__(self, transport: Transport, window: int) -> None:
        if window < 0:
            raise ValueError(f"pipeline: expected 0 or more requests in flight, got {window}")
        self.transport = transport
        self.window = window
        self._plans: deque[_Plan] = deque()  # the round in progress (when _active) first, then the rounds expected after it
        self._active = False
        self._serials = 0
        self._flight: deque[_Sent] = deque()  # requests sent whose replies are unread, oldest first
        self._flight_bytes = 0
        self.sent_ahead = 0  # requests sent before the caller asked for them
        self.most_in_flight = 0  # the most requests ever unanswered at once
        self.plans_dropped = 0  # calls that left a plan (each costs the rest of its round the overlap)
        self.rounds_sent_ahead = 0  # rounds whose requests had started to go out before the round began
        #: a failure met between requests (reading the replies a round no longer needs): it belongs
        #: to the round being begun, and the next request raises it, never a silent restart
        self.failure: EngineError | None = None

    def close(self) -> None:
        """End the process: nothing is in flight any more, and no round is in progress."""
        self._plans, self._active, self._flight, self._flight_bytes = deque(), False, deque(), 0
        self.transport.close()

    def plan(self, requests: Sequence[tuple[str, Json]]) -> None:
        """Begin a round: the requests the caller will make, in order, when every reply is as
        expected; `plan(())` ends it. Up to `window` requests (and FLIGHT_BYTES) are out before
        their replies are read; once a round's requests are all out, those of the rounds
        expected after it (`expect`) follow.

        A call that skips planned queries reads and drops their replies; any other call off the
        plan stops the sending ahead until the round ends. The end of a round reads and drops
        what is still in flight of it (a round stopped early by a failure). A round that was
        not expected (the first, or one run again) starts afresh: what is in flight is read and
        dropped, and the expected rounds go out again after it."""
        try:
            self._end()
            if requests:
                self._begin(list(requests))
        except EngineError as exc:
            self.close()
            if requests:  # the round being begun meets it at its first request
                self.failure = exc

    def expect(self, rounds: Sequence[Sequence[tuple[str, Json]]]) -> None:
        """Rounds that will run, in this order, after those already planned or expected (each
        begins with new_game, so that sending one early, or again, changes nothing)."""
        for requests in rounds:
            self._serials += 1
            self._plans.append(_Plan(list(requests), self._serials))
        self._fill()

    @property
    def in_flight(self) -> int:
        """Requests sent whose replies are not read yet."""
        return len(self._flight)

    @property
    def expected(self) -> int:
        """How many rounds are expected after the one in progress."""
        return len(self._plans) - (1 if self._active else 0)

    def request(self, cmd: str, payload: Json, timeout: float | None = None) -> Json:
        """The reply to `cmd` (sent now, or found in flight); an EngineError ends the process,
        since the replies in flight can no longer be matched to their requests."""
        if self.failure is not None:
            failure, self.failure = self.failure, None
            raise failure
        flight = self._flight
        if flight and (not self._active or flight[0].cmd != cmd or flight[0].payload != payload):
            self._skip_to(cmd, payload)
        if not flight:
            self._call(cmd, payload)
        self._fill()
        sent = self._pop()
        try:
            reply = self.transport.receive(sent.cmd, sent.seq, sent.text, timeout)
        except EngineError:
            # out of step with the engine: waiting for each reply in flight would only add
            # timeouts; a restart comes next anyway
            self.close()
            raise
        self._fill()
        return reply

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
            for _ in range(found):  # expected rounds that did not run: in no transcript
                self._drain(plans.popleft().serial, own=False)
            if plans[0].sent:
                self.rounds_sent_ahead += 1
        self._active = True
        self._fill()

    def _end(self) -> None:
        if self._active:
            self._active = False
            self._drain(self._plans.popleft().serial)

    def _drain(self, serial: int, own: bool = True) -> None:
        """Read and drop the replies in flight of round plan `serial` and of no plan (0: all);
        those of the plan go into the transcript when it is the caller's `own` round."""
        flight = self._flight
        while flight and (serial == 0 or flight[0].plan in (serial, 0)):
            self._discard(serial if own else -1)

    def _discard(self, owner: int) -> None:
        """Read and drop the oldest reply in flight; into the transcript only when it is of round
        plan `owner` or of none: a round read and dropped before it began (the caller started
        another) is sent again when it does begin, and its exchanges belong to its own scenario's
        transcript, never to the one running."""
        sent = self._pop()
        self.transport.receive(sent.cmd, sent.seq, sent.text, None, record=sent.plan in (0, owner))

    def _pop(self) -> _Sent:
        sent = self._flight.popleft()
        self._flight_bytes -= sent.size
        return sent

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
            self._discard(serial)

    def _fill(self) -> None:
        """Send planned requests, round after round, while the window has room (`window`
        requests, FLIGHT_BYTES); nothing past a round the caller has left. The window is topped up
        once it is half empty, not after each reply, so that the requests go out in batches (one
        write, one wake-up of the engine, for many) while the engine still has half a window of
        work in hand."""
        if len(self._flight) > self.window // 2:
            return
        try:
            self._top_up()
            self.transport.flush()
        except EngineError:  # the replies in flight are still good: the next call meets the failure
            for q in self._plans:
                q.left = True

    def _top_up(self) -> None:
        flight = self._flight
        for p in self._plans:
            if p.left:
                return
            while p.sent < len(p.requests):
                if len(flight) >= self.window:
                    return
                cmd, payload = p.requests[p.sent]
                try:
                    self._push(cmd, payload, p.serial, room=FLIGHT_BYTES - self._flight_bytes)
                except NoRoom:
                    return
                p.sent += 1
                self.sent_ahead += 1

    def _push(self, cmd: str, payload: Json, plan: int, room: int | None = None) -> None:
        seq, data = self.transport.send(cmd, payload, room)
        flight = self._flight
        flight.append(_Sent(cmd, payload, seq, len(data), data[:-1].decode("utf-8"), plan))
        self._flight_bytes += len(data)
        self.most_in_flight = max(self.most_in_flight, len(flight))
