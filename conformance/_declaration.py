"""What an engine declares it plays (its `hello`), and how each scenario is run within that.

An engine declares rulesets, each either whole (`"matgo-2p"`) or with exceptions
(`{"id": "matgo-2p", "options": {"meong_mode": ["off"], "shake_declaration": "unsupported"}}`),
and option values it supports in any configuration (`"options": {"jjok_steal": "all"}`), or per
player count (`"options": {"go_threshold": {"by_players": {"2": [7], "3": [3]}}}`). That gives a
few *configurations*: one per claimed ruleset, and free ones made of the declared options alone
(one per player count when an option is declared per player count), where every option not
declared is unknown.

A scenario runs under the first configuration that can run it (its own ruleset's claim, then the
free one, then the other claims). A configuration can run it when, for every option:

- the engine supports the scenario's own value, or
- the option is unknown and the scenario does not depend on it (conformance._dependencies), or
- the engine supports other values and one of them keeps the scenario's outcome: the scenario is
  then sent with that value, once the reference engine has passed it with exactly the values sent.

Otherwise the scenario is UNSUPPORTED, and the reason lists every missing value. The scenario's
expectations never change: only option values under which the reference engine gives the same
compared outcome are substituted. The options the configuration does not declare (unsupported or
unknown) are sent with the scenario (`Scenario.unjudged`): a check of the harness's own whose
answer rests on one of them (the end-of-scenario score invariant) does not judge the engine.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from gostop_conformance.harness._dependencies import Dependencies, compress, stored_or_derived
from gostop_conformance.harness._engine import ReferenceEngine
from gostop_conformance.harness._runner import PASS, run_scenario
from gostop_conformance.harness._safetext import engine_text
from gostop_conformance.harness._scenarios import Scenario
from gostop_conformance.spec import InputError, counted, load_ruleset, option_registry, ruleset_ids, show_value, toggle_registry, vocabulary

Json = dict[str, Any]

#: every value of the option
ANY: Final = "all"
#: the engine does not play the option's rule reliably: scenarios that depend on it are UNSUPPORTED
UNSUPPORTED_OPTION: Final = "unsupported"
#: the protocol's features (spec/vocabulary.yaml): what a scenario may `require`
FEATURES: Final = tuple(vocabulary()["features"])

#: one option's support: ANY, the tuple of supported values (JSON form), or None (unknown)
Support = str | tuple[Any, ...] | None


class DeclarationError(Exception):
    """A hello whose declaration names an unknown ruleset, option or value (`where` is a JSON path)."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(frozen=True, slots=True)
class Configuration:
    """One way the engine can be set up: `base` is the ruleset id sent in new_game (None: the
    scenario's own, for the free configuration), `support` what it plays per option."""

    base: str | None
    support: Mapping[str, Support]
    label: str

    def of(self, option: str) -> Support:
        return self.support.get(option)


@dataclass(frozen=True, slots=True)
class Declaration:
    """An engine's hello, validated: its configurations and features."""

    configurations: tuple[Configuration, ...]
    claimed: tuple[str, ...]
    features: frozenset[str]
    declared_options: Mapping[str, Support]
    #: the engine declines constructed positions (`"positions": "reachable"`, R-ROUND-END)
    reachable_only: bool = False
    #: the engine reports no events (`"events": "none"`): the scenarios about the event log are UNSUPPORTED
    outcomes_only: bool = False

    def claims(self, ruleset_id: str) -> Configuration | None:
        return next((c for c in self.configurations if c.base == ruleset_id), None)

    def free(self, players: int | None = None) -> Configuration | None:
        """The options-only configuration (for `players`, when it is declared per player count)."""
        frees = [c for c in self.configurations if c.base is None]
        fits = [c for c in frees if players is None or c.of("players") in (ANY, None) or players in (c.of("players") or ())]
        found = fits or frees
        return found[0] if found else None


