"""Invariants checked on every reply of every engine, whatever the scenario expects: each card
of the ruleset's deck in exactly one place, and reported scores that recompute from the reported
captured piles under the ruleset (R-SCORE-SUM, R-DUAL-ROLE)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from reference_impl import deck
from reference_impl._deal import deck_indices
from reference_impl._rulesets import Options, ruleset_from_json
from reference_impl._scoring import best_breakdown

Json = dict[str, Any]


def options_of(ruleset: Json) -> Options:
    return ruleset_from_json(ruleset).options


def card_violations(state: Json, o: Options) -> list[str]:
    """Every card in exactly one place: hands, table (stacks included), stack bonus cards, the
    cards of a paused turn, the stock and the captured piles."""
    seen: Counter[str] = Counter()
    try:
        for hand in state.get("hands", []):
            seen.update(hand)
        seen.update(state.get("table", []))
        for stack in state.get("stacks", []):
            seen.update(stack.get("bonus", []))
        seen.update(state.get("in_play", []))
        seen.update(state.get("stock", []))
        for pile in state.get("captured", []):
            seen.update(pile)
    except TypeError:
        return ["the state's card lists are malformed"]
    cards = deck().cards
    wanted = {cards[i].id for i in deck_indices(o)}
    problems = [f"{cid} is in {seen[cid]} places" for cid in sorted(wanted) if seen[cid] != 1]
    problems += [f"{cid} is not a card of this ruleset's deck" for cid in sorted(set(seen) - wanted)]
    return problems


def score_violations(state: Json, scores: list[Json], o: Options) -> list[str]:
    """Each reported base score equals the base recomputed from the reported captured pile."""
    if o.scoring_system != "gostop":
        return []
    by_id = deck().by_id
    out = []
    players = state.get("players") or []
    for seat, pile in enumerate(state.get("captured", [])):
        if seat >= len(scores) or not isinstance(scores[seat], dict) or "base" not in scores[seat]:
            continue
        try:
            indices = [by_id[c].index for c in pile]
            moved = [by_id[c].index for c in (players[seat].get("dual_junk", []) if seat < len(players) else [])]
        except KeyError as exc:
            out.append(f"seat {seat}: unknown card {exc.args[0]!r} in the captured pile")
            continue
        expected = best_breakdown(indices, o, moved).base
        if scores[seat]["base"] != expected:
            out.append(f"seat {seat}: reported base {scores[seat]['base']}, but the captured pile scores {expected}")
    return out
