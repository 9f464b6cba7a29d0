"""Ruleset files outside the package (issue 41): a YAML file in the format of spec/rulesets/*.yaml
(spec/schemas/ruleset.schema.json) that a family, a site or an engine author writes for their own
house rules, and every command takes as `--ruleset-file PATH`.

Its `parent` is a named ruleset (`standard-3p`) or another ruleset file, by a path relative to the
file that names it (`./our-house-3p.yaml`); without one, every option starts at its registry
default, as for the root ruleset. Every error names the file and line it comes from: the schema,
an unknown source, option or value, a toggle contradicting an option beside it, values that do not
go together (R-PLAYERS, R-DEAL-SIZE, R-DEAL-ORDER, R-BONUS-DECK), an unknown or missing parent, and
a parent cycle. A file's id is its own: it may not take a named ruleset's.

A file ruleset is always *based on* a named ruleset, which is the `id` the protocol sends with its
options (spec/protocol/defs/ruleset.json: play by the options, not by the name): its nearest named
ancestor, or, for a file that inherits from none, the named ruleset whose option values differ
from its own in the fewest options (`closest_named`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from gostop_conformance.spec._rulesets import Ruleset, load_ruleset, ruleset_ids, ruleset_of
from gostop_conformance.spec._schemas import validate
from gostop_conformance.spec._yamlio import InputError, load_yaml

#: how a `parent` that is a file ends (a named ruleset's id never holds a dot)
FILE_SUFFIXES: Final = (".yaml", ".yml")
#: files one file may inherit through: far more than anyone writes, few enough that a chain of
#: generated files ends in an error rather than in Python's recursion limit
MAX_DEPTH: Final = 32


@dataclass(frozen=True, slots=True)
class RulesetFile:
    """A ruleset file, resolved: `ruleset` holds its id, title, own values and resolved options
    (its `parent` as the file writes it, its `file` the path as shown), `parents` every ruleset it
    inherits from (its parent first, the root last), `base` the named ruleset it is sent as."""

    ruleset: Ruleset
    path: Path
    parents: tuple[Ruleset, ...]
    base: str

    @property
    def hash(self) -> str:
        """The content hash of the resolved options (as reports record a named ruleset's)."""
        return self.ruleset.hash

    def protocol_json(self) -> dict[str, Any]:
        """The protocol's ruleset object for it (spec/protocol/defs/ruleset.json): its base's id
        and every option value."""
        return {"id": self.base, "options": self.ruleset.options.as_json()}

    def differences(self, against: str | None = None) -> list[str]:
        """The options whose value differs from the named ruleset `against` (default: its base),
        in registry order."""
        other = load_ruleset(against or self.base).options.as_json()
        return [name for name, value in self.ruleset.options.as_json().items() if other[name] != value]


def is_ruleset_path(parent: str) -> bool:
    """Whether a `parent` names a ruleset file rather than a named ruleset."""
    return parent.endswith(FILE_SUFFIXES)


def load_ruleset_file(path: Path, display: str | None = None) -> RulesetFile:
    """The ruleset file at `path` (shown as `display`, default the path as given), resolved through
    its parents; InputError names the file and line of the first mistake, in it or in a parent."""
    return _load(path, display or str(path), ())


def _load(path: Path, display: str, chain: tuple[Path, ...]) -> RulesetFile:
    located = load_yaml(path, display)
    validate(located, "ruleset")
    data = located.data
    rid = str(data["id"])
    if rid in ruleset_ids():
        raise InputError(located.where(["id"]), f"{rid!r} is a named ruleset's id; a ruleset file takes an id of its own")
    here = path.resolve()
    parent = data.get("parent")
    parents: tuple[Ruleset, ...] = ()
    base: str | None = None
    if parent is None:
        pass
    elif is_ruleset_path(parent):
        target = (here.parent / parent).resolve()
        if target == here or target in chain:
            shown = " -> ".join(p.name for p in (*chain, here, target))
            raise InputError(located.where(["parent"]), f"ruleset inheritance cycle: {shown}")
        if len(chain) >= MAX_DEPTH:
            raise InputError(located.where(["parent"]), f"more than {MAX_DEPTH} ruleset files inherit one from another")
        if not target.is_file():
            raise InputError(located.where(["parent"]), f"parent ruleset file {parent!r} not found (looked for {target})")
        found = _load(target, os.path.normpath(os.path.join(os.path.dirname(display), parent)), (*chain, here))
        parents, base = (found.ruleset, *found.parents), found.base
    else:
        if parent not in ruleset_ids():
            raise InputError(
                located.where(["parent"]),
                f"unknown parent ruleset {parent!r}; expected a named ruleset ({', '.join(ruleset_ids())}) "
                f"or the path of a ruleset file ({' or '.join(FILE_SUFFIXES)})",
            )
        parents, base = named_chain(parent), parent
    values = parents[0].options.as_json() if parents else None
    ruleset = ruleset_of(located, rid, parent, values)
    return RulesetFile(ruleset, here, parents, base or closest_named(ruleset.options.as_json()))


def named_chain(ruleset_id: str) -> tuple[Ruleset, ...]:
    """A named ruleset and every ruleset it inherits from, itself first and the root last."""
    out: list[Ruleset] = []
    current: str | None = ruleset_id
    while current is not None:
        rs = load_ruleset(current)
        out.append(rs)
        current = rs.parent
    return tuple(out)


def closest_named(values: Mapping[str, Any], candidates: Iterable[str] | None = None) -> str:
    """The named ruleset (of `candidates`, default all) whose option values differ from `values`
    (JSON, as `Options.as_json` gives them; an option left out differs from none) in the fewest
    options; of several, the first in `ruleset_ids()` order."""
    ids = list(candidates) if candidates is not None else ruleset_ids()
    if not ids:
        raise ValueError("no named ruleset to choose from")

    def distance(rid: str) -> int:
        own = load_ruleset(rid).options.as_json()
        return sum(1 for name, value in values.items() if own[name] != value)

    return min(ids, key=lambda rid: (distance(rid), ruleset_ids().index(rid) if rid in ruleset_ids() else 0))
