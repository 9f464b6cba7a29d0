"""Re-run every mutant that mutmut did not kill, each in an interpreter of its own (issue 15).

    .venv/bin/python tests/mutation/recheck.py [--jobs 2] [--timeout 120] [NAME ...]   # where mutmut ran

mutmut 3 runs a mutant's tests in a worker forked from a process that has already imported the
engine, and two kinds of mutant escape it there:

- a function that runs only while a module is imported (the event and card tables built at load
  time) is never called with the mutant selected, so its mutants all "survive";
- a mutant that makes the tests loop forever has been recorded as survived rather than timed out
  (`Match.record` counting no round: alone, mutmut reports it as a timeout).

Each survivor, and each mutant mutmut found no test for, runs again with MUTANT_UNDER_TEST set
before anything is imported, against the tests mutmut selected for its function
(mutants/mutmut-stats.json; the engine's unit tests when it has none) and the scenario corpus. A failing test or a
timeout kills it; the first failing test is named. The results go to tests/mutation/recheck.json,
which build_ledger.py reads: a mutant killed on recheck leaves the ledger like any other kill, and
the summary counts those kills apart.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

OUT: Final = Path(__file__).with_name("recheck.json")
MUTANTS: Final = Path("mutants")
#: a mutant's tests when mutmut's statistics name none
FALLBACK: Final = ("tests/reference_impl", "--ignore=tests/reference_impl/test_properties.py")
#: the scenario corpus in process joins every recheck: mutmut associates a function that runs only
#: at import with whichever test was being collected then (test_corpus_is_not_empty), so a mutant
#: of the deck's bit masks that breaks every score, imported cleanly, met no test that scores
CORPUS: Final = "tests/conformance/test_corpus.py::test_scenario_passes_on_the_reference_engine"


def candidates() -> list[str]:
    """The mutants mutmut recorded as survived or as having no tests, by name."""
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code
    from mutmut.utils.file_utils import walk_mutatable_files

    out = []
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        out += [name for name, code in data.exit_code_by_key.items() if status_by_exit_code[code] in ("survived", "no tests")]
    return sorted(out)


def recheck(name: str, tests: list[str], timeout: float) -> dict[str, Any]:
    """Run `tests` in a fresh interpreter under the mutant `name`."""
    env = {**os.environ, "MUTANT_UNDER_TEST": name, "PYTHONPATH": "."}
    selected = [*tests, CORPUS] if tests and CORPUS not in tests else list(tests or FALLBACK)
    argv = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *selected]
    try:
        proc = subprocess.run(argv, cwd=MUTANTS, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"killed": True, "by": f"timeout ({timeout:.0f} s)"}
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in proc.stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))]
    if proc.returncode == 0:
        return {"killed": False, "by": ""}
    if failed:
        return {"killed": True, "by": failed[0]}
    # pytest could not even collect: the module fails to import under the mutant (an import-time function)
    last = (proc.stdout.strip().splitlines() or [""])[-1]
    return {"killed": True, "by": f"import fails under the mutant (pytest exit {proc.returncode}: {last})"}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("names", nargs="*", metavar="NAME", help="only these mutants (mutmut names); default: every candidate")
    args = p.parse_args()
    stats = json.loads((MUTANTS / "mutmut-stats.json").read_text(encoding="utf-8"))["tests_by_mangled_function_name"]
    done: dict[str, dict[str, Any]] = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    wanted = set(args.names)
    todo = [name for name in candidates() if name not in done and (not wanted or name in wanted)]

    def one(name: str) -> tuple[str, dict[str, Any]]:
        return name, recheck(name, sorted(stats.get(name.rsplit("__mutmut_", 1)[0], [])), args.timeout)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for k, (name, result) in enumerate(pool.map(one, todo), 1):
            done[name] = result
            if k % 20 == 0 or k == len(todo):  # resumable: what is done is kept
                OUT.write_text(json.dumps(done, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
                print(f"{k}/{len(todo)} rechecked, {sum(r['killed'] for r in done.values())} killed so far", flush=True)
    OUT.write_text(json.dumps(done, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
