"""A conformance run: selection, engines (in process or stdio, several in parallel), the
known-failures ledger, and the per-scenario records the reporters write."""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from gostop_conformance.harness._compare import Mismatch
from gostop_conformance.harness._declaration import DeclarationError, Verdict, Verdicts, parse
from gostop_conformance.harness._defaults import DEFAULT_PIPELINE
from gostop_conformance.harness._dependencies import Dependencies
from gostop_conformance.harness._engine import Engine, EngineError, FailureKind, ReferenceEngine
from gostop_conformance.harness._rulesetfile import within
from gostop_conformance.harness._runner import OUTCOME_OF_ERROR, PASS, RESTART_AFTER, UNSUPPORTED, Outcome, Result, run_scenario
from gostop_conformance.harness._scenarios import Scenario
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.harness._steps import scenario_plan
from gostop_conformance.spec import InputError, RulesetFile, counted, load_ruleset, load_yaml

XFAIL: Final[Outcome] = "XFAIL"
XPASS: Final[Outcome] = "XPASS"
STALE = "STALE"
NOT_RUN: Final[Outcome] = "NOT_RUN"
#: outcomes that do not make a run fail (XPASS only fails under --strict); NOT_RUN makes it
#: incomplete, which the command line reports by its exit code (130 or 143), not as failures
BENIGN = frozenset({PASS, UNSUPPORTED, XFAIL, NOT_RUN})

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class KnownFailure:
    id: str
    reason: str
    link: str | None


#: the key of a ledger that names the corpus its failures were found in (`ledger` writes it)
LEDGER_CORPUS: Final = "corpus_digest"


def load_ledger(path: Path) -> dict[str, KnownFailure]:
    """A known-failures ledger: `known_failures: [{id, reason, link?}]` and, optionally, the
    `corpus_digest` of the runs it was written from; errors name file and line."""
    return _ledger(path)[0]


def ledger_corpus(path: Path) -> str | None:
    """The corpus digest a ledger says its failures were found in, or None when it names none."""
    return _ledger(path)[1]


def _ledger(path: Path) -> tuple[dict[str, KnownFailure], str | None]:
    located = load_yaml(path)
    data = located.data
    entries = data.get("known_failures") if isinstance(data, dict) else None
    if not isinstance(entries, list) or set(data) - {"known_failures", LEDGER_CORPUS}:
        raise InputError(
            located.where(),
            "expected a mapping with a `known_failures` list of {id, reason, link} entries (and its `corpus_digest`), and nothing else",
        )
    digest = data.get(LEDGER_CORPUS)
    if digest is not None and not (isinstance(digest, str) and re.fullmatch(r"sha256:[0-9a-f]{16}", digest)):
        raise InputError(located.where([LEDGER_CORPUS]), f"expected a corpus digest such as sha256:0123456789abcdef, got {digest!r}")
    out: dict[str, KnownFailure] = {}
    for i, entry in enumerate(entries):
        at: list[str | int] = ["known_failures", i]
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not isinstance(entry.get("reason"), str):
            raise InputError(located.where(at), "expected {id: <scenario id>, reason: <why>, link: <url, optional>}")
        unknown = sorted(set(entry) - {"id", "reason", "link"})
        if unknown:
            raise InputError(located.where([*at, unknown[0]]), "unexpected field; an entry is {id, reason, link}")
        if not entry["reason"].strip() or entry["reason"].startswith("TODO"):
            raise InputError(located.where([*at, "reason"]), "a known failure must say why (replace the TODO placeholder)")
        if "link" in entry and not isinstance(entry["link"], str):
            raise InputError(located.where([*at, "link"]), f"expected one link (a string), got {type(entry['link']).__name__}")
        if entry["id"] in out:
            raise InputError(located.where([*at, "id"]), f"scenario {entry['id']!r} is listed twice")
        out[entry["id"]] = KnownFailure(entry["id"], entry["reason"], entry.get("link"))
    return out, digest


