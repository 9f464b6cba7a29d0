"""A ruleset file (spec.load_ruleset_file: house rules of one's own) as the harness's input:
`--ruleset-file PATH` on run, support, lint, fuzz and profile, and the pytest plugin's
`--gostop-ruleset-file`.

Under a file, the engine is taken to play the file's rules, and only them: its declaration
(conformance._declaration) is replaced by one configuration, the file's base ruleset with every
option at the file's value (`within`), keeping what the engine says of its features, positions and
events. A scenario then runs when its outcome does not depend on an option whose value the file
changes, or when the file's value is among those under which it still passes (the stored
dependencies, scenarios/dependencies.yaml), the reference engine passing it with exactly the values
sent; it is sent with the file's values. The others are UNSUPPORTED, each with the value it needs.

What the corpus says of the file (`report_lines`, `lint_lines`): for each option the file changes
from its base, the scenarios run whose outcome depends on it (those that pin that house rule), and
the clauses no scenario that ran cites (R-... ids, which the rules pages explain).

`profile_ruleset` writes what `profile` found as a ruleset file that inherits from the closest
named ruleset; `profile_against` compares the findings with a ruleset file's values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import yaml

from gostop_conformance.harness._declaration import FEATURES, Configuration, Declaration, Support, Verdict
from gostop_conformance.harness._dependencies import Dependencies
from gostop_conformance.harness._scenarios import Scenario
from gostop_conformance.spec import RulesetFile, clauses, closest_named, counted, load_ruleset, option_registry, ruleset_ids, show_value

if TYPE_CHECKING:  # a run under a file (conformance._harness) loads neither the fuzzer nor the profiler
    from gostop_conformance.harness._fuzz import FuzzConfig
    from gostop_conformance.harness._profile import OptionProfile

Json = dict[str, Any]

#: outcomes of a scenario that did not run against the engine
UNCHECKED: Final = frozenset({"UNSUPPORTED", "NOT_RUN"})


def label(rules: RulesetFile) -> str:
    """How messages name a ruleset file: its id and its path."""
    return f"{rules.ruleset.id} ({rules.ruleset.file})"


def sent_as(rules: RulesetFile, declaration: Declaration | None = None) -> str:
    """The named ruleset whose id new_game sends with the file's options: the file's base, unless
    the engine claims rulesets and not that one; then the one it claims closest to the file's
    values (the protocol names a ruleset the engine claimed, spec/protocol/defs/ruleset.json)."""
    if declaration is None or not declaration.claimed or rules.base in declaration.claimed:
        return rules.base
    return closest_named(rules.ruleset.options.as_json(), declaration.claimed)


def within(rules: RulesetFile, declaration: Declaration | None = None) -> Declaration:
    """The declaration of an engine that plays the file's rules and nothing else: one ruleset
    (`sent_as`) with every option at the file's value. The engine's own `declaration` keeps its
    features, the positions and the events it reports (without one: every feature, any position,
    every event, as the reference engine)."""
    support: dict[str, Support] = {name: (value,) for name, value in rules.ruleset.options.as_json().items()}
    configuration = Configuration(sent_as(rules, declaration), support, label(rules))
    if declaration is None:
        return Declaration((configuration,), (), frozenset(FEATURES), dict(support))
    return Declaration(
        (configuration,),
        (),
        declaration.features,
        dict(support),
        reachable_only=declaration.reachable_only,
        outcomes_only=declaration.outcomes_only,
    )


def fuzz_configuration(rules: RulesetFile, declaration: Declaration | None = None) -> FuzzConfig:
    """The fuzz configuration that plays random rounds under the file's rules only: the ruleset
    new_game names (`sent_as`) with every option forced to the file's value (each option has that
    one value, so no round varies any)."""
    from gostop_conformance.harness._fuzz import FuzzConfig

    values = {name: (value,) for name, value in rules.ruleset.options.as_json().items()}
    return FuzzConfig(label(rules), sent_as(rules, declaration), values)


def selection_json(rules: RulesetFile) -> Json:
    """What a run's report header records of the file (`selection.rules`): shards of one run share it."""
    return {"id": rules.ruleset.id, "file": rules.ruleset.file, "hash": rules.hash, "base": rules.base}


