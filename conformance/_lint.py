"""`gostop-conformance lint` and `coverage`: is the corpus complete and honest?

lint: every cited clause exists; every normative clause is cited; the design of the interaction
scenarios (scenarios/interactions.yaml) has no hole and agrees with the corpus; every scenario passes on the
reference engine (so its actions are legal where no rejection is expected); every option value is
exercised by a scenario whose outcome it changes (checked by flipping the option and confirming
the scenario no longer passes on the reference engine); every statement of the seed texts is traced
to the clause or option value that implements it, and quoted word for word (conformance._seedtrace).

coverage: clause x ruleset x {positive, negative}, declared (what scenarios cite) against
observed (the clause ids the reference engine's rule-hit trace reports while running them).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness import _interactions as interactions
from gostop_conformance.harness._engine import ReferenceEngine
from gostop_conformance.harness._runner import PASS, Result, run_scenario
from gostop_conformance.harness._scenarios import Scenario
from gostop_conformance.harness._seedtrace import check_traceability
from gostop_conformance.harness._trace import UNTRACED, cited
from gostop_conformance.spec import (
    InputError,
    OptionSpec,
    Traceability,
    clauses,
    counted,
    deal_layouts,
    load_ruleset,
    option_registry,
    ruleset_ids,
    show_value,
)

Json = dict[str, Any]


@dataclass
class LintReport:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was not checked, and why (never a failure)
    exercised: dict[tuple[str, str], str] = field(default_factory=dict)  # (option, value) -> scenario id
    unexercised: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.unexercised


def _value_key(value: Any) -> str:
    if isinstance(value, list | tuple | frozenset | set):
        return "[" + ", ".join(str(v) for v in sorted(value, key=str)) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def value_universe(spec: OptionSpec, seen: Iterable[Any]) -> list[Any]:
    """The values of an option that must each be exercised: every declared value of enums and
    booleans, every symbol, and every value any ruleset or scenario uses (integers, lists)."""
    values: list[Any] = []
    if spec.type == "bool":
        values = [False, True]
    elif spec.type == "enum":
        values = list(spec.values)
    elif spec.type == "int_or_enum":
        values = list(spec.symbols)
    elif spec.type == "subset":
        # each member must be shown to matter: present (in some scenario) versus absent
        values = [[v] for v in spec.values]
    for v in seen:
        if spec.type == "subset":
            continue
        if _value_key(v) not in {_value_key(x) for x in values}:
            values.append(v)
    return values


def _matches(spec: OptionSpec, resolved: Any, value: Any) -> bool:
    if spec.type == "subset":
        return value[0] in resolved
    return _value_key(resolved) == _value_key(value)


def _alternatives(spec: OptionSpec, resolved: Any, value: Any, universe: Sequence[Any]) -> list[Any]:
    if spec.type == "subset":
        return [[v for v in resolved if v != value[0]]]
    return [v for v in universe if _value_key(v) != _value_key(resolved)]


def lint(
    corpus: Sequence[Scenario],
    root: Path | None = None,
    jobs: int | None = None,
    seeds: Path | None = None,
    table: Traceability | None = None,
    cache: Path | None = None,
) -> LintReport:
    """Every check of the module docstring; with `root`, also that the corpus's stored option
    dependencies (conformance._dependencies) are current, derived again on `jobs` processes (what
    the `cache` folder does not hold for this spec and code, conformance._derivecache). The
    traceability `table` (default spec/traceability.yaml) has its quotes checked against the seed
    texts in `seeds`, or wherever they are found."""
    report = LintReport()
    traced = check_traceability(table, seeds)
    report.problems += traced.problems
    report.notes += traced.notes
    known = clauses()
    cited: set[str] = set()
    for sc in corpus:
        for cid in sc.clauses:
            cited.add(cid)
            if cid not in known:
                report.problems.append(f"{sc.file}:{sc.line}: scenario {sc.id} cites unknown clause {cid}")
    for cid in known:
        if cid not in cited:
            report.problems.append(f"clause {cid} ({known[cid].area}) is cited by no scenario")
    for sc in corpus:
        if not binds(sc):
            report.problems.append(
                f"{sc.file}:{sc.line}: scenario {sc.id} expects nothing that can fail an engine: its only "
                "expectations are events, which are notes unless the scenario sets event_log: true"
            )
    engine = ReferenceEngine()
    passing: list[Scenario] = []
    for sc in corpus:
        result = run_scenario(engine, sc)
        if result.outcome != PASS:
            first = result.text().splitlines()[1:3]
            report.problems.append(
                f"{sc.file}:{sc.line}: scenario {sc.id} does not pass on the reference engine: " + " / ".join(x.strip() for x in first)
            )
        else:
            passing.append(sc)
    _option_values(passing, report, engine)
    if root is not None:
        _dependencies_current(passing, root, report, jobs, cache)
        report.problems += interactions.check(interactions.load(root), corpus)
    return report


def binds(sc: Scenario) -> bool:
    """Whether some expectation of `sc` can fail an engine: events count only in a scenario about
    the event log (the runner makes the others notes), so a scenario expecting nothing else would
    pass against any engine that plays the actions."""
    if sc.match is not None:
        return True
    for rnd in sc.rounds:
        expectations = [rnd.after_deal, *(step.expect for step in rnd.steps)]
        if rnd.final is not None or any(step.reject is not None for step in rnd.steps):
            return True
        for expect in expectations:
            if expect and (sc.event_log or set(expect) - {"events"}):
                return True
    return False


def _dependencies_current(corpus: Sequence[Scenario], root: Path, report: LintReport, jobs: int | None, cache: Path | None) -> None:
    path = root / dependencies.FILE_NAME
    if not path.exists():
        report.problems.append(f"{path}: missing; write it with `gostop-conformance dependencies --write`")
        return
    stale = dependencies.stale(corpus, dependencies.load(root), root, jobs, cache)
    report.problems += [f"{path}: stale: {line}" for line in stale[:20]]
    if len(stale) > 20:
        report.problems.append(f"{path}: stale: ... and {counted(len(stale) - 20, 'more scenario')}")
    if stale:
        report.problems.append(f"{path}: write it again with `gostop-conformance dependencies --write`")


def _values_seen(corpus: Sequence[Scenario]) -> dict[str, list[Any]]:
    """Per option, every value a named ruleset or a scenario of `corpus` plays (value_universe's `seen`)."""
    seen: dict[str, list[Any]] = defaultdict(list)
    for rid in ruleset_ids():
        for key, value in load_ruleset(rid).options.as_json().items():
            seen[key].append(value)
    for sc in corpus:
        for key, value in sc.resolved_options.items():
            seen[key].append(value)
    return seen


def _option_values(corpus: Sequence[Scenario], report: LintReport, engine: ReferenceEngine) -> None:
    registry = option_registry()
    seen = _values_seen(corpus)
    for key, spec in registry.items():
        universe = value_universe(spec, seen[key])
        for value in universe:
            holder = _find_changing_scenario(corpus, spec, value, universe, engine)
            if holder is None:
                report.unexercised.append((key, _value_key(value)))
            else:
                report.exercised[(key, _value_key(value))] = holder


def _find_changing_scenario(
    corpus: Sequence[Scenario], spec: OptionSpec, value: Any, universe: Sequence[Any], engine: ReferenceEngine
) -> str | None:
    related = set(spec.clauses)
    candidates = [sc for sc in corpus if _matches(spec, sc.resolved_options[spec.id], value)]
    # most telling first: scenarios that set the option, then those citing its clauses
    candidates.sort(key=lambda sc: (spec.id not in sc.options, not related & set(sc.clauses)))
    for sc in candidates:
        if spec.id not in sc.options and not related & set(sc.clauses):
            break  # a scenario that neither sets the option nor tests its clauses does not pin it
        for other in _alternatives(spec, sc.resolved_options[spec.id], value, universe):
            flipped = _flip(sc, spec.id, other)
            if flipped is None:
                continue
            if run_scenario(engine, flipped).outcome != PASS:
                return sc.id
    return None


DEAL_SHAPE = frozenset({"players", "deal_layout", "deal_packet_order"})


def _flip(sc: Scenario, key: str, value: Any) -> Scenario | None:
    """The scenario with one option changed, or None if that makes the ruleset inconsistent.
    The player count, deal layout and packet order are flipped together into a combination that
    spec/deal.yaml allows."""
    changes: list[Json] = [{key: value}]
    if key in DEAL_SHAPE:  # players, layout and packet order come in the combinations of spec/deal.yaml
        changes += [
            {"players": layout["players"], "deal_layout": lid, "deal_packet_order": order}
            for lid, layout in deal_layouts().items()
            for order in layout["orders"]
            if {"players": layout["players"], "deal_layout": lid, "deal_packet_order": order}[key] == value
        ]
    for change in changes:
        options = {**sc.options, **change}
        try:
            rs = load_ruleset(sc.ruleset).with_overrides(options, "flip")
        except InputError:
            continue
        return replace(sc, options=options, resolved_options=rs.options.as_json(), rules=rs.options)
    return None


# ---------------------------------------------------------------------------------- coverage


@dataclass
class CoverageReport:
    declared: dict[tuple[str, str, str], list[str]]  # (clause, ruleset, polarity) -> scenario ids
    observed: dict[tuple[str, str], list[str]]  # (clause, ruleset) -> scenario ids whose trace shows it
    silent: list[tuple[str, str]]  # (scenario id, cited positive clause that never fired)


def observed_clauses(result: Result) -> set[str]:
    out: set[str] = set()
    for _, _, reply in result.transcript:
        out.update(cited(reply))
    return out


def coverage(corpus: Sequence[Scenario]) -> CoverageReport:
    engine = ReferenceEngine()
    declared: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    observed: dict[tuple[str, str], list[str]] = defaultdict(list)
    silent: list[tuple[str, str]] = []
    for sc in corpus:
        result = run_scenario(engine, sc)
        fired = observed_clauses(result)
        for cid in sc.clauses:
            declared[(cid, sc.ruleset, sc.polarity)].append(sc.id)
            if cid in fired:
                observed[(cid, sc.ruleset)].append(sc.id)
            elif sc.polarity == "positive" and cid not in UNTRACED:
                silent.append((sc.id, cid))
    return CoverageReport(dict(declared), dict(observed), silent)


def coverage_lines(report: CoverageReport) -> list[str]:
    """Per clause: for each ruleset, positive/negative scenario counts, and whether the reference
    engine's trace showed the clause (`*`); clauses without scenarios and silent citations last."""
    lines = ["clause                  ruleset            +   -  traced"]
    uncovered = []
    for cid in clauses():
        rulesets = sorted({k[1] for k in report.declared if k[0] == cid})
        if not rulesets:
            uncovered.append(cid)
            continue
        for i, rid in enumerate(rulesets):
            pos = len(report.declared.get((cid, rid, "positive"), []))
            neg = len(report.declared.get((cid, rid, "negative"), []))
            traced = "n/a" if cid in UNTRACED else ("yes" if report.observed.get((cid, rid)) else "NO")
            lines.append(f"{cid if i == 0 else '':23} {rid:18} {pos:>2}  {neg:>2}  {traced}")
    for cid in uncovered:
        lines.append(f"UNCOVERED {cid}: no scenario cites it")
    for sid, cid in report.silent:
        lines.append(f"SILENT {sid}: cites {cid}, which the reference engine's trace never reports for it")
    n = len(clauses())
    lines.append(f"{n - len(uncovered)} of {counted(n, 'clause')} cited; {counted(len(report.silent), 'silent citation')}")
    return lines


def single_configurations(corpus: Sequence[Scenario], deps: dict[str, dependencies.Dependencies]) -> list[tuple[str, str]]:
    """Behaviours pinned in one configuration only (issue 15: every behaviour is pinned by at least
    two scenarios that differ in more than the cards): each (what, configuration) where `what` is a
    clause, or an option value some scenario depends on, and every scenario citing or depending on
    it is under the same ruleset and player count."""
    seen: dict[str, set[str]] = defaultdict(set)
    for sc in corpus:
        where = f"{sc.ruleset} ({sc.resolved_options['players']} players)"
        for cid in sc.clauses:
            seen[cid].add(where)
        stored = deps.get(sc.id)
        if stored is None:
            continue
        for name, value in sc.resolved_options.items():
            if stored.depends_on(name):
                seen[f"{name} = {show_value(value)}"].add(where)
    return [(what, next(iter(places))) for what, places in sorted(seen.items()) if len(places) == 1]


# ------------------------------------------------------------------- two players (issue 39)


def players_of(sc: Scenario) -> int:
    return int(sc.resolved_options["players"])


def by_players(corpus: Sequence[Scenario]) -> dict[str, Counter[int]]:
    """Per clause, how many scenarios cite it at each player count."""
    out: dict[str, Counter[int]] = {cid: Counter() for cid in clauses()}
    for sc in corpus:
        for cid in sc.clauses:
            out.setdefault(cid, Counter())[players_of(sc)] += 1
    return out


@cache
def _two_player_rulesets() -> tuple[str, ...]:
    return tuple(rid for rid in ruleset_ids() if load_ruleset(rid).options.players == 2)


def applies_to_two_players(option: str, value: Any) -> bool:
    """Whether some two-player game plays `option = value`: a named two-player ruleset takes it
    (spec/deal.yaml and the scoring systems decide; a three-player deal layout does not)."""
    for rid in _two_player_rulesets():
        try:
            load_ruleset(rid).with_overrides({option: value}, "two players")
        except InputError:
            continue
        return True
    return False


def two_player_gaps(corpus: Sequence[Scenario], deps: Mapping[str, dependencies.Dependencies]) -> list[str]:
    """What applies to two players but no two-player scenario pins: every clause (each applies to two
    players: the two-player rulesets play every clause, the point-count ones under family-2p), and
    every option value some two-player ruleset takes, unless spec/options.yaml says why it cannot
    differ from another value with two players (`same_with_two_players`). A value is pinned by a
    two-player scenario that runs under it and whose outcome depends on the option
    (scenarios/dependencies.yaml)."""
    counts = by_players(corpus)
    gaps = [f"clause {cid}: no two-player scenario cites it" for cid in clauses() if not counts[cid][2]]
    two = [sc for sc in corpus if players_of(sc) == 2]
    seen = _values_seen(corpus)
    for key, spec in option_registry().items():
        universe = value_universe(spec, seen[key])
        gaps += [
            f"spec/options.yaml: {key}: same_with_two_players names {odd!r}, not a value of the option"
            for odd in sorted(set(spec.same_with_two_players) - {_value_key(v) for v in universe})
        ]
        for value in universe:
            shown = _value_key(value)
            if shown in spec.same_with_two_players or not applies_to_two_players(key, value):
                continue
            if not any(
                _matches(spec, sc.resolved_options[key], value) and (d := deps.get(sc.id)) is not None and d.depends_on(key) for sc in two
            ):
                gaps.append(f"option value {key} = {shown}: no two-player scenario depends on it")
    return gaps


def players_lines(corpus: Sequence[Scenario]) -> list[str]:
    """Per clause, its scenarios at two, three and four players."""
    lines = ["clause                   2p   3p   4p"]
    for cid, c in by_players(corpus).items():
        lines.append(f"{cid:23} {c[2]:>4} {c[3]:>4} {c[4]:>4}")
    return lines


def coverage_markdown(report: CoverageReport) -> list[str]:
    rulesets = ruleset_ids()
    out = ["| clause | " + " | ".join(rulesets) + " |", "| --- | " + " | ".join("---" for _ in rulesets) + " |"]
    for cid in clauses():
        cells = []
        for rid in rulesets:
            pos = len(report.declared.get((cid, rid, "positive"), []))
            neg = len(report.declared.get((cid, rid, "negative"), []))
            cells.append(f"{pos}/{neg}" if pos or neg else "")
        out.append(f"| `{cid}` | " + " | ".join(cells) + " |")
    return out


def lint_lines(report: LintReport, scenarios: int, *, verbose: bool = False) -> list[str]:
    """What `lint` prints: every problem and note, every option value no scenario exercises (with
    `verbose`, the scenario that exercises each other one), then the counts."""
    lines = [f"lint: {problem}" for problem in report.problems]
    lines += [f"lint: note: {note}" for note in report.notes]
    lines += [
        f"lint: option value {key} = {value} is exercised by no scenario whose outcome it changes" for key, value in report.unexercised
    ]
    if verbose:
        lines += [f"ok: {key} = {value}  <- {sid}" for (key, value), sid in sorted(report.exercised.items())]
    total = len(report.exercised) + len(report.unexercised)
    lines.append(
        f"{counted(scenarios, 'scenario')}; {counted(len(report.problems), 'problem')}; "
        f"{len(report.exercised)} of {counted(total, 'option value')} exercised"
    )
    return lines


def breadth_lines(corpus: Sequence[Scenario], single: Sequence[tuple[str, str]], gaps: Sequence[str]) -> list[str]:
    """What `coverage` prints after its table: the behaviours pinned under one configuration only
    (`single_configurations`), the scenarios per player count, and what applies to two players
    without a two-player scenario (`two_player_gaps`)."""
    lines = [f"ONE CONFIGURATION {what}: every scenario about it is under {where}" for what, where in single]
    lines.append(
        f"{counted(len(single), 'behaviour')} (clauses and depended-on option values) pinned under one ruleset and player count only"
    )
    lines += players_lines(corpus)
    lines += [f"NO TWO-PLAYER SCENARIO {gap}" for gap in gaps]
    lines.append(
        f"{counted(len(gaps), 'clause or option value', 'clauses and option values')} "
        f"that {'applies' if len(gaps) == 1 else 'apply'} to two players without a two-player scenario"
    )
    return lines
