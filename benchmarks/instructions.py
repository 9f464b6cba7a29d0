"""Instructions per random round (valgrind's callgrind), a figure that does not move with the
machine's load: the way to compare two versions of the engine on a busy or throttled machine.

    python benchmarks/instructions.py [--rounds N] [--ruleset ID ...]

Plays N seeded random rounds (as rounds.py does) under callgrind, and 0 rounds, and prints
`instructions_per_round ruleset=<id> value=<x>`: the difference over N. Needs valgrind on PATH;
hash randomisation is fixed (PYTHONHASHSEED=0). Runs within about 2% of each other.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

PLAY = """
import sys
from gostop_conformance.reference import RandomPlayer, SplitMix64, seeded_round
from gostop_conformance.spec import load_ruleset
rs = load_ruleset(sys.argv[1])
o = rs.options
for seed in range(int(sys.argv[2])):
    rnd = seeded_round(rs, SplitMix64(seed), seed % o.players)
    player = RandomPlayer(seed)
    while not rnd.over:
        rnd.apply(player.choose(rnd))
"""


def instructions(ruleset: str, rounds: int) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", PLAY, ruleset, str(rounds)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        check=True,
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        sys.exit(f"callgrind printed no instruction count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=150)
    p.add_argument("--ruleset", action="append")
    args = p.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    for rid in args.ruleset or ("matgo-2p", "standard-3p"):
        per_round = (instructions(rid, args.rounds) - instructions(rid, 0)) / args.rounds
        print(f"instructions_per_round ruleset={rid} value={per_round:.0f}", flush=True)


if __name__ == "__main__":
    main()
