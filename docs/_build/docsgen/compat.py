"""The compatibility report as worked examples: the reference engine and semantic mutants of it.

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
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from docsgen.links import Ctx, esc
from docsgen.model import Model
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
OVERVIEW_ENGINE = re.compile(r'<td><a href="#[^"]*">([^<]*)</a> <img alt="badge" src="(badges/[^"]+)"></td>')


def compat_page(m: Model, files: dict[str, str]) -> str:
    ctx = Ctx(SRC, m)
    named = {html.unescape(label): f"{FOLDER}/{src}" for label, src in OVERVIEW_ENGINE.findall(files.get(f"{FOLDER}/index.html", ""))}
    rows = []
    for ex in examples():
        badge = named.get(ex.label)
        if badge is None or badge not in files:
            raise ValueError(f"{SRC}: the report shows no engine {ex.label!r} with its badge (it shows {sorted(named)})")
        broken = f"{esc(ex.description)} ({ctx.clause_a(ex.clause)})" if ex.clause else esc(ex.description)
        rows.append(
            f"<tr><td><code>{esc(ex.label)}</code></td><td>{broken}</td>"
            f'<td><img src="{ctx.href(badge)}" alt="badge of {esc(ex.label)}"></td></tr>'
        )
    commands = [f'gostop-conformance run --engine "{ex.label}" --report-dir reports/{_slug(ex.mutant or "reference")}' for ex in examples()]
    commands.append("gostop-conformance report reports/*/report.jsonl --out compat/")
    report = ctx.href(f"{FOLDER}/index.html")
    return "\n".join(
        [
            "---\nhide:\n  - navigation\n  - toc\n---\n",
            "<!-- Generated at build time by docs/_build/docsgen/compat.py: the runs and the report are made when the site is built. -->\n",
            "# Compatibility report: worked examples\n",
            "`gostop-conformance report` reads the saved results (`report.jsonl`) of any number of engines, "
            "versions or shards and writes a static page, engines by rulesets, each cell linking to the failing "
            "scenarios with their clauses and the command that replays each one, and a badge per engine. "
            f"The report below is made when this site is built, for the reference engine and for "
            f"{len(EXAMPLE_MUTANTS)} of its semantic mutants: the reference engine with one rule deliberately "
            f"broken, which the suite must catch (the [mutation kill rate]({ctx.md('conformance.md', 'mutation')}) "
            "covers them all). Made with:\n",
            "```sh\n" + "\n".join(commands) + "\n```\n",
            ctx.slot(
                '<table class="gs-compat"><thead><tr><th>engine</th><th>what is broken</th><th>badge</th></tr></thead>'
                f"<tbody>{''.join(rows)}</tbody></table>"
            )
            + "\n",
            f'<a href="{report}">Open the report on a page of its own</a>.\n',
            ctx.slot(f'<iframe class="gs-report" src="{report}" title="the compatibility report" loading="lazy"></iframe>') + "\n",
        ]
    )
