"""`gostop-conformance profile`: which house rules an engine plays, learnt from its behaviour.

For every option but the deck and the deal's shape (STRUCTURAL, which an engine declares), the
scenarios whose outcome depends on it most sharply (scenarios/dependencies.yaml) are run on the
engine as written, once each. The same requests are then played by the reference engine under
every probed value of the option, everything else as the scenario has it. The values under which
the reference engine gives exactly the engine's observable replies (states compared as scenarios
compare them, legal actions, scores, settlements and what a round hands to the next; not the
event log) are the values the engine behaves like in that scenario:

- some values fit: the scenario is conclusive and votes for them;
- every value fits: what depends on the option is not in the engine's replies (inconclusive);
- no value fits: another of the engine's rules, or a bug, is at work there (unexplained).

The engine's value is the one most conclusive scenarios vote for (a majority; several values when
the corpus cannot tell them apart); "none of the modelled values" when the unexplained scenarios
outnumber the conclusive ones or no value has a majority; "the value it is sent" when every
conclusive scenario fits its own value and they sent several (the engine is configured by the
options, as a declaration of "all" says). `declaration()` turns the result into a hello
declaration: a named ruleset with the values found as its exceptions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from conformance._dependencies import Dependencies, probe_values
from conformance._engine import Engine, EngineError, ReferenceEngine
from conformance._fuzz import NOT_FUZZED, normal_legal, normal_state
from conformance._runner import run_scenario
from conformance._scenarios import Scenario
from reference_impl import InputError, load_ruleset, option_registry

Json = dict[str, Any]

#: scenarios tried per option: those that separate its values best (the fewest passing values first)
PER_OPTION: Final = 8
#: the deck and the deal's shape: an engine declares them (its deals are refused otherwise); they are
#: not house rules to find by playing
STRUCTURAL: Final = NOT_FUZZED


@dataclass
class OptionProfile:
    """What the engine's behaviour says of one option."""

    option: str
    values: tuple[Any, ...] | None  # the values it behaves like; () none of the modelled ones; None undecided
    scenarios: list[str] = field(default_factory=list)  # the conclusive scenarios
    inconclusive: list[str] = field(default_factory=list)  # every value fits, or the engine could not play it
    unexplained: list[str] = field(default_factory=list)  # no value fits: another rule of the engine, or a bug
    #: the engine played, in every conclusive scenario, the value that scenario sent (and they sent several)
    follows: bool = False
    #: how many conclusive scenarios agree with the values found (the confidence)
    votes: int = 0

    @property
    def verdict(self) -> str:
        if self.follows:
            return "the value it is sent"
        if self.values is None:
            return "undecided (no scenario tells its values apart for this engine)"
        if not self.values:
            return "none of the modelled values"
        return " or ".join(_show(v) for v in self.values)

    @property
    def confidence(self) -> str:
        text = f"{self.votes} of {len(self.scenarios)} scenarios" if self.scenarios else "no scenario"
        return text + (f", {len(self.unexplained)} unexplained" if self.unexplained else "")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def _observed(transcript: Sequence[tuple[str, Json, Json]], sc: Scenario) -> list[Any]:
    """The observable part of each reply, in order: what a player would notice."""
    out: list[Any] = []
    for kind, _, reply in transcript:
        if "error" in reply:
            err = reply.get("error")
            out.append(("error", err.get("code") if isinstance(err, dict) else None))
        elif kind in ("new_game", "act"):
            out.append(normal_state(reply.get("state", {}), sc.rules))
        elif kind == "legal":
            out.append(("legal", normal_legal(reply), reply.get("player")))
        elif kind == "score":
            settlement = reply.get("settlement") or {}
            handed = reply.get("next") or {}
            out.append(
                (
                    "score",
                    [s.get("base") for s in reply.get("scores") or []],
                    {k: settlement.get(k) for k in ("kind", "winner", "net")},
                    {k: handed.get(k) for k in ("dealer", "nagari_streak", "carried_multiplier", "counts_as_round")},
                )
            )
    return out


def _replayed(sc: Scenario, requests: Sequence[tuple[str, Json]]) -> list[tuple[str, Json, Json]]:
    """The reference engine's replies to the very requests the engine was sent."""
    engine = ReferenceEngine()
    out: list[tuple[str, Json, Json]] = []
    for kind, request in requests:
        if kind == "new_game":
            reply = engine.new_game(request["ruleset"], request["deal"])
        elif kind == "act":
            reply = engine.act(request)  # the runner records an act by its action
        elif kind == "legal":
            reply = engine.legal()
        else:
            reply = engine.score()
        out.append((kind, request, reply))
    return out


