"""JSON text from outside (spec/_jsontext.py): its depth scanned on the bytes before any parser
recurses over it, and a located ValueError for what is too deep or not JSON."""

from __future__ import annotations

import pytest

from gostop_conformance.spec import MAX_JSON_DEPTH, json_deeper_than, parse_json


def test_the_depth_scan_counts_only_structure() -> None:
    assert json_deeper_than(b"[" * 64 + b"]" * 64) is None
    assert json_deeper_than(b"[" * 65 + b"]" * 65) == 65
    assert json_deeper_than(b'["' + b"[" * 100 + b'"]') is None
    assert json_deeper_than(b'["\\"' + b"[" * 100) is None  # an unterminated string: not JSON, the parser says so
    assert json_deeper_than(b"[]" * 100) is None
    assert json_deeper_than(b'{"a":' * 70) == 5 * 64 + 1
    assert json_deeper_than("[" * 65 + "\udc80") == 65  # text with a lone surrogate is scanned too


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, f"nests deeper than {MAX_JSON_DEPTH} levels (level {MAX_JSON_DEPTH + 1} opens at column"),
        ("NaN", "not JSON"),
        ("[1, Infinity]", "not JSON"),
        ('{"a": 1', "not JSON"),
        (b"\xff", "not JSON"),
    ],
)
def test_parse_json_says_what_is_wrong_and_never_recurses_out(text: str | bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", "\\(").replace(")", "\\)")):
        parse_json(text)


def test_parse_json_reads_what_the_project_writes() -> None:
    assert parse_json('{"a": [1, {"b": null}], "c": "[[["}') == {"a": [1, {"b": None}], "c": "[[["}