@dataclass
class Record:
    """The outcome of one scenario in a run, as reported."""

    scenario: Scenario
    outcome: Outcome
    result: Result | None = None
    reason: str | None = None
    stderr: str = ""
    engine_transcript: list[tuple[str, str]] = field(default_factory=list)
    #: how the scenario was run for this engine's declaration (what was substituted), or why not
    verdict: Verdict | None = None
    #: wall-clock seconds the scenario took (reported only with --timing: reports are byte-identical without)
    seconds: float = 0.0

    def to_json(self) -> Json:
        sc = self.scenario
        out: Json = {
            "id": sc.id,
            "outcome": self.outcome,
            "file": sc.file,
            "area": sc.area,
            "ruleset": sc.ruleset,
            "clauses": list(sc.clauses),
        }
        if self.reason:
            out["reason"] = self.reason
        v = self.verdict
        if v is not None and v.changes:
            out["run_as"] = {"configuration": v.configuration, "options": dict(v.changes)}
        if v is not None and not v.supported:
            if v.features:
                out["requires"] = list(v.features)
            if v.constructed:
                out["constructed"] = True
            if v.event_log:
                out["event_log"] = True
            out["needs"] = [{"option": n.option, "passes": list(n.passes), "declared": n.declared} for n in v.needs]
        if self.result is not None:
            out["steps_run"] = self.result.steps_run
            if self.result.error:
                out["error"] = self.result.error
            if self.result.mismatches:
                out["mismatches"] = [
                    {"where": m.where, "path": m.path, "expected": m.expected, "actual": m.actual, "note": m.note, "binding": m.binding}
                    for m in self.result.mismatches
                ]
        return out


@dataclass
class RunReport:
    engine_label: str
    engine_command: list[str] | None
    hello: Json
    records: list[Record]
    ledger_stale: list[KnownFailure]
    strict: bool
    complete: bool
    seconds: float
    selection: Json
    #: scenarios that must actually run (not UNSUPPORTED) for the run to pass: a run that checked
    #: nothing, or too little, is never green
    min_checked: int = 1
    #: why nothing ran when the engine failed its handshake (its stderr in `stderr`), else None
    aborted: str | None = None
    stderr: str = ""
    #: the name the reports give the engine (`run --label`); by default its hello's name
    name: str | None = None
    #: the digest of the corpus the run read (corpus_digest), written in the report's header
    corpus_digest: str = ""

    def checked(self) -> int:
        """Scenarios that ran against the engine (whatever their outcome)."""
        return sum(1 for r in self.records if r.outcome not in (UNSUPPORTED, NOT_RUN))

    def too_little_checked(self) -> str | None:
        """Why the run fails for having checked too little, or None."""
        n = self.checked()
        if n >= self.min_checked:
            return None
        unsupported = sum(1 for r in self.records if r.outcome == UNSUPPORTED)
        return (
            f"only {n} of {counted(len(self.records), 'scenario')} were checked ({unsupported} unsupported), "
            f"fewer than the {self.min_checked} required (--min-checked)"
        )

    def ok(self) -> bool:
        return self.complete and self.aborted is None and not self.failed() and self.too_little_checked() is None

    def counts(self) -> Counter[str]:
        counts: Counter[str] = Counter(r.outcome for r in self.records)
        if self.ledger_stale:
            counts[STALE] = len(self.ledger_stale)
        return counts

    def by_clause(self) -> list[tuple[str, int, int]]:
        """(clause, failed, checked) for each clause a failing scenario cites, the most failed
        first: "R-STEAL: 13 of 22" points at a steal bug before any single scenario does."""
        failed: Counter[str] = Counter()
        checked: Counter[str] = Counter()
        for r in self.records:
            if r.outcome in (UNSUPPORTED, NOT_RUN):
                continue
            bad = r.outcome not in BENIGN and r.outcome != XPASS
            for clause in dict.fromkeys(r.scenario.clauses):
                checked[clause] += 1
                failed[clause] += bad
        return sorted(((c, n, checked[c]) for c, n in failed.items() if n), key=lambda t: (-t[1], -t[1] / t[2], t[0]))

    def failed(self) -> int:
        bad = 0
        for outcome, n in self.counts().items():
            if outcome in BENIGN or (outcome in (XPASS, STALE) and not self.strict):
                continue
            bad += n
        return bad

    def header(self) -> Json:
        rulesets = sorted({r.scenario.ruleset for r in self.records})
        from gostop_conformance.reference import PROTOCOL_VERSION, engine_version

        return {
            "record": "header",
            "suite_version": engine_version(),
            "protocol": PROTOCOL_VERSION,
            **({"corpus_digest": self.corpus_digest} if self.corpus_digest else {}),
            "engine": self.hello.get("engine", {}),
            "engine_label": self.engine_label,
            **({"label": self.name} if self.name else {}),
            "engine_command": self.engine_command,
            "engine_protocol": self.hello.get("protocol"),
            "support": {
                "rulesets": self.hello.get("rulesets", []),
                "options": self.hello.get("options", {}),
                "features": self.hello.get("features", []),
                "positions": self.hello.get("positions", "any"),
                "events": self.hello.get("events", "all"),
            },
            "ruleset_hashes": {rid: load_ruleset(rid).hash for rid in rulesets},
            "selection": self.selection,
            "scenarios": len(self.records),
        }

    def footer(self, timing: bool) -> Json:
        counts = self.counts()
        out: Json = {
            "record": "footer",
            "counts": dict(sorted(counts.items())),
            "passed": counts[PASS],
            "failed": self.failed(),
            "checked": self.checked(),
            "min_checked": self.min_checked,
            "strict": self.strict,
            "ok": self.ok(),
            **({"aborted": self.aborted} if self.aborted else {}),
            "complete": self.complete,
            "stale_known_failures": [k.id for k in self.ledger_stale],
        }
        if timing:
            out["seconds"] = round(self.seconds, 3)
        return out

    def by_area(self) -> dict[str, Counter[str]]:
        areas: dict[str, Counter[str]] = {}
        for r in self.records:
            areas.setdefault(r.scenario.area, Counter())[r.outcome] += 1
        return dict(sorted(areas.items()))


