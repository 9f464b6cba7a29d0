"""The compatibility report: the real engines of peers/ beside the reference engine, and semantic
mutants of it as worked examples.

The peers' runs are not made here: `peers/verdict.py` (`make peer-reports`) runs the suite against
each peer's adapter and commits the run's report.jsonl, the adapter's hello (its declaration) and
the engine checkout's commit and date under `peers/<peer>/report/`, since the site is built without
the peers' checkouts (and no engine's code is in this repository). A saved report made against
another corpus than the one the site is built from is shown as such, with both digests: it stays
true of the corpus it ran, and only its peer's checkout can make it again.

Generated when the site is built, exactly as a user makes it: `gostop-conformance run` against each
engine over stdio (`gostop-reference --stdio`, then `gostop-mutant NAME`: the reference engine with
one rule deliberately broken, gostop_conformance.mutants.MUTANTS), then `gostop-conformance report` over the saved
report.jsonl files. The runs go in parallel and take about two seconds each on this machine (the
whole corpus over stdio), so the build stays well under a minute; nothing is committed. The report
page and its badges are copied into the site under compat/, and `compat_page` introduces them.

The engines are named by their commands without a path (found through PATH, the environment's own
bin directory first), so the report reads the same on every machine; the runs are made without
`--timing`, so the files are the same bytes for the same corpus and engines.
"""

from __future__ import annotations

import html
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docsgen.links import Ctx, esc
from docsgen.model import Model
from gostop_conformance.harness import corpus_digest
from gostop_conformance.mutants import MUTANTS

SRC = "compatibility.md"
FOLDER = "compat"  # the report's own files in the site: compat/index.html, compat/badges/*.svg
#: the worked examples: each mutant breaks one rule a newcomer meets on the learn-to-play page
EXAMPLE_MUTANTS = ("jjok-no-steal", "must-match", "go-without-rise")
ENGINE = "gostop-reference --stdio"
FAVICON = "../assets/images/favicon.png"  # the theme's icon, from compat/


@dataclass(frozen=True)
class Example:
    label: str  # the engine command, as the report names the engine
    mutant: str | None
    clause: str | None
    description: str


def examples() -> list[Example]:
    by_name = {m.name: m for m in MUTANTS}
    missing = [name for name in EXAMPLE_MUTANTS if name not in by_name]
    if missing:
        raise ValueError(f"docs/_build/docsgen/compat.py: no semantic mutant {missing} in gostop_conformance.mutants.MUTANTS")
    out = [Example(ENGINE, None, None, "the reference engine itself")]
    for name in EXAMPLE_MUTANTS:
        m = by_name[name]
        out.append(Example(f"gostop-mutant {name}", name, m.clause, m.description))
    return out


#: the peers' adapters and their saved runs (peers/<peer>/report/, written by peers/verdict.py)
PEERS = Path(__file__).resolve().parents[3] / "peers"
REPORT_FOLDER = "report"


@dataclass(frozen=True)
class PeerRun:
    """A peer engine's saved run: its report, the adapter's hello, and what the run was of."""

    name: str
    report: Path
    hello: dict[str, Any]
    engine: dict[str, Any]
    header: dict[str, Any]
    footer: dict[str, Any]


def peer_runs() -> list[PeerRun]:
    """Every peer's saved run, by peer name; ValueError names a saved file that is missing or not
    what peers/verdict.py writes."""
    out = []
    for folder in sorted(p for p in PEERS.iterdir() if (p / "adapter.py").is_file() or (p / "adapter.mjs").is_file()):
        saved = folder / REPORT_FOLDER
        where = saved.relative_to(PEERS.parent)
        try:
            lines = (saved / "report.jsonl").read_text(encoding="utf-8").splitlines()
            hello = json.loads((saved / "hello.json").read_text(encoding="utf-8"))
            engine = json.loads((saved / "engine.json").read_text(encoding="utf-8"))
            header, footer = json.loads(lines[0]), json.loads(lines[-1])
        except (OSError, ValueError, IndexError) as exc:
            raise ValueError(
                f"{where}: expected report.jsonl, hello.json and engine.json as peers/verdict.py writes them ({exc})"
            ) from None
        if header.get("label") != folder.name or engine.get("peer") != folder.name:
            raise ValueError(f"{where}: a run of {header.get('label')!r}, expected {folder.name!r} (peers/verdict.py labels it)")
        out.append(PeerRun(folder.name, saved / "report.jsonl", hello, engine, header, footer))
    return out


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")


