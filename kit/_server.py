"""The protocol's stdio loop around an engine (spec/protocol): requests read as they come (a client
may send several ahead, and they are answered in one write before the kit waits again), each
checked against the request schema, dispatched to the engine, its reply checked against the reply
schema. An act is checked against the engine's own legal actions before the engine sees it
(`check_action`), and its events are derived from the states when the engine reports none
(`derive_events`). Nothing an engine raises stops the loop: it is an error reply."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Final, Protocol, runtime_checkable

import orjson

from gostop_conformance import spec
from gostop_conformance.kit._check import check_action
from gostop_conformance.kit._deal import Deal, Ruleset, new_game
from gostop_conformance.kit._derive import EventDeriver
from gostop_conformance.kit._errors import KitError, ProtocolError
from gostop_conformance.kit._replies import checked, explain

Json = dict[str, Any]

#: the protocol version the kit speaks
PROTOCOL: Final = "1"
#: the longest request line read (a whole deal with every option is about 4 KB)
LINE_LIMIT: Final = 1 << 20
_CHUNK: Final = 64 << 10


@dataclass(frozen=True)
class Legal:
    """The pending decision (spec/vocabulary.yaml, decisions), the seat that decides (None once
    the round is over) and every legal action of that seat."""

    player: int | None
    decision: str
    actions: Sequence[Mapping[str, Any]] = ()


@dataclass(frozen=True)
class Scores:
    """Per seat the current base score (kit.score), the settlement once the round is over
    (kit.settlement; None before) and, for engines that declare match, what the round hands on."""

    scores: Sequence[Mapping[str, Any]]
    settlement: Mapping[str, Any] | None = None
    next: Mapping[str, Any] | None = None


@runtime_checkable
class Engine(Protocol):
    """What an adapter writes: its engine behind six methods, in the protocol's own terms.

    `new_game` and `act` return the events they made happen, or None for the kit to derive them
    from the states before and after (`derive_events`). Raise Unsupported or BadDeal from new_game;
    `act` is only called with an action the engine listed in `legal` (the kit refuses the rest)."""

    def hello(self) -> Mapping[str, Any]: ...

    def new_game(self, ruleset: Ruleset, deal: Deal) -> Sequence[Mapping[str, Any]] | None: ...

    def state(self) -> Mapping[str, Any]: ...

    def legal(self) -> Legal: ...

    def act(self, action: Json) -> Sequence[Mapping[str, Any]] | None: ...

    def score(self) -> Scores: ...


@dataclass
class Session:
    """One engine served: the round's ruleset and the bonus replacement that must be played."""

    engine: Engine
    ruleset: Ruleset | None = None
    forced: str | None = None
    stopped: bool = False
    #: False once the hello declares `"events": "none"`: an engine that reports no events gets none derived either
    events: bool = True
    deriver: EventDeriver = field(default_factory=EventDeriver)

    def answer(self, request: Json) -> Json:
        """The reply to one request (its schema already checked)."""
        seq, cmd = request["seq"], request["cmd"]
        try:
            if cmd == "hello":
                # the kit's seq and protocol, whatever an engine passing its own hello through says
                own = {k: v for k, v in self.engine.hello().items() if k not in ("seq", "protocol")}
                declared = checked({"seq": seq, "protocol": PROTOCOL, **own}, "reply_hello", "hello")
                self.events = declared.get("events", "all") != "none"
                return declared
            if cmd == "bye":
                self.stopped = True
                return {"seq": seq}
            if cmd == "new_game":
                return checked({"seq": seq, **self._new_game(request)}, "reply_new_game", "new_game reply")
            if self.ruleset is None:
                return ProtocolError(f"no game in progress: send new_game before {cmd}", "no_game").reply(seq)
            if cmd == "legal":
                legal = self.engine.legal()
                found = {"seq": seq, "player": legal.player, "decision": legal.decision, "actions": [dict(a) for a in legal.actions]}
                return checked(found, "reply_legal", "legal reply")
            if cmd == "act":
                return checked({"seq": seq, **self._act(request["action"])}, "reply_act", "act reply")
            if cmd == "score":
                return checked({"seq": seq, **self._score()}, "reply_score", "score reply")
            perft = getattr(self.engine, "perft", None)
            if cmd == "perft" and perft is not None:
                return {"seq": seq, **perft(request["depth"])}
            return ProtocolError(f"the engine does not implement {cmd}", "unsupported").reply(seq)
        except ProtocolError as refused:
            return refused.reply(seq)
        except Exception as exc:  # the engine's bug or the adapter's: reported, and the loop goes on
            return ProtocolError(_described(exc), "internal").reply(seq)

    def _new_game(self, request: Json) -> Json:
        ruleset, deal = new_game(request)
        self.ruleset, self.forced = None, None
        events = self.engine.new_game(ruleset, deal)
        self.ruleset = ruleset
        state = dict(self.engine.state())
        self.deriver = EventDeriver()
        self.deriver.options = ruleset.options
        if not self.events:
            events = ()
        elif events is None:
            settlement = self.engine.score().settlement if state["decision"] == "none" else None
            events = self.deriver.new_game(deal.explicit(ruleset).raw, state, options=ruleset.options, settlement=settlement)
        return {"events": [dict(e) for e in events], "state": state}

    def _act(self, raw: Json) -> Json:
        assert self.ruleset is not None
        options = self.ruleset.options
        legal = self.engine.legal()
        before = dict(self.engine.state())
        action = check_action(
            raw, player=legal.player, decision=legal.decision, actions=legal.actions, state=before, options=options, forced=self.forced
        )
        events = self.engine.act(action)
        after = dict(self.engine.state())
        self.forced = _forced_after(action, before, after, options)
        if not self.events:
            events = ()
        elif events is None:
            # the derivation reads the score reply only for a base (stop, go_stop_offered) and the
            # round_end's settlement: asked then alone, since scoring is often an engine's dearest
            # question (go-stop-python's adapter scores on a copy of the game)
            scores = self.engine.score() if after["decision"] in ("none", "go_stop") else None
            legal_after = self.engine.legal().actions if after["decision"] != "none" else ()
            events = self.deriver.act(
                before,
                after,
                action,
                scores=None if scores is None else scores.scores,
                settlement=None if scores is None else scores.settlement,
                legal=legal_after,
            )
        else:  # the engine's own events: kept as the round's earlier acts all the same
            self.deriver.acts.append({"action": dict(action), "events": [dict(e) for e in events]})
        return {"events": [dict(e) for e in events], "state": after}

    def _score(self) -> Json:
        found = self.engine.score()
        reply: Json = {
            "scores": [dict(s) for s in found.scores],
            "settlement": None if found.settlement is None else dict(found.settlement),
        }
        if found.next is not None:
            reply["next"] = dict(found.next)
        return reply


