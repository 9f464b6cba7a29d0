"""Deal-time rules: bonus cards dealt to the table, a month's four or three on the table, and
chongtong in a hand (R-DEAL-BONUS, R-TABLE-FOUR, R-TABLE-TRIPLE, R-CHONGTONG, R-CHONGTONG-MULTI)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import gostop_conformance.reference._state as state
from gostop_conformance.reference._cards import FIRST_BONUS, MONTH, month_sets
from gostop_conformance.reference._settlement import Settlement, fixed_points, settle_fixed, settle_void
from gostop_conformance.reference._state import RoundState

#: the clause of a round voided at the deal, by the kind of void (R-REDEAL, R-NAGARI)
_VOID_CLAUSE: Final = {"redeal": "R-REDEAL", "nagari": "R-NAGARI"}


def deal_time(s: RoundState, table: list[int], stacks: Mapping[int, int | None] | None, fresh: bool) -> None:
    """R-DEAL-BONUS, R-TABLE-PAIR (two of a month: nothing special), R-TABLE-TRIPLE,
    R-TABLE-FOUR, R-CHONGTONG, R-CHONGTONG-MULTI: the table dealt (indices in dealing order)
    laid out, then the first rule that ends the round at the deal, if one does. A position
    (not `fresh`) may name its stacks' owners (`stacks`; None: a seeded deal names none), and is
    past the chongtong check."""
    lay_table(s, table)
    state.emit(s, "deal", None, (), ("R-DEAL-SIZE",), {"dealer": s.dealer, "first_player": s.to_act})
    ending = table_fours(s)
    if ending is None:
        table_triples(s, stacks)
        if fresh:
            ending = hand_chongtong(s)
    if ending is not None:
        state.end(s, ending)


def lay_table(s: RoundState, layout: list[int]) -> None:
    """R-DEAL-BONUS: a bonus card dealt to the table goes to the dealer and is replaced from the stock."""
    # the first bonus card in dealing order each time (a replacement may be one too); a loop
    # rather than any() and next() over generators: compiled, a generator is an object of its own
    pos = 0
    while pos < len(layout):
        bonus = layout[pos]
        if bonus < FIRST_BONUS:
            pos += 1
            continue
        state.gain(s, s.dealer, [bonus])
        if s.stock:
            layout[pos] = s.stock.pop()
            state.emit(s, "table_bonus", s.dealer, (bonus, layout[pos]), ("R-DEAL-BONUS",))
        else:
            del layout[pos]
            state.emit(s, "table_bonus", s.dealer, (bonus,), ("R-DEAL-BONUS",))
    table = s.table
    for c in layout:
        table[MONTH[c]].append(c)


def table_fours(s: RoundState) -> Settlement | None:
    """R-TABLE-FOUR: a month's four cards on the table, handled per table_four_of_month: the
    round ends at the first (redeal, nagari, dealer_wins_fixed) or the dealer takes each."""
    o = s.o
    for month in range(1, 13):
        if len(s.table[month]) != 4:
            continue
        mode = o.table_four_of_month  # read only when it applies (option dependencies, _tracing)
        cards = sorted(s.table[month])
        state.emit(s, "table_four", s.dealer, cards, ("R-TABLE-FOUR",), {"month": month, "handling": mode})
        if mode in ("redeal", "nagari"):
            return settle_void(mode, s.n, ("R-TABLE-FOUR", _VOID_CLAUSE[mode]))
        if mode == "dealer_wins_fixed":
            points = fixed_points(o, o.chongtong_points)
            clauses = ("R-TABLE-FOUR", "R-CHONGTONG")
            return settle_fixed("dealer_wins_fixed", s.dealer, points, s.n, s.nagari_streak, o, clauses, s.carried_multiplier)
        s.table[month] = []
        state.gain(s, s.dealer, cards)
        state.emit(s, "capture", s.dealer, cards, ("R-TABLE-FOUR",))
    return None


def table_triples(s: RoundState, stacks: Mapping[int, int | None] | None) -> None:
    """R-TABLE-TRIPLE: three of a month on the table form a stack with no owner (a position
    may name one)."""
    for month in range(1, 13):
        if len(s.table[month]) == 3:
            s.stack_owner[month] = stacks.get(month) if stacks is not None else None
            if s.stack_owner[month] is None:
                state.emit(s, "table_triple", None, sorted(s.table[month]), ("R-TABLE-TRIPLE",), {"month": month})


def hand_chongtong(s: RoundState) -> Settlement | None:
    """R-CHONGTONG, R-CHONGTONG-MULTI: a month's four cards in a hand at the deal, handled per
    hand_chongtong (instant_win_or_continue is the holder's action instead: `_legal`)."""
    o = s.o
    if o.hand_chongtong in ("ignore", "instant_win_or_continue"):
        return None
    holders: list[tuple[int, int]] = []
    for k in range(s.n):
        seat = (s.to_act + k) % s.n
        four = month_sets(s.seats[seat].hand)[2]  # the months held four times, as a bit set
        if not four:  # nearly every hand: no loop over the months
            continue
        for month in range(1, 13):
            if four >> month & 1:
                holders.append((seat, month))
                state.emit(s, "chongtong", seat, [c for c in s.seats[seat].hand if MONTH[c] == month], ("R-CHONGTONG",), {"month": month})
    if not holders:
        return None
    if o.hand_chongtong == "redeal":
        return settle_void("redeal", s.n, ("R-CHONGTONG", "R-REDEAL"))
    clauses: tuple[str, ...] = ("R-CHONGTONG",)
    winner = holders[0][0]
    if len({seat for seat, _ in holders}) > 1:
        mode = o.multiple_chongtong
        if mode in ("redeal", "nagari"):
            return settle_void(mode, s.n, ("R-CHONGTONG-MULTI", _VOID_CLAUSE[mode]))
        if mode != "dealer_first_in_turn_order":  # higher_month: the first holder of the highest month
            top = 0
            for seat, month in holders:  # a loop, not max(key=lambda): compiled, every call would build a closure
                if month > top:
                    winner, top = seat, month
        clauses = ("R-CHONGTONG", "R-CHONGTONG-MULTI")
    points = fixed_points(o, o.chongtong_points)
    return settle_fixed("chongtong", winner, points, s.n, s.nagari_streak, o, clauses, s.carried_multiplier)
