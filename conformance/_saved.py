"""Saved runs: report.jsonl files read back, merged (the shards of one CI run), and turned into a
known-failures ledger.

`gostop-conformance summary SHARD... --report-dir DIR` writes one report from several shards (the
same engine, the same suite): green exactly when the unsharded run would be. `gostop-conformance
ledger REPORT` writes a ledger entry for every failure, whose reason is a placeholder the ledger
loader refuses until a person says why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import jsonschema
import yaml

from gostop_conformance.harness._compare import Mismatch
from gostop_conformance.harness._harness import LEDGER_CORPUS, NOT_RUN, KnownFailure, Record, RunReport
from gostop_conformance.harness._runner import OUTCOMES, Result
from gostop_conformance.harness._scenarios import Scenario, select, shard
from gostop_conformance.spec import InputError, format_path, parse_json, schema

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
    """A report.jsonl as written by `run`, each line checked against spec/schemas/report.schema.json;
    InputError names the file, the line and the JSON path of anything else."""
    try:
        if not path.is_file():
            raise InputError(str(path), "expected a report.jsonl file written by gostop-conformance run")
        if path.stat().st_size > SIZE_LIMIT:
            raise InputError(str(path), f"larger than {SIZE_LIMIT >> 20} MiB: not a report.jsonl")
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(str(path), f"cannot read the report: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(str(path), "not UTF-8 text: expected a report.jsonl written by gostop-conformance run") from None
    parsed: list[Json] = []
    for number, line in enumerate(lines, 1):
        try:
            item = parse_json(line)
        except ValueError as exc:
            raise InputError(f"{path}:{number}", f"{exc}: expected a report.jsonl written by gostop-conformance run") from None
        problem = _line_problem(item)
        if problem is not None:
            raise InputError(f"{path}:{number}", problem)
        parsed.append(item)
    kinds = [item["record"] for item in parsed]
    if len(parsed) < 2 or kinds[0] != "header" or kinds[-1] != "footer":
        raise InputError(str(path), "expected a header first and a footer last (was the run cut short?)")
    for number, kind in enumerate(kinds[1:-1], 2):
        if kind != "scenario":
            raise InputError(f"{path}:{number}", f"a second {kind}: expected scenario records between the header and the footer")
    return SavedRun(path, parsed[0], tuple(parsed[1:-1]), parsed[-1])


#: a report of the whole corpus is about 1 MB; a file much larger is something else
SIZE_LIMIT: Final = 256 << 20


@cache
def _validator(kind: str) -> jsonschema.Draft202012Validator:
    report_schema = schema("report")
    return jsonschema.Draft202012Validator({"$defs": report_schema["$defs"], **report_schema["$defs"][kind]})


def _line_problem(item: Any) -> str | None:
    """What is wrong with one line of a report, by the report schema (its JSON path first), or None."""
    if not isinstance(item, dict) or item.get("record") not in ("header", "scenario", "footer"):
        return 'expected a record {"record": "header" | "scenario" | "footer", ...}'
    kind = item["record"]
    errors = list(_validator(kind).iter_errors(item))
    if not errors:
        return None
    err = min(errors, key=lambda e: (len(e.absolute_path), str(e.message)))
    return f"{kind} record, {format_path(list(err.absolute_path)) or '(record)'}: {err.message} (spec/schemas/report.schema.json)"


#: what a report from before corpus digests (suite 0.1.0's first runs) is said to have read
NO_DIGEST: Final = "no digest recorded"


def corpus_of(run: SavedRun) -> str:
    """The digest of the corpus a saved run read (CHANGELOG.md names each release's)."""
    return str(run.header.get("corpus_digest") or NO_DIGEST)


def different_corpora(read: Sequence[tuple[str, str]]) -> str | None:
    """The warning for (what, corpus digest) pairs that do not all share one corpus, else None:
    their scenarios, and so their counts, are not the same, whatever else they share."""
    by_digest: dict[str, list[str]] = {}
    for what, digest in read:
        by_digest.setdefault(digest, []).append(what)
    if len(by_digest) < 2:
        return None
    groups = "; ".join(f"{digest}: {', '.join(dict.fromkeys(whats))}" for digest, whats in by_digest.items())
    return (
        f"these runs read different corpora ({groups}): their scenarios and counts are not comparable "
        "(CHANGELOG.md says what changed between corpus digests)"
    )


def runs_corpora(runs: Sequence[SavedRun]) -> str | None:
    """The warning for saved runs that read different corpora, else None."""
    return different_corpora([(str(run.path), corpus_of(run)) for run in runs])


def merge(runs: Sequence[SavedRun], corpus: Mapping[str, Scenario]) -> RunReport:
    """One report from the shards of one run: every scenario once, stale entries and the checked
    threshold as the whole run would have them."""
    if not runs:
        raise InputError("summary", "give at least one report.jsonl")
    first = runs[0].header
    for run in runs[1:]:
        if corpus_of(run) != corpus_of(runs[0]):
            raise InputError(str(run.path), f"{runs_corpora([runs[0], run])}: shards of one run read one corpus")
        for key in ("suite_version", "engine", "engine_command"):
            if run.header.get(key) != first.get(key):
                raise InputError(str(run.path), f"its {key} differs from {runs[0].path}'s: shards of one run share it")
        mine, theirs = _unsharded(run.header), _unsharded(first)
        if mine != theirs:
            raise InputError(str(run.path), f"its selection {mine} differs from {runs[0].path}'s {theirs}: shards of one run share it")
    missing = missing_shards(runs)  # first: one shard given twice is named as such
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
    if missing:
        expected, n = _selected(first.get("selection") or {}, corpus), _shard_count(runs)
        for k in missing:
            records += [Record(sc, NOT_RUN, reason=f"the report of shard {k}/{n} was not given") for sc in shard(expected, k, n)]
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
        complete=not missing and all(bool(run.footer.get("complete")) for run in runs),
        seconds=sum(float(run.footer.get("seconds", 0.0)) for run in runs),
        selection={"merged": [str(run.path) for run in runs]},
        min_checked=sum(int(run.footer.get("min_checked", 1)) for run in runs),
        aborted=next((str(run.footer["aborted"]) for run in runs if run.footer.get("aborted")), None),
        corpus_digest=str(first.get("corpus_digest") or ""),
    )


