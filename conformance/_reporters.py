"""Reports of a run: console lines, JSON Lines, JUnit XML, a markdown summary, and a
reproducer folder for every scenario that did not pass. All deterministic unless timing is asked."""

from __future__ import annotations

import datetime
import json
import os
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Final

import yaml

from gostop_conformance.harness._harness import Record, RunReport
from gostop_conformance.harness._outputs import written_whole
from gostop_conformance.harness._replay import replay_html
from gostop_conformance.harness._runner import PASS, UNSUPPORTED
from gostop_conformance.harness._safetext import engine_text, terminal_safe, xml_safe
from gostop_conformance.spec import MAX_JSON_DEPTH, clauses, counted, json_deeper_than, option_registry

Json = dict[str, Any]


def console_line(record: Record) -> str:
    head = f"{record.outcome} {record.scenario.id}"
    if record.reason:
        head += f": {record.reason}"
    note = record.verdict.note() if record.verdict is not None and record.outcome != PASS else ""
    if note:
        head += f"\n  ({note}: values under which the reference engine gives the same outcome)"
    if record.result is not None and record.outcome not in (PASS,):
        detail = record.result.text().split("\n", 1)
        if len(detail) > 1:
            head += "\n" + detail[1]
    return terminal_safe(head)


def summary_lines(report: RunReport) -> list[str]:
    return [terminal_safe(line) for line in _summary_lines(report)]


def _summary_lines(report: RunReport) -> list[str]:
    if report.aborted:
        lines = [f"NOT GREEN: {report.aborted}"]
        tail = report.stderr.strip().splitlines()[-10:]
        if tail:
            lines += ["engine stderr (last lines):", *(f"  {line}" for line in tail)]
        return [*lines, "nothing was run"]
    counts = report.counts()
    parts = ", ".join(f"{n} {k.lower()}" for k, n in sorted(counts.items()))
    lines = [f"{counted(len(report.records), 'scenario')} against {report.engine_label}: {parts}"]
    for area, c in report.by_area().items():
        lines.append(f"  {area:14} " + ", ".join(f"{n} {k.lower()}" for k, n in sorted(c.items())))
    if not report.complete:
        lines.append("INCOMPLETE: the run was interrupted; NOT_RUN scenarios were not run")
    by_clause = report.by_clause()
    if by_clause:
        lines.append("Failures by clause (failed of the checked scenarios that cite it):")
        lines += [f"  {failed:4} of {checked:<4} {clause} {clause_title(clause)}" for clause, failed, checked in by_clause[:CONSOLE_GROUPS]]
        if len(by_clause) > CONSOLE_GROUPS:
            lines.append(f"       ... {counted(len(by_clause) - CONSOLE_GROUPS, 'more clause')} (summary.md lists them all)")
    groups = unsupported_groups(report)
    if groups:
        if report.selection.get("rules"):  # run --ruleset-file: the file, not the engine, says what is played
            why = "a value the ruleset file changes", "'declared' is the file's value"
        else:
            why = "what the engine does not declare", "declaring a value runs what it unlocks"
        lines.append(f"UNSUPPORTED by {why[0]} ({counted(len(groups), 'reason')}; {why[1]}):")
        for reason, ids in groups[:CONSOLE_GROUPS]:
            lines.append(f"  {len(ids):4} {reason}")
        if len(groups) > CONSOLE_GROUPS:
            lines.append(f"       ... {counted(len(groups) - CONSOLE_GROUPS, 'more reason')} (summary.md lists them all)")
    substituted = sum(1 for r in report.records if r.verdict is not None and r.verdict.changes and r.outcome != UNSUPPORTED)
    if substituted:
        whose = "the ruleset file's" if report.selection.get("rules") else "the engine's declared"
        lines.append(f"{counted(substituted, 'scenario')} ran with {whose} values where the outcome is the same (report.jsonl: run_as)")
    if report.ledger_stale:
        verdict = "failing the run (--strict)" if report.strict else "without --strict, not failing it"
        lines.append(f"STALE known failures ({len(report.ledger_stale)}, {verdict}): no such scenario in the corpus; remove them:")
        lines += [f"  {k.id}" for k in report.ledger_stale]
    too_little = report.too_little_checked()
    if too_little:
        lines.append(f"NOT GREEN: {too_little}")
    skipped = counts[UNSUPPORTED]
    lines.append(
        f"{counts[PASS]} passed, {report.failed()} failed"
        + (f", {skipped} unsupported" if skipped else "")
        + f" ({report.checked()} of {len(report.records)} checked)"
    )
    return lines


