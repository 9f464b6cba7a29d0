"""Seed traceability (spec/traceability.yaml): every statement of the four seed texts, with the
clauses and option values that implement it, in the rulesets named after its seed.

A statement is `implemented` (the seed's rulesets play it: a fixed clause, or option values those
rulesets resolve to), `option-value` (a variant the seed offers, available as an option value a
party may choose), `departs` (the seed's rulesets do something else: the reason says what, and
`seed_reading` names the option value that would play the seed as written, if there is one) or
`not-a-rule` (narrative, history, site chrome: listed so that the coverage of the text is auditable).

The checks are in two parts: `traceability_problems` checks the table against the spec itself
(clauses, options, values, rulesets); `quote_problems` checks each quote against the seed texts,
which live outside the project (shared/seeds/, see spec/sources.yaml) and may be absent.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from gostop_conformance.spec._clauses import clauses
from gostop_conformance.spec._rulesets import OptionValue, load_ruleset, option_registry, ruleset_ids, show_value
from gostop_conformance.spec._schemas import display_name, spec_dir, validate
from gostop_conformance.spec._yamlio import InputError, load_yaml

FILE_NAME: Final = "traceability.yaml"
SCHEMA: Final = "traceability"
#: the statuses, in the order the docs count them
TRACE_STATUSES: Final = ("implemented", "option-value", "departs", "not-a-rule")
#: where the seed texts are looked for first (a directory holding the seed files by name)
SEEDS_ENV: Final = "GOSTOP_SEEDS"


@dataclass(frozen=True, slots=True)
class TraceLink:
    """One clause, or one option (with the value meant, if any), that a statement is traced to."""

    clause: str | None
    option: str | None
    value: Any  # the raw value as written (None: the option as a whole)
    has_value: bool
    where: str

    def text(self) -> str:
        if self.clause is not None:
            return self.clause
        return f"{self.option} = {show_value(self.value)}" if self.has_value else str(self.option)


@dataclass(frozen=True, slots=True)
class TraceStatement:
    id: str
    source: str
    section: str
    quote: str
    status: str
    links: tuple[TraceLink, ...]
    rulesets: tuple[str, ...]
    reason: str | None
    seed_reading: TraceLink | None
    note: str | None
    where: str

    @property
    def named_clauses(self) -> tuple[str, ...]:
        """The clauses the statement names itself, in its order."""
        return tuple(link.clause for link in self.links if link.clause is not None)

    @property
    def clause_ids(self) -> tuple[str, ...]:
        """The clauses the statement names, then those of the options it names (registry order of
        each option's `clauses`), without repeats: what the docs link and the scenarios are found by."""
        out = list(self.named_clauses)
        registry = option_registry()
        for link in self.links:
            if link.option is not None and link.option in registry:
                out.extend(registry[link.option].clauses)
        return tuple(dict.fromkeys(out))


@dataclass(frozen=True, slots=True)
class SeedRecord:
    id: str
    sha256: str
    rulesets: tuple[str, ...]
    where: str


@dataclass(frozen=True, slots=True)
class Traceability:
    path: str
    seeds: Mapping[str, SeedRecord]
    statements: tuple[TraceStatement, ...]

    def of_seed(self, seed: str) -> tuple[TraceStatement, ...]:
        return tuple(s for s in self.statements if s.source == seed)

    def counts(self, seed: str) -> dict[str, int]:
        """Statements of one seed by status (every status present, in TRACE_STATUSES order)."""
        out = dict.fromkeys(TRACE_STATUSES, 0)
        for s in self.of_seed(seed):
            out[s.status] += 1
        return out


@cache
def traceability() -> Traceability:
    """spec/traceability.yaml, loaded and validated (structure only; see traceability_problems)."""
    return load_traceability(spec_dir() / FILE_NAME)


def load_traceability(path: Path) -> Traceability:
    """A traceability file: schema-valid, statement ids unique, every statement's seed listed
    under `seeds:`. Anything else wrong is an InputError naming the file and line."""
    located = load_yaml(path, display_name(path))
    validate(located, SCHEMA)
    data = located.data
    seeds = {}
    for sid, v in data["seeds"].items():
        seeds[sid] = SeedRecord(sid, str(v["sha256"]), tuple(v["rulesets"]), located.where(["seeds", sid]))
    statements: list[TraceStatement] = []
    first: dict[str, str] = {}
    for i, raw in enumerate(data["statements"]):
        base: list[str | int] = ["statements", i]
        if raw["id"] in first:
            raise InputError(located.where([*base, "id"]), f"duplicate statement id {raw['id']!r} (first at {first[raw['id']]})")
        first[raw["id"]] = located.where([*base, "id"])
        if raw["source"] not in seeds:
            expected = ", ".join(seeds)
            message = f"source {raw['source']!r} is not listed under seeds: (expected one of {expected})"
            raise InputError(located.where([*base, "source"]), message)
        links = tuple(_link(item, located.where([*base, "implements", j])) for j, item in enumerate(raw.get("implements", [])))
        reading = raw.get("seed_reading")
        statements.append(
            TraceStatement(
                id=raw["id"],
                source=raw["source"],
                section=raw["section"],
                quote=raw["quote"],
                status=raw["status"],
                links=links,
                rulesets=tuple(raw.get("rulesets", ())),
                reason=" ".join(str(raw["reason"]).split()) if raw.get("reason") else None,
                seed_reading=_link(reading, located.where([*base, "seed_reading"])) if reading is not None else None,
                note=" ".join(str(raw["note"]).split()) if raw.get("note") else None,
                where=located.where(base),
            )
        )
    return Traceability(located.path, seeds, tuple(statements))


def _link(item: Mapping[str, Any], where: str) -> TraceLink:
    return TraceLink(item.get("clause"), item.get("option"), item.get("value"), "value" in item, where)


# ------------------------------------------------------------------------ checks against the spec


def traceability_problems(table: Traceability) -> list[str]:
    """Every reference of the table checked against the spec, one line per problem (file:line
    first): a statement that names no clause or option unless it is not a rule; an unknown seed,
    clause, option, option value or ruleset; a ruleset that is not named after the statement's
    seed; an `implemented` option value that one of the statement's rulesets does not play; a
    departure whose `seed_reading` one of its rulesets already plays (the table is stale)."""
    problems: list[str] = []
    known_rulesets = set(ruleset_ids())
    sources = _seed_sources()
    for seed in table.seeds.values():
        if seed.id not in sources:
            problems.append(f"{seed.where}: {seed.id} is not a seed of spec/sources.yaml")
        for rid in seed.rulesets:
            if rid not in known_rulesets:
                problems.append(f"{seed.where}: unknown ruleset {rid!r}")
    for st in table.statements:
        problems += _statement_problems(st, table, known_rulesets)
    return problems


def _statement_problems(st: TraceStatement, table: Traceability, known_rulesets: set[str]) -> list[str]:
    out: list[str] = []
    if st.status != "not-a-rule" and not st.links:
        out.append(f"{st.where}: statement {st.id} names no clause or option (only a statement with status not-a-rule may)")
    if st.status in ("departs", "not-a-rule") and not st.reason:
        out.append(f"{st.where}: statement {st.id} has status {st.status} but no reason")
    allowed = table.seeds[st.source].rulesets
    # values are checked against the statement's rulesets that are valid ones; the others are reported here
    valid = [rid for rid in st.rulesets if rid in known_rulesets and rid in allowed]
    for rid in st.rulesets:
        if rid not in known_rulesets:
            out.append(f"{st.where}: statement {st.id}: unknown ruleset {rid!r}")
        elif rid not in allowed:
            named = ", ".join(allowed)
            out.append(f"{st.where}: statement {st.id}: ruleset {rid} is not named after {st.source} (expected one of {named})")
    for link in st.links:
        out += _link_problems(st, link)
        typed = _typed(link)
        if st.status == "implemented" and typed is not None and link.option is not None:
            for rid in valid:
                if getattr(load_ruleset(rid).options, link.option) != typed:
                    played = show_value(load_ruleset(rid).options.as_json()[link.option])
                    out.append(f"{link.where}: statement {st.id} is implemented by {link.text()}, but {rid} plays {link.option} = {played}")
    if st.seed_reading is not None:
        out += _link_problems(st, st.seed_reading)
        typed = _typed(st.seed_reading)
        playing = [rid for rid in valid if typed is not None and _plays(rid, st.seed_reading, typed)]
        if playing:
            verb = "plays" if len(playing) == 1 else "play"
            out.append(
                f"{st.seed_reading.where}: statement {st.id} departs, but {', '.join(playing)} already {verb} "
                f"{st.seed_reading.text()}: the status is stale (implemented there)"
            )
    return out


def _plays(rid: str, link: TraceLink, typed: OptionValue) -> bool:
    return link.option is not None and getattr(load_ruleset(rid).options, link.option) == typed


def _link_problems(st: TraceStatement, link: TraceLink) -> list[str]:
    if link.clause is not None:
        if link.clause not in clauses():
            return [f"{link.where}: statement {st.id} cites unknown clause {link.clause}"]
        return []
    registry = option_registry()
    spec = registry.get(str(link.option))
    if spec is None:
        return [f"{link.where}: statement {st.id} cites unknown option {link.option!r}"]
    if link.has_value and spec.coerce(link.value) is None:
        return [f"{link.where}: statement {st.id}: {show_value(link.value)!r} is not a value of {spec.id}; expected {spec.expected()}"]
    return []


def _typed(link: TraceLink) -> OptionValue | None:
    if link.option is None or not link.has_value:
        return None
    spec = option_registry().get(link.option)
    return spec.coerce(link.value) if spec is not None else None


# ------------------------------------------------------------------------ checks against the seeds


def _seed_sources() -> dict[str, str]:
    """Seed id -> locator (a path such as shared/seeds/000_....txt) from spec/sources.yaml."""
    data = load_yaml(spec_dir() / "sources.yaml", "spec/sources.yaml").data
    return {key: str(v["locator"]) for key, v in data["sources"].items() if v.get("kind") == "seed"}


def seed_files(seeds_dir: Path | None = None) -> dict[str, Path | None]:
    """Where each seed text is (None: not found). With `seeds_dir`, the seed files are looked up
    there by name only. Otherwise in the directory named by $GOSTOP_SEEDS, then at the locator of
    spec/sources.yaml relative to the project's directory and each of its parents, then relative
    to the working directory and its parents: a checkout beside shared/ finds them, an installed
    wheel usually does not."""
    out: dict[str, Path | None] = {}
    env = os.environ.get(SEEDS_ENV)
    for seed, locator in _seed_sources().items():
        name = Path(locator).name
        if seeds_dir is not None:
            candidates = [seeds_dir / name]
        else:
            bases = [spec_dir().resolve().parent, Path.cwd().resolve()]
            candidates = [Path(env) / name] if env else []
            candidates += [base / locator for start in bases for base in (start, *start.parents)]
        out[seed] = next((p for p in candidates if p.is_file()), None)
    return out


def normalise(text: str) -> str:
    """Whitespace runs (line breaks, non-breaking spaces) as one space: quotes span line breaks."""
    return " ".join(text.split())


def quote_problems(table: Traceability, files: Mapping[str, Path | None]) -> tuple[list[str], list[str]]:
    """(problems, seeds not checked): each quote must occur verbatim, whitespace normalised, in its
    seed's text, and the text must be the one whose digest the table records. A seed whose text
    is not found is reported as not checked, not as a problem."""
    problems: list[str] = []
    unchecked: list[str] = []
    for seed in sorted(table.seeds):
        record = table.seeds[seed]
        path = files.get(seed)
        if path is None:
            unchecked.append(seed)
            continue
        raw = path.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        if digest != record.sha256:
            problems.append(f"{record.where}: {path} has sha256 {digest}, not the {record.sha256} its quotes were checked against")
            continue
        text = normalise(raw.decode("utf-8"))
        for st in table.of_seed(seed):
            if normalise(st.quote) not in text:
                problems.append(f"{st.where}: statement {st.id}: quote not found in {path.name}: {st.quote!r}")
    return problems, unchecked


def uncovered_seeds(table: Traceability, seeds: Iterable[str] | None = None) -> list[str]:
    """Seeds of spec/sources.yaml that the table does not list, or lists without a statement."""
    wanted: Sequence[str] = sorted(seeds if seeds is not None else _seed_sources())
    return [s for s in wanted if s not in table.seeds or not table.of_seed(s)]
