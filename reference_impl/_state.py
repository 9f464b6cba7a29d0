"""The state of one round and what every rule reads from it: the fields, the copy, the events
buffer, scores as Go/Stop sees them, the round end, the snapshot and what the next round inherits
(R-ROUND-END, R-NEXT-DEALER). The rules that change the state live in the layers above:
`_dealtime` (deal-time rules), `_legal` (legal actions and the checks of an action),
`_steals` (steals), `_turns` (turn resolution) and `_round` (the public `Round`).
"""

from __future__ import annotations

from typing import Any, Final

from gostop_conformance.reference._deal import Deal, DealtCards, PlayerState, check_deal, deck_mask
from gostop_conformance.reference._events import NO_DATA, Event
from gostop_conformance.reference._scoring import Breakdown, best_breakdown, tally_best_base
from gostop_conformance.reference._seat import SeatState
from gostop_conformance.reference._settlement import Seat, Settlement, with_side_payments
from gostop_conformance.spec import BONUS, Decision, EventKind, Options, Ruleset, deck, memo, option_registry

# the decisions a round waits for (spec/vocabulary.yaml decisions; R-TURN, R-TWO-MATCH-CHOICE, R-GO-WHEN)
TURN: Final[Decision] = "turn"
CHOOSE_HAND: Final[Decision] = "choose_hand_match"
CHOOSE_FLIP: Final[Decision] = "choose_flip_match"
GO_STOP: Final[Decision] = "go_stop"
NONE: Final[Decision] = "none"

_CARDS = deck().cards
MONTH: Final = tuple(c.month for c in _CARDS)
IS_BONUS: Final = tuple(c.kind == BONUS for c in _CARDS)
#: the extra (bonus) cards come last in the canonical order (spec/deck.yaml): a card is a bonus card
#: when its index is FIRST_BONUS or more, a comparison where IS_BONUS[c] is a lookup in a tuple
FIRST_BONUS: Final = IS_BONUS.index(True)
if tuple(c >= FIRST_BONUS for c in range(len(IS_BONUS))) != IS_BONUS:
    raise RuntimeError("spec/deck.yaml: the bonus cards must come last in the canonical order")


def _classes() -> tuple[int, ...]:
    """Per card, its class (kind, units and roles) as the index of the first card of that class:
    equal numbers, equivalent cards (compared natively, where the triples compare field by field)."""
    first: dict[tuple[str, int, frozenset[str]], int] = {}
    return tuple([first.setdefault((c.kind, c.units, c.roles), c.index) for c in _CARDS])


_CLASS: Final = _classes()
CARD_ID: Final = tuple(c.id for c in _CARDS)
INDEX_OF: Final = {c.id: c.index for c in _CARDS}

_SEATS: Final = range(option_registry()["players"].maximum or 4)
#: per table size, per seat: the other seats in turn order (R-TURN-ORDER)
_OPPONENTS: Final = {n: tuple(tuple((seat + k) % n for k in range(1, n)) for seat in range(n)) for n in range(2, len(_SEATS) + 1)}
#: clause tuples of the commonest events, built once
_PLAY_CLAUSES: Final = ("R-TURN", "R-MATCH")
_PLAY_POINT_COUNT: Final = ("R-TURN", "R-MATCH", "R-PC-PLAY")
_MATCH: Final = ("R-MATCH",)

_FRESH: Final = PlayerState()
_NO_FOURS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {n: ((),) * n for n in _OPPONENTS}
_ONE_ID: Final = tuple((cid,) for cid in CARD_ID)


def _card_events(kind: EventKind, clauses: tuple[str, ...]) -> tuple[tuple[Event, ...], ...]:
    """Per seat, per card: the event of `kind` naming that one card, with no data. Events are
    immutable values (their data the shared empty mapping), so the commonest are built once."""
    return tuple(tuple(Event(kind=kind, player=seat, cards=one, clauses=clauses) for one in _ONE_ID) for seat in _SEATS)


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
        found = _PAIR_CAPTURES[key] = Event(kind="capture", player=actor, cards=(CARD_ID[low], CARD_ID[high]), clauses=_MATCH)
    return found


def _ids(cards: list[int] | tuple[int, ...]) -> tuple[str, ...]:
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