# ---------------------------------------------------------------- ruleset check


def check_lines(rules: RulesetFile) -> list[str]:
    """`ruleset check FILE` of a valid file: what it is, what it inherits, its options hash, its
    differences from its base, and every option value resolved (YAML that reads back as written)."""
    rs = rules.ruleset
    chain = " -> ".join(f"{r.id} ({r.file})" if not r.file.startswith("spec/") else r.id for r in (rs, *rules.parents))
    own = rs.options.as_json()
    changed = rules.differences()
    lines = [
        f"{rs.file}: ok: {rs.id} ({rs.title})",
        f"  inherits: {chain}",
        f"  sent to engines as {rules.base} with every option value below; options hash {rules.hash}",
        f"  differences from {rules.base} ({len(changed)}): " + (", ".join(f"{k} = {show_value(own[k])}" for k in changed) or "none"),
        "resolved options:",
    ]
    text = yaml.safe_dump(own, sort_keys=False, default_flow_style=None, width=1000, allow_unicode=True)
    lines += ["  " + line for line in text.rstrip("\n").split("\n")]
    return lines


def check_json(rules: RulesetFile) -> Json:
    """`ruleset check FILE --json`: the file resolved, and the protocol's ruleset object for it."""
    return {**selection_json(rules), "title": rules.ruleset.title, "differences": rules.differences(), "ruleset": rules.protocol_json()}


# ---------------------------------------------------------------- what the corpus says of the file


@dataclass(frozen=True, slots=True)
class Pinned:
    """One option the file changes from its base, and the scenarios that ran under the file whose
    outcome depends on it (they check that house rule)."""

    option: str
    value: Any
    base_value: Any
    scenarios: tuple[str, ...]


def pinned(rules: RulesetFile, checked: Iterable[Scenario], dependencies: Mapping[str, Dependencies]) -> list[Pinned]:
    """For each option the file changes from its base (registry order), the `checked` scenarios
    (written as the corpus has them) whose stored dependencies say their outcome depends on it."""
    own = rules.ruleset.options.as_json()
    base = load_ruleset(rules.base).options.as_json()
    ran = list(checked)
    out = []
    for name in rules.differences():
        ids = tuple(sc.id for sc in ran if (dep := dependencies.get(sc.id)) is not None and dep.depends_on(name))
        out.append(Pinned(name, own[name], base[name], ids))
    return out


def unchecked_clauses(checked: Iterable[Scenario]) -> list[str]:
    """The clauses (spec/rules/, reading order) no `checked` scenario cites."""
    cited = {cid for sc in checked for cid in sc.clauses}
    return [cid for cid in clauses() if cid not in cited]


def report_lines(
    rules: RulesetFile, outcomes: Sequence[tuple[Scenario, str, Verdict | None]], dependencies: Mapping[str, Dependencies]
) -> list[str]:
    """What a run under the file says of it: how many scenarios held under its rules, each of its
    differences from its base with the scenarios that pin it, and the clauses no scenario checked.
    `outcomes` are the run's (scenario as written, outcome, verdict)."""
    checked = [sc for sc, outcome, _ in outcomes if outcome not in UNCHECKED]
    unsupported = [v for _, outcome, v in outcomes if outcome == "UNSUPPORTED" and v is not None and not v.supported]
    needs = Counter(n.option for v in unsupported for n in v.needs)
    substituted = sum(1 for sc, outcome, v in outcomes if outcome not in UNCHECKED and v is not None and v.changes)
    # the id new_game sent (a ruleset the engine claims, else the file's base: `sent_as`)
    sent = next((v.scenario.ruleset for _, _, v in outcomes if v is not None and v.scenario is not None), rules.base)
    lines = [
        f"under the rules of {label(rules)}, {rules.hash}, sent as {sent} with the file's option values:",
        f"  {len(checked)} of {counted(len(outcomes), 'scenario')} held under them and ran "
        f"({substituted} with the file's values in place of their own, the reference engine giving the same outcome)",
    ]
    if needs:
        shown = ", ".join(f"{name} ({n})" for name, n in needs.most_common(6))
        lines.append(f"  {len(unsupported)} depend on a value the file changes: {shown}")
    lines += _pinned_lines(rules, pinned(rules, checked, dependencies), "the scenarios that ran whose outcome depends on each")
    gaps = unchecked_clauses(checked)
    lines.append(
        f"  clauses no scenario checked under these rules ({len(gaps)} of {len(clauses())}; "
        "one that does not apply under them, as the point-count clauses under Go-Stop scoring, has none by nature):"
    )
    lines += _wrapped(gaps, "    ")
    return lines


