"""The state of one round and what every rule reads from it: the fields (`RoundState`), the state
dealt from a deal, its copy, the events buffer, scores as Go/Stop sees them, the round end and what
the next round inherits (R-ROUND-END, R-NEXT-DEALER). The rules are modules of functions over a
state: `_dealtime` (deal-time rules), `_legal` (legal actions and the checks of an action),
`_actions` (applying an action), `_turns` (a turn's resolution) and `_steals` (steals); `_round`'s
`Round` is their public face.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from gostop_conformance.reference._cards import INDEX_OF, MONTH, SEATS, ids_of
from gostop_conformance.reference._deal import Deal, DealtCards, PlayerState, check_deal, deck_mask
from gostop_conformance.reference._events import NO_DATA, Event
from gostop_conformance.reference._scoring import Breakdown, best_breakdown, tally_best_base
from gostop_conformance.reference._seat import SeatState
from gostop_conformance.reference._settlement import Seat, Settlement, with_side_payments
from gostop_conformance.spec import Decision, EventKind, Options, Ruleset

# the decisions a round waits for (spec/vocabulary.yaml decisions; R-TURN, R-TWO-MATCH-CHOICE, R-GO-WHEN)
TURN: Final[Decision] = "turn"
CHOOSE_HAND: Final[Decision] = "choose_hand_match"
CHOOSE_FLIP: Final[Decision] = "choose_flip_match"
GO_STOP: Final[Decision] = "go_stop"
NONE: Final[Decision] = "none"

#: per table size, per seat: the other seats in turn order (R-TURN-ORDER)
_OPPONENTS: Final = {n: tuple(tuple((seat + k) % n for k in range(1, n)) for seat in range(n)) for n in range(2, len(SEATS) + 1)}
_FRESH: Final = PlayerState()
_NO_FOURS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {n: ((),) * n for n in _OPPONENTS}


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


@dataclass(eq=False)
class RoundState:
    """The fields of a round: built by keyword (`dealt`, `copy`), changed by the rule modules."""

    ruleset: Ruleset
    o: Options
    n: int
    dealer: int
    #: per month (index 1-12), the table cards of that month
    table: list[list[int]]
    #: per stacked month: its owner, None for a table triple (R-PPEOK, R-TABLE-TRIPLE)
    stack_owner: dict[int, int | None]
    stack_bonus: dict[int, list[int]]
    #: the top card last
    stock: list[int]
    seats: list[SeatState]
    nagari_streak: int
    carried_multiplier: int
    turn_no: int
    #: per seat, the months of its dealt four (R-CHONGTONG under instant_win_or_continue)
    dealt_fours: tuple[tuple[int, ...], ...]
    deck_mask: int
    #: per seat, the other seats in turn order
    opponents: tuple[tuple[int, ...], ...]
    settlement: Settlement | None
    decision: Decision
    #: the turn paused at a choose_* decision
    ctx: _Turn | None
    #: the bonus cards played from the hand this turn (R-BONUS-PPEOK)
    turn_bonus: list[int]
    #: bonus_replacement_use = must_play_replacement: the card this turn's hand action must play
    forced_card: int | None
    #: (payer, payee, points), R-FIRST-TURN-AWARD
    side_payments: list[tuple[int, int, int]]
    #: the steal requests of this turn: (kind, units, payers)
    pending_steals: list[tuple[str, int, tuple[int, ...]]]
    #: the table at the start of the turn, under the sweep definition that looks back (R-SWEEP)
    table_at_start: list[int]
    last_actor: int
    to_act: int
    #: the events of the action being applied (`flush`)
    events: list[Event]
    deal_events: tuple[Event, ...]

    def copy(self) -> RoundState:
        """An independent copy: every mutable field copied, the values shared."""
        return RoundState(
            ruleset=self.ruleset,
            o=self.o,
            n=self.n,
            dealer=self.dealer,
            table=[m[:] for m in self.table],
            stack_owner=dict(self.stack_owner),
            stack_bonus={k: v[:] for k, v in self.stack_bonus.items()},
            stock=self.stock[:],
            seats=[p.copy() for p in self.seats],
            nagari_streak=self.nagari_streak,
            carried_multiplier=self.carried_multiplier,
            turn_no=self.turn_no,
            dealt_fours=self.dealt_fours,
            deck_mask=self.deck_mask,
            opponents=self.opponents,
            settlement=self.settlement,
            decision=self.decision,
            ctx=None if self.ctx is None else self.ctx.copy(),
            turn_bonus=self.turn_bonus[:],
            forced_card=self.forced_card,
            side_payments=self.side_payments[:],
            pending_steals=self.pending_steals[:],
            table_at_start=self.table_at_start[:],
            last_actor=self.last_actor,
            to_act=self.to_act,
            events=[],
            deal_events=self.deal_events,
        )


def dealt(ruleset: Ruleset, deal: Deal | DealtCards, check: bool) -> RoundState:
    """The state dealt from `deal`, checked against the ruleset unless `check` is false; the
    deal-time rules are applied next (`_dealtime`). A deal as indices (`deal_cards`) is a fresh
    seeded deal: made by the engine, it needs no check."""
    o = ruleset.options
    n = deal.players
    if isinstance(deal, Deal):
        if check:
            check_deal(deal, o)
        index = INDEX_OF
        stock = [index[c] for c in reversed(deal.stock)]
        caps = deal.captured or tuple(() for _ in range(n))
        states = deal.player_state or tuple(_FRESH for _ in range(n))
        seats = [
            SeatState(sorted([index[c] for c in h]), sorted([index[c] for c in pile]), p, [shake_factor(o, m, 3) for m in p.shaken_months])
            for h, pile, p in zip(deal.hands, caps, states, strict=True)
        ]
        nagari_streak, carried_multiplier, turn_no = deal.nagari_streak, deal.carried_multiplier, deal.turn
        first = deal.first_player
    else:
        stock = list(deal.stock[::-1])
        seats = [SeatState(list(h), [], _FRESH, []) for h in deal.hands]
        nagari_streak, carried_multiplier, turn_no = 0, 1, 0
        first = None
    if first is None:  # R-TURN-ORDER
        first = deal.dealer if o.first_player == "dealer" else (deal.dealer + 1) % n
    # R-CHONGTONG: only a four of the dealt hand can be declared; a four completed later in play
    # (R-FOUR-IN-HAND-LATER, through bonus replacement draws) never is. Only instant_win_or_continue
    # declares during play: no other ruleset pays for the months counted here.
    dealt_fours = _NO_FOURS[n]
    if o.hand_chongtong == "instant_win_or_continue":
        dealt_fours = tuple(tuple(m for m in range(1, 13) if counts[m] == 4) for counts in (hand_months(p.hand) for p in seats))
    return RoundState(
        ruleset=ruleset,
        o=o,
        n=n,
        dealer=deal.dealer,
        table=[[] for _ in range(13)],
        stack_owner={},
        stack_bonus={},
        stock=stock,
        seats=seats,
        nagari_streak=nagari_streak,
        carried_multiplier=carried_multiplier,
        turn_no=turn_no,
        dealt_fours=dealt_fours,
        deck_mask=deck_mask(o),
        opponents=_OPPONENTS[n],
        settlement=None,
        decision=TURN,
        ctx=None,
        turn_bonus=[],
        forced_card=None,
        side_payments=[],
        pending_steals=[],
        table_at_start=[],
        last_actor=deal.dealer,
        to_act=first,
        events=[],
        deal_events=(),
    )


def emit(
    s: RoundState,
    kind: EventKind,
    player: int | None,
    cards: list[int] | tuple[int, ...],
    clauses: tuple[str, ...],
    data: dict[str, Any] | None = None,
) -> None:
    # the data as a dict argument, not **data: a compiled call with keywords goes through the
    # generic Python calling convention (about 1,300 instructions an event)
    s.events.append(Event(kind=kind, player=player, cards=ids_of(cards), clauses=clauses, data=NO_DATA if data is None else data))


def flush(s: RoundState) -> list[Event]:
    out, s.events = s.events, []
    return out


def end(s: RoundState, settlement: Settlement) -> None:
    """R-ROUND-END: the round is settled and waits for nothing more."""
    if s.side_payments:
        settlement = with_side_payments(settlement, s.side_payments)
    s.settlement = settlement
    s.decision = NONE
    if settlement.kind == "redeal":
        emit(s, "redeal", s.dealer, (), settlement.clauses, {"dealer": s.dealer})
    emit(
        s,
        "round_end",
        settlement.winner,
        (),
        ("R-ROUND-END", *settlement.clauses[:1]),
        {"outcome": settlement.kind, "net": list(settlement.net)},
    )


def others(s: RoundState, seat: int) -> tuple[int, ...]:
    """The other seats in turn order from `seat` (built once per table size)."""
    return s.opponents[seat]


def score(s: RoundState, seat: int) -> Breakdown:
    """A player's current base score (R-SCORE-SUM; dual cards allocated per R-DUAL-ROLE (1))."""
    p = s.seats[seat]
    return best_breakdown(p.captured, s.o, p.dual_junk)


