"""pytest plugin: `pytest --gostop-engine "CMD"` runs the conformance corpus as tests, one test
per scenario (named by its id), for engine maintainers who live in pytest. Inactive without the
option. Known failures: `--gostop-known-failures FILE` turns them into xfail (strict).

pytest loads this plugin in every environment where the package is installed, so at import it
touches nothing but pytest: the harness (and the spec it loads) is imported only once
`--gostop-engine` asks for the corpus."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from gostop_conformance.harness._defaults import DEFAULT_PIPELINE, DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from gostop_conformance.harness._declaration import Verdicts
    from gostop_conformance.harness._dependencies import Dependencies
    from gostop_conformance.harness._scenarios import Scenario
    from gostop_conformance.harness._stdio import StdioEngine


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gostop", "Go-Stop conformance suite")
    group.addoption("--gostop-engine", default=None, help="engine command to validate (enables the conformance tests)")
    group.addoption("--gostop-scenarios", default=None, help="scenario directory (default: the bundled corpus)")
    group.addoption("--gostop-ruleset", action="append", default=[], help="only scenarios of this ruleset")
    group.addoption("--gostop-area", action="append", default=[], help="only scenarios of this area")
    group.addoption("--gostop-id", action="append", default=[], help="only this scenario (repeatable; -k selects by id too)")
    group.addoption(
        "--gostop-only",
        action="store_true",
        help="run the corpus alone: deselect every other test pytest collected (a project's own tests)",
    )
    group.addoption("--gostop-known-failures", default=None, help="known-failures ledger: those scenarios are xfail(strict)")
    group.addoption("--gostop-timeout", type=float, default=DEFAULT_TIMEOUT, help=f"seconds per reply (default {DEFAULT_TIMEOUT:g})")
    group.addoption(
        "--gostop-pipeline",
        type=int,
        default=DEFAULT_PIPELINE,
        help=f"requests sent before their replies are read (default {DEFAULT_PIPELINE}; 0: wait for each reply)",
    )


class _Session:
    def __init__(self, argv: list[str], timeout: float, pipeline: int, dependencies: Mapping[str, Dependencies]) -> None:
        from gostop_conformance.harness._stdio import StdioEngine

        self.engine: StdioEngine = StdioEngine(argv, message_timeout=timeout, pipeline=pipeline)
        self.dependencies = dependencies
        self.verdicts: Verdicts | None = None

    def ensure(self) -> Verdicts:
        """The engine started (again, after a crash), and what its declaration lets each scenario run as."""
        from gostop_conformance.harness._declaration import DeclarationError, Verdicts, parse

        if self.verdicts is None or not self.engine.alive():
            hello = self.engine.start()
            if self.verdicts is None:
                try:
                    self.verdicts = Verdicts(parse(hello), self.dependencies)
                except DeclarationError as exc:
                    raise pytest.UsageError(f"--gostop-engine: the hello reply's declaration is not valid: {exc}") from None
        return self.verdicts


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, session_state: _Session, known: str | None, **kw: Any) -> None:
        super().__init__(**kw)
        self.scenario = scenario
        self.state = session_state
        if known is not None:
            self.add_marker(pytest.mark.xfail(reason=known, strict=True))

    def runtest(self) -> None:
        from gostop_conformance.harness._runner import PASS, RESTART_AFTER, run_scenario

        verdict = self.state.ensure().of(self.scenario)
        if verdict.scenario is None:
            pytest.skip(f"UNSUPPORTED: {verdict.reason()}")
        result = run_scenario(self.state.engine, verdict.scenario)
        if result.outcome in RESTART_AFTER:
            self.state.engine.close()
        if result.outcome != PASS:
            raise ScenarioFailure(result.text())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(self.scenario.file), self.scenario.line - 1, f"scenario {self.scenario.id}"


class ScenarioFailure(Exception):
    pass


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    command = config.getoption("--gostop-engine")
    if not command:
        return
    from gostop_conformance.harness import _dependencies
    from gostop_conformance.harness._harness import load_ledger
    from gostop_conformance.harness._scenarios import default_root, load_corpus, select

    root = Path(config.getoption("--gostop-scenarios") or default_root())
    scenarios = select(
        load_corpus(root),
        rulesets=config.getoption("--gostop-ruleset"),
        areas=config.getoption("--gostop-area"),
        ids=config.getoption("--gostop-id"),
    )
    ledger_path = config.getoption("--gostop-known-failures")
    ledger = load_ledger(Path(ledger_path)) if ledger_path else {}
    pipeline = config.getoption("--gostop-pipeline")
    if pipeline < 0:
        raise pytest.UsageError(f"--gostop-pipeline: expected 0 or more requests in flight, got {pipeline}")
    state = _Session(shlex.split(command), config.getoption("--gostop-timeout"), pipeline, _dependencies.load(root))
    config.add_cleanup(state.engine.close)
    if config.getoption("--gostop-only") and items:
        config.hook.pytest_deselected(items=list(items))
        items.clear()
    # node ids gostop/<area>::<scenario id>: -k selects by id or area, junit's classname is gostop.<area>
    corpus = Corpus.from_parent(session, name="gostop", nodeid="gostop")
    areas: dict[str, Area] = {}
    for sc in scenarios:
        area = areas.get(sc.area) or areas.setdefault(sc.area, Area.from_parent(corpus, name=sc.area))
        known = ledger.get(sc.id)
        items.append(ScenarioItem.from_parent(area, name=sc.id, scenario=sc, session_state=state, known=known.reason if known else None))


class Corpus(pytest.Collector):
    """The scenario corpus, parent of one collector per area (its items are made up front)."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        return []


class Area(pytest.Collector):
    """One area of the corpus (scenarios/<area>/)."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        return []
