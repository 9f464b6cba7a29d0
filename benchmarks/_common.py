"""What every benchmark shares: the stable output line, medians, and a machine calibration.

Every figure line reads `<metric> [key=value ...] median=<x> runs=<r1> <r2> ...`, so runs on
different days diff cleanly; `calibration_loop_ns` says how fast this machine runs plain Python
(the same loop everywhere), to compare figures measured on different machines.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Final

from gostop_conformance.reference import RandomPlayer, SplitMix64, engine_build, seeded_round
from gostop_conformance.spec import Ruleset

#: which build of the engine a figure is of (`build=` on every engine figure): interpreted, or
#: compiled with mypyc (make compiled; the benchmarks run from build/compiled)
BUILD: Final = engine_build()


def line(metric: str, runs: Sequence[float], digits: int = 0, **labels: object) -> str:
    shown = " ".join(f"{r:.{digits}f}" for r in runs)
    tags = "".join(f" {k}={v}" for k, v in labels.items())
    return f"{metric}{tags} median={statistics.median(runs):.{digits}f} runs={shown}"


def repeat(fn: Callable[[], float], times: int) -> list[float]:
    return [fn() for _ in range(times)]


def calibration_loop_ns(iterations: int = 2_000_000) -> float:
    """Nanoseconds per iteration of a fixed pure-Python loop (integer adds, a list append, a dict
    lookup): a yardstick of the interpreter on this machine, not of the engine."""
    table = {i: i for i in range(64)}
    out: list[int] = []
    start = time.perf_counter()
    total = 0
    for i in range(iterations):
        total += table[i & 63]
        if i & 1023 == 0:
            out.append(total)
    return (time.perf_counter() - start) / iterations * 1e9


def random_rounds(rs: Ruleset, rounds: int) -> tuple[float, int]:
    """The engine's random-round workload (rounds.py, peer.py, floor.py): round k dealt from seed k
    with seat k mod the players dealing, a seeded random legal choice at every decision, no
    invariant checks. The seconds it took and the actions played."""
    players = rs.options.players
    actions = 0
    start = time.perf_counter()
    for seed in range(rounds):
        rnd = seeded_round(rs, SplitMix64(seed), seed % players)
        player = RandomPlayer(seed)
        while not rnd.over:
            rnd.apply(player.choose(rnd))
            actions += 1
    return time.perf_counter() - start, actions
