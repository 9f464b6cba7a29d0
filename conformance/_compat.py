"""`gostop-conformance report`: a static HTML compatibility report, and a badge per engine, from
saved runs (report.jsonl files) of any number of engines and versions.

The page has one section per engine: its latest run as a matrix of rulesets by areas (each cell
the scenarios passed of those checked, linking to the failures below it, each with its clauses,
its first problem and the command that replays it), its declaration, and, when several runs of
the engine are given (versions, or the same version over time), their counts side by side. An
overview table compares the engines first. Everything an engine wrote is escaped. Deterministic:
the same reports give the same files.
"""

from __future__ import annotations

import html
import json
import re
import shlex
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from gostop_conformance.harness._compare import PILE_PATH, card_difference
from gostop_conformance.harness._saved import SavedRun, corpus_of, runs_corpora
from gostop_conformance.spec import clauses

Json = dict[str, Any]

#: outcomes counted as failures in the report (the run's own verdict counts XPASS under --strict too)
FAILED: Final = frozenset({"FAIL", "ERROR", "CRASH", "TIMEOUT", "PROTOCOL", "XPASS"})
#: outcomes that were not checked
UNCHECKED: Final = frozenset({"UNSUPPORTED", "NOT_RUN"})


@dataclass
class EngineRuns:
    """Every given run of one engine (by name), in the order given; the last is the one shown."""

    name: str
    runs: list[SavedRun] = field(default_factory=list)

    @property
    def latest(self) -> SavedRun:
        return self.runs[-1]


def group(runs: Sequence[SavedRun]) -> list[EngineRuns]:
    """Runs by engine name, engines in the order they first appear."""
    engines: dict[str, EngineRuns] = {}
    for run in runs:
        name = _engine_name(run)
        engines.setdefault(name, EngineRuns(name)).runs.append(run)
    return list(engines.values())


def _engine_name(run: SavedRun) -> str:
    """What the report calls the engine: the run's `--label`, else the name its hello gives (the
    versions of one engine are then its runs side by side), else its command."""
    engine = run.header.get("engine") or {}
    return str(run.header.get("label") or engine.get("name") or run.header.get("engine_label") or run.path.parent.name)