def parse(hello: Json) -> Declaration:
    """The declaration of a hello reply; DeclarationError names the field and what was expected."""
    registry = option_registry()
    known = ruleset_ids()
    raw_top = hello.get("options") or {}
    per_players = _per_players(raw_top, "hello.options")
    top = _options({k: v for k, v in raw_top.items() if k not in per_players}, "hello.options", allow_unsupported=False)
    configurations: list[Configuration] = []
    claimed: list[str] = []
    for i, item in enumerate(hello.get("rulesets") or ()):
        where = f"hello.rulesets[{i}]"
        if isinstance(item, str):
            rid, exceptions = item, {}
        elif isinstance(item, dict) and isinstance(item.get("id"), str):
            rid = item["id"]
            extra = sorted(set(item) - {"id", "options"})
            if extra:
                raise DeclarationError(f"{where}.{extra[0]}", "unexpected field; a ruleset claim is {id, options}")
            if "options" not in item:
                raise DeclarationError(where, 'an object lists its exceptions in "options"; without exceptions, give the id alone')
            raw = item["options"]
            if not isinstance(raw, dict):
                raise DeclarationError(f"{where}.options", 'expected an object of option ids to "all", a list of values or "unsupported"')
            exceptions = _options(raw, f"{where}.options", allow_unsupported=True)
        else:
            raise DeclarationError(where, 'expected a ruleset id, or {"id": <ruleset id>, "options": {...}}')
        if rid not in known:
            raise DeclarationError(where, f"unknown ruleset {rid!r}; the suite's rulesets are {', '.join(known)}")
        if rid in claimed:
            raise DeclarationError(where, f"ruleset {rid!r} is claimed twice")
        claimed.append(rid)
        values = load_ruleset(rid).options.as_json()
        general = _for_players(top, per_players, values["players"])
        support: dict[str, Support] = {}
        for name in registry:
            if name in exceptions:
                support[name] = exceptions[name]
            else:
                support[name] = _union((values[name],), general.get(name))
        label = rid if not exceptions else f"{rid} (except {', '.join(sorted(exceptions))})"
        configurations.append(Configuration(rid, support, label))
    if per_players:
        counts = top.get("players")
        declared = {n for by in per_players.values() for n in by}
        for n in sorted(declared if not isinstance(counts, tuple) else declared | set(counts)):
            if isinstance(counts, tuple) and n not in counts:
                continue  # a count the engine does not play: its per-count values are never used
            free = _for_players(top, per_players, n) | {"players": (n,)}
            configurations.append(Configuration(None, free, f"declared options, {n} players"))
    elif top or not claimed:
        configurations.append(Configuration(None, dict(top), "declared options"))
    features = hello.get("features") or []
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise DeclarationError("hello.features", "expected a list of feature names")
    positions = hello.get("positions", "any")
    if positions not in POSITIONS:
        raise DeclarationError("hello.positions", f'expected "any" (the default) or "reachable", got {positions!r}')
    reasons = hello.get("reasons") or {}
    if not isinstance(reasons, dict):
        raise DeclarationError("hello.reasons", "expected an object of option ids to the reason for each")
    for option, why in reasons.items():
        if option not in registry:
            raise DeclarationError(f"hello.reasons.{option}", "unknown option of spec/options.yaml")
        if not isinstance(why, str):
            raise DeclarationError(f"hello.reasons.{option}", "expected the reason as a string")
    events = hello.get("events", "all")
    if events not in EVENT_REPORTS:
        raise DeclarationError("hello.events", f'expected "all" (the default) or "none", got {events!r}')
    return Declaration(tuple(configurations), tuple(claimed), frozenset(features), top, positions == "reachable", events == "none")


#: what `hello.positions` may say (spec/vocabulary.yaml): every position a scenario sets up, or only those a real deal reaches
POSITIONS: Final = tuple(vocabulary()["positions"])
#: what `hello.events` may say (spec/vocabulary.yaml, event_reports)
EVENT_REPORTS: Final = tuple(vocabulary()["event_reports"])


def _options(raw: Any, where: str, *, allow_unsupported: bool, keys: Mapping[str, str] | None = None) -> dict[str, Support]:
    """Each option's support; `keys` names the JSON key of an option's entry when it is not the
    option's id (a player count, under `by_players`)."""
    if not isinstance(raw, dict):
        raise DeclarationError(where, 'expected an object of option ids to "all" or a list of values')
    registry = option_registry()
    out: dict[str, Support] = {}
    for name, support in raw.items():
        spec = registry.get(name)
        at = f"{where}.{(keys or {}).get(name, name)}"
        if spec is None:
            toggle = toggle_registry().get(name)
            if toggle is not None:
                # the wire carries options only: a toggle is a way of writing two of them
                raise DeclarationError(at, f"a convenience toggle, not an option; declare the options it sets: {', '.join(toggle.sets)}")
            raise DeclarationError(at, "unknown option; expected an option id of spec/options.yaml")
        if support == ANY:
            out[name] = ANY
        elif support == UNSUPPORTED_OPTION and allow_unsupported:
            out[name] = None
        elif isinstance(support, list) and support:
            values: list[Any] = []
            for k, value in enumerate(support):
                typed = spec.coerce(value)
                if typed is None:
                    raise DeclarationError(f"{at}[{k}]", f"expected {spec.expected()}, got {value!r}")
                canonical = sorted(value) if isinstance(typed, frozenset) else value
                if canonical not in values:
                    values.append(canonical)
            out[name] = tuple(values)
        else:
            allowed = '"all", a non-empty list of values or "unsupported"' if allow_unsupported else '"all" or a non-empty list of values'
            raise DeclarationError(at, f"expected {allowed}, got {support!r}")
    return out


