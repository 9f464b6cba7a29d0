"""Settlement of a finished round: who pays whom how much (R-SETTLE, R-GO-BONUS,
R-SHAKE-BOMB-MULT, R-GWANG-BAK, R-PI-BAK, R-MEONG, R-GO-BAK, R-EMPTY-EXEMPT, R-NAGARI-CARRY,
R-CHONGTONG); the point-count variant's in `_pointcount`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from gostop_conformance.reference._scoring import (
    RAIN_BRIGHT,
    Breakdown,
    allocations,
    duals_held,
    fixed_allocation,
    tally_breakdown,
)
from gostop_conformance.reference._tally import Tally
from gostop_conformance.spec import Bak, Options, Outcome

# Seat, LoserLine and Settlement are named tuples, immutable values built by keyword: mypy checks
# each field, and `_replace` gives the variants (a mutant's, a side payment's)


class Seat(NamedTuple):
    """What settlement needs to know about one player at the end of a round, under the names of
    the seat state (`SeatState.frozen`)."""

    captured: tuple[int, ...]
    gos: int
    first_go_turn: int | None
    shaken_months: tuple[int, ...]
    shake_factors: tuple[int, ...]  # per shake: 2, or 4 (shake_x4_months, four_in_hand_later)
    bombs: tuple[tuple[int, bool], ...]  # (month, carries the bomb multiplier)
    dual_junk: tuple[int, ...]
    #: `captured` tallied (a copy of the seat state's tally, kept card by card during the round), so
    #: that settlement does not tally the pile again; None: settlement tallies `captured`
    tally: Tally | None = None


class LoserLine(NamedTuple):
    seat: int
    baks: tuple[Bak, ...]
    amount: int
    pays: int
    exempt: bool

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "baks": list(self.baks), "amount": self.amount, "pays": self.pays, "exempt": self.exempt}


class PointCountResult(NamedTuple):
    """What the point-count variant settles on (R-PC-GOAL, R-PC-SETS), per seat."""

    breakeven: int
    card_points: tuple[int, ...]
    sets: tuple[tuple[str, ...], ...]


class Settlement(NamedTuple):
    """The result of a round. `net[i]` is seat i's gain (negative: loss); nets sum to zero.
    Built by keyword; a field that does not apply to the outcome keeps its default and is not
    sent (`to_json`, spec/protocol: settlement)."""

    kind: Outcome
    winner: int | None
    net: tuple[int, ...]
    payments: tuple[tuple[int, int, int], ...] = ()
    losers: tuple[LoserLine, ...] = ()
    base: int = 0
    go_count: int = 0
    go_points: int = 0
    go_multiplier: int = 1
    shake_bomb_factor: int = 1
    meongtta: int = 1
    carry: int = 1
    points: int = 0
    winner_breakdown: Breakdown | None = None
    #: R-NAGARI-CARRY nagari_carry_prior_multipliers: what a nagari hands on to the carry
    void_multiplier: int = 1
    point_count: PointCountResult | None = None
    #: R-FIRST-TURN-AWARD: (payer, payee, points), also in payments and net
    awards: tuple[tuple[int, int, int], ...] = ()
    clauses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "winner": self.winner, "net": list(self.net)}
        out["payments"] = [{"from": a, "to": b, "amount": n} for a, b, n in self.payments]
        if self.kind in ("stop", "last_go_caller_wins"):
            out.update(
                base=self.base,
                go_count=self.go_count,
                go_points=self.go_points,
                go_multiplier=self.go_multiplier,
                shake_bomb_factor=self.shake_bomb_factor,
                meongtta=self.meongtta,
                carry=self.carry,
                points=self.points,
            )
            out["losers"] = [line.to_json() for line in self.losers]
            if self.winner_breakdown is not None:
                out["winner_breakdown"] = self.winner_breakdown.to_json()
        elif self.kind in ("chongtong", "three_ppeok", "dealer_wins_fixed"):
            out.update(points=self.points, carry=self.carry)
        for key, value in self.detail():
            out[key] = value
        out["clauses"] = list(self.clauses)
        return out

    def detail(self) -> list[tuple[str, Any]]:
        """The outcome's own fields, as the protocol and the text view list them."""
        out: list[tuple[str, Any]] = []
        if self.kind == "nagari":
            out.append(("void_multiplier", self.void_multiplier))
        if self.point_count is not None:
            pc = self.point_count
            out += [("breakeven", pc.breakeven), ("card_points", list(pc.card_points)), ("sets", [list(x) for x in pc.sets])]
        if self.awards:
            out.append(("awards", [list(p) for p in self.awards]))
        return out