def _pinned_lines(rules: RulesetFile, found: Sequence[Pinned], what: str) -> list[str]:
    if not found:
        return [f"  the file plays exactly as {rules.base}"]
    registry = option_registry()
    lines = [f"  its {counted(len(found), 'difference')} from {rules.base}, and {what}:"]
    for p in found:
        cited = ", ".join(registry[p.option].clauses)
        count = counted(len(p.scenarios), "scenario") if p.scenarios else "NO scenario checks it"
        lines.append(f"    {p.option} = {show_value(p.value)} ({rules.base}: {show_value(p.base_value)}; {cited}): {count}")
    return lines


def _wrapped(items: Sequence[str], pad: str, width: int = 100) -> list[str]:
    lines: list[str] = []
    line = pad
    for item in items:
        if len(line) + len(item) + 2 > width and line.strip():
            lines.append(line.rstrip(", ").rstrip())
            line = pad
        line += item + ", "
    if line.strip():
        lines.append(line.rstrip(", ").rstrip())
    return lines or [pad + "none"]


def lint_lines(rules: RulesetFile, corpus: Sequence[Scenario], dependencies: Mapping[str, Dependencies]) -> list[str]:
    """`lint --ruleset-file`: the file is valid (it loaded), and for each of its differences from
    its base, the corpus scenarios that pin the file's value: their outcome depends on the option,
    and they play that value or pass with it (the stored dependencies; nothing is run)."""
    own = rules.ruleset.options.as_json()
    lines = [f"{label(rules)}: valid; {rules.hash}; based on {rules.base}"]
    pins: list[Pinned] = []
    base = load_ruleset(rules.base).options.as_json()
    for name in rules.differences():
        value = own[name]
        ids = []
        for sc in corpus:
            dep = dependencies.get(sc.id)
            if dep is None or not dep.depends_on(name):
                continue
            if sc.resolved_options[name] == value or dep.admits(name, value, sc.resolved_options[name]) is True:
                ids.append(sc.id)
        pins.append(Pinned(name, value, base[name], tuple(ids)))
    what = "the corpus's scenarios that pin each (their outcome depends on it, and holds with the file's value)"
    lines += _pinned_lines(rules, pins, what)
    bare = [p.option for p in pins if not p.scenarios]
    if bare:
        lines.append(f"  {len(bare)} of the file's values are pinned by no scenario of the corpus: {', '.join(bare)}")
    return lines


# ---------------------------------------------------------------- profile findings as a ruleset file


def found_values(found: Sequence[OptionProfile], players: int) -> dict[str, tuple[Any, ...]]:
    """Per option, the values the engine was found to play with `players` players, where the
    finding may be written down: decided, consistent, not weak, not the value it is sent (an
    engine that follows the options has no value of its own)."""
    out: dict[str, tuple[Any, ...]] = {}
    for p in found:
        if p.values is None or not p.values or p.follows or p.inconsistent or p.weak:
            continue
        values = p.by_players.get(players, p.values) if p.by_players else p.values
        if values:
            out[p.option] = tuple(values)
    return out