def has_turn(s: RoundState, seat: int) -> bool:
    p = s.seats[seat]
    return bool(p.hand) or p.skip_credits > 0


def base(s: RoundState, seat: int) -> int:
    """The seat's base score as Go/Stop sees it (R-DUAL-ROLE (1)), from its tally."""
    p = s.seats[seat]
    return tally_best_base(p.tally, s.o, p.dual_junk)


def gain(s: RoundState, seat: int, cards: list[int]) -> None:
    """Cards join a captured pile (in the order captured: sorted only where it is shown, as
    scoring and settlement read the tally) and its tally."""
    p = s.seats[seat]
    p.captured.extend(cards)
    p.tally.add_all(cards)


def lose(s: RoundState, seat: int, card: int) -> None:
    """A card leaves a captured pile (a steal, or a bonus card joining a ppeok stack)."""
    p = s.seats[seat]
    p.captured.remove(card)
    p.tally.remove(card)


def hand_months(hand: list[int]) -> list[int]:
    """How many cards of each month (index 1-12; 0: bonus cards) `hand` holds."""
    counts = [0] * 13
    for c in hand:
        counts[MONTH[c]] += 1
    return counts


def month_counts(s: RoundState, seat: int) -> list[int]:
    """How many cards of each month (index 1-12; 0: bonus cards) the seat holds."""
    return hand_months(s.seats[seat].hand)


