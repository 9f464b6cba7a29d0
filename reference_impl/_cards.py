"""The deck as the rules read it, by canonical index (spec/deck.yaml): each card's month, id and
class, the bonus cards last; card ids as events name them; a hand's months as bit sets."""

from __future__ import annotations

from typing import Final

from gostop_conformance.spec import BONUS, deck, option_registry

CARDS: Final = deck().cards
MONTH: Final = tuple(c.month for c in CARDS)
IS_BONUS: Final = tuple(c.kind == BONUS for c in CARDS)
#: the extra (bonus) cards come last in the canonical order (spec/deck.yaml): a card is a bonus card
#: when its index is FIRST_BONUS or more, a comparison where IS_BONUS[c] is a lookup in a tuple
FIRST_BONUS: Final = IS_BONUS.index(True)
if tuple(c >= FIRST_BONUS for c in range(len(IS_BONUS))) != IS_BONUS:
    raise RuntimeError("spec/deck.yaml: the bonus cards must come last in the canonical order")


def _classes() -> tuple[int, ...]:
    """Per card, its class (kind, units and roles) as the index of the first card of that class:
    equal numbers, equivalent cards (compared natively, where the triples compare field by field)."""
    first: dict[tuple[str, int, frozenset[str]], int] = {}
    return tuple([first.setdefault((c.kind, c.units, c.roles), c.index) for c in CARDS])


_CLASS: Final = _classes()
CARD_ID: Final = tuple(c.id for c in CARDS)
INDEX_OF: Final = {c.id: c.index for c in CARDS}


def _most_players() -> int:
    # through a function: mypyc cannot type a module-level call into the spec's lazy API
    return option_registry()["players"].maximum or 4


SEATS: Final = range(_most_players())
_ONE_ID: Final = tuple((cid,) for cid in CARD_ID)


def ids_of(cards: list[int] | tuple[int, ...]) -> tuple[str, ...]:
    if len(cards) == 1:  # most events carry one card: its id tuple is built once
        return _ONE_ID[cards[0]]
    # narrowed to one type per branch: over the union, compiled code indexes and iterates
    # through the generic object protocol; two cards (a capture's pair) without a list between
    if isinstance(cards, list):
        if len(cards) == 2:
            return (CARD_ID[cards[0]], CARD_ID[cards[1]])
        return tuple([CARD_ID[c] for c in cards])
    if len(cards) == 2:
        return (CARD_ID[cards[0]], CARD_ID[cards[1]])
    return tuple([CARD_ID[c] for c in cards])


def month_sets(hand: list[int]) -> tuple[int, int, int, int]:
    """The months of `hand` as bit sets (1 << month) of those held at least twice, three times and
    four times, and the number of bonus cards: one native pass where a counts list is a list to
    build and read (R-SHAKE, R-BOMB and R-CHONGTONG look at these first)."""
    once = twice = thrice = four = bonus = 0
    for c in hand:
        if c >= FIRST_BONUS:
            bonus += 1
            continue
        bit = 1 << MONTH[c]
        if thrice & bit:
            four |= bit
        elif twice & bit:
            thrice |= bit
        elif once & bit:
            twice |= bit
        else:
            once |= bit
    return twice, thrice, four, bonus


def equivalent(a: int, b: int) -> bool:
    """R-TWO-MATCH-CHOICE: same kind, units and roles; the choice between them is not asked."""
    return _CLASS[a] == _CLASS[b]
