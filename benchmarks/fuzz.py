"""Differential fuzzing throughput, and what it is as a share of the engine's own speed.

    python benchmarks/fuzz.py [--games N] [--repeat R] [--engine COMMAND]

Each run plays the same N fuzz rounds (seed r of the run) twice, back to back: once as
`gostop-conformance fuzz` plays them (the reference engine in process decides and checks every
action; the engine under test answers over stdio, by default `gostop-reference --stdio`), and
once by the reference engine alone, in process, on its own objects (the same deals, options and
choices; no JSON, no comparison). Lines:

    fuzz_rounds_per_second engine=<e> median=<x> runs=<...>
    fuzz_in_process_rounds_per_second median=<x> runs=<...>   (the same rounds, the engine alone)
    fuzz_ratio engine=<e> median=<x> runs=<...>               (the first / the second, run by run)

A run against the reference engine must find no divergence; against another engine (`--engine`,
e.g. a peer's adapter) the rounds that diverge end at their first difference, as fuzzing plays them.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from typing import Any

from _common import BUILD, line

from gostop_conformance.harness import StdioEngine, fuzz, fuzz_case, fuzz_configurations
from gostop_conformance.harness import parse_declaration as parse
from gostop_conformance.reference import Round, deal_from_json
from gostop_conformance.spec import load_ruleset

REFERENCE = f"{shlex.quote(sys.executable)} -m gostop_conformance.reference --stdio"


def fuzzed(command: str, games: int, seed: int, configs: list[Any]) -> float:
    engine = StdioEngine(shlex.split(command))
    engine.start()
    try:
        start = time.perf_counter()
        report = fuzz(engine, games, seed, configs, do_shrink=False)
        seconds = time.perf_counter() - start
    finally:
        engine.close()
    if command == REFERENCE and report.divergences:
        sys.exit(f"the reference engine diverged from itself (seed {seed}): {report.divergences[0]}")
    return report.rounds / seconds


def in_process(cases: list[Any]) -> float:
    """The same rounds, played by the reference engine on its own objects."""
    start = time.perf_counter()
    for case in cases:
        rules = load_ruleset(case.ruleset).with_overrides(case.options, "fuzz")
        rnd = Round(rules, deal_from_json(case.deal, rules.options), check=False)
        for choice in case.choices:
            if rnd.over:
                break
            actions = rnd.legal_actions()
            if not actions:
                break
            rnd.apply(actions[choice % len(actions)])
    return len(cases) / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--engine", default=REFERENCE, help="the engine under test (default: the reference engine over stdio)")
    args = p.parse_args()
    probe = StdioEngine(shlex.split(args.engine))
    try:
        configs = fuzz_configurations(parse(probe.start()))
    finally:
        probe.close()
    label = "reference" if args.engine == REFERENCE else shlex.split(args.engine)[-1].rstrip("/").rsplit("/", 1)[-1]
    fuzzing, alone = [], []
    for seed in range(1, args.repeat + 1):
        fuzzing.append(fuzzed(args.engine, args.games, seed, configs))
        alone.append(in_process([fuzz_case(seed, g, configs) for g in range(args.games)]))
    print(line("fuzz_rounds_per_second", fuzzing, engine=label, games=args.games, build=BUILD))
    print(line("fuzz_in_process_rounds_per_second", alone, games=args.games, build=BUILD))
    print(line("fuzz_ratio", [f / a for f, a in zip(fuzzing, alone, strict=True)], 3, engine=label, build=BUILD))


if __name__ == "__main__":
    main()