def _forced_after(action: Json, before: Mapping[str, Any], after: Mapping[str, Any], options: Mapping[str, Any]) -> str | None:
    """R-BONUS-HAND under bonus_replacement_use = must_play_replacement: after a bonus card played
    from the hand, the stock card that replaced it is the turn's hand card."""
    if action["type"] != "bonus" or options.get("bonus_replacement_use") != "must_play_replacement":
        return None
    seat = action["player"]
    if after["decision"] != "turn" or after["to_act"] != seat:
        return None
    drawn = [c for c in after["hands"][seat] if c not in before["hands"][seat]]
    return drawn[0] if drawn else None


def _described(exc: BaseException) -> str:
    """What failed, and where: the exception and the innermost frame of the adapter or engine."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    text = f"{type(exc).__name__}: {exc}{where}"
    return text if isinstance(exc, KitError) or len(text) < 2000 else text[:2000] + "..."


def parse_request(line: bytes) -> Json:
    """One request line as a checked request; a located `bad_request` otherwise."""
    try:
        message = spec.parse_json(line)
    except ValueError as exc:
        raise ProtocolError(f"the line is {exc}", "bad_request") from None
    if not spec.protocol_check("request")(message):
        raise ProtocolError(explain(message, "request", "request"), "bad_request")
    found: Json = message
    return found


def _seq_of(line: bytes) -> int | None:
    try:
        message = spec.parse_json(line)
    except ValueError:
        return None
    seq = message.get("seq") if isinstance(message, dict) else None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) and seq >= 0 else None


def request_lines(stdin: IO[bytes], before_wait: Any) -> Iterator[bytes | None]:
    """The lines of `stdin`, None for one longer than LINE_LIMIT (read through and dropped);
    `before_wait()` runs before each read that may block, so that replies to requests sent ahead
    go out in one write."""
    read = getattr(stdin, "read1", None) or (lambda _size: stdin.readline())
    buf = bytearray()
    dropping = False
    while True:
        end = buf.find(b"\n")
        if end < 0:
            if len(buf) > LINE_LIMIT:
                buf.clear()
                dropping = True
            before_wait()
            chunk = read(_CHUNK)
            if not chunk:
                if buf and not dropping:
                    yield bytes(buf)
                elif dropping:
                    yield None
                return
            buf += chunk
            continue
        line = bytes(buf[: end + 1])
        del buf[: end + 1]
        if dropping:
            dropping = False
            yield None
        else:
            yield line


def serve(engine: Engine, *, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None, debug: bool | None = None) -> int:
    """Serve `engine` until `bye` or the end of input. With `debug` (default: the environment
    variable GOSTOP_KIT_DEBUG set and not 0) every request and reply is logged on stderr."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    if debug is None:
        debug = os.environ.get("GOSTOP_KIT_DEBUG", "0") not in ("", "0")
    session = Session(engine)
    for line in request_lines(stdin, stdout.flush):
        if line is not None and not line.strip():
            continue
        if debug:
            sys.stderr.write(f"kit <- {line.decode('utf-8', 'replace').rstrip() if line else '(a line too long)'}\n")
        if line is None:
            reply: Json = ProtocolError(f"the line is longer than {LINE_LIMIT} bytes: it was not read", "bad_request").reply(None)
        else:
            try:
                reply = session.answer(parse_request(line))
            except ProtocolError as refused:
                reply = refused.reply(_seq_of(line))
        text = encode(reply)
        if debug:
            sys.stderr.write(f"kit -> {text.decode().rstrip()}\n")
        stdout.write(text)
        if session.stopped:
            break
    stdout.flush()
    return 0


def encode(reply: Json) -> bytes:
    """The reply line; an unserialisable reply (an adapter's bug) is an `internal` error instead."""
    try:
        return orjson.dumps(reply, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError as exc:
        return orjson.dumps(
            ProtocolError(f"unserialisable reply: {exc}", "internal").reply(reply.get("seq")), option=orjson.OPT_APPEND_NEWLINE
        )
