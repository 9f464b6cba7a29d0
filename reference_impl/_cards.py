"""The deck as the rules read it, by canonical index (spec/deck.yaml): each card's month, id and
class, the bonus cards last; a hand's months as bit sets; and the commonest events, built once."""

from __future__ import annotations

from typing import Final

from gostop_conformance.reference._events import Event
from gostop_conformance.spec import BONUS, EventKind, deck, memo, option_registry

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
#: clause tuples of the commonest events, built once
_PLAY_CLAUSES: Final = ("R-TURN", "R-MATCH")
_PLAY_POINT_COUNT: Final = ("R-TURN", "R-MATCH", "R-PC-PLAY")
MATCH: Final = ("R-MATCH",)

_ONE_ID: Final = tuple((cid,) for cid in CARD_ID)


def _card_events(kind: EventKind, clauses: tuple[str, ...]) -> tuple[tuple[Event, ...], ...]:
    """Per seat, per card: the event of `kind` naming that one card, with no data. Events are
    immutable values (their data the shared empty mapping), so the commonest are built once."""
    return tuple(tuple(Event(kind=kind, player=seat, cards=one, clauses=clauses) for one in _ONE_ID) for seat in SEATS)


#: R-TURN, R-MATCH (R-PC-PLAY): a hand card played; R-FLIP: a stock card turned up. Every turn makes one of each.
PLAY_EVENTS: Final = _card_events("play", _PLAY_CLAUSES)
PLAY_EVENTS_POINT_COUNT: Final = _card_events("play", _PLAY_POINT_COUNT)
FLIP_EVENTS: Final = _card_events("flip", ("R-FLIP",))

#: R-MATCH: a pair captured with no other clause (half of a round's captures), per seat and ordered
#: pair of cards, built the first time it is made
_PAIR_CAPTURES: Final[dict[int, Event]] = memo({})
_DECK_SIZE: Final = len(CARD_ID)


def pair_capture(actor: int, low: int, high: int) -> Event:
    """The event of `actor` capturing cards `low` < `high` under R-MATCH alone (an immutable value,
    shared as PLAY_EVENTS are)."""
    key = (actor * _DECK_SIZE + low) * _DECK_SIZE + high
    found = _PAIR_CAPTURES.get(key)
    if found is None:
        found = _PAIR_CAPTURES[key] = Event(kind="capture", player=actor, cards=(CARD_ID[low], CARD_ID[high]), clauses=MATCH)
    return found


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
