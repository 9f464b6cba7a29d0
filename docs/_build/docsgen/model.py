"""Everything the site is generated from, loaded once per build through the project's own loaders.

Spec data: `deck()`, `option_registry()`, `load_ruleset()`, `ruleset_ids()`,
`clauses()`, spec/sources.yaml, spec/traceability.yaml, spec/vocabulary.yaml, spec/glossary.yaml, the area files of
spec/rules/ (for their order and introductions). Scenarios: `load_corpus()` of the harness, each run on
the reference engine with `run_scenario` (its transcript is what the worked examples
show). Nothing here depends on the clock, the machine or dict ordering beyond the files' own order.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gostop_conformance.harness import ReferenceEngine, Result, Scenario, default_root, load_corpus, load_dependencies, run_scenario
from gostop_conformance.spec import (
    Clause,
    clauses,
    deck,
    glossary,
    load_ruleset,
    load_spec_file,
    load_yaml,
    option_registry,
    reset_caches,
    ruleset_ids,
    spec_dir,
    traceability,
    vocabulary,
)

Json = dict[str, Any]


@dataclass
class Area:
    id: str
    title: str
    order: int
    intro: str
    clauses: list[Clause]


@dataclass
class Frame:
    """One state of a worked example: after the deal, or after one step."""

    label: str
    act: Json | None = None
    expected_reject: str | None = None
    error: Json | None = None
    events: list[Json] = field(default_factory=list)
    state: Json | None = None
    scores: list[Json] | None = None
    expect: Json | None = None
    note: str | None = None


@dataclass
class RoundRun:
    listed: Json  # the deal as the scenario lists it (before the completion rule)
    deal: Json  # the deal sent to the engine
    frames: list[Frame]
    final: Json | None = None  # the last score reply of the round (scores, settlement, next)
    final_expect: Json | None = None
    after_deal_expect: Json | None = None


@dataclass
class Run:
    scenario: Scenario
    result: Result
    rounds: list[RoundRun]


class _ScoringEngine(ReferenceEngine):
    """The reference engine, also noting the scores after every accepted action (for the examples)."""

    def __init__(self) -> None:
        super().__init__()
        self.after_act: list[list[Json] | None] = []

    def act(self, action: Json) -> Json:
        reply = super().act(action)
        self.after_act.append(None if "error" in reply else super().score().get("scores"))
        return reply


def _raw_scenarios(corpus: list[Scenario], root: Path) -> dict[str, Json]:
    """The scenarios as written (for the listed part of the stock and the authors' step notes)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the corpus is already validated: parse fast
    out: dict[str, Json] = {}
    for file in sorted({sc.file for sc in corpus}):
        data = yaml.load((root / file).read_text(encoding="utf-8"), Loader=loader) or {}
        for raw in data.get("scenarios", []):
            out[raw["id"]] = raw
    return out


def run_example(sc: Scenario, raw: Json) -> Run:
    engine = _ScoringEngine()
    result = run_scenario(engine, sc)
    raw_rounds = raw.get("rounds", [raw])
    rounds: list[RoundRun] = []
    act_index = 0
    current: RoundRun | None = None
    step_no = 0
    state: Json | None = None
    for kind, request, reply in result.transcript:
        if kind == "new_game":
            r = len(rounds)
            spec_round = sc.rounds[r]
            raw_round = raw_rounds[r] if r < len(raw_rounds) else {}
            state = reply.get("state")
            current = RoundRun(
                listed=dict(raw_round.get("deal", {})),
                deal=request["deal"],
                frames=[Frame("After the deal", events=list(reply.get("events", [])), state=state, error=reply.get("error"))],
                final_expect=spec_round.final,
                after_deal_expect=spec_round.after_deal,
            )
            rounds.append(current)
            step_no = 0
        elif kind == "act" and current is not None:
            r = len(rounds) - 1
            steps = sc.rounds[r].steps
            raw_steps = (raw_rounds[r] if r < len(raw_rounds) else {}).get("steps", [])
            step = steps[step_no] if step_no < len(steps) else None
            note = raw_steps[step_no].get("note") if step_no < len(raw_steps) else None
            scores = engine.after_act[act_index] if act_index < len(engine.after_act) else None
            act_index += 1
            frame = Frame(
                f"Step {step_no + 1}",
                act=request,
                expected_reject=step.reject if step else None,
                error=reply.get("error"),
                events=list(reply.get("events", []) or []),
                state=reply.get("state", state) if "error" not in reply else state,
                scores=scores,
                expect=step.expect if step else None,
                note=note,
            )
            if "error" not in reply:
                state = reply.get("state", state)
            current.frames.append(frame)
            step_no += 1
        elif kind == "score" and current is not None:
            current.final = reply
    return Run(sc, result, rounds)


class Model:
    def __init__(self) -> None:
        reset_caches()
        self.slots: dict[str, list[str]] = {}  # page src -> raw HTML blocks (see links.Ctx.slot)
        self.root = Path(str(spec_dir())).resolve().parent
        self.deck = deck()
        self.cards = list(self.deck.cards)
        self.clauses = clauses()
        self.areas = self._areas()
        self.area_of_clause = {c.id: c.area for c in self.clauses.values()}
        self.options = option_registry()
        self.ruleset_ids = ruleset_ids()
        self.rulesets = {rid: load_ruleset(rid) for rid in self.ruleset_ids}
        self.sources: dict[str, Json] = dict(load_yaml(spec_dir() / "sources.yaml", "spec/sources.yaml").data["sources"])
        self.vocabulary: Json = vocabulary()
        self.traceability = traceability()  # every seed statement and what implements it
        self.glossary = glossary()
        self.corpus = load_corpus()
        # what each scenario's outcome depends on (generated beside the corpus; lint keeps it current)
        self.dependencies = load_dependencies(default_root())
        self.raw = _raw_scenarios(self.corpus, self.root)
        self.runs = {sc.id: run_example(sc, self.raw.get(sc.id, {})) for sc in self.corpus}
        self.by_clause: dict[str, list[Scenario]] = defaultdict(list)
        for sc in self.corpus:
            for cid in sc.clauses:
                self.by_clause[cid].append(sc)
        # scenario pages: one per scenario file, scenarios/<area>/<file stem>.md
        self.scenario_files: dict[str, list[Scenario]] = {}
        for sc in self.corpus:
            self.scenario_files.setdefault(sc.file, []).append(sc)
        self.scenario_page = {sc.id: self.page_of_file(sc.file) for sc in self.corpus}
        self.scenario_file = {sc.id: sc.file for sc in self.corpus}
        self.scenario_areas = sorted({sc.area for sc in self.corpus})
        self.options_by_clause: dict[str, list[str]] = defaultdict(list)
        for spec in self.options.values():
            for cid in spec.clauses:
                self.options_by_clause[cid].append(spec.id)

    @staticmethod
    def page_of_file(file: str) -> str:
        """scenarios/events/jjok.yaml -> scenarios/events/jjok.md"""
        return file[: -len(".yaml")] + ".md"

    def _areas(self) -> list[Area]:
        by_area: dict[str, list[Clause]] = defaultdict(list)
        for c in self.clauses.values():
            by_area[c.area].append(c)
        areas = []
        for path in sorted((spec_dir() / "rules").glob("*.yaml")):
            data = load_spec_file(f"rules/{path.name}", "rules").data
            areas.append(
                Area(data["area"], data["title"], int(data["order"]), " ".join(str(data.get("intro", "")).split()), by_area[data["area"]])
            )
        return sorted(areas, key=lambda a: (a.order, a.id))

    def chain(self, rid: str) -> list[str]:
        """The ruleset and its ancestors, nearest first."""
        out = []
        cur: str | None = rid
        while cur is not None:
            out.append(cur)
            cur = self.rulesets[cur].parent
        return out

    def set_by(self, rid: str, key: str) -> str | None:
        """The nearest ruleset of the chain that sets `key` itself (None: the registry default)."""
        for r in self.chain(rid):
            if key in self.rulesets[r].own:
                return r
        return None

    def children(self, rid: str) -> list[str]:
        return [r for r in self.ruleset_ids if self.rulesets[r].parent == rid]

    def source_title(self, key: str) -> str:
        entry = self.sources.get(key)
        return str(entry["title"]) if entry else key
