"""Events derived from states (issue 40), for an engine that keeps no event log: the events of an
`act` reply from the protocol state before and after the action, the action, and what the score
and legal replies after it say; `derive_deal_events` (in `_derive_deal`) does the same for
`new_game`. The order is spec/vocabulary.yaml's event_order, the fields its `events`.

What the states show is read from them: the stock's top cards are the flips (R-FLIP), the cards
that left an opponent's pile are the steal (R-STEAL), a stack's buried bonus cards are those that
left the actor's pile, the counters (gos, ppeoks, skip credits) are the state's after the action,
and whether the turn paused, offers Go/Stop or ends the round is the decision after it. What the
turn made of its cards (jjok, ppeok, ttadak, the stacks taken, the sweep) follows from the table
before it and the cards moved (R-MATCH), and which steals were owed, withheld or awarded from the
options. Nothing here scores: the bases are the score reply's, the round's end its settlement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gostop_conformance.kit._derive_deal import derive_deal_events, make_event, round_end
from gostop_conformance.kit._derive_turn import HAND_ACTIONS, TurnEvents

__all__ = ["EventDeriver", "derive_deal_events", "derive_events"]


class _ActEvents(TurnEvents):
    """One act's events: `run` dispatches on the action type (event_order, by action type)."""

    def run(self) -> list[dict[str, Any]]:
        kind, actor, a = self.action["type"], self.actor, self.action
        if kind in HAND_ACTIONS or kind == "take":
            self.turn()
        elif kind == "shake":
            self.out.append(make_event("shake", actor, self.hand_of(a["month"]), month=a["month"]))
        elif kind == "bonus":  # R-BONUS-HAND: replaced by the top stock card
            self.out.append(make_event("bonus", actor, [a["card"]], source="hand", replacement=list(self.before["stock"][:1])))
        elif kind == "chongtong":
            self.out.append(make_event("chongtong", actor, self.hand_of(a["month"]), month=a["month"]))
        elif kind == "go":
            gos, base = self.seat_value(self.after, actor, "gos"), self.seat_value(self.after, actor, "go_base")
            self.out.append(make_event("go", actor, gos=gos, base=base))
        elif kind == "stop":
            self.out.append(make_event("stop", actor, base=self.base()))
        elif kind == "dual_to_junk":
            self.out.append(make_event("dual_to_junk", actor, [a["card"]]))
        else:
            raise ValueError(f"unknown action type {kind!r}")
        # a Go, or a dual card moved to junk that ends a Go/Stop decision, may pass the turn with
        # the stock spent (R-ROUND-END); stop and chongtong always end the round
        if kind in ("go", "stop", "chongtong", "dual_to_junk") and self.after.get("decision") == "none":
            self.out.append(round_end(self.settlement))
        return self.out


def derive_events(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    action: Mapping[str, Any],
    *,
    options: Mapping[str, Any],
    scores: Sequence[Mapping[str, Any]] | None = None,
    settlement: Mapping[str, Any] | None = None,
    legal: Sequence[Mapping[str, Any]] | None = None,
    earlier: Sequence[Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The events of an `act` reply, derived from the protocol state before and after the action,
    in event_order for its type (spec/vocabulary.yaml), with the reference engine's fields (no
    `clauses`).

    `before` and `after` are the protocol states (hands, table, stacks with owner, cards and bonus,
    the stock top first, captured, in_play, decision, turn, players[] with gos, go_base,
    shaken_months, bombs, skip_credits, ppeoks, dual_junk); `action` the action applied; `options`
    the new_game request's `ruleset.options`. `scores` (the score reply's after the action) gives
    the base of stop and go_stop_offered; `settlement` (the same reply's) the round_end; `legal`
    (the legal actions after it) whether a go_stop_offered is stop_only (R-GO-LAST; derived from
    the state when absent). A missing `scores` or `settlement` that the reply needs is a
    ValueError. A first-turn award (R-FIRST-TURN-AWARD) is derived from the state's `awards`, the
    payments it shows made at once: an engine that does not report them gets no award event.

    `earlier` is the round's earlier acts since new_game, oldest first, each `{"action": ...,
    "events": [...]}` as applied and reported (`EventDeriver` keeps them). The states alone do not
    say two things, and without `earlier` the events then follow the rules below:

    - R-BONUS-STEAL: the bonus cards played from the hand earlier in the turn, each owed a steal
      of bonus_steal units at the turn's end; without `earlier` none is counted.
    - R-TWO-MATCH-CHOICE, for a `take`: the turn's hand action, which the states after it no longer
      show. Without `earlier`, the cards in play say it (`in_play`): the hand card and the flip
      apart by the month taken, a bomb by the actor's bombs; several cards of a month that are not
      a bomb are a stack, whose owner (R-PPEOK-CAPTURE: which steal it earns) is unknown and taken
      as a dealt triple; every bonus card in play is counted as flipped (a stack's buried ones
      too: R-BONUS-STEAL); a two-card bomb is counted as a three-card one (R-BOMB-TWO); a hand
      card discarded before the pause is not told from the table (R-SWEEP two_cards_cleared); and
      the table card a pair2 hand card took is the one gone from the table after (both are gone
      when the point-count round ends: R-PC-LEFTOVER).
    """
    return _ActEvents(before, after, action, options, scores, settlement, legal, earlier).run()


class EventDeriver:
    """The events of one round's replies, for an adapter whose engine keeps no event log: keeps
    what `derive_events` needs from the round's earlier acts (its `earlier`).

    ``events = deriver.new_game(deal, state, options=ruleset.options)`` at each new_game, then
    ``events = deriver.act(before, after, action, scores=..., settlement=..., legal=...)`` at each act."""

    def __init__(self) -> None:
        self.options: Mapping[str, Any] = {}
        self.acts: list[dict[str, Any]] = []

    def new_game(
        self, deal: Mapping[str, Any], state: Mapping[str, Any], *, options: Mapping[str, Any], settlement: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        self.options, self.acts = options, []
        return derive_deal_events(deal, state, options=options, settlement=settlement)

    def act(
        self,
        before: Mapping[str, Any],
        after: Mapping[str, Any],
        action: Mapping[str, Any],
        *,
        scores: Sequence[Mapping[str, Any]] | None = None,
        settlement: Mapping[str, Any] | None = None,
        legal: Sequence[Mapping[str, Any]] | None = None,
    ) -> list[dict[str, Any]]:
        events = derive_events(
            before, after, action, options=self.options, scores=scores, settlement=settlement, legal=legal, earlier=self.acts
        )
        self.acts.append({"action": dict(action), "events": events})
        return events