#: reasons of UNSUPPORTED the console lists (summary.md lists every one)
CONSOLE_GROUPS: Final = 10


def unsupported_groups(report: RunReport) -> list[tuple[str, list[str]]]:
    """UNSUPPORTED scenarios grouped by their whole reason (every missing value), largest group first."""
    groups: dict[str, list[str]] = {}
    for r in report.records:
        if r.outcome == UNSUPPORTED:
            groups.setdefault(r.reason or "", []).append(r.scenario.id)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def write_jsonl(report: RunReport, path: Path, timing: bool = False) -> None:
    with written_whole(path) as out:
        out.write(_report_line(report.header()) + "\n")
        for record in report.records:
            out.write(_report_line({"record": "scenario", **record.to_json()}) + "\n")
        out.write(_report_line(report.footer(timing)) + "\n")


def _report_line(obj: Json) -> str:
    """One line of report.jsonl, nesting no deeper than any reader of it takes (MAX_JSON_DEPTH:
    conformance/_saved.py). An engine's reply may nest that deep, and a record quotes parts of it a
    few levels further in (a mismatch's actual value: an error object with a deep extra member;
    the hello's declaration in the header of a failed handshake): a run's own report must never
    be refused by `summary`, `ledger` or `report`, so what would nest past it is written as text."""
    text = _dumps(obj)
    if json_deeper_than(text) is None:
        return text
    return _dumps(_flattened(obj, MAX_JSON_DEPTH))


#: characters of a value too deep for a report kept as its JSON text
_FLAT_LIMIT: Final = 2000


def _flattened(value: Any, room: int) -> Any:
    """`value` with each container that would open past `room` levels replaced by its JSON text."""
    if not isinstance(value, dict | list):
        return value
    if room < 1:
        text = json.dumps(value, ensure_ascii=False, default=str)
        return text if len(text) <= _FLAT_LIMIT else f"{text[:_FLAT_LIMIT]} [... {counted(len(text) - _FLAT_LIMIT, 'character')} left out]"
    if isinstance(value, dict):
        return {k: _flattened(v, room - 1) for k, v in value.items()}
    return [_flattened(v, room - 1) for v in value]


def _dumps(obj: Any) -> str:
    text = json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from an engine: written as the JSON escape it came as
        return json.dumps(obj, ensure_ascii=True, sort_keys=True, separators=(",", ":"), default=str)
    return text


