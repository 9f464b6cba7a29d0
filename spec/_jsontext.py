"""JSON text from outside (an engine's reply, a request to the stdio server, a saved report, a
hello file), parsed only when it nests no deeper than anything the project writes: Python's
parsers and every walk over the result recurse, and a line nested a thousand deep would end
them with RecursionError instead of a located error."""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Any, Final

import orjson

#: how deep a JSON text may nest: the protocol's and the reports' deepest values have a handful of
#: levels, and this is far below what Python's recursion allows
MAX_JSON_DEPTH: Final = 64
#: a JSON string, its escapes included (written unrolled: one repeat of a character class per run of
#: plain characters, so that a 2 MB string costs no backtracking state per character)
_STRING: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS: Final = bytes(c for c in range(256) if c not in b"[]{}")


def json_nesting(text: bytes | str) -> int:
    """How deep a JSON text nests, its strings aside (a C-speed pass, cheap beside parsing)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    return max(accumulate(1 if b in b"[{" else -1 for b in brackets))


def parse_json(text: bytes | str) -> Any:
    """The value of one JSON text; ValueError says what is wrong (not JSON, or nested deeper than
    MAX_JSON_DEPTH), never RecursionError. NaN and Infinity are not JSON and are refused."""
    if json_nesting(text) > MAX_JSON_DEPTH:
        raise ValueError(f"nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
