"""Every benchmark, each in its own process, with that process's peak memory: the one command
of README.md (`make bench`).

    python benchmarks/run.py [--quick]

Prints the figure lines of rounds.py, perft.py, harness.py, fuzz.py, lint.py, profile.py and floor.py, each followed by `peak_rss_mb`
of its process (harness.py reports its engine processes itself), and `calibration_loop_ns`
(see _common.py) before and after. `--quick`
runs each figure 3 times on smaller inputs, to check that everything runs (CI does not time).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from _common import BUILD, calibration_loop_ns, line

HERE = Path(__file__).resolve().parent


def run(script: str, *args: str) -> None:
    """Run one benchmark; its figure lines pass through, then its peak resident memory."""
    proc = subprocess.Popen([sys.executable, str(HERE / script), *args])
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"{script} failed (exit code {proc.returncode})")
    print(f"peak_rss_mb benchmark={script.removesuffix('.py')} build={BUILD} value={usage.ru_maxrss / 1024:.1f}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    repeat = ["--repeat", "3" if args.quick else "5"]
    print(line("calibration_loop_ns", [calibration_loop_ns() for _ in range(5)], 1), flush=True)
    run("rounds.py", *repeat, "--rounds", "200" if args.quick else "2000")
    run("perft.py", *repeat, "--depth", "4" if args.quick else "5")
    run("harness.py", *repeat)
    run("fuzz.py", *repeat, "--games", "100" if args.quick else "500")
    # quick: one area, once (each run lints three times, one of them without its cache)
    run("lint.py", *(["--repeat", "1", "--area", "capture"] if args.quick else repeat))
    # against the reference engine, and each peer whose checkout $GOSTOP_TS / $GO_STOP_PYTHON names
    run("profile.py", "--repeat", "1" if args.quick else "3")
    # the floor, built as the engine is: compiled by mypyc beside the compiled engine
    floor = ["--pairs", repeat[1], "--rounds", "200" if args.quick else "2000"]
    run("floor.py", *floor, *(["--mypyc"] if BUILD == "compiled" else []))
    print(line("calibration_loop_ns", [calibration_loop_ns() for _ in range(5)], 1), flush=True)


if __name__ == "__main__":
    main()
