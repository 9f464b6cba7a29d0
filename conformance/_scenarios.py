"""The scenario format: loading and validating `scenarios/**/*.yaml` into frozen value objects.

Errors name the file, the line and the field (`scenarios/capture/jjok.yaml:14 at
scenarios[0].deal.hands[1][0]: ...`). The deal completion rule (every unlisted card goes to the
bottom of the stock in canonical index order) is applied here, so engines always get full deals.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any, Final

from gostop_conformance.reference import complete_deal_json, deal_from_json, deck_indices, normalized_deal_json
from gostop_conformance.spec import (
    InputError,
    Located,
    Options,
    expand_toggles,
    load_ruleset,
    load_yaml,
    ruleset_ids,
    toggle_registry,
    validate,
)
from gostop_conformance.spec import clauses as spec_clauses

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Step:
    index: int
    act: Json
    expect: Json | None
    reject: str | None
    where: str
    title: str  # "step 3 (P1 play card=m05-junk-1)": how reports name it


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """One round of a scenario: its (completed) deal, steps and expectations; `written` is the
    deal as the file writes it (None for a seeded deal), completed again for another deck."""

    deal: Json
    after_deal: Json | None
    steps: tuple[Step, ...]
    final: Json | None
    written: Json | None = None

    def dealt_for(self, options: Options) -> Json:
        """The deal under another ruleset's options (R-BONUS-DECK): the completion rule applied
        for that ruleset's deck, so that cards it adds (bonus cards) go to the bottom of the stock,
        where a scenario that does not reach them cannot tell. A deal written whole (`complete:
        false`) gets the cards it lacks there too. The deal is unchanged when the deck is."""
        if self.written is None:
            return self.deal
        if self.written.get("complete", True):
            return complete_deal_json(self.written, options)
        return complete_deal_json(normalized_deal_json(self.written), options)


@dataclass(frozen=True, slots=True)
class Scenario:
    """One scenario, with its deal already completed and its ruleset resolved."""

    id: str
    title: str
    file: str
    line: int
    area: str
    clauses: tuple[str, ...]
    polarity: str
    ambiguities: tuple[str, ...]
    ruleset: str
    options: Json
    resolved_options: Json
    rules: Options  # the resolved options, typed (what the oracle checks replies against)
    requires: tuple[str, ...]
    tags: tuple[str, ...]
    rounds: tuple[RoundSpec, ...]
    match: Json | None
    generated: bool
    #: equivalent cards (R-CARD-IDS) compare as themselves, not as their class
    exact_cards: bool = False
    #: the scenario is about the event log: its event expectations fail an engine (elsewhere: notes)
    event_log: bool = False
    #: the convenience toggles (spec/options.yaml) its `options` were written with, already expanded
    toggles: tuple[str, ...] = ()
    #: the options whose value the engine it is sent to does not declare (unsupported or unknown):
    #: no check whose answer rests on one of them judges the engine (_declaration sets it)
    unjudged: frozenset[str] = frozenset()

    @property
    def deal(self) -> Json:
        return self.rounds[0].deal

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(step for rnd in self.rounds for step in rnd.steps)

    def ruleset_json(self) -> Json:
        return {"id": self.ruleset, "options": self.resolved_options}

    def reconfigured(self, ruleset_id: str, changes: Json) -> Scenario:
        """The same scenario sent as the named ruleset `ruleset_id` with these option values
        changed from the scenario's own (InputError when they do not form a valid ruleset):
        how a scenario is run under an engine's declared values (conformance._declaration)."""
        named = load_ruleset(ruleset_id)
        base = named.options.as_json()
        target = self.resolved_options | changes
        overrides = {k: v for k, v in target.items() if base[k] != v}
        rs = named.with_overrides(overrides, "options")
        rounds = self.rounds
        if deck_indices(rs.options) != deck_indices(self.rules):
            rounds = tuple(replace(rnd, deal=rnd.dealt_for(rs.options)) for rnd in rounds)
            for k, rnd in enumerate(rounds):
                deal_from_json(rnd.deal, rs.options, f"rounds[{k}].deal")  # a card the other deck lacks: InputError
        return replace(self, ruleset=rs.id, options=overrides, resolved_options=rs.options.as_json(), rules=rs.options, rounds=rounds)


_PATH = re.compile(r"\.?([A-Za-z_]+)|\[(\d+)\]")


def _path_of(where: str) -> list[str | int]:
    """'deal.hands[1][0]' -> ['deal', 'hands', 1, 0] (paths in engine InputErrors)."""
    return [int(i) if i else name for name, i in _PATH.findall(where)]


