"""Every semantic mutant of the reference engine, by name, and the two ways to apply one: for a
block (`applied`, what `gostop-conformance mutants` runs the corpus under) or for a whole process
(`apply_for_process`, the stdio server's `--mutant`).

The mutants themselves live in modules of their own, one set each: `_base` (the first set, and
the builders the others reuse), `_play` (deal, turn, capture, bonus cards), `_events` (ppeok,
jjok, ttadak, sweep, steals, declarations), `_scoring` (scoring, Go/Stop, settlement, match
flow, the point-count variant) and `_interactions` (where rules meet: counts, thresholds reached
exactly, the order of a turn's events, ties; scenarios/interactions.yaml designs the scenarios
that kill them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from gostop_conformance.mutants import _base, _events, _interactions, _play, _scoring
from gostop_conformance.mutants._base import Mutant, Patch
from gostop_conformance.reference import engine_build
from gostop_conformance.spec import InputError

MUTANTS: Final[tuple[Mutant, ...]] = (*_base.MUTANTS, *_play.MUTANTS, *_events.MUTANTS, *_scoring.MUTANTS, *_interactions.MUTANTS)

BY_NAME: Final[dict[str, Mutant]] = {m.name: m for m in MUTANTS}
if len(BY_NAME) != len(MUTANTS):  # a name given twice would hide a mutant from every run
    raise AssertionError(f"duplicate mutant names: {sorted({m.name for m in MUTANTS if [n.name for n in MUTANTS].count(m.name) > 1})}")


def _patchable() -> None:
    """Mutants replace the engine's functions at run time, which compiled code never looks up."""
    if engine_build() == "compiled":
        raise InputError(
            "mutants",
            "semantic mutants patch the interpreted engine, and this one is compiled with mypyc (make compiled): "
            "run them from the source tree instead",
        )


@contextmanager
def applied(name: str) -> Iterator[Mutant]:
    """Patch the engine with one mutant for the duration of the block."""
    _patchable()
    mutant = BY_NAME[name]
    saved: list[Patch] = []
    try:
        for obj, attr, new in mutant.patches():
            saved.append((obj, attr, getattr(obj, attr)))
            setattr(obj, attr, new)
        yield mutant
    finally:
        for obj, attr, old in reversed(saved):
            setattr(obj, attr, old)


def apply_for_process(name: str) -> Mutant:
    """Patch the engine for the rest of the process (the stdio server's --mutant)."""
    _patchable()
    mutant = BY_NAME[name]
    for obj, attr, new in mutant.patches():
        setattr(obj, attr, new)
    return mutant
