"""Semantic mutants of the places where two rules meet, written from the rules text of
spec/rules/*.yaml: each one gets every rule right on its own and slips where the rules interact
(the four kinds of scenarios/interactions.yaml):

- count: something counted once where the rules count each one (two stacks captured in one turn,
  a loser's Gos, the winner's shakes and bombs, a loser's baks, a player's first ppeok);
- threshold: a threshold reached exactly, or reached by the last thing that happened (a loser
  with exactly `pi_bak_max_units` junk units, the seventh animal, the tenth junk unit, the Go
  threshold reached by a stolen card, a losing Go-caller below the threshold, the Go rise after
  a steal);
- order: the order in which the event log reports several events of one turn (spec/vocabulary.yaml
  `event_order`, normative for scenarios with `event_log: true`);
- tie: who did something first or last (two Go-callers, the actor's last card while the opponent
  still holds cards).

Every mutant changes what the reference engine does in some reachable two-player round
(`KINDS` names each one's kind; _set.py gathers every set).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any, Final

import gostop_conformance.reference._actions as actions_mod
import gostop_conformance.reference._cards as cards_mod
import gostop_conformance.reference._scoring as scoring_mod
import gostop_conformance.reference._settlement as settlement_mod
import gostop_conformance.reference._state as state_mod
import gostop_conformance.reference._steals as steals_mod
import gostop_conformance.reference._turns as turns_mod
from gostop_conformance.mutants._base import Mutant, Patch, _options
from gostop_conformance.reference._events import Event
from gostop_conformance.spec import Options

_PAY_FOR_ALL: Final = ("pay_for_all", "pay_for_all_doubled")


# ------------------------------------------------------------------ count


def _stack_captures_steal_once() -> list[Patch]:
    """Two stacks captured in one turn (the hand card takes one, the flipped card another) grant
    a single stack-capture steal: the engine keeps a per-turn flag instead of one request per
    capture (R-EVENTS-STACK: every request of the turn is added up)."""
    original = steals_mod.perform_steals

    def perform(self: state_mod.RoundState, actor: int, final: bool) -> None:
        kept: list[tuple[str, int, tuple[int, ...]]] = []
        for request in self.pending_steals:
            if request[0] != "stack_capture" or all(k[0] != "stack_capture" for k in kept):
                kept.append(request)
        self.pending_steals = kept
        original(self, actor, final)

    return [(steals_mod, "perform_steals", perform)]


def _reamounted(amount: Callable[[settlement_mod.LoserLine, settlement_mod.Seat, settlement_mod.Settlement, Options], int]) -> list[Patch]:
    """Patch settlement._settle_with: `amount(line, loser's seat, settlement, options)` is each
    non-exempt loser's amount instead of W x 2^k; what each loser pays follows R-GO-BAK."""
    original = settlement_mod._settle_with

    def settle_with(
        kind: Any,
        winner: int,
        seats: Sequence[settlement_mod.Seat],
        streak: int,
        o: Options,
        win: Any,
        extra: int,
        scores: Any,
    ) -> settlement_mod.Settlement:
        s = original(kind, winner, seats, streak, o, win, extra, scores)
        lines = [line if line.exempt else line._replace(amount=amount(line, seats[line.seat], s, o)) for line in s.losers]
        liable = next((line.seat for line in lines if "go_bak" in line.baks), None) if o.go_bak_mode in _PAY_FOR_ALL else None
        if liable is None:
            lines = [line._replace(pays=line.amount) for line in lines]
        else:
            total = sum(line.amount for line in lines) * (2 if o.go_bak_mode == "pay_for_all_doubled" else 1)
            lines = [line._replace(pays=total if line.seat == liable else 0) for line in lines]
        payments = tuple((line.seat, winner, line.pays) for line in lines if line.pays)
        net = [0] * len(seats)
        for payer, payee, paid in payments:
            net[payer] -= paid
            net[payee] += paid
        return s._replace(losers=tuple(lines), payments=payments, net=tuple(net))

    return [(settlement_mod, "_settle_with", settle_with)]


def _counted_baks(line: settlement_mod.LoserLine, o: Options) -> int:
    """The baks that doubled a loser's amount (under pay_for_all `go_bak` only marks the liability)."""
    return sum(1 for b in line.baks if b != "go_bak" or o.go_bak_mode not in _PAY_FOR_ALL)


