"""YAML input is refused before it can hurt: duplicate keys, alias bombs, huge files, huge messages."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from gostop_conformance.spec import InputError
from gostop_conformance.spec._yamlio import EXPANSION_LIMIT, MESSAGE_LIMIT, SIZE_LIMIT, load_yaml, load_yaml_text


def test_a_duplicate_key_names_both_lines() -> None:
    with pytest.raises(InputError, match=r"f.yaml:4: duplicate key 'title' \(first at line 2\)"):
        load_yaml_text("id: x\ntitle: a\nclauses: []\ntitle: b\n", "f.yaml")
    # the same key in different mappings is fine, and so is a merge key
    assert load_yaml_text("a: {k: 1}\nb: {k: 2}\nc: &c {x: 1}\nd: {<<: *c, y: 2}\n", "f.yaml").data["d"] == {"x": 1, "y": 2}


@pytest.mark.parametrize("where", ["title", "settlement"])
def test_an_alias_bomb_is_refused_at_once_without_memory(where: str) -> None:
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]" for i in range(8)]
    text = "\n".join(levels) + f"\n{where}: *i\n"
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(InputError, match=f"expands to more than {EXPANSION_LIMIT} values"):
        load_yaml_text(text, "bomb.yaml")
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert seconds < 5 and peak < 50 << 20, (seconds, peak)


def test_a_huge_file_and_a_huge_message_are_bounded(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="more than"):
        load_yaml_text("x" * (SIZE_LIMIT + 1), "big.yaml")
    error = InputError("f.yaml:1", "expected a card id, got " + "y" * 10_000_000)
    assert len(str(error)) < 2 * MESSAGE_LIMIT + 200 and "characters left out" in str(error)
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"\xff\xfe not utf-8")
    with pytest.raises(InputError, match="not UTF-8"):
        load_yaml(path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x: &a [*a]\n", r"h.yaml:1: an alias refers to a node that contains it \(a cycle\)"),
        ("a: &m {k: *m}\n", r"h.yaml:1: an alias refers to a node that contains it \(a cycle\)"),
        ("x: !!binary aGVsbG8=\n", r"h.yaml:1: a binary value \(tag tag:yaml.org,2002:binary\)"),
        ("x: !!set {a: null}\n", r"h.yaml:1: a set value"),
        ("ok: 1\nwhen: 2026-12-07\n", r"h.yaml:2: a timestamp value"),
        ("x: !custom 3\n", r"h.yaml:1: a !custom value"),
        ("1: a\n", r"h.yaml:1: key '1' is an integer: keys are strings \(quote it\)"),
        ("true: a\n", r"h.yaml:1: key 'true' is true or false"),
        ("? [a]\n: b\n", r"h.yaml:1: a key is a list or a mapping"),
        ("seed: " + "9" * 5000 + "\n", r"h.yaml:1: an integer of 5000 digits: at most 30 are read"),
    ],
)
def test_what_json_cannot_say_is_refused_with_its_line(text: str, expected: str) -> None:
    """Cycles, tagged values, non-string keys and huge integers: each a located InputError, never
    a loop, a traceback or a value an engine cannot read."""
    start = time.perf_counter()
    with pytest.raises(InputError, match=expected):
        load_yaml_text(text, "h.yaml")
    assert time.perf_counter() - start < 5


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    """A FIFO would hang the read and /dev/zero never end: refused before reading."""
    import os

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        load_yaml(fifo)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    with pytest.raises(InputError, match="not a regular file"):
        load_yaml(zero)
    folder = tmp_path / "dir.yaml"
    folder.mkdir()
    with pytest.raises(InputError, match="not a regular file"):
        load_yaml(folder)
