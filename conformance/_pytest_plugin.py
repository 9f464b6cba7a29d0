"""pytest plugin: `pytest --gostop-engine "CMD"` runs the conformance corpus as tests, one test
per scenario (named by its id), for engine maintainers who live in pytest. Inactive without the
option. Known failures: `--gostop-known-failures FILE` turns them into xfail (strict). Under
`--gostop-ruleset-file FILE` (house rules of one's own) the engine is taken to play that file's
rules, as `gostop-conformance run --ruleset-file` takes it: a scenario that does not hold under
them is skipped as UNSUPPORTED.

The corpus is a node of pytest's collection tree beside what pytest finds in its arguments (the
session's child `gostop`, its areas, their scenarios), so that pytest collects, counts, selects and
distributes it as any tests. Its node ids, `gostop::<area>::<scenario id>`, name no file: given as
arguments (or `gostop::<area>`, or `gostop` for all), they are taken out of the arguments pytest
resolves and select the scenarios collected; without one, the whole selected corpus is collected.

As with `gostop-conformance run`, a run that checked nothing is never green: when no scenario of
the corpus was actually run against the engine (each one unsupported by its declaration, or
deselected), the session fails, whatever the project's own tests did. An engine that fails its
handshake is started once: every scenario fails with that reason, and the session with it.

Whatever the engine says (its name, its error messages, its stderr) is shown with its control
characters escaped: an engine under test must not be able to act on the terminal of whoever reads
the report, nor forge a line of it.

pytest loads this plugin in every environment where the package is installed, so at import it
touches nothing but pytest: the harness (and the spec it loads) is imported only once
`--gostop-engine` asks for the corpus."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

import pytest

from gostop_conformance.harness._defaults import DEFAULT_PIPELINE, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT, MAX_PIPELINE, MAX_SECONDS
from gostop_conformance.spec import counted

if TYPE_CHECKING:
    from gostop_conformance.harness._declaration import Verdicts
    from gostop_conformance.harness._dependencies import Dependencies
    from gostop_conformance.harness._runner import Result
    from gostop_conformance.harness._scenarios import Scenario
    from gostop_conformance.harness._stdio import StdioEngine
    from gostop_conformance.spec import RulesetFile

#: lines of the engine's stderr a failure shows (its last ones), and characters of each
STDERR_LINES: Final = 20
STDERR_LINE_CHARS: Final = 400
#: a scenario that never reached the engine: its engine failed the handshake
HANDSHAKE: Final = "HANDSHAKE"
#: outcomes of a scenario that was not checked against the engine (the rest were, whatever the result)
UNCHECKED: Final = frozenset({"UNSUPPORTED", HANDSHAKE, "NOT_RUN"})
#: what the teardown report of a scenario carries (so that pytest-xdist's controller sees it too)
_OUTCOME: Final = "gostop_outcome"
_ENGINE: Final = "gostop_engine"
_HANDSHAKE_REASON: Final = "gostop_handshake"
#: the corpus's node in pytest's collection tree: its node ids read gostop::<area>::<scenario id>
CORPUS_NAME: Final = "gostop"
_NODE_ID_FORMS: Final = f"{CORPUS_NAME}, {CORPUS_NAME}::<area> or {CORPUS_NAME}::<area>::<scenario id>"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gostop", "Go-Stop conformance suite")
    group.addoption("--gostop-engine", default=None, help="engine command to validate (enables the conformance tests)")
    group.addoption("--gostop-scenarios", default=None, help="scenario directory (default: the bundled corpus)")
    group.addoption("--gostop-ruleset", action="append", default=[], help="only scenarios of this ruleset")
    group.addoption("--gostop-area", action="append", default=[], help="only scenarios of this area")
    group.addoption(
        "--gostop-ruleset-file",
        default=None,
        help="a ruleset file of your own (house rules): the engine plays its rules; the scenarios that do not hold under them are skipped",
    )
    group.addoption(
        "--gostop-id",
        action="append",
        default=[],
        help="only this scenario (repeatable; -k selects by id too, and so does a node id gostop::<area>::<id> given as an argument)",
    )
    group.addoption(
        "--gostop-only",
        action="store_true",
        help="run the corpus alone: deselect every other test pytest collected (a project's own tests)",
    )
    group.addoption("--gostop-known-failures", default=None, help="known-failures ledger: those scenarios are xfail(strict)")
    group.addoption(
        "--gostop-timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"seconds per reply, above 0 and at most {MAX_SECONDS:g} (default {DEFAULT_TIMEOUT:g})",
    )
    group.addoption(
        "--gostop-startup-timeout",
        type=float,
        default=DEFAULT_STARTUP_TIMEOUT,
        help=f"seconds to wait for the engine's hello, above 0 and at most {MAX_SECONDS:g} (default {DEFAULT_STARTUP_TIMEOUT:g}); "
        "an engine that fails its handshake is not started again",
    )
    group.addoption(
        "--gostop-pipeline",
        type=int,
        default=DEFAULT_PIPELINE,
        help=f"requests sent before their replies are read, 0 to {MAX_PIPELINE} (default {DEFAULT_PIPELINE}; 0: wait for each reply)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Check the options once, before anything is collected or started: a bad one is a usage error
    naming it, never a traceback in every test."""
    command = config.getoption("--gostop-engine")
    if command is None:
        return
    from gostop_conformance.harness import _bounds as bounds

    timeout = _checked(lambda: bounds.seconds("--gostop-timeout", config.getoption("--gostop-timeout")))
    startup_timeout = _checked(lambda: bounds.seconds("--gostop-startup-timeout", config.getoption("--gostop-startup-timeout")))
    pipeline = _checked(lambda: bounds.pipeline(config.getoption("--gostop-pipeline"), "--gostop-pipeline"))
    argv = _checked(lambda: bounds.engine_argv(command, "--gostop-engine"))
    config.pluginmanager.register(_CorpusRun(config, argv, timeout, startup_timeout, pipeline), "gostop-corpus-run")


