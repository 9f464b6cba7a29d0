"""Invariants checked on every reply of every engine, whatever the scenario expects: each card
of the ruleset's deck in exactly one place, and reported scores that recompute from the reported
captured piles under the ruleset (R-SCORE-SUM, R-DUAL-ROLE)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from gostop_conformance.harness._probes import depends_on
from gostop_conformance.reference import best_base, best_breakdown, deck_indices
from gostop_conformance.spec import Options, deck, memo

Json = dict[str, Any]


def card_violations(state: Json, o: Options) -> list[str]:
    """Every card in exactly one place: hands, table (stacks included), stack bonus cards, the
    cards of a paused turn, the stock and the captured piles."""
    placed: list[str] = []
    try:
        for hand in state.get("hands", []):
            placed += hand
        placed += state.get("table", [])
        for stack in state.get("stacks", []):
            placed += stack.get("bonus", [])
        placed += state.get("in_play", [])
        placed += state.get("stock", [])
        for pile in state.get("captured", []):
            placed += pile
        placed.sort()
    except TypeError:
        return ["the state's card lists are malformed"]
    wanted = _DECK_IDS.get(o.bonus_cards) or _DECK_IDS.setdefault(o.bonus_cards, sorted(deck().cards[i].id for i in deck_indices(o)))
    if placed == wanted:  # the answer on every reply of a sound engine: no counting needed
        return []
    seen = Counter(placed)
    problems = [f"{cid} is in {seen[cid]} places" for cid in wanted if seen[cid] != 1]
    problems += [f"{cid} is not a card of this ruleset's deck" for cid in sorted(set(seen) - set(wanted))]
    return problems


#: the sorted card ids of each deck, by its bonus cards (read only: shared between calls)
_DECK_IDS: Final[dict[tuple[int, ...], list[str]]] = memo({})


def score_violations(state: Json, scores: list[Json], o: Options, unjudged: frozenset[str] = frozenset()) -> list[str]:
    """Each reported base score equals the base recomputed from the reported captured pile, unless
    the base recomputed rests on an option of `unjudged` (one the engine does not declare, so
    that it may score the pile under another value)."""
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
        expected = best_base(indices, o, moved)
        if scores[seat]["base"] != expected and not depends_on(_base_of(indices, moved), o, unjudged):
            why = _categories(scores[seat], best_breakdown(indices, o, moved))
            out.append(f"seat {seat}: reported base {scores[seat]['base']}, but the captured pile scores {expected} ({why})")
    return out


#: the score's categories (spec/protocol: score), each with the count it is scored from
_CATEGORIES: Final = (
    ("bright_points", "brights"),
    ("animal_points", "animals"),
    ("godori_points", None),
    ("ribbon_points", "ribbons"),
    ("dan_points", "dans"),
    ("junk_points", "junk_units"),
    ("extra_points", None),
)


def _categories(reported: Json, recomputed: Any) -> str:
    """Which categories differ, where the engine reports them, else what the pile scores in each."""
    differ = [
        f"{points}: reported {reported[points]}, recomputed {getattr(recomputed, points)}"
        + (f" ({count} {_shown(getattr(recomputed, count))})" if count else "")
        for points, count in _CATEGORIES
        if points in reported and reported[points] != getattr(recomputed, points)
    ]
    if differ:
        return "; ".join(differ)
    return "recomputed: " + ", ".join(
        f"{points} {getattr(recomputed, points)}" + (f" ({count} {_shown(getattr(recomputed, count))})" if count else "")
        for points, count in _CATEGORIES
    )


def _shown(value: Any) -> str:
    return ", ".join(value) if isinstance(value, tuple) else str(value)


def _base_of(indices: list[int], moved: list[int]) -> Callable[[Options], int]:
    """The pile's base under any options (R-SCORE-SUM), for `depends_on`."""
    return lambda rules: best_base(indices, rules, moved)
