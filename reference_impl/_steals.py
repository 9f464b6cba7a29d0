"""Steals: a turn's requests summed per opponent, then the junk each surrenders (R-STEAL,
R-STEAL-PAYERS, R-EVENTS-STACK, R-FINAL-TURN)."""

from __future__ import annotations

from typing import Final

import gostop_conformance.reference._state as state
from gostop_conformance.reference._cards import CARDS
from gostop_conformance.reference._scoring import DEC_RIBBON, dual_cards_in
from gostop_conformance.reference._state import RoundState

#: per card index: whether it is of the junk class (junk, double junk, bonus), and its units
IS_JUNK: Final = tuple(c.is_junk for c in CARDS)
UNITS: Final = tuple(c.units for c in CARDS)

STEAL_CLAUSE: Final = {
    "jjok": "R-JJOK",
    "ttadak": "R-TTADAK",
    "sweep": "R-SWEEP",
    "stack_capture": "R-STACK-CAPTURE",
    "bomb": "R-BOMB",
    "bonus": "R-BONUS-STEAL",
}


def request(s: RoundState, kind: str, units: int, actor: int, payers: tuple[int, ...] | None = None) -> None:
    if units > 0:
        s.pending_steals.append((kind, units, payers if payers is not None else state.others(s, actor)))


def perform_steals(s: RoundState, actor: int, final: bool) -> None:
    """R-EVENTS-STACK, R-FINAL-TURN: the turn's requests, summed per opponent, then surrendered."""
    o = s.o
    pending = s.pending_steals
    s.pending_steals = []
    if final:
        for kind, units, _ in pending:
            if kind in o.final_turn_exempt:
                state.emit(s, "steal_exempt", actor, (), (STEAL_CLAUSE[kind], "R-FINAL-TURN"), {"reason": kind, "units": units})
    # per opponent in turn order: the units of every request naming them, and why
    for payer in state.others(s, actor):
        owed = requests = 0
        reasons: list[str] = []
        for kind, units, payers in pending:
            if final and kind in o.final_turn_exempt:
                continue
            if payer in payers:
                owed += units
                requests += 1
                clause = STEAL_CLAUSE[kind]
                if clause not in reasons:
                    reasons.append(clause)
        if owed:
            reasons.sort()
            why = (*reasons, *(("R-EVENTS-STACK",) if requests > 1 else ()), *(("R-FINAL-TURN",) if final else ()))
            surrender(s, payer, actor, owed, why)


def surrender(s: RoundState, giver: int, taker: int, units: int, why: tuple[str, ...] = ()) -> None:
    """R-STEAL, R-STEAL-PAYERS, R-EVENTS-STACK: one combined request per opponent."""
    o = s.o
    pile = s.seats[giver].captured
    eligible: list[int] = []
    unit_of: dict[int, int] = {}
    for c in pile:  # in the order captured: `eligible` is sorted below
        if IS_JUNK[c]:
            eligible.append(c)
            unit_of[c] = UNITS[c]
    if o.steal_cup_eligible:
        alloc = junk_duals(s, giver)
        for c in pile:
            if c in alloc:
                eligible.append(c)
                unit_of[c] = 2
    if o.dec_ribbon == "junk" and DEC_RIBBON in pile:  # R-DEC-RIBBON: a plain junk card here
        eligible.append(DEC_RIBBON)
        unit_of[DEC_RIBBON] = 1
    if o.steal_multi_when_no_single == "give_nothing" and 1 not in unit_of.values():
        eligible = []  # no single junk left: nothing is surrendered
    eligible.sort()
    chosen = choose_surrender(eligible, unit_of, units, o.steal_selection)
    if not chosen:
        state.emit(s, "steal", giver, (), ("R-STEAL", "R-STEAL-PAYERS", *why), {"to": taker, "requested": units, "units": 0})
        return
    given = 0
    losing = s.seats[giver].dual_junk
    keeping = s.seats[taker].dual_junk
    for c in chosen:
        state.lose(s, giver, c)
        losing.discard(c)
        given += unit_of[c]
    state.gain(s, taker, chosen)
    for c in chosen:  # a dual card can only be surrendered while it counts as junk, and stays junk for the taker
        if not IS_JUNK[c]:
            keeping.add(c)
    state.emit(s, "steal", giver, chosen, ("R-STEAL", "R-STEAL-PAYERS", *why), {"to": taker, "requested": units, "units": given})


def junk_duals(s: RoundState, seat: int) -> set[int]:
    """Dual cards of `seat` that currently count as junk (never under auto_best, R-STEAL)."""
    mode = s.o.dual_role_mode
    duals = dual_cards_in(s.seats[seat].captured, s.o)
    if mode == "fixed_double_junk":
        return set(duals)
    if mode == "owner_one_way_to_junk":
        return {c for c in duals if c in s.seats[seat].dual_junk}
    return set()


def choose_surrender(eligible: list[int], unit_of: dict[int, int], request: int, selection: str) -> list[int]:
    """R-STEAL: which of `eligible` (sorted by index) the giver surrenders for `request` units."""
    if not eligible or request <= 0:
        return []
    total = 0
    single = -1
    for c in eligible:
        total += unit_of[c]
        if single < 0 and unit_of[c] == 1:
            single = c
    if total <= request:
        return list(eligible)
    if request == 1 and single >= 0:  # the commonest request: every selection gives the lowest single junk
        return [single]
    if selection == "taker_lowest_first":
        out: list[int] = []
        got = 0
        for c in sorted(eligible, key=unit_of.__getitem__):  # by units; a stable sort keeps the index order
            if got >= request:
                break
            out.append(c)
            got += unit_of[c]
        return sorted(out)
    return _least_over(eligible, unit_of, request)


def _least_over(eligible: list[int], unit_of: dict[int, int], request: int) -> list[int]:
    """giver_min_units: the fewest units of at least `request`, then the fewest cards, then the
    lowest indices. A function of its own: compiled, its nested search would make every call of
    choose_surrender build a closure environment, the commonest path included."""
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