def run_reports() -> dict[str, str]:
    """src path under docs/ -> content: compat/index.html and compat/badges/*.svg."""
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "NO_COLOR": "1"}
    env.pop("GOSTOP_ENGINE", None)
    cli = [sys.executable, "-m", "gostop_conformance.harness"]
    with tempfile.TemporaryDirectory(prefix="gostop-compat-") as tmp:
        root = Path(tmp)
        procs = []
        for ex in examples():
            out = root / _slug(ex.label)
            command = [*cli, "run", "--engine", ex.label, "--label", ex.label, "--quiet", "--report-dir", str(out)]
            procs.append((ex, out, subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
        reports = []
        for ex, out, proc in procs:
            stdout, stderr = proc.communicate(timeout=600)
            # 0: every scenario passed; 1: some failed, as a mutant's run must
            if proc.returncode not in (0, 1) or not (out / "report.jsonl").is_file():
                raise RuntimeError(f"{shlex.join(proc.args)} exited {proc.returncode}:\n{stdout[-2000:]}\n{stderr[-2000:]}")
            if (proc.returncode == 0) != (ex.mutant is None):
                raise RuntimeError(f"{ex.label}: expected {'a pass' if ex.mutant is None else 'failures'}, got exit {proc.returncode}")
            reports.append(str(out / "report.jsonl"))
        site = root / "site"
        # the peers first: the real engines lead the overview, the reference and its mutants after
        reports = [str(peer.report) for peer in peer_runs()] + reports
        command = [*cli, "report", *reports, "--out", str(site)]
        proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"gostop-conformance report exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
        files = sorted(p for p in site.rglob("*") if p.is_file())
        out = {f"{FOLDER}/{p.relative_to(site).as_posix()}": p.read_text(encoding="utf-8") for p in files}
    page = out.get(f"{FOLDER}/index.html", "")
    if "<head>" not in page:
        raise RuntimeError("gostop-conformance report wrote no compat/index.html with a <head>")
    # served inside the site, the page takes the site's icon (else the browser asks the host's root for one)
    out[f"{FOLDER}/index.html"] = page.replace("<head>", f'<head><link rel="icon" href="{FAVICON}">', 1)
    return out


#: an engine of the report's overview and its badge, as `gostop-conformance report` writes them
OVERVIEW_ENGINE = re.compile(r'<td><a href="#[^"]*">([^<]*)</a><br><img alt="badge" src="(badges/[^"]+)"></td>')


def _badge(ctx: Ctx, named: dict[str, str], files: dict[str, str], label: str) -> str:
    badge = named.get(label)
    if badge is None or badge not in files:
        raise ValueError(f"{SRC}: the report shows no engine {label!r} with its badge (it shows {sorted(named)})")
    return f'<img src="{ctx.href(badge)}" alt="badge of {esc(label)}">'


def _counts(header_footer: dict[str, Any]) -> str:
    counts = header_footer.get("counts") or {}
    failed = sum(int(n) for outcome, n in counts.items() if outcome in ("FAIL", "ERROR", "CRASH", "TIMEOUT", "PROTOCOL", "XPASS"))
    return f"{counts.get('PASS', 0)} pass, {failed} fail, {counts.get('UNSUPPORTED', 0)} unsupported"


def corpus_note(peer: PeerRun, current: str) -> str:
    """Which corpus a peer's saved run read, said plainly when it is not this site's."""
    digest = str(peer.header.get("corpus_digest") or "no digest recorded")
    if digest == current:
        return f"this site's corpus (<code>{esc(digest)}</code>)"
    return (
        f"<strong>an older corpus</strong> (<code>{esc(digest)}</code>; this site's is <code>{esc(current)}</code>): "
        "scenarios added or changed since are not in it"
    )


def _declaration(peer: PeerRun) -> str:
    """The adapter's hello as a reader checks it: the rulesets it claims, and every option it
    declares otherwise, with the value and its reason (hello.reasons, citing the engine's source)."""
    reasons = peer.hello.get("reasons") or {}
    rows = []
    claims = []
    for claim in peer.hello.get("rulesets") or []:
        if isinstance(claim, str):
            claims.append(f"<code>{esc(claim)}</code>")
            continue
        options = claim.get("options") or {}
        claims.append(f"<code>{esc(str(claim.get('id')))}</code> with {len(options)} options declared otherwise")
        for option, value in sorted(options.items()):
            shown = value if isinstance(value, str) else ", ".join(json.dumps(v) for v in value)
            rows.append(f"<tr><td><code>{esc(option)}</code></td><td>{esc(shown)}</td><td>{_reason(reasons, option)}</td></tr>")
    for option, value in sorted((peer.hello.get("options") or {}).items()):
        shown = value if isinstance(value, str) else ", ".join(json.dumps(v) for v in value)
        rows.append(f"<tr><td><code>{esc(option)}</code></td><td>{esc(shown)} (any ruleset)</td><td>{_reason(reasons, option)}</td></tr>")
    features = ", ".join(peer.hello.get("features") or []) or "none"
    return (
        f"<details><summary>The declaration of {esc(peer.name)}: claims {', '.join(claims) or 'no ruleset'}; "
        f"positions {esc(str(peer.hello.get('positions', 'any')))}; features {esc(features)}</summary>"
        '<table class="gs-compat gs-declaration"><thead><tr><th>option</th><th>declared</th><th>the adapter\'s reason</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></details>"
    )


def _reason(reasons: dict[str, Any], option: str) -> str:
    return esc(" ".join(str(reasons.get(option, "")).split()))


def peers_section(ctx: Ctx, named: dict[str, str], files: dict[str, str]) -> list[str]:
    current = corpus_digest()
    rows, details = [], []
    for peer in peer_runs():
        engine = peer.engine
        rows.append(
            f'<tr><td><a href="{esc(str(engine["repository"]))}">{esc(peer.name)}</a><br>{esc(str(engine["language"]))}</td>'
            f"<td><code>{esc(str(engine['commit'])[:7])}</code><br>{esc(str(engine['commit_date'])[:10])}</td>"
            f"<td>{esc(_counts(peer.footer))}<br>{_badge(ctx, named, files, peer.name)}</td>"
            f"<td>{corpus_note(peer, current)}</td></tr>"
        )
        details.append(_declaration(peer))
    if not rows:
        return []
    return [
        "## Real engines\n",
        "Engines written by others, run through the adapters of the repository's `peers/` folder (each engine's code "
        "stays in its own repository: an adapter loads a checkout of it, and only translates between the engine's API "
        "and the protocol). Each row is the saved run of "
        "`peers/verdict.py`, made from the engine at the commit shown (with its date), whose every failure is classified "
        "in the peer's README with the evidence in the engine's source. The reports are committed, and this page "
        "is built without the engines; `make peer-reports GOSTOP_TS=... GO_STOP_PYTHON=...` makes them again.\n",
        ctx.slot(
            '<table class="gs-compat gs-peers"><thead><tr><th>engine</th><th>commit, date</th><th>verdict</th>'
            f"<th>corpus the run read</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
        + "\n",
        *(ctx.slot(d) + "\n" for d in details),
    ]


def compat_page(m: Model, files: dict[str, str]) -> str:
    ctx = Ctx(SRC, m)
    named = {html.unescape(label): f"{FOLDER}/{src}" for label, src in OVERVIEW_ENGINE.findall(files.get(f"{FOLDER}/index.html", ""))}
    rows = []
    for ex in examples():
        broken = f"{esc(ex.description)} ({ctx.clause_a(ex.clause)})" if ex.clause else esc(ex.description)
        rows.append(f"<tr><td><code>{esc(ex.label)}</code></td><td>{broken}</td><td>{_badge(ctx, named, files, ex.label)}</td></tr>")
    commands = [f'gostop-conformance run --engine "{ex.label}" --report-dir reports/{_slug(ex.mutant or "reference")}' for ex in examples()]
    commands.append("gostop-conformance report peers/*/report/report.jsonl reports/*/report.jsonl --out compat/")
    report = ctx.href(f"{FOLDER}/index.html")
    return "\n".join(
        [
            "---\nhide:\n  - navigation\n  - toc\n---\n",
            "<!-- Generated at build time by docs/_build/docsgen/compat.py: the reference engine's and the mutants' runs and the "
            "report are made when the site is built, from the peers' saved runs (peers/*/report/) too. -->\n",
            "# Compatibility report\n",
            "`gostop-conformance report` reads the saved results (`report.jsonl`) of any number of engines, "
            "versions or shards and writes a static page, engines by rulesets, each ruleset linking to the failing "
            "scenarios with their clauses and the command that replays each one, and a badge per engine. "
            "The report below holds the real engines of `peers/` from their saved runs, and, run when this site is built, "
            f"the reference engine and {len(EXAMPLE_MUTANTS)} of its semantic mutants.\n",
            *peers_section(ctx, named, files),
            "## Worked examples: the reference engine and its mutants\n",
            "A semantic mutant is the reference engine with one rule deliberately broken, which the suite must catch "
            f"(the [mutation kill rate]({ctx.md('conformance.md', 'mutation')}) covers them all). Made with:\n",
            "```sh\n" + "\n".join(commands) + "\n```\n",
            ctx.slot(
                '<table class="gs-compat"><thead><tr><th>engine</th><th>what is broken</th><th>badge</th></tr></thead>'
                f"<tbody>{''.join(rows)}</tbody></table>"
            )
            + "\n",
            "## The report\n",
            f'<a href="{report}">Open the report on a page of its own</a>.\n',
            ctx.slot(f'<iframe class="gs-report" src="{report}" title="the compatibility report" loading="lazy"></iframe>') + "\n",
        ]
    )
