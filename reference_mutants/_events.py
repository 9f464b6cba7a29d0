"""Semantic mutants of ppeok, jjok, ttadak, steals and their exemptions, the first-turn awards,
three ppeoks, shake, bomb, the two-card bomb, a four in hand and chongtong (R-PPEOK,
R-PPEOK-CAPTURE, R-JJOK, R-TTADAK, R-STEAL, R-FINAL-TURN, R-FIRST-TURN-AWARD, R-THREE-PPEOK,
R-SHAKE, R-BOMB-SKIP, R-BOMB-TWO, R-FOUR-IN-HAND-LATER, R-CHONGTONG, R-CHONGTONG-MULTI): each one
a bug a real engine author could make reading the rules prose (_set.py gathers
every set)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Final

import gostop_conformance.reference._actions as actions_mod
import gostop_conformance.reference._dealtime as dealtime_mod
import gostop_conformance.reference._legal as legal_mod
import gostop_conformance.reference._settlement as settlement_mod
import gostop_conformance.reference._state as state_mod
import gostop_conformance.reference._steals as steals_mod
import gostop_conformance.reference._turns as turns_mod
from gostop_conformance.mutants._base import Mutant, Patch, _instant_win_repaid, _options

Hook = Callable[[state_mod.RoundState, Any], None]


def _skip_flip_jjok() -> list[Patch]:
    """A flip that pairs a single table card on a skip turn, where the hand captured nothing, is
    taken for a jjok (R-JJOK: only a played hand card can make one)."""
    original = turns_mod.finish

    def finish(self: state_mod.RoundState, ctx: Any) -> None:
        if ctx.mode == "skip" and ctx.flip is not None and len(ctx.captures) == 2 and ctx.flip in ctx.captures:
            steals_mod.request(self, "jjok", self.o.jjok_steal, ctx.actor)
        original(self, ctx)

    return [(turns_mod, "finish", finish)]


def _flip_hook(hook: Hook) -> list[Patch]:
    """Patch Round._flip: `hook(round, turn)` runs just before the flip, when `_bomb` has already
    removed the played cards, requested its steal and given its credits."""
    original = turns_mod.flip

    def flip(self: state_mod.RoundState, ctx: Any) -> None:
        hook(self, ctx)
        original(self, ctx)

    return [(turns_mod, "flip", flip)]


def _bomb_also_ttadak() -> list[Patch]:
    """A bomb takes all four cards of a month, so it is also paid as a ttadak."""

    def hook(rnd: state_mod.RoundState, ctx: Any) -> None:
        if ctx.mode == "bomb":
            steals_mod.request(rnd, "ttadak", rnd.o.ttadak_steal, ctx.actor)

    return _flip_hook(hook)


def _bomb_played(rnd: state_mod.RoundState, ctx: Any) -> int:
    """How many hand cards this turn's bomb played, read from its `bomb` event (0: no bomb)."""
    if ctx.mode != "bomb":
        return 0
    return next((len(e.cards) for e in reversed(rnd.events) if e.kind == "bomb"), 0)


def _two_card_credit() -> list[Patch]:
    """Every two-card bomb gives its skip credit, not only a full bomb (R-BOMB-TWO)."""

    def hook(rnd: state_mod.RoundState, ctx: Any) -> None:
        o = rnd.o
        if (
            ctx.mode == "bomb"
            and _bomb_played(rnd, ctx) == 2
            and o.two_card_bomb != "full_bomb"
            and o.bomb_compensation == "skip_credits_2"
        ):
            rnd.seats[ctx.actor].skip_credits += 1

    return _flip_hook(hook)


def _capture_only_steals() -> list[Patch]:
    """A two-card bomb under capture_only still takes the bomb steal."""

    def hook(rnd: state_mod.RoundState, ctx: Any) -> None:
        o = rnd.o
        if ctx.mode == "bomb" and _bomb_played(rnd, ctx) == 2 and o.two_card_bomb == "capture_only":
            steals_mod.request(rnd, "bomb", o.bomb_steal, ctx.actor)

    return _flip_hook(hook)