def load_file(path: Path, root: Path) -> list[Scenario]:
    display = path.relative_to(root.parent).as_posix() if path.is_relative_to(root.parent) else str(path)
    located = load_yaml(path, display)
    validate(located, "scenario")
    area = path.relative_to(root).parts[0] if path.is_relative_to(root) and len(path.relative_to(root).parts) > 1 else "misc"
    generated = "generated" in located.data
    return [_scenario(located, i, raw, area, generated) for i, raw in enumerate(located.data["scenarios"])]


def _scenario(located: Located, i: int, raw: Json, area: str, generated: bool) -> Scenario:
    base: list[str | int] = ["scenarios", i]
    try:
        rs = load_ruleset(raw["ruleset"])
    except InputError as exc:
        if exc.where != "ruleset":  # not an unknown id: a ruleset file is wrong, and its error names that file and line
            raise
        raise InputError(located.where([*base, "ruleset"]), exc.detail) from None
    try:
        # a convenience toggle (spec/options.yaml `toggles`) is written down as the options it sets
        options = expand_toggles(raw.get("options", {}), "options")
        rs = rs.with_overrides(options, "options")
    except InputError as exc:
        raise InputError(located.where([*base, *_path_of(exc.where)]), exc.detail) from None
    raw_rounds = raw.get("rounds", [raw])
    rounds = []
    for r, rraw in enumerate(raw_rounds):
        at = [*base, "rounds", r] if "rounds" in raw else base
        rounds.append(_round(located, at, rraw, rs))
    requires = tuple(raw.get("requires", ()))
    if any("seed" in rnd.deal for rnd in rounds) and "seeded_deal" not in requires:
        requires = (*requires, "seeded_deal")
    if (len(rounds) > 1 or raw.get("match")) and "match" not in requires:  # judged on the score reply's `next`
        requires = (*requires, "match")
    return Scenario(
        id=raw["id"],
        title=raw["title"],
        file=located.path,
        line=located.line_of(base),
        area=area,
        clauses=tuple(raw["clauses"]),
        polarity=raw.get("polarity", "positive"),
        ambiguities=tuple(raw.get("ambiguities", ())),
        ruleset=rs.id,
        options=dict(options),
        resolved_options=rs.options.as_json(),
        rules=rs.options,
        requires=requires,
        tags=tuple(raw.get("tags", ())),
        rounds=tuple(rounds),
        match=raw.get("match"),
        generated=generated,
        exact_cards=bool(raw.get("exact_cards", False)),
        event_log=bool(raw.get("event_log", False)),
        toggles=tuple(key for key in raw.get("options", {}) if key in toggle_registry()),
    )


def _round(located: Located, at: list[str | int], raw: Json, rs: Any) -> RoundSpec:
    deal_raw = raw["deal"]
    if "seed" in deal_raw:
        deal = dict(deal_raw)
    elif deal_raw.get("complete", True):
        deal = complete_deal_json(deal_raw, rs.options)
    else:
        deal = normalized_deal_json(deal_raw)
    try:
        deal_from_json(deal, rs.options)
    except InputError as exc:
        raise InputError(located.where([*at, *_path_of(exc.where)]), exc.detail) from None
    steps = tuple(
        Step(k, s["act"], s.get("expect"), s.get("reject"), located.where([*at, "steps", k]), f"step {k + 1} ({_action_text(s['act'])})")
        for k, s in enumerate(raw.get("steps", ()))
    )
    return RoundSpec(deal, raw.get("after_deal"), steps, raw.get("final"), None if "seed" in deal_raw else dict(deal_raw))


#: the package whose data is the bundled corpus (`scenarios/` in the repository)
CORPUS_PACKAGE: Final = "gostop_conformance.scenarios"


def default_root() -> Path:
    """The bundled corpus, found as package data: the same in a checkout and in an installed wheel."""
    return Path(str(resources.files(CORPUS_PACKAGE))).resolve()


def corpus_digest(root: Path | None = None) -> str:
    """What identifies a corpus, for reports that must not be compared across corpora: a SHA-256
    of every YAML file under `root` (its path relative to the root, then its bytes), in path
    order; the same for a checkout and an installed wheel. CHANGELOG.md records it per release."""
    root = root or default_root()
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*.yaml") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return f"sha256:{digest.hexdigest()[:16]}"


