"""A mutational fuzz of the reference engine's protocol server (`gostop-reference --stdio`).

Real traffic first: the requests a harness sends over a few rounds of several rulesets (hello,
new_game with the engine's own seeded deals, explicit or as `{"seed"}`, and a mid-game deal, legal,
act with a legal action, perft, score, bye), recorded by playing the rounds on the in-process engine.
Then a stream of lines, each a recorded request (so that the rounds go on) or a mutant of one: bytes
flipped, inserted, deleted, duplicated or cut off; bytes that are not UTF-8 and escapes of lone
surrogates; a value replaced by one of another JSON type, by a huge or non-finite number, by a long
string, or buried under deep nesting; a key written twice, removed or added; a field taken from
another request; line breaks and blank lines. Everything follows from one seed.

Every line goes to ONE server process over pipes (or, with `in_process`, to the server's own line
function `answer`), and every reply is checked: one reply line per request line (none for a blank
one), each a JSON object under the harness's line limit, valid against the protocol's reply schema
(the error reply, or the reply of the request's command), echoing the request's seq or null, and
never the error code `internal`. At the end the server must still answer a fresh hello, then bye.

    python -m tests.reference_impl.server_fuzz --mutants 12000 --seed 1   (make fuzz-server)

The run avoids two requests that are valid and meant to be heavy or final: perft deeper than 2 (the
tree grows tenfold a ply) and bye (the server would stop). Only the standard library and the
project's own packages are used.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import queue
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import orjson

from gostop_conformance.reference import JsonEngine, PlayerState, SplitMix64, complete_deal, seeded_deal
from gostop_conformance.reference import _server as server
from gostop_conformance.spec import load_ruleset, protocol_check, protocol_validator

Json = dict[str, Any]

ROOT: Final = Path(__file__).resolve().parents[2]
#: the longest reply line the harness reads (conformance's stdio transport)
REPLY_LIMIT: Final = 64 << 10
#: seconds to wait for one reply (a new_game of four players takes milliseconds)
REPLY_TIMEOUT: Final = 30.0
#: the rulesets the recorded rounds are played under: two, three and four players, bonus cards
RULESETS: Final = ("matgo-2p", "standard-3p", "family-4p", "wikipedia-3p")
#: the deepest perft the fuzz lets through (a valid deeper one is skipped, not sent)
PERFT_DEPTH: Final = 2
#: how often the round so far is sent again after a mutant that is a new_game (else the requests
#: that follow meet no round, or a round they do not fit, until the next recorded new_game)
RESYNC: Final = 0.3


# --- recorded traffic ------------------------------------------------------------------------------------


def _ruleset(rid: str) -> Json:
    rs = load_ruleset(rid)
    return {"id": rs.id, "options": rs.options.as_json()}


def _mid_game_deal() -> Json:
    """A matgo-2p game in progress: captured piles, a stack, player state, turn, carried multipliers."""
    options = load_ruleset("matgo-2p").options
    return complete_deal(
        options,
        [["m01-bright", "m05-junk-1", "m07-animal"], ["m02-junk-1", "m06-junk-1", "m08-animal"]],
        ["m01-junk-1", "m09-junk-1", "m04-junk-1", "m04-junk-2", "m04-animal"],
        ["m03-junk-1"],
        captured=[["m10-animal", "m10-junk-1"], ["m11-junk-1"]],
        stacks={4: None},
        player_state=(PlayerState(gos=0, shaken_months=(12,)), PlayerState(ppeoks=1)),
        turn=4,
        nagari_streak=1,
        carried_multiplier=2,
        first_player=0,
    ).to_json()


def record(seed: int = 0, rounds_per_ruleset: int = 2) -> list[Json]:
    """The requests of a harness session (without seq) over a few rounds, each act one of the
    actions `legal` offered, chosen by `seed`."""
    rng = random.Random(seed)
    engine = JsonEngine()
    requests: list[Json] = [{"cmd": "hello", "protocol": "1", "suite_version": "0.1.0"}]
    deals: list[tuple[str, Json]] = [("matgo-2p", _mid_game_deal())]
    for rid in RULESETS:
        options = load_ruleset(rid).options
        for r in range(rounds_per_ruleset):
            deal_seed = rng.randrange(1 << 64)
            if r % 2:
                deals.append((rid, {"seed": deal_seed, "dealer": rng.randrange(options.players)}))
            else:
                deals.append((rid, seeded_deal(options, SplitMix64(deal_seed), dealer=rng.randrange(options.players)).to_json()))
    for rid, deal in deals:
        request: Json = {"cmd": "new_game", "ruleset": _ruleset(rid), "deal": deal}
        requests.append(request)
        assert "error" not in engine.new_game(request["ruleset"], deal), (rid, deal)
        requests.append({"cmd": "perft", "depth": rng.randint(1, PERFT_DEPTH)})
        while True:
            requests.append({"cmd": "legal"})
            legal = engine.legal()
            if legal["decision"] == "none":
                break
            action = rng.choice(legal["actions"])
            requests.append({"cmd": "act", "action": action})
            assert "error" not in engine.act(action), action
            if rng.random() < 0.1:
                requests.append({"cmd": "score"})
        requests.append({"cmd": "score"})
    requests.append({"cmd": "bye"})
    return requests


# --- mutation --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    """JSON text written as is (a literal orjson would not write: NaN, 5000 digits, deep nesting)."""

    text: bytes


@dataclass(frozen=True)
class Pairs:
    """An object written from its pairs, in order: it may repeat a key."""

    items: tuple[tuple[str, Any], ...]


def dump(value: Any, rng: random.Random | None = None) -> bytes:
    """JSON text of `value` (Raw and Pairs included), compact, or spaced as Python's json writes it."""
    spaced = rng is not None and rng.random() < 0.3
    comma, colon = (b", ", b": ") if spaced else (b",", b":")
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Pairs | dict):
        items = value.items if isinstance(value, Pairs) else tuple(value.items())
        return b"{" + comma.join(orjson.dumps(k) + colon + dump(v, rng) for k, v in items) + b"}"
    if isinstance(value, list):
        return b"[" + comma.join(dump(v, rng) for v in value) + b"]"
    return orjson.dumps(value)


