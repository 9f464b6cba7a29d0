"""Deal-time rules: bonus cards dealt to the table, a month's four or three on the table, and
chongtong in a hand (R-DEAL-BONUS, R-TABLE-FOUR, R-TABLE-TRIPLE, R-CHONGTONG, R-CHONGTONG-MULTI)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from gostop_conformance.reference._settlement import Settlement, fixed_points, settle_fixed, settle_void
from gostop_conformance.reference._state import FIRST_BONUS, MONTH, RoundState, month_sets

#: the clause of a round voided at the deal, by the kind of void (R-REDEAL, R-NAGARI)
_VOID_CLAUSE: Final = {"redeal": "R-REDEAL", "nagari": "R-NAGARI"}


class DealTime(RoundState):
    """The rules applied once, when the cards are dealt."""

    def _deal_time(self, table: list[int], stacks: Mapping[int, int | None] | None, fresh: bool) -> None:
        """R-DEAL-BONUS, R-TABLE-PAIR (two of a month: nothing special), R-TABLE-TRIPLE,
        R-TABLE-FOUR, R-CHONGTONG, R-CHONGTONG-MULTI: the table dealt (indices in dealing order)
        laid out, then the first rule that ends the round at the deal, if one does. A position
        (not `fresh`) may name its stacks' owners (`stacks`; None: a seeded deal names none), and is
        past the chongtong check."""
        self._lay_table(table)
        self._emit("deal", None, (), ("R-DEAL-SIZE",), {"dealer": self.dealer, "first_player": self.to_act})
        ending = self._table_fours()
        if ending is None:
            self._table_triples(stacks)
            if fresh:
                ending = self._hand_chongtong()
        if ending is not None:
            self._end(ending)

    def _lay_table(self, layout: list[int]) -> None:
        """R-DEAL-BONUS: a bonus card dealt to the table goes to the dealer and is replaced from the stock."""
        # the first bonus card in dealing order each time (a replacement may be one too); a loop
        # rather than any() and next() over generators: compiled, a generator is an object of its own
        pos = 0
        while pos < len(layout):
            bonus = layout[pos]
            if bonus < FIRST_BONUS:
                pos += 1
                continue
            self._gain(self.dealer, [bonus])
            if self.stock:
                layout[pos] = self.stock.pop()
                self._emit("table_bonus", self.dealer, (bonus, layout[pos]), ("R-DEAL-BONUS",))
            else:
                del layout[pos]
                self._emit("table_bonus", self.dealer, (bonus,), ("R-DEAL-BONUS",))
        table = self.table
        for c in layout:
            table[MONTH[c]].append(c)

    def _table_fours(self) -> Settlement | None:
        """R-TABLE-FOUR: a month's four cards on the table, handled per table_four_of_month: the
        round ends at the first (redeal, nagari, dealer_wins_fixed) or the dealer takes each."""
        o = self.o
        for month in range(1, 13):
            if len(self.table[month]) != 4:
                continue
            mode = o.table_four_of_month  # read only when it applies (option dependencies, _tracing)
            cards = sorted(self.table[month])
            self._emit("table_four", self.dealer, cards, ("R-TABLE-FOUR",), {"month": month, "handling": mode})
            if mode in ("redeal", "nagari"):
                return settle_void(mode, self.n, ("R-TABLE-FOUR", _VOID_CLAUSE[mode]))
            if mode == "dealer_wins_fixed":
                points = fixed_points(o, o.chongtong_points)
                clauses = ("R-TABLE-FOUR", "R-CHONGTONG")
                return settle_fixed(
                    "dealer_wins_fixed", self.dealer, points, self.n, self.nagari_streak, o, clauses, self.carried_multiplier
                )
            self.table[month] = []
            self._gain(self.dealer, cards)
            self._emit("capture", self.dealer, cards, ("R-TABLE-FOUR",))
        return None

    def _table_triples(self, stacks: Mapping[int, int | None] | None) -> None:
        """R-TABLE-TRIPLE: three of a month on the table form a stack with no owner (a position
        may name one)."""
        for month in range(1, 13):
            if len(self.table[month]) == 3:
                self.stack_owner[month] = stacks.get(month) if stacks is not None else None
                if self.stack_owner[month] is None:
                    self._emit("table_triple", None, sorted(self.table[month]), ("R-TABLE-TRIPLE",), {"month": month})

    def _hand_chongtong(self) -> Settlement | None:
        """R-CHONGTONG, R-CHONGTONG-MULTI: a month's four cards in a hand at the deal, handled per
        hand_chongtong (instant_win_or_continue is the holder's action instead: `_legal`)."""
        o = self.o
        if o.hand_chongtong in ("ignore", "instant_win_or_continue"):
            return None
        holders: list[tuple[int, int]] = []
        for k in range(self.n):
            seat = (self.to_act + k) % self.n
            four = month_sets(self.seats[seat].hand)[2]  # the months held four times, as a bit set
            if not four:  # nearly every hand: no loop over the months
                continue
            for month in range(1, 13):
                if four >> month & 1:
                    holders.append((seat, month))
                    self._emit(
                        "chongtong", seat, [c for c in self.seats[seat].hand if MONTH[c] == month], ("R-CHONGTONG",), {"month": month}
                    )
        if not holders:
            return None
        if o.hand_chongtong == "redeal":
            return settle_void("redeal", self.n, ("R-CHONGTONG", "R-REDEAL"))
        clauses: tuple[str, ...] = ("R-CHONGTONG",)
        winner = holders[0][0]
        if len({seat for seat, _ in holders}) > 1:
            mode = o.multiple_chongtong
            if mode in ("redeal", "nagari"):
                return settle_void(mode, self.n, ("R-CHONGTONG-MULTI", _VOID_CLAUSE[mode]))
            if mode != "dealer_first_in_turn_order":  # higher_month: the first holder of the highest month
                top = 0
                for seat, month in holders:  # a loop, not max(key=lambda): compiled, every call would build a closure
                    if month > top:
                        winner, top = seat, month
            clauses = ("R-CHONGTONG", "R-CHONGTONG-MULTI")
        points = fixed_points(o, o.chongtong_points)
        return settle_fixed("chongtong", winner, points, self.n, self.nagari_streak, o, clauses, self.carried_multiplier)
