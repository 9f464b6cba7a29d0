"""A fuzz run's results as a file (`fuzz.json`), and several runs' merged into one: the shards of
one run (`fuzz --shard K/N`, each on a machine of a CI matrix) give the report the whole run
would have given.

Every round of a run is a function of the run's seed and the round's index, so shard K of N plays
a contiguous range of the indices (`shard_range`), and the merge reads the shards in the order of
their ranges: each divergence class is the one whose first round comes first, with the rounds of
every shard counted in it, as one process playing every round would have filed it. A class that
one shard set aside as outside the engine's declaration and another established as a divergence is
a divergence. The merge refuses files of different runs (seed, rounds, configurations, engine
label, event log), overlapping ranges (rounds counted twice), and says which rounds no file holds:
a merge with rounds missing is never green.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from gostop_conformance.harness._fuzz import Case, Divergence, Found, FuzzReport
from gostop_conformance.harness._outputs import written_whole
from gostop_conformance.spec import InputError

Json = dict[str, Any]

#: the file format, named in every file: a file of another format is refused, not misread
FORMAT: Final = "gostop-conformance-fuzz/1"
#: the file a fuzz run writes into its --out folder
FILE_NAME: Final = "fuzz.json"
#: the run's parameters that must agree for files to be merged
_SAME_RUN: Final = ("seed", "games", "configurations", "event_log", "guided", "engine")


def shard_range(games: int, shard: tuple[int, int] | None) -> range:
    """The round indices shard K of N plays: contiguous, disjoint, together 0..games-1."""
    if shard is None:
        return range(games)
    k, n = shard
    return range((k - 1) * games // n, k * games // n)


@dataclass
class SavedFuzz:
    """One run's results as read from its file (or merged): the report, with `first_seen` by
    round index (1-based, over the whole run), and what run they are of."""

    report: FuzzReport
    run: Json  # seed, games, configurations, event_log, guided, engine
    rounds: list[tuple[int, int]]  # the ranges of round indices held, [start, stop)
    path: str = ""

    @property
    def missing(self) -> list[tuple[int, int]]:
        """The ranges of round indices of the run no file holds."""
        gaps, at = [], 0
        for start, stop in sorted(self.rounds):
            if start > at:
                gaps.append((at, start))
            at = max(at, stop)
        if at < self.run["games"]:
            gaps.append((at, self.run["games"]))
        return gaps


def save(report: FuzzReport, run: Json, rounds: range | Sequence[tuple[int, int]], path: Path) -> None:
    """The results of the rounds `rounds` of a run (a range, or the ranges a merge holds), written
    whole or not at all. A run's `report.first_seen` counts the rounds it played, from the first
    of its range; the file holds round indices of the whole run."""
    held = [(rounds.start, rounds.stop)] if isinstance(rounds, range) else _joined(rounds)
    start = held[0][0] if isinstance(rounds, range) else 0
    data = {
        "format": FORMAT,
        "run": run,
        "rounds": [list(r) for r in held],
        "played": report.rounds,
        "configurations_fuzzed": report.configurations,
        "found": [_found_json(f) for f in report.found.values()],
        "outside": [_found_json(f) for f in report.outside.values()],
        "clauses_seen": sorted(report.clauses_seen),
        "first_seen": {clause: start + r for clause, r in sorted(report.first_seen.items())},
        "cap_reached": None if report.cap_reached is None else start + report.cap_reached,
    }
    with written_whole(path) as out:
        json.dump(data, out, ensure_ascii=False, indent=1, default=str)  # in the order the run found things
        out.write("\n")


def load(path: Path) -> SavedFuzz:
    """A file written by `save`; an InputError naming the file and the field otherwise."""
    where = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(where, f"cannot read it: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(where, f"not a fuzz results file (invalid JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(where, f"not a fuzz results file: expected an object with format {FORMAT!r} (written by `fuzz --out`)")
    try:
        run = data["run"]
        rounds = [(int(a), int(b)) for a, b in data["rounds"]]
        report = FuzzReport(rounds=int(data["played"]), configurations=list(data["configurations_fuzzed"]))
        for entry in data["found"]:
            found = _found(entry)
            report.found[found.divergence.signature] = found
        for entry in data["outside"]:
            found = _found(entry)
            report.outside[found.divergence.signature] = found
        report.clauses_seen = set(data["clauses_seen"])
        report.first_seen = {str(k): int(v) for k, v in data["first_seen"].items()}
        report.cap_reached = data["cap_reached"]
        if not all(k in run for k in _SAME_RUN):
            raise KeyError(next(k for k in _SAME_RUN if k not in run))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(where, f"a fuzz results file with a missing or malformed field ({type(exc).__name__}: {exc})") from None
    return SavedFuzz(report, run, rounds, where)


def merge(parts: Sequence[SavedFuzz]) -> SavedFuzz:
    """The files of one run's shards as one run's results (module docstring)."""
    if not parts:
        raise InputError("fuzz-merge", "no results file given")
    first = parts[0]
    for part in parts[1:]:
        for key in _SAME_RUN:
            if part.run[key] != first.run[key]:
                raise InputError(part.path, f"not the run of {first.path}: its {key} is {part.run[key]!r}, not {first.run[key]!r}")
    ordered = sorted(parts, key=lambda p: min(p.rounds))
    held: list[tuple[int, int, str]] = sorted((a, b, p.path) for p in ordered for a, b in p.rounds)
    for (_, b1, p1), (a2, _, p2) in itertools.pairwise(held):
        if a2 < b1:
            raise InputError(
                p2, f"its rounds {a2 + 1}-{b1} are in {p1} too: the shards overlap (a file given twice, or of another --shard count)"
            )
    merged = FuzzReport(configurations=list(first.report.configurations))
    for part in ordered:
        report = part.report
        merged.rounds += report.rounds
        merged.clauses_seen |= report.clauses_seen
        for clause, r in report.first_seen.items():
            merged.first_seen[clause] = min(r, merged.first_seen.get(clause, r))
        if report.cap_reached is not None and merged.cap_reached is None:
            merged.cap_reached = report.cap_reached
        for sig, found in report.found.items():
            _file(merged, sig, found, within=True)
        for sig, found in report.outside.items():
            _file(merged, sig, found, within=False)
    return SavedFuzz(merged, dict(first.run), [(a, b) for a, b, _ in held], "merged")


def _joined(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Ranges of round indices, adjacent ones as one."""
    out: list[tuple[int, int]] = []
    for start, stop in sorted(ranges):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], stop))
        else:
            out.append((start, stop))
    return out


