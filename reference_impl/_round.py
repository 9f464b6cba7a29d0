"""One round of Go-Stop as a state machine: deal-time rules, legal actions, turns and the round end.

Every event carries the clause ids that produced it (the rule-hit trace). Clause ids in the
docstrings and `_emit` calls are greppable: R-MATCH, R-PPEOK, R-JJOK, ...
"""

from __future__ import annotations

from typing import Any, Final

from reference_impl._deal import Deal, check_deal, deck_set
from reference_impl._events import Action, Event, Rejection
from reference_impl._scoring import DEC_RIBBON, Breakdown, Tally, best_breakdown, dual_cards_in, tally_best_base
from reference_impl._settlement import (
    Seat,
    Settlement,
    fixed_points,
    settle_fixed,
    settle_point_count,
    settle_stop,
    settle_void,
    void_multiplier,
    with_side_payments,
)
from spec import BONUS, Options, Ruleset, deck, option_registry

TURN: Final = "turn"
CHOOSE_HAND: Final = "choose_hand_match"
CHOOSE_FLIP: Final = "choose_flip_match"
GO_STOP: Final = "go_stop"
NONE: Final = "none"

_CARDS = deck().cards
MONTH: Final = tuple(c.month for c in _CARDS)
IS_BONUS: Final = tuple(c.kind == BONUS for c in _CARDS)
_CLASS: Final = tuple((c.kind, c.units, c.roles) for c in _CARDS)
CARD_ID: Final = tuple(c.id for c in _CARDS)
INDEX_OF: Final = {c.id: c.index for c in _CARDS}

_SEATS: Final = range(option_registry()["players"].maximum or 4)
#: per table size, per seat: the other seats in turn order (R-TURN-ORDER)
_OPPONENTS: Final = {n: tuple(tuple((seat + k) % n for k in range(1, n)) for seat in range(n)) for n in range(2, len(_SEATS) + 1)}
#: the actions with no more than a card, built once per seat and card: legal_actions lists them
#: at every decision, and actions are values
_PLAY: Final = tuple(tuple(Action("play", seat, cid) for cid in CARD_ID) for seat in _SEATS)
_PLAY_SHAKE: Final = tuple(tuple(Action("play", seat, cid, None, None, True) for cid in CARD_ID) for seat in _SEATS)
_TAKE: Final = tuple(tuple(Action("take", seat, cid) for cid in CARD_ID) for seat in _SEATS)
_BONUS: Final = tuple(tuple(Action("bonus", seat, cid) for cid in CARD_ID) for seat in _SEATS)
_DUAL: Final = tuple(tuple(Action("dual_to_junk", seat, cid) for cid in CARD_ID) for seat in _SEATS)
_GO: Final = tuple(Action("go", seat) for seat in _SEATS)
_STOP: Final = tuple(Action("stop", seat) for seat in _SEATS)
_SKIP: Final = tuple(Action("skip", seat) for seat in _SEATS)
_BOMB: Final = tuple(tuple(Action("bomb", seat, month=m) for m in range(13)) for seat in _SEATS)
_SHAKE: Final = tuple(tuple(Action("shake", seat, month=m) for m in range(13)) for seat in _SEATS)
_CHONGTONG: Final = tuple(tuple(Action("chongtong", seat, month=m) for m in range(13)) for seat in _SEATS)
#: a play naming the table card it takes (R-TWO-MATCH-CHOICE), by (seat, card, table card), with and without a shake
_SAME_MONTH: Final = [(c, t) for c in range(len(CARD_ID)) for t in range(len(CARD_ID)) if c != t and MONTH[c] and MONTH[c] == MONTH[t]]
_PLAY_TAKE: Final = {(seat, c, t): Action("play", seat, CARD_ID[c], CARD_ID[t]) for seat in _SEATS for c, t in _SAME_MONTH}
_PLAY_TAKE_SHAKE: Final = {
    (seat, c, t): Action("play", seat, CARD_ID[c], CARD_ID[t], None, True) for seat in _SEATS for c, t in _SAME_MONTH
}

#: which actions answer which decision, and the method that applies each (R-TURN)
HANDLERS: Final = {
    TURN: {
        "play": "_play",
        "bomb": "_bomb",
        "skip": "_skip",
        "shake": "_shake",
        "bonus": "_bonus",
        "dual_to_junk": "_dual_to_junk",
        "chongtong": "_chongtong",
    },
    CHOOSE_HAND: {"take": "_take"},
    CHOOSE_FLIP: {"take": "_take"},
    GO_STOP: {"go": "_go", "stop": "_stop", "dual_to_junk": "_dual_to_junk"},
}

STEAL_CLAUSE: Final = {
    "jjok": "R-JJOK",
    "ttadak": "R-TTADAK",
    "sweep": "R-SWEEP",
    "stack_capture": "R-STACK-CAPTURE",
    "bomb": "R-BOMB",
    "bonus": "R-BONUS-STEAL",
}


#: clause tuples of the commonest events, built once
_PLAY_CLAUSES: Final = ("R-TURN", "R-MATCH")
_PLAY_POINT_COUNT: Final = ("R-TURN", "R-MATCH", "R-PC-PLAY")
_MATCH: Final = ("R-MATCH",)

_ONE_ID: Final = tuple((cid,) for cid in CARD_ID)
_new_event: Final = tuple.__new__


def _ids(cards: list[int] | tuple[int, ...]) -> tuple[str, ...]:
    if len(cards) == 1:  # most events carry one card: its id tuple is built once
        return _ONE_ID[cards[0]]
    return tuple([CARD_ID[c] for c in cards])


def equivalent(a: int, b: int) -> bool:
    """R-TWO-MATCH-CHOICE: same kind, units and roles; the choice between them is not asked."""
    return _CLASS[a] == _CLASS[b]


class _Turn:
    """Work in progress of one turn (a turn may pause for a choose_* decision). A plain class with
    its lists made in __init__: a dataclass's default factories cost a call each, every turn."""

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

    def __init__(self, actor: int, mode: str, month: int = 0, hand: int | None = None, pair: list[int] | None = None) -> None:
        self.actor = actor
        self.mode = mode  # discard | pair | pair2 | stack | bomb | skip
        self.month = month
        self.hand = hand
        self.pair: list[int] = pair if pair is not None else []
        self.hand_take: int | None = None
        self.flip: int | None = None
        self.flip_take: int | None = None
        self.flip_bonus: list[int] = []
        self.captures: list[int] = []
        self.round_last = False
        self.actor_last = False
        self.made_ppeok = False
        self.made_ttadak = False
        self.trace: list[str] = []  # extra clauses for the turn's capture event

    def copy(self) -> _Turn:
        new = _Turn(self.actor, self.mode, self.month, self.hand, self.pair[:])
        new.hand_take, new.flip, new.flip_take = self.hand_take, self.flip, self.flip_take
        new.flip_bonus, new.captures, new.trace = self.flip_bonus[:], self.captures[:], self.trace[:]
        new.round_last, new.actor_last = self.round_last, self.actor_last
        new.made_ppeok, new.made_ttadak = self.made_ppeok, self.made_ttadak
        return new


