"""One player's part of a round: the one place where every per-seat field is declared, built
from a deal, copied, snapshotted and frozen for settlement, under the protocol's names (the
`players[i]` of a deal and of a state snapshot, spec/protocol). A field added here is added to
every one of those, or a test (tests/reference_impl/test_seat.py) says which is missing.
"""

from __future__ import annotations

from typing import Any, Final

from gostop_conformance.reference._deal import PlayerState
from gostop_conformance.reference._settlement import Seat
from gostop_conformance.reference._tally import Tally
from gostop_conformance.spec import deck

_CARDS = deck().cards
_ID: Final = tuple(c.id for c in _CARDS)
_INDEX: Final = {c.id: c.index for c in _CARDS}


class SeatState:
    """The mutable state of one seat during a round. Cards are canonical indices; `hand` is kept
    sorted, `captured` in the order captured (sorted where it is shown), `tally` in step with
    `captured` (`_state.gain`, `_state.lose`)."""

    __slots__ = (
        "bombs",
        "captured",
        "dual_junk",
        "first_go_turn",
        "go_base",
        "gos",
        "hand",
        "last_go_turn",
        "ppeoks",
        "shake_factors",
        "shaken_months",
        "skip_credits",
        "tally",
        "turns_taken",
    )

    def __init__(self, hand: list[int], captured: list[int], state: PlayerState, shake_factors: list[int]) -> None:
        self.hand = hand
        self.captured = captured
        self.tally = Tally(captured)
        self.gos = state.gos
        self.go_base = state.go_base  # the base score at the last Go (R-GO-RISE)
        self.first_go_turn: int | None = state.first_go_turn
        self.last_go_turn: int | None = state.first_go_turn
        self.shaken_months: list[int] = list(state.shaken_months)
        self.shake_factors = shake_factors
        # a bomb of a position carries its multiplier: the state does not say otherwise
        self.bombs: list[tuple[int, bool]] = [(m, True) for m in state.bombs]
        self.skip_credits = state.skip_credits  # R-BOMB-SKIP
        self.ppeoks = state.ppeoks  # R-THREE-PPEOK
        self.dual_junk: set[int] = {_INDEX[c] for c in state.dual_junk}  # R-DUAL-ROLE owner_one_way_to_junk
        self.turns_taken = 0  # R-FIRST-TURN-AWARD

    def copy(self) -> SeatState:
        """An independent copy (RoundState.copy)."""
        new = _bare()
        new.hand, new.captured, new.tally = self.hand[:], self.captured[:], self.tally.copy()
        new.gos, new.go_base = self.gos, self.go_base
        new.first_go_turn, new.last_go_turn = self.first_go_turn, self.last_go_turn
        new.shaken_months, new.shake_factors, new.bombs = self.shaken_months[:], self.shake_factors[:], self.bombs[:]
        new.skip_credits, new.ppeoks = self.skip_credits, self.ppeoks
        new.dual_junk, new.turns_taken = set(self.dual_junk), self.turns_taken
        return new

    def frozen(self) -> Seat:
        """What settlement reads (R-SETTLE, R-GO-BAK, R-SHAKE-BOMB-MULT), as an immutable value."""
        return Seat(
            captured=tuple(self.captured),  # in the order captured: settlement reads no order (sorting cost 2 % of a round)
            gos=self.gos,
            first_go_turn=self.first_go_turn,
            shaken_months=tuple(self.shaken_months),
            shake_factors=tuple(self.shake_factors),
            bombs=tuple(self.bombs),
            dual_junk=tuple(sorted(self.dual_junk)),
            tally=self.tally.copy(),
        )

    def to_json(self) -> dict[str, Any]:
        """The snapshot's `players[i]` (spec/protocol: state)."""
        return {
            "gos": self.gos,
            "go_base": self.go_base,
            "shaken_months": sorted(self.shaken_months),
            "bombs": [m for m, _ in self.bombs],
            "skip_credits": self.skip_credits,
            "ppeoks": self.ppeoks,
            "dual_junk": [_ID[c] for c in sorted(self.dual_junk)],
        }


_FRESH: Final = PlayerState()


def _bare() -> SeatState:
    return SeatState([], [], _FRESH, [])