def _file(merged: FuzzReport, key: tuple[str, ...], found: Found, within: bool) -> None:
    """One shard's class into the merge, shards taken in round order."""
    known = merged.found.get(key)
    if known is not None:
        known.count += found.count
        return
    aside = merged.outside.get(key)
    if aside is not None and not within:
        aside.count += found.count
        return
    if aside is not None:  # another shard established it: a divergence, with the rounds set aside
        found.count += aside.count
        del merged.outside[key]
    (merged.found if within else merged.outside)[key] = found


def _found_json(found: Found) -> Json:
    div = found.divergence
    return {
        "seed": found.seed,
        "count": found.count,
        "scenario": found.scenario,
        "reproduced": found.reproduced,
        "outside": found.outside,
        "established": found.established,
        "retries": found.retries,
        "divergence": {
            "case": asdict(div.case),
            "step": div.step,
            "what": div.what,
            "expected": div.expected,
            "actual": div.actual,
            "clauses": list(div.clauses),
            "category": div.category,
            "caveat": div.caveat,
        },
    }


def _found(entry: Json) -> Found:
    d = entry["divergence"]
    c = d["case"]
    case = Case(c["ruleset"], c["deal"], list(c["choices"]), dict(c["options"]), c["config"], tuple(c["reserve"]))
    div = Divergence(case, int(d["step"]), d["what"], d["expected"], d["actual"], list(d["clauses"]), d["category"], d["caveat"])
    return Found(
        int(entry["seed"]),
        div,
        int(entry["count"]),
        entry["scenario"],
        bool(entry["reproduced"]),
        entry["outside"],
        bool(entry["established"]),
        int(entry["retries"]),
    )
