"""Perft nodes per second of the reference engine (native: Round.clone, spec/perft.yaml) at a
fixed deal and depth from scenarios/perft/tables.yaml.

    python benchmarks/perft.py [--table ID] [--depth D] [--repeat R]

Output: `perft_nodes_per_second table=<id> depth=<d> median=<x> runs=<...>`; the node count is
checked against the published table, so a fast but wrong engine cannot report a figure.
"""

from __future__ import annotations

import argparse
import sys
import time

from _common import BUILD, line, repeat

from gostop_conformance.harness import default_root, load_perft
from gostop_conformance.reference import perft


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--table", default="matgo-2p-seed-1")
    p.add_argument("--depth", type=int, default=5)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    case = next(c for c in load_perft(default_root() / "perft" / "tables.yaml") if c.id == args.table)
    want = case.expected[args.depth - 1]["nodes"] if args.depth <= len(case.expected) else None

    def once() -> float:
        root = case.root()
        start = time.perf_counter()
        table = perft(root, args.depth)
        seconds = time.perf_counter() - start
        nodes = sum(row["nodes"] for row in table)
        if want is not None and table[-1]["nodes"] != want:
            sys.exit(f"perft {case.id} depth {args.depth}: {table[-1]['nodes']} nodes, the table says {want}")
        return nodes / seconds

    print(line("perft_nodes_per_second", repeat(once, args.repeat), table=case.id, depth=args.depth, build=BUILD))


if __name__ == "__main__":
    main()
