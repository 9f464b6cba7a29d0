"""`gostop-reference --stdio`: the reference engine as a protocol server (spec/protocol/).

One JSON object per line in, one per line out (compact UTF-8, written by orjson: a reply costs a
quarter of what the standard library takes to encode it), each reply echoing the request's `seq`. A line
that is not a valid request gets an error reply (`bad_request`, with the JSON path and what was
expected) and the server keeps serving; `bye` or the end of input stops it. A blank line is no
request and gets no reply.

Whatever a line holds, it gets exactly one reply line and the server goes on. A line too long, too
deeply nested, not UTF-8 or not JSON is refused before anything recursive reads it; a request the
schema lets through but the engine cannot take (a number that is not a 64-bit integer, a key given
twice) is a bad request too; a request whose reply would hold an integer beyond 64 bits is refused
as `unsupported` and takes no effect. `internal` is left for a bug of the engine.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

import jsonschema
import orjson

from gostop_conformance.reference._jsonapi import JsonEngine
from gostop_conformance.spec import (
    MAX_JSON_DEPTH,
    counted,
    format_path,
    json_deeper_than,
    load_ruleset,
    protocol_check,
    protocol_schema,
    ruleset_ids,
)

Json = dict[str, Any]

#: bytes of one request line, its newline excluded. The largest request the harness sends (a
#: new_game of four players in mid-game, every option listed) holds about 5 KiB; the harness reads
#: replies up to 64 KiB, and so the server reads requests. A longer line is read through in chunks
#: and dropped, never held whole; nor does the schema validator see it (jsonschema takes seconds to
#: list what is wrong with a megabyte of array items).
LINE_LIMIT: Final = 64 << 10
#: how deep a request may nest (spec/_jsontext.py), as the harness's replies: orjson parses up to
#: 1024 levels, but what reads the message next recurses in Python (jsonschema, repr) or stops
#: sooner (orjson.dumps at 255, which raised inside the error handler and killed the server on a
#: seq nested 300 deep): so the depth is checked on the bytes, before parsing.
MAX_DEPTH: Final = MAX_JSON_DEPTH
#: characters of an error message: one may quote what it refuses, which can be a 60 KiB string
MESSAGE_LIMIT: Final = 1000
#: the integers of a request and a reply: what orjson reads as integers (past them it reads a
#: float, losing digits) and writes, and what an int64 or uint64 of another language holds
INT_RANGE: Final = range(-(1 << 63), 1 << 64)
#: JSON's whitespace: a line of nothing else is blank
_JSON_SPACE: Final = b" \t\r\n"
#: a JSON string, and the colon after it when it is an object key (in valid JSON every match starts
#: at an opening quote: a string is skipped whole)
_STRING_KEY: Final = re.compile(rb'"(?:[^"\\]++|\\.)*+"(\s*+:)?', re.DOTALL)


_BRANCH = {"hello": 0, "new_game": 1, "legal": 2, "score": 2, "bye": 2, "act": 3, "perft": 4}


def _clip(text: str) -> str:
    """At most about MESSAGE_LIMIT characters: the head and tail of a longer text."""
    if len(text) <= MESSAGE_LIMIT:
        return text
    half = MESSAGE_LIMIT // 2 - 30
    return f"{text[:half]} [... {counted(len(text) - 2 * half, 'character')} left out ...] {text[-half:]}"


#: what a JSON value is called, by the Python type it parses to (a message speaks JSON, not Python)
_JSON_KINDS: Final[dict[type, str]] = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true or false",
    type(None): "null",
}


def _show(value: Any) -> str:
    """A value as a message quotes it: scalars as Python writes them (shortened), containers by kind
    (a repr of a container would recurse and could run to the line's length)."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str) and len(value) > 40:
        return f"{value[:40]!r}... ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and value not in INT_RANGE:
        return f"an integer of {value.bit_length()} bits"  # repr refuses past 4300 digits
    return repr(value)


def _described(exc: BaseException) -> str:
    """An exception for an `internal` error message; its text, unless even that fails."""
    try:
        return _clip(f"{type(exc).__name__}: {exc}")
    except Exception:  # a text that cannot be made (an integer too long for str): the type alone
        return type(exc).__name__


def _seq(message: Any) -> int | None:
    """The seq a reply echoes: the request's, when it is one; else null, as for a request without
    one (the reply schema takes no negative, boolean or fractional seq)."""
    seq = message.get("seq") if isinstance(message, dict) else None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq < 1 << 64 else None


def _refused(problem: str, seq: int | None = None) -> Json:
    return {"seq": seq, "error": {"code": "bad_request", "message": _clip(problem)}}


@dataclass(frozen=True, slots=True)
class _Inspection:
    """What one walk over a parsed message finds: the keys of its objects, and its first number that
    is no integer of INT_RANGE (where and what, and whether it is an integer too large)."""

    keys: int
    number: str | None = None
    huge: bool = False


def _bad_number(value: Any) -> bool:
    return isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool) and value not in INT_RANGE)