#: R-MEONG: the number of animals that makes a winner's meongtta (and meongbak_7_and_loser_zero)
MEONGTTA_ANIMALS: Final = 7


def go_points(gos: int, o: Options) -> int:
    """R-GO-BONUS: points added for `gos` Go calls. Under count_from_2 the multiplier replaces
    the added points from the second Go on (rules-matrix A-21: 7 -> 8, 14, 21, ...)."""
    if o.go_multiplier == "count_from_2" and gos >= 2:
        return 0
    if o.go_bonus == "plus_one_per_go":
        return gos
    if o.go_bonus == "none_from_third" and gos >= 3:
        return 0
    return min(gos, 2)


def go_multiplier(gos: int, o: Options) -> int:
    """R-GO-BONUS: the multiplier for `gos` Go calls."""
    if o.go_multiplier == "exp2_from_3":
        return 1 if gos <= 2 else 1 << (gos - 2)
    if o.go_multiplier == "linear_from_3":
        return 1 if gos <= 2 else gos - 1
    return 1 if gos <= 1 else gos


def carry_factor(streak: int, o: Options) -> int:
    """R-NAGARI-CARRY: the multiplier after `streak` consecutive void rounds."""
    if streak <= 0 or o.nagari_carry_growth == "off":
        return 1
    if o.nagari_carry_growth == "fixed_x2":
        return 2
    factor = 1 << streak
    cap = o.nagari_carry_cap
    return min(factor, cap) if isinstance(cap, int) else factor


def fixed_points(o: Options, setting: int | str) -> int:
    return o.go_threshold if setting == "threshold" else int(setting)


def settle_fixed(
    kind: Outcome, winner: int, points: int, n: int, streak: int, o: Options, clauses: tuple[str, ...], extra: int
) -> Settlement:
    """An instant win paid `points` by each opponent (R-CHONGTONG, R-TABLE-FOUR, R-THREE-PPEOK)."""
    carry = carry_factor(streak, o) * extra if o.chongtong_multipliers == "nagari_carry_only" else 1
    each = points * carry
    payments = tuple((s, winner, each) for s in _others(winner, n))
    net = tuple(each * (n - 1) if s == winner else -each for s in range(n))
    return Settlement(
        kind=kind, winner=winner, net=net, payments=payments, points=points, carry=carry, clauses=(*clauses, "R-NAGARI-CARRY")
    )


def settle_void(kind: Outcome, n: int, clauses: tuple[str, ...], multiplier: int = 1) -> Settlement:
    """A void round or a redeal; `multiplier` is what a nagari carries on under
    nagari_carry_prior_multipliers (R-NAGARI-CARRY)."""
    return Settlement(kind=kind, winner=None, net=(0,) * n, void_multiplier=multiplier if kind == "nagari" else 1, clauses=clauses)


def void_multiplier(seats: Sequence[Seat], o: Options) -> int:
    """R-NAGARI-CARRY (nagari_carry_prior_multipliers): every player's shake and bomb factor and
    Go multiplier earned in the void round, multiplied together; 1 when the option is off."""
    if not o.nagari_carry_prior_multipliers:
        return 1
    factor = 1
    for seat in range(len(seats)):
        factor *= _own_shake_bomb_factor(seats[seat], o) * go_multiplier(seats[seat].gos, o)
    return factor


