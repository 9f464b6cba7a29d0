"""How long `gostop-conformance profile` takes: against the reference engine over stdio, and
against each peer engine whose checkout is given.

    python benchmarks/profile.py [--repeat R] [--jobs J] [--peer NAME=CHECKOUT ...]

The peers are the adapters of peers/ (gostop-ts, go-stop-python), run from a checkout given on
the command line (or $GOSTOP_TS, $GO_STOP_PYTHON), never part of this repository. Each profile
is a process of its own, timed whole (wall clock), R times; a profile that fails stops the
benchmark. Lines:

    profile_seconds engine=<name> jobs=<j> median=<x> runs=<...>

Without a peer's checkout (or without node, for gostop-ts) its line is `skipped: ...`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

from _common import BUILD, line

HERE: Final = Path(__file__).resolve().parent
PEERS: Final = HERE.parent / "peers"
#: each peer's adapter command, given its checkout; and the variable naming a checkout
ADAPTERS: Final = {
    "gostop-ts": (["node", str(PEERS / "gostop-ts" / "adapter.mjs")], "GOSTOP_TS"),
    "go-stop-python": ([sys.executable, str(PEERS / "go-stop-python" / "adapter.py")], "GO_STOP_PYTHON"),
}


def timed(engine: list[str], jobs: int) -> float:
    with tempfile.TemporaryDirectory() as out:
        command = [sys.executable, "-m", "gostop_conformance.harness", "profile", "--engine", subprocess.list2cmdline(engine)]
        start = time.perf_counter()
        proc = subprocess.run([*command, "--jobs", str(jobs), "--out", out], capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"profile failed (exit code {proc.returncode}): {proc.stderr.strip()[-400:]}")
    return seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--jobs", type=int, default=1, help="profile --jobs (default 1)")
    p.add_argument("--peer", action="append", default=[], help="NAME=CHECKOUT: a peer of peers/ and its checkout")
    args = p.parse_args()
    checkouts = {name: os.environ.get(variable, "") for name, (_, variable) in ADAPTERS.items()}
    for given in args.peer:
        name, _, checkout = given.partition("=")
        if name not in ADAPTERS:
            sys.exit(f"--peer: unknown peer {name!r}; expected one of {', '.join(ADAPTERS)}")
        checkouts[name] = checkout
    engines = {"reference": [sys.executable, "-m", "gostop_conformance.reference", "--stdio"]}
    for name, (adapter, variable) in ADAPTERS.items():
        checkout = checkouts[name]
        if not checkout or not Path(checkout).is_dir():
            print(f"skipped: profile of {name} (no checkout: --peer {name}=PATH or ${variable})")
        elif shutil.which(adapter[0]) is None and not Path(adapter[0]).exists():
            print(f"skipped: profile of {name} ({adapter[0]} is not on PATH)")
        else:
            engines[name] = [*adapter, checkout]
    for name, engine in engines.items():
        runs = [timed(engine, args.jobs) for _ in range(args.repeat)]
        print(line("profile_seconds", runs, 1, engine=name, jobs=args.jobs, build=BUILD), flush=True)


if __name__ == "__main__":
    main()