EngineFactory = Callable[[], Engine]


def engine_factory(argv: Sequence[str] | None, timeout: float, startup_timeout: float, pipeline: int = DEFAULT_PIPELINE) -> EngineFactory:
    if argv is None:
        return ReferenceEngine
    return lambda: StdioEngine(list(argv), message_timeout=timeout, startup_timeout=startup_timeout, pipeline=pipeline)


def run(
    scenarios: Sequence[Scenario],
    factory: EngineFactory,
    *,
    jobs: int = 1,
    ledger: dict[str, KnownFailure] | None = None,
    strict: bool = False,
    label: str = "",
    command: list[str] | None = None,
    selection: Json | None = None,
    on_record: Callable[[Record], None] | None = None,
    check_determinism: bool = False,
    keep_exchanges: bool = False,
    dependencies: Mapping[str, Dependencies] | None = None,
    min_checked: int = 1,
    corpus_ids: Collection[str] | None = None,
    rules: RulesetFile | None = None,
) -> RunReport:
    """Run `scenarios` on `jobs` engines; records come back in scenario order, whatever the timing.
    An interrupt (Ctrl-C) stops the run after the scenarios in flight: the report says what did
    not run, and is still written. Each scenario runs within what the engine declared
    (conformance._declaration), with `dependencies` the corpus's stored option dependencies. A
    ledger entry is stale when its scenario is in none of `corpus_ids` (the whole corpus, not the
    selection: a shard or a filter leaves the other entries current). With `rules`, a ruleset file,
    the engine is taken to play its rules and only them (conformance._rulesetfile.within)."""
    ledger = ledger or {}
    start = time.perf_counter()
    first = factory()

    def aborted(kind: FailureKind, why: str, hello: Json) -> RunReport:
        """Nothing could run: every selected scenario gets the handshake's outcome, and the report says why."""
        stderr = first.stderr.text() if isinstance(first, StdioEngine) else ""
        first.close()
        outcome = OUTCOME_OF_ERROR[kind]
        records = [Record(sc, outcome, Result(sc.id, outcome, error=why), reason=why, stderr=stderr) for sc in scenarios]
        seconds = time.perf_counter() - start
        return RunReport(label, command, hello, records, [], strict, True, seconds, selection or {}, min_checked, why, stderr)

    try:
        hello = first.hello()
    except EngineError as exc:  # nothing can run; the report says why
        return aborted(exc.kind, f"the engine failed its handshake: {exc.kind}: {exc.message}", {})
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM while the engine starts: an incomplete run, still reported
        first.close()
        why = "the run was interrupted during the engine's handshake"
        unrun = [Record(sc, NOT_RUN, reason=why) for sc in scenarios]
        return RunReport(label, command, {}, unrun, [], strict, False, time.perf_counter() - start, selection or {}, min_checked)
    try:
        declared = parse(hello)
        verdicts = Verdicts(declared if rules is None else within(rules, declared), dependencies)
    except DeclarationError as exc:
        return aborted("protocol", f"the engine failed its handshake: protocol: the hello reply's declaration is not valid: {exc}", hello)
    engines = [first] + [factory() for _ in range(max(1, jobs) - 1)]
    records: list[Record | None] = [None] * len(scenarios)
    lock = threading.Lock()
    stop = threading.Event()
    done = 0
    next_index = 0

    def claim() -> int | None:
        nonlocal next_index
        with lock:
            if next_index >= len(scenarios):
                return None
            next_index += 1
            return next_index - 1

    def worker(engine: Engine) -> None:
        nonlocal done
        mine = claim()
        while mine is not None and not stop.is_set():
            upcoming = claim()  # claimed now, so that its rounds go out to this engine while this scenario is checked
            following = None if upcoming is None else scenarios[upcoming]
            began = time.perf_counter()
            record = run_one(engine, scenarios[mine], verdicts, ledger, check_determinism, following, keep_exchanges)
            record.seconds = time.perf_counter() - began
            if stop.is_set():  # interrupted while it ran (the engine was ended under it): not a result
                return
            records[mine] = record
            with lock:
                done += 1
            if on_record is not None:
                on_record(record)
            mine = upcoming

    pool = ThreadPoolExecutor(max_workers=len(engines))
    try:
        futures = [pool.submit(worker, engine) for engine in engines]
        for future in futures:
            future.result()
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (the command line turns it into one)
        stop.set()
        for engine in engines:  # a worker waiting on a reply gets EOF now, not after the timeout
            abort = getattr(engine, "abort", None)
            if abort is not None:
                abort()
    finally:
        pool.shutdown(wait=True)
        for engine in engines:
            engine.close()
    complete = all(r is not None for r in records)
    final = [r if r is not None else Record(scenarios[i], NOT_RUN, reason="the run was interrupted") for i, r in enumerate(records)]
    ids = set(corpus_ids) if corpus_ids is not None else {sc.id for sc in scenarios}
    stale = [k for k in ledger.values() if k.id not in ids]
    return RunReport(label, command, hello, final, stale, strict, complete, time.perf_counter() - start, selection or {}, min_checked)


