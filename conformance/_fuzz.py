"""Differential fuzzing: random rounds played in lock-step on an engine and on the reference
engine, compared after every action; the first divergence is shrunk and written as a scenario.

Everything is derived from the seed: the ruleset (among those the engine declares), the deal
(R-SHUFFLE, sent to both engines as an explicit deal) and every decision (an index into the
reference engine's legal actions). A case is therefore a list of choice indices, and shrinking
works on that list: cut after the divergence, then move each choice toward the first legal one,
then give the stock cards that are never turned up canonical order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from conformance._engine import Engine, EngineError, planned
from reference_impl import InputError, SplitMix64, load_ruleset, option_registry, seeded_deal
from reference_impl._jsonapi import JsonEngine, engine_version

Json = dict[str, Any]


@dataclass
class Case:
    ruleset: str
    deal: Json
    choices: list[int]
    options: Json = field(default_factory=dict)  # overrides of the ruleset's option values

    def ruleset_json(self) -> Json:
        rs = load_ruleset(self.ruleset).with_overrides(self.options, "fuzz")
        return {"id": rs.id, "options": rs.options.as_json()}


@dataclass
class Divergence:
    case: Case
    step: int  # index of the action after which the engines differ (-1: right after the deal)
    what: str
    expected: Any
    actual: Any
    clauses: list[str]
    reference_events: list[Json] = field(default_factory=list)


def _cards(value: Any) -> Any:
    return sorted(value) if isinstance(value, list) else value


def normal_state(state: Json) -> Json:
    """The observable state, order-free where order is not normative."""
    return {
        "decision": state.get("decision"),
        "to_act": state.get("to_act"),
        "hands": [_cards(h) for h in state.get("hands", [])],
        "table": _cards(state.get("table", [])),
        "stacks": sorted((s.get("month"), s.get("owner")) for s in state.get("stacks", [])),
        "stock": list(state.get("stock", [])),
        "captured": [_cards(c) for c in state.get("captured", [])],
    }


def normal_events(events: list[Json]) -> list[tuple[Any, ...]]:
    return [(e.get("kind"), e.get("player"), tuple(sorted(e.get("cards", [])))) for e in events]


def normal_legal(legal: Json) -> Counter[tuple[Any, ...]]:
    return Counter(
        (a.get("type"), a.get("player"), a.get("card"), a.get("take"), a.get("month"), bool(a.get("shake")))
        for a in legal.get("actions", [])
    )


def _compare(step: int, ref: Json, got: Json, what: str) -> tuple[str, Any, Any] | None:
    if "error" in ref or "error" in got:
        if ("error" in ref) != ("error" in got) or (ref.get("error") or {}).get("code") != (got.get("error") or {}).get("code"):
            return f"{what}: rejection", ref.get("error"), got.get("error")
        return None
    rs, gs = normal_state(ref.get("state", {})), normal_state(got.get("state", {}))
    for key in rs:
        if rs[key] != gs[key]:
            return f"{what}: state.{key}", rs[key], gs[key]
    if normal_events(ref.get("events", [])) != normal_events(got.get("events", [])):
        return f"{what}: events", normal_events(ref.get("events", [])), normal_events(got.get("events", []))
    return None


def play_case(case: Case, engine: Engine, reference: JsonEngine) -> Divergence | None:
    """Replay `case` on both engines; the first difference, or None. Choices beyond the legal
    list wrap around (so that shrinking can change earlier choices freely).

    The reference plays the case first: it decides every action, so the engine's requests are
    known before the first is sent, and an engine that can take them early (the stdio client)
    gets each while the harness still compares the reply before it."""
    ruleset = case.ruleset_json()
    deal_ref = reference.new_game(ruleset, case.deal)
    script: list[tuple[Json, Json | None, Json]] = []  # (legal, the action chosen, its reply)
    for choice in case.choices:
        legal_ref = reference.legal()
        if legal_ref.get("decision") == "none":
            script.append((legal_ref, None, {}))
            break
        action = legal_ref["actions"][choice % len(legal_ref["actions"])]
        script.append((legal_ref, action, reference.act(action)))
    score_ref = reference.score() if reference.legal().get("decision") == "none" else None
    requests: list[tuple[str, Json]] = [("new_game", {"ruleset": ruleset, "deal": case.deal})]
    for _, action, _ in script:
        requests += [("legal", {})] + ([("act", {"action": action})] if action is not None else [])
    with planned(engine, requests + ([("score", {})] if score_ref is not None else [])):
        return _against(case, engine, ruleset, deal_ref, script, score_ref)


def _against(
    case: Case, engine: Engine, ruleset: Json, deal_ref: Json, script: list[tuple[Json, Json | None, Json]], score_ref: Json | None
) -> Divergence | None:
    """The engine's replies against the reference's, request by request: the first difference."""
    got = engine.new_game(ruleset, case.deal)
    diff = _compare(-1, deal_ref, got, "after the deal")
    if diff:
        return Divergence(case, -1, *diff, _trace(deal_ref), deal_ref.get("events", []))
    played = 0
    for i, (legal_ref, action, ref) in enumerate(script):
        legal_got = engine.legal()
        if action is None:
            break
        if normal_legal(legal_ref) != normal_legal(legal_got) or legal_ref.get("player") != legal_got.get("player"):
            return Divergence(
                Case(case.ruleset, case.deal, case.choices[:i], case.options),
                i - 1,
                "legal actions",
                legal_ref.get("actions"),
                legal_got.get("actions"),
                [],
                [],
            )
        got = engine.act(action)
        played += 1
        diff = _compare(i, ref, got, f"after action {i + 1}")
        if diff:
            return Divergence(
                Case(case.ruleset, case.deal, case.choices[: i + 1], case.options), i, *diff, _trace(ref), ref.get("events", [])
            )
    if score_ref is not None:
        case = Case(case.ruleset, case.deal, case.choices[:played], case.options)
        sg = engine.score()
        settle_r = {k: (score_ref.get("settlement") or {}).get(k) for k in ("kind", "winner", "net")}
        settle_g = {k: (sg.get("settlement") or {}).get(k) for k in ("kind", "winner", "net")}
        if settle_r != settle_g:
            clauses = list((score_ref.get("settlement") or {}).get("clauses", []))
            return Divergence(case, len(case.choices) - 1, "settlement", settle_r, settle_g, clauses, [])
    return None


def _trace(reply: Json) -> list[str]:
    seen: list[str] = []
    for e in reply.get("events", []):
        for c in e.get("clauses", []):
            if c not in seen:
                seen.append(c)
    return seen


#: options a fuzz case may flip: those whose values are a small closed set
FLIPPABLE = ("bool", "enum")


def random_case(seed: int, rulesets: Sequence[str], support: Json | None = None) -> Case:
    """A whole random round: ruleset, up to two option values the engine declares, the deal and
    the choices, all from `seed`."""
    rng = SplitMix64(seed)
    rid = rulesets[rng.below(len(rulesets))]
    rs = load_ruleset(rid)
    overrides: Json = {}
    registry = option_registry()
    candidates = [k for k, spec in registry.items() if spec.type in FLIPPABLE and k not in NOT_FUZZED]
    for _ in range(rng.below(3)):
        key = candidates[rng.below(len(candidates))]
        spec = registry[key]
        values = [False, True] if spec.type == "bool" else list(spec.values)
        value = values[rng.below(len(values))]
        declared = "all" if support is None else support.get(key)
        if declared != "all" and not (isinstance(declared, list) and value in declared):
            continue
        try:
            rs.with_overrides({**overrides, key: value}, "fuzz")
        except InputError:
            continue
        overrides[key] = value
    options = rs.with_overrides(overrides, "fuzz").options
    deal = seeded_deal(options, rng, dealer=rng.below(options.players)).to_json()
    return Case(rid, deal, [rng.below(1 << 16) for _ in range(200)], overrides)


#: options that change the deck or the deal's shape: a case keeps the ruleset's
NOT_FUZZED = frozenset({"scoring_system", "players", "deal_layout", "deal_packet_order", "first_dealer"})


def shrink(div: Divergence, engine: Engine, reference: JsonEngine) -> Divergence:
    """Greedy shrinking: each choice toward the first legal one, then canonical order for the
    stock cards never turned up; a change is kept when the engines still diverge."""
    best = div
    for key in list(best.case.options):  # options back to the ruleset's values, one at a time
        options = {k: v for k, v in best.case.options.items() if k != key}
        found = play_case(Case(best.case.ruleset, best.case.deal, best.case.choices, options), engine, reference)
        if found is not None:
            best = found
    i = 0
    while i < len(best.case.choices):
        if best.case.choices[i] != 0:
            trial = Case(best.case.ruleset, best.case.deal, [*best.case.choices[:i], 0, *best.case.choices[i + 1 :]], best.case.options)
            found = play_case(trial, engine, reference)
            if found is not None:
                best = found
        i += 1
    reached = _stock_reached(best, reference)
    stock = list(best.case.deal["stock"])
    tail = sorted(stock[reached:], key=_card_index)
    if tail != stock[reached:]:
        deal = {**best.case.deal, "stock": stock[:reached] + tail}
        found = play_case(Case(best.case.ruleset, deal, best.case.choices, best.case.options), engine, reference)
        if found is not None:
            best = found
    return best


def _card_index(card: str) -> int:
    from reference_impl import deck

    return deck().by_id[card].index


def _stock_reached(div: Divergence, reference: JsonEngine) -> int:
    """How many stock cards the case turns up (the rest can be in any order)."""
    reply = reference.new_game(div.case.ruleset_json(), div.case.deal)
    start = len(reply["state"]["stock"])
    left = start
    for choice in div.case.choices:
        legal = reference.legal()
        if legal.get("decision") == "none":
            break
        step = reference.act(legal["actions"][choice % len(legal["actions"])])
        left = len(step.get("state", {}).get("stock", []))
    taken_at_deal = len(div.case.deal["stock"]) - start
    return taken_at_deal + (start - left)


def scenario_yaml(div: Divergence, seed: int, engine_label: str, reference: JsonEngine) -> str:
    """A ready-to-review scenario: the case's actions, and at the divergent step what the
    reference engine reported (which a reviewer must check against the rules before committing)."""
    reply = reference.new_game(div.case.ruleset_json(), div.case.deal)
    steps: list[Json] = []
    for i, choice in enumerate(div.case.choices):
        legal = reference.legal()
        action = legal["actions"][choice % len(legal["actions"])]
        reply = reference.act(action)
        step: Json = {"act": action}
        if i == div.step:
            state = reply.get("state", {})
            step["expect"] = {
                "captured": state.get("captured"),
                "table": state.get("table"),
                "events": {
                    "contains": [{"kind": e["kind"], **({"player": e["player"]} if "player" in e else {})} for e in reply.get("events", [])]
                },
            }
        steps.append(step)
    final = None
    if div.what == "settlement":
        sc = reference.score().get("settlement") or {}
        final = {"settlement": {k: sc.get(k) for k in ("kind", "winner", "net")}}
    sid = f"fuzz-{div.case.ruleset}-seed-{seed}"
    raw: Json = {
        "id": sid,
        "title": f"Found by fuzzing {engine_label}: {div.what}",
        "description": (
            f"Provenance: gostop-conformance fuzz --seed {seed} (suite {engine_version()}), engine {engine_label}. "
            f"The engines diverged ({div.what}). The expectations below are the reference engine's values: review them "
            "against the rules before committing, then drop the needs-review tag."
        ),
        "clauses": div.clauses or ["R-TURN"],
        "tags": ["fuzz", "needs-review"],
        "ruleset": div.case.ruleset,
        **({"options": div.case.options} if div.case.options else {}),
        "deal": {**div.case.deal, "complete": False},
        "steps": steps,
    }
    if final:
        raw["final"] = final
    if div.step == -1:
        raw.pop("steps")
        state = reply.get("state", {})
        raw["after_deal"] = {"captured": state.get("captured"), "table": state.get("table")}
    return yaml.safe_dump({"schema_version": 1, "scenarios": [raw]}, sort_keys=False, allow_unicode=True, width=140)


@dataclass
class FuzzReport:
    rounds: int = 0
    actions: int = 0
    divergences: list[tuple[int, Divergence]] = field(default_factory=list)
    by_clause: Counter[str] = field(default_factory=Counter)


def fuzz(
    engine: Engine,
    games: int,
    seed: int,
    rulesets: Sequence[str],
    max_divergences: int = 1,
    progress: Callable[[int, int], None] | None = None,
    do_shrink: bool = True,
) -> FuzzReport:
    reference = JsonEngine()
    report = FuzzReport()
    for g in range(games):
        case_seed = seed * 1_000_003 + g
        case = random_case(case_seed, rulesets)
        try:
            div = play_case(case, engine, reference)
        except EngineError as exc:
            div = Divergence(case, -1, f"engine error: {exc.kind}", None, exc.message, [])
        report.rounds += 1
        if div is not None:
            if do_shrink and not div.what.startswith("engine error"):
                div = shrink(div, engine, reference)
            report.divergences.append((case_seed, div))
            report.by_clause.update(div.clauses or ["(no clause)"])
            if len(report.divergences) >= max_divergences:
                break
        if progress:
            progress(g + 1, games)
    return report
