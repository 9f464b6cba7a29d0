"""`perft`: a round's decision tree counted and compared with the published tables."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Final

from gostop_conformance.harness import _bounds as bounds
from gostop_conformance.harness._cli._common import (
    TIMEOUT_HELP,
    AddParser,
    Command,
)
from gostop_conformance.harness._defaults import DEFAULT_TIMEOUT
from gostop_conformance.harness._engine import EngineError
from gostop_conformance.harness._outputs import writable_file
from gostop_conformance.harness._perft import PerftCase, divide_walk, load_perft, perft_engine, reference_table, write_perft
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.spec import (
    EXIT_FAIL,
    EXIT_OK,
    InputError,
    counted,
)


def _add_perft(add_parser: AddParser) -> None:
    pf = add_parser("perft", help="count a round's decision tree (spec/perft.yaml) and compare it with the published tables")
    pf.add_argument("--deal", type=Path, required=True, help="a perft table file (scenarios/perft/*.yaml)")
    pf.add_argument("--id", default=None, help="only this table of the file")
    pf.add_argument("--depth", type=int, default=3, help="plies to count (default 3)")
    pf.add_argument("--engine", default=None, help="engine command (default: the reference engine, natively)")
    pf.add_argument("--divide", action="store_true", help="on a difference, walk down to the first differing subtree")
    pf.add_argument("--write", action="store_true", help="recompute every table of the file to its own depth with the reference engine")
    pf.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help=TIMEOUT_HELP)


def _perft(args: argparse.Namespace) -> int:
    cases = [c for c in load_perft(args.deal) if args.id is None or c.id == args.id]
    if not cases:
        raise InputError("--id", f"no table {args.id!r} in {args.deal}")
    bounds.count("--depth", args.depth, 1, bounds.MAX_PERFT_DEPTH, "a number of plies")
    if args.write:
        writable_file("--deal", args.deal)
    timeout = bounds.seconds("--timeout", args.timeout)
    engine = StdioEngine(bounds.engine_argv(args.engine, args.engine_option), message_timeout=timeout) if args.engine is not None else None
    if args.write and engine is not None:
        raise InputError("--write", "tables are written from the reference engine only; drop --engine")
    status = EXIT_OK
    written: list[tuple[PerftCase, list[dict[str, int]]]] = []
    try:
        for case in cases:
            depth = case.depth if args.write else args.depth
            start = time.perf_counter()
            table = perft_engine(engine, case, depth) if engine is not None else reference_table(case, depth)
            seconds = time.perf_counter() - start
            nodes = sum(int(row["nodes"]) for row in table)
            rate = nodes / seconds if seconds else 0.0
            print(f"{case.id} ({case.ruleset}), depth {depth}: {counted(nodes, 'node')} in {seconds:.2f}s ({rate:.0f} nodes/s)")
            for ply, row in enumerate(table, 1):
                expected = case.expected[ply - 1] if ply <= len(case.expected) else None
                mark = (
                    ""
                    if expected is None
                    else ("  ok" if all(row.get(k) == v for k, v in expected.items()) else f"  DIFFERS from {expected}")
                )
                print(f"  ply {ply}: " + " ".join(f"{k}={v}" for k, v in row.items() if v) + mark)
                if mark.startswith("  DIFFERS"):
                    status = EXIT_FAIL
            if status and args.divide and engine is not None:
                for line in divide_walk(engine, case, args.depth):
                    print("  divide: " + line)
            written.append((case, table))
        if args.write:
            write_perft(args.deal, written)
            print(f"wrote {counted(len(written), 'table')} to {args.deal}")
    except EngineError as exc:
        print(f"gostop-conformance: the engine failed: {exc.kind}: {exc.message}", file=sys.stderr)
        return EXIT_FAIL
    finally:
        if engine is not None:
            engine.close()
    return status


#: the commands of this module, by name
COMMANDS: Final = {
    "perft": Command(_add_perft, _perft),
}
