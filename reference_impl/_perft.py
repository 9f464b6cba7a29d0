"""Perft on the reference engine (spec/perft.yaml): the decision tree of a round walked with
Round.clone(), with per-ply statistics."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

import yaml

from reference_impl._events import Action, Event
from reference_impl._round import Round
from reference_impl._spec import spec_dir

EVENT_STATS: Final = ("ppeok", "jjok", "ttadak", "sweep", "stack_capture")


@cache
def statistic_names() -> tuple[str, ...]:
    data = yaml.safe_load((spec_dir() / "perft.yaml").read_text(encoding="utf-8"))
    return tuple(data["statistics"])


def classify(action: Action, events: Iterable[Event], over: bool, outcome: str | None) -> dict[str, int]:
    """The statistics one action contributes to its ply."""
    kinds = {e.kind for e in events}
    stolen = any(e.kind == "steal" and e.cards for e in events)
    counts = {
        "nodes": 1,
        "terminal": int(over),
        "stop": int(action.type == "stop"),
        "go": int(action.type == "go"),
        "nagari": int(over and outcome == "nagari"),
        "steal": int(stolen),
    }
    for kind in EVENT_STATS:
        counts[kind] = int(kind in kinds)
    return counts


def perft(rnd: Round, depth: int) -> list[dict[str, int]]:
    """Statistics for plies 1..depth (index 0 is ply 1)."""
    table = [dict.fromkeys(statistic_names(), 0) for _ in range(depth)]
    _walk(rnd, depth, 0, table)
    return table


def _walk(rnd: Round, depth: int, ply: int, table: list[dict[str, int]]) -> None:
    if ply == depth or rnd.over:
        return
    row = table[ply]
    for action in rnd.legal_actions():
        child = rnd.clone()
        events = child.apply(action)
        outcome = child.settlement.kind if child.settlement else None
        for key, value in classify(action, events, child.over, outcome).items():
            row[key] += value
        _walk(child, depth, ply + 1, table)


def divide(rnd: Round, depth: int) -> list[tuple[Action, int]]:
    """perft(depth - 1) below each legal action of the root: the subtree sizes, for comparison."""
    out = []
    for action in rnd.legal_actions():
        child = rnd.clone()
        child.apply(action)
        if depth <= 1:
            out.append((action, 1))
        else:
            out.append((action, perft(child, depth - 1)[-1]["nodes"] if not child.over else 0))
    return out