T = TypeVar("T")


def _checked(check: Callable[[], T]) -> T:
    """A command-line value checked as the command line checks it; its error, a usage error."""
    from gostop_conformance.spec import InputError

    try:
        return check()
    except InputError as exc:
        raise pytest.UsageError(str(exc)) from None


# ---------------------------------------------------------------- text from the engine


def _safe(text: str) -> str:
    """Text from the engine, in lines of the plugin's own, as the terminal may print it: its controls
    shown as \\xNN, never acted on."""
    from gostop_conformance.harness._safetext import terminal_safe

    return terminal_safe(text)


def _one_line(value: object) -> str:
    """One value from the engine (a name, a message): its controls escaped and its line breaks
    shown as \\n, so that nothing it holds can begin a line of the report (a forged summary line)."""
    from gostop_conformance.harness._safetext import engine_text

    return engine_text(value)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({counted(len(text) - limit, 'more character')})"


def _stderr_lines(stderr: str) -> list[str]:
    """The last lines the engine wrote to stderr, each escaped and indented under a heading."""
    if not stderr.strip():
        return []
    lines = stderr.rstrip("\n").split("\n")
    tail = lines[-STDERR_LINES:]
    heading = "engine stderr" + (f" (its last {len(tail)} of {len(lines)} lines)" if len(tail) < len(lines) else "") + ":"
    return [heading, *("  " + _clip(_safe(line), STDERR_LINE_CHARS) for line in tail)]


def _failure_text(result: Result, stderr: str) -> str:
    """A scenario's result as the command line shows it, the engine's words escaped."""
    from dataclasses import replace

    shown = replace(result, error=_one_line(result.error)) if result.error else result
    return "\n".join([_safe(shown.text()), *_stderr_lines(stderr)])


