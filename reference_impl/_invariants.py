"""Checks that hold after every action of every round (used by `check` and the property tests)."""

from __future__ import annotations

from collections import Counter

from gostop_conformance.reference._deal import deck_indices
from gostop_conformance.reference._round import Round
from gostop_conformance.reference._tally import Tally
from gostop_conformance.spec import counted, deck


def card_places(rnd: Round) -> Counter[str]:
    """How many places each card is in: hands, table, stack bonus cards, stock, captured piles."""
    snap = rnd.snapshot()
    seen: Counter[str] = Counter()
    for hand in snap["hands"]:
        seen.update(hand)
    seen.update(snap["table"])
    seen.update(snap["in_play"])
    for stack in snap["stacks"]:
        seen.update(stack["bonus"])
    seen.update(snap["stock"])
    for pile in snap["captured"]:
        seen.update(pile)
    return seen


def violations(rnd: Round) -> list[str]:
    """Every invariant the round breaks right now (empty when all hold)."""
    problems: list[str] = []
    seen = card_places(rnd)
    expected = {deck().cards[i].id for i in deck_indices(rnd.o)}
    for cid in sorted(expected | set(seen)):
        if cid not in expected:  # a card of another deck (a bonus card the ruleset does not deal)
            problems.append(f"card {cid} is not in this ruleset's deck but is in {counted(seen[cid], 'place')}")
        elif seen.get(cid, 0) != 1:
            problems.append(f"card {cid} is in {counted(seen.get(cid, 0), 'place')} (expected exactly one)")
    for seat, (pile, tally) in enumerate(zip([p.captured for p in rnd.seats], [p.tally for p in rnd.seats], strict=True)):
        if tally != Tally(pile):
            problems.append(f"seat {seat}'s score tally is out of step with its captured pile")
    if rnd.settlement is not None and sum(rnd.settlement.net) != 0:
        problems.append(f"settlement nets {list(rnd.settlement.net)} do not sum to zero")
    if not rnd.over and not rnd.legal_actions():
        problems.append(f"no legal action for seat {rnd.to_act} at decision {rnd.decision!r}")
    return problems