def _go_bak_per_go() -> list[Patch]:
    """Go-bak doubles a losing Go-caller's amount once for each of their Go calls (R-GO-BAK: it
    is one bak, whatever the number of Gos)."""

    def amount(line: settlement_mod.LoserLine, seat: settlement_mod.Seat, s: settlement_mod.Settlement, o: Options) -> int:
        if o.go_bak_mode == "double_own" and "go_bak" in line.baks and seat.gos > 1:
            return line.amount << (seat.gos - 1)
        return line.amount

    return _reamounted(amount)


def _baks_counted_once() -> list[Patch]:
    """A loser with several baks pays double once: the engine keeps a flag, not a count
    (R-SETTLE: amount(L) = W x 2^k(L), every bak doubling)."""

    def amount(line: settlement_mod.LoserLine, seat: settlement_mod.Seat, s: settlement_mod.Settlement, o: Options) -> int:
        return s.points * 2 if _counted_baks(line, o) > 1 else line.amount

    return _reamounted(amount)


def _shakes_bombs_counted_once() -> list[Patch]:
    """The winner's shakes and bombs double the winnings once, however many there are: only the
    largest of their factors applies (R-SHAKE-BOMB-MULT: the product of a factor for each)."""

    def own(s: settlement_mod.Seat, o: Options) -> int:
        factors = list(s.shake_factors)
        factors += [o.bomb_multiplier for month, counts in s.bombs if counts and (month not in s.shaken_months or o.shake_then_bomb_stacks)]
        return max(factors, default=1)

    return [(settlement_mod, "_own_shake_bomb_factor", own)]


def _first_ppeok_award_any_turn() -> list[Patch]:
    """The first-ppeok award (첫뻑) is paid for a player's first ppeok of the round, on whichever
    turn it comes (R-FIRST-TURN-AWARD: only a ppeok made on the player's own first turn)."""
    original = turns_mod.finish

    def finish(self: state_mod.RoundState, ctx: Any) -> None:
        me = self.seats[ctx.actor]
        taken = me.turns_taken
        later_first = bool(ctx.made_ppeok) and me.ppeoks == 1 and taken > 0
        if later_first:
            me.turns_taken = 0  # the award check reads the turns taken
        try:
            original(self, ctx)
        finally:
            if later_first:
                me.turns_taken = taken + 1

    return [(turns_mod, "finish", finish)]


# ------------------------------------------------------------------ threshold


def _meongtta_from_eight() -> list[Patch]:
    """Seven animals are counted with `>` instead of `>=`: meongtta (and the seven-animal
    meong-bak) need eight (R-MEONG: 7 or more)."""
    return [(settlement_mod, "MEONGTTA_ANIMALS", settlement_mod.MEONGTTA_ANIMALS + 1)]


def _go_threshold_before_steals() -> list[Patch]:
    """The Go/Stop eligibility is judged on the base score before the turn's steals, so a point
    completed by a stolen junk card offers nothing (R-GO-WHEN: the decision comes after the
    steals, on the score they made)."""
    before: weakref.WeakKeyDictionary[state_mod.RoundState, tuple[int, int]] = weakref.WeakKeyDictionary()
    perform_original = steals_mod.perform_steals
    eligible_original = state_mod.go_eligible

    def perform(self: state_mod.RoundState, actor: int, final: bool) -> None:
        before[self] = (actor, state_mod.base(self, actor))
        perform_original(self, actor, final)

    def eligible(self: state_mod.RoundState, seat: int, base: int) -> bool:
        seen = before.pop(self, None)
        if seen is not None and seen[0] == seat:
            base = seen[1]
        return eligible_original(self, seat, base)

    return [(steals_mod, "perform_steals", perform), (state_mod, "go_eligible", eligible)]


def _go_bak_needs_threshold() -> list[Patch]:
    """A losing Go-caller whose base score has fallen below `go_threshold` (junk stolen since
    the Go) is no longer go-bak: the engine asks whether the loser is "still on Go" (R-GO-MULTI,
    R-GO-RISE: a Go-caller stays one for the rest of the round)."""
    original = settlement_mod._settle_with

    def settle_with(
        kind: Any,
        winner: int,
        seats: Sequence[settlement_mod.Seat],
        streak: int,
        o: Options,
        win: Any,
        extra: int,
        scores: Any,
    ) -> settlement_mod.Settlement:
        fallen = [
            s._replace(gos=0) if i != winner and s.gos and scoring_mod.best_base(s.captured, o, s.dual_junk) < o.go_threshold else s
            for i, s in enumerate(seats)
        ]
        return original(kind, winner, fallen, streak, o, win, extra, scores)

    return [(settlement_mod, "_settle_with", settle_with)]


