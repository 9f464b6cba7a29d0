"""The interactions between rules, designed rather than guessed (issue 39): `scenarios/interactions.yaml`.

Mutants written from the rules text survive in interactions rather than in single rules: a count of
two where the rules say "once", a threshold reached exactly by the last item scored, the order of
several events of one turn, a tie in who did something first. The design file lists, for each rule
and kind of interaction, what the corpus must show and the scenarios that show it; a scenario of a
kind is tagged `interaction-<kind>`. `gostop-conformance lint` checks the design against the corpus
(`check`), and the documentation renders it as a table (rule x kind -> scenarios) where the holes
are visible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gostop_conformance.harness._scenarios import INTERACTIONS_FILE, Scenario
from gostop_conformance.spec import InputError, clauses, load_yaml, validate

#: the tag that puts a scenario in the design: `interaction-<kind>`
TAG_PREFIX: Final = "interaction-"


@dataclass(frozen=True, slots=True)
class Row:
    """One designed interaction: a rule, a kind, what must be shown, and the scenarios showing it."""

    clause: str
    kind: str
    what: str
    scenarios: tuple[str, ...]
    #: where the row is written (file:line), for the problems found in it
    where: str


@dataclass(frozen=True, slots=True)
class Design:
    kinds: dict[str, str]
    rows: tuple[Row, ...]

    def holes(self) -> list[Row]:
        return [row for row in self.rows if not row.scenarios]


def load(root: Path) -> Design:
    """The design of the corpus at `root`; an empty design when the corpus has no file."""
    path = root / INTERACTIONS_FILE
    if not path.exists():
        return Design({}, ())
    located = load_yaml(path, f"{root.name}/{INTERACTIONS_FILE}")
    validate(located, "interactions")
    data = located.data
    kinds = {str(k): str(v) for k, v in data["kinds"].items()}
    known = clauses()
    rows = []
    for i, raw in enumerate(data["rows"]):
        if raw["clause"] not in known:
            raise InputError(located.where(["rows", i, "clause"]), f"unknown clause {raw['clause']!r}")
        if raw["kind"] not in kinds:
            raise InputError(located.where(["rows", i, "kind"]), f"unknown kind {raw['kind']!r}; expected one of {', '.join(kinds)}")
        rows.append(
            Row(raw["clause"], raw["kind"], " ".join(str(raw["what"]).split()), tuple(raw["scenarios"]), located.where(["rows", i]))
        )
    return Design(kinds, tuple(rows))


def check(design: Design, corpus: Sequence[Scenario]) -> list[str]:
    """What keeps the design and the corpus from agreeing: a hole (a row without scenarios), a
    scenario that does not exist, does not cite the row's clause or is not tagged with its kind,
    and a tagged scenario that no row names (so the table would not show it)."""
    by_id = {sc.id: sc for sc in corpus}
    problems = []
    named: set[tuple[str, str]] = set()
    for row in design.rows:
        if not row.scenarios:
            problems.append(f"{row.where}: hole: no scenario shows {row.clause} x {row.kind}: {row.what}")
        for sid in row.scenarios:
            sc = by_id.get(sid)
            if sc is None:
                problems.append(f"{row.where}: scenario {sid!r} is not in the corpus")
                continue
            named.add((sid, row.kind))
            if row.clause not in sc.clauses:
                problems.append(f"{row.where}: scenario {sid} does not cite {row.clause}")
            if TAG_PREFIX + row.kind not in sc.tags:
                problems.append(f"{sc.file}:{sc.line}: scenario {sid} is in the design as {row.kind} but not tagged {TAG_PREFIX}{row.kind}")
    for sc in corpus:
        for kind in kinds_of(sc.tags):
            if kind not in design.kinds:
                problems.append(
                    f"{sc.file}:{sc.line}: scenario {sc.id}: unknown tag {TAG_PREFIX}{kind}; expected one of "
                    + ", ".join(TAG_PREFIX + k for k in design.kinds)
                )
            elif (sc.id, kind) not in named:
                problems.append(
                    f"{sc.file}:{sc.line}: scenario {sc.id} is tagged {TAG_PREFIX}{kind}, but no row of {INTERACTIONS_FILE} names it"
                )
    return problems


def kinds_of(tags: Iterable[str]) -> list[str]:
    return [tag.removeprefix(TAG_PREFIX) for tag in tags if tag.startswith(TAG_PREFIX)]