#: the key of an option's support given per player count (`{"by_players": {"2": [...], "3": "all"}}`)
BY_PLAYERS: Final = "by_players"


def _per_players(raw: Any, where: str) -> dict[str, dict[int, Support]]:
    """The options of `hello.options` declared per player count, each as {count: support}."""
    if not isinstance(raw, dict):
        return {}
    out: dict[str, dict[int, Support]] = {}
    for name, support in raw.items():
        if not isinstance(support, dict):
            continue
        at = f"{where}.{name}"
        if set(support) != {BY_PLAYERS} or not isinstance(support[BY_PLAYERS], dict) or not support[BY_PLAYERS]:
            raise DeclarationError(at, f'expected "all", a non-empty list of values, or {{"{BY_PLAYERS}": {{"<player count>": ...}}}}')
        if name == "players":
            raise DeclarationError(at, "the player count itself cannot be declared per player count")
        by: dict[int, Support] = {}
        for count, values in support[BY_PLAYERS].items():
            if not (isinstance(count, str) and count.isdigit() and 2 <= int(count) <= 4):
                raise DeclarationError(f"{at}.{BY_PLAYERS}", f"expected player counts 2, 3 or 4 as keys, got {count!r}")
            by[int(count)] = _options({name: values}, f"{at}.{BY_PLAYERS}", allow_unsupported=True, keys={name: count})[name]
        out[name] = by
    return out


def _for_players(top: Mapping[str, Support], per_players: Mapping[str, Mapping[int, Support]], n: int) -> dict[str, Support]:
    """The options-only support with the per-player-count options resolved for `n` players (a
    count an option does not list: unknown for that count)."""
    out = dict(top)
    for name, by in per_players.items():
        found = by.get(n)
        if found is not None:
            out[name] = found
    return out


def _union(own: tuple[Any, ...], extra: Support) -> Support:
    if extra == ANY:
        return ANY
    if isinstance(extra, tuple):
        return own + tuple(v for v in extra if v not in own)
    return own


# ---------------------------------------------------------------- one scenario under a declaration