def _identity(hello: Mapping[str, Any]) -> str:
    """The engine as its hello names it: name, version and language, each escaped."""
    engine = hello.get("engine")
    if not isinstance(engine, Mapping):
        return "(the hello names no engine)"
    text = " ".join(_one_line(engine[key]) for key in ("name", "version") if key in engine)
    if "language" in engine:
        text += f" ({_one_line(engine['language'])})"
    return text


# ---------------------------------------------------------------- the engine


class _HandshakeFailed(Exception):
    """The engine did not complete its handshake (now or in an earlier scenario); the text is escaped."""


class _EngineState:
    """The one engine process the scenarios share, and what its declaration lets each run as."""

    def __init__(
        self,
        argv: list[str],
        timeout: float,
        startup_timeout: float,
        pipeline: int,
        dependencies: Mapping[str, Dependencies],
        rules: RulesetFile | None = None,
    ) -> None:
        from gostop_conformance.harness._stdio import StdioEngine

        self.engine: StdioEngine = StdioEngine(argv, message_timeout=timeout, startup_timeout=startup_timeout, pipeline=pipeline)
        self.dependencies = dependencies
        #: the ruleset file the engine plays (--gostop-ruleset-file), as `run --ruleset-file` runs it
        self.rules = rules
        self.verdicts: Verdicts | None = None
        #: the engine as its hello names it (escaped), once it has said hello
        self.identity: str | None = None
        #: (the test that saw it, why, the lines it wrote to stderr) once the engine has failed a
        #: handshake: it is not started again
        self.failed: tuple[str, str, list[str]] | None = None

    def ensure(self, nodeid: str) -> Verdicts:
        """The engine started (again, after a scenario ended it), and its declaration's verdicts;
        _HandshakeFailed when it fails the handshake, now or before (a hung engine costs one
        startup timeout, not one per test)."""
        from gostop_conformance.harness._declaration import DeclarationError, Verdicts, parse
        from gostop_conformance.harness._engine import EngineError
        from gostop_conformance.harness._rulesetfile import within

        if self.failed is not None:
            where, why, said = self.failed
            shown = f"; {where} shows what it wrote to stderr" if said else ""
            raise _HandshakeFailed(f"{why}\n(the engine is not started again{shown})")
        if self.verdicts is not None and self.engine.alive():
            return self.verdicts
        again = self.verdicts is not None
        try:
            hello = self.engine.start()
            if self.identity is None:
                self.identity = _identity(hello)
            if self.verdicts is not None:
                verdicts = self.verdicts
            else:
                declared = parse(hello)
                verdicts = Verdicts(declared if self.rules is None else within(self.rules, declared), self.dependencies)
        except EngineError as exc:
            problem = f"{exc.kind}: {exc.message}"
        except DeclarationError as exc:
            problem = f"protocol: the hello reply's declaration is not valid: {exc}"
        else:
            self.verdicts = verdicts
            return verdicts
        self.engine.stderr.settle()
        stderr = self.engine.stderr.take()
        self.engine.close()
        when = " when started again (an earlier scenario ended it)" if again else ""
        why = f"the engine failed its handshake{when}: {_one_line(problem)}"
        said = _stderr_lines(stderr)
        self.failed = (nodeid, why, said)
        raise _HandshakeFailed("\n".join([why, *said, "(the engine is not started again: the other scenarios fail with this)"]))


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, session_state: _EngineState, known: str | None, **kw: Any) -> None:
        super().__init__(**kw)
        self.scenario = scenario
        self.state = session_state
        #: what became of the scenario (the harness's outcome, or HANDSHAKE); NOT_RUN until it ran
        self.outcome = "NOT_RUN"
        if known is not None:
            self.add_marker(pytest.mark.xfail(reason=_safe(known), strict=True))

    def runtest(self) -> None:
        from gostop_conformance.harness._runner import PASS, RESTART_AFTER, UNSUPPORTED, run_scenario

        try:
            verdicts = self.state.ensure(self.nodeid)
        except _HandshakeFailed as exc:
            self.outcome = HANDSHAKE
            raise ScenarioFailure(str(exc)) from None
        verdict = verdicts.of(self.scenario)
        if verdict.scenario is None:
            self.outcome = UNSUPPORTED
            pytest.skip(f"UNSUPPORTED: {_one_line(verdict.reason())}")
        engine = self.state.engine
        result = run_scenario(engine, verdict.scenario)
        self.outcome = result.outcome
        if result.outcome != PASS:
            engine.stderr.settle()  # what it logged before it replied belongs to this report
        stderr = engine.stderr.take()
        engine.take_transcript()  # kept by no one here: a long run's memory stays flat
        if result.outcome in RESTART_AFTER:
            engine.close()
        if result.outcome == UNSUPPORTED:  # it refused the deal as unsupported: its declaration, made late
            pytest.skip(f"UNSUPPORTED: {_one_line(result.error or '')}")
        if result.outcome != PASS:
            raise ScenarioFailure(_failure_text(result, stderr))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            return str(excinfo.value)
        return _safe(str(super().repr_failure(excinfo)))

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(self.scenario.file), self.scenario.line - 1, f"scenario {self.scenario.id}"


