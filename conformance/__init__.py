"""gostop-conformance: the scenario corpus, its runner, and the harness that validates engines.

Public API (everything else is private):

- `load_corpus(root=None)`, `select(...)`, `Scenario`, `Step`, `default_root()`,
  `corpus_digest(root=None)`: the scenario format, the bundled corpus and what identifies it;
  `load_dependencies(root)`, `compress_values(values)`: the options each scenario's outcome
  depends on (scenarios/dependencies.yaml); `load_interactions(root)`,
  `check_interactions(design, corpus)`: the design of the interaction scenarios
  (scenarios/interactions.yaml).
- `Engine` (a typing.Protocol), `ReferenceEngine`, `StdioEngine`, `EngineError`: engines under test.
- `run_scenario(engine, scenario) -> Result`, `Mismatch`: running and comparing one scenario.
- `parse_declaration(hello) -> Declaration`, `Verdicts`: what an engine declares and what that
  lets it run.
- `run_suite(...) -> RunReport`, `run_one(...) -> Record`, `engine_factory(...)`: the harness as
  `gostop-conformance run` runs it.
- `coverage(...)`, `coverage_markdown(...)`, `coverage_by_players(corpus)`, `UNTRACED`: clause
  coverage of the corpus, and per player count;
  `value_universe(spec, seen)`: the values of an option that the corpus must each exercise.
- `fuzz(...)`, `fuzz_configurations(...)`, `fuzz_case(seed, g, configurations)`: differential fuzzing, and
  the case it plays as round g of an unguided run with that seed.
- `run_mutants(...)`, `mutation_kill_rate(...)`, `mutation_report_markdown(...)`: the corpus
  against the semantic mutants of the reference engine.
- `load_perft(path)`: perft tables.
- `export_corpus(root=None) -> Export`: the corpus as plain JSON (docs/export.md), the text
  `gostop-conformance export` writes: each scenario's requests and the checks of their replies.
- `RulesetView`, `ruleset_view(id)`, `ruleset_file_view(rules)`, `ruleset_page_html(view)`: what a
  ruleset decides (differences from its parent in plain words, every value, the cards it adds), as
  the site's ruleset pages and `gostop-conformance ruleset page FILE` show it.

The names are imported on first use (PEP 562): the pytest plugin of this package is loaded by
every pytest run in an environment where it is installed, and must not load the spec to do so.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from gostop_conformance.harness._compare import Mismatch
    from gostop_conformance.harness._declaration import Declaration, Verdicts
    from gostop_conformance.harness._declaration import parse as parse_declaration
    from gostop_conformance.harness._dependencies import compress as compress_values
    from gostop_conformance.harness._dependencies import load as load_dependencies
    from gostop_conformance.harness._engine import Engine, EngineError, ReferenceEngine
    from gostop_conformance.harness._export import export_corpus
    from gostop_conformance.harness._fuzz import case_of as fuzz_case
    from gostop_conformance.harness._fuzz import fuzz, fuzz_configurations
    from gostop_conformance.harness._harness import Record, RunReport, engine_factory, run_one
    from gostop_conformance.harness._harness import run as run_suite
    from gostop_conformance.harness._interactions import check as check_interactions
    from gostop_conformance.harness._interactions import load as load_interactions
    from gostop_conformance.harness._lint import by_players as coverage_by_players
    from gostop_conformance.harness._lint import coverage, coverage_markdown, value_universe
    from gostop_conformance.harness._mutation import kill_rate as mutation_kill_rate
    from gostop_conformance.harness._mutation import report_markdown as mutation_report_markdown
    from gostop_conformance.harness._mutation import run_mutants
    from gostop_conformance.harness._perft import load_perft
    from gostop_conformance.harness._rulesetpage import RulesetView
    from gostop_conformance.harness._rulesetpage import page_html as ruleset_page_html
    from gostop_conformance.harness._rulesetpage import view_of_file as ruleset_file_view
    from gostop_conformance.harness._rulesetpage import view_of_named as ruleset_view
    from gostop_conformance.harness._runner import Result, run_scenario
    from gostop_conformance.harness._scenarios import Scenario, Step, corpus_digest, default_root, load_corpus, select
    from gostop_conformance.harness._stdio import StdioEngine
    from gostop_conformance.harness._trace import UNTRACED

_HOME: Final[dict[str, tuple[str, str]]] = {
    "Declaration": ("_declaration", "Declaration"),
    "Engine": ("_engine", "Engine"),
    "EngineError": ("_engine", "EngineError"),
    "Mismatch": ("_compare", "Mismatch"),
    "Record": ("_harness", "Record"),
    "ReferenceEngine": ("_engine", "ReferenceEngine"),
    "Result": ("_runner", "Result"),
    "RunReport": ("_harness", "RunReport"),
    "RulesetView": ("_rulesetpage", "RulesetView"),
    "Scenario": ("_scenarios", "Scenario"),
    "StdioEngine": ("_stdio", "StdioEngine"),
    "Step": ("_scenarios", "Step"),
    "UNTRACED": ("_trace", "UNTRACED"),
    "Verdicts": ("_declaration", "Verdicts"),
    "check_interactions": ("_interactions", "check"),
    "compress_values": ("_dependencies", "compress"),
    "coverage": ("_lint", "coverage"),
    "coverage_by_players": ("_lint", "by_players"),
    "coverage_markdown": ("_lint", "coverage_markdown"),
    "corpus_digest": ("_scenarios", "corpus_digest"),
    "default_root": ("_scenarios", "default_root"),
    "engine_factory": ("_harness", "engine_factory"),
    "export_corpus": ("_export", "export_corpus"),
    "fuzz": ("_fuzz", "fuzz"),
    "fuzz_case": ("_fuzz", "case_of"),
    "fuzz_configurations": ("_fuzz", "fuzz_configurations"),
    "load_corpus": ("_scenarios", "load_corpus"),
    "load_dependencies": ("_dependencies", "load"),
    "load_interactions": ("_interactions", "load"),
    "load_perft": ("_perft", "load_perft"),
    "mutation_kill_rate": ("_mutation", "kill_rate"),
    "mutation_report_markdown": ("_mutation", "report_markdown"),
    "parse_declaration": ("_declaration", "parse"),
    "ruleset_file_view": ("_rulesetpage", "view_of_file"),
    "ruleset_page_html": ("_rulesetpage", "page_html"),
    "ruleset_view": ("_rulesetpage", "view_of_named"),
    "run_mutants": ("_mutation", "run_mutants"),
    "run_one": ("_harness", "run_one"),
    "run_scenario": ("_runner", "run_scenario"),
    "run_suite": ("_harness", "run"),
    "select": ("_scenarios", "select"),
    "value_universe": ("_lint", "value_universe"),
}

__all__ = [
    "UNTRACED",
    "Declaration",
    "Engine",
    "EngineError",
    "Mismatch",
    "Record",
    "ReferenceEngine",
    "Result",
    "RulesetView",
    "RunReport",
    "Scenario",
    "StdioEngine",
    "Step",
    "Verdicts",
    "check_interactions",
    "compress_values",
    "corpus_digest",
    "coverage",
    "coverage_by_players",
    "coverage_markdown",
    "default_root",
    "engine_factory",
    "export_corpus",
    "fuzz",
    "fuzz_case",
    "fuzz_configurations",
    "load_corpus",
    "load_dependencies",
    "load_interactions",
    "load_perft",
    "mutation_kill_rate",
    "mutation_report_markdown",
    "parse_declaration",
    "ruleset_file_view",
    "ruleset_page_html",
    "ruleset_view",
    "run_mutants",
    "run_one",
    "run_scenario",
    "run_suite",
    "select",
    "value_universe",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home[0]}"), home[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
