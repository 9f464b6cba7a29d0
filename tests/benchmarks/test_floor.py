"""benchmarks/floor.py: its floor is derived from the spec and plays whole, seeded rounds, and the
script prints its figure lines (the figures themselves are never asserted)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _import(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


@pytest.fixture(scope="module")
def floor() -> ModuleType:
    return _import("floor")


def test_tables_come_from_the_deck_and_the_ruleset(floor: ModuleType) -> None:
    month, kind, units, thresholds = floor._tables()
    assert Counter(month) == {m: 4 for m in range(1, 13)}  # matgo-2p: the 48 cards, no bonus card
    assert Counter(kind) == {0: 24, 1: 9, 2: 10, 3: 5}
    assert sum(u for u, k in zip(units, kind, strict=True) if k == 0) == 26  # 22 junk, 2 double junk
    assert thresholds == [10, 5, 5, 3, 7]


def test_the_floor_is_compiled_with_the_engines_flags(floor: ModuleType) -> None:
    setup = (BENCHMARKS.parent / "setup.py").read_text(encoding="utf-8")
    assert f"NATIVE_CFLAGS = {floor.ENGINE_CFLAGS!r}\n".replace("'", '"') in setup


def test_floor_rounds_are_whole_and_seeded(floor: ModuleType) -> None:
    tables = floor._tables()
    kernel = _import("_floor_kernel")
    decisions = kernel.play_rounds(0, 50, *tables)
    assert decisions == kernel.play_rounds(0, 50, *tables)
    # every round plays at least the first turn of each seat, and at most every hand card and a
    # Go/Stop decision after each of the twenty turns
    assert 2 * 50 <= decisions <= 40 * 50
    assert sum(kernel.play_rounds(seed, 1, *tables) for seed in range(50)) == decisions


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / "floor.py"), *args], capture_output=True, text=True, check=False)


def test_prints_its_lines() -> None:
    out = _run("--rounds", "5", "--pairs", "2")
    assert out.returncode == 0, out.stderr
    names = [row.split()[0] for row in out.stdout.splitlines()]
    assert names == ["floor_rounds_per_second", "rounds_per_second", "floor_ratio", "decisions_per_round", "decisions_per_round"]
    assert "floor=interpreted" in out.stdout


def test_bad_counts_are_a_clear_error() -> None:
    out = _run("--rounds", "0")
    assert out.returncode != 0
    assert "--rounds and --pairs must be at least 1" in out.stderr


def test_serves_peer_py() -> None:
    """The worker of peer.py --floor: ready, a run, and bonus cards refused (the floor has none)."""
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "floor.py"), "--serve"],
        input="run off 3\nrun on 3\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    hello, run, refused = (json.loads(row) for row in out.stdout.splitlines())
    assert hello == {"ready": True, "build": "floor-interpreted"}
    assert run["rounds"] == 3 and run["actions"] >= 6 and run["seconds"] > 0
    assert refused == {"error": "the floor plays without bonus cards"}