class ScenarioFailure(Exception):
    """A scenario that did not pass; its text, escaped, is the test's failure report."""


# ---------------------------------------------------------------- the session


class _CorpusRun:
    """The corpus as tests (collected here), and the session's verdict on it: what the scenarios'
    reports say (in this process, or a pytest-xdist controller's) decides whether the engine was
    checked at all."""

    def __init__(self, config: pytest.Config, argv: list[str], timeout: float, startup_timeout: float, pipeline: int) -> None:
        self.config = config
        self.argv = argv
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.pipeline = pipeline
        self.outcomes: Counter[str] = Counter()
        self.deselected = 0
        self.engine: str | None = None
        self.handshake: str | None = None
        self.not_green: list[str] = []
        #: the scenarios this session collects, once pytest_collection has loaded them
        self.corpus: _Selection | None = None

    @pytest.hookimpl(wrapper=True)
    def pytest_collection(self, session: pytest.Session) -> Generator[None, object, object]:
        """The corpus loaded and selected before pytest resolves its arguments: the corpus's node
        ids among them (which name no file) are taken out of pytest's hands while it collects."""
        config = self.config
        theirs, ours = _split_arguments(config.args, config.invocation_params.dir)
        self.corpus = self._load(ours)
        given = config.args
        config.args = theirs
        try:
            return (yield)
        finally:
            config.args = given

    def _load(self, wanted: list[str]) -> _Selection:
        from gostop_conformance.harness import _dependencies
        from gostop_conformance.harness._harness import load_ledger
        from gostop_conformance.harness._scenarios import default_root, load_corpus, select
        from gostop_conformance.spec import InputError, load_ruleset_file

        config = self.config
        root = Path(config.getoption("--gostop-scenarios") or default_root())
        rules_path = config.getoption("--gostop-ruleset-file")
        ledger_path = config.getoption("--gostop-known-failures")
        try:
            corpus = load_corpus(root)
            if not corpus:
                raise pytest.UsageError(f"--gostop-scenarios: {root}: no scenario files here (YAML files with a `scenarios:` list)")
            scenarios = select(
                corpus,
                rulesets=config.getoption("--gostop-ruleset"),
                areas=config.getoption("--gostop-area"),
                ids=config.getoption("--gostop-id"),
            )
            if not scenarios:
                raise pytest.UsageError("--gostop-engine: no scenario matches the selection (--gostop-ruleset, --gostop-area, --gostop-id)")
            if wanted:
                scenarios = _named(wanted, corpus, scenarios)
            ledger = load_ledger(Path(ledger_path)) if ledger_path else {}
            dependencies = _dependencies.load(root)
            rules = load_ruleset_file(Path(rules_path)) if rules_path else None
        except InputError as exc:
            raise pytest.UsageError(str(exc)) from None
        state = _EngineState(self.argv, self.timeout, self.startup_timeout, self.pipeline, dependencies, rules)
        config.add_cleanup(state.engine.close)
        return _Selection(scenarios, {sc.id: known.reason for sc in scenarios if (known := ledger.get(sc.id)) is not None}, state)

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(self, collector: pytest.Collector) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
        """The corpus as one more child of the session, beside what pytest found in its arguments:
        collected, reported and counted as any collector is."""
        report = yield
        if isinstance(collector, pytest.Session) and report.passed and self.corpus is not None:
            report.result.append(Corpus.from_parent(collector, name=CORPUS_NAME, nodeid=CORPUS_NAME, selection=self.corpus))
        return report

    @pytest.hookimpl(tryfirst=True)  # before -k and -m: the project's tests are deselected by --gostop-only, not by them
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        if config.getoption("--gostop-only"):
            theirs = [item for item in items if not isinstance(item, ScenarioItem)]
            if theirs:
                config.hook.pytest_deselected(items=theirs)
                items[:] = [item for item in items if isinstance(item, ScenarioItem)]

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.deselected += sum(isinstance(item, ScenarioItem) for item in items)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if isinstance(item, ScenarioItem) and call.when == "teardown":
            setattr(report, _OUTCOME, item.outcome)
            setattr(report, _ENGINE, item.state.identity)
            failed = item.state.failed
            first = failed is not None and failed[0] == item.nodeid  # the summary shows it once, its stderr too
            setattr(report, _HANDSHAKE_REASON, "\n".join([failed[1], *failed[2]]) if failed is not None and first else None)
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        outcome = getattr(report, _OUTCOME, None)
        if report.when != "teardown" or outcome is None:
            return
        self.outcomes[outcome] += 1
        self.engine = self.engine or getattr(report, _ENGINE, None)
        self.handshake = self.handshake or getattr(report, _HANDSHAKE_REASON, None)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        option = self.config.option
        if hasattr(self.config, "workerinput") or option.collectonly or option.setuponly or option.setupplan:
            return  # a pytest-xdist worker (its controller judges), or a session that runs nothing
        if self.corpus is None:
            return  # no pytest_collection, so nothing to run: --fixtures, --fixtures-per-test
        if session.exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED, pytest.ExitCode.NO_TESTS_COLLECTED):
            return  # interrupted, or an error of pytest's own: that is what the session reports
        self.not_green = self._not_green(stopped=bool(session.shouldstop or session.shouldfail))
        if self.not_green and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _not_green(self, stopped: bool) -> list[str]:
        """Why the corpus makes the session fail even if every test passed (empty when it does not)."""
        if self.handshake is not None:
            why, *stderr = self.handshake.split("\n")
            return [f"NOT GREEN: {why}", *stderr, "nothing was checked: every scenario failed with it"]
        if stopped or self.checked():
            return []  # a session stopped early (-x, --maxfail) failed already, and says why
        collected = sum(self.outcomes.values()) + self.deselected
        lines = [f"NOT GREEN: nothing was checked: none of the {counted(collected, 'scenario')} collected was run against the engine"]
        unsupported = self.outcomes["UNSUPPORTED"]
        if unsupported:
            lines.append(
                f"  {unsupported} unsupported: the engine's hello declares none of what they need "
                f"(`gostop-conformance support --engine CMD` lists the declarations that would let them run)"
            )
        if self.deselected:
            lines.append(f"  {self.deselected} deselected (-k, -m or another plugin)")
        if self.outcomes["NOT_RUN"]:
            lines.append(f"  {self.outcomes['NOT_RUN']} not run (skipped before they started)")
        lines.append("a run that checked nothing is never green (as with `gostop-conformance run`)")
        return lines

    def checked(self) -> int:
        """Scenarios run against the engine, whatever their outcome."""
        return sum(n for outcome, n in self.outcomes.items() if outcome not in UNCHECKED)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.outcomes and not self.not_green:
            return
        terminalreporter.write_sep("=", "gostop conformance", red=bool(self.not_green))
        if self.outcomes:
            terminalreporter.write_line(
                f"engine {self.engine or '(no hello)'}: {counted(sum(self.outcomes.values()), 'scenario')} run, {self.checked()} checked, "
                f"{self.outcomes['UNSUPPORTED']} unsupported"
            )
        for line in self.not_green:
            terminalreporter.write_line(line, red=True)


