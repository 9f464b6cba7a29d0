"""Shared helpers: explicit deals listing only the cards that matter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from reference_impl import Action, Round, complete_deal, load_ruleset
from reference_impl._rulesets import Ruleset


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