def _inspect(message: Any) -> _Inspection:
    """Walk `message` once, without recursion (it may be as deep as MAX_DEPTH).

    Every number of the protocol is an integer; JSON Schema also counts 1.0 or 1e2 as one, and
    orjson reads an integer past 64 bits as a float. Passed on, such a float was echoed as a seq
    (other digits than the request's), or raised TypeError in the engine (range(2.0) for a perft
    depth): so the server takes integers as JSON writes them, 1 and not 1.0."""
    keys = 0
    stack = [message]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            keys += len(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif _bad_number(value):
            return _number_problem(message, keys)
    return _Inspection(keys=keys)


def _number_problem(message: Any, keys: int) -> _Inspection:
    """The first bad number of `message` in the order of the text, with its path (a second walk,
    only for a message that has one)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(message, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            stack.extend((item, (*path, key)) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((value[i], (*path, i)) for i in reversed(range(len(value))))
        elif _bad_number(value):
            where = format_path(list(path)) or "(message)"
            number = f"{where}: expected an integer of at most 64 bits written without a fraction or exponent, got {_show(value)}"
            return _Inspection(keys=keys, number=number, huge=not isinstance(value, float))
    return _Inspection(keys=keys)


class _Twice(dict[str, Any]):
    """An object of a line that gives `key` twice (what the standard library's parser builds for it)."""

    def __init__(self, items: list[tuple[str, Any]], key: str) -> None:
        super().__init__(items)
        self.key = key


def _pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in items:
        if key in seen:
            return _Twice(items, key)
        seen.add(key)
    return dict(items)


def _duplicate_key(line: bytes, keys: int) -> str | None:
    """Where `line` gives a key twice in one object, or None; `keys`: the keys of the objects orjson
    read from it. orjson keeps the last of two; another parser may keep the first, so the request
    would mean one thing to the harness and another to the engine. The keys of the text are counted
    first: a second parse only when some are missing from what orjson read. Only for a line orjson
    has read (valid JSON, where every string match starts at an opening quote)."""
    found = _STRING_KEY.findall(line)
    if len(found) - found.count(b"") == keys:
        return None
    # the standard library's parser recurses, but the line nests no deeper than MAX_DEPTH
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(json.loads(line, object_pairs_hook=_pairs), ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _Twice):
            return f"{format_path(list(path)) or '(message)'}: the key {_show(value.key)} appears twice in one object"
        if isinstance(value, dict):
            stack.extend((item, (*path, key)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, (*path, i)) for i, item in enumerate(value))
    return None


def check_request(message: Any) -> str | None:
    """None when `message` is a valid request, else what is wrong with it (JSON path and expectation)."""
    if not isinstance(message, dict):
        return f"a request must be a JSON object, got {_JSON_KINDS.get(type(message), type(message).__name__)}"
    cmd = message.get("cmd")
    if not isinstance(cmd, str) or cmd not in _BRANCH:  # an array or an object is no key of _BRANCH: unhashable
        return f"cmd: expected one of {', '.join(_BRANCH)}, got {_show(cmd)}"
    if protocol_check("request", _BRANCH[cmd])(message):
        return None
    branch = {"$defs": protocol_schema()["$defs"], **protocol_schema()["$defs"]["request"]["oneOf"][_BRANCH[cmd]]}
    # the first errors only: a long array of wrong items has one each
    errors = list(itertools.islice(jsonschema.Draft202012Validator(branch).iter_errors(message), 50))
    if not errors:  # should the compiled check and the full validator ever disagree, the full one decides
        return None
    err = jsonschema.exceptions.best_match(errors)
    return f"{format_path(list(err.absolute_path)) or '(message)'}: {err.message}"


def handle(engine: JsonEngine, message: Any) -> tuple[Json, bool]:
    """The reply to one parsed message, and whether to stop serving. The reply holds no integer
    beyond 64 bits: a request whose reply would is refused (`_writable`)."""
    reply, stop = _handle(engine, message, _inspect(message))
    try:
        orjson.dumps(reply)
    except TypeError:
        reply = _writable(engine, message, reply)
    return reply, stop


def _handle(engine: JsonEngine, message: Any, inspection: _Inspection) -> tuple[Json, bool]:
    seq = _seq(message)
    # an integer beyond 64 bits (only a caller in process passes one: orjson reads a float) comes
    # first, as jsonschema's messages would print it whole; a float after the schema's problems,
    # which say more (an unexpected key, a missing field)
    problem = inspection.number if inspection.huge else check_request(message) or inspection.number
    if problem is not None:
        return _refused(problem, seq), False
    cmd = message["cmd"]
    if cmd == "hello":
        reply = engine.hello()
    elif cmd == "new_game":
        reply = engine.new_game(message["ruleset"], message["deal"])
    elif cmd == "legal":
        reply = engine.legal()
    elif cmd == "act":
        reply = engine.act(message["action"])
    elif cmd == "score":
        reply = engine.score()
    elif cmd == "perft":
        reply = engine.perft(message["depth"])
    else:
        return {"seq": seq}, True
    error = reply.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), str):  # a rejection may quote a 60 KiB card id
        reply = {**reply, "error": {**error, "message": _clip(error["message"])}}
    return {"seq": seq, **reply}, False