def missing_shards(runs: Sequence[SavedRun]) -> list[int]:
    """The shards of the run (K of --shard K/N) whose report is not among `runs`; InputError when
    sharded and unsharded reports are mixed, or shards of different counts, or one shard twice."""
    parts = [(run, (run.header.get("selection") or {}).get("shard")) for run in runs]
    sharded = [(run, str(spec)) for run, spec in parts if spec is not None]
    if not sharded:
        return []
    if len(sharded) != len(runs):
        plain = next(run for run, spec in parts if spec is None)
        raise InputError(str(plain), "it is not a shard, but other reports given are: give the shards of one run")
    n = _shard_count(runs)
    seen: dict[int, Path] = {}
    for run, spec in sharded:
        k, count = (int(x) for x in spec.split("/"))
        if count != n:
            raise InputError(str(run.path), f"shard {spec} is not one of {n}, as {sharded[0][0].path}'s is")
        if k in seen:
            raise InputError(str(run.path), f"shard {spec} is also {seen[k]}")
        seen[k] = run.path
    return [k for k in range(1, n + 1) if k not in seen]


def _shard_count(runs: Sequence[SavedRun]) -> int:
    spec = next(str(s) for run in runs if (s := (run.header.get("selection") or {}).get("shard")) is not None)
    return int(spec.split("/")[1])


def _unsharded(header: Json) -> Json:
    return {k: v for k, v in (header.get("selection") or {}).items() if k != "shard"}


def _selected(selection: Json, corpus: Mapping[str, Scenario]) -> list[Scenario]:
    """The scenarios the run selected, before sharding, as `run` chose them."""
    return select(
        list(corpus.values()),
        ids=selection.get("ids") or (),
        rulesets=selection.get("rulesets") or (),
        areas=selection.get("areas") or (),
        clauses=selection.get("clauses") or (),
        tags=selection.get("tags") or (),
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
        "# is refused while a placeholder is left. `run --known-failures` warns when it reads another corpus.\n"
    )
    digests = {corpus_of(run) for run in runs}
    # one corpus named only when the runs read one that says so: a ledger from mixed corpora names none
    named = {LEDGER_CORPUS: digests.pop()} if len(digests) == 1 and NO_DIGEST not in digests else {}
    return header + yaml.safe_dump({**named, "known_failures": entries}, sort_keys=False, allow_unicode=True, width=140)