def profile(
    engine: Engine,
    corpus: Sequence[Scenario],
    dependencies: Mapping[str, Dependencies],
    options: Sequence[str] = (),
    progress: Callable[[str], None] | None = None,
) -> list[OptionProfile]:
    """The profile of every option (or of `options`), from the scenarios that depend on it."""
    registry = option_registry()
    by_id = {sc.id: sc for sc in corpus}
    engine_runs: dict[str, list[tuple[str, Json, Json]] | None] = {}
    out: list[OptionProfile] = []
    for name in options or [o for o in registry if o not in STRUCTURAL]:
        if progress:
            progress(name)
        spec = registry[name]
        candidates = [sid for sid, dep in dependencies.items() if sid in by_id and dep.depends_on(name)]
        candidates.sort(key=lambda sid: (len(dependencies[sid].passes[name]), len(dependencies[sid].passes), sid))
        found = OptionProfile(name, None)
        votes: dict[str, int] = {}
        values_of: dict[str, Any] = {}
        sent: set[str] = set()
        always_own = True
        for sid in candidates[:PER_OPTION]:
            sc = by_id[sid]
            if sid not in engine_runs:
                engine_runs[sid] = _engine_run(engine, sc)
            transcript = engine_runs[sid]
            if not transcript:
                found.inconclusive.append(sid)
                continue
            seen = _observed(transcript, sc)
            matching: set[str] = set()
            probed: set[str] = set()
            for value in probe_values(spec, sc.resolved_options[name]):
                key = _key(value)
                values_of[key] = value
                probed.add(key)
                try:
                    other = sc.reconfigured(sc.ruleset, {name: value})
                except InputError:
                    continue
                requests = [(kind, _with_ruleset(request, other)) for kind, request, _ in transcript]
                if _observed(_replayed(other, requests), other) == seen:
                    matching.add(key)
            if not matching:  # no value reproduces what the engine did
                found.unexplained.append(sid)
                continue
            if matching == probed:  # every value does: what depends on the option is not in the engine's replies
                found.inconclusive.append(sid)
                continue
            found.scenarios.append(sid)
            own = _key(sc.resolved_options[name])
            sent.add(own)
            always_own = always_own and own in matching
            for key in matching:
                votes[key] = votes.get(key, 0) + 1
        if len(found.unexplained) > len(found.scenarios):
            found.values = ()  # most scenarios fit no value at all: the engine plays something the options do not model
        elif found.scenarios:
            # the values most scenarios agree on; a scenario may disagree where another of the engine's
            # house rules, or a bug, happens to look like another value of this option
            best = max(votes.values())
            found.votes = best
            winners = [k for k in values_of if votes.get(k) == best]
            found.values = tuple(values_of[k] for k in winners) if 2 * best > len(found.scenarios) else ()
            # an engine that is configured by what it is sent plays each scenario's own value: it
            # has no house value of the option to find (several values sent tell it apart)
            found.follows = always_own and len(sent) > 1
        out.append(found)
    return out


def _key(value: Any) -> str:
    return repr(value)


def _engine_run(engine: Engine, sc: Scenario) -> list[tuple[str, Json, Json]] | None:
    try:
        result = run_scenario(engine, sc)
    except EngineError:
        return None
    if result.outcome in ("CRASH", "TIMEOUT", "PROTOCOL"):
        restart = getattr(engine, "start", None)
        if restart is not None:
            with contextlib.suppress(EngineError):  # a dead engine shows in the next scenario
                restart()
        return None
    return list(result.transcript)


def _with_ruleset(request: Json, sc: Scenario) -> Json:
    return {**request, "ruleset": sc.ruleset_json()} if "ruleset" in request else request


def declaration(found: Sequence[OptionProfile], base: str) -> Json:
    """A hello declaration for what was found: `base` except for every option decided to other
    values than base's (undecided options are left to the ruleset; none-of-the-modelled ones are
    declared unsupported)."""
    own = load_ruleset(base).options.as_json()
    exceptions: Json = {}
    for p in found:
        if p.follows:
            exceptions[p.option] = "all"
            continue
        if p.values is None:
            continue
        if not p.values:
            exceptions[p.option] = "unsupported"
        elif own[p.option] not in p.values:
            exceptions[p.option] = [p.values[0]] if len(p.values) == 1 else list(p.values)
    return {"rulesets": [{"id": base, "options": exceptions} if exceptions else base]}


def table(found: Sequence[OptionProfile], base: str) -> list[str]:
    """The profile as terminal lines: every option whose engine value differs from `base`'s or is
    not decided, then a count of the options that agree."""
    own = load_ruleset(base).options.as_json()
    lines = [f"{'option':32} {'the engine plays':40} {base + ' has':24} evidence"]
    agree = 0
    for p in found:
        if p.follows or (p.values is not None and p.values and own[p.option] in p.values):
            agree += 1
            continue
        evidence = p.confidence
        lines.append(f"{p.option:32} {p.verdict[:40]:40} {_show(own[p.option])[:24]:24} {evidence}")
    lines.append(f"{agree} more options behave as {base} has them, or follow the value the engine is sent")
    return lines