def _go_rise_after_steal_loss() -> list[Patch]:
    """A Go-caller's recorded base drops with the junk stolen from them, so regaining it offers
    Go or Stop again (R-GO-RISE: the comparison always uses the base recorded at the Go)."""
    original = steals_mod.surrender

    def surrender(self: state_mod.RoundState, giver: int, taker: int, units: int, why: tuple[str, ...] = ()) -> None:
        original(self, giver, taker, units, why)
        p = self.seats[giver]
        if p.gos:
            p.go_base = min(p.go_base, state_mod.base(self, giver))

    return [(steals_mod, "surrender", surrender)]


# ------------------------------------------------------------------ order (the event log)

_STEAL_EVENTS: Final = ("steal", "steal_exempt")


def _steals_before_captures() -> list[Patch]:
    """The turn's steals are reported as its events are found, before the turn's capture
    (event_order: the capture, the sweep and awards, then the withheld steals and the steals)."""
    original = turns_mod.finish

    def finish(self: state_mod.RoundState, ctx: Any) -> None:
        mark = len(self.events)
        original(self, ctx)
        new = self.events[mark:]
        steals = [e for e in new if e.kind in _STEAL_EVENTS]
        at = next((i for i, e in enumerate(new) if e.kind == "capture"), None)
        if steals and at is not None:
            rest = [e for e in new if e.kind not in _STEAL_EVENTS]
            self.events[mark:] = [*rest[:at], *steals, *rest[at:]]

    return [(turns_mod, "finish", finish)]


def _bomb_flip_capture_first() -> list[Patch]:
    """A bomb turn reports two captures, the flipped card's first and the bomb's four cards
    after it (R-BOMB, event_order: the bomb, the flip, then the turn's one capture event)."""
    original = turns_mod.finish

    def finish(self: state_mod.RoundState, ctx: Any) -> None:
        mark = len(self.events)
        original(self, ctx)
        if ctx.mode != "bomb":
            return
        new = self.events[mark:]
        at = next((i for i, e in enumerate(new) if e.kind == "capture"), None)
        if at is None:
            return
        e = new[at]
        bomb = tuple(c for c in e.cards if cards_mod.MONTH[cards_mod.INDEX_OF[c]] == ctx.month)
        flip = tuple(c for c in e.cards if c not in bomb)
        if bomb and flip:
            new[at : at + 1] = [
                Event(kind="capture", player=e.player, cards=flip, clauses=e.clauses, data=e.data),
                Event(kind="capture", player=e.player, cards=bomb, clauses=e.clauses, data=e.data),
            ]
            self.events[mark:] = new

    return [(turns_mod, "finish", finish)]


def _flipped_bonus_after_flip() -> list[Patch]:
    """Bonus cards flipped from the stock are reported after the card flipped in their place
    (R-BONUS-FLIP, event_order: `bonus* flip`)."""
    original = turns_mod.flip

    def flip(self: state_mod.RoundState, ctx: Any) -> None:
        mark = len(self.events)
        original(self, ctx)
        new = self.events[mark:]
        bonus = [e for e in new if e.kind == "bonus"]
        if bonus and ctx.flip is not None:
            self.events[mark:] = [*(e for e in new if e.kind != "bonus"), *bonus]

    return [(turns_mod, "flip", flip)]


# ------------------------------------------------------------------ tie


def _go_bak_last_caller_only() -> list[Patch]:
    """Only the round's latest Go-caller is go-bak: the engine remembers one "player on Go",
    so a loser whose Go was followed by the winner's own Go pays like any loser (R-GO-MULTI:
    every loser who called at least one Go is a losing Go-caller)."""
    original = actions_mod.stop

    def stop(self: state_mod.RoundState) -> None:
        winner = self.to_act
        callers = [s for s in range(self.n) if self.seats[s].gos]
        latest = max(callers, key=lambda s: (self.seats[s].last_go_turn or 0, s)) if callers else None
        cleared = {s: self.seats[s].gos for s in callers if s not in (winner, latest)}
        for s in cleared:
            self.seats[s].gos = 0
        try:
            original(self)
        finally:
            for s, gos in cleared.items():
                self.seats[s].gos = gos

    return [(actions_mod, "stop", stop)]


def _go_last_judged_by_round() -> list[Patch]:
    """A Stop is forced only when the round has no later turn: an actor who played their last
    card while the opponent still holds cards may call Go (R-GO-LAST: the actor's own later
    turns decide)."""

    def forced(self: state_mod.RoundState, seat: int) -> bool:
        return self.o.go_on_last_turn == "forced_stop" and (not self.stock or not any(state_mod.has_turn(self, s) for s in range(self.n)))

    return [(state_mod, "go_forced_stop", forced)]