@dataclass(frozen=True, slots=True)
class Need:
    """A value the scenario needs and the engine does not declare: the option, the values under
    which the scenario passes (of those probed; empty: only a combination failed), and what the
    engine declares for it (None: nothing)."""

    option: str
    passes: tuple[Any, ...]
    declared: Support

    def text(self) -> str:
        wanted = " or ".join(show_value(v) for v in compress(self.passes)) if self.passes else "its own value, with the others"
        if self.declared is None:
            return f"{self.option} = {wanted} (not declared)"
        declared = ", ".join(show_value(v) for v in self.declared) if isinstance(self.declared, tuple) else str(self.declared)
        return f"{self.option} = {wanted} (declared: {declared})"


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a scenario runs for an engine: `scenario` is what is sent (None: UNSUPPORTED, `needs`
    and `features` say why), `changes` the option values substituted, `configuration` its label."""

    scenario: Scenario | None
    configuration: str = ""
    changes: Mapping[str, Any] = field(default_factory=dict)
    needs: tuple[Need, ...] = ()
    features: tuple[str, ...] = ()
    constructed: bool = False
    #: the scenario is about the event log, and the engine reports no events
    event_log: bool = False

    @property
    def supported(self) -> bool:
        return self.scenario is not None

    def reason(self) -> str:
        if self.features:
            return "requires the feature " + ", ".join(self.features)
        if self.constructed:
            return (
                "reaches a constructed position (the stock empty while a player still holds cards, R-ROUND-END), which the engine declines"
            )
        if self.event_log:
            return "is about the event log (event_log: true), and the engine reports no events (hello events: none)"
        return "needs " + "; ".join(n.text() for n in self.needs)

    def note(self) -> str:
        """What was substituted, for the report ('' when the scenario ran as written)."""
        if not self.changes:
            return ""
        return f"run as {self.configuration} with " + ", ".join(f"{k} = {show_value(v)}" for k, v in self.changes.items())


DependenciesOf = Callable[[Scenario], Dependencies]


def verdict(sc: Scenario, declaration: Declaration, dependencies: DependenciesOf) -> Verdict:
    """How `sc` runs under `declaration` (module docstring), or why it cannot."""
    missing_features = tuple(f for f in sc.requires if f not in declaration.features)
    if missing_features:
        return Verdict(None, features=missing_features)
    if declaration.reachable_only and dependencies(sc).constructed:
        return Verdict(None, constructed=True)
    if declaration.outcomes_only and sc.event_log:
        return Verdict(None, event_log=True)
    own = declaration.claims(sc.ruleset)
    order = [c for c in (own, declaration.free(sc.rules.players)) if c is not None]
    order += [c for c in declaration.configurations if c not in order]
    first: Verdict | None = None
    for configuration in order:
        found = _under(sc, configuration, dependencies)
        if found.supported:
            return found
        first = first or found
    assert first is not None  # a declaration always has a configuration
    return first


def _under(sc: Scenario, cfg: Configuration, dependencies: DependenciesOf) -> Verdict:
    base = cfg.base or sc.ruleset
    deps: Dependencies | None = None
    candidates: dict[str, list[Any]] = {}
    needs: list[Need] = []
    for name, current in sc.resolved_options.items():
        support = cfg.of(name)
        if support == ANY or (isinstance(support, tuple) and current in support):
            continue
        deps = deps or dependencies(sc)
        if support is None:
            if deps.depends_on(name):
                needs.append(Need(name, deps.passes[name], None))
            continue
        assert isinstance(support, tuple)
        known = [v for v in support if deps.admits(name, v, current) is True]
        unknown = [v for v in support if deps.admits(name, v, current) is None]
        if not known and not unknown:
            needs.append(Need(name, deps.passes[name], support))
        else:
            candidates[name] = known + unknown
    if needs:
        return Verdict(None, cfg.label, needs=tuple(needs))
    unjudged = frozenset(name for name in sc.resolved_options if cfg.of(name) is None)
    if not candidates and base == sc.ruleset:
        return Verdict(replace(sc, unjudged=unjudged) if unjudged else sc, cfg.label)
    chosen = {name: values[0] for name, values in candidates.items()}
    sent = _passing(sc, base, chosen)
    if sent is not None:
        return Verdict(replace(sent, unjudged=unjudged), cfg.label, chosen)
    # the first choices together change the outcome: one option at a time, each candidate in turn
    chosen = {}
    for name, values in candidates.items():
        for value in values:
            trial = chosen | {name: value}
            if _passing(sc, base, trial, undecided_ok=True) is not None:
                chosen = trial
                break
        else:
            return Verdict(None, cfg.label, needs=(Need(name, (), cfg.of(name)),))
    sent = _passing(sc, base, chosen)
    if sent is None:
        last = next(reversed(candidates))
        return Verdict(None, cfg.label, needs=(Need(last, (), cfg.of(last)),))
    return Verdict(replace(sent, unjudged=unjudged), cfg.label, chosen)


def _passing(sc: Scenario, base: str, changes: Mapping[str, Any], *, undecided_ok: bool = False) -> Scenario | None:
    """The scenario sent as `base` with `changes`, if the reference engine passes it so. With
    `undecided_ok`, values that do not yet form a valid ruleset (more changes may follow) count
    as passing."""
    try:
        sent = sc.reconfigured(base, dict(changes))
    except InputError:
        return sc if undecided_ok else None
    return sent if run_scenario(ReferenceEngine(), sent).outcome == PASS else None


class Verdicts:
    """Every scenario's verdict for one engine's declaration, each computed once. Dependencies
    come from the corpus's stored file when its entry is current, else are derived on the spot."""

    def __init__(self, declaration: Declaration, stored: Mapping[str, Dependencies] | None = None) -> None:
        self.declaration = declaration
        self._stored = stored or {}
        self._dependencies: dict[str, Dependencies] = {}
        self._verdicts: dict[str, Verdict] = {}

    def dependencies(self, sc: Scenario) -> Dependencies:
        found = self._dependencies.get(sc.id)
        if found is None:
            found = self._dependencies[sc.id] = stored_or_derived(sc, self._stored)
        return found

    def of(self, sc: Scenario) -> Verdict:
        found = self._verdicts.get(sc.id)
        if found is None:
            found = self._verdicts[sc.id] = verdict(sc, self.declaration, self.dependencies)
        return found


