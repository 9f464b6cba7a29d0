"""Saved runs: report.jsonl files read back, merged (the shards of one CI run), and turned into a
known-failures ledger.

`gostop-conformance summary SHARD... --report-dir DIR` writes one report from several shards (the
same engine, the same suite): green exactly when the unsharded run would be. `gostop-conformance
ledger REPORT` writes a ledger entry for every failure, whose reason is a placeholder the ledger
loader refuses until a person says why.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import yaml

from gostop_conformance.harness._compare import Mismatch
from gostop_conformance.harness._harness import KnownFailure, Record, RunReport
from gostop_conformance.harness._runner import OUTCOMES, Result
from gostop_conformance.harness._scenarios import Scenario
from gostop_conformance.spec import InputError

Json = dict[str, Any]

#: the reason `ledger` writes; load_ledger refuses an entry that still holds it
PLACEHOLDER: Final = "TODO: say why this scenario fails"
#: outcomes a ledger entry is written for
_FAILURES: Final = frozenset({"FAIL", "ERROR", "CRASH", "TIMEOUT", "PROTOCOL"})


@dataclass(frozen=True, slots=True)
class SavedRun:
    path: Path
    header: Json
    records: tuple[Json, ...]
    footer: Json


def read(path: Path) -> SavedRun:
    """A report.jsonl as written by `run`; InputError names the line of anything else."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(str(path), f"cannot read the report: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(str(path), "not UTF-8 text: expected a report.jsonl written by gostop-conformance run") from None
    parsed: list[Json] = []
    for number, line in enumerate(lines, 1):
        try:
            item = json.loads(line)
        except ValueError:
            raise InputError(f"{path}:{number}", "not JSON: expected a report.jsonl written by gostop-conformance run") from None
        if not isinstance(item, dict) or item.get("record") not in ("header", "scenario", "footer"):
            raise InputError(f"{path}:{number}", 'expected a record {"record": "header" | "scenario" | "footer", ...}')
        parsed.append(item)
    if len(parsed) < 2 or parsed[0]["record"] != "header" or parsed[-1]["record"] != "footer":
        raise InputError(str(path), "expected a header first and a footer last (was the run cut short?)")
    return SavedRun(path, parsed[0], tuple(parsed[1:-1]), parsed[-1])


def merge(runs: Sequence[SavedRun], corpus: Mapping[str, Scenario]) -> RunReport:
    """One report from the shards of one run: every scenario once, stale entries and the checked
    threshold as the whole run would have them."""
    if not runs:
        raise InputError("summary", "give at least one report.jsonl")
    first = runs[0].header
    for run in runs[1:]:
        for key in ("suite_version", "engine", "engine_command"):
            if run.header.get(key) != first.get(key):
                raise InputError(str(run.path), f"its {key} differs from {runs[0].path}'s: shards of one run share it")
    records: list[Record] = []
    seen: dict[str, Path] = {}
    for run in runs:
        for raw in run.records:
            sid = raw.get("id")
            if not isinstance(sid, str) or sid not in corpus:
                raise InputError(str(run.path), f"scenario {sid!r} is not in the corpus these reports are read against")
            if sid in seen:
                raise InputError(str(run.path), f"scenario {sid!r} is also in {seen[sid]}: shards do not overlap")
            seen[sid] = run.path
            records.append(_record(raw, corpus[sid], run.path))
    order = {sid: i for i, sid in enumerate(corpus)}
    records.sort(key=lambda r: order[r.scenario.id])
    stale = sorted({sid for run in runs for sid in run.footer.get("stale_known_failures", [])})
    hello = {
        "engine": first.get("engine", {}),
        "protocol": first.get("engine_protocol"),
        **{k: v for k, v in (first.get("support") or {}).items()},
    }
    return RunReport(
        engine_label=str(first.get("engine_label") or (first.get("engine") or {}).get("name", "engine")),
        engine_command=first.get("engine_command"),
        hello=hello,
        records=records,
        ledger_stale=[KnownFailure(sid, "stale", None) for sid in stale],
        strict=any(bool(run.footer.get("strict")) for run in runs),
        complete=all(bool(run.footer.get("complete")) for run in runs),
        seconds=sum(float(run.footer.get("seconds", 0.0)) for run in runs),
        selection={"merged": [str(run.path) for run in runs]},
        min_checked=sum(int(run.footer.get("min_checked", 1)) for run in runs),
        aborted=next((str(run.footer["aborted"]) for run in runs if run.footer.get("aborted")), None),
    )


def _record(raw: Json, sc: Scenario, path: Path) -> Record:
    mismatches = tuple(
        Mismatch(m["where"], m["path"], m.get("expected"), m.get("actual"), m.get("note", ""), bool(m.get("binding", True)))
        for m in raw.get("mismatches", [])
    )
    outcome = next((o for o in OUTCOMES if o == raw.get("outcome")), None)
    if outcome is None:
        raise InputError(str(path), f"scenario {sc.id!r}: outcome {raw.get('outcome')!r} is not one of {', '.join(OUTCOMES)}")
    result = Result(sc.id, outcome, mismatches, raw.get("error"), int(raw.get("steps_run", 0)))
    return Record(sc, outcome, result, reason=raw.get("reason"))


def ledger_text(runs: Sequence[SavedRun]) -> str:
    """A known-failures ledger for every failure of the runs, each reason a placeholder to fill."""
    entries = []
    for run in runs:
        for raw in run.records:
            if raw.get("outcome") in _FAILURES:
                entries.append({"id": raw["id"], "reason": PLACEHOLDER})
    header = (
        "# Known failures written by `gostop-conformance ledger` from "
        + ", ".join(str(run.path) for run in runs)
        + ".\n# Replace every reason with why the scenario fails (and add a link to the issue): the ledger\n"
        "# is refused while a placeholder is left.\n"
    )
    return header + yaml.safe_dump({"known_failures": entries}, sort_keys=False, allow_unicode=True, width=140)