def _writable(engine: JsonEngine, message: Any, reply: Json) -> Json:
    """`reply`, which orjson could not write; when that is for an integer beyond 64 bits, an
    `unsupported` error instead, what the request did undone. The schema bounds no count or
    multiplier of a deal: a carried multiplier of 2^64 - 1, or a turn number as high, makes payments
    or a next turn number no reply can carry. Another cause is a bug of the engine: `encode` reports it."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(reply, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            stack.extend((item, (*path, key)) for key, item in value.items())
        elif isinstance(value, list | tuple):
            stack.extend((item, (*path, i)) for i, item in enumerate(value))
        elif isinstance(value, int) and value not in INT_RANGE:
            break
    else:
        return reply
    cmd = message["cmd"]
    if cmd == "act":
        engine.take_back()
        undone = "the action was not applied"
    elif cmd == "new_game":
        engine.close()
        undone = "no round is in progress"
    else:
        undone = "nothing changed"
    beyond = f"{format_path(list(path))} would be {_show(value)}, beyond the 64-bit integers of the protocol"
    return {"seq": reply["seq"], "error": {"code": "unsupported", "message": f"{beyond}: the engine does not play that far ({undone})"}}


def answer(engine: JsonEngine, line: bytes | None) -> tuple[bytes, bool] | None:
    """The reply line (newline included) to one request line (its newline optional; None: a line
    longer than LINE_LIMIT), and whether to stop serving; None for a blank line, which is no
    request. Nothing in the line makes it raise: an exception of the engine is an `internal` error reply."""
    if line is None:
        return encode(_refused(f"the line is longer than {LINE_LIMIT} bytes: it was not read")), False
    if not line.strip(_JSON_SPACE):
        return None
    column = json_deeper_than(line)
    if column is not None:
        return encode(_refused(f"the line nests deeper than {MAX_DEPTH} levels (level {MAX_DEPTH + 1} opens at column {column})")), False
    try:
        message = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        try:  # orjson checks the encoding first and names no place: find the byte
            line.decode("utf-8")
        except UnicodeDecodeError as bad:
            return encode(_refused(f"the line is not UTF-8: byte {bad.start + 1} (0x{line[bad.start]:02x}): {bad.reason}")), False
        return encode(_refused(f"invalid JSON at column {exc.colno}: {exc.msg}")), False
    try:
        inspection = _inspect(message)
        duplicate = _duplicate_key(line, inspection.keys)
        if duplicate is not None:
            return encode(_refused(duplicate, _seq(message))), False
        reply, stop = _handle(engine, message, inspection)
        try:
            return orjson.dumps(reply, option=orjson.OPT_APPEND_NEWLINE), stop
        except TypeError:
            return encode(_writable(engine, message, reply)), stop
    except Exception as exc:  # an engine bug must not kill the server: report it
        return encode({"seq": _seq(message), "error": {"code": "internal", "message": _described(exc)}}), False


def encode(reply: Json) -> bytes:
    """The reply line (newline included); an unserialisable reply, a bug of the engine, is an
    `internal` error reply instead (with the seq of the request, which is always serialisable)."""
    try:
        return orjson.dumps(reply, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError as exc:
        internal = {"code": "internal", "message": _clip(f"unserialisable reply: {exc}")}
        return orjson.dumps({"seq": _seq(reply), "error": internal}, option=orjson.OPT_APPEND_NEWLINE)


def request_lines(stdin: IO[bytes], before_wait: Callable[[], object] = lambda: None) -> Iterator[bytes | None]:
    """The lines of `stdin` (the last one's newline optional); None for one longer than
    LINE_LIMIT, read through and dropped. `before_wait` is called before each read that may block,
    when no whole line is left in hand: the server sends its replies then, once per batch of
    requests a client sent ahead rather than once per reply (a system call, and a wake-up of the
    client, each)."""
    read: Callable[[int], bytes] = getattr(stdin, "read1", None) or (lambda _size: stdin.readline())
    buf = bytearray()
    while True:
        end = buf.find(b"\n")
        if end < 0 and len(buf) <= LINE_LIMIT:
            before_wait()
            chunk = read(_CHUNK)
            if not chunk:
                if buf:
                    yield bytes(buf)
                return
            buf += chunk
            continue
        if 0 <= end <= LINE_LIMIT:
            line = bytes(buf[: end + 1])
            del buf[: end + 1]
            yield line
            continue
        # longer than the limit: dropped up to its newline, never held whole
        while end < 0:
            buf.clear()
            before_wait()
            chunk = read(_CHUNK)
            if not chunk:
                yield None
                return
            buf += chunk
            end = buf.find(b"\n")
        del buf[: end + 1]
        yield None


#: bytes read from the client at once, at most
_CHUNK: Final = 64 << 10


def serve(stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Serve until `bye` or the end of input (binary streams; the process's own by default)."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    engine = JsonEngine()
    for ruleset_id in ruleset_ids():  # ready before the first request: no game pays for the spec
        load_ruleset(ruleset_id)
    for line in request_lines(stdin, stdout.flush):
        answered = answer(engine, line)
        if answered is None:
            continue
        out, stop = answered
        stdout.write(out)
        if stop:
            break
    stdout.flush()
    return 0
