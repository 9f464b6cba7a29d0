"""`gostop-conformance lint` with and without its cache of derived dependencies
(conformance/_derivecache.py), each in a process of its own, as a user runs it.

    python benchmarks/lint.py [--repeat R] [--area A]

- `lint_uncached_s`: a cache folder that is empty (a fresh machine, CI);
- `lint_cached_s`: the same corpus again, its derivations in the cache;
- `lint_one_change_s`: after one scenario changed (its deal), that one derived again;
- `lint_cached_to_uncached`: the two per pair.

The corpus is a copy of the bundled one (or of one area with `--area`, for a quick check; lint
then reports the clauses that area does not cite, and the figures still time the whole command).
Each figure is the median of R runs.
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

from _common import BUILD, line

from gostop_conformance.harness import default_root


def lint_seconds(corpus: Path, cache: Path) -> float:
    env = {**os.environ, "GOSTOP_CACHE_DIR": str(cache)}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "gostop_conformance.harness", "lint", "--scenarios", str(corpus)], env=env, capture_output=True, check=False
    )
    return time.perf_counter() - start


def change_one(corpus: Path) -> None:
    """Swap the two single junk of a month in the first deal that lists one: an edit that changes the
    scenario's digest (so it is derived again) and nothing it checks."""
    for path in sorted(corpus.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if "m03-junk-1" in text and path.name not in ("dependencies.yaml", "interactions.yaml"):
            path.write_text(
                text.replace("m03-junk-1", "m03-junk-x").replace("m03-junk-2", "m03-junk-1").replace("m03-junk-x", "m03-junk-2"),
                encoding="utf-8",
            )
            return


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--area", default=None, help="only this area of the corpus (a quick check)")
    args = p.parse_args()
    uncached, cached, changed = [], [], []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            corpus = Path(tmp) / "scenarios"
            source = default_root()
            if args.area:
                (corpus / args.area).mkdir(parents=True)
                shutil.copytree(source / args.area, corpus / args.area, dirs_exist_ok=True)
                shutil.copy(source / "dependencies.yaml", corpus)
            else:
                shutil.copytree(source, corpus, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
            cache = Path(tmp) / "cache"
            uncached.append(lint_seconds(corpus, cache))
            cached.append(lint_seconds(corpus, cache))
            change_one(corpus)
            changed.append(lint_seconds(corpus, cache))
    labels = {"build": BUILD, "corpus": args.area or "all"}
    print(line("lint_uncached_s", uncached, 2, **labels), flush=True)
    print(line("lint_cached_s", cached, 2, **labels), flush=True)
    print(line("lint_one_change_s", changed, 2, **labels), flush=True)
    print(line("lint_cached_to_uncached", [c / u for c, u in zip(cached, uncached, strict=True)], 3, **labels), flush=True)


if __name__ == "__main__":
    main()
