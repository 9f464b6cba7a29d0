"""Semantic mutants of scoring of captured piles, Go/Stop, settlement and baks, the nagari carry and
match flow, the point-count variant (R-SCORE-GODORI, R-SCORE-JUNK, R-DUAL-ROLE, R-EXTRA-YAKU,
R-GO-THRESHOLD, R-GO-RISE, R-GO-BONUS, R-GO-LAST, R-GO-MULTI, R-PI-BAK, R-MEONG, R-GO-BAK,
R-RIBBON-BAK, R-EXHAUST-AFTER-GO, R-NAGARI-CARRY, R-NEXT-DEALER, R-PC-LEFTOVER): each one a bug a
real engine author could make reading the rules prose (_set.py gathers every set)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, Final

import gostop_conformance.reference._actions as actions_mod
import gostop_conformance.reference._cards as cards_mod
import gostop_conformance.reference._dealtime as dealtime_mod
import gostop_conformance.reference._scoring as scoring_mod
import gostop_conformance.reference._settlement as settlement_mod
import gostop_conformance.reference._state as state_mod
import gostop_conformance.reference._tally as tally_mod
import gostop_conformance.reference._turns as turns_mod
from gostop_conformance.mutants._base import Mutant, Patch, _bak_added, _next_round_rewrite
from gostop_conformance.spec import Bak, Options, deck

_SeatList = list[settlement_mod.Seat]

#: the kinds of a decided round (R-ROUND-END (a), (b) and R-EXHAUST-AFTER-GO)
_DECIDED: Final = ("stop", "last_go_caller_wins", "chongtong", "three_ppeok", "dealer_wins_fixed")


def _card(card_id: str) -> int:
    return deck().card(card_id).index


# ------------------------------------------------------------------ scoring


def _rescored(change: Callable[[scoring_mod.Breakdown, Options], dict[str, Any]]) -> Callable[[], list[Patch]]:
    """A scoring slip: `change` returns the categories of a breakdown to score otherwise, and the
    base is summed again from them. Patched wherever a base is computed: the breakdowns of display
    and settlement, and the counting path of Go/Stop eligibility."""

    def patches() -> list[Patch]:
        original = scoring_mod.tally_breakdown

        def tally_breakdown(t: tally_mod.Tally, o: Options, as_junk: Collection[int] = ()) -> scoring_mod.Breakdown:
            b = original(t, o, as_junk)
            changes = change(b, o)
            if not changes:
                return b
            b = b._replace(**changes)
            parts = (b.bright_points, b.animal_points, b.godori_points, b.ribbon_points, b.dan_points, b.junk_points, b.extra_points)
            return b._replace(base=sum(parts))

        def tally_base(t: tally_mod.Tally, as_junk: int, o: Options) -> int:
            # every dual-role card is an animal: which ones count as junk does not change the base
            junk = [c for c in scoring_mod.dual_indices(o) if t.held >> c & 1][:as_junk]
            return tally_breakdown(t, o, junk).base

        return [
            (scoring_mod, "tally_breakdown", tally_breakdown),
            (settlement_mod, "tally_breakdown", tally_breakdown),
            (scoring_mod, "tally_base", tally_base),
        ]

    return patches


def _godori_birds_not_animals(b: scoring_mod.Breakdown, o: Options) -> dict[str, Any]:
    """The three birds that score godori are not counted again as animals."""
    if not b.godori_points:
        return {}
    animals = b.animals - 3
    return {"animals": animals, "animal_points": max(0, animals - o.animal_threshold + 1)}


def _three_ssangpi_cup_held(b: scoring_mod.Breakdown, o: Options) -> dict[str, Any]:
    """three_ssangpi paid for holding the cup, whether or not it counts as junk."""
    if "three_ssangpi" not in o.extra_yaku or b.winner_bonus or not b.held >> scoring_mod.CUP & 1:
        return {}
    if b.held & scoring_mod._THREE_SSANGPI_DOUBLES != scoring_mod._THREE_SSANGPI_DOUBLES:
        return {}
    return {"winner_bonus": 3}


def _double_junk_one_unit() -> list[Patch]:
    doubles = {_card("m11-double-junk"), _card("m12-double-junk")}
    return [(tally_mod, "UNITS", tuple(1 if i in doubles else u for i, u in enumerate(tally_mod.UNITS)))]


def _dual_tie_prefers_junk() -> list[Patch]:
    """Allocations tried junk-first, so a tie between counting a card as an animal or as junk goes to junk."""
    original = scoring_mod.allocations

    def allocations(dual: list[int]) -> list[frozenset[int]]:
        return original(dual)[::-1]

    return [(scoring_mod, "allocations", allocations), (settlement_mod, "allocations", allocations)]


# ------------------------------------------------------------------ Go / Stop


def _go_eligible(rule: Callable[[int, int, int, int], bool]) -> Callable[[], list[Patch]]:
    """Round._go_eligible as `rule(base, threshold, gos, go_base)`."""

    def patches() -> list[Patch]:
        def eligible(self: state_mod.RoundState, seat: int, base: int) -> bool:
            p = self.seats[seat]
            return rule(base, self.o.go_threshold, p.gos, p.go_base)

        return [(state_mod, "go_eligible", eligible)]

    return patches


def _settle_with_seats(rewrite: Callable[[int, _SeatList], _SeatList]) -> list[Patch]:
    """Patch settlement._settle_with: `rewrite(winner, seats)` is what it settles on."""
    original = settlement_mod._settle_with

    def settle_with(
        kind: Any, winner: int, seats: Sequence[settlement_mod.Seat], streak: int, o: Options, win: Any, extra: int, scores: Any
    ) -> settlement_mod.Settlement:
        return original(kind, winner, rewrite(winner, list(seats)), streak, o, win, extra, scores)

    return [(settlement_mod, "_settle_with", settle_with)]


def _all_gos_to_winner() -> list[Patch]:
    def rewrite(winner: int, seats: _SeatList) -> _SeatList:
        seats[winner] = seats[winner]._replace(gos=sum(s.gos for s in seats))
        return seats

    return _settle_with_seats(rewrite)


def _doubling_from_second_go() -> list[Patch]:
    original = settlement_mod.go_multiplier

    def go_multiplier(gos: int, o: Options) -> int:
        if o.go_multiplier == "exp2_from_3":
            return 1 if gos <= 1 else 1 << (gos - 1)
        return original(gos, o)

    return [(settlement_mod, "go_multiplier", go_multiplier)]


def _go_last_bonus_not_card() -> list[Patch]:
    """A hand holding only bonus cards counts as empty: its owner is forced to stop."""

    def forced(self: state_mod.RoundState, seat: int) -> bool:
        p = self.seats[seat]
        cards = [c for c in p.hand if not cards_mod.IS_BONUS[c]]
        return self.o.go_on_last_turn == "forced_stop" and ((not cards and p.skip_credits == 0) or not self.stock)

    return [(state_mod, "go_forced_stop", forced)]


def _exhaust_without_gos() -> list[Patch]:
    """The last Go-caller is settled on the base score alone, their Gos forgotten."""
    original = turns_mod.round_exhausted

    def exhausted(self: state_mod.RoundState) -> None:
        o = self.o
        callers = [s for s, p in enumerate(self.seats) if p.gos > 0]
        if o.scoring_system == "gostop" and callers and o.deck_exhausted_after_go == "last_go_caller_wins":
            winner = max(callers, key=lambda s: (self.seats[s].last_go_turn or 0, s))
            seats = state_mod.frozen_seats(self)
            seats[winner] = seats[winner]._replace(gos=0)
            state_mod.end(
                self, settlement_mod.settle_stop("last_go_caller_wins", winner, seats, self.nagari_streak, o, self.carried_multiplier)
            )
            return
        original(self)

    return [(turns_mod, "round_exhausted", exhausted)]


# ------------------------------------------------------------------ settlement and baks


def _repaid(rewrite: Callable[[settlement_mod.Settlement, Options], settlement_mod.Settlement]) -> list[Patch]:
    """Patch settlement._settle_with: `rewrite` changes the loser lines, payments follow them."""
    original = settlement_mod._settle_with

    def settle_with(
        kind: Any, winner: int, seats: Sequence[settlement_mod.Seat], streak: int, o: Options, win: Any, extra: int, scores: Any
    ) -> settlement_mod.Settlement:
        s = rewrite(original(kind, winner, seats, streak, o, win, extra, scores), o)
        payments = tuple((line.seat, winner, line.pays) for line in s.losers if line.pays)
        net = [0] * len(seats)
        for payer, payee, amount in payments:
            net[payer] -= amount
            net[payee] += amount
        return s._replace(payments=payments, net=tuple(net))

    return [(settlement_mod, "_settle_with", settle_with)]


def _pay_for_all_without_baks() -> list[Patch]:
    """The liable Go-caller pays their own amount plus W for every other loser, whose baks are lost."""

    def rewrite(s: settlement_mod.Settlement, o: Options) -> settlement_mod.Settlement:
        liable = [line for line in s.losers if line.pays]
        if o.go_bak_mode not in ("pay_for_all", "pay_for_all_doubled") or len(liable) != 1 or "go_bak" not in liable[0].baks:
            return s
        me = liable[0]
        total = me.amount + sum(s.points for line in s.losers if line is not me and not line.exempt)
        total *= 2 if o.go_bak_mode == "pay_for_all_doubled" else 1
        return s._replace(losers=tuple(line._replace(pays=total) if line is me else line for line in s.losers))

    return _repaid(rewrite)


def _exempt_caller_stays_liable() -> list[Patch]:
    """Under pay_for_all the liability is fixed before the exemption: an exempt earliest Go-caller
    pays nothing for everyone, so nobody pays."""
    original = settlement_mod._settle_with

    def settle_with(
        kind: Any, winner: int, seats: Sequence[settlement_mod.Seat], streak: int, o: Options, win: Any, extra: int, scores: Any
    ) -> settlement_mod.Settlement:
        s = original(kind, winner, seats, streak, o, win, extra, scores)
        callers = [line for line in s.losers if seats[line.seat].gos > 0]
        if o.go_bak_mode not in ("pay_for_all", "pay_for_all_doubled") or not callers:
            return s
        liable = min(callers, key=lambda line: (seats[line.seat].first_go_turn or 0, line.seat))
        if not liable.exempt:
            return s
        return s._replace(losers=tuple(line._replace(pays=0) for line in s.losers), payments=(), net=(0,) * len(seats))

    return [(settlement_mod, "_settle_with", settle_with)]


def _liable_latest_caller() -> list[Patch]:
    def rewrite(winner: int, seats: _SeatList) -> _SeatList:
        return [s._replace(first_go_turn=-s.first_go_turn) if s.first_go_turn is not None else s for s in seats]

    return _settle_with_seats(rewrite)


def _pi_bak_any_winner_junk() -> list[Patch]:
    def extra(win: Any, lose: Any, pile: Any, o: Options) -> Bak | None:
        junk = lose.junk_units if o.pi_bak_measure == "units" else lose.junk_cards
        hit = o.pi_bak and win.junk_units > 0 and junk <= o.pi_bak_max_units and (junk >= 1 or not o.pi_bak_zero_exempt)
        return "pi_bak" if hit else None

    return _bak_added(extra)


def _pi_bak_cards_skip_dual_junk() -> list[Patch]:
    """Under pi_bak_measure = cards only junk cards are counted, not a dual-role card counted as junk."""
    original = settlement_mod._loser_baks

    def baks(win: Any, lose: Any, pile: Any, o: Options) -> list[Bak]:
        if o.pi_bak_measure == "cards" and lose.dual_as_junk:
            lose = lose._replace(junk_cards=lose.junk_cards - len(lose.dual_as_junk))
        return original(win, lose, pile, o)

    return [(settlement_mod, "_loser_baks", baks)]


def _meong_bak_counts_godori() -> list[Patch]:
    """The winner's animal score that makes meong-bak includes the godori points."""

    def extra(win: Any, lose: Any, pile: Any, o: Options) -> Bak | None:
        modes = ("meongbak_loser_zero", "meongtta_and_meongbak")
        return "meong_bak" if o.meong_mode in modes and win.animal_points + win.godori_points > 0 and lose.animals == 0 else None

    return _bak_added(extra)