def go_eligible(s: RoundState, seat: int, base: int) -> bool:
    """R-GO-THRESHOLD, R-GO-RISE, for `base` = base(s, seat)."""
    if base < s.o.go_threshold:
        return False
    p = s.seats[seat]
    return p.gos == 0 or base > p.go_base


def go_forced_stop(s: RoundState, seat: int) -> bool:
    """R-GO-LAST: an eligible actor with no later turn must stop (forced_stop)."""
    return s.o.go_on_last_turn == "forced_stop" and (not has_turn(s, seat) or not s.stock)


def shake_factor(o: Options, month: int, shown: int) -> int:
    """R-SHAKE-BOMB-MULT, R-FOUR-IN-HAND-LATER: x2, or x4 for listed months and four-card shakes."""
    if month in o.shake_x4_months or (shown == 4 and o.four_in_hand_later == "four_card_shake_x4"):
        return 4
    return 2


def frozen_seats(s: RoundState) -> list[Seat]:
    return [p.frozen() for p in s.seats]


def next_round(s: RoundState) -> dict[str, Any]:
    """What this finished round hands to the next one (R-NEXT-DEALER, R-NAGARI-CARRY,
    R-REDEAL, R-MATCH-ROUNDS): its dealer, the void-round streak and carried multiplier, and
    whether this round counts toward match_rounds."""
    settled = s.settlement
    assert settled is not None, "the round is not over"
    if settled.kind == "redeal":
        return {
            "dealer": s.dealer,
            "nagari_streak": s.nagari_streak,
            "carried_multiplier": s.carried_multiplier,
            "counts_as_round": False,
        }
    if settled.kind == "nagari":
        return {
            "dealer": s.dealer,
            "nagari_streak": s.nagari_streak + 1,
            "carried_multiplier": s.carried_multiplier * settled.void_multiplier,
            "counts_as_round": s.o.nagari_counts_as_round,
        }
    winner = settled.winner
    if winner is None:  # point-count: the best balance deals; ties: first in turn order from the dealer
        best = max(settled.net)
        winner = next(seat for seat in ((s.dealer + k) % s.n for k in range(s.n)) if settled.net[seat] == best)
    return {"dealer": winner, "nagari_streak": 0, "carried_multiplier": 1, "counts_as_round": True}


def in_play(s: RoundState) -> list[int]:
    """Cards held by a turn paused at a choose_* decision: played or flipped, not yet placed."""
    ctx = s.ctx
    if ctx is None:
        return []
    cards = [*ctx.captures, *ctx.flip_bonus]
    if ctx.hand is not None and ctx.mode in ("pair", "pair2"):
        cards.append(ctx.hand)
    if ctx.flip is not None:
        cards.append(ctx.flip)
    return sorted(cards)


def snapshot(s: RoundState) -> dict[str, Any]:
    """The full observable state, JSON-ready (card lists sorted by canonical index)."""
    stacks = [
        {"month": m, "owner": owner, "cards": list(ids_of(sorted(s.table[m]))), "bonus": list(ids_of(s.stack_bonus.get(m, [])))}
        for m, owner in sorted(s.stack_owner.items())
    ]
    return {
        "decision": s.decision,
        "in_play": list(ids_of(in_play(s))),
        "to_act": None if s.decision == NONE else s.to_act,
        "turn": s.turn_no,
        "dealer": s.dealer,
        "hands": [list(ids_of(p.hand)) for p in s.seats],
        "table": list(ids_of(sorted(c for month in s.table for c in month))),
        "stacks": stacks,
        "stock": list(ids_of(list(reversed(s.stock)))),
        "captured": [list(ids_of(sorted(p.captured))) for p in s.seats],
        "players": [p.to_json() for p in s.seats],
        "nagari_streak": s.nagari_streak,
        "awards": [list(p) for p in s.side_payments],
    }