def with_side_payments(s: Settlement, side: Sequence[tuple[int, int, int]]) -> Settlement:
    """Add the round's immediate payments (R-FIRST-TURN-AWARD) to its settlement."""
    net = list(s.net)
    for payer, payee, amount in side:
        net[payer] -= amount
        net[payee] += amount
    return s._replace(net=tuple(net), payments=(*s.payments, *side), awards=(*s.awards, *side))


def _others(seat: int, n: int) -> list[int]:
    return [(seat + k) % n for k in range(1, n)]


def _shake_bomb_factor(winner: int, seats: Sequence[Seat], o: Options) -> int:
    """R-SHAKE-BOMB-MULT."""
    w = seats[winner]
    if o.shake_beneficiary != "any_winner":
        return _own_shake_bomb_factor(w, o)
    factor = _own_shake_bomb_factor(w, o)
    for s in seats:
        if s is not w:
            for f in s.shake_factors:
                factor *= f
    return factor


def _own_shake_bomb_factor(s: Seat, o: Options) -> int:
    factor = 1
    for f in s.shake_factors:
        factor *= f
    for month, counts in s.bombs:
        if counts and (month not in s.shaken_months or o.shake_then_bomb_stacks):
            factor *= o.bomb_multiplier
    return factor


def _loser_baks(win: Breakdown, lose: Breakdown, loser_pile: Sequence[int], o: Options) -> list[Bak]:
    baks: list[Bak] = []
    # R-GWANG-BAK
    if o.gwang_bak and win.bright_points > 0:
        protecting = lose.brights - (1 if not o.gwang_bak_rain_protects and RAIN_BRIGHT in loser_pile else 0)
        if protecting == 0:
            baks.append("gwang_bak")
    # R-PI-BAK
    junk = lose.junk_units if o.pi_bak_measure == "units" else lose.junk_cards
    if o.pi_bak and win.junk_points > 0 and junk <= o.pi_bak_max_units and (junk >= 1 or not o.pi_bak_zero_exempt):
        baks.append("pi_bak")
    # R-RIBBON-BAK
    if o.ribbon_bak and win.ribbon_points > 0 and lose.ribbons == 0:
        baks.append("ribbon_bak")
    # R-MEONG (loser-side variants)
    if (o.meong_mode in ("meongbak_loser_zero", "meongtta_and_meongbak") and win.animal_points > 0 and lose.animals == 0) or (
        o.meong_mode == "meongbak_7_and_loser_zero" and win.animals >= MEONGTTA_ANIMALS and lose.animals == 0
    ):
        baks.append("meong_bak")
    return baks


def settle_stop(kind: Outcome, winner: int, seats: Sequence[Seat], streak: int, o: Options, extra: int = 1) -> Settlement:
    """R-SETTLE for a round won by a Stop (or by the last Go-caller when the stock ran out)."""
    best: Settlement | None = None
    best_paid = 0
    w_tally, w_allocs = _tally_allocations(seats[winner], o)
    # each loser's scores under each of their allocations do not depend on the winner's: once
    scores = {seat: _allocated_scores(seats[seat], o) for seat in _others(winner, len(seats))}
    for alloc in w_allocs:
        candidate = _settle_with(kind, winner, seats, streak, o, tally_breakdown(w_tally, o, alloc), extra, scores)
        paid = 0
        for payment in candidate.payments:
            paid += payment[2]
        if best is None or paid > best_paid:
            best, best_paid = candidate, paid
    assert best is not None
    return best


def _tally_allocations(seat: Seat, o: Options) -> tuple[Tally, list[frozenset[int]]]:
    """The seat's pile tallied, and the dual-role allocations open to it (R-DUAL-ROLE)."""
    tally = seat.tally if seat.tally is not None else Tally(list(seat.captured))
    fixed = fixed_allocation(seat.captured, o, seat.dual_junk)
    return tally, [fixed] if fixed is not None else allocations(duals_held(tally.held, o))


def _allocated_scores(seat: Seat, o: Options) -> list[Breakdown]:
    """A loser's breakdown under each allocation open to them (R-DUAL-ROLE (3))."""
    tally, allocs = _tally_allocations(seat, o)
    return [tally_breakdown(tally, o, alloc) for alloc in allocs]


