"""A captured pile tallied card by card (R-SCORE-SUM): what scoring reads of it, kept as cards come
and go so that the hot path never rescans a pile."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from gostop_conformance.spec import ANIMAL, BRIGHT, RIBBON, deck

#: bit sets over the canonical card index: a set's cards are tested for in a pile at once
BIT: Final = tuple(1 << c.index for c in deck().cards)
BRIGHT_KIND: Final = 0
ANIMAL_KIND: Final = 1
RIBBON_KIND: Final = 2
JUNK_KIND: Final = 3
#: per card index: its scoring category (the junk class: junk, double junk, bonus) and units
KIND: Final = tuple({BRIGHT: BRIGHT_KIND, ANIMAL: ANIMAL_KIND, RIBBON: RIBBON_KIND}.get(c.kind, JUNK_KIND) for c in deck().cards)
UNITS: Final = tuple(c.units if KIND[c.index] == JUNK_KIND else 0 for c in deck().cards)


class Tally:
    """What scoring needs to know of a captured pile, kept card by card so that the hot path never
    rescans a pile (R-SCORE-SUM): the pile as a bit set over the canonical index, and its cards
    by category, the dual-role cards (animals, R-DUAL-ROLE) counted as animals."""

    __slots__ = ("animals", "brights", "held", "junk_cards", "ribbons", "units")

    def __init__(self, cards: Iterable[int] = ()) -> None:
        self.held = 0
        self.brights = 0
        self.animals = 0
        self.ribbons = 0
        self.units = 0
        self.junk_cards = 0
        self.add_all(cards if isinstance(cards, list) else list(cards))

    def add_all(self, cards: list[int]) -> None:
        # a list, not any iterable: compiled, a loop over a list indexes it natively
        for c in cards:
            self.held |= BIT[c]
            kind = KIND[c]
            if kind == JUNK_KIND:
                self.units += UNITS[c]
                self.junk_cards += 1
            elif kind == ANIMAL_KIND:
                self.animals += 1
            elif kind == RIBBON_KIND:
                self.ribbons += 1
            else:
                self.brights += 1

    def remove(self, c: int) -> None:
        self.held &= ~BIT[c]
        kind = KIND[c]
        if kind == JUNK_KIND:
            self.units -= UNITS[c]
            self.junk_cards -= 1
        elif kind == ANIMAL_KIND:
            self.animals -= 1
        elif kind == RIBBON_KIND:
            self.ribbons -= 1
        else:
            self.brights -= 1

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tally):
            return NotImplemented
        return (self.held, self.brights, self.animals, self.ribbons, self.units, self.junk_cards) == (
            other.held,
            other.brights,
            other.animals,
            other.ribbons,
            other.units,
            other.junk_cards,
        )

    __hash__ = None  # type: ignore[assignment]  # a tally changes as its pile does

    def copy(self) -> Tally:
        new = Tally()
        new.held, new.brights, new.animals, new.ribbons = self.held, self.brights, self.animals, self.ribbons
        new.units, new.junk_cards = self.units, self.junk_cards
        return new
