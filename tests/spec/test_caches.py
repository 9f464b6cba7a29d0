"""reset_caches() forgets every memoised value, the plain-dict caches of the hot paths included:
an edited ruleset is seen again by a long-lived process (`mkdocs serve`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gostop_conformance import harness, reference, spec  # their caches register on import
from gostop_conformance.spec import _caches, _rulesets, load_ruleset, reset_caches, ruleset_from_json


def _fill_caches() -> None:
    o = load_ruleset("matgo-online").options
    reference.seeded_deal(o, reference.SplitMix64(3), dealer=0)
    ruleset_from_json({"id": "matgo-2p", "options": {"go_threshold": 5}})


def test_reset_empties_every_registered_cache() -> None:
    _fill_caches()
    assert any(_caches.memos()), "nothing was cached: the test would pass without a reset"
    reset_caches()
    assert not any(_caches.memos())


def test_an_overridden_ruleset_is_built_again_after_a_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    first = ruleset_from_json({"id": "matgo-2p", "options": {"go_threshold": 5}})
    assert ruleset_from_json({"id": "matgo-2p", "options": {"go_threshold": 5}}) is first
    reset_caches()
    again = ruleset_from_json({"id": "matgo-2p", "options": {"go_threshold": 5}})
    assert again is not first and again.options == first.options


def _module_level_containers(path: Path, root: Path) -> list[str]:
    """Module-level `NAME: Final[dict[...] | list[...]] = {} / []`: a cache that is not registered."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Dict | ast.List) and not getattr(node.value, "keys", None):
            if isinstance(node.value, ast.List) and node.value.elts:
                continue
            assert isinstance(node.target, ast.Name)
            found.append(f"{path.relative_to(root).as_posix()}:{node.target.id}")
    return found


#: module-level empty containers that are not caches, each with the reason
NOT_CACHES = {
    "spec/_caches.py:_MEMOS": "the registry itself",
    "harness/_dependencies.py:_WORKER_CORPUS": "a worker process's corpus, filled once as the process starts",
    "harness/_jobs.py:_WORKER": "a worker process's engine, made once as the process starts",
}


def test_no_module_keeps_an_unregistered_empty_container() -> None:
    """An empty dict or list at module level is a cache by construction: it must go through memo()."""
    # the packages as installed (the compiled build's tests run outside the checkout)
    homes = [Path(pkg.__file__).parent for pkg in (spec, reference, harness)]
    found = [where for home in homes for f in sorted(home.glob("*.py")) for where in _module_level_containers(f, home.parent)]
    assert sum(len(list(home.glob("*.py"))) for home in homes) > 30
    assert sorted(w for w in found if w not in NOT_CACHES) == []
    assert sorted(NOT_CACHES) == sorted(w for w in found if w in NOT_CACHES), "an exemption names nothing"


def test_the_checker_sees_an_unregistered_cache(tmp_path: Path) -> None:
    bad = tmp_path / "_probe.py"
    bad.write_text("from typing import Final\n_SEEN: Final[dict[str, int]] = {}\n_NOT: Final = memo({})\n", encoding="utf-8")
    assert _module_level_containers(bad, tmp_path) == ["_probe.py:_SEEN"]
    assert _rulesets._OVERRIDDEN in _caches.memos()