MUTANTS: Final[tuple[Mutant, ...]] = (
    # count
    Mutant(
        "stack-captures-steal-once",
        "events",
        "R-EVENTS-STACK",
        "two stacks captured in one turn grant a single stack-capture steal",
        _stack_captures_steal_once,
    ),
    Mutant("go-bak-per-go", "settlement", "R-GO-BAK", "go-bak doubles a losing Go-caller's amount once per Go call", _go_bak_per_go),
    Mutant("baks-counted-once", "settlement", "R-SETTLE", "a loser with several baks pays double only once", _baks_counted_once),
    Mutant(
        "shakes-bombs-counted-once",
        "settlement",
        "R-SHAKE-BOMB-MULT",
        "the winner's shakes and bombs double the winnings once, however many",
        _shakes_bombs_counted_once,
    ),
    Mutant(
        "first-ppeok-award-any-turn",
        "events",
        "R-FIRST-TURN-AWARD",
        "the first-ppeok award is paid for a player's first ppeok on any turn",
        _first_ppeok_award_any_turn,
    ),
    # threshold
    Mutant(
        "pi-bak-limit-exclusive",
        "settlement",
        "R-PI-BAK",
        "a loser with exactly pi_bak_max_units junk units is not pi-bak",
        _options(lambda o: {"pi_bak_max_units": o.pi_bak_max_units - 1}),
    ),
    Mutant(
        "meongtta-from-eight", "settlement", "R-MEONG", "seven animals are not enough for meongtta: eight are needed", _meongtta_from_eight
    ),
    Mutant(
        "junk-point-from-eleven",
        "scoring",
        "R-SCORE-JUNK",
        "the first junk point needs one unit more than junk_threshold",
        _options(lambda o: {"junk_threshold": o.junk_threshold + 1}),
    ),
    Mutant(
        "go-threshold-before-steals",
        "go-stop",
        "R-GO-WHEN",
        "Go or Stop eligibility is judged before the turn's steals",
        _go_threshold_before_steals,
    ),
    Mutant(
        "go-bak-needs-threshold",
        "settlement",
        "R-GO-MULTI",
        "a losing Go-caller whose base fell below go_threshold is not go-bak",
        _go_bak_needs_threshold,
    ),
    Mutant(
        "go-rise-after-steal-loss",
        "go-stop",
        "R-GO-RISE",
        "junk stolen from a Go-caller lowers the base the rise is measured from",
        _go_rise_after_steal_loss,
    ),
    # order
    Mutant(
        "steals-before-captures", "events", "R-EVENTS-STACK", "a turn's steals are reported before its capture", _steals_before_captures
    ),
    Mutant(
        "bomb-flip-capture-first",
        "declarations",
        "R-BOMB",
        "a bomb turn reports the flipped card's capture before the bomb's",
        _bomb_flip_capture_first,
    ),
    Mutant(
        "flipped-bonus-after-flip",
        "bonus",
        "R-BONUS-FLIP",
        "a flipped bonus card is reported after the card flipped in its place",
        _flipped_bonus_after_flip,
    ),
    # tie
    Mutant(
        "go-bak-last-caller-only",
        "settlement",
        "R-GO-MULTI",
        "only the round's latest Go-caller is go-bak",
        _go_bak_last_caller_only,
    ),
    Mutant(
        "go-last-judged-by-round",
        "go-stop",
        "R-GO-LAST",
        "Stop is not forced on the actor's last card while the opponent still holds cards",
        _go_last_judged_by_round,
    ),
)

#: the kind of interaction each mutant breaks (scenarios/interactions.yaml `kinds`)
KINDS: Final[dict[str, str]] = {
    **dict.fromkeys(
        ("stack-captures-steal-once", "go-bak-per-go", "baks-counted-once", "shakes-bombs-counted-once", "first-ppeok-award-any-turn"),
        "count",
    ),
    **dict.fromkeys(
        (
            "pi-bak-limit-exclusive",
            "meongtta-from-eight",
            "junk-point-from-eleven",
            "go-threshold-before-steals",
            "go-bak-needs-threshold",
            "go-rise-after-steal-loss",
        ),
        "threshold",
    ),
    **dict.fromkeys(("steals-before-captures", "bomb-flip-capture-first", "flipped-bonus-after-flip"), "order"),
    **dict.fromkeys(("go-bak-last-caller-only", "go-last-judged-by-round"), "tie"),
}
if set(KINDS) != {m.name for m in MUTANTS}:  # a mutant without a kind, or a kind without a mutant
    raise AssertionError(f"KINDS and MUTANTS disagree: {sorted(set(KINDS) ^ {m.name for m in MUTANTS})}")
