"""The card table an adapter maps its engine's cards onto (R-CARD-IDS, R-BONUS-DECK), read from
spec/deck.yaml through `gostop_conformance.spec`: ids, months, kinds, junk units, roles, and which
cards are equivalent. Nothing here is a rule of play."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Final

from gostop_conformance import spec
from gostop_conformance.spec import counted

#: the month of a bonus card, which matches nothing (R-BONUS-DECK)
NO_MONTH: Final = spec.NO_MONTH


def card(card_id: str) -> spec.Card:
    """The card of spec/deck.yaml with this id (KeyError names an unknown id)."""
    found = spec.deck().by_id.get(card_id)
    if found is None:
        raise KeyError(f"{card_id!r} is not a card id of spec/deck.yaml")
    return found


def is_card(card_id: object) -> bool:
    """Whether the value is a card id of spec/deck.yaml (any deck, bonus cards included)."""
    return isinstance(card_id, str) and card_id in spec.deck().by_id


def month(card_id: str) -> int:
    """The card's month, 1 to 12; 0 for a bonus card."""
    return card(card_id).month


def units(card_id: str) -> int:
    """The junk units the card counts for (R-SCORE-JUNK): 1 a junk, 2 a double junk or a 2-unit
    bonus card, 3 the 3-unit bonus card, 0 a bright, animal or ribbon (a dual-role card counted as
    junk counts 2: R-DUAL-ROLE, which the scoring decides, not the card)."""
    return card(card_id).units


def kind(card_id: str) -> str:
    """bright, animal, ribbon, double-junk, junk or bonus."""
    return card(card_id).kind


def is_bonus(card_id: str) -> bool:
    return card(card_id).kind == spec.BONUS


@cache
def deck_ids(bonus_cards: tuple[int, ...] = ()) -> tuple[str, ...]:
    """The ids of a ruleset's deck in the deck's order: the 48 month cards, then one extra card per
    entry of `bonus_cards` (the option's unit values), the n-th entry of a unit value taking the
    n-th extra card of those units in index order (R-BONUS-DECK). ValueError when the deck has too
    few extra cards of a unit value."""
    cards = spec.deck().cards
    ids = [c.id for c in cards if c.kind != spec.BONUS]
    extras = [c for c in cards if c.kind == spec.BONUS]
    used: set[str] = set()
    for value in bonus_cards:
        pick = next((c for c in extras if c.units == value and c.id not in used), None)
        if pick is None:
            raise ValueError(f"bonus_cards {list(bonus_cards)}: the deck has no further bonus card of {counted(value, 'unit')}")
        used.add(pick.id)
        ids.append(pick.id)
    return tuple(ids)


def equivalent(a: str, b: str) -> bool:
    """Whether two cards are interchangeable (R-CARD-IDS): the same month, kind, units and roles,
    such as the two single junk of a month or two 2-unit bonus cards. Playing either is one choice,
    and the harness compares them as one unless a scenario asks for exact ids."""
    x, y = card(a), card(b)
    return (x.month, x.kind, x.units, x.roles, x.ribbon_class) == (y.month, y.kind, y.units, y.roles, y.ribbon_class)


def of_month(cards: Iterable[str], month_: int) -> list[str]:
    """The cards of a month among `cards`, in their order (bonus cards have none)."""
    return [c for c in cards if month_ != NO_MONTH and card(c).month == month_]


def sort_ids(cards: Iterable[str]) -> list[str]:
    """Card ids in the deck's order (a stable presentation; the protocol compares lists as multisets)."""
    return sorted(cards, key=lambda c: card(c).index)


def junk_units(cards: Sequence[str]) -> int:
    """The junk units of a pile's junk and bonus cards, each card by its own units."""
    return sum(card(c).units for c in cards)
