"""Semantic mutants of the reference engine: each breaks one rule the way a real engine's author
might, so that `gostop-conformance mutants` can measure how many the scenario corpus catches.

They live apart from the engine (whose package holds only the rules) and are the only code that
reaches into its internals: each mutant replaces engine functions or constants at run time, so
they need the interpreted build (tests/test_layers.py holds every other module to the engine's
public API).

Public API (everything else is private):

- `MUTANTS`, `Mutant`: every mutant, with the area, clause and description of the bug it is.
- `applied(name)`: a context manager that patches the engine for the duration of a block;
  `apply_for_process(name)`: patches it for the rest of the process.
- `gostop-mutant NAME` (`python -m gostop_conformance.mutants NAME`): the reference engine's
  protocol server on stdin/stdout, broken by one mutant; `gostop-mutant --list` lists them.
"""

from __future__ import annotations

from gostop_conformance.mutants._base import Mutant
from gostop_conformance.mutants._set import MUTANTS, applied, apply_for_process

__all__ = ["MUTANTS", "Mutant", "applied", "apply_for_process"]