def _credit_per_card() -> list[Patch]:
    """A bomb gives one skip credit per card played instead of one per extra card."""

    def hook(rnd: state_mod.RoundState, ctx: Any) -> None:
        o = rnd.o
        played = _bomb_played(rnd, ctx) if ctx.mode == "bomb" else 0
        if played and o.bomb_compensation == "skip_credits_2" and (played == 3 or o.two_card_bomb == "full_bomb"):
            rnd.seats[ctx.actor].skip_credits += 1

    return _flip_hook(hook)


def _two_card_without_bomb() -> list[Patch]:
    """bomb_enabled = false switches off the three-card bomb only: two-card bombs stay allowed."""
    original = legal_mod.bomb_months

    def months(self: state_mod.RoundState, seat: int) -> list[int]:
        o = self.o
        if o.bomb_enabled or o.two_card_bomb == "off":
            return original(self, seat)
        counts = state_mod.month_counts(self, seat)
        return [m for m, held in enumerate(counts) if held == 2 and m not in self.stack_owner and len(self.table[m]) == 2]

    return [(legal_mod, "bomb_months", months)]


def _ppeok_steals() -> list[Patch]:
    """Making a ppeok is paid like capturing a stack: one junk from each opponent."""
    original = turns_mod.ppeok

    def ppeok(self: state_mod.RoundState, ctx: Any, f: int) -> None:
        original(self, ctx, f)
        if ctx.made_ppeok:
            steals_mod.request(self, "stack_capture", self.o.ppeok_capture_steal, ctx.actor)

    return [(turns_mod, "ppeok", ppeok)]


def _stack_capture_rewrite(drop: Callable[[state_mod.RoundState, Any, int | None, int], bool]) -> list[Patch]:
    """Patch Round._capture_stack: the steal it requests is dropped when `drop(round, turn, owner,
    fourth card)` holds."""
    original = turns_mod.capture_stack

    def capture(self: state_mod.RoundState, ctx: Any, month: int, extra: int) -> None:
        owner = self.stack_owner.get(month)
        before = len(self.pending_steals)
        original(self, ctx, month, extra)
        if drop(self, ctx, owner, extra):
            del self.pending_steals[before:]

    return [(turns_mod, "capture_stack", capture)]


def _flipped_ppeok_no_steal(rnd: state_mod.RoundState, ctx: Any, owner: int | None, extra: int) -> bool:
    """Only a hand card taking a ppeok stack is paid; a flipped fourth card just captures it."""
    return owner is not None and extra == ctx.flip and extra != ctx.hand


def _own_ppeok_creator_only(rnd: state_mod.RoundState, ctx: Any, owner: int | None, extra: int) -> bool:
    """Under creator_only the payer is the stack's creator even when the creator captures it,
    so a jappeok is paid by nobody."""
    return owner == ctx.actor and rnd.o.ppeok_steal_payers == "creator_only"


def _choose_by(key: Callable[[int, int, list[int]], Any]) -> list[Patch]:
    """Replace the giver_min_units choice of R-STEAL: among the sets worth at least the request,
    the one with the least `key(surplus, cards, indices)`."""
    original = steals_mod.choose_surrender

    def choose(eligible: list[int], unit_of: dict[int, int], request: int, selection: str) -> list[int]:
        if selection != "giver_min_units" or not eligible or request <= 0 or sum(unit_of[c] for c in eligible) <= request:
            return original(eligible, unit_of, request, selection)
        by_units: dict[int, list[int]] = {}
        for c in eligible:
            by_units.setdefault(unit_of[c], []).append(c)
        kinds = sorted(by_units)
        best: tuple[Any, list[int]] | None = None
        for counts in itertools.product(*(range(len(by_units[k]) + 1) for k in kinds)):
            got = sum(n * k for n, k in zip(counts, kinds, strict=True))
            if got < request:
                continue
            picked = sorted(c for n, k in zip(counts, kinds, strict=True) for c in by_units[k][:n])
            cand = (key(got - request, len(picked), picked), picked)
            if best is None or cand[0] < best[0]:
                best = cand
        assert best is not None
        return best[1]

    return [(steals_mod, "choose_surrender", choose)]


