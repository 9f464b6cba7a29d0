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
