"""Shared helpers: explicit deals listing only the cards that matter, and the engine build the
tests run on (interpreted, or compiled with mypyc by `make test-compiled`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Final

import pytest

from gostop_conformance.reference import Action, Round, complete_deal, engine_build
from gostop_conformance.spec import Ruleset, load_ruleset

BUILD: Final = engine_build()
#: the semantic mutants replace engine functions at run time, which compiled code never looks up
needs_interpreted: Final = pytest.mark.skipif(
    BUILD == "compiled", reason="semantic mutants patch the interpreted engine; compiled code cannot be patched (make test runs these)"
)
needs_compiled: Final = pytest.mark.skipif(BUILD != "compiled", reason="a check of the mypyc build (make test-compiled runs it)")


def pytest_sessionstart(session: pytest.Session) -> None:
    """GOSTOP_EXPECT_BUILD (make test-compiled): a run meant for one build never passes on the other.
    The cache of derived dependencies (conformance/_derivecache.py) of the commands the tests run is
    a folder of the session's own, never the user's."""
    if "GOSTOP_CACHE_DIR" not in os.environ:
        import tempfile

        os.environ["GOSTOP_CACHE_DIR"] = tempfile.mkdtemp(prefix="gostop-test-cache-")
    expected = os.environ.get("GOSTOP_EXPECT_BUILD")
    if expected and expected != BUILD:
        raise pytest.UsageError(f"GOSTOP_EXPECT_BUILD={expected}, but the engine imported from {Round.__module__} is {BUILD}")


def ruleset(rid: str, **overrides: Any) -> Ruleset:
    return load_ruleset(rid).with_overrides(overrides, "test")


def start(
    rid: str,
    hands: Sequence[Sequence[str]],
    table: Sequence[str] = (),
    stock: Sequence[str] = (),
    captured: Sequence[Sequence[str]] | None = None,
    dealer: int = 0,
    **overrides: Any,
) -> Round:
    rs = ruleset(rid, **overrides)
    return Round(rs, complete_deal(rs.options, hands, table, stock, dealer=dealer, captured=captured))


def play(rnd: Round, card: str, take: str | None = None) -> list[Any]:
    return list(rnd.apply(Action("play", rnd.to_act, card=card, take=take)))


def kinds(events: Sequence[Any]) -> list[str]:
    return [e.kind for e in events]


@pytest.fixture
def helpers() -> Any:
    return type("H", (), {"start": staticmethod(start), "play": staticmethod(play), "kinds": staticmethod(kinds)})