def write_junit(report: RunReport, path: Path, timing: bool = False) -> None:
    """JUnit XML for CI dashboards; with `timing`, each test case's time and the run's timestamp
    (without, the file is byte-identical between runs of the same inputs)."""
    counts = report.counts()
    suite = ET.Element(
        "testsuite",
        name=f"gostop-conformance: {report.engine_label}",
        tests=str(len(report.records)),
        failures=str(sum(1 for r in report.records if r.outcome in ("FAIL", "XPASS"))),
        errors=str(sum(1 for r in report.records if r.outcome in ("ERROR", "CRASH", "TIMEOUT", "PROTOCOL"))),
        skipped=str(counts[UNSUPPORTED] + counts["XFAIL"] + counts["NOT_RUN"]),
    )
    if report.aborted:  # the handshake is a test case of its own, each scenario an error beside it
        suite.set("errors", str(int(suite.get("errors", "0")) + 1))
        suite.set("tests", str(len(report.records) + 1))
        case = ET.SubElement(suite, "testcase", classname="gostop-conformance", name="handshake")
        ET.SubElement(case, "error", message="the engine failed its handshake").text = report.aborted
        if report.stderr:
            ET.SubElement(case, "system-err").text = report.stderr[-20000:]
    too_little = None if report.aborted else report.too_little_checked()
    if too_little:
        # a CI dashboard that shows only junit.xml must not show a run that checked nothing as green
        suite.set("failures", str(int(suite.get("failures", "0")) + 1))
        suite.set("tests", str(len(report.records) + 1))
        check = ET.SubElement(suite, "testcase", classname="gostop-conformance", name="scenarios-checked")
        ET.SubElement(check, "failure", message="too few scenarios checked").text = too_little
    for record in report.records:
        case = ET.SubElement(suite, "testcase", classname=f"{record.scenario.area}.{record.scenario.ruleset}", name=record.scenario.id)
        if timing:
            case.set("time", f"{record.seconds:.3f}")
        text = console_line(record)
        if record.outcome in ("FAIL", "XPASS"):
            ET.SubElement(case, "failure", type=record.outcome, message=_clip_line(first_problem(record) or record.outcome)).text = text
        elif record.outcome in ("ERROR", "CRASH", "TIMEOUT", "PROTOCOL"):
            ET.SubElement(case, "error", type=record.outcome, message=_clip_line(first_problem(record) or record.outcome)).text = text
        elif record.outcome in (UNSUPPORTED, "XFAIL", "NOT_RUN"):
            ET.SubElement(case, "skipped", message=f"{record.outcome}: {record.reason or ''}")
        if record.stderr:
            ET.SubElement(case, "system-err").text = record.stderr[-20000:]
    if timing:
        suite.set("time", f"{report.seconds:.3f}")
        suite.set("timestamp", datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"))
    for element in suite.iter():  # whatever an engine wrote, the file parses
        if element.text:
            element.text = xml_safe(element.text)
        for name, value in element.attrib.items():
            element.set(name, xml_safe(value))
    ET.indent(suite)
    with written_whole(path) as out:
        ET.ElementTree(suite).write(out, encoding="unicode", xml_declaration=True)


def _clip_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def write_markdown(report: RunReport, path: Path) -> None:
    counts = report.counts()
    engine = report.hello.get("engine", {})
    lines = [
        f"## gostop-conformance: {_cell(str(engine.get('name', report.engine_label)))} {_cell(str(engine.get('version', '')))}".rstrip(),
        "",
        *suite_markdown(report),
        *_aborted_markdown(report),
        f"**{counts[PASS]} passed, {report.failed()} failed** of {counted(len(report.records), 'scenario')}"
        + f" ({report.checked()} checked)"
        + ("" if report.complete else " — **incomplete run**"),
        "",
        *([f"**Not green: {report.too_little_checked()}.**", ""] if report.too_little_checked() else []),
        "| area | " + " | ".join(sorted(counts)) + " |",
        "| --- | " + " | ".join("---:" for _ in counts) + " |",
    ]
    for area, c in report.by_area().items():
        lines.append(f"| {_cell(area)} | " + " | ".join(str(c.get(k, 0)) for k in sorted(counts)) + " |")
    bad = [r for r in report.records if r.outcome not in (PASS, UNSUPPORTED, "XFAIL")]
    if bad:
        lines += ["", "| scenario | outcome | clauses | first problem |", "| --- | --- | --- | --- |"]
        for r in bad[:200]:
            named = ", ".join(f"{c} ({clause_title(c)})" for c in r.scenario.clauses)
            lines.append(f"| `{r.scenario.id}`: {_cell(r.scenario.title)} | {r.outcome} | {_cell(named)} | {_cell(first_problem(r))} |")
    by_clause = report.by_clause()
    if by_clause:
        lines += ["", "### Failures by clause", "", "| clause | title | failed | of checked |", "| --- | --- | ---: | ---: |"]
        lines += [f"| {c} | {_cell(clause_title(c))} | {failed} | {checked} |" for c, failed, checked in by_clause]
    groups = unsupported_groups(report)
    if groups:
        lines += ["", "### Unsupported, by what the engine does not declare", ""]
        lines += ["| scenarios | needs | for example |", "| ---: | --- | --- |"]
        for reason, ids in groups:
            example = ", ".join(f"`{i}`" for i in ids[:3]) + (" ..." if len(ids) > 3 else "")
            lines.append(f"| {len(ids)} | {reason.replace('|', '/')} | {example} |")
    with written_whole(path) as out:
        out.write("\n".join(lines) + "\n")


def suite_markdown(report: RunReport) -> list[str]:
    """What the run was judged by: the suite's and the protocol's versions and the corpus's digest
    (CHANGELOG.md), so that two summaries are compared only when they read the same corpus."""
    header = report.header()
    digest = header.get("corpus_digest") or "no digest recorded"
    return [f"Suite {header['suite_version']}, protocol {header['protocol']}, corpus `{digest}`.", ""]


def clause_title(clause: str) -> str:
    """The clause's title (spec/rules), or '' for an id the spec does not have."""
    found = clauses().get(clause)
    return found.title if found is not None else ""


def first_problem(record: Record) -> str:
    """One line a person can act on: where, what, expected against actual (card lists as what is missing and extra)."""
    result = record.result
    if result is not None and result.mismatches:
        m = result.mismatches[0]
        step = m.where.removeprefix(f"{record.scenario.id} ")
        more = f" (+{len(result.mismatches) - 1} more)" if len(result.mismatches) > 1 else ""
        return f"{step}: {m.path}: {m.brief()}{more}"
    if result is not None and result.error:
        return result.error
    return record.reason or ""


def _cell(text: str) -> str:
    """Text safe inside a markdown table cell: one line, no table or HTML syntax, no controls."""
    flat = terminal_safe(" ".join(text.split())).replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
    return flat if len(flat) <= 240 else flat[:239] + "…"


def _aborted_markdown(report: RunReport) -> list[str]:
    if not report.aborted:
        return []
    fence = "~~~~"  # the engine's stderr may hold backticks
    tail = terminal_safe(report.stderr[-4000:]).replace(fence, "~ ~")
    stderr = ["The engine's stderr ended with:", "", fence, tail, fence, ""] if report.stderr else []
    return [f"**Not green: {_cell(report.aborted)}.** Nothing was run.", "", *stderr]


def write_reproducers(report: RunReport, folder: Path) -> list[Path]:
    """For every non-pass: the scenario, the message transcript both ways (JSON Lines), the
    engine's stderr, the play drawn step by step (replay.html) and a replay script that works from
    any copy of the folder."""
    written: list[Path] = []
    for record in [] if report.aborted else report.records:  # a failed handshake: nothing to replay scenario by scenario
        if record.outcome in (PASS, UNSUPPORTED, "XFAIL", "NOT_RUN"):
            continue
        sc = record.scenario
        out = folder / sc.id
        out.mkdir(parents=True, exist_ok=True)
        (out / "scenario.yaml").write_text(yaml.safe_dump(_scenario_json(record), sort_keys=False, allow_unicode=True), encoding="utf-8")
        with (out / "transcript.jsonl").open("w", encoding="utf-8") as t:
            for line in transcript_lines(record):
                t.write(_dumps(line) + "\n")
        (out / "stderr.txt").write_text(record.stderr, encoding="utf-8")
        (out / "result.txt").write_text(console_line(record) + "\n", encoding="utf-8")
        mismatches = record.result.mismatches if record.result is not None else ()
        page = replay_html(sc, transcript_lines(record), mismatches, console_line(record), report.engine_label)
        (out / "replay.html").write_text(page, encoding="utf-8")
        replay = out / "replay.sh"
        replay.write_text(_replay_script(report, sc.id), encoding="utf-8")
        replay.chmod(0o755)
        written.append(out)
    return written


def transcript_lines(record: Record) -> list[Json]:
    """Every message of the scenario, in order, one JSON object each: {"to": "engine"|"harness",
    "message": ...}, or "line" for what the engine wrote that is not JSON."""
    out: list[Json] = []
    if record.engine_transcript:
        for direction, line in record.engine_transcript:
            to = "engine" if direction == ">" else "harness"
            try:
                out.append({"to": to, "message": json.loads(line)})
            except (ValueError, RecursionError):  # not JSON, or nested past what a report can hold
                out.append({"to": to, "line": line})
    elif record.result is not None:  # in process: the requests and replies as objects
        for kind, request, reply in record.result.transcript:
            out += [{"to": "engine", "message": {"cmd": kind, **request}}, {"to": "harness", "message": reply}]
    return out


def _replay_script(report: RunReport, scenario_id: str) -> str:
    """The scenario of the folder again, from any copy of the folder: the scenario.yaml beside the
    script (an edited one is what runs), the run's engine command (GOSTOP_ENGINE replaces it) run
    from the run's working directory when that exists (a relative command means what it meant in
    the run), by the run's interpreter when it exists (a downloaded CI artifact has none), else by
    gostop-conformance on PATH."""
    engine = shlex.join(report.engine_command) if report.engine_command else ""
    how = (
        "# Another engine command: GOSTOP_ENGINE='node my_engine.js' ./replay.sh (as for gostop-conformance run).\n"
        if engine
        else "# The run used the reference engine in process; GOSTOP_ENGINE='node my_engine.js' ./replay.sh runs another.\n"
    )
    return (
        "#!/bin/sh\n"
        f"# Runs scenario {scenario_id} again from the scenario.yaml beside this script (edit it to try a change),\n"
        "# against the engine of the run that wrote this folder; works from any copy of the folder.\n"
        + how
        + "# Another harness: GOSTOP_CONFORMANCE='gostop-conformance' ./replay.sh (default: the run's, else the one on PATH).\n"
        'here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || exit 2\n'
        f"engine=${{GOSTOP_ENGINE:-{shlex.quote(engine)}}}\n"
        f"python={shlex.quote(sys.executable)}\n"
        f"workdir={shlex.quote(os.getcwd())}\n"
        'if [ -d "$workdir" ]; then cd "$workdir" || exit 2; fi\n'
        'set -- run --scenarios "$here" --no-reports\n'
        'if [ -n "$engine" ]; then set -- "$@" --engine "$engine"; fi\n'
        "# the harness command is words (GOSTOP_CONFORMANCE='python3 -m gostop_conformance.harness')\n"
        'if [ -n "${GOSTOP_CONFORMANCE-}" ]; then exec $GOSTOP_CONFORMANCE "$@"; fi\n'
        'if [ -x "$python" ]; then exec "$python" -m gostop_conformance.harness "$@"; fi\n'
        'exec gostop-conformance "$@"\n'
    )


def _scenario_json(record: Record) -> Json:
    sc = record.scenario
    raw: Json = {"id": sc.id, "title": sc.title, "clauses": list(sc.clauses), "ruleset": sc.ruleset}
    if sc.options:
        raw["options"] = sc.options
    rounds: list[Json] = []
    for rnd in sc.rounds:
        item: Json = {"deal": rnd.deal if "seed" in rnd.deal else {**rnd.deal, "complete": False}}
        if rnd.after_deal:
            item["after_deal"] = rnd.after_deal
        item["steps"] = [
            {"act": st.act, **({"expect": st.expect} if st.expect else {}), **({"reject": st.reject} if st.reject else {})}
            for st in rnd.steps
        ]
        if rnd.final:
            item["final"] = rnd.final
        rounds.append(item)
    if len(rounds) == 1:
        raw.update(rounds[0])
    else:
        raw["rounds"] = rounds
    if sc.match:
        raw["match"] = sc.match
    return {"schema_version": 1, "scenarios": [raw]}


def support_profile(report: RunReport) -> list[str]:
    """The engine and its declaration in three lines (report.jsonl's header has it whole)."""
    hello = report.hello
    engine = hello.get("engine", {})
    name, version, language = (
        engine_text(engine.get(k, default)) for k, default in (("name", "?"), ("version", ""), ("language", "unknown language"))
    )
    lines = [f"engine: {name} {version} ({language})"]
    claims = []
    for item in hello.get("rulesets") or []:
        if isinstance(item, dict):
            exceptions = item.get("options") or {}
            claims.append(f"{item.get('id')} (except {counted(len(exceptions), 'option')})" if exceptions else str(item.get("id")))
        else:
            claims.append(str(item))
    lines.append("rulesets: " + (", ".join(claims) or "none claimed"))
    options = hello.get("options", {})
    every = sum(1 for v in options.values() if v == "all")
    lines.append(f"options: {len(options)} declared ({every} with every value); {len(option_registry()) - len(options)} not declared")
    return lines