def _paths(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


def _get(value: Any, path: Sequence[str | int]) -> Any:
    for key in path:
        value = value[key]
    return value


def _replaced(value: Any, path: Sequence[str | int], new: Any) -> Any:
    """A copy of `value` with the node at `path` replaced or added (the rest shared)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new) if rest else new}
    out = list(value)
    out[int(head)] = _replaced(value[int(head)], rest, new)
    return out


def _digits(rng: random.Random, n: int) -> bytes:
    return (str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))).encode()


def _nested(rng: random.Random, inner: bytes) -> Raw:
    """`inner` under n levels of arrays or objects, n around the server's limit or far beyond."""
    n = rng.choice((server.MAX_DEPTH - 2, server.MAX_DEPTH - 1, server.MAX_DEPTH, server.MAX_DEPTH + 1, 100, 300, 1030, 5000))
    if rng.random() < 0.5:
        return Raw(b"[" * n + inner + b"]" * n)
    return Raw(b'{"a":' * n + inner + b"}" * n)


def other_value(rng: random.Random, current: Any) -> Any:
    """A value of a JSON type other than `current`'s (or an edge of the same type)."""
    choices: list[Callable[[], Any]] = [
        lambda: None,
        lambda: True,
        lambda: False,
        lambda: 0,
        lambda: -1,
        lambda: rng.choice((1 << 63, (1 << 64) - 1, -(1 << 63))),
        lambda: Raw(rng.choice((b"18446744073709551616", b"-9223372036854775809", b"1" + b"0" * 30))),
        lambda: Raw(_digits(rng, rng.choice((20, 400, 4301, 5000)))),
        lambda: Raw(rng.choice((b"1.0", b"2.5", b"1e2", b"-0.0", b"1E400", b"-1e400", b"0.1e1"))),
        lambda: Raw(rng.choice((b"NaN", b"Infinity", b"-Infinity", b"nan", b"undefined", b"0x10", b"01", b"+1", b".5"))),
        lambda: "",
        lambda: rng.choice(("legal", "act", "hello", "bye ", "LEGAL", "m01-bright", "bonus-1", "play", "seed")),
        lambda: "x" * rng.choice((41, 1000, 30_000)),
        lambda: Raw(rng.choice((b'"\\ud800"', b'"\\udc00x"', b'"\\ud83d\\ude00"', b'"\\u0000"', b'"\\x41"'))),
        lambda: [],
        lambda: {},
        lambda: [current],
        lambda: {"cmd": current},
        lambda: ["legal"],
        lambda: _nested(rng, dump(current)),
    ]
    return rng.choice(choices)()


#: bytes a byte-level mutation inserts: JSON's punctuation, digits, quotes, escapes, controls, high bytes
_ALPHABET: Final = b'{}[]":,\\-+.eE0123456789tfn \t\r\x00\x1f\x7f\x80\xc3\xff'
#: sequences that are not UTF-8: lone continuation, truncated lead, encoded surrogate, overlong, past U+10FFFF
_BAD_UTF8: Final = (b"\x80", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xff\xfe", b"\xe2\x82")


class Mutator:
    """Mutants of recorded request lines, drawn from one seeded generator."""

    def __init__(self, rng: random.Random, corpus: Sequence[Json]) -> None:
        self.rng = rng
        self.corpus = corpus
        self.byte_ops: list[Callable[[bytes], bytes]] = [
            self.flip_bits,
            self.truncate,
            self.insert_bytes,
            self.delete_bytes,
            self.duplicate_bytes,
            self.bad_utf8,
            self.lone_surrogate,
            self.line_break,
            self.whole_line,
        ]
        self.strings = sorted({v for m in corpus for p in _paths(m) if isinstance(v := _get(m, p), str)})
        self.value_ops: list[Callable[[Json], Any]] = [
            self.other_type,
            self.same_type,
            self.same_type,
            self.huge_number,
            self.deep_nesting,
            self.duplicate_key,
            self.swap_field,
            self.drop_or_add_key,
            self.long_string,
            self.deal_surgery,
            self.deal_surgery,
        ]

    def mutate(self, message: Json) -> bytes:
        """One mutant line (without its newline) of `message`: one to three mutations, the first on
        the message's values (then written), the others on the bytes."""
        rng = self.rng
        if rng.random() < 0.6:
            line = dump(rng.choice(self.value_ops)(message), rng)
            extra = rng.choice((0, 0, 0, 1))
        else:
            line = dump(message, rng)
            extra = rng.choice((1, 1, 2, 3))
        for _ in range(extra):
            line = rng.choice(self.byte_ops)(line)
        return line

    # bytes

    def flip_bits(self, line: bytes) -> bytes:
        out = bytearray(line)
        for _ in range(self.rng.randint(1, 4)):
            if out:
                out[self.rng.randrange(len(out))] ^= 1 << self.rng.randrange(8)
        return bytes(out)

    def truncate(self, line: bytes) -> bytes:
        return line[: self.rng.randrange(len(line) + 1)]

    def insert_bytes(self, line: bytes) -> bytes:
        at = self.rng.randrange(len(line) + 1)
        junk = bytes(self.rng.choice(_ALPHABET) for _ in range(self.rng.randint(1, 4)))
        return line[:at] + junk + line[at:]

    def delete_bytes(self, line: bytes) -> bytes:
        at = self.rng.randrange(len(line) + 1)
        return line[:at] + line[at + self.rng.randint(1, 8) :]

    def duplicate_bytes(self, line: bytes) -> bytes:
        at = self.rng.randrange(len(line) + 1)
        end = min(len(line), at + self.rng.randint(1, 40))
        return line[:end] + line[at:end] * self.rng.randint(1, 3) + line[end:]

    def bad_utf8(self, line: bytes) -> bytes:
        at = self.rng.randrange(len(line) + 1)
        return line[:at] + self.rng.choice(_BAD_UTF8) + line[at:]

    def lone_surrogate(self, line: bytes) -> bytes:
        """An escape of a lone surrogate right after a quote (inside a string, or opening one)."""
        quotes = [i for i, b in enumerate(line) if b == 0x22]
        at = self.rng.choice(quotes) + 1 if quotes else 0
        return line[:at] + self.rng.choice((b"\\ud800", b"\\udfff", b"\\ud800\\ud800", b"\\udc00\\ud800")) + line[at:]

    def line_break(self, line: bytes) -> bytes:
        """A line break inside the line (two requests, each a fragment), or a carriage return."""
        at = self.rng.randrange(len(line) + 1)
        return line[:at] + self.rng.choice((b"\n", b"\r", b"\r\n", b"\n\n", b"\x0b", b"\x0c")) + line[at:]

    def whole_line(self, line: bytes) -> bytes:
        """A line that is not a request object at all, or the request with a prefix or suffix."""
        return self.rng.choice(
            (
                b"",
                b"   ",
                b"\t\r",
                b"null",
                b"[]",
                b'"hello"',
                b"42",
                b"\xef\xbb\xbf" + line,  # a byte order mark
                line + b"\r",  # CRLF
                line + b" " + line,  # two objects on a line
                line + b" " * (server.LINE_LIMIT + 1 - len(line)),  # just over the limit
                line * 2,
            )
        )

    # values

    def _path(self, message: Json, leaves_only: bool = False) -> tuple[str | int, ...]:
        paths = [p for p in _paths(message) if p and (not leaves_only or not isinstance(_get(message, p), dict | list))]
        return self.rng.choice(paths) if paths else ()

    def other_type(self, message: Json) -> Any:
        path = self._path(message)
        return _replaced(message, path, other_value(self.rng, _get(message, path)))

    def same_type(self, message: Json) -> Any:
        """A leaf replaced by another of its type, often one the schema takes: a seat, a month, a card
        or option value recorded elsewhere, an integer at an edge; or an array shortened or grown."""
        rng = self.rng
        path = self._path(message)
        value = _get(message, path)
        new: Any
        if isinstance(value, bool):
            new = not value
        elif isinstance(value, int):
            new = rng.choice((0, 1, 2, 3, 4, 5, 11, 12, 13, 100, 10**9, (1 << 31), (1 << 53) + 1, (1 << 63) - 1, (1 << 64) - 1, value + 1))
        elif isinstance(value, str):
            new = rng.choice(self.strings)
        elif isinstance(value, list) and value:
            new = rng.choice((value[:-1], value[1:], [*value, rng.choice(value)], list(reversed(value)), []))
        else:
            new = other_value(rng, value)
        return _replaced(message, path, new)

    def huge_number(self, message: Json) -> Any:
        numbers = [p for p in _paths(message) if p and isinstance(_get(message, p), int) and not isinstance(_get(message, p), bool)]
        path = self.rng.choice(numbers) if numbers else ("seq",)
        big = self.rng.choice(
            (
                Raw(_digits(self.rng, self.rng.choice((19, 20, 21, 40, 400, 5000)))),
                Raw(b"-" + _digits(self.rng, self.rng.choice((19, 20, 400)))),
                (1 << 64) - 1,
                1 << 63,
                Raw(b"1e309"),
                Raw(b"123456789012345678901234567890.5"),
            )
        )
        return _replaced(message, path, big)

    def deep_nesting(self, message: Json) -> Any:
        path = self._path(message)
        return _replaced(message, path, _nested(self.rng, dump(_get(message, path))))

    def duplicate_key(self, message: Json) -> Any:
        """An object with one of its keys twice: the same value, another value, or another type."""
        objects = [p for p in _paths(message) if isinstance(_get(message, p), dict) and _get(message, p)]
        path = self.rng.choice(objects)
        obj: Json = _get(message, path)
        key = self.rng.choice(list(obj))
        twin = self.rng.choice((obj[key], other_value(self.rng, obj[key])))
        items = list(obj.items())
        items.insert(self.rng.randrange(len(items) + 1), (key, twin))
        return _replaced(message, path, Pairs(tuple(items)))

    def swap_field(self, message: Json) -> Any:
        """A field of another recorded request (another command's, or the same command's from another
        point of the session: an action of another round, another round's deal), set in this one."""
        other = self.rng.choice(self.corpus)
        path = self._path(other)
        if not path:
            return message
        target = self._path(message) if self.rng.random() < 0.5 else path[:1]
        if not target or not isinstance(_get(message, target[:-1]), dict):
            key = str(path[0])  # a key of the request object
            return {**message, key: other[key]}
        return _replaced(message, target, _get(other, path))

    def drop_or_add_key(self, message: Json) -> Any:
        objects = [p for p in _paths(message) if isinstance(_get(message, p), dict)]
        path = self.rng.choice(objects)
        obj: Json = dict(_get(message, path))
        if obj and self.rng.random() < 0.5:
            del obj[self.rng.choice(list(obj))]
        else:
            obj[self.rng.choice(("extra", "seq", "cmd", "depth", "action", "", "\u00e9", "a" * 100))] = other_value(self.rng, None)
        return _replaced(message, path, obj)

    def deal_surgery(self, message: Json) -> Any:
        """A new_game whose deal keeps the schema's shape but not, maybe, the rules: a card moved
        from one place to another or dropped, a hand removed, counters and seats changed, stacks
        and player state added (other requests are swapped for a recorded new_game first)."""
        rng = self.rng
        if message.get("cmd") != "new_game" or "hands" not in message.get("deal", {}):
            games = [r for r in self.corpus if r["cmd"] == "new_game" and "hands" in r["deal"]]
            message = {"seq": message.get("seq"), **rng.choice(games)}
        deal: Json = json.loads(json.dumps(message["deal"]))  # a deep copy
        places = [*deal["hands"], deal["table"], deal["stock"], *(deal.get("captured") or [])]
        for _ in range(rng.randint(1, 3)):
            op = rng.randrange(9)
            source = rng.choice([p for p in places if p] or places)
            if op == 0 and source:  # a card moves
                rng.choice(places).insert(0, source.pop(rng.randrange(len(source))))
            elif op == 1 and source:  # a card is dropped, or given twice
                card = source.pop(rng.randrange(len(source))) if rng.random() < 0.5 else rng.choice(source)
                if rng.random() < 0.5:
                    rng.choice(places).append(card)
            elif op == 2 and len(deal["hands"]) > 2:  # a seat fewer
                deal["hands"].pop()
            elif op == 3:
                deal[rng.choice(("dealer", "first_player"))] = rng.randrange(4)
            elif op == 4:
                key = rng.choice(("nagari_streak", "turn", "carried_multiplier"))
                deal[key] = rng.choice((0, 1, 2, 7, 63, 64, 65, 1000, (1 << 63) - 1, (1 << 64) - 1))
            elif op == 5:
                deal["stacks"] = [{"month": rng.randint(1, 12), "owner": rng.choice((None, 0, 1, 2, 3))} for _ in range(rng.randint(0, 3))]
            elif op == 6:
                counters = ("gos", "go_base", "first_go_turn", "skip_credits", "ppeoks")
                deal["players"] = [
                    {
                        **{
                            k: rng.choice((0, 1, 2, 3, 5, 64, 65, (1 << 63) - 1))
                            for k in rng.sample(counters, rng.randint(0, len(counters)))
                        },
                        "shaken_months": [rng.randint(1, 12) for _ in range(rng.randint(0, 3))],
                        "bombs": [rng.randint(1, 12) for _ in range(rng.randint(0, 2))],
                        "dual_junk": rng.sample(deal["stock"], min(len(deal["stock"]), rng.randint(0, 2))),
                    }
                    for _ in range(len(deal["hands"]) + rng.choice((0, 0, 0, -1, 1)))
                ]
            elif op == 7:
                deal["captured"] = [[] for _ in deal["hands"]]
                places += deal["captured"]
            else:  # another ruleset for the same deal
                message = {**message, "ruleset": rng.choice([r for r in self.corpus if r["cmd"] == "new_game"])["ruleset"]}
        return {**message, "deal": deal}

    def long_string(self, message: Json) -> Any:
        strings = [p for p in _paths(message) if p and isinstance(_get(message, p), str)]
        path = self.rng.choice(strings) if strings else ("cmd",)
        size = self.rng.choice((100, 5000, 60_000, server.LINE_LIMIT + 10))
        return _replaced(message, path, self.rng.choice(("x", "\u00e9", "\\", '"')) * size)


# --- the stream of lines ---------------------------------------------------------------------------------


#: what stands for a line the server drops unread (longer than its LINE_LIMIT): no request, not blank
_TOO_LONG: Final = b"\x00(a line longer than the server reads)"


def _segments(line: bytes) -> list[bytes]:
    """The request lines the server reads in `line` (which may hold line breaks), as it reads them."""
    return [s if s is not None else _TOO_LONG for s in server.request_lines(io.BytesIO(line + b"\n"))]


def _parsed(segment: bytes) -> Any:
    try:
        return orjson.loads(segment)
    except orjson.JSONDecodeError:
        return None


def _unwanted(line: bytes) -> bool:
    """Whether `line` holds a request the fuzz must not send: bye (the server would stop) or a perft
    deeper than PERFT_DEPTH (valid, and exponentially slow)."""
    for segment in _segments(line):
        message = _parsed(segment)
        if not isinstance(message, dict):
            continue
        depth = message.get("depth")
        if message.get("cmd") == "bye":
            return True
        if message.get("cmd") == "perft" and isinstance(depth, int | float) and not isinstance(depth, bool) and depth > PERFT_DEPTH:
            return True
    return False


@dataclass(frozen=True)
class Line:
    data: bytes  # without the newline
    mutant: bool


def lines(seed: int, mutants: int, corpus: Sequence[Json] | None = None) -> Iterator[Line]:
    """The fuzz stream: the recorded session over and over with fresh seqs, so that the rounds go
    on, with a mutant before about every other request (of the request due, or of one of a command
    drawn first: new_games are few), until `mutants` mutants have been made. After a mutant that
    is a new_game (which, taken or refused, ends the round in progress) the round so far is often
    (RESYNC) sent again from its new_game, so that what follows is played in a round again."""
    rng = random.Random(seed)
    corpus = list(corpus if corpus is not None else record(seed))
    mutator = Mutator(rng, corpus)
    sendable = [r for r in corpus if r["cmd"] != "bye"]
    by_command: dict[str, list[Json]] = {}
    for request in sendable:
        by_command.setdefault(request["cmd"], []).append(request)
    seq = 0
    made = 0
    round_so_far: list[Json] = []
    while made < mutants:
        for request in sendable:
            if made >= mutants:
                return
            if request["cmd"] == "new_game":
                round_so_far = []
            if rng.random() < 0.5:
                seq += 1
                source = {"seq": seq, **(request if rng.random() < 0.5 else rng.choice(by_command[rng.choice(sorted(by_command))]))}
                while _unwanted(data := mutator.mutate(source)):
                    pass
                made += 1
                yield Line(data, mutant=True)
                if rng.random() < RESYNC and any(isinstance(m := _parsed(s), dict) and m.get("cmd") == "new_game" for s in _segments(data)):
                    for again in round_so_far:
                        seq += 1
                        yield Line(dump({"seq": seq, **again}, rng), mutant=False)
            seq += 1
            yield Line(dump({"seq": seq, **request}, rng), mutant=False)
            round_so_far.append(request)


# --- checking replies ------------------------------------------------------------------------------------

#: what a bad_request names, as "where: what": the JSON path (`(message)` for the whole; a key may be
#: any string), the column or byte of the line; or the line as a whole (not an object, too long)
LOCATED: Final = re.compile(r"^\S[^\n]*?: |\bcolumn \d+|^a request must be a JSON object|^the line is longer than")


def reply_problem(segment: bytes, raw: bytes) -> str | None:
    """What is wrong with `raw`, the reply line to the request line `segment` (None: nothing)."""
    if not raw.endswith(b"\n"):
        return "the reply is not a whole line"
    if len(raw) > REPLY_LIMIT:
        return f"the reply holds {len(raw)} bytes, more than the harness reads"
    try:
        reply = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return f"the reply is not JSON: {exc}"
    if not isinstance(reply, dict):
        return "the reply is not an object"
    request = _parsed(segment)
    asked = request.get("seq") if isinstance(request, dict) else None
    if reply.get("seq") is not None and reply.get("seq") != asked:
        return f"the reply carries seq {reply.get('seq')!r}, the request {asked!r}"
    if "error" in reply:
        definition = "reply_error"
        if isinstance(reply["error"], dict) and reply["error"].get("code") == "internal":
            return f"an internal error: {reply['error'].get('message')}"
    elif not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
        return "a reply without error to a line that is no request"
    else:
        definition = f"reply_{request['cmd']}"
        if reply.get("seq") != asked:
            return "a reply without error that does not echo the request's seq"
    if not protocol_check(definition)(reply):
        errors = list(protocol_validator(definition).iter_errors(reply))
        return f"the reply breaks {definition}: {errors[0].message if errors else '?'}"
    if "error" in reply and reply["error"]["code"] == "bad_request" and not LOCATED.search(reply["error"]["message"]):
        return f"a bad_request that names no place: {reply['error']['message']!r}"
    return None


# --- the server, over pipes or in process ----------------------------------------------------------------


class Server:
    """Lines in, reply lines out."""

    def send(self, line: bytes) -> list[bytes]:
        raise NotImplementedError

    def alive(self) -> bool:
        return True

    def close(self) -> str:
        """Stop the server; what it wrote to stderr, if anything."""
        return ""


class InProcess(Server):
    """The server's own line function on an engine of this process (no pipes: fast, and a mutation
    tool sees the code run)."""

    def __init__(self) -> None:
        self.engine = JsonEngine()

    def send(self, line: bytes) -> list[bytes]:
        out: list[bytes] = []
        for segment in server.request_lines(io.BytesIO(line + b"\n")):
            answered = server.answer(self.engine, segment)
            if answered is not None:
                out.append(answered[0])
        return out


class Subprocess(Server):
    """`python -m gostop_conformance.reference --stdio`, one process for the whole run; a thread
    reads its replies, so that a missing one is a timeout, not a hang."""

    def __init__(self, argv: Sequence[str] | None = None) -> None:
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (open for the process's life: close() closes it)
        self.proc = subprocess.Popen(
            list(argv or [sys.executable, "-m", "gostop_conformance.reference", "--stdio"]),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            cwd=ROOT,
        )
        self.replies: queue.Queue[bytes] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.replies.put(raw)
        self.replies.put(b"")  # end of output

    def send(self, line: bytes) -> list[bytes]:
        assert self.proc.stdin is not None
        expected = sum(1 for s in _segments(line) if s.strip(b" \t\r\n"))
        try:
            self.proc.stdin.write(line + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return []
        out: list[bytes] = []
        for _ in range(expected):
            try:
                raw = self.replies.get(timeout=REPLY_TIMEOUT)
            except queue.Empty:
                break
            if not raw:
                break
            out.append(raw)
        return out

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> str:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            with contextlib.suppress(BrokenPipeError):  # the server is gone: nothing to flush to
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.stderr.seek(0)
        text = self.stderr.read().decode("utf-8", "replace")
        self.stderr.close()
        return text


@dataclass
class Result:
    lines: int = 0
    mutants: int = 0
    replies: int = 0
    seconds: float = 0.0
    codes: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    stderr: str = ""

    def summary(self) -> str:
        codes = ", ".join(f"{code} {n}" for code, n in self.codes.most_common())
        return (
            f"{self.lines} lines ({self.mutants} mutants), {self.replies} replies in {self.seconds:.1f} s; "
            f"{len(self.failures)} failures; replies by code: {codes}"
        )


#: failures kept in full (the count is kept whatever)
_KEPT: Final = 20


def run(seed: int, mutants: int, server_: Server | None = None) -> Result:
    """Send the fuzz stream of `seed` to the server (a subprocess by default) and check every reply."""
    srv = server_ if server_ is not None else Subprocess()
    result = Result()
    started = time.perf_counter()
    failures: list[str] = []

    def fail(text: str) -> None:
        if len(failures) < _KEPT:
            failures.append(text)
        else:
            failures.append("")

    try:
        for line in lines(seed, mutants):
            result.lines += 1
            result.mutants += line.mutant
            segments = [s for s in _segments(line.data) if s.strip(b" \t\r\n")]
            replies = srv.send(line.data)
            result.replies += len(replies)
            shown = line.data[:300]
            if len(replies) != len(segments):
                fail(f"line {result.lines}: {len(segments)} requests, {len(replies)} replies: {shown!r}")
                if not srv.alive():
                    fail(f"line {result.lines}: the server is gone: {shown!r}")
                    break
                continue
            for segment, raw in zip(segments, replies, strict=True):
                problem = reply_problem(segment, raw)
                if problem is not None:
                    fail(f"line {result.lines}: {problem}: {shown!r} -> {raw[:300]!r}")
                reply = _parsed(raw)
                error = reply.get("error") if isinstance(reply, dict) else None
                result.codes[str(error.get("code")) if isinstance(error, dict) else "ok"] += 1
        if srv.alive():
            hello = {"seq": 10**9, "cmd": "hello", "protocol": "1"}
            answer = srv.send(orjson.dumps(hello))
            if len(answer) != 1 or reply_problem(orjson.dumps(hello), answer[0]) or orjson.loads(answer[0]).get("seq") != 10**9:
                fail(f"no fresh hello after the run: {answer!r}")
            if srv.send(b'{"seq": 1000000001, "cmd": "bye"}') != [b'{"seq":1000000001}\n']:
                fail("bye was not answered")
        else:
            fail("the server is gone")
    finally:
        result.stderr = srv.close()
    if isinstance(srv, Subprocess) and srv.proc.returncode != 0:
        fail(f"the server exited with {srv.proc.returncode}: {result.stderr[-2000:]}")
    result.seconds = time.perf_counter() - started
    result.failures = [f for f in failures if f] + ([f"... and {len(failures) - _KEPT} more"] if len(failures) > _KEPT else [])
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="server_fuzz", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--mutants", type=int, default=int(os.environ.get("FUZZ_MUTANTS", "12000")), help="mutated lines to send")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", "1")), help="the seed of the whole run")
    parser.add_argument("--in-process", action="store_true", help="call the server's line function instead of a subprocess")
    args = parser.parse_args(argv)
    result = run(args.seed, args.mutants, InProcess() if args.in_process else None)
    print(f"server fuzz, seed {args.seed}: {result.summary()}")
    for failure in result.failures:
        print(f"  {failure}")
    if result.failures and result.stderr:
        print(f"server stderr (last 2000 characters):\n{result.stderr[-2000:]}")
    return 1 if result.failures else 0


if __name__ == "__main__":
    sys.exit(main())
