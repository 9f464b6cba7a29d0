"""The cache of derived option dependencies (conformance/_derivecache.py): what it holds is used
only for the same scenario, spec and code, and a cache that cannot be read is derived again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness import _derivecache as derivecache
from gostop_conformance.harness import default_root, load_corpus

CORPUS = [sc for sc in load_corpus(default_root()) if sc.area == "capture"][:6]


@pytest.fixture
def derived(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids derived (not taken from the cache), in order."""
    seen: list[str] = []
    original = dependencies.derive

    def derive(sc: dependencies.Scenario, trace: bool | None = None) -> dependencies.Dependencies:
        seen.append(sc.id)
        return original(sc, trace)

    monkeypatch.setattr(dependencies, "derive", derive)
    return seen


def test_a_second_derivation_of_the_same_corpus_takes_everything_from_the_cache(tmp_path: Path, derived: list[str]) -> None:
    first = dependencies.derive_all(CORPUS, default_root(), 1, tmp_path)
    assert derived == [sc.id for sc in CORPUS]
    derived.clear()
    again = dependencies.derive_all(CORPUS, default_root(), 1, tmp_path)
    assert derived == [] and again == first
    assert first == dependencies.derive_all(CORPUS, default_root(), 1)  # what no cache derives


def test_a_changed_scenario_is_derived_again(tmp_path: Path, derived: list[str]) -> None:
    dependencies.derive_all(CORPUS, default_root(), 1, tmp_path)
    derived.clear()
    changed = replace(
        CORPUS[0], options={**CORPUS[0].options, "jjok_steal": 2}, resolved_options={**CORPUS[0].resolved_options, "jjok_steal": 2}
    )
    dependencies.derive_all([changed, *CORPUS[1:]], default_root(), 1, tmp_path)
    assert derived == [changed.id]


def test_another_state_of_the_spec_or_code_does_not_read_this_cache(
    tmp_path: Path, derived: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dependencies.derive_all(CORPUS, default_root(), 1, tmp_path)
    derived.clear()
    monkeypatch.setattr(derivecache, "context", lambda: "another-state")
    dependencies.derive_all(CORPUS, default_root(), 1, tmp_path)
    assert derived == [sc.id for sc in CORPUS]


@pytest.mark.parametrize("damage", ["scenarios: [", "scenarios:\n  x: {digest: 1, depends: {nope: [1]}}\n", "\x00\x01"])
def test_a_damaged_cache_is_derived_again_never_trusted(tmp_path: Path, derived: list[str], damage: str) -> None:
    first = dependencies.derive_all(CORPUS, default_root(), 1, tmp_path)
    derivecache.path_in(tmp_path).write_text(damage, encoding="utf-8")
    derived.clear()
    assert dependencies.derive_all(CORPUS, default_root(), 1, tmp_path) == first
    assert derived == [sc.id for sc in CORPUS]


def test_an_unwritable_cache_is_no_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    assert dependencies.derive_all(CORPUS[:2], default_root(), 1, blocked / "cache")


def test_the_cache_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GOSTOP_CACHE_DIR", str(tmp_path / "c"))
    assert derivecache.default_dir() == tmp_path / "c"
    monkeypatch.delenv("GOSTOP_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert derivecache.default_dir() == tmp_path / "x" / "gostop-conformance"