def _dec_ribbon_shields_ribbon_bak() -> list[Patch]:
    """A loser holding the December ribbon is no ribbon-bak, even where it is not a ribbon."""
    original = settlement_mod._loser_baks

    def baks(win: Any, lose: Any, pile: Any, o: Options) -> list[Bak]:
        out = original(win, lose, pile, o)
        if "ribbon_bak" in out and scoring_mod.DEC_RIBBON in pile:
            out.remove("ribbon_bak")
        return out

    return [(settlement_mod, "_loser_baks", baks)]


# ------------------------------------------------------------------ carry and match flow


def _carried_multiplier(rewrite: Callable[[state_mod.RoundState, settlement_mod.Settlement], int | None]) -> list[Patch]:
    """The carried multiplier a round hands on is `rewrite(round, settlement)` (None: unchanged)."""

    def next_round(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        assert rnd.settlement is not None
        carried = rewrite(rnd, rnd.settlement)
        if carried is not None:
            nxt["carried_multiplier"] = carried
        return nxt

    return _next_round_rewrite(next_round)


def _instant_win_skips_carried() -> list[Patch]:
    """Instant wins are multiplied by the streak's carry alone, not by the carried multipliers."""
    original = settlement_mod.settle_fixed

    def settle_fixed(
        kind: Any, winner: int, points: int, n: int, streak: int, o: Options, clauses: tuple[str, ...], extra: int = 1
    ) -> settlement_mod.Settlement:
        return original(kind, winner, points, n, streak, o, clauses, 1)

    return [(module, "settle_fixed", settle_fixed) for module in (actions_mod, turns_mod, dealtime_mod)]


def _decided_keeps_streak() -> list[Patch]:
    def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        assert rnd.settlement is not None
        if rnd.settlement.kind in _DECIDED:
            nxt["nagari_streak"] = rnd.nagari_streak
        return nxt

    return _next_round_rewrite(rewrite)


def _stop_dealer_keeps() -> list[Patch]:
    def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        assert rnd.settlement is not None
        if rnd.settlement.kind in ("stop", "last_go_caller_wins"):
            nxt["dealer"] = rnd.dealer
        return nxt

    return _next_round_rewrite(rewrite)


def _pc_leftover_to_dealer() -> list[Patch]:
    original = turns_mod.round_exhausted

    def exhausted(self: state_mod.RoundState) -> None:
        if self.o.scoring_system == "point_count":
            self.last_actor = self.dealer
        original(self)

    return [(turns_mod, "round_exhausted", exhausted)]


MUTANTS: Final[tuple[Mutant, ...]] = (
    Mutant(
        "godori-birds-not-animals",
        "scoring",
        "R-SCORE-GODORI",
        "the three birds of a godori no longer count as animals",
        _rescored(_godori_birds_not_animals),
    ),
    Mutant("double-junk-one-unit", "scoring", "R-SCORE-JUNK", "a double junk card counts one junk unit", _double_junk_one_unit),
    Mutant(
        "dual-tie-prefers-junk",
        "scoring",
        "R-DUAL-ROLE",
        "a tie between allocations goes to the dual-role card counted as junk",
        _dual_tie_prefers_junk,
    ),
    Mutant(
        "three-ssangpi-cup-as-animal",
        "scoring",
        "R-EXTRA-YAKU",
        "three_ssangpi is paid when the cup is held, even while it counts as an animal",
        _rescored(_three_ssangpi_cup_held),
    ),
    Mutant(
        "go-threshold-exclusive",
        "go-stop",
        "R-GO-THRESHOLD",
        "Go or Stop is offered only above go_threshold, not at it",
        _go_eligible(lambda base, threshold, gos, go_base: base > threshold and (gos == 0 or base > go_base)),
    ),
    Mutant(
        "go-rise-allows-equal",
        "go-stop",
        "R-GO-RISE",
        "after a Go the decision is offered again at the same base score",
        _go_eligible(lambda base, threshold, gos, go_base: base >= threshold and (gos == 0 or base >= go_base)),
    ),
    Mutant("go-count-all-players", "go-stop", "R-GO-BONUS", "the winner is paid for every player's Go calls", _all_gos_to_winner),
    Mutant("go-doubling-from-second", "go-stop", "R-GO-BONUS", "exp2_from_3 doubles from the second Go", _doubling_from_second_go),
    Mutant(
        "go-last-bonus-not-card",
        "go-stop",
        "R-GO-LAST",
        "an actor holding only bonus cards is forced to stop",
        _go_last_bonus_not_card,
    ),
    Mutant(
        "exhaust-without-gos",
        "round",
        "R-EXHAUST-AFTER-GO",
        "the last Go-caller is settled when the stock runs out without their go points and multiplier",
        _exhaust_without_gos,
    ),
    Mutant("pi-bak-any-winner-junk", "settlement", "R-PI-BAK", "pi-bak applies when the winner holds any junk", _pi_bak_any_winner_junk),
    Mutant(
        "pi-bak-cards-skip-dual-junk",
        "settlement",
        "R-PI-BAK",
        "under pi_bak_measure = cards a dual-role card counted as junk is not counted",
        _pi_bak_cards_skip_dual_junk,
    ),
    Mutant(
        "meong-bak-counts-godori",
        "settlement",
        "R-MEONG",
        "a winner scoring godori without animal points makes animal-less losers meong-bak",
        _meong_bak_counts_godori,
    ),
    Mutant(
        "dec-ribbon-shields-ribbon-bak",
        "settlement",
        "R-RIBBON-BAK",
        "a loser holding the December ribbon is never ribbon-bak, even where it is not a ribbon",
        _dec_ribbon_shields_ribbon_bak,
    ),
    Mutant(
        "pay-for-all-without-baks",
        "settlement",
        "R-GO-BAK",
        "the liable Go-caller pays W for each other loser, without that loser's baks",
        _pay_for_all_without_baks,
    ),
    Mutant(
        "go-bak-liable-latest-caller",
        "settlement",
        "R-GO-MULTI",
        "under pay_for_all the losing Go-caller whose first Go came last is liable",
        _liable_latest_caller,
    ),
    Mutant(
        "exempt-caller-liable",
        "settlement",
        "R-GO-BAK",
        "an exempt earliest Go-caller keeps the liability, so nobody pays",
        _exempt_caller_stays_liable,
    ),
    Mutant(
        "carried-multiplier-not-reset",
        "round",
        "R-NAGARI-CARRY",
        "a decided round hands its carried multipliers on to the next round",
        lambda: _carried_multiplier(lambda rnd, s: rnd.carried_multiplier if s.kind in _DECIDED else None),
    ),
    Mutant(
        "carried-multiplier-latest-void-only",
        "round",
        "R-NAGARI-CARRY",
        "only the last void round's multipliers are carried, not the product of consecutive ones",
        lambda: _carried_multiplier(lambda rnd, s: s.void_multiplier if s.kind == "nagari" else None),
    ),
    Mutant(
        "instant-win-skips-carried-multiplier",
        "round",
        "R-NAGARI-CARRY",
        "an instant win is multiplied by the streak's carry but not by the carried multipliers",
        _instant_win_skips_carried,
    ),
    Mutant(
        "decided-round-keeps-streak",
        "round",
        "R-NAGARI-CARRY",
        "a decided round does not reset the void-round streak",
        _decided_keeps_streak,
    ),
    Mutant("stop-dealer-keeps-deal", "round", "R-NEXT-DEALER", "after a Stop the dealer deals again", _stop_dealer_keeps),
    Mutant(
        "pc-leftover-to-dealer",
        "family",
        "R-PC-LEFTOVER",
        "the cards left on the table go to the dealer",
        _pc_leftover_to_dealer,
    ),
)
