"""gostop-conformance: the scenario corpus, its runner, and the harness that validates engines.

Public API (everything else is private):

- `load_corpus(root=None)`, `select(...)`, `Scenario`, `Step`: the scenario format.
- `Engine` (a typing.Protocol), `ReferenceEngine`, `EngineError`: engines under test.
- `run_scenario(engine, scenario) -> Result`, `Mismatch`: running and comparing.
"""

from conformance._compare import Mismatch
from conformance._engine import Engine, EngineError, ReferenceEngine
from conformance._runner import Result, run_scenario
from conformance._scenarios import Scenario, Step, default_root, load_corpus, select

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