def badge_names(engines: Sequence[EngineRuns]) -> dict[str, str]:
    """Each engine's badge file: its name's slug, numbered when two names slug alike (two engines
    never share a badge)."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for e in engines:
        base = slug(e.name)
        name, k = base, 2
        while name in taken:
            name, k = f"{base}-{k}", k + 1
        taken.add(name)
        out[e.name] = name
    return out


def _version(run: SavedRun) -> str:
    return str((run.header.get("engine") or {}).get("version", "?"))


def counts(run: SavedRun) -> Counter[str]:
    return Counter(str(r.get("outcome")) for r in run.records)


def summary_numbers(run: SavedRun) -> tuple[int, int, int, int]:
    """(passed, failed, checked, unsupported) of a run."""
    c = counts(run)
    failed = sum(n for outcome, n in c.items() if outcome in FAILED)
    unchecked = sum(n for outcome, n in c.items() if outcome in UNCHECKED)
    return c["PASS"], failed, len(run.records) - unchecked, unchecked


def not_green(run: SavedRun) -> str | None:
    """Why a run without a failing scenario is still not green (its footer says so: interrupted, a
    failed handshake, too little checked, a stale ledger under --strict), else None."""
    footer = run.footer
    if footer.get("ok") is True:
        return None
    if footer.get("complete") is not True:
        return "interrupted"
    if footer.get("aborted"):
        return "handshake failed"
    return "not green"


def badge_svg(label: str, run: SavedRun) -> str:
    """A shields-style badge: the passed scenarios of those checked, green only when the run was
    green (no failure, and its footer says ok: an interrupted run is never green)."""
    passed, failed, checked, _ = summary_numbers(run)
    value = f"{passed}/{checked} pass" if checked else "nothing checked"
    colour = "#4c1" if checked and not failed else ("#dfb317" if checked and failed * 10 <= checked else "#e05d44")
    why = not_green(run)
    if why is not None and colour == "#4c1":
        value, colour = f"{value}, {why}", "#9f9f9f"
    left, right = 7 * len(label) + 10, 7 * len(value) + 10
    width = left + right
    esc = html.escape
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" aria-label="{esc(label)}: {esc(value)}">'
        f"<title>{esc(label)}: {esc(value)}</title>"
        f'<rect width="{left}" height="20" fill="#555"/><rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="{left / 2:.0f}" y="14">{esc(label)}</text><text x="{left + right / 2:.0f}" y="14">{esc(value)}</text></g></svg>\n'
    )


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "engine"


def render(runs: Sequence[SavedRun], title: str = "Go-Stop engine compatibility") -> tuple[str, dict[str, str]]:
    """The report page and its badges (file name -> SVG)."""
    engines = group(runs)
    esc = html.escape
    names = badge_names(engines)
    badges = {f"{names[e.name]}.svg": badge_svg("gostop-conformance", e.latest) for e in engines}
    rulesets = sorted({str(r.get("ruleset")) for e in engines for r in e.latest.records})
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        "<p>Each engine's latest run of the conformance suite: scenarios passed of those checked (a scenario is "
        "checked unless the engine's declaration leaves it UNSUPPORTED). A ruleset with failures links to them.</p>",
        *_corpora_warning(runs),
        '<h2 id="overview">Overview</h2>',
        # four columns whatever the number of rulesets: the rulesets of a row wrap within its last
        # cell, so that the overview fits a laptop's width beside any number of engines
        '<table class="overview"><thead><tr><th>engine</th><th>version</th><th>verdict</th><th>by ruleset</th></tr></thead><tbody>',
    ]
    for e in engines:
        run = e.latest
        passed, failed, checked, unsupported = summary_numbers(run)
        why = not_green(run)
        verdict = f"{passed} pass, {failed} fail, {unsupported} unsupported" + (f" ({why})" if why else "")
        state = _state(failed, checked) if why is None or failed else "bad"
        row = [
            f'<td><a href="#{names[e.name]}">{esc(e.name)}</a><br><img alt="badge" src="badges/{names[e.name]}.svg"></td>',
            f"<td>{esc(_version(run))}</td>",
            f'<td class="{state}">{esc(verdict)}</td>',
            f"<td>{_ruleset_list(run, rulesets, names[e.name])}</td>",
        ]
        out.append("<tr>" + "".join(row) + "</tr>")
    out.append("</tbody></table>")
    for e in engines:
        out += _engine_section(e, rulesets, names[e.name])
    out.append("</body></html>")
    return "\n".join(out) + "\n", badges


def _state(failed: int, checked: int) -> str:
    if not checked:
        return "none"
    return "ok" if not failed else "bad"


def _ruleset_list(run: SavedRun, rulesets: Sequence[str], anchor: str) -> str:
    """A run's rulesets as a wrapping list: each checked one with its passes of the checked
    scenarios (linking to its failures), the rulesets it checked nothing of named once at the end."""
    esc = html.escape
    items, unchecked = [], []
    for rid in rulesets:
        mine = [r for r in run.records if r.get("ruleset") == rid]
        checked = [r for r in mine if r.get("outcome") not in UNCHECKED]
        if not checked:
            unchecked.append(rid)
            continue
        failed = sum(1 for r in checked if r.get("outcome") in FAILED)
        passed = sum(1 for r in checked if r.get("outcome") == "PASS")
        text = f"{esc(rid)} {passed}/{len(checked)}"
        link = f'<a href="#{anchor}-{slug(rid)}">{text}</a>' if failed else text
        items.append(f'<li class="{_state(failed, len(checked))}" title="{len(mine) - len(checked)} unsupported">{link}</li>')
    if unchecked:
        items.append(f'<li class="none">nothing checked: {esc(", ".join(unchecked))}</li>')
    return f'<ul class="rulesets">{"".join(items)}</ul>'


def _corpora_warning(runs: Sequence[SavedRun]) -> list[str]:
    """The page says, above everything, when the runs it compares read different corpora."""
    warning = runs_corpora(runs)
    return [f'<p class="warning"><b>Warning:</b> {html.escape(warning)}.</p>'] if warning else []


def _suite_line(run: SavedRun) -> str:
    """What a run was judged by: the suite's and the protocol's versions and the corpus's digest."""
    header = run.header
    return (
        f'<p class="suite">Judged by gostop-conformance {html.escape(str(header.get("suite_version", "?")))}, '
        f"protocol {html.escape(str(header.get('protocol', '?')))}, corpus <code>{html.escape(corpus_of(run))}</code>.</p>"
    )