def profile_ruleset(found: Sequence[OptionProfile], hello: Json, engine: str, base: str) -> tuple[str, str]:
    """What `profile` found, as a ruleset file (its text) that inherits from the closest named
    ruleset (returned too). The candidates are the rulesets the engine claims (every named ruleset
    when it claims none) with the deck and deal of `base`, the ruleset the profile was played
    against (its STRUCTURAL options, which an engine declares and no play finds); the closest is
    the one whose values the findings contradict least, `base` first among equals. An option found
    to play several values the corpus cannot tell apart gets the parent's value when it is one of
    them, else the first found (the others in a comment); the options left undecided are listed."""
    from gostop_conformance.harness._profile import STRUCTURAL

    claimed = [c if isinstance(c, str) else c.get("id") for c in hello.get("rulesets") or []]
    shape = {name: value for name, value in load_ruleset(base).options.as_json().items() if name in STRUCTURAL}
    pool = [base] + [str(r) for r in ([c for c in claimed if c in ruleset_ids()] or ruleset_ids()) if r != base]
    pool = [rid for rid in pool if all(load_ruleset(rid).options.as_json()[k] == v for k, v in shape.items())]

    def conflicts(rid: str) -> int:
        own = load_ruleset(rid).options.as_json()
        return sum(1 for name, values in found_values(found, own["players"]).items() if own[name] not in values)

    parent = min(pool, key=conflicts)  # of several as close, the first: `base` leads the pool
    own = load_ruleset(parent).options.as_json()
    values = found_values(found, own["players"])
    options: Json = {}
    notes: dict[str, str] = {}
    for name, fits in values.items():
        if own[name] in fits:
            continue
        options[name] = fits[0]
        if len(fits) > 1:
            notes[name] = "or " + ", ".join(show_value(v) for v in fits[1:]) + ": the corpus cannot tell them apart"
    undecided = [p.option for p in found if p.option not in values and p.option not in options]
    rid = "profile-" + "".join(c if c.isalnum() else "-" for c in engine.lower()).strip("-")[:40]
    head = {
        "id": rid or "profile",
        "title": f"What the engine {engine} plays, as profiled",
        "parent": parent,
        "description": (
            f"Written by `gostop-conformance profile`: {parent} with every option value the engine's behaviour on the "
            f"corpus showed to differ. Left at {parent}'s value, undecided, inconsistent, weakly evidenced or followed as "
            f"sent: {len(undecided)} of the {counted(len(found), 'option')} profiled."
        ),
        "sources": ["spec"],
    }
    text = yaml.safe_dump(head, sort_keys=False, allow_unicode=True, width=100)
    if not options:
        text += "options: {}\n"
    else:
        text += "options:\n"
        for name, value in options.items():
            line = f"  {name}: {yaml.safe_dump(value, default_flow_style=True, width=1000).strip().removesuffix('...').strip()}"
            text += line + (f"  # {notes[name]}" if name in notes else "") + "\n"
    if undecided:
        text += "# left at the parent's value (undecided, inconsistent, weakly evidenced or followed as sent):\n"
        text += "".join(f"#   {line.strip()}\n" for line in _wrapped(undecided, "", 96))
    return text, parent


def profile_against(found: Sequence[OptionProfile], rules: RulesetFile) -> list[str]:
    """The engine's profile against a ruleset file: each option the engine was found to play
    otherwise than the file says (inconsistent findings by their majority, and a play no modelled
    value fits, included: they are leads to check), then how many it plays as the file says, how
    many follow the value they are sent, and how many no play decided."""
    own = rules.ruleset.options.as_json()
    counts: Counter[str] = Counter()
    lines = [f"against {label(rules)}:"]
    for p in found:
        if p.follows and not p.inconsistent:
            counts["follow"] += 1
            continue
        if p.values is None:
            counts["undecided"] += 1
            continue
        values = p.by_players.get(own["players"], p.values) if p.by_players else p.values
        if own[p.option] in values:
            counts["agree"] += 1
            continue
        counts["differ"] += 1
        lines.append(f"  {p.option}: the engine plays {p.verdict}; the file says {show_value(own[p.option])} ({p.confidence})")
    lines.append(
        f"  of the {counted(len(found), 'option')} profiled: {counts['differ']} played otherwise than the file says, "
        f"{counts['agree']} as it says, "
        f"{counts['follow']} follow the value the engine is sent, {counts['undecided']} undecided"
    )
    return lines
