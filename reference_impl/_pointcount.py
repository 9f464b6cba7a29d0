"""The point-count variant (R-PC-CARD-POINTS, R-PC-SETS, R-PC-GOAL): a pile's card points and
completed sets, and the settlement on them."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Final

from gostop_conformance.reference._scoring import DAN_SETS
from gostop_conformance.reference._settlement import PointCountResult, Settlement, _others
from gostop_conformance.spec import ANIMAL, BRIGHT, RIBBON, Options, deck

PC_POINTS: Final = {BRIGHT: 20, ANIMAL: 10, RIBBON: 5}
PC_SETS: Final = {
    "wikipedia": (
        ("hong", DAN_SETS["hong"], 30),
        ("cheong", DAN_SETS["cheong"], 30),
        ("may", frozenset(range(16, 20)), 20),
        ("october", frozenset(range(36, 40)), 20),
        ("november", frozenset(range(40, 44)), 40),
        ("december", frozenset(range(44, 48)), 20),
    ),
    "minhwatu": (
        ("hong", DAN_SETS["hong"], 30),
        ("cheong", DAN_SETS["cheong"], 30),
        ("cho", DAN_SETS["cho"], 30),
        ("may", frozenset(range(16, 20)), 20),
        ("october", frozenset(range(36, 40)), 20),
        ("december", frozenset(range(44, 48)), 20),
    ),
}


def pc_card_points(pile: Iterable[int]) -> int:
    """R-PC-CARD-POINTS: brights 20, animals 10 (dual cards too), ribbons 5 (December too), junk 0."""
    cards = deck().cards
    return sum(PC_POINTS.get(cards[i].kind, 0) for i in pile)


def pc_sets(pile: Collection[int], o: Options) -> list[tuple[str, int]]:
    """R-PC-SETS: the completed sets of `pile` with the amount each other player pays."""
    held = frozenset(pile)
    return [(name, amount) for name, members, amount in PC_SETS[o.pc_set_table] if members <= held]


def settle_point_count(piles: Sequence[Sequence[int]], o: Options) -> Settlement:
    """R-PC-GOAL, R-PC-SETS: balance = card points + sets received - sets paid - 240 / players."""
    n = len(piles)
    breakeven = 240 // n
    payments: list[tuple[int, int, int]] = []
    net = [pc_card_points(p) - breakeven for p in piles]
    sets: list[tuple[str, ...]] = []
    for seat, pile in enumerate(piles):
        done = pc_sets(pile, o)
        sets.append(tuple(name for name, _ in done))
        for _, amount in done:
            for other in _others(seat, n):
                payments.append((other, seat, amount))
                net[other] -= amount
                net[seat] += amount
    return Settlement(
        kind="point_count",
        winner=None,
        net=tuple(net),
        payments=tuple(payments),
        point_count=PointCountResult(breakeven=breakeven, card_points=tuple(pc_card_points(p) for p in piles), sets=tuple(sets)),
        clauses=("R-PC-CARD-POINTS", "R-PC-GOAL", "R-PC-SETS", "R-PC-END"),
    )