# ---------------------------------------------------------------- the corpus in pytest's collection tree


@dataclass(frozen=True)
class _Selection:
    """The scenarios the session collects, their known failures' reasons, and the engine they share."""

    scenarios: Sequence[Scenario]
    known: Mapping[str, str]
    state: _EngineState


class Corpus(pytest.Collector):
    """The scenario corpus, a child of the session: one Area collector per area, in corpus order."""

    def __init__(self, *, selection: _Selection, **kw: Any) -> None:
        super().__init__(**kw)
        self.selection = selection

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        areas: dict[str, list[Scenario]] = {}
        for sc in self.selection.scenarios:
            areas.setdefault(sc.area, []).append(sc)
        return [Area.from_parent(self, name=area, scenarios=scenarios, selection=self.selection) for area, scenarios in areas.items()]


class Area(pytest.Collector):
    """One area of the corpus (scenarios/<area>/): one test per scenario, named by its id."""

    def __init__(self, *, scenarios: Sequence[Scenario], selection: _Selection, **kw: Any) -> None:
        super().__init__(**kw)
        self.scenarios = scenarios
        self.selection = selection

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        state, known = self.selection.state, self.selection.known
        return [
            ScenarioItem.from_parent(self, name=sc.id, scenario=sc, session_state=state, known=known.get(sc.id)) for sc in self.scenarios
        ]


