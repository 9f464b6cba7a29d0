"""One round of Go-Stop as a state machine, the rules' public face (R-TURN): the player to act,
`legal_actions()`, `check(action)` apart from `apply(action)` (python-chess's `is_legal` and
`push`), the settlement once `over`, and `copy()`. A `Round` holds one `RoundState` (`_state`);
the rules are modules of plain functions over it: `_dealtime`, `_legal`, `_actions`, `_turns`,
`_steals`.

Every event carries the clause ids that produced it (the rule-hit trace). Clause ids in the
docstrings and `emit` calls are greppable: R-MATCH, R-PPEOK, R-JJOK, ...
"""

from __future__ import annotations

from typing import Any

import gostop_conformance.reference._actions as actions
import gostop_conformance.reference._dealtime as dealtime
import gostop_conformance.reference._legal as legal
import gostop_conformance.reference._state as state
import gostop_conformance.reference._turns as turns
from gostop_conformance.reference._cards import INDEX_OF
from gostop_conformance.reference._deal import Deal, DealtCards, deal_cards
from gostop_conformance.reference._events import Action, Event, Rejection
from gostop_conformance.reference._rng import SplitMix64
from gostop_conformance.reference._scoring import Breakdown
from gostop_conformance.reference._seat import SeatState
from gostop_conformance.reference._settlement import Settlement
from gostop_conformance.reference._state import NONE, RoundState
from gostop_conformance.spec import Decision, Options, Ruleset


def seeded_round(ruleset: Ruleset, rng: SplitMix64, dealer: int) -> Round:
    """`Round(ruleset, seeded_deal(ruleset.options, rng, dealer))`, the same round (its snapshot and
    events; tests/reference_impl/test_deal.py), dealt straight into canonical indices: without
    the card ids a Deal spells and the round reads back (R-SHUFFLE, R-DEAL-ORDER)."""
    return Round(ruleset, deal_cards(ruleset.options, rng, dealer))  # made by the engine: nothing to check


class Round:
    """A round under a ruleset, started from a deal (seeded or explicit)."""

    def __init__(self, ruleset: Ruleset, deal: Deal | DealtCards | RoundState, *, check: bool = True) -> None:
        """A round from `deal`, checked against the ruleset unless `check` is false (a DealtCards,
        made by the engine, is never checked: `seeded_round`), its deal-time rules applied; or, given
        a state, the round in that state (`copy`: compiled with mypyc, a class is only ever made
        through its __init__, as object.__new__ refuses it)."""
        if isinstance(deal, RoundState):
            self._state = deal
            return
        s = state.dealt(ruleset, deal, check)
        if isinstance(deal, Deal):
            dealtime.deal_time(s, [INDEX_OF[c] for c in deal.table], deal.stacks, deal.turn == 0 and deal.captured is None)
        else:
            dealtime.deal_time(s, list(deal.table), None, True)
        s.deal_events = tuple(state.flush(s))
        self._state = s

    def copy(self) -> Round:
        """An independent copy of the round in its current state (perft walks the tree with it)."""
        return Round(self._state.ruleset, self._state.copy())

    # ------------------------------------------------------------------ what the round shows

    @property
    def ruleset(self) -> Ruleset:
        return self._state.ruleset

    @property
    def o(self) -> Options:
        return self._state.o

    @property
    def n(self) -> int:
        return self._state.n

    @property
    def dealer(self) -> int:
        return self._state.dealer

    @property
    def to_act(self) -> int:
        """The seat whose decision the round waits for (meaningless once `over`)."""
        return self._state.to_act

    @property
    def decision(self) -> Decision:
        return self._state.decision

    @property
    def over(self) -> bool:
        return self._state.decision == NONE

    @property
    def settlement(self) -> Settlement | None:
        return self._state.settlement

    @property
    def seats(self) -> list[SeatState]:
        return self._state.seats

    @property
    def stock(self) -> list[int]:
        return self._state.stock

    @property
    def nagari_streak(self) -> int:
        return self._state.nagari_streak

    @property
    def deal_events(self) -> tuple[Event, ...]:
        """The events of the deal-time rules (R-DEAL-BONUS, R-TABLE-FOUR, R-CHONGTONG, ...)."""
        return self._state.deal_events

    def score(self, seat: int) -> Breakdown:
        """A player's current base score (R-SCORE-SUM; dual cards allocated per R-DUAL-ROLE (1))."""
        return state.score(self._state, seat)

    def snapshot(self) -> dict[str, Any]:
        """The full observable state, JSON-ready (card lists sorted by canonical index)."""
        return state.snapshot(self._state)

    def next_round(self) -> dict[str, Any]:
        """What this finished round hands to the next one (R-NEXT-DEALER, R-NAGARI-CARRY)."""
        return state.next_round(self._state)

    # ------------------------------------------------------------------ acting

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, in a canonical order."""
        return legal.legal_actions(self._state)

    def check(self, action: Action) -> Rejection | None:
        """Why `action` would be refused now, or None when `apply` would take it; changes nothing
        (python-chess's `is_legal`; R-TURN). An action `legal_actions()` lists is always taken."""
        try:
            legal.check(self._state, action)
        except Rejection as refusal:
            return refusal
        return None

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return its events. The whole check runs first and only reads
        the state (`_legal`), so an illegal action raises Rejection having changed nothing."""
        s = self._state
        kind = legal.check_decision(s, action)
        if kind == "play":
            card, named = legal.check_play(s, action)
            actions.play(s, card, named, action.shake)
        elif kind == "take":
            actions.take(s, legal.check_take(s, action))
        elif kind == "go":
            legal.check_go(s)
            actions.go(s)
        elif kind == "stop":
            actions.stop(s)
        elif kind == "bomb":
            actions.bomb(s, legal.check_bomb(s, action))
        elif kind == "skip":
            legal.check_skip(s)
            actions.skip(s)
        elif kind == "shake":
            turns.shake(s, s.to_act, legal.check_shake(s, action))
        elif kind == "bonus":
            actions.bonus(s, legal.check_bonus(s, action))
        elif kind == "dual_to_junk":
            actions.dual_to_junk(s, legal.check_dual(s, action))
        else:
            actions.chongtong(s, legal.check_chongtong(s, action))
        return state.flush(s)