def _settle_with(
    kind: Outcome,
    winner: int,
    seats: Sequence[Seat],
    streak: int,
    o: Options,
    win: Breakdown,
    extra: int,
    scores: dict[int, list[Breakdown]],
) -> Settlement:
    n = len(seats)
    gos = seats[winner].gos
    gp = go_points(gos, o)
    gm = go_multiplier(gos, o)
    sbf = _shake_bomb_factor(winner, seats, o)
    meongtta = 2 if o.meong_mode in ("meongtta_7_global", "meongtta_and_meongbak") and win.animals >= MEONGTTA_ANIMALS else 1
    carry = carry_factor(streak, o) * extra
    points = (win.base + win.winner_bonus + gp) * gm * sbf * meongtta * carry
    lines: list[LoserLine] = []
    for seat in _others(winner, n):
        s = seats[seat]
        if o.empty_capture_exempt and not s.captured:
            lines.append(LoserLine(seat=seat, baks=(), amount=0, pays=0, exempt=True))
            continue
        chosen: tuple[int, list[Bak]] | None = None
        for lose in scores[seat]:  # R-DUAL-ROLE (3): each loser minimises their own payment
            baks = _loser_baks(win, lose, s.captured, o)
            if s.gos > 0 and o.go_bak_mode == "double_own":
                baks.append("go_bak")
            amount = points << len(baks)
            if chosen is None or amount < chosen[0]:
                chosen = (amount, baks)
        assert chosen is not None
        lines.append(LoserLine(seat=seat, baks=tuple(chosen[1]), amount=chosen[0], pays=chosen[0], exempt=False))
    # R-GO-MULTI: every losing Go-caller is liable; the earliest first Go bears pay_for_all
    # an exempt loser (R-EMPTY-EXEMPT) is never liable: liability passes to the next caller, if any
    if o.go_bak_mode in ("pay_for_all", "pay_for_all_doubled"):
        lines = _pay_for_all(lines, seats, o)
    payments = tuple([(line.seat, winner, line.pays) for line in lines if line.pays])
    net = [0] * n
    for payer, payee, amount in payments:
        net[payer] -= amount
        net[payee] += amount
    return Settlement(
        kind=kind,
        winner=winner,
        net=tuple(net),
        payments=payments,
        losers=tuple(lines),
        base=win.base,
        go_count=gos,
        go_points=gp,
        go_multiplier=gm,
        shake_bomb_factor=sbf,
        meongtta=meongtta,
        carry=carry,
        points=points,
        winner_breakdown=win,
        clauses=(*(("R-EXHAUST-AFTER-GO",) if kind == "last_go_caller_wins" else ()), *SETTLE_CLAUSES),
    )


def _pay_for_all(lines: list[LoserLine], seats: Sequence[Seat], o: Options) -> list[LoserLine]:
    """R-GO-MULTI (pay_for_all, pay_for_all_doubled): the liable Go-caller pays every loser's amount.
    A function of its own: compiled, the key function of `min` would make every settlement build a
    closure environment."""
    callers = [line for line in lines if seats[line.seat].gos > 0 and not line.exempt]
    if not callers:
        return lines
    liable = min(callers, key=lambda line: (seats[line.seat].first_go_turn or 0, line.seat))
    total = sum(line.amount for line in lines) * (2 if o.go_bak_mode == "pay_for_all_doubled" else 1)
    return [line._replace(baks=(*line.baks, "go_bak"), pays=total) if line is liable else line._replace(pays=0) for line in lines]


#: the clauses every Go-Stop settlement applies (each may change nothing in a given round)
SETTLE_CLAUSES: Final = (
    "R-SETTLE",
    "R-GO-BONUS",
    "R-GO-MULTI",
    "R-SHAKE-BOMB-MULT",
    "R-GWANG-BAK",
    "R-PI-BAK",
    "R-MEONG",
    "R-GO-BAK",
    "R-RIBBON-BAK",
    "R-EMPTY-EXEMPT",
    "R-NAGARI-CARRY",
    "R-DUAL-ROLE",
)