def _shake_again_with_four() -> list[Patch]:
    """A month already shaken once may be shaken again while all four of its cards are in hand (a
    fourth card drawn after a shake of three, or a dealt four under hand_chongtong = ignore)."""
    original = legal_mod.shake_months

    def months(self: state_mod.RoundState, seat: int, counts: list[int] | None = None) -> list[int]:
        out = original(self, seat, counts)
        counts = counts or state_mod.month_counts(self, seat)
        p = self.seats[seat]
        again = [m for m in set(p.shaken_months) if counts[m] == 4 and p.shaken_months.count(m) == 1 and self.o.shake_enabled]
        return sorted(set(out) | set(again))

    return [(legal_mod, "shake_months", months)]


def _later_four_chongtong() -> list[Patch]:
    """A four of a month completed in hand by a bonus replacement wins at once as a chongtong
    (R-FOUR-IN-HAND-LATER: it is never one)."""
    original = actions_mod.bonus

    def bonus(self: state_mod.RoundState, c: int) -> None:
        original(self, c)
        o = self.o
        seat = self.to_act
        if o.hand_chongtong == "instant_win" and 4 in state_mod.month_counts(self, seat)[1:]:
            points = settlement_mod.fixed_points(o, o.chongtong_points)
            state_mod.end(
                self,
                settlement_mod.settle_fixed(
                    "chongtong", seat, points, self.n, self.nagari_streak, o, ("R-CHONGTONG",), self.carried_multiplier
                ),
            )

    return [(actions_mod, "bonus", bonus)]


def _chongtong_per_month() -> list[Patch]:
    """A chongtong holder with two complete months is paid once per month."""

    def pay(rnd: state_mod.RoundState, s: Any, payer: int, amount: int) -> int:
        if s.kind != "chongtong":
            return amount
        months = sum(1 for k in state_mod.month_counts(rnd, s.winner)[1:] if k == 4)
        return amount * max(months, 1)

    return _instant_win_repaid(pay)


def _higher_month_by_lowest() -> list[Patch]:
    """Under higher_month each holder is ranked by their first (lowest) complete month, not the higher one."""
    original = dealtime_mod.hand_chongtong

    def hand_chongtong(self: state_mod.RoundState) -> Any:
        s = original(self)
        o = self.o
        if s is None or s.kind != "chongtong" or o.multiple_chongtong != "higher_month" or "R-CHONGTONG-MULTI" not in s.clauses:
            return s
        lowest = {}
        for seat in range(self.n):
            full = [m for m, k in enumerate(state_mod.month_counts(self, seat)) if m and k == 4]
            if full:
                lowest[seat] = min(full)
        winner = max(lowest, key=lambda seat: lowest[seat])
        if winner == s.winner:
            return s
        points = settlement_mod.fixed_points(o, o.chongtong_points)
        return settlement_mod.settle_fixed("chongtong", winner, points, self.n, self.nagari_streak, o, s.clauses, self.carried_multiplier)

    return [(dealtime_mod, "hand_chongtong", hand_chongtong)]


def _award_round_first_turn() -> list[Patch]:
    """The "first turn" read as the round's first move: only the player who opens the round can earn an award."""
    original = turns_mod.first_turn_awards

    def awards(self: state_mod.RoundState, ctx: Any) -> None:
        if sum(p.turns_taken for p in self.seats) == 1:  # the actor's own count is already 1
            original(self, ctx)

    return [(turns_mod, "first_turn_awards", awards)]


