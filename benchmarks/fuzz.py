"""Differential fuzzing throughput: random rounds played by the reference engine in process and,
request by request, by the reference engine over stdio (`gostop-conformance fuzz`), compared
after every action.

    python benchmarks/fuzz.py [--games N] [--repeat R]

Output: `fuzz_rounds_per_second median=<x> runs=<...>` (every run must find no divergence).
"""

from __future__ import annotations

import argparse
import sys
import time

from _common import BUILD, line

from gostop_conformance.harness import StdioEngine, fuzz, fuzz_configurations
from gostop_conformance.harness import parse_declaration as parse


def once(games: int, seed: int) -> float:
    engine = StdioEngine([sys.executable, "-m", "gostop_conformance.reference", "--stdio"])
    configs = fuzz_configurations(parse(engine.start()))
    try:
        start = time.perf_counter()
        report = fuzz(engine, games, seed, configs, do_shrink=False)
        seconds = time.perf_counter() - start
    finally:
        engine.close()
    if report.divergences:
        sys.exit(f"the reference engine diverged from itself (seed {seed}): {report.divergences[0]}")
    return report.rounds / seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    print(line("fuzz_rounds_per_second", [once(args.games, seed) for seed in range(1, args.repeat + 1)], games=args.games, build=BUILD))


if __name__ == "__main__":
    main()
