"""The training run of `make compiled-pgo`: random rounds of every named ruleset on the
instrumented compiled engine, whose counters GCC then reads to lay out and inline the final build.

Run from build/ by the compiled environment's Python (so that the installed wheel, not the
sources, is imported), with PYTHONHASHSEED=0: the same run, the same profile, the same build.
"""

from __future__ import annotations

import sys

from gostop_conformance.reference import RandomPlayer, SplitMix64, engine_build, seeded_round
from gostop_conformance.spec import load_ruleset, ruleset_ids

#: rounds a ruleset: every rule path a random player reaches, in a few seconds
ROUNDS = 300


def main() -> None:
    if engine_build() != "compiled":
        sys.exit("pgo_train.py: the engine imported is not the compiled build (run it from build/)")
    actions = 0
    for rid in ruleset_ids():
        rs = load_ruleset(rid)
        for seed in range(ROUNDS):
            rnd = seeded_round(rs, SplitMix64(seed), seed % rs.options.players)
            player = RandomPlayer(seed)
            while not rnd.over:
                rnd.apply(player.choose(rnd))
                actions += 1
    print(f"pgo_train: {ROUNDS} rounds of each of {len(ruleset_ids())} rulesets, {actions} actions")


if __name__ == "__main__":
    main()