def load_corpus(root: Path | None = None, files: Iterable[Path] | None = None) -> list[Scenario]:
    """Every scenario under `root`, sorted by file then position; ids must be unique and unretired.

    A `root` that is not a directory is an input error: an empty corpus must never look like a
    corpus that passed."""
    root = root or default_root()
    if not root.is_dir():
        what = "does not exist" if not root.exists() else "is a file"
        raise InputError(str(root), f"expected a directory of scenario files, but it {what}")
    paths = sorted(files) if files is not None else sorted(p for p in root.rglob("*.yaml") if _is_scenario_file(p, root))
    out: list[Scenario] = []
    seen: dict[str, str] = {}
    retired = _retired(root)
    for path in paths:
        for sc in load_file(path, root):
            where = f"{sc.file}:{sc.line}"
            if sc.id in seen:
                raise InputError(where, f"duplicate scenario id {sc.id!r} (first used at {seen[sc.id]})")
            if sc.id in retired:
                raise InputError(where, f"scenario id {sc.id!r} is retired (scenarios/retired.yaml) and may not be reused")
            seen[sc.id] = where
            out.append(sc)
    return out


def check_selection(
    scenarios: Sequence[Scenario],
    *,
    ids: Sequence[str] = (),
    rulesets: Sequence[str] = (),
    areas: Sequence[str] = (),
    clauses: Sequence[str] = (),
    tags: Sequence[str] = (),
) -> None:
    """InputError for a filter value that names nothing (a typo such as `--ruleset matgo-9p` must
    not read as "nothing matches"), with the values it could have been."""
    known = {
        "--id": {sc.id for sc in scenarios},
        "--ruleset": set(ruleset_ids()),
        "--area": {sc.area for sc in scenarios},
        "--clause": set(spec_clauses()),
        "--tag": {t for sc in scenarios for t in sc.tags},
    }
    for option, given in (("--id", ids), ("--ruleset", rulesets), ("--area", areas), ("--clause", clauses), ("--tag", tags)):
        for value in given:
            if value not in known[option]:
                names = sorted(known[option])
                shown = ", ".join(names) if len(names) <= 20 else ", ".join(names[:20]) + f", ... ({len(names)} in all)"
                raise InputError(option, f"unknown value {value!r}; expected one of {shown}")


def shard(scenarios: Sequence[Scenario], k: int, n: int) -> list[Scenario]:
    """The K-th of N shares of a selection (`run --shard K/N`): every N-th scenario from the K-th,
    so that each share holds every area."""
    return [sc for i, sc in enumerate(scenarios) if i % n == k - 1]


#: files under scenarios/ that are not scenario files: the retired ids, the generated option
#: dependencies (conformance._dependencies), the design of the interaction scenarios
#: (conformance._interactions) and the perft tables
DEPENDENCIES_FILE: Final = "dependencies.yaml"
INTERACTIONS_FILE: Final = "interactions.yaml"
NOT_SCENARIOS = ("retired.yaml", DEPENDENCIES_FILE, INTERACTIONS_FILE)
NOT_SCENARIO_DIRS = ("perft",)


def _is_scenario_file(path: Path, root: Path) -> bool:
    rel = path.relative_to(root).parts
    return path.name not in NOT_SCENARIOS and not (len(rel) > 1 and rel[0] in NOT_SCENARIO_DIRS)


def _retired(root: Path) -> set[str]:
    path = root / "retired.yaml"
    if not path.exists():
        return set()
    located = load_yaml(path, "scenarios/retired.yaml")
    data = located.data or {}
    ids = data.get("retired", []) if isinstance(data, dict) else None
    if not isinstance(ids, list) or not all(isinstance(x, dict) and isinstance(x.get("id"), str) for x in ids):
        raise InputError(located.where(["retired"]), "expected a list of {id: ..., reason: ...} entries")
    return {x["id"] for x in ids}


def select(
    scenarios: Sequence[Scenario],
    *,
    ids: Sequence[str] = (),
    rulesets: Sequence[str] = (),
    areas: Sequence[str] = (),
    clauses: Sequence[str] = (),
    tags: Sequence[str] = (),
) -> list[Scenario]:
    """Filter by id, ruleset, area, clause and tag (each filter: any of its values)."""
    out = []
    for sc in scenarios:
        if ids and sc.id not in ids:
            continue
        if rulesets and sc.ruleset not in rulesets:
            continue
        if areas and sc.area not in areas:
            continue
        if clauses and not set(clauses) & set(sc.clauses):
            continue
        if tags and not set(tags) & set(sc.tags):
            continue
        out.append(sc)
    return out


def _action_text(a: Json) -> str:
    parts = [f"P{a.get('player')} {a.get('type')}"]
    for key in ("card", "take", "month"):
        if key in a:
            parts.append(f"{key}={a[key]}")
    if a.get("shake"):
        parts.append("shake")
    return " ".join(parts)
