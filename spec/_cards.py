"""Cards, derived from spec/deck.yaml (R-DECK, R-CARD-IDS, R-BONUS-DECK).

Internally a card is its canonical index (an int); `Card` is the frozen value object with
everything the rules need to know about it. Tie-breaks everywhere use the canonical index.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from gostop_conformance.spec._caches import memo
from gostop_conformance.spec._schemas import load_spec_file
from gostop_conformance.spec._yamlio import InputError

BRIGHT: Final = "bright"
ANIMAL: Final = "animal"
RIBBON: Final = "ribbon"
JUNK: Final = "junk"
DOUBLE_JUNK: Final = "double-junk"
BONUS: Final = "bonus"

#: month 0 marks the extra (bonus) cards, which have no month.
NO_MONTH: Final = 0


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    index: int
    month: int
    kind: str
    units: int
    ribbon_class: str | None
    roles: frozenset[str]
    picture: str

    @property
    def is_bonus(self) -> bool:
        return self.kind == BONUS

    @property
    def is_junk(self) -> bool:
        """Junk class: single, double or bonus junk (not the dual-role animals)."""
        return self.kind in (JUNK, DOUBLE_JUNK, BONUS)


@dataclass(frozen=True, slots=True)
class Deck:
    cards: tuple[Card, ...]
    by_id: dict[str, Card]
    month_names: dict[int, str]

    def card(self, card_id: str) -> Card:
        try:
            return self.by_id[card_id]
        except KeyError:
            raise KeyError(card_id) from None

    def ids(self, indices: Iterable[int]) -> list[str]:
        cards = self.cards
        return [cards[i].id for i in indices]

    def label(self, index: int) -> str:
        return self.cards[index].id


def deck() -> Deck:
    """The deck of spec/deck.yaml, loaded once (R-CARD-IDS)."""
    if not _DECK:
        _DECK.append(_load_deck())
    return _DECK[0]


#: deck()'s one value: a plain function over a list rather than functools.cache, whose decorated
#: type mypyc cannot determine where a compiled module reads `deck()` at import time (make compiled)
_DECK: Final[list[Deck]] = memo([])


def _load_deck() -> Deck:
    located = load_spec_file("deck.yaml", "deck")
    raw = located.data
    cards: list[Card] = []
    for i, item in enumerate(list(raw["cards"]) + list(raw["extra_cards"])):
        if item["index"] != i:
            raise InputError(located.where(["cards", i, "index"]), f"expected canonical index {i}, got {item['index']}")
        cards.append(
            Card(
                id=item["id"],
                index=i,
                month=int(item.get("month", NO_MONTH)),
                kind=item["kind"],
                units=int(item["units"]),
                ribbon_class=item.get("ribbon_class"),
                roles=frozenset(item.get("roles", ())),
                picture=item["picture"],
            )
        )
    by_id = {c.id: c for c in cards}
    if len(by_id) != len(cards):
        raise InputError(located.where(["cards"]), "card ids must be unique")
    names = {int(m["month"]): str(m["name"]) for m in raw["months"]}
    return Deck(tuple(cards), by_id, names)


def card_ids_with_role(role: str) -> frozenset[str]:
    return frozenset(c.id for c in deck().cards if role in c.roles)
