"""gostop-conformance: the scenario corpus, its runner, and the harness that validates engines.

Public API (everything else is private):

- `load_corpus(root=None)`, `select(...)`, `Scenario`, `Step`, `default_root()`: the scenario format
  and the bundled corpus.
- `Engine` (a typing.Protocol), `ReferenceEngine`, `EngineError`: engines under test.
- `run_scenario(engine, scenario) -> Result`, `Mismatch`: running and comparing.

The names are imported on first use (PEP 562): the pytest plugin of this package is loaded by
every pytest run in an environment where it is installed, and must not load the spec to do so.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from conformance._compare import Mismatch
    from conformance._engine import Engine, EngineError, ReferenceEngine
    from conformance._runner import Result, run_scenario
    from conformance._scenarios import Scenario, Step, default_root, load_corpus, select

_HOME: Final = {
    "Mismatch": "_compare",
    "Engine": "_engine",
    "EngineError": "_engine",
    "ReferenceEngine": "_engine",
    "Result": "_runner",
    "run_scenario": "_runner",
    "Scenario": "_scenarios",
    "Step": "_scenarios",
    "default_root": "_scenarios",
    "load_corpus": "_scenarios",
    "select": "_scenarios",
}

__all__ = [
    "Engine",
    "EngineError",
    "Mismatch",
    "ReferenceEngine",
    "Result",
    "Scenario",
    "Step",
    "default_root",
    "load_corpus",
    "run_scenario",
    "select",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'conformance' has no attribute {name!r}")
    value = getattr(import_module(f"conformance.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