@dataclass(frozen=True, slots=True)
class Unlock:
    """One option the engine does not declare the needed values of: per value, the scenarios it
    would let run on its own (`alone`), and those it is one of several missing values for (`partly`)."""

    option: str
    values: tuple[tuple[Any, int, int], ...]  # (value, alone, partly), best first

    @property
    def weight(self) -> float:
        return self.values[0][1] + self.values[0][2] / 2 if self.values else 0.0

    def text(self) -> str:
        shown = [f"{show_value(v)} (+{alone}" + (f", +{partly} partly)" if partly else ")") for v, alone, partly in self.values[:4]]
        more = f" and {counted(len(self.values) - 4, 'more value')}" if len(self.values) > 4 else ""
        return f"{self.option} = " + " or ".join(shown) + more


def unlocks(verdicts: Iterable[Verdict]) -> list[Unlock]:
    """The options whose undeclared values keep the most UNSUPPORTED scenarios from running, most first.
    A scenario that misses several values counts `partly` for each: declaring one brings it nearer."""
    alone: Counter[tuple[str, str]] = Counter()
    partly: Counter[tuple[str, str]] = Counter()
    values: dict[tuple[str, str], Any] = {}
    for v in verdicts:
        if v.supported or v.features or v.constructed or v.event_log:
            continue
        for need in v.needs:
            for value in need.passes:
                key = (need.option, json.dumps(value, sort_keys=True))
                values[key] = value
                (alone if len(v.needs) == 1 else partly)[key] += 1
    per_option: dict[str, list[tuple[Any, int, int]]] = {}
    for (option, text), value in values.items():
        per_option.setdefault(option, []).append((value, alone[(option, text)], partly[(option, text)]))
    found = [Unlock(option, tuple(sorted(rows, key=lambda r: (-r[1], -r[2], json.dumps(r[0]))))) for option, rows in per_option.items()]
    return sorted(found, key=lambda u: (-u.weight, u.option))


def support_lines(corpus: Sequence[Scenario], found: Sequence[Verdict], hello: Mapping[str, Any], top: int) -> list[str]:
    """What `support` says of a declaration: how many of the scenarios will run (as written or with
    declared values), per ruleset, the `top` undeclared values that would unlock the most, the
    features and positions it declines, and the reasons its hello gives."""
    lines: list[str] = []
    running = [v for v in found if v.supported]
    substituted = sum(1 for v in running if v.changes)
    lines.append(
        f"{len(running)} of {counted(len(corpus), 'scenario')} will run, "
        f"{len(corpus) - len(running)} {'is' if len(corpus) - len(running) == 1 else 'are'} unsupported"
    )
    lines.append(
        f"  {len(running) - substituted} as written, {substituted} with declared values under which the reference gives the same outcome"
    )
    by_ruleset: dict[str, Counter[bool]] = {}
    for sc, v in zip(corpus, found, strict=True):
        by_ruleset.setdefault(sc.ruleset, Counter())[v.supported] += 1
    for rid, c in sorted(by_ruleset.items()):
        lines.append(f"  {rid:18} {c[True]:4} run, {c[False]:4} unsupported")
    best = unlocks(found)[:top]
    if best:
        lines.append(
            "undeclared options that would unlock the most (+N: scenarios that need only this value; +M partly: it is one of several)"
        )
        for u in best:
            lines.append("  " + u.text())
    features = Counter(f for v in found for f in v.features)
    for feature, n in features.most_common():
        lines.append(f"  the feature {feature}: +{counted(n, 'scenario')}")
    declined = Counter("constructed positions" if v.constructed else "the event log" for v in found if v.constructed or v.event_log)
    for what, n in sorted(declined.items()):
        lines.append(f"  {counted(n, 'scenario')} about {what}, which the declaration declines")
    reasons = hello.get("reasons") or {}
    if reasons:
        lines.append("why the engine declares as it does (hello.reasons; the scenarios left out that need another value):")
        for option, why in sorted(reasons.items()):
            left = sum(1 for v in found if any(n.option == option for n in v.needs))
            lines.append(f"  {option}: {engine_text(why)} ({left} left out)")
    return lines