def _cell(records: Sequence[Json], anchor: str) -> str:
    if not records:
        return '<td class="none">-</td>'
    checked = [r for r in records if r.get("outcome") not in UNCHECKED]
    failed = [r for r in checked if r.get("outcome") in FAILED]
    passed = sum(1 for r in checked if r.get("outcome") == "PASS")
    text = f"{passed}/{len(checked)}" if checked else "unsupported"
    link = f'<a href="#{anchor}">{text}</a>' if failed else text
    return f'<td class="{_state(len(failed), len(checked))}" title="{len(records) - len(checked)} unsupported">{link}</td>'


def _engine_section(e: EngineRuns, rulesets: Sequence[str], anchor: str) -> list[str]:
    esc = html.escape
    run = e.latest
    header = run.header
    support = header.get("support") or {}
    claims = [
        c if isinstance(c, str) else f"{c.get('id')} (except {len(c.get('options') or {})} options)" for c in support.get("rulesets") or []
    ]
    exceptions = sorted({k for c in support.get("rulesets") or [] if isinstance(c, dict) for k in c.get("options") or {}})
    areas = sorted({str(r.get("area")) for r in run.records})
    out = [
        f'<h2 id="{anchor}">{esc(e.name)} {esc(_version(run))}</h2>',
        _suite_line(run),
        f"<p>Declares: rulesets {esc(', '.join(claims) or 'none')}; {len(support.get('options') or {})} options; "
        f"features {esc(', '.join(support.get('features') or []) or 'none')}; positions {esc(str(support.get('positions', 'any')))}.</p>",
        *(
            [f"<details><summary>The options declared as exceptions</summary><p>{esc(', '.join(exceptions))}</p></details>"]
            if exceptions
            else []
        ),
        '<div class="scroll"><table class="matrix"><thead><tr><th>ruleset \\ area</th>'
        + "".join(f"<th>{esc(a)}</th>" for a in areas)
        + "</tr></thead><tbody>",
    ]
    for rid in rulesets:
        row = [f"<th>{esc(rid)}</th>"]
        for area in areas:
            mine = [r for r in run.records if r.get("ruleset") == rid and r.get("area") == area]
            row.append(_cell(mine, f"{anchor}-{slug(rid)}"))
        out.append("<tr>" + "".join(row) + "</tr>")
    out.append("</tbody></table></div>")
    out += _by_clause(run)
    if len(e.runs) > 1:
        out.append(
            '<h3>Runs</h3><table class="trend"><thead><tr><th>report</th><th>version</th><th>corpus</th><th>pass</th><th>fail</th>'
            "<th>checked</th><th>unsupported</th></tr></thead><tbody>"
        )
        for saved in e.runs:
            passed, failed, checked, unsupported = summary_numbers(saved)
            out.append(
                f"<tr><td>{esc(str(saved.path))}</td><td>{esc(_version(saved))}</td><td><code>{esc(corpus_of(saved))}</code></td>"
                f"<td>{passed}</td><td>{failed}</td>"
                f"<td>{checked}</td><td>{unsupported}</td></tr>"
            )
        out.append("</tbody></table>")
    command = header.get("engine_command")
    for rid in rulesets:
        failures = [r for r in run.records if r.get("ruleset") == rid and r.get("outcome") in FAILED]
        if not failures:
            continue
        out.append(f'<h3 id="{anchor}-{slug(rid)}">{esc(rid)}: {len(failures)} failing</h3><ul class="failures">')
        for r in failures:
            replay = ["gostop-conformance", "run", "--id", str(r.get("id"))]
            if command:
                replay[2:2] = ["--engine", shlex.join([str(a) for a in command])]
            clauses = ", ".join(f"{c} ({_title(str(c))})" for c in r.get("clauses") or [])
            out.append(
                f"<li><code>{esc(str(r.get('id')))}</code> <b>{esc(str(r.get('outcome')))}</b> [{esc(clauses)}]: "
                f'{esc(_first_problem(r))}<br><code class="replay">{esc(shlex.join(replay))}</code></li>'
            )
        out.append("</ul>")
    return out