#: characters of a mismatch's expected or actual value kept for the report (its first and last half)
VALUE_LIMIT: Final = 64 << 10


def _bounded(m: Mismatch) -> Mismatch:
    def cut(value: Any) -> Any:
        if isinstance(value, int | float | bool | None):
            return value
        text = json.dumps(value, default=str)
        if len(text) <= VALUE_LIMIT:
            return value
        half = VALUE_LIMIT // 2
        return f"{text[:half]} [... {counted(len(text) - VALUE_LIMIT, 'character')} left out ...] {text[-half:]}"

    return replace(m, expected=cut(m.expected), actual=cut(m.actual))


def _replayed(engine: Engine, sc: Scenario, result: Result) -> Result:
    """The determinism check: the same scenario again must give the same replies."""
    again = run_scenario(engine, sc)
    if again.outcome in RESTART_AFTER or again.outcome == "ERROR":  # a crash in the replay is a crash, with its message
        return replace(again, error=f"the second run of the scenario (--check-determinism): {again.error}")
    first, second = result.transcript, again.transcript
    if first == second:
        return result
    k = next((i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b), min(len(first), len(second)))
    expected = first[k][2] if k < len(first) else "no further message"
    actual = second[k][2] if k < len(second) else "no further message"
    kind = (first[k] if k < len(first) else second[k])[0]
    problem = Mismatch(
        f"{sc.id} replayed", "determinism", expected, actual, f"the same scenario got another reply to {kind} the second time"
    )
    return Result(sc.id, "FAIL", (problem,), None, result.steps_run, result.transcript)


