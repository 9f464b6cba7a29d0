"""Random full rounds per second of a peer engine and of ours, side by side, interleaved.

    python benchmarks/peer.py --peer /path/to/gostop-ts [--rounds N] [--peer-rounds M] [--pairs P] [--floor]

The peer is bipark/gostop-ts (TypeScript), run from a local checkout with `npm install` done: it
is never part of this repository (its licence is non-commercial). benchmarks/peer_driver.mjs
drives it in process in Node; our engine runs in process in Python, interpreted, and compiled
too when build/venv-compiled exists (make compiled). The workload is rounds.py's: N rounds of two
players (matgo-2p; M, by default 10 N, for the peer, so that its runs last about as long as ours),
round k dealt from seed k, a seeded random legal choice at every decision;
bonus cards off, and on (the peer's three bonus cards, two double junk and a triple junk: our
matgo-2p with bonus_cards [2, 2, 3]).

Each engine runs in a process of its own, started once and warmed up once; then the engines play
in turn, P times over (a pair: the peer, then each build of ours), so that a change in the
machine's load falls on both sides of a pair. Lines:

    peer_rounds_per_second engine=<name> bonus=<off|on> median=<x> runs=<...>
    peer_ratio build=<b> bonus=<off|on> median=<x> runs=<...>   (ours / the peer's, pair by pair)
    actions_per_round engine=<name> bonus=<off|on> value=<x>

`--floor` adds floor.py's floor (the least a round can be in Python) as two more workers, bonus
cards off only: interpreted, and compiled by mypyc beside the compiled engine.

Without --peer (or GOSTOP_TS), or without node on PATH, it prints `skipped: ...` and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import IO, Any, Final

HERE: Final = Path(__file__).resolve().parent
ROOT: Final = HERE.parent
COMPILED_PYTHON: Final = ROOT / "build" / "venv-compiled" / "bin" / "python"
#: the peer's bonus cards (its HwatuCatalog.bonus: 쌍피, 쌍피, 3피) as our bonus_cards
PEER_BONUS_CARDS: Final = [2, 2, 3]
BONUS: Final = ("off", "on")


# ---------------------------------------------------------------------------- our engine's side


def serve() -> None:
    """The engine worker: `run <off|on> <rounds>` on stdin, one JSON line per run on stdout."""
    # imported here: the benchmark's own process never loads the engine
    from _common import BUILD, random_rounds

    from gostop_conformance.spec import load_ruleset

    base = load_ruleset("matgo-2p")
    rulesets = {"off": base, "on": base.with_overrides({"bonus_cards": PEER_BONUS_CARDS}, "peer benchmark")}
    print(json.dumps({"ready": True, "build": BUILD}), flush=True)
    for text in sys.stdin:
        _, bonus, count = text.split()
        rounds = int(count)
        seconds, actions = random_rounds(rulesets[bonus], rounds)
        print(json.dumps({"seconds": seconds, "rounds": rounds, "actions": actions}), flush=True)


# ---------------------------------------------------------------------------- the benchmark


class Worker:
    """One engine in a process of its own, asked for timed runs over a pipe."""

    def __init__(self, name: str, argv: list[str], cwd: Path) -> None:
        self.name = name
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = self._read()
        if not hello.get("ready"):
            sys.exit(f"{name}: unexpected first line {hello!r}")
        self.hello = hello

    def _read(self) -> dict[str, Any]:
        out: IO[str] | None = self.proc.stdout
        assert out is not None
        line = out.readline()
        if not line:
            sys.exit(f"{self.name} exited (code {self.proc.wait()}) before answering")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            sys.exit(f"{self.name}: {reply['error']}")
        return reply

    def run(self, bonus: str, rounds: int) -> dict[str, Any]:
        """Play `rounds` rounds; the reply has seconds, rounds and actions."""
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(f"run {bonus} {rounds}\n")
        stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def line(metric: str, runs: list[float], digits: int, **labels: object) -> str:
    tags = "".join(f" {k}={v}" for k, v in labels.items())
    shown = " ".join(f"{r:.{digits}f}" for r in runs)
    return f"{metric}{tags} median={statistics.median(runs):.{digits}f} runs={shown}"


def _bonus(w: Worker) -> tuple[str, ...]:
    """The bonus settings a worker plays: the floor has no bonus cards."""
    return ("off",) if w.name.startswith("floor-") else BONUS


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--peer", default=os.environ.get("GOSTOP_TS"), help="a gostop-ts checkout, npm install done (or GOSTOP_TS)")
    p.add_argument("--rounds", type=int, default=3000, help="rounds per run of our engine (default 3000)")
    p.add_argument(
        "--peer-rounds", type=int, default=None, help="rounds per run of the peer (default 10 x --rounds: runs of about the same length)"
    )
    p.add_argument("--pairs", type=int, default=5, help="interleaved runs of each engine (default 5, at least 5 for a median worth citing)")
    p.add_argument("--no-compiled", action="store_true", help="leave out the compiled engine even when build/venv-compiled exists")
    p.add_argument(
        "--floor",
        action="store_true",
        help="also run floor.py's floor (bonus cards off): interpreted, and compiled by mypyc beside the compiled engine",
    )
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        serve()
        return
    if not args.peer:
        print("skipped: no peer checkout given (--peer /path/to/gostop-ts, or GOSTOP_TS)")
        return
    node = shutil.which("node")
    if node is None:
        print("skipped: node is not on PATH (the peer runs in Node)")
        return
    peer = Path(args.peer)
    if not (peer / "src" / "index.ts").is_file() or not (peer / "node_modules").is_dir():
        sys.exit(f"{peer}: not a gostop-ts checkout with npm install done (src/index.ts and node_modules/ expected)")
    workers = [Worker("gostop-ts", [node, str(HERE / "peer_driver.mjs"), str(peer.resolve())], ROOT)]
    # the interpreted engine from the sources; the compiled one from build/, where no source tree
    # shadows the installed wheel (as make bench runs it)
    workers.append(Worker("interpreted", [sys.executable, str(HERE / "peer.py"), "--serve"], ROOT))
    if COMPILED_PYTHON.exists() and not args.no_compiled:
        workers.append(Worker("compiled", [str(COMPILED_PYTHON), str(HERE / "peer.py"), "--serve"], ROOT / "build"))
    if args.floor:  # the least a round can be in Python, built as each engine is (floor.py)
        workers.append(Worker("floor-interpreted", [sys.executable, str(HERE / "floor.py"), "--serve"], ROOT))
        if COMPILED_PYTHON.exists() and not args.no_compiled:
            workers.append(Worker("floor-mypyc", [str(COMPILED_PYTHON), str(HERE / "floor.py"), "--serve", "--mypyc"], ROOT / "build"))
    for w in workers[1:]:
        if w.hello["build"] != w.name:
            sys.exit(f"the {w.name} worker runs the {w.hello['build']} engine")
    # the peer plays ~10x faster: as many rounds would make its runs too short to share the
    # machine's load with ours
    rounds = {w.name: args.rounds for w in workers} | {"gostop-ts": args.peer_rounds or 10 * args.rounds}
    try:
        for w in workers:  # warm-up: imports, spec loading, caches, the JIT
            for bonus in _bonus(w):
                w.run(bonus, max(1, rounds[w.name] // 5))
        rates: dict[tuple[str, str], list[float]] = {}
        actions: dict[tuple[str, str], float] = {}
        for _ in range(args.pairs):
            for bonus in BONUS:
                for w in workers:
                    if bonus not in _bonus(w):
                        continue
                    r = w.run(bonus, rounds[w.name])
                    rates.setdefault((w.name, bonus), []).append(r["rounds"] / r["seconds"])
                    actions[w.name, bonus] = r["actions"] / r["rounds"]
    finally:
        for w in workers:
            w.close()
    node_version = subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout.strip()
    print(f"# peer gostop-ts {workers[0].hello['version']} ({peer}), node {node_version}")
    for bonus in BONUS:
        playing = [w for w in workers if bonus in _bonus(w)]
        for w in playing:
            print(line("peer_rounds_per_second", rates[w.name, bonus], 0, engine=w.name, bonus=bonus), flush=True)
        for w in playing[1:]:
            pairs = [ours / theirs for ours, theirs in zip(rates[w.name, bonus], rates["gostop-ts", bonus], strict=True)]
            print(line("peer_ratio", pairs, 2, build=w.name, bonus=bonus), flush=True)
        for w in playing:
            print(f"actions_per_round engine={w.name} bonus={bonus} value={actions[w.name, bonus]:.1f}", flush=True)


if __name__ == "__main__":
    main()