def _split_arguments(args: Sequence[str], here: Path) -> tuple[list[str], list[str]]:
    """pytest's arguments split into those it resolves (paths) and the corpus's node ids. `gostop`
    alone is a path when one of that name is in the invocation directory; `gostop::...` is the
    corpus's unless `gostop` is a file there (pytest refuses :: parts after a directory)."""
    theirs: list[str] = []
    ours: list[str] = []
    for arg in args:
        name, parts, _ = arg.partition("::")
        path = here / name
        mine = name == CORPUS_NAME and not (path.is_file() if parts else path.exists())
        (ours if mine else theirs).append(arg)
    return theirs, ours


def _named(wanted: Sequence[str], corpus: Sequence[Scenario], selected: Sequence[Scenario]) -> list[Scenario]:
    """The selected scenarios the node ids given as arguments name, in corpus order; a node id that
    names nothing, or nothing the options selected, is a usage error saying which."""
    areas = {sc.area for sc in corpus}
    by_id = {sc.id: sc for sc in corpus}
    chosen = {sc.id for sc in selected}
    named: set[str] = set()
    for arg in wanted:
        parts = arg.split("::")[1:]
        if len(parts) > 2 or "" in parts:
            raise pytest.UsageError(f"{arg}: expected a node id of the corpus: {_NODE_ID_FORMS}")
        if parts and parts[0] not in areas:
            raise pytest.UsageError(f"{arg}: the corpus has no area {parts[0]!r} (its areas: {', '.join(sorted(areas))})")
        if len(parts) == 2:
            area, scenario_id = parts
            sc = by_id.get(scenario_id)
            if sc is None:
                raise pytest.UsageError(f"{arg}: the corpus has no scenario {scenario_id!r}")
            if sc.area != area:
                raise pytest.UsageError(
                    f"{arg}: scenario {scenario_id!r} is in area {sc.area!r}: its node id is {CORPUS_NAME}::{sc.area}::{sc.id}"
                )
        hits = {sc.id for sc in corpus if not parts or (sc.area == parts[0] and (len(parts) == 1 or sc.id == parts[1]))}
        if not hits & chosen:
            raise pytest.UsageError(f"{arg}: none of its scenarios is among those --gostop-ruleset, --gostop-area and --gostop-id select")
        named |= hits & chosen
    return [sc for sc in selected if sc.id in named]
