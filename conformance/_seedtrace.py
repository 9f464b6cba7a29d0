"""The seed-traceability part of `gostop-conformance lint`: every statement of the four seed texts
names the clause or option value that implements it (spec/traceability.yaml), every cited id
exists, and every quote is in its seed, word for word (whitespace aside)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from gostop_conformance.spec import (
    InputError,
    Traceability,
    quote_problems,
    seed_files,
    traceability,
    traceability_problems,
    uncovered_seeds,
)


@dataclass
class TraceCheck:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def check_traceability(table: Traceability | None = None, seeds_dir: Path | None = None) -> TraceCheck:
    """Problems make lint fail. A seed text that cannot be found is a note, not a problem, unless
    `seeds_dir` was given (then every seed must be there): an installed wheel has no seeds beside
    it, and its lint must still check everything else."""
    out = TraceCheck()
    try:
        table = table if table is not None else traceability()
    except InputError as exc:
        out.problems.append(str(exc))
        return out
    out.problems += traceability_problems(table)
    out.problems += [f"{table.path}: seed {s} has no statement: every seed text must be traced" for s in uncovered_seeds(table)]
    files = seed_files(seeds_dir)
    problems, unchecked = quote_problems(table, files)
    out.problems += problems
    if unchecked:
        where = f"in {seeds_dir}" if seeds_dir is not None else "beside the project (pass --seeds DIR or set GOSTOP_SEEDS)"
        message = f"seed texts of {', '.join(unchecked)} not found {where}: their quotes were not checked"
        (out.problems if seeds_dir is not None else out.notes).append(message)
    return out