class _Turn:
    """Work in progress of one turn (a turn may pause for a choose_* decision). A plain class with
    its lists made in __init__: a dataclass's default factories cost a call each, every turn. What
    most turns leave empty (the table cards paired, flipped bonus cards, extra clauses) are tuples,
    empty without an allocation."""

    __slots__ = (
        "actor",
        "actor_last",
        "captures",
        "flip",
        "flip_bonus",
        "flip_take",
        "hand",
        "hand_take",
        "made_ppeok",
        "made_ttadak",
        "mode",
        "month",
        "pair",
        "round_last",
        "trace",
    )

    def __init__(self, actor: int, mode: str, month: int = 0, hand: int | None = None, pair: tuple[int, ...] = ()) -> None:
        self.actor = actor
        self.mode = mode  # discard | pair | pair2 | stack | bomb | skip
        self.month = month
        self.hand = hand
        self.pair = pair  # the table cards of the hand card's month, in index order
        self.hand_take: int | None = None
        self.flip: int | None = None
        self.flip_take: int | None = None
        self.flip_bonus: tuple[int, ...] = ()
        self.captures: list[int] = []
        self.round_last = False
        self.actor_last = False
        self.made_ppeok = False
        self.made_ttadak = False
        self.trace: tuple[str, ...] = ()  # extra clauses for the turn's capture event

    def copy(self) -> _Turn:
        new = _Turn(self.actor, self.mode, self.month, self.hand, self.pair)
        new.hand_take, new.flip, new.flip_take = self.hand_take, self.flip, self.flip_take
        new.flip_bonus, new.captures, new.trace = self.flip_bonus, self.captures[:], self.trace
        new.round_last, new.actor_last = self.round_last, self.actor_last
        new.made_ppeok, new.made_ttadak = self.made_ppeok, self.made_ttadak
        return new


