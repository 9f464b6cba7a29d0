"""Harness throughput: scenarios per second in process and over stdio (reference engine), and
protocol round trips per second against a trivial echo engine.

    python benchmarks/harness.py [--repeat R]

Each figure is the median of R runs; output lines are stable:
`<metric> median=<x> runs=<...>`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from conformance import ReferenceEngine, load_corpus, run_scenario
from conformance._stdio import StdioEngine

HERE = Path(__file__).resolve().parent


def scenarios_in_process(corpus: list) -> float:
    engine = ReferenceEngine()
    start = time.perf_counter()
    for sc in corpus:
        run_scenario(engine, sc)
    return len(corpus) / (time.perf_counter() - start)


def scenarios_over_stdio(corpus: list) -> float:
    engine = StdioEngine([sys.executable, "-m", "reference_impl", "--stdio"])
    engine.start()
    try:
        start = time.perf_counter()
        for sc in corpus:
            run_scenario(engine, sc)
        return len(corpus) / (time.perf_counter() - start)
    finally:
        engine.close()


def echo_round_trips(n: int = 5000) -> float:
    engine = StdioEngine([sys.executable, str(HERE / "echo_engine.py")])
    engine.start()
    try:
        start = time.perf_counter()
        for _ in range(n):
            engine.legal()
        return n / (time.perf_counter() - start)
    finally:
        engine.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    corpus = load_corpus()
    for name, fn in (
        ("scenarios_per_second_in_process", lambda: scenarios_in_process(corpus)),
        ("scenarios_per_second_over_stdio", lambda: scenarios_over_stdio(corpus)),
        ("echo_round_trips_per_second", echo_round_trips),
    ):
        runs = [fn() for _ in range(args.repeat)]
        print(f"{name} median={statistics.median(runs):.0f} runs={' '.join(f'{r:.0f}' for r in runs)}")


if __name__ == "__main__":
    main()
