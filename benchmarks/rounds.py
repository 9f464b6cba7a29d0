"""Random full rounds per second of the reference engine, single process.

    python benchmarks/rounds.py [--rounds N] [--repeat R] [--ruleset ID ...]

Each figure is the median of R runs of N rounds (seeds 0..N-1, a seeded random player, no
invariant checks). Output lines are stable: `rounds_per_second ruleset=<id> median=<x> runs=<...>`.
"""

from __future__ import annotations

import argparse

from _common import BUILD, line, random_rounds

from gostop_conformance.spec import load_ruleset

DEFAULT = ("matgo-2p", "standard-3p", "matgo-online")


def run(ruleset_id: str, rounds: int) -> float:
    seconds, _ = random_rounds(load_ruleset(ruleset_id), rounds)
    return rounds / seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--ruleset", action="append")
    args = p.parse_args()
    for rid in args.ruleset or DEFAULT:
        run(rid, max(1, args.rounds // 10))  # warm-up: imports, spec loading, caches
        print(line("rounds_per_second", [run(rid, args.rounds) for _ in range(args.repeat)], ruleset=rid, build=BUILD), flush=True)


if __name__ == "__main__":
    main()