def run_one(
    engine: Engine,
    written: Scenario,
    verdicts: Verdicts,
    ledger: dict[str, KnownFailure],
    check_determinism: bool = False,
    upcoming: Scenario | None = None,
    keep_exchanges: bool = False,
) -> Record:
    """Run one scenario, as its verdict says it is sent to this engine; an engine that takes
    requests early is told of its rounds (unless it knows of them already) and of those of the
    scenario it runs next. The messages exchanged are kept for a non-pass (its reproducer), and
    for every scenario with `keep_exchanges`."""
    verdict = verdicts.of(written)
    if verdict.scenario is None:
        return Record(written, UNSUPPORTED, reason=verdict.reason(), verdict=verdict)
    sc = verdict.scenario
    stdio = engine if isinstance(engine, StdioEngine) else None  # the engine that takes requests early
    try:
        ahead: list[list[tuple[str, Json]]] = []
        if stdio is not None:
            stdio.ready()  # an engine that died since the last reply read: this scenario's crash
            stdio.take_transcript()  # what came before belongs to other scenarios
            if not stdio.expected:  # the first scenario, or the first after a restart
                stdio.expect(scenario_plan(sc))
            next_sent = verdicts.of(upcoming).scenario if upcoming is not None else None
            if next_sent is not None:
                ahead = scenario_plan(next_sent)
            if not check_determinism:
                stdio.expect(ahead)
        result = run_scenario(engine, sc)
        if check_determinism:  # the same scenario again, and nothing of another between the two
            if result.outcome == PASS:
                if stdio is not None:
                    stdio.expect(scenario_plan(sc))
                result = _replayed(engine, sc, result)
            if stdio is not None:
                stdio.expect(ahead)
    except EngineError as exc:  # the restart itself failed
        result = Result(sc.id, OUTCOME_OF_ERROR[exc.kind], error=exc.message)
    # only a non-pass gets a reproducer (an unexpected pass too): a long run keeps no exchange it will not show
    forget = result.outcome == PASS and sc.id not in ledger and not keep_exchanges
    if forget:
        result = replace(result, transcript=())
    elif stdio is not None and not keep_exchanges:
        # the reproducer shows the lines exchanged (bounded); the replies as objects would be kept twice,
        # and a mismatch's values only as much of them as a person reads
        result = replace(result, transcript=(), mismatches=tuple(_bounded(m) for m in result.mismatches))
    record = Record(written, result.outcome, result, verdict=verdict)
    if result.outcome == UNSUPPORTED:
        record.reason = result.error
    if stdio is not None:
        # stderr kept for a non-pass only: a chatty engine's log must not be copied into every record
        # (2 KB a request took a run to 910 MB). A passing scenario leaves it to the next record that
        # keeps it, never takes it away: with requests sent ahead the engine may already have logged
        # the next scenario's failure, while this one's replies were being read (its first and last
        # part are kept, however much comes before)
        if not forget:
            stdio.stderr.settle()
            record.stderr = stdio.stderr.take()
        exchanges = stdio.take_transcript()
        record.engine_transcript = [] if forget else exchanges
        if result.outcome in RESTART_AFTER:
            stdio.close()
    known = ledger.get(sc.id)
    if known is not None:
        record.reason = known.reason + (f" ({known.link})" if known.link else "")
        record.outcome = XPASS if result.outcome == PASS else XFAIL
    return record