class Round:
    """A round under a ruleset, started from a deal (seeded or explicit)."""

    def __init__(self, ruleset: Ruleset, deal: Deal | Round, *, check: bool = True) -> None:
        """A round from `deal`, checked against the ruleset unless `check` is false; or, given a
        round instead of a deal, a copy of that round (clone)."""
        if isinstance(deal, Round):
            self._copy(deal)
            return
        o = ruleset.options
        if check:
            check_deal(deal, o)
        self.ruleset = ruleset
        self.o: Options = o
        self.n = deal.players
        self.dealer = deal.dealer
        index = INDEX_OF
        self.hands: list[list[int]] = [sorted(index[c] for c in h) for h in deal.hands]
        self.table: list[list[int]] = [[] for _ in range(13)]
        self.stack_owner: dict[int, int | None] = {}
        self.stack_bonus: dict[int, list[int]] = {}
        self.stock: list[int] = [index[c] for c in reversed(deal.stock)]
        caps = deal.captured or tuple(() for _ in range(self.n))
        self.captured: list[list[int]] = [sorted(index[c] for c in pile) for pile in caps]
        self.tallies = [Tally(pile) for pile in self.captured]  # kept in step with `captured`: _gain, _lose
        states = deal.player_state
        self.gos = [s.gos for s in states] if states else [0] * self.n
        self.go_base = [s.go_base for s in states] if states else [0] * self.n
        self.first_go_turn: list[int | None] = [s.first_go_turn for s in states] if states else [None] * self.n
        self.last_go_turn: list[int | None] = list(self.first_go_turn)
        self.shaken: list[list[int]] = [list(s.shaken_months) for s in states] if states else [[] for _ in range(self.n)]
        self.shake_factors: list[list[int]] = [[self._shake_factor(m, 3) for m in months] for months in self.shaken]
        self.bombs: list[list[tuple[int, bool]]] = [[(m, True) for m in s.bombs] for s in states] if states else [[] for _ in range(self.n)]
        self.credits = [s.skip_credits for s in states] if states else [0] * self.n
        self.ppeoks = [s.ppeoks for s in states] if states else [0] * self.n
        self.moved: list[set[int]] = [{index[c] for c in s.dual_junk} for s in states] if states else [set() for _ in range(self.n)]
        self.deck_set = deck_set(o)
        self.opponents = _OPPONENTS[self.n]
        self.streak = deal.nagari_streak
        self.carry_extra = deal.carried_multiplier
        self.turn_no = deal.turn
        self.settlement: Settlement | None = None
        self.decision = TURN
        self.ctx: _Turn | None = None
        self.turn_bonus: list[int] = []
        self.forced_card: int | None = None  # bonus_replacement_use = must_play_replacement
        self.turns_taken = [0] * self.n
        self.side_payments: list[tuple[int, int, int]] = []  # (payer, payee, points), R-FIRST-TURN-AWARD
        self.pending_steals: list[tuple[str, int, tuple[int, ...]]] = []
        self.table_at_start: list[int] = []
        self.last_actor = deal.dealer
        self._out: list[Event] = []
        first = deal.first_player
        if first is None:  # R-TURN-ORDER
            first = self.dealer if o.first_player == "dealer" else (self.dealer + 1) % self.n
        self.to_act = first
        self._deal_time(deal)
        self.deal_events: tuple[Event, ...] = tuple(self._flush())

    # ------------------------------------------------------------------ plumbing

    def clone(self) -> Round:
        """An independent copy of the round in its current state (perft walks the tree with it)."""
        return Round(self.ruleset, self)

    def _copy(self, other: Round) -> None:
        """Round(ruleset, other): every field of `other`, the mutable ones copied (a copy
        constructor rather than copying __dict__, which a class compiled with mypyc has not)."""
        self.ruleset, self.o, self.n, self.dealer = other.ruleset, other.o, other.n, other.dealer
        self.hands = [h[:] for h in other.hands]
        self.table = [m[:] for m in other.table]
        self.stack_owner = dict(other.stack_owner)
        self.stack_bonus = {k: v[:] for k, v in other.stack_bonus.items()}
        self.stock = other.stock[:]
        self.captured = [p[:] for p in other.captured]
        self.tallies = [t.copy() for t in other.tallies]
        self.gos, self.go_base = other.gos[:], other.go_base[:]
        self.first_go_turn, self.last_go_turn = other.first_go_turn[:], other.last_go_turn[:]
        self.shaken = [x[:] for x in other.shaken]
        self.shake_factors = [x[:] for x in other.shake_factors]
        self.bombs = [x[:] for x in other.bombs]
        self.credits, self.ppeoks = other.credits[:], other.ppeoks[:]
        self.moved = [set(x) for x in other.moved]
        self.deck_set, self.streak, self.carry_extra, self.turn_no = other.deck_set, other.streak, other.carry_extra, other.turn_no
        self.opponents = other.opponents
        self.settlement, self.decision = other.settlement, other.decision
        self.ctx = None if other.ctx is None else other.ctx.copy()
        self.turn_bonus, self.forced_card, self.turns_taken = other.turn_bonus[:], other.forced_card, other.turns_taken[:]
        self.side_payments, self.pending_steals = other.side_payments[:], other.pending_steals[:]
        self.table_at_start, self.last_actor, self.to_act = other.table_at_start[:], other.last_actor, other.to_act
        self._out = []
        self.deal_events = other.deal_events

    def _emit(self, kind: str, player: int | None, cards: list[int] | tuple[int, ...], clauses: tuple[str, ...], **data: Any) -> None:
        # Event(...) with every field given, minus the named tuple's argument-parsing frame
        self._out.append(_new_event(Event, (kind, player, _ids(cards), clauses, data)))

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
            self._emit("redeal", self.dealer, (), settlement.clauses, dealer=self.dealer)
        self._emit(
            "round_end", settlement.winner, (), ("R-ROUND-END", *settlement.clauses[:1]), outcome=settlement.kind, net=list(settlement.net)
        )

    def _others(self, seat: int) -> tuple[int, ...]:
        """The other seats in turn order from `seat` (built once per table size)."""
        return self.opponents[seat]

    # ------------------------------------------------------------------ deal-time rules

    def _deal_time(self, deal: Deal) -> None:
        """R-DEAL-BONUS, R-TABLE-PAIR (two of a month: nothing special), R-TABLE-TRIPLE,
        R-TABLE-FOUR, R-CHONGTONG, R-CHONGTONG-MULTI."""
        o = self.o
        layout = [INDEX_OF[c] for c in deal.table]
        while any(IS_BONUS[c] for c in layout):
            pos = next(k for k, c in enumerate(layout) if IS_BONUS[c])
            bonus = layout[pos]
            self._gain(self.dealer, (bonus,))
            if self.stock:
                layout[pos] = self.stock.pop()
                self._emit("table_bonus", self.dealer, (bonus, layout[pos]), ("R-DEAL-BONUS",))
            else:
                del layout[pos]
                self._emit("table_bonus", self.dealer, (bonus,), ("R-DEAL-BONUS",))
        for c in layout:
            self.table[MONTH[c]].append(c)
        self._emit("deal", None, (), ("R-DEAL-SIZE",), dealer=self.dealer, first_player=self.to_act)
        fresh = deal.turn == 0 and deal.captured is None
        for month in range(1, 13):
            if len(self.table[month]) == 4:
                cards = sorted(self.table[month])
                self._emit("table_four", self.dealer, cards, ("R-TABLE-FOUR",), month=month, handling=o.table_four_of_month)
                mode = o.table_four_of_month
                if mode == "redeal":
                    self._end(settle_void("redeal", self.n, ("R-TABLE-FOUR", "R-REDEAL")))
                    return
                if mode == "nagari":
                    self._end(settle_void("nagari", self.n, ("R-TABLE-FOUR", "R-NAGARI")))
                    return
                if mode == "dealer_wins_fixed":
                    points = fixed_points(o, o.chongtong_points)
                    self._end(
                        settle_fixed(
                            "dealer_wins_fixed",
                            self.dealer,
                            points,
                            self.n,
                            self.streak,
                            o,
                            ("R-TABLE-FOUR", "R-CHONGTONG"),
                            self.carry_extra,
                        )
                    )
                    return
                self.table[month] = []
                self._gain(self.dealer, cards)
                self._emit("capture", self.dealer, cards, ("R-TABLE-FOUR",))
        for month in range(1, 13):
            if len(self.table[month]) == 3:
                self.stack_owner[month] = deal.stacks.get(month)
                if self.stack_owner[month] is None:
                    self._emit("table_triple", None, sorted(self.table[month]), ("R-TABLE-TRIPLE",), month=month)
        if not fresh or o.hand_chongtong in ("ignore", "instant_win_or_continue"):
            return
        holders: list[tuple[int, int]] = []
        order = [(self.to_act + k) % self.n for k in range(self.n)]
        for seat in order:
            counts = [0] * 13
            for c in self.hands[seat]:
                counts[MONTH[c]] += 1
            for month in range(1, 13):
                if counts[month] == 4:
                    holders.append((seat, month))
                    self._emit("chongtong", seat, [c for c in self.hands[seat] if MONTH[c] == month], ("R-CHONGTONG",), month=month)
        if not holders:
            return
        if o.hand_chongtong == "redeal":
            self._end(settle_void("redeal", self.n, ("R-CHONGTONG", "R-REDEAL")))
            return
        if len({seat for seat, _ in holders}) > 1:
            mode = o.multiple_chongtong
            if mode == "redeal":
                self._end(settle_void("redeal", self.n, ("R-CHONGTONG-MULTI", "R-REDEAL")))
                return
            if mode == "nagari":
                self._end(settle_void("nagari", self.n, ("R-CHONGTONG-MULTI", "R-NAGARI")))
                return
            winner = holders[0][0] if mode == "dealer_first_in_turn_order" else max(holders, key=lambda h: h[1])[0]
            clauses: tuple[str, ...] = ("R-CHONGTONG", "R-CHONGTONG-MULTI")
        else:
            winner = holders[0][0]
            clauses = ("R-CHONGTONG",)
        points = fixed_points(o, o.chongtong_points)
        self._end(settle_fixed("chongtong", winner, points, self.n, self.streak, o, clauses, self.carry_extra))

    # ------------------------------------------------------------------ queries

    def score(self, seat: int) -> Breakdown:
        """A player's current base score (R-SCORE-SUM; dual cards allocated per R-DUAL-ROLE (1))."""
        return best_breakdown(self.captured[seat], self.o, self.moved[seat])

    def _has_turn(self, seat: int) -> bool:
        return bool(self.hands[seat]) or self.credits[seat] > 0

    def _base(self, seat: int) -> int:
        """The seat's base score as Go/Stop sees it (R-DUAL-ROLE (1)), from its tally."""
        return tally_best_base(self.tallies[seat], self.o, self.moved[seat])

    def _gain(self, seat: int, cards: list[int] | tuple[int, ...]) -> None:
        """Cards join a captured pile (kept sorted by canonical index) and its tally."""
        pile = self.captured[seat]
        pile.extend(cards)
        pile.sort()
        self.tallies[seat].add_all(cards)

    def _lose(self, seat: int, card: int) -> None:
        """A card leaves a captured pile (a steal, or a bonus card joining a ppeok stack)."""
        self.captured[seat].remove(card)
        self.tallies[seat].remove(card)

    def _go_eligible(self, seat: int, base: int) -> bool:
        """R-GO-THRESHOLD, R-GO-RISE, for `base` = self._base(seat)."""
        if base < self.o.go_threshold:
            return False
        return self.gos[seat] == 0 or base > self.go_base[seat]

    def _go_forced_stop(self, seat: int) -> bool:
        """R-GO-LAST: an eligible actor with no later turn must stop (forced_stop)."""
        return self.o.go_on_last_turn == "forced_stop" and (not self._has_turn(seat) or not self.stock)

    def _matching(self, seat: int) -> bool:
        return any(self.table[MONTH[c]] for c in self.hands[seat] if not IS_BONUS[c])

    def _month_counts(self, seat: int) -> list[int]:
        counts = [0] * 13
        for c in self.hands[seat]:
            counts[MONTH[c]] += 1
        return counts

    def _bomb_months(self, seat: int, counts: list[int] | None = None) -> list[int]:
        """R-BOMB, R-BOMB-TWO: months the player may bomb now."""
        o = self.o
        if not o.bomb_enabled:
            return []
        counts = counts or self._month_counts(seat)
        two = o.two_card_bomb != "off"
        out = []
        for month, held in enumerate(counts):
            if held < 2 or month in self.stack_owner:
                continue
            on = len(self.table[month])
            if (held == 3 and on == 1) or (two and held == 2 and on == 2):
                out.append(month)
        return out

    def _shake_months(self, seat: int, counts: list[int] | None = None) -> list[int]:
        """R-SHAKE, R-FOUR-IN-HAND-LATER: months with three or four cards in hand, not yet shaken."""
        o = self.o
        if not o.shake_enabled:
            return []
        counts = counts or self._month_counts(seat)
        return [
            m
            for m in range(1, 13)
            if counts[m] >= 3 and m not in self.shaken[seat] and not (o.shake_requires_month_absent and self.table[m])
        ]

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, in a canonical order."""
        seat = self.to_act
        if self.decision == NONE:
            return []
        if self.decision in (CHOOSE_HAND, CHOOSE_FLIP):
            assert self.ctx is not None
            month = self.ctx.month if self.decision == CHOOSE_HAND else MONTH[self.ctx.flip or 0]
            takes = _TAKE[seat]
            return [takes[c] for c in sorted(self.table[month])]
        out: list[Action] = []
        if self.decision == GO_STOP:
            if not self._go_forced_stop(seat):
                out.append(_GO[seat])
            out.append(_STOP[seat])
            out.extend(self._dual_actions(seat))
            return out
        o = self.o
        hand = self.hands[seat]
        if self.forced_card is not None:
            return self._forced_actions(seat, self.forced_card)
        ordinary = [c for c in hand if not IS_BONUS[c]]
        must = o.must_match_if_possible and self._matching(seat)
        counts = [0] * 13
        for c in hand:
            counts[MONTH[c]] += 1
        # a shake needs three cards of a month, a bomb three (or two and two), chongtong four: asked
        # by membership (max(counts) would be a Python-level call in compiled code)
        three = 3 in counts or 4 in counts
        shakes = self._shake_months(seat, counts) if three else []
        shake_with_play = bool(shakes) and o.shake_declaration == "with_triple_card_play"
        at_play = o.two_match_choice_timing == "at_play"
        table, stacks, plays = self.table, self.stack_owner, _PLAY[seat]
        for c in ordinary:
            month = MONTH[c]
            on = table[month]
            if must and not on:
                continue
            if len(on) == 2 and at_play and month not in stacks and not equivalent(on[0], on[1]):
                for t in sorted(on):
                    out.append(_PLAY_TAKE[seat, c, t])
                    if shake_with_play and month in shakes:
                        out.append(_PLAY_TAKE_SHAKE[seat, c, t])
            else:
                out.append(plays[c])
                if shake_with_play and month in shakes:
                    out.append(_PLAY_SHAKE[seat][c])
        if three or (o.two_card_bomb != "off" and 2 in counts):
            out.extend(_BOMB[seat][m] for m in self._bomb_months(seat, counts))
        if self.credits[seat] > 0 and (ordinary or not hand):
            out.append(_SKIP[seat])
        if shakes and o.shake_declaration == "any_own_turn_start":
            out.extend(_SHAKE[seat][m] for m in shakes)
        if len(ordinary) != len(hand) and (self.stock or not ordinary):
            out.extend(_BONUS[seat][c] for c in hand if IS_BONUS[c])
        if o.hand_chongtong == "instant_win_or_continue" and 4 in counts:
            out.extend(_CHONGTONG[seat][m] for m in self._chongtong_months(seat))
        if o.dual_role_mode == "owner_one_way_to_junk":
            out.extend(self._dual_actions(seat))
        return out

    def _forced_actions(self, seat: int, card: int) -> list[Action]:
        """R-BONUS-HAND (must_play_replacement): the replacement is this turn's hand card."""
        if IS_BONUS[card]:
            return [_BONUS[seat][card]]
        on = self.table[MONTH[card]]
        if (
            len(on) == 2
            and MONTH[card] not in self.stack_owner
            and not equivalent(on[0], on[1])
            and self.o.two_match_choice_timing == "at_play"
        ):
            return [_PLAY_TAKE[seat, card, t] for t in sorted(on)]
        return [_PLAY[seat][card]]

    def _chongtong_months(self, seat: int) -> list[int]:
        """R-CHONGTONG (instant_win_or_continue): months whose four cards the player holds."""
        if self.o.hand_chongtong != "instant_win_or_continue" or self.forced_card is not None:
            return []
        counts = [0] * 13
        for c in self.hands[seat]:
            counts[MONTH[c]] += 1
        return [m for m in range(1, 13) if counts[m] == 4]

    def _dual_actions(self, seat: int) -> list[Action]:
        if self.o.dual_role_mode != "owner_one_way_to_junk":
            return []
        return [_DUAL[seat][c] for c in dual_cards_in(self.captured[seat], self.o) if c not in self.moved[seat]]

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return its events; an illegal one raises Rejection, changing nothing."""
        if self.decision == NONE:
            raise Rejection("round_over", "the round is over")
        if action.player != self.to_act:
            raise Rejection("not_your_turn", f"seat {self.to_act} is to act, not seat {action.player}")
        kind = action.type
        if kind not in HANDLERS[self.decision]:
            raise Rejection("wrong_decision", f"the pending decision is {self.decision!r}; a {kind!r} action does not answer it")
        # a call per kind rather than a table of methods: compiled, each is a direct call
        if kind == "play":
            self._play(action)
        elif kind == "take":
            self._take(action)
        elif kind == "go":
            self._go(action)
        elif kind == "stop":
            self._stop(action)
        elif kind == "bomb":
            self._bomb(action)
        elif kind == "skip":
            self._skip(action)
        elif kind == "shake":
            self._shake(action)
        elif kind == "bonus":
            self._bonus(action)
        elif kind == "dual_to_junk":
            self._dual_to_junk(action)
        else:
            self._chongtong(action)
        return self._flush()

    def _card(self, card_id: str | None) -> int:
        index = INDEX_OF.get(card_id or "")
        if index is None:
            raise Rejection("unknown_card", f"{card_id!r} is not a card id of spec/deck.yaml")
        if index not in self.deck_set:
            raise Rejection("unknown_card", f"{card_id} is not a card of this ruleset's deck (bonus_cards = {list(self.o.bonus_cards)})")
        return index

    def _hand_card(self, card_id: str | None) -> int:
        c = self._card(card_id)
        if c not in self.hands[self.to_act]:
            raise Rejection("card_not_in_hand", f"{card_id} is not in seat {self.to_act}'s hand")
        return c

    def _play(self, a: Action) -> None:
        """R-MATCH, R-FREE-PLAY, R-TWO-MATCH-CHOICE, R-STACK-CAPTURE (hand side)."""
        o = self.o
        seat = self.to_act
        c = self._hand_card(a.card)
        self._check_forced(c)
        if IS_BONUS[c]:  # R-NO-BONUS-MATCH
            raise Rejection("bonus_not_allowed", f"{a.card} is a bonus card: it is played with a 'bonus' action and never matches")
        month = MONTH[c]
        on = self.table[month]
        if o.must_match_if_possible and not on and self._matching(seat):
            raise Rejection("must_match", f"{a.card} matches nothing on the table, and this ruleset requires playing a matching card")
        take: int | None = None
        is_pair2 = len(on) == 2 and month not in self.stack_owner
        if a.take is not None:
            take = self._card(a.take)
            if take not in on:
                raise Rejection("wrong_month", f"{a.take} is not a table card of month {month}")
            if not is_pair2:
                take = None
            elif o.two_match_choice_timing == "after_flip":
                raise Rejection("wrong_decision", "under two_match_choice_timing = after_flip the table card is chosen after the flip")
        if is_pair2 and take is None and o.two_match_choice_timing == "at_play" and not equivalent(on[0], on[1]):
            raise Rejection(
                "take_required", f"two different table cards of month {month} ({', '.join(_ids(sorted(on)))}): name one with 'take'"
            )
        if a.shake and (o.shake_declaration != "with_triple_card_play" or month not in self._shake_months(seat)):
            raise Rejection("shake_not_allowed", f"no shake of month {month} can be declared with this play")
        # validated: mutate from here on
        self._begin_turn_action()
        if a.shake:
            self._do_shake(seat, month)
        self.hands[seat].remove(c)
        self._emit("play", seat, (c,), _PLAY_POINT_COUNT if o.scoring_system == "point_count" else _PLAY_CLAUSES)
        if not on:
            ctx = _Turn(seat, "discard", month, c)
            on.append(c)
        elif month in self.stack_owner:
            ctx = _Turn(seat, "stack", month, c)
            self._capture_stack(ctx, month, extra=c)
        elif len(on) == 1:
            ctx = _Turn(seat, "pair", month, c, pair=[on[0]])
        else:
            if equivalent(on[0], on[1]):
                take = min(on)  # R-TWO-MATCH-CHOICE: equivalent cards, the lower index, whatever was named
            ctx = _Turn(seat, "pair2", month, c, pair=sorted(on))
            ctx.hand_take = take
        self._flip(ctx)
        self._resolve(ctx)

    def _bomb(self, a: Action) -> None:
        """R-BOMB, R-BOMB-SKIP, R-BOMB-TWO."""
        o = self.o
        seat = self.to_act
        month = a.month or 0
        self._check_forced(None)
        if month not in self._bomb_months(seat):
            raise Rejection(
                "bomb_not_allowed",
                f"a bomb of month {month} needs three cards of it in hand and exactly one on the table"
                + (" (or two and two)" if o.two_card_bomb != "off" else ""),
            )
        self._begin_turn_action()
        played = [c for c in self.hands[seat] if MONTH[c] == month]
        two = len(played) == 2
        for c in played:
            self.hands[seat].remove(c)
        ctx = _Turn(seat, "bomb", month)
        ctx.captures.extend(sorted(played + self.table[month]))
        self.table[month] = []
        clauses = ("R-BOMB-TWO",) if two else ("R-BOMB",)
        steal = 0 if two and o.two_card_bomb == "capture_only" else o.bomb_steal
        multiplier = not two or o.two_card_bomb == "full_bomb"
        self.bombs[seat].append((month, multiplier))
        if steal:
            self.pending_steals.append(("bomb", steal, self._others(seat)))
        credits = 0
        if o.bomb_compensation == "skip_credits_2" and (not two or o.two_card_bomb == "full_bomb"):
            credits = len(played) - 1
            self.credits[seat] += credits
        self._emit("bomb", seat, played, (*clauses, "R-BOMB-SKIP"), month=month, skip_credits=credits)
        self._flip(ctx)
        self._resolve(ctx)

    def _skip(self, a: Action) -> None:
        """R-BOMB-SKIP: a flip-only turn."""
        seat = self.to_act
        self._check_forced(None)
        if self.credits[seat] <= 0:
            raise Rejection("no_skip_credit", f"seat {seat} holds no skip credit")
        if self.hands[seat] and all(IS_BONUS[c] for c in self.hands[seat]):
            raise Rejection("must_play_bonus", "only bonus cards are left in hand: one must be played (R-BONUS-HAND)")
        self._begin_turn_action()
        self.credits[seat] -= 1
        self._emit("skip", seat, (), ("R-BOMB-SKIP",), skip_credits=self.credits[seat])
        ctx = _Turn(seat, "skip")
        self._flip(ctx)
        self._resolve(ctx)

    def _shake(self, a: Action) -> None:
        """R-SHAKE (declared at the start of an own turn)."""
        seat = self.to_act
        month = a.month or 0
        if self.o.shake_declaration != "any_own_turn_start" or month not in self._shake_months(seat):
            raise Rejection("shake_not_allowed", f"seat {seat} cannot shake month {month} now")
        self._do_shake(seat, month)

    def _shake_factor(self, month: int, shown: int) -> int:
        """R-SHAKE-BOMB-MULT, R-FOUR-IN-HAND-LATER: x2, or x4 for listed months and four-card shakes."""
        o = self.o
        if month in o.shake_x4_months or (shown == 4 and o.four_in_hand_later == "four_card_shake_x4"):
            return 4
        return 2

    def _do_shake(self, seat: int, month: int) -> None:
        shown = [c for c in self.hands[seat] if MONTH[c] == month]
        self.shaken[seat].append(month)
        self.shake_factors[seat].append(self._shake_factor(month, len(shown)))
        clauses = ("R-SHAKE", "R-FOUR-IN-HAND-LATER") if len(shown) == 4 else ("R-SHAKE",)
        self._emit("shake", seat, shown, clauses, month=month)

    def _bonus(self, a: Action) -> None:
        """R-BONUS-HAND: captured at once and replaced by the top stock card; the turn goes on."""
        seat = self.to_act
        c = self._hand_card(a.card)
        self._check_forced(c)
        if not IS_BONUS[c]:
            raise Rejection("bonus_not_allowed", f"{a.card} is not a bonus card")
        self.hands[seat].remove(c)
        self._gain(seat, (c,))
        self.turn_bonus.append(c)
        replacement: tuple[int, ...] = ()
        self.forced_card = None
        if self.stock:
            r = self.stock.pop()
            self.hands[seat].append(r)
            self.hands[seat].sort()
            replacement = (r,)
            if self.o.bonus_replacement_use == "must_play_replacement":
                self.forced_card = r
        if self.o.bonus_steal:
            self.pending_steals.append(("bonus", self.o.bonus_steal, self._others(seat)))
        self._emit("bonus", seat, (c,), ("R-BONUS-HAND", "R-BONUS-STEAL"), source="hand", replacement=list(_ids(replacement)))

    def _check_forced(self, card: int | None) -> None:
        if self.forced_card is not None and card != self.forced_card:
            raise Rejection(
                "must_play_replacement",
                f"the replacement {_CARDS[self.forced_card].id} must be this turn's hand card "
                "(bonus_replacement_use = must_play_replacement)",
            )

    def _chongtong(self, a: Action) -> None:
        """R-CHONGTONG (instant_win_or_continue): the holder shows the four and wins at once."""
        seat = self.to_act
        month = a.month or 0
        if month not in self._chongtong_months(seat):
            raise Rejection("chongtong_not_allowed", f"seat {seat} cannot declare a chongtong of month {month} now")
        o = self.o
        self._emit("chongtong", seat, [c for c in self.hands[seat] if MONTH[c] == month], ("R-CHONGTONG",), month=month)
        points = fixed_points(o, o.chongtong_points)
        self._end(settle_fixed("chongtong", seat, points, self.n, self.streak, o, ("R-CHONGTONG",), self.carry_extra))

    def _dual_to_junk(self, a: Action) -> None:
        """R-DUAL-ROLE (owner_one_way_to_junk): irrevocable."""
        seat = self.to_act
        c = self._card(a.card)
        if self.o.dual_role_mode != "owner_one_way_to_junk" or c not in dual_cards_in(self.captured[seat], self.o) or c in self.moved[seat]:
            raise Rejection("dual_not_allowed", f"{a.card} is not a captured dual-role card of seat {seat} that can move to junk")
        self.moved[seat].add(c)
        self._emit("dual_to_junk", seat, (c,), ("R-DUAL-ROLE",))
        if self.decision == GO_STOP and not self._go_eligible(seat, self._base(seat)):
            self._advance(seat)  # the Go/Stop decision lapses (R-GO-WHEN)

    def _take(self, a: Action) -> None:
        """R-TWO-MATCH-CHOICE: answer a choose_hand_match / choose_flip_match decision."""
        ctx = self.ctx
        assert ctx is not None
        c = self._card(a.card)
        month = ctx.month if self.decision == CHOOSE_HAND else MONTH[ctx.flip or 0]
        if c not in self.table[month]:
            raise Rejection("wrong_month", f"{a.card} is not a table card of month {month}")
        if self.decision == CHOOSE_HAND:
            ctx.hand_take = c
        else:
            ctx.flip_take = c
        self.ctx = None
        self.decision = TURN
        self._resolve(ctx)

    def _go(self, a: Action) -> None:
        """R-GO-WHEN, R-GO-RISE, R-GO-LAST."""
        seat = self.to_act
        if self._go_forced_stop(seat):
            raise Rejection(
                "go_not_allowed", "Go is not allowed: the caller has no later turn in this round (go_on_last_turn = forced_stop)"
            )
        self.gos[seat] += 1
        self.go_base[seat] = self._base(seat)
        if self.first_go_turn[seat] is None:
            self.first_go_turn[seat] = self.turn_no
        self.last_go_turn[seat] = self.turn_no
        self._emit("go", seat, (), ("R-GO-WHEN", "R-GO-BONUS"), gos=self.gos[seat], base=self.go_base[seat])
        self._advance(seat)

    def _stop(self, a: Action) -> None:
        """R-GO-WHEN: Stop ends the round; the caller wins (R-SETTLE)."""
        seat = self.to_act
        self._emit("stop", seat, (), ("R-GO-WHEN",), base=self._base(seat))
        self._end(settle_stop("stop", seat, self._seats(), self.streak, self.o, self.carry_extra))

    def _seats(self) -> list[Seat]:
        return [
            _new_event(  # Seat(...) with every field given, minus the named tuple's argument parsing
                Seat,
                (
                    tuple(self.captured[s]),
                    self.gos[s],
                    self.first_go_turn[s],
                    tuple(self.shaken[s]),
                    tuple(self.shake_factors[s]),
                    tuple(self.bombs[s]),
                    tuple(sorted(self.moved[s])),
                ),
            )
            for s in range(self.n)
        ]

    # ------------------------------------------------------------------ turn machinery

    def _begin_turn_action(self) -> None:
        self.forced_card = None
        if self.o.sweep_definition == "two_cards_cleared":  # only that definition looks back (R-SWEEP)
            self.table_at_start = [c for month in self.table for c in month]

    def _flip(self, ctx: _Turn) -> None:
        """R-FLIP, R-BONUS-FLIP: turn up stock cards until an ordinary card comes."""
        while self.stock:
            c = self.stock.pop()
            if IS_BONUS[c]:
                ctx.flip_bonus.append(c)
                self._emit("bonus", ctx.actor, (c,), ("R-BONUS-FLIP", "R-BONUS-STEAL"), source="flip")
                if self.o.bonus_steal:
                    self.pending_steals.append(("bonus", self.o.bonus_steal, self._others(ctx.actor)))
                continue
            ctx.flip = c
            self._emit("flip", ctx.actor, (c,), ("R-FLIP",))
            break
        hands, credits = self.hands, self.credits  # R-BOMB-SKIP: a skip credit is a turn too
        ctx.actor_last = not (hands[ctx.actor] or credits[ctx.actor] > 0)
        ctx.round_last = not self.stock or (ctx.actor_last and not any(hands[s] or credits[s] > 0 for s in range(self.n)))

    def _resolve(self, ctx: _Turn) -> None:
        """R-MATCH: resolve the hand card and the flipped card; may pause for a choice."""
        f = ctx.flip
        fm = MONTH[f] if f is not None else -1
        hand_month = ctx.month if ctx.mode in ("discard", "pair", "pair2") else -2
        if ctx.mode == "pair2" and ctx.hand_take is None and fm != hand_month:
            self.decision, self.ctx = CHOOSE_HAND, ctx
            return
        if f is not None and fm != hand_month:
            on = self.table[fm]
            if len(on) == 2 and fm not in self.stack_owner and ctx.flip_take is None:
                if equivalent(on[0], on[1]):
                    ctx.flip_take = min(on)
                else:
                    self.decision, self.ctx = CHOOSE_FLIP, ctx
                    return
        actor = ctx.actor
        o = self.o
        flip_used = False
        if ctx.mode == "discard" and fm == hand_month:
            assert f is not None and ctx.hand is not None
            self.table[fm].remove(ctx.hand)
            ctx.captures.extend((ctx.hand, f))
            flip_used = True
            if o.scoring_system == "gostop":  # R-PC-PLAY: the point-count variant knows no jjok
                self._emit("jjok", actor, (ctx.hand, f), ("R-MATCH", "R-JJOK"))
                self._request("jjok", o.jjok_steal, actor)
        elif ctx.mode == "pair":
            assert ctx.hand is not None
            if fm == hand_month:
                assert f is not None
                flip_used = True
                self._ppeok(ctx, f)
            else:
                self.table[ctx.month].remove(ctx.pair[0])
                ctx.captures.extend((ctx.hand, ctx.pair[0]))
        elif ctx.mode == "pair2":
            assert ctx.hand is not None
            if fm == hand_month:
                assert f is not None
                flip_used = True
                ctx.captures.extend((ctx.hand, *ctx.pair, f))
                self.table[ctx.month] = []
                if o.scoring_system == "gostop":  # R-PC-PLAY: "there is no ppeok or ttadak"
                    ctx.made_ttadak = True
                    self._emit("ttadak", actor, (ctx.hand, *ctx.pair, f), ("R-MATCH", "R-TTADAK"))
                    self._request("ttadak", o.ttadak_steal, actor)
            else:
                assert ctx.hand_take is not None
                self.table[ctx.month].remove(ctx.hand_take)
                ctx.captures.extend((ctx.hand, ctx.hand_take))
        if f is not None and not flip_used:
            on = self.table[fm]
            if fm in self.stack_owner:
                self._capture_stack(ctx, fm, extra=f)
            elif not on:
                on.append(f)
            elif len(on) == 1:
                ctx.captures.extend((on.pop(), f))
            else:
                assert ctx.flip_take is not None
                on.remove(ctx.flip_take)
                ctx.captures.extend((ctx.flip_take, f))
        self._finish(ctx)

    def _ppeok(self, ctx: _Turn, f: int) -> None:
        """R-PPEOK, R-FINAL-PPEOK, R-BONUS-PPEOK, R-PC-PLAY."""
        o = self.o
        actor = ctx.actor
        month = ctx.month
        assert ctx.hand is not None
        pair = ctx.pair[0]
        if not o.ppeok_enabled:
            self.table[month] = [f]
            ctx.captures.extend((ctx.hand, pair))
            self._emit("capture", actor, (ctx.hand, pair), ("R-MATCH", "R-PC-PLAY"), note="flip of the paired month stays on the table")
            return
        three = (pair, ctx.hand, f)
        if ctx.round_last and o.final_turn_ppeok != "leave_stack":
            if o.final_turn_ppeok == "capture_three":  # a ppeok all the same (R-THREE-PPEOK counts it)
                self.table[month] = []
                ctx.captures.extend(three)
                self.ppeoks[actor] += 1
                ctx.made_ppeok = True
                clauses_final: tuple[str, ...] = ("R-MATCH", "R-PPEOK", "R-FINAL-PPEOK") + (("R-BONUS-PPEOK",) if ctx.flip_bonus else ())
                self._emit("ppeok", actor, three, clauses_final, month=month, handling=o.final_turn_ppeok, count=self.ppeoks[actor])
            else:  # capture_pair_leave_drawn: no ppeok is made
                self.table[month] = [f]
                ctx.captures.extend((ctx.hand, pair))
                ctx.trace.append("R-FINAL-PPEOK")
            return
        self.table[month] = sorted(three)
        self.stack_owner[month] = actor
        joined = list(ctx.flip_bonus)
        ctx.flip_bonus = []
        if o.bonus_joins_ppeok == "all_bonus_this_turn":
            for b in self.turn_bonus:
                self._lose(actor, b)
                joined.append(b)
        self.stack_bonus[month] = sorted(joined)
        self.ppeoks[actor] += 1
        ctx.made_ppeok = True
        clauses: tuple[str, ...] = ("R-MATCH", "R-PPEOK", "R-BONUS-PPEOK") if joined else ("R-MATCH", "R-PPEOK")
        if ctx.round_last:
            clauses = (*clauses, "R-FINAL-PPEOK")
        self._emit("ppeok", actor, three, clauses, month=month, bonus=list(_ids(joined)), count=self.ppeoks[actor])

    def _capture_stack(self, ctx: _Turn, month: int, extra: int) -> None:
        """R-STACK-CAPTURE, R-TABLE-TRIPLE, R-PPEOK-CAPTURE: the fourth card takes the stack."""
        o = self.o
        actor = ctx.actor
        owner = self.stack_owner.pop(month)
        cards = sorted(self.table[month] + self.stack_bonus.pop(month, []) + [extra])
        self.table[month] = []
        ctx.captures.extend(cards)
        if owner is None:
            clauses: tuple[str, ...] = ("R-STACK-CAPTURE", "R-TABLE-TRIPLE")
            units, payers = o.table_triple_capture_steal, self._others(actor)
        elif owner == actor:
            clauses = ("R-STACK-CAPTURE", "R-PPEOK-CAPTURE")
            units, payers = o.own_ppeok_capture_steal, self._others(actor)
        else:
            clauses = ("R-STACK-CAPTURE", "R-PPEOK-CAPTURE")
            units = o.ppeok_capture_steal
            payers = (owner,) if o.ppeok_steal_payers == "creator_only" else self._others(actor)
        self._emit("stack_capture", actor, cards, clauses, month=month, owner=owner)
        self._request("stack_capture", units, actor, payers)

    def _request(self, kind: str, units: int, actor: int, payers: tuple[int, ...] | None = None) -> None:
        if units > 0:
            self.pending_steals.append((kind, units, payers if payers is not None else self._others(actor)))

    def _finish(self, ctx: _Turn) -> None:
        """End of a turn: captures, sweep, final-turn exemptions, steals, three ppeok, Go/Stop."""
        o = self.o
        actor = ctx.actor
        taken = ctx.captures + ctx.flip_bonus
        # R-FINAL-TURN: under each_player_last_hand_card "the round's last turn is final as well"
        final = ctx.round_last if o.final_turn_scope == "round_final_turn" else ctx.round_last or ctx.actor_last
        if taken:
            self._gain(actor, taken)
            point_count = o.scoring_system == "point_count"
            if final:
                ctx.trace.append("R-FINAL-TURN")
            clauses = ("R-MATCH", *(("R-PC-PLAY",) if point_count else ()), *ctx.trace) if point_count or ctx.trace else _MATCH
            self._emit("capture", actor, sorted(taken), clauses)
        self._check_sweep(ctx)
        first_turn = self.turns_taken[actor] == 0
        self.turns_taken[actor] += 1
        if first_turn:
            self._first_turn_awards(ctx)
        if ctx.made_ppeok and self.ppeoks[actor] == 3 and o.three_ppeok_win != "off":
            # the instant win comes before the turn's steals (R-THREE-PPEOK)
            self.pending_steals, self.turn_bonus = [], []
            self.last_actor = actor
            self.turn_no += 1
            self._emit("three_ppeok", actor, (), ("R-THREE-PPEOK",))
            points = fixed_points(o, o.three_ppeok_win)
            self._end(settle_fixed("three_ppeok", actor, points, self.n, self.streak, o, ("R-THREE-PPEOK",), self.carry_extra))
            return
        if self.pending_steals:
            self._perform_steals(actor, final)
        self.turn_bonus = []
        self.last_actor = actor
        self.turn_no += 1
        base = self._base(actor) if o.scoring_system == "gostop" else 0
        if o.scoring_system == "gostop" and self._go_eligible(actor, base):
            self.decision = GO_STOP
            self.to_act = actor
            forced = self._go_forced_stop(actor)
            clauses = ("R-GO-WHEN", "R-GO-THRESHOLD") + (("R-GO-RISE",) if self.gos[actor] else ()) + (("R-GO-LAST",) if forced else ())
            self._emit("go_stop_offered", actor, (), clauses, base=base, stop_only=forced)
            return
        self._advance(actor)

    def _perform_steals(self, actor: int, final: bool) -> None:
        """R-EVENTS-STACK, R-FINAL-TURN: the turn's requests, summed per opponent, then surrendered."""
        o = self.o
        owed = [0] * self.n
        reasons: list[set[str]] = [set() for _ in range(self.n)]
        requests = [0] * self.n
        for kind, units, payers in self.pending_steals:
            if final and kind in o.final_turn_exempt:
                self._emit("steal_exempt", actor, (), (STEAL_CLAUSE[kind], "R-FINAL-TURN"), reason=kind, units=units)
                continue
            for p in payers:
                owed[p] += units
                requests[p] += 1
                reasons[p].add(STEAL_CLAUSE[kind])
        self.pending_steals = []
        for payer in self._others(actor):
            if owed[payer]:
                why = (
                    tuple(sorted(reasons[payer]))
                    + (("R-EVENTS-STACK",) if requests[payer] > 1 else ())
                    + (("R-FINAL-TURN",) if final else ())
                )
                self._surrender(payer, actor, owed[payer], why)

    def _first_turn_awards(self, ctx: _Turn) -> None:
        """R-FIRST-TURN-AWARD: paid at once by each opponent, outside the score and every multiplier."""
        o = self.o
        for kind, setting, made in (("ppeok", o.first_ppeok_award, ctx.made_ppeok), ("ttadak", o.first_ttadak_award, ctx.made_ttadak)):
            points = fixed_points(o, setting)
            if made and points > 0:
                for payer in self._others(ctx.actor):
                    self.side_payments.append((payer, ctx.actor, points))
                self._emit("award", ctx.actor, (), ("R-FIRST-TURN-AWARD",), reason=f"first_{kind}", points=points)

    def _check_sweep(self, ctx: _Turn) -> None:
        """R-SWEEP: checked on the table as it stands at the end of the turn."""
        o = self.o
        if o.sweep_steal <= 0 or not ctx.captures:
            return
        if o.sweep_definition == "table_empty_at_turn_end":
            swept = not any(self.table)
        else:
            start = self.table_at_start
            swept = len(start) == 2 and MONTH[start[0]] != MONTH[start[1]] and all(c in ctx.captures for c in start)
        if swept:
            self._emit("sweep", ctx.actor, (), ("R-SWEEP",), definition=o.sweep_definition)
            self._request("sweep", o.sweep_steal, ctx.actor)

    def _surrender(self, giver: int, taker: int, units: int, why: tuple[str, ...] = ()) -> None:
        """R-STEAL, R-STEAL-PAYERS, R-EVENTS-STACK: one combined request per opponent."""
        o = self.o
        pile = self.captured[giver]
        eligible = [c for c in pile if _CARDS[c].is_junk]
        if o.steal_cup_eligible:
            alloc = self._junk_duals(giver)
            eligible += [c for c in pile if c in alloc]
        unit_of = {c: (_CARDS[c].units if _CARDS[c].is_junk else 2) for c in eligible}
        if o.dec_ribbon == "junk" and DEC_RIBBON in pile:  # R-DEC-RIBBON: a plain junk card here
            eligible.append(DEC_RIBBON)
            unit_of[DEC_RIBBON] = 1
        if o.steal_multi_when_no_single == "give_nothing" and not any(unit_of[c] == 1 for c in eligible):
            eligible = []  # no single junk left: nothing is surrendered
        chosen = choose_surrender(sorted(eligible), unit_of, units, o.steal_selection)
        if not chosen:
            self._emit("steal", giver, (), ("R-STEAL", "R-STEAL-PAYERS", *why), to=taker, requested=units, units=0)
            return
        for c in chosen:
            self._lose(giver, c)
            self.moved[giver].discard(c)
        self._gain(taker, chosen)
        # a dual card can only be surrendered while it counts as junk, and stays junk for the taker
        self.moved[taker].update(c for c in chosen if not _CARDS[c].is_junk)
        self._emit(
            "steal",
            giver,
            chosen,
            ("R-STEAL", "R-STEAL-PAYERS", *why),
            to=taker,
            requested=units,
            units=sum(unit_of[c] for c in chosen),
        )

    def _junk_duals(self, seat: int) -> set[int]:
        """Dual cards of `seat` that currently count as junk (never under auto_best, R-STEAL)."""
        mode = self.o.dual_role_mode
        duals = dual_cards_in(self.captured[seat], self.o)
        if mode == "fixed_double_junk":
            return set(duals)
        if mode == "owner_one_way_to_junk":
            return {c for c in duals if c in self.moved[seat]}
        return set()

    def _advance(self, actor: int) -> None:
        """Next player with a hand card or a skip credit; otherwise the round ends (R-ROUND-END)."""
        if self.stock:
            for k in range(1, self.n + 1):
                seat = (actor + k) % self.n
                if self._has_turn(seat):
                    self.to_act = seat
                    self.decision = TURN
                    return
        self._round_exhausted()

    def _round_exhausted(self) -> None:
        """R-NAGARI, R-EXHAUST-AFTER-GO, R-PC-LEFTOVER, R-PC-END."""
        o = self.o
        if o.scoring_system == "point_count":
            left = [c for month in self.table for c in month] + [b for bs in self.stack_bonus.values() for b in bs]
            if left:
                self.table = [[] for _ in range(13)]
                self.stack_owner.clear()
                self.stack_bonus.clear()
                self._gain(self.last_actor, left)
                self._emit("leftover", self.last_actor, sorted(left), ("R-PC-LEFTOVER",))
            self._end(settle_point_count(self.captured, o))
            return
        callers = [s for s in range(self.n) if self.gos[s] > 0]
        if callers and o.deck_exhausted_after_go == "last_go_caller_wins":
            winner = max(callers, key=lambda s: (self.last_go_turn[s] or 0, s))
            self._end(settle_stop("last_go_caller_wins", winner, self._seats(), self.streak, o, self.carry_extra))
            return
        clauses = ("R-NAGARI", "R-EXHAUST-AFTER-GO") if callers else ("R-NAGARI",)
        self._end(settle_void("nagari", self.n, clauses, void_multiplier(self._seats(), o)))

    # ------------------------------------------------------------------ the next round

    def next_round(self) -> dict[str, Any]:
        """What this finished round hands to the next one (R-NEXT-DEALER, R-NAGARI-CARRY,
        R-REDEAL, R-MATCH-ROUNDS): its dealer, the void-round streak and carried multiplier, and
        whether this round counts toward match_rounds."""
        s = self.settlement
        assert s is not None, "the round is not over"
        o = self.o
        if s.kind == "redeal":
            return {"dealer": self.dealer, "nagari_streak": self.streak, "carried_multiplier": self.carry_extra, "counts_as_round": False}
        if s.kind == "nagari":
            carried = self.carry_extra * int(dict(s.detail).get("void_multiplier", 1))
            return {
                "dealer": self.dealer,
                "nagari_streak": self.streak + 1,
                "carried_multiplier": carried,
                "counts_as_round": o.nagari_counts_as_round,
            }
        winner = s.winner
        if winner is None:  # point-count: the best balance deals; ties: first in turn order from the dealer
            best = max(s.net)
            winner = next(seat for seat in ((self.dealer + k) % self.n for k in range(self.n)) if s.net[seat] == best)
        return {"dealer": winner, "nagari_streak": 0, "carried_multiplier": 1, "counts_as_round": True}

    # ------------------------------------------------------------------ state

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
            "hands": [list(_ids(h)) for h in self.hands],
            "table": list(_ids(sorted(c for month in self.table for c in month))),
            "stacks": stacks,
            "stock": list(_ids(list(reversed(self.stock)))),
            "captured": [list(_ids(p)) for p in self.captured],
            "players": [
                {
                    "gos": self.gos[s],
                    "go_base": self.go_base[s],
                    "shaken_months": sorted(self.shaken[s]),
                    "bombs": [m for m, _ in self.bombs[s]],
                    "skip_credits": self.credits[s],
                    "ppeoks": self.ppeoks[s],
                    "dual_junk": list(_ids(sorted(self.moved[s]))),
                }
                for s in range(self.n)
            ],
            "nagari_streak": self.streak,
        }


