"""JSON text from outside (an engine's reply, a request to the stdio server, a saved report, a
hello file), parsed only when it nests no deeper than anything the project writes: Python's
parsers and every walk over the result recurse (orjson.dumps stops at 255 levels), and a line
nested a thousand deep would end them with RecursionError instead of a located error."""

from __future__ import annotations

import re
from typing import Any, Final

import orjson

#: how deep a JSON text may nest: the deepest message of the protocol has five levels (a
#: new_game's deal.players[i].bombs) and a report a few more; far below what Python recursion allows
MAX_JSON_DEPTH: Final = 64
#: a bracket, or the quote that opens a string
_DELIMITER: Final = re.compile(rb'[\[\]{}"]')
#: the rest of a JSON string after its opening quote (possessive: no backtracking on long strings)
_STRING_REST: Final = re.compile(rb'(?:[^"\\]++|\\.)*+"', re.DOTALL)


def json_deeper_than(text: bytes | str, limit: int = MAX_JSON_DEPTH) -> int | None:
    """Where the JSON text opens its level limit + 1 (a 1-based column of its bytes), or None when
    it nests no deeper than `limit`. Brackets inside strings do not count. Linear, without recursion."""
    line = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if line.count(b"[") + line.count(b"{") <= limit:  # nearly every line: too few brackets to go deeper
        return None
    depth = 0
    pos = 0
    while (found := _DELIMITER.search(line, pos)) is not None:
        char = line[found.start()]
        pos = found.end()
        if char == 0x22:  # a string: skip to its closing quote
            end = _STRING_REST.match(line, pos)
            if end is None:  # unterminated: the rest is inside it, and the text is not JSON (the parser says where)
                return None
            pos = end.end()
        elif char in b"[{":
            depth += 1
            if depth > limit:
                return pos
        else:
            depth -= 1
    return None


def parse_json(text: bytes | str) -> Any:
    """The value of one JSON text; ValueError says what is wrong (not JSON, or nested deeper than
    MAX_JSON_DEPTH), never RecursionError. NaN and Infinity are not JSON and are refused."""
    column = json_deeper_than(text)
    if column is not None:
        raise ValueError(f"nests deeper than {MAX_JSON_DEPTH} levels (level {MAX_JSON_DEPTH + 1} opens at column {column})")
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
