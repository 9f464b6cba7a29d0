"""Perft on the reference engine (spec/perft.yaml): the decision tree of a round walked with
Round.copy(), with per-ply statistics."""

from __future__ import annotations

from functools import cache
from typing import Final

import yaml

from gostop_conformance.reference._events import Action, Event
from gostop_conformance.reference._round import Round
from gostop_conformance.spec import spec_dir

EVENT_STATS: Final = ("ppeok", "jjok", "ttadak", "sweep", "stack_capture")


@cache
def statistic_names() -> tuple[str, ...]:
    data = yaml.safe_load((spec_dir() / "perft.yaml").read_text(encoding="utf-8"))
    return tuple(data["statistics"])


_EVENT_STATS_SET: Final = frozenset(EVENT_STATS)


def count(row: dict[str, int], action: Action, events: list[Event], over: bool, outcome: str | None) -> None:
    """Add what one action contributes to its ply's statistics (spec/perft.yaml) to `row`."""
    row["nodes"] += 1
    if over:
        row["terminal"] += 1
        if outcome == "nagari":
            row["nagari"] += 1
    if action.type in ("stop", "go"):
        row[action.type] += 1
    kinds = {e.kind for e in events}
    for kind in kinds & _EVENT_STATS_SET:  # once per action, however many events of the kind
        row[kind] += 1
    if "steal" in kinds and any(e.kind == "steal" and e.cards for e in events):
        row["steal"] += 1


def perft(rnd: Round, depth: int) -> list[dict[str, int]]:
    """Statistics for plies 1..depth (index 0 is ply 1)."""
    table = [dict.fromkeys(statistic_names(), 0) for _ in range(depth)]
    _walk(rnd, depth, 0, table)
    return table


def _walk(rnd: Round, depth: int, ply: int, table: list[dict[str, int]]) -> None:
    if ply == depth or rnd.over:
        return
    row = table[ply]
    deeper = ply + 1 < depth
    for action in rnd.legal_actions():
        child = rnd.copy()
        events = child.apply(action)
        over = child.over
        count(row, action, events, over, child.settlement.kind if over and child.settlement else None)
        if deeper and not over:
            _walk(child, depth, ply + 1, table)


def divide(rnd: Round, depth: int) -> list[tuple[Action, int]]:
    """perft(depth - 1) below each legal action of the root: the subtree sizes, for comparison."""
    out = []
    for action in rnd.legal_actions():
        child = rnd.copy()
        child.apply(action)
        if depth <= 1:
            out.append((action, 1))
        else:
            out.append((action, perft(child, depth - 1)[-1]["nodes"] if not child.over else 0))
    return out