def _award_carried() -> list[Patch]:
    """The first-turn award is multiplied by the nagari carry, like a chongtong."""
    original = turns_mod.first_turn_awards

    def awards(self: state_mod.RoundState, ctx: Any) -> None:
        before = len(self.side_payments)
        original(self, ctx)
        carry = settlement_mod.carry_factor(self.nagari_streak, self.o) * self.carried_multiplier
        self.side_payments[before:] = [(payer, payee, points * carry) for payer, payee, points in self.side_payments[before:]]

    return [(turns_mod, "first_turn_awards", awards)]


def _three_ppeok_round_total() -> list[Patch]:
    """The round's third ppeok, whoever made the other two, wins for its maker."""
    original = turns_mod.finish

    def finish(self: state_mod.RoundState, ctx: Any) -> None:
        me = self.seats[ctx.actor]
        own = me.ppeoks
        if ctx.made_ppeok and own != 3 and sum(p.ppeoks for p in self.seats) == 3:
            me.ppeoks = 3
            try:
                original(self, ctx)
            finally:
                me.ppeoks = own
            return
        original(self, ctx)

    return [(turns_mod, "finish", finish)]


def _later_four_declarable() -> list[Patch]:
    """Every four held at the start of a turn may be declared, however it was completed."""

    def chongtong_months(self: state_mod.RoundState, seat: int) -> list[int]:
        if self.o.hand_chongtong != "instant_win_or_continue" or self.forced_card is not None:
            return []
        counts = state_mod.month_counts(self, seat)
        return [m for m in range(1, 13) if counts[m] == 4]

    return [(legal_mod, "chongtong_months", chongtong_months)]