def choose_surrender(eligible: list[int], unit_of: dict[int, int], request: int, selection: str) -> list[int]:
    """R-STEAL: which of `eligible` (sorted by index) the giver surrenders for `request` units."""
    if not eligible or request <= 0:
        return []
    if sum(unit_of[c] for c in eligible) <= request:
        return list(eligible)
    if selection == "taker_lowest_first":
        out: list[int] = []
        got = 0
        for c in sorted(eligible, key=unit_of.__getitem__):  # by units; a stable sort keeps the index order
            if got >= request:
                break
            out.append(c)
            got += unit_of[c]
        return sorted(out)
    by_units: dict[int, list[int]] = {}
    for c in eligible:
        by_units.setdefault(unit_of[c], []).append(c)
    kinds = sorted(by_units)
    best: tuple[int, int, list[int]] | None = None

    def search(k: int, picked: list[int], got: int) -> None:
        nonlocal best
        if got >= request:
            key = (got - request, len(picked), sorted(picked))
            if best is None or key < best:
                best = key
            return
        if k == len(kinds):
            return
        cards = by_units[kinds[k]]
        for count in range(len(cards) + 1):
            search(k + 1, picked + cards[:count], got + count * kinds[k])
            if got + count * kinds[k] >= request:
                break

    search(0, [], 0)
    assert best is not None
    return best[2]
