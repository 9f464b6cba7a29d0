"""Which syntactic-mutation survivors change anything an engine shows (issue 15).

    .venv/bin/python tests/mutation/differential.py [--jobs 2] [--rounds 6] [NAME ...]

Run in the checkout where `make mutation-syntactic` ran (its mutants/ directory holds mutmut's
trampolined copy of the engine). For every mutant the run did not kill (or only the NAMEs given),
the mutated engine plays a fixed workload through the protocol's JSON vocabulary (JsonEngine, as
the harness drives it): every named ruleset, and every value of every option (value_universe, as
`gostop-conformance lint` counts them) set on the first named ruleset that accepts it, each for a
few seeded random rounds chained into a match (next dealer, nagari streak, carried multiplier),
every legal-action list, event, state snapshot, rejection, score and settlement recorded. The
unmutated engine plays the same workload; the first reply that differs is the mutant's witness.

Writes tests/mutation/differential.json: {name: {"result": "differs" | "same" | "error",
"witness": ...}}. "differs" means the corpus misses an observable behaviour: a scenario written
from the clause for the witnessed position kills it. "same" is evidence, not proof, that the
change is unobservable: build_ledger.py reports it apart from the hand verdicts.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

OUT: Final = Path(__file__).with_name("differential.json")
#: the seat-by-seat random choice: the same generator the harness's fuzz uses
GOLDEN: Final = 0x9E3779B97F4A7C15
MASK: Final = (1 << 64) - 1
TIMEOUT_S: Final = 20
#: modules the workload never reaches (the command line, the stdio server, text output, the
#: self-check, perft): their mutants are judged by their own tests, not here
OFF_PATH: Final = frozenset({"_cli.py", "_server.py", "_text.py", "_check.py", "_invariants.py", "_perft.py", "_build.py"})


def _mix(x: int) -> int:
    x = (x + GOLDEN) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def configurations() -> list[dict[str, Any]]:
    """Every named ruleset, then every option value on the first named ruleset that takes it."""
    from gostop_conformance.harness import value_universe
    from gostop_conformance.spec import InputError, load_ruleset, option_registry, ruleset_ids

    named = [load_ruleset(rid).options.as_json() for rid in ruleset_ids()]
    out: list[dict[str, Any]] = [{"id": rid, "options": {}} for rid in ruleset_ids()]
    for key, spec in option_registry().items():
        seen = [opts[key] for opts in named]
        for value in value_universe(spec, seen):
            for rid, opts in zip(ruleset_ids(), named, strict=True):
                if opts[key] == value:
                    continue
                try:
                    load_ruleset(rid).with_overrides({key: value}, "differential")
                except InputError:
                    continue
                out.append({"id": rid, "options": {key: value}})
                break
    return out


def transcript(config: dict[str, Any], rounds: int) -> list[Any]:
    """One configuration's replies, in order: a match of `rounds` seeded random rounds."""
    from gostop_conformance.reference import JsonEngine

    engine = JsonEngine()
    out: list[Any] = []
    handover: dict[str, Any] = {}
    for k in range(rounds):
        deal = {"seed": k, "dealer": handover.get("dealer", k % 2)}
        for key in ("nagari_streak", "carried_multiplier"):
            if key in handover:
                deal[key] = handover[key]
        out.append(engine.new_game(config, deal))
        if "error" in out[-1]:
            break
        state = k + 1
        for _ in range(400):
            legal = engine.legal()
            out.append(legal)
            actions = legal.get("actions") or []
            if not actions:
                break
            state = _mix(state)
            reply = engine.act(actions[state % len(actions)])
            out.append(reply)
            if state % 7 == 0:  # now and then an action out of turn: its rejection is part of the behaviour
                out.append(engine.act({**actions[0], "player": (actions[0].get("player", 0) + 1) % 5}))
        scored = engine.score()
        out.append(scored)
        handover = scored.get("next") or {}
    return out


def _first_difference(a: list[Any], b: list[Any]) -> str | None:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"reply {i}: expected {json.dumps(x, sort_keys=True)[:300]} got {json.dumps(y, sort_keys=True)[:300]}"
    if len(a) != len(b):
        return f"{len(a)} replies expected, {len(b)} got"
    return None


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout


def worker(names: list[str], rounds: int) -> None:
    """In mutants/: the baseline, then each mutant; one JSON line per mutant on stdout."""
    from gostop_conformance.spec import reset_caches

    os.environ["MUTANT_UNDER_TEST"] = "none"
    configs = [(c, rounds if not c["options"] else max(1, rounds // 4)) for c in configurations()]
    baseline = [transcript(c, n) for c, n in configs]
    signal.signal(signal.SIGALRM, _alarm)
    for name in names:
        os.environ["MUTANT_UNDER_TEST"] = name
        reset_caches()
        result: dict[str, Any] = {"name": name, "result": "same"}
        signal.alarm(TIMEOUT_S)
        try:
            for (config, n), expected in zip(configs, baseline, strict=True):
                where = _first_difference(expected, transcript(config, n))
                if where is not None:
                    result = {"name": name, "result": "differs", "witness": f"{json.dumps(config)} {where}"}
                    break
        except _Timeout:
            result = {"name": name, "result": "differs", "witness": f"no answer within {TIMEOUT_S} s"}
        except Exception as exc:  # a mutant that crashes the engine is observable too
            result = {"name": name, "result": "differs", "witness": f"{type(exc).__name__}: {str(exc)[:300]}"}
        finally:
            signal.alarm(0)
        os.environ["MUTANT_UNDER_TEST"] = "none"
        reset_caches()
        print(json.dumps(result), flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--rounds", type=int, default=8, help="rounds of each named ruleset (a quarter of it for each option value)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(json.loads(sys.stdin.read()), args.rounds)
        return 0
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.mutation.build_ledger import mutmut_records

    names = args.names or [
        r["name"] for r in mutmut_records() if r["status"] not in ("killed", "timeout") and Path(r["module"]).name not in OFF_PATH
    ]
    chunks = [names[i :: args.jobs] for i in range(args.jobs)]
    env = {**os.environ, "PYTHONPATH": str(Path("mutants").resolve()), "PYTHONHASHSEED": "0"}
    procs = [
        subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", "--rounds", str(args.rounds)],
            cwd="mutants",
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in chunks
    ]
    for proc, chunk in zip(procs, chunks, strict=True):
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(chunk))
        proc.stdin.close()
    results: dict[str, Any] = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() and args.names else {}
    for proc in procs:
        assert proc.stdout is not None
        for line in proc.stdout:
            item = json.loads(line)
            results[item.pop("name")] = item
        if proc.wait() != 0:
            print(f"a worker exited with {proc.returncode}", file=sys.stderr)
    OUT.write_text(json.dumps(dict(sorted(results.items())), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    counts: dict[str, int] = {}
    for item in results.values():
        counts[item["result"]] = counts.get(item["result"], 0) + 1
    print(json.dumps(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
