"""One round of Go-Stop as a state machine: `legal_actions()`, `check(action)` and
`apply(action)` (R-TURN). The rules live in the layers it inherits, one concern each: `_state`,
`_dealtime`, `_legal`, `_steals`, `_turns`.

Every event carries the clause ids that produced it (the rule-hit trace). Clause ids in the
docstrings and `_emit` calls are greppable: R-MATCH, R-PPEOK, R-JJOK, ...
"""

from __future__ import annotations

from gostop_conformance.reference._deal import Deal, DealtCards, SplitMix64, deal_cards
from gostop_conformance.reference._events import Action, Event, Rejection
from gostop_conformance.reference._legal import HANDLERS
from gostop_conformance.reference._settlement import fixed_points, settle_fixed, settle_stop
from gostop_conformance.reference._state import (
    CHOOSE_HAND,
    GO_STOP,
    INDEX_OF,
    MONTH,
    NONE,
    PLAY_EVENTS,
    PLAY_EVENTS_POINT_COUNT,
    TURN,
    _ids,
    _Turn,
    equivalent,
)
from gostop_conformance.reference._turns import Turns
from gostop_conformance.spec import Ruleset


def seeded_round(ruleset: Ruleset, rng: SplitMix64, dealer: int) -> Round:
    """`Round(ruleset, seeded_deal(ruleset.options, rng, dealer))`, the same round (its snapshot and
    events; tests/reference_impl/test_deal.py), dealt straight into canonical indices: without
    the card ids a Deal spells and the round reads back (R-SHUFFLE, R-DEAL-ORDER)."""
    return Round(ruleset, deal_cards(ruleset.options, rng, dealer))  # made by the engine: nothing to check