MUTANTS: Final[tuple[Mutant, ...]] = (
    Mutant(
        "jjok-from-skip-flip", "events", "R-JJOK", "a skip turn's flip that pairs a single table card is paid as a jjok", _skip_flip_jjok
    ),
    Mutant("bomb-also-ttadak", "events", "R-TTADAK", "a bomb is also paid as a ttadak", _bomb_also_ttadak),
    Mutant("ppeok-making-steals", "events", "R-PPEOK", "making a ppeok takes one junk from each opponent", _ppeok_steals),
    Mutant(
        "ppeok-payers-all-opponents",
        "events",
        "R-PPEOK-CAPTURE",
        "ppeok_steal_payers = creator_only is ignored: every opponent pays",
        _options(lambda o: {"ppeok_steal_payers": "all_opponents"}),
    ),
    Mutant(
        "jappeok-paid-by-creator-only",
        "events",
        "R-PPEOK-CAPTURE",
        "under creator_only a player capturing their own ppeok is paid by nobody",
        lambda: _stack_capture_rewrite(_own_ppeok_creator_only),
    ),
    Mutant(
        "flipped-ppeok-capture-no-steal",
        "events",
        "R-PPEOK-CAPTURE",
        "a ppeok stack taken by a flipped fourth card grants no steal",
        lambda: _stack_capture_rewrite(_flipped_ppeok_no_steal),
    ),
    Mutant(
        "jjok-steal-on-final-turn",
        "events",
        "R-FINAL-TURN",
        "the jjok steal is granted on the final turn",
        _options(lambda o: {"final_turn_exempt": o.final_turn_exempt - {"jjok"}}),
    ),
    Mutant(
        "steal-give-nothing-ignored",
        "events",
        "R-STEAL",
        "steal_multi_when_no_single = give_nothing is ignored: a giver with no single junk gives a multi-unit card",
        _options(lambda o: {"steal_multi_when_no_single": "give_multi"}),
    ),
    Mutant(
        "steal-taker-lowest-ignored",
        "events",
        "R-STEAL",
        "steal_selection = taker_lowest_first is ignored: the giver's least costly set is surrendered",
        _options(lambda o: {"steal_selection": "giver_min_units"}),
    ),
    Mutant(
        "steal-cup-never-eligible",
        "events",
        "R-STEAL",
        "steal_cup_eligible is ignored: a dual card counted as junk is never surrendered",
        _options(lambda o: {"steal_cup_eligible": False}),
    ),
    Mutant(
        "steal-singles-on-tie",
        "events",
        "R-STEAL",
        "among sets of equal surplus the giver surrenders the one with the most cards",
        lambda: _choose_by(lambda surplus, cards, picked: (surplus, -cards, picked)),
    ),
    Mutant(
        "steal-fewest-cards-first",
        "events",
        "R-STEAL",
        "the giver surrenders the fewest cards reaching the request, whatever the surplus",
        lambda: _choose_by(lambda surplus, cards, picked: (cards, surplus, picked)),
    ),
    Mutant(
        "three-ppeok-round-total",
        "events",
        "R-THREE-PPEOK",
        "the round's third ppeok wins for its maker, counting every player's ppeoks",
        _three_ppeok_round_total,
    ),
    Mutant(
        "first-award-round-first-move",
        "events",
        "R-FIRST-TURN-AWARD",
        "only the round's first move can earn a first-turn award",
        _award_round_first_turn,
    ),
    Mutant("first-award-carried", "events", "R-FIRST-TURN-AWARD", "a first-turn award is multiplied by the nagari carry", _award_carried),
    Mutant(
        "shake-absent-ignored",
        "declarations",
        "R-SHAKE",
        "shake_requires_month_absent is ignored: a month on the table may be shaken",
        _options(lambda o: {"shake_requires_month_absent": False}),
    ),
    Mutant(
        "shake-at-turn-start-always",
        "declarations",
        "R-SHAKE",
        "shake_declaration = with_triple_card_play is ignored: shakes are turn-start declarations",
        _options(lambda o: {"shake_declaration": "any_own_turn_start"}),
    ),
    Mutant(
        "shake-again-with-four",
        "declarations",
        "R-SHAKE",
        "a month already shaken may be shaken again while all four of its cards are in hand",
        _shake_again_with_four,
    ),
    Mutant("bomb-credit-per-card", "declarations", "R-BOMB-SKIP", "a bomb gives one skip credit per card played", _credit_per_card),
    Mutant(
        "two-card-bomb-without-bomb",
        "declarations",
        "R-BOMB-TWO",
        "bomb_enabled = false still allows the two-card bomb",
        _two_card_without_bomb,
    ),
    Mutant(
        "two-card-bomb-always-credit",
        "declarations",
        "R-BOMB-TWO",
        "every two-card bomb gives a skip credit, not only a full bomb",
        _two_card_credit,
    ),
    Mutant(
        "two-card-capture-only-steals",
        "declarations",
        "R-BOMB-TWO",
        "a two-card bomb under capture_only still takes the bomb steal",
        _capture_only_steals,
    ),
    Mutant(
        "four-in-hand-shake-x4",
        "declarations",
        "R-FOUR-IN-HAND-LATER",
        "a shake of four cards counts x4 under shake_once",
        _options(lambda o: {"four_in_hand_later": "four_card_shake_x4"}),
    ),
    Mutant(
        "later-four-is-chongtong",
        "declarations",
        "R-FOUR-IN-HAND-LATER",
        "a four completed in hand by a bonus replacement wins as a chongtong",
        _later_four_chongtong,
    ),
    Mutant(
        "chongtong-multipliers-ignored",
        "deal",
        "R-CHONGTONG",
        "chongtong_multipliers = none is ignored: the nagari carry multiplies a chongtong",
        _options(lambda o: {"chongtong_multipliers": "nagari_carry_only"}),
    ),
    Mutant("chongtong-paid-per-month", "deal", "R-CHONGTONG", "a chongtong of two months is paid twice", _chongtong_per_month),
    Mutant(
        "chongtong-rank-by-lowest-month",
        "deal",
        "R-CHONGTONG-MULTI",
        "under higher_month each holder is ranked by their lowest complete month",
        _higher_month_by_lowest,
    ),
    Mutant(
        "chongtong-from-later-four",
        "deal",
        "R-FOUR-IN-HAND-LATER",
        "under instant_win_or_continue a four completed in hand during play is declared as a chongtong",
        _later_four_declarable,
    ),
)
