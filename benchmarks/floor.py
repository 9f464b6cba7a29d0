"""The floor: random rounds per second of the least a Go-Stop round can be in Python, beside the
reference engine's, interleaved in one process: how far the rules' cost leaves the engine from
what the language itself allows, and so what side-by-side ratios (peer.py) an engine written in
Python can reach at best.

    python benchmarks/floor.py [--rounds N] [--pairs P] [--mypyc]

The floor is _floor_kernel.py: the deal (R-SHUFFLE's SplitMix64, through the engine's own class,
so each build draws with its own implementation), a random hand card a turn, month matching, the
flip, a count of the captures, Go or Stop by a coin flip; no checks, no events, no options, no
special rules, no settlement. The engine's side is rounds.py's workload (matgo-2p, round k from
seed k, a seeded random legal choice at every decision). Run it with the build to measure: the
interpreted engine from the source tree; the compiled one as `cd build && venv-compiled/bin/python
../benchmarks/floor.py --mypyc`, where `--mypyc` first compiles the floor with mypyc (from PATH or
the development venv, .venv/bin/mypyc) into a temporary directory, as the engine's build is
compiled. Lines:

    floor_rounds_per_second floor=<interpreted|mypyc> median=<x> runs=<...>
    rounds_per_second ruleset=matgo-2p build=<b> median=<x> runs=<...>
    floor_ratio build=<b> floor=<f> median=<x> runs=<...>    (the engine / the floor, pair by pair)
    decisions_per_round engine=<floor|reference> value=<x>

`peer.py --floor` runs the floor beside gostop-ts and the engine (bonus cards off only): the ratio
the floor itself reaches against the peer.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType
from typing import Final

from _common import BUILD, line, random_rounds

from gostop_conformance.spec import deck, load_ruleset

HERE: Final = Path(__file__).resolve().parent
RULESET: Final = "matgo-2p"
#: the floor's kinds: 0 junk (single or double, by units), 1 animal, 2 ribbon, 3 bright
_KINDS: Final = {"junk": 0, "double-junk": 0, "animal": 1, "ribbon": 2, "bright": 3}
#: three brights score (R-SCORE-BRIGHT): the one count that is not an option
_BRIGHTS_SCORE_FROM: Final = 3
#: the C flags setup.py adds to the engine's compiled build (NATIVE_CFLAGS; GCC, clang), given to the floor's too
ENGINE_CFLAGS: Final = ("-fno-semantic-interposition", "-fno-plt")


def _tables() -> tuple[list[int], list[int], list[int], list[int]]:
    """The floor's card tables and thresholds, from spec/deck.yaml and the ruleset's options."""
    o = load_ruleset(RULESET).options
    cards = [c for c in deck().cards if c.kind in _KINDS]  # matgo-2p plays without bonus cards
    thresholds = [o.junk_threshold, o.animal_threshold, o.ribbon_threshold, _BRIGHTS_SCORE_FROM, o.go_threshold]
    return [c.month for c in cards], [_KINDS[c.kind] for c in cards], [c.units for c in cards], thresholds


def _compiled_kernel() -> ModuleType:
    """_floor_kernel compiled by mypyc in a temporary directory, removed when the process ends (a
    loaded extension keeps working once its file is gone)."""
    mypyc = shutil.which("mypyc") or str(HERE.parent / ".venv" / "bin" / "mypyc")
    if not Path(mypyc).exists():
        sys.exit("floor.py --mypyc: no mypyc on PATH nor in .venv/bin (make .venv/.installed)")
    work = Path(tempfile.mkdtemp(prefix="gostop-floor-"))
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    shutil.copy(HERE / "_floor_kernel.py", work / "_floor_kernel.py")
    # mypyc type-checks the kernel against the engine's sources (the kernel imports SplitMix64)
    done = subprocess.run(
        [mypyc, "_floor_kernel.py"],
        cwd=work,
        check=False,
        capture_output=True,
        text=True,
        env={**os.environ, "MYPYPATH": str(HERE.parent), **({} if sys.platform == "win32" else {"CFLAGS": " ".join(ENGINE_CFLAGS)})},
    )
    if done.returncode != 0:
        sys.exit(f"floor.py --mypyc: mypyc failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    sys.path.insert(0, str(work))
    sys.modules.pop("_floor_kernel", None)
    kernel = importlib.import_module("_floor_kernel")
    if not (kernel.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES)):
        sys.exit(f"floor.py --mypyc: imported {kernel.__file__}, not the compiled kernel")
    return kernel


def _serve(floor_run: Callable[[int], tuple[float, int]], name: str) -> None:
    """peer.py's worker protocol: `run off <rounds>` on stdin, one JSON line a run on stdout (the
    floor has no bonus cards: `run on` is an error)."""
    print(json.dumps({"ready": True, "build": f"floor-{name}"}), flush=True)
    for text in sys.stdin:
        _, bonus, count = text.split()
        if bonus != "off":
            print(json.dumps({"error": "the floor plays without bonus cards"}), flush=True)
            continue
        seconds, decisions = floor_run(int(count))
        print(json.dumps({"seconds": seconds, "rounds": int(count), "actions": decisions}), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=2000, help="rounds a run of each (default 2000)")
    p.add_argument("--pairs", type=int, default=5, help="interleaved runs of each (default 5)")
    p.add_argument("--mypyc", action="store_true", help="compile the floor with mypyc first")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # a worker of peer.py --floor
    args = p.parse_args()
    if args.rounds < 1 or args.pairs < 1:
        sys.exit("floor.py: --rounds and --pairs must be at least 1")
    kernel = _compiled_kernel() if args.mypyc else importlib.import_module("_floor_kernel")
    floor_name = "mypyc" if args.mypyc else "interpreted"
    month, kind, units, thresholds = _tables()

    def floor_run(rounds: int) -> tuple[float, int]:
        """The seconds and the decisions of `rounds` floor rounds, as random_rounds() gives the engine's."""
        start = time.perf_counter()
        decisions: int = kernel.play_rounds(0, rounds, month, kind, units, thresholds)
        return time.perf_counter() - start, decisions

    if args.serve:
        _serve(floor_run, floor_name)
        return

    rs = load_ruleset(RULESET)
    floor_run(max(1, args.rounds // 10))  # warm-up: imports, spec loading, caches
    random_rounds(rs, max(1, args.rounds // 10))
    floors: list[float] = []
    engines: list[float] = []
    floor_decisions = engine_decisions = 0
    for _ in range(args.pairs):
        seconds, floor_decisions = floor_run(args.rounds)
        floors.append(args.rounds / seconds)
        seconds, engine_decisions = random_rounds(rs, args.rounds)  # rounds.py's workload
        engines.append(args.rounds / seconds)
    print(line("floor_rounds_per_second", floors, floor=floor_name), flush=True)
    print(line("rounds_per_second", engines, ruleset=RULESET, build=BUILD), flush=True)
    print(line("floor_ratio", [e / f for e, f in zip(engines, floors, strict=True)], 3, build=BUILD, floor=floor_name))
    print(f"decisions_per_round engine=floor value={floor_decisions / args.rounds:.1f}")
    print(f"decisions_per_round engine=reference value={engine_decisions / args.rounds:.1f}", flush=True)


if __name__ == "__main__":
    main()