class Round(Turns):
    """A round under a ruleset, started from a deal (seeded or explicit)."""

    def __init__(self, ruleset: Ruleset, deal: Deal | DealtCards | Round, *, check: bool = True) -> None:
        """A round from `deal`, checked against the ruleset unless `check` is false (a DealtCards,
        made by the engine, is never checked: `seeded_round`); or, given a round instead of a
        deal, a copy of that round (clone)."""
        if isinstance(deal, Round):
            self._copy(deal)
            return
        super().__init__(ruleset, deal, check=check)
        if isinstance(deal, Deal):
            self._deal_time([INDEX_OF[c] for c in deal.table], deal.stacks, deal.turn == 0 and deal.captured is None)
        else:
            self._deal_time(list(deal.table), None, True)
        self.deal_events = tuple(self._flush())

    def clone(self) -> Round:
        """An independent copy of the round in its current state (perft walks the tree with it)."""
        return Round(self.ruleset, self)

    def check(self, action: Action) -> Rejection | None:
        """Why `action` would be refused now, or None when `apply` would take it; changes nothing
        (python-chess's `is_legal`; R-TURN). An action `legal_actions()` lists is always taken."""
        try:
            self._check(action)
        except Rejection as refusal:
            return refusal
        return None

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return its events. The whole check runs first and only reads
        the state (`_legal`), so an illegal action raises Rejection having changed nothing."""
        # `_check` for each kind, then its applier, in one dispatch; the decision check of
        # `_legal._check_decision` written inline: a call less on every action
        decision = self.decision
        if decision == NONE:
            raise Rejection("round_over", "the round is over")
        if action.player != self.to_act:
            raise Rejection("not_your_turn", f"seat {self.to_act} is to act, not seat {action.player}")
        kind = action.type
        if kind not in HANDLERS[decision]:
            raise Rejection("wrong_decision", f"the pending decision is {decision!r}; a {kind!r} action does not answer it")
        if kind == "play":
            c, take = self._check_play(action)
            self._play(c, take, action.shake)
        elif kind == "take":
            self._take(self._check_take(action))
        elif kind == "go":
            self._check_go()
            self._go()
        elif kind == "stop":
            self._stop()
        elif kind == "bomb":
            self._bomb(self._check_bomb(action))
        elif kind == "skip":
            self._check_skip()
            self._skip()
        elif kind == "shake":
            self._do_shake(self.to_act, self._check_shake(action))
        elif kind == "bonus":
            self._bonus(self._check_bonus(action))
        elif kind == "dual_to_junk":
            self._dual_to_junk(self._check_dual(action))
        else:
            self._chongtong(self._check_chongtong(action))
        return self._flush()

    # ------------------------------------------------------------------ applying a checked action

    def _play(self, c: int, take: int, shake: bool) -> None:
        """R-MATCH, R-FREE-PLAY, R-TWO-MATCH-CHOICE, R-STACK-CAPTURE (hand side): hand card `c`,
        naming table card `take` (-1: none named), checked by `_check_play`."""
        o = self.o
        seat = self.to_act
        month = MONTH[c]
        on = self.table[month]
        self._begin_turn_action()
        if shake:
            self._do_shake(seat, month)
        self.seats[seat].hand.remove(c)
        # ("play", seat, (c,), ("R-TURN", "R-MATCH"[, "R-PC-PLAY"])), built once
        self._out.append((PLAY_EVENTS_POINT_COUNT if o.scoring_system == "point_count" else PLAY_EVENTS)[seat][c])
        if not on:
            ctx = _Turn(seat, "discard", month, c)
            on.append(c)
        elif month in self.stack_owner:
            ctx = _Turn(seat, "stack", month, c)
            self._capture_stack(ctx, month, extra=c)
        elif len(on) == 1:
            ctx = _Turn(seat, "pair", month, c, (on[0],))
        else:
            ctx = _Turn(seat, "pair2", month, c, (on[0], on[1]) if on[0] < on[1] else (on[1], on[0]))
            if equivalent(on[0], on[1]):
                ctx.hand_take = min(on)  # R-TWO-MATCH-CHOICE: equivalent cards, the lower index, whatever was named
            elif take >= 0:
                ctx.hand_take = take
        self._flip(ctx)
        self._resolve(ctx)

    def _bomb(self, month: int) -> None:
        """R-BOMB, R-BOMB-SKIP, R-BOMB-TWO (checked by `_check_bomb`)."""
        o = self.o
        seat = self.to_act
        self._begin_turn_action()
        played = [c for c in self.seats[seat].hand if MONTH[c] == month]
        two = len(played) == 2
        for c in played:
            self.seats[seat].hand.remove(c)
        ctx = _Turn(seat, "bomb", month)
        ctx.captures.extend(sorted(played + self.table[month]))
        self.table[month] = []
        clauses = ("R-BOMB-TWO",) if two else ("R-BOMB",)
        steal = 0 if two and o.two_card_bomb == "capture_only" else o.bomb_steal
        multiplier = not two or o.two_card_bomb == "full_bomb"
        self.seats[seat].bombs.append((month, multiplier))
        if steal:
            self.pending_steals.append(("bomb", steal, self._others(seat)))
        credits = 0
        if o.bomb_compensation == "skip_credits_2" and (not two or o.two_card_bomb == "full_bomb"):
            credits = len(played) - 1
            self.seats[seat].skip_credits += credits
        self._emit("bomb", seat, played, (*clauses, "R-BOMB-SKIP"), {"month": month, "skip_credits": credits})
        self._flip(ctx)
        self._resolve(ctx)

    def _skip(self) -> None:
        """R-BOMB-SKIP: a flip-only turn (checked by `_check_skip`)."""
        seat = self.to_act
        self._begin_turn_action()
        p = self.seats[seat]
        p.skip_credits -= 1
        self._emit("skip", seat, (), ("R-BOMB-SKIP",), {"skip_credits": p.skip_credits})
        ctx = _Turn(seat, "skip")
        self._flip(ctx)
        self._resolve(ctx)

    def _bonus(self, c: int) -> None:
        """R-BONUS-HAND: captured at once and replaced by the top stock card; the turn goes on."""
        seat = self.to_act
        self.seats[seat].hand.remove(c)
        self._gain(seat, [c])
        self.turn_bonus.append(c)
        replacement: tuple[int, ...] = ()
        self.forced_card = None
        if self.stock:
            r = self.stock.pop()
            hand = self.seats[seat].hand
            hand.append(r)
            hand.sort()
            replacement = (r,)
            if self.o.bonus_replacement_use == "must_play_replacement":
                self.forced_card = r
        if self.o.bonus_steal:
            self.pending_steals.append(("bonus", self.o.bonus_steal, self._others(seat)))
        self._emit("bonus", seat, (c,), ("R-BONUS-HAND", "R-BONUS-STEAL"), {"source": "hand", "replacement": list(_ids(replacement))})

    def _chongtong(self, month: int) -> None:
        """R-CHONGTONG (instant_win_or_continue): the holder shows the four and wins at once."""
        seat = self.to_act
        o = self.o
        self._emit("chongtong", seat, [c for c in self.seats[seat].hand if MONTH[c] == month], ("R-CHONGTONG",), {"month": month})
        points = fixed_points(o, o.chongtong_points)
        self._end(settle_fixed("chongtong", seat, points, self.n, self.nagari_streak, o, ("R-CHONGTONG",), self.carried_multiplier))

    def _dual_to_junk(self, c: int) -> None:
        """R-DUAL-ROLE (owner_one_way_to_junk): irrevocable."""
        seat = self.to_act
        self.seats[seat].dual_junk.add(c)
        self._emit("dual_to_junk", seat, (c,), ("R-DUAL-ROLE",))
        if self.decision == GO_STOP and not self._go_eligible(seat, self._base(seat)):
            self._advance(seat)  # the Go/Stop decision lapses (R-GO-WHEN)

    def _take(self, c: int) -> None:
        """R-TWO-MATCH-CHOICE: answer a choose_hand_match / choose_flip_match decision."""
        ctx = self.ctx
        assert ctx is not None
        if self.decision == CHOOSE_HAND:
            ctx.hand_take = c
        else:
            ctx.flip_take = c
        self.ctx = None
        self.decision = TURN
        self._resolve(ctx)

    def _go(self) -> None:
        """R-GO-WHEN, R-GO-RISE, R-GO-LAST (checked by `_check_go`)."""
        seat = self.to_act
        p = self.seats[seat]
        p.gos += 1
        p.go_base = self._base(seat)
        if p.first_go_turn is None:
            p.first_go_turn = self.turn_no
        p.last_go_turn = self.turn_no
        self._emit("go", seat, (), ("R-GO-WHEN", "R-GO-BONUS"), {"gos": p.gos, "base": p.go_base})
        self._advance(seat)

    def _stop(self) -> None:
        """R-GO-WHEN: Stop ends the round; the caller wins (R-SETTLE)."""
        seat = self.to_act
        self._emit("stop", seat, (), ("R-GO-WHEN",), {"base": self._base(seat)})
        self._end(settle_stop("stop", seat, self._seats(), self.nagari_streak, self.o, self.carried_multiplier))