class RoundState:
    """The fields of a round and the queries every rule layer shares."""

    def __init__(self, ruleset: Ruleset, deal: Deal | DealtCards, *, check: bool = True) -> None:
        """The state dealt from `deal`, checked against the ruleset unless `check` is false; the
        deal-time rules are applied above (`Round.__init__`). A deal as indices (`deal_cards`) is a
        fresh seeded deal: made by the engine, it needs no check."""
        o = ruleset.options
        self.ruleset = ruleset
        self.o: Options = o
        self.n = deal.players
        self.dealer = deal.dealer
        self.table: list[list[int]] = [[] for _ in range(13)]
        self.stack_owner: dict[int, int | None] = {}
        self.stack_bonus: dict[int, list[int]] = {}
        if isinstance(deal, Deal):
            if check:
                check_deal(deal, o)
            index = INDEX_OF
            self.stock: list[int] = [index[c] for c in reversed(deal.stock)]
            caps = deal.captured or tuple(() for _ in range(self.n))
            states = deal.player_state or tuple(_FRESH for _ in range(self.n))
            self.seats: list[SeatState] = [
                SeatState(
                    sorted([index[c] for c in h]),
                    sorted([index[c] for c in pile]),
                    p,
                    [self._shake_factor(m, 3) for m in p.shaken_months],
                )
                for h, pile, p in zip(deal.hands, caps, states, strict=True)
            ]
            self.nagari_streak = deal.nagari_streak
            self.carried_multiplier = deal.carried_multiplier
            self.turn_no = deal.turn
            first = deal.first_player
        else:
            self.stock = list(deal.stock[::-1])
            self.seats = [SeatState(list(h), [], _FRESH, []) for h in deal.hands]
            self.nagari_streak = 0
            self.carried_multiplier = 1
            self.turn_no = 0
            first = None
        # R-CHONGTONG: only a four of the dealt hand can be declared; a four completed later in play
        # (R-FOUR-IN-HAND-LATER, through bonus replacement draws) never is. Only instant_win_or_continue
        # declares during play: no other ruleset pays for the months counted here.
        self.dealt_fours: tuple[tuple[int, ...], ...] = _NO_FOURS[self.n]
        if o.hand_chongtong == "instant_win_or_continue":
            self.dealt_fours = tuple(
                tuple(m for m in range(1, 13) if counts[m] == 4) for counts in (self._month_counts(seat) for seat in range(self.n))
            )
        self.deck_mask = deck_mask(o)
        self.opponents = _OPPONENTS[self.n]
        self.settlement: Settlement | None = None
        self.decision: Decision = TURN
        self.ctx: _Turn | None = None
        self.turn_bonus: list[int] = []
        self.forced_card: int | None = None  # bonus_replacement_use = must_play_replacement
        self.side_payments: list[tuple[int, int, int]] = []  # (payer, payee, points), R-FIRST-TURN-AWARD
        self.pending_steals: list[tuple[str, int, tuple[int, ...]]] = []
        self.table_at_start: list[int] = []
        self.last_actor = deal.dealer
        self._out: list[Event] = []
        if first is None:  # R-TURN-ORDER
            first = self.dealer if o.first_player == "dealer" else (self.dealer + 1) % self.n
        self.to_act = first
        self.deal_events: tuple[Event, ...] = ()

    def _copy(self, other: RoundState) -> None:
        """Every field of `other`, the mutable ones copied (Round.clone: a copy constructor
        rather than copying __dict__, which a class compiled with mypyc has not)."""
        self.ruleset, self.o, self.n, self.dealer = other.ruleset, other.o, other.n, other.dealer
        self.table = [m[:] for m in other.table]
        self.stack_owner = dict(other.stack_owner)
        self.stack_bonus = {k: v[:] for k, v in other.stack_bonus.items()}
        self.stock = other.stock[:]
        self.seats = [p.copy() for p in other.seats]
        self.dealt_fours = other.dealt_fours
        self.deck_mask, self.nagari_streak, self.carried_multiplier = other.deck_mask, other.nagari_streak, other.carried_multiplier
        self.turn_no = other.turn_no
        self.opponents = other.opponents
        self.settlement, self.decision = other.settlement, other.decision
        self.ctx = None if other.ctx is None else other.ctx.copy()
        self.turn_bonus, self.forced_card = other.turn_bonus[:], other.forced_card
        self.side_payments, self.pending_steals = other.side_payments[:], other.pending_steals[:]
        self.table_at_start, self.last_actor, self.to_act = other.table_at_start[:], other.last_actor, other.to_act
        self._out = []
        self.deal_events = other.deal_events

    def _emit(
        self,
        kind: EventKind,
        player: int | None,
        cards: list[int] | tuple[int, ...],
        clauses: tuple[str, ...],
        data: dict[str, Any] | None = None,
    ) -> None:
        # the data as a dict argument, not **data: a compiled call with keywords goes through the
        # generic Python calling convention (about 1,300 instructions an event)
        self._out.append(Event(kind=kind, player=player, cards=_ids(cards), clauses=clauses, data=NO_DATA if data is None else data))

    def _flush(self) -> list[Event]:
        out, self._out = self._out, []
        return out

    @property
    def over(self) -> bool:
        return self.decision == NONE

    def _end(self, settlement: Settlement) -> None:
        if self.side_payments:
            settlement = with_side_payments(settlement, self.side_payments)
        self.settlement = settlement
        self.decision = NONE
        if settlement.kind == "redeal":
            self._emit("redeal", self.dealer, (), settlement.clauses, {"dealer": self.dealer})
        self._emit(
            "round_end",
            settlement.winner,
            (),
            ("R-ROUND-END", *settlement.clauses[:1]),
            {"outcome": settlement.kind, "net": list(settlement.net)},
        )

    def _others(self, seat: int) -> tuple[int, ...]:
        """The other seats in turn order from `seat` (built once per table size)."""
        return self.opponents[seat]

    def score(self, seat: int) -> Breakdown:
        """A player's current base score (R-SCORE-SUM; dual cards allocated per R-DUAL-ROLE (1))."""
        p = self.seats[seat]
        return best_breakdown(p.captured, self.o, p.dual_junk)

    def _has_turn(self, seat: int) -> bool:
        p = self.seats[seat]
        return bool(p.hand) or p.skip_credits > 0

    def _base(self, seat: int) -> int:
        """The seat's base score as Go/Stop sees it (R-DUAL-ROLE (1)), from its tally."""
        p = self.seats[seat]
        return tally_best_base(p.tally, self.o, p.dual_junk)

    def _gain(self, seat: int, cards: list[int]) -> None:
        """Cards join a captured pile (in the order captured: sorted only where it is shown, as
        scoring and settlement read the tally) and its tally."""
        p = self.seats[seat]
        p.captured.extend(cards)
        p.tally.add_all(cards)

    def _lose(self, seat: int, card: int) -> None:
        """A card leaves a captured pile (a steal, or a bonus card joining a ppeok stack)."""
        p = self.seats[seat]
        p.captured.remove(card)
        p.tally.remove(card)

    def _month_counts(self, seat: int) -> list[int]:
        """How many cards of each month (index 1-12; 0: bonus cards) the seat holds."""
        counts = [0] * 13
        for c in self.seats[seat].hand:
            counts[MONTH[c]] += 1
        return counts

    def _go_eligible(self, seat: int, base: int) -> bool:
        """R-GO-THRESHOLD, R-GO-RISE, for `base` = self._base(seat)."""
        if base < self.o.go_threshold:
            return False
        p = self.seats[seat]
        return p.gos == 0 or base > p.go_base

    def _go_forced_stop(self, seat: int) -> bool:
        """R-GO-LAST: an eligible actor with no later turn must stop (forced_stop)."""
        return self.o.go_on_last_turn == "forced_stop" and (not self._has_turn(seat) or not self.stock)

    def _shake_factor(self, month: int, shown: int) -> int:
        """R-SHAKE-BOMB-MULT, R-FOUR-IN-HAND-LATER: x2, or x4 for listed months and four-card shakes."""
        o = self.o
        if month in o.shake_x4_months or (shown == 4 and o.four_in_hand_later == "four_card_shake_x4"):
            return 4
        return 2

    def _seats(self) -> list[Seat]:
        return [p.frozen() for p in self.seats]

    def next_round(self) -> dict[str, Any]:
        """What this finished round hands to the next one (R-NEXT-DEALER, R-NAGARI-CARRY,
        R-REDEAL, R-MATCH-ROUNDS): its dealer, the void-round streak and carried multiplier, and
        whether this round counts toward match_rounds."""
        s = self.settlement
        assert s is not None, "the round is not over"
        o = self.o
        if s.kind == "redeal":
            return {
                "dealer": self.dealer,
                "nagari_streak": self.nagari_streak,
                "carried_multiplier": self.carried_multiplier,
                "counts_as_round": False,
            }
        if s.kind == "nagari":
            carried = self.carried_multiplier * s.void_multiplier
            return {
                "dealer": self.dealer,
                "nagari_streak": self.nagari_streak + 1,
                "carried_multiplier": carried,
                "counts_as_round": o.nagari_counts_as_round,
            }
        winner = s.winner
        if winner is None:  # point-count: the best balance deals; ties: first in turn order from the dealer
            best = max(s.net)
            winner = next(seat for seat in ((self.dealer + k) % self.n for k in range(self.n)) if s.net[seat] == best)
        return {"dealer": winner, "nagari_streak": 0, "carried_multiplier": 1, "counts_as_round": True}

    def _in_play(self) -> list[int]:
        """Cards held by a turn paused at a choose_* decision: played or flipped, not yet placed."""
        ctx = self.ctx
        if ctx is None:
            return []
        cards = [*ctx.captures, *ctx.flip_bonus]
        if ctx.hand is not None and ctx.mode in ("pair", "pair2"):
            cards.append(ctx.hand)
        if ctx.flip is not None:
            cards.append(ctx.flip)
        return sorted(cards)

    def snapshot(self) -> dict[str, Any]:
        """The full observable state, JSON-ready (card lists sorted by canonical index)."""
        stacks = [
            {"month": m, "owner": owner, "cards": list(_ids(sorted(self.table[m]))), "bonus": list(_ids(self.stack_bonus.get(m, [])))}
            for m, owner in sorted(self.stack_owner.items())
        ]
        return {
            "decision": self.decision,
            "in_play": list(_ids(self._in_play())),
            "to_act": None if self.decision == NONE else self.to_act,
            "turn": self.turn_no,
            "dealer": self.dealer,
            "hands": [list(_ids(p.hand)) for p in self.seats],
            "table": list(_ids(sorted(c for month in self.table for c in month))),
            "stacks": stacks,
            "stock": list(_ids(list(reversed(self.stock)))),
            "captured": [list(_ids(sorted(p.captured))) for p in self.seats],
            "players": [p.to_json() for p in self.seats],
            "nagari_streak": self.nagari_streak,
            "awards": [list(p) for p in self.side_payments],
        }