def _by_clause(run: SavedRun) -> list[str]:
    """The failures of a run grouped by the clauses their scenarios cite, the most failed first."""
    failed: Counter[str] = Counter()
    checked: Counter[str] = Counter()
    for r in run.records:
        if r.get("outcome") in UNCHECKED:
            continue
        for clause in dict.fromkeys(str(c) for c in r.get("clauses") or []):
            checked[clause] += 1
            failed[clause] += r.get("outcome") in FAILED
    rows = sorted(((c, n) for c, n in failed.items() if n), key=lambda item: (-item[1], item[0]))
    if not rows:
        return []
    esc = html.escape
    head = "<tr><th>clause</th><th>title</th><th>failed</th><th>of checked</th></tr>"
    out = [f'<h3>Failures by clause</h3><table class="clauses"><thead>{head}</thead><tbody>']
    out += [f"<tr><td>{esc(c)}</td><td>{esc(_title(c))}</td><td>{n}</td><td>{checked[c]}</td></tr>" for c, n in rows]
    out.append("</tbody></table>")
    return out


def _title(clause: str) -> str:
    found = clauses().get(clause)
    return found.title if found is not None else ""


def _first_problem(record: Json) -> str:
    """Where the run first went wrong, as an author acts on it: where two event or action lists
    part (the mismatch's note), a captured pile's difference as compared (its note: junk by
    units), other card lists as missing and extra, else expected and got."""
    mismatches = [m for m in record.get("mismatches") or [] if m.get("binding", True)]
    if mismatches:
        m = mismatches[0]
        cards = card_difference(m.get("expected"), m.get("actual"))
        if m.get("note") and str(m.get("path", "")).startswith(("events.", "legal.", PILE_PATH)):
            text = f"{m.get('path')}: {m.get('note')}"
        elif cards is not None:
            text = f"{m.get('path')}: {cards}"
        else:
            text = f"{m.get('path')}: expected {json.dumps(m.get('expected'))}, got {json.dumps(m.get('actual'))}"
    else:
        text = str(record.get("error") or record.get("reason") or "")
    text = " ".join(text.split())
    return text if len(text) <= 300 else text[:299] + "…"


def write(out: Path, runs: Sequence[SavedRun]) -> list[Path]:
    """index.html and badges/<engine>.svg in `out`; the files written."""
    page, badges = render(runs)
    (out / "badges").mkdir(parents=True, exist_ok=True)
    (out / "index.html").write_text(page, encoding="utf-8")
    written = [out / "index.html"]
    for name, svg in badges.items():
        (out / "badges" / name).write_text(svg, encoding="utf-8")
        written.append(out / "badges" / name)
    return written


_CSS: Final = (
    "body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:80rem}"
    "table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:center}"
    ".scroll{overflow-x:auto}.scroll th:first-child,.scroll td:first-child{position:sticky;left:0;background:#fff;text-align:left}"
    "td.ok{background:#dfd}td.bad{background:#fdd}td.none{color:#888}"
    "ul.failures li{margin:.4rem 0}code.replay{font-size:.8em;color:#444;overflow-wrap:anywhere}"
    "table.clauses td{text-align:left}"
    ".scroll{max-width:100%}table.overview th,table.matrix th{font-size:.85em}"
    "table.overview{width:100%}table.overview td{text-align:left}table.overview td:last-child{width:60%}"
    "ul.rulesets{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem}"
    "ul.rulesets li{border:1px solid #ccc;padding:.1rem .35rem;font-size:.85em;white-space:nowrap}"
    "ul.rulesets li.ok{background:#dfd}ul.rulesets li.bad{background:#fdd}ul.rulesets li.none{color:#666;white-space:normal}"
    "p.warning{background:#fff3cd;border:1px solid #e0c36b;padding:.5rem}p.suite{color:#444}"
)
