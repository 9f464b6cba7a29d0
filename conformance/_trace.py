"""The rule-hit trace of the reference engine as the harness reads it: the clauses a reply names
(its events, scores and settlement), and the clauses no reply can name (seen in legal actions and
rejections instead), which coverage and fuzzing must not expect in the trace."""

from __future__ import annotations

from typing import Any, Final

Json = dict[str, Any]


def cited(reply: Json) -> set[str]:
    """Every clause a reply names: in its events, scores and settlement (the rule-hit trace)."""
    out: set[str] = set()
    for event in reply.get("events", []) or []:
        if isinstance(event, dict):
            out.update(event.get("clauses", []))
    settlement = reply.get("settlement")
    if isinstance(settlement, dict):
        out.update(settlement.get("clauses", []))
    for score in reply.get("scores", []) or []:
        if isinstance(score, dict):
            out.update(score.get("clauses", []))
    return out


#: clauses no event, score or settlement names: the deck and deal shape, the match, and the rules
#: of legality and of the choice of a capture (shown by legal actions and rejections instead)
NEVER_TRACED: Final = frozenset(
    {
        "R-DECK",
        "R-CARD-IDS",
        "R-PLAYERS",
        "R-SHUFFLE",
        "R-DEAL-ORDER",
        "R-FIRST-DEALER",
        "R-NEXT-DEALER",
        "R-TURN-ORDER",
        "R-TABLE-PAIR",
        "R-BONUS-DECK",
        "R-MATCH-ROUNDS",
        "R-PC-SETUP",
        "R-FREE-PLAY",
        "R-TWO-MATCH-CHOICE",
        "R-NO-BONUS-MATCH",
    }
)
#: clauses of when a Go is offered: scores cite them when a Go was called, but a scenario about a
#: Go not offered shows it in the legal actions only
SOMETIMES_TRACED: Final = frozenset({"R-GO-THRESHOLD", "R-GO-RISE", "R-GO-LAST", "R-GO-MULTI"})
#: clauses a scenario may cite without the trace naming them
UNTRACED: Final = NEVER_TRACED | SOMETIMES_TRACED
