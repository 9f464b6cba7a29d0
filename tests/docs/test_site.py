"""The documentation site (mkdocs.yml, docs/_build/hooks.py).

- The site builds with `mkdocs build --strict`; every clause, option, ruleset, scenario and card has
  its page or anchor; every internal link and picture of the built site resolves.
- The generated content does not depend on the hash seed (dict and set ordering).
- The tutorial tells the truth: its CLI flags exist, its smoke outputs are what the skeleton
  adapters and the toy adapters (Python and JavaScript) print, each toy's run passes every scenario
  it runs (at least TOY_MIN_CHECKED) and prints the summary it quotes, the scenario ids it names
  exist.
- In headless Chromium (/usr/bin/chromium, driven over the DevTools protocol with the standard
  library only; skipped when it is missing) a rules page, the card gallery, a scenario page and the
  filtered catalogue render their card pictures without console errors; the step-through and the
  filters work. The browser sees no Korean system font (tests/browser.py), as a reader's machine
  without one: hangul is drawn all the same, by the site's own webfont, not as empty boxes. On a
  390 px phone the learn page does not overflow and its card rows wrap from the left. Screenshots
  go to reports/screenshots/ (or $GOSTOP_SCREENSHOTS).
- The hangul webfont the build ships holds exactly the hangul the built pages show, with its licence.
"""

from __future__ import annotations

import base64
import functools
import html
import http.server
import io
import itertools
import json
import os
import posixpath
import re
import shlex
import shutil
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from gostop_conformance.harness import load_corpus
from gostop_conformance.spec import clauses, deck, option_registry, ruleset_ids, traceability
from tests.browser import DevTools, chromium
from tests.docs.conftest import ENV, REPO, SITE_PATH

if str(REPO / "docs" / "_build") not in sys.path:
    sys.path.insert(0, str(REPO / "docs" / "_build"))

pytest.importorskip("mkdocs", reason="the docs extra (mkdocs-material) is not installed")
pytest.importorskip("material", reason="the docs extra (mkdocs-material) is not installed")

#: where the browser tests put their screenshots (GOSTOP_SCREENSHOTS, else reports/screenshots/)
SCREENSHOTS = Path(os.environ.get("GOSTOP_SCREENSHOTS", str(REPO / "reports" / "screenshots")))


@functools.cache
def corpus() -> list[Any]:
    return load_corpus()


# ------------------------------------------------------------------------------------ the build (conftest.py)


@dataclass
class Page:
    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)  # href of <a>
    assets: list[str] = field(default_factory=list)  # src of img/script, href of <link>
    images: list[str] = field(default_factory=list)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.page.ids.add(a["id"])
        if tag == "a" and "name" in a:
            self.page.ids.add(a["name"])
        if tag == "a" and "href" in a:
            self.page.links.append(a["href"])
        elif tag in ("img", "script") and a.get("src"):
            self.page.assets.append(a["src"])
            if tag == "img":
                self.page.images.append(a["src"])
        elif tag == "link" and a.get("href"):
            self.page.assets.append(a["href"])


@pytest.fixture(scope="module")
def pages(site: Path) -> dict[str, Page]:
    out = {}
    for path in sorted(site.rglob("*.html")):
        collector = _Collector()
        collector.feed(path.read_text(encoding="utf-8"))
        out[path.relative_to(site).as_posix()] = collector.page
    return out


def page_of(src_dir: str) -> str:
    return f"{src_dir}/index.html" if src_dir else "index.html"


def test_every_clause_option_ruleset_scenario_and_card_has_a_page_or_anchor(site: Path, pages: dict[str, Page]) -> None:
    for c in clauses().values():
        assert c.id in pages[page_of(f"rules/{c.area}")].ids, f"no anchor #{c.id} on rules/{c.area}/"
    for oid in option_registry():
        assert oid in pages["options/index.html"].ids, f"no anchor #{oid} on options/"
    for rid in ruleset_ids():
        assert page_of(f"rulesets/{rid}") in pages, f"no page rulesets/{rid}/"
    assert "rulesets/compare/index.html" in pages
    assert corpus()
    for sc in corpus():
        page = page_of(sc.file[: -len(".yaml")])
        assert sc.id in pages[page].ids, f"no anchor #{sc.id} on {page}"
    gallery = pages["cards/index.html"]
    for card in deck().cards:
        svg = site / "cards" / f"{card.id}.svg"
        root = ET.parse(svg).getroot()  # well-formed
        assert root.tag.endswith("svg")
        assert card.id in gallery.ids, f"card {card.id} missing from the gallery"
        assert f"cards/{card.id}.svg" in {(_resolve("cards/index.html", src) or ("", ""))[0] for src in gallery.images}
    assert ET.parse(site / "cards" / "back.svg").getroot().tag.endswith("svg")  # the stock, face down
    for page in ("protocol/index.html", "conformance/index.html", "tutorial/index.html", "scenario-format/index.html"):
        assert page in pages
    for page in ("learn/index.html", "glossary/index.html"):
        assert page in pages


def test_the_traceability_page_lists_every_seed_statement_with_its_clauses(pages: dict[str, Page]) -> None:
    """Seed traceability: an anchor per seed and per statement, a link to every clause a statement
    names, and the departures listed with a link to their row."""
    page = pages["traceability/index.html"]
    targets = [_resolve("traceability/index.html", href) for href in page.links]
    table = traceability()
    for seed in table.seeds:
        assert seed in page.ids
    known = clauses()
    for st in table.statements:
        assert st.id in page.ids, f"no anchor #{st.id} on traceability/"
        for cid in st.named_clauses:
            assert (page_of(f"rules/{known[cid].area}"), cid) in targets, f"{st.id}: no link to {cid}"
    departing = [st.id for st in table.statements if st.status == "departs"]
    assert departing and all(targets.count(("traceability/index.html", sid)) >= 2 for sid in departing)


def _resolve(page: str, url: str) -> tuple[str, str] | None:
    """(site path, fragment) of a relative URL found on `page`; None for external ones."""
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme or url.startswith(("//", "mailto:", "javascript:", "data:")):
        return None
    if not parsed.path:
        return page, parsed.fragment
    path = urllib.parse.unquote(parsed.path)
    # the 404 page links from the site's address (site_url), wherever a missing path is
    if path.startswith("/"):
        assert path.startswith(SITE_PATH), f"{page}: {url} leaves the site's address {SITE_PATH}"
        target = posixpath.normpath(path[len(SITE_PATH) :] or ".")
    else:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
    if target == ".":
        target = ""
    if not target or parsed.path.endswith("/"):
        target = posixpath.join(target, "index.html") if target else "index.html"
    return target, parsed.fragment


def test_every_internal_link_and_picture_resolves(site: Path, pages: dict[str, Page]) -> None:
    problems = []
    for page, info in pages.items():
        for url in info.links + info.assets:
            resolved = _resolve(page, url)
            if resolved is None:
                continue
            target, fragment = resolved
            path = site / target
            if path.is_dir():
                target, path = posixpath.join(target, "index.html"), path / "index.html"
            if not path.is_file():
                problems.append(f"{page}: {url} -> {target} does not exist")
            elif fragment and target.endswith(".html") and fragment not in pages[target].ids:
                problems.append(f"{page}: {url} -> no #{fragment} on {target}")
    assert not problems, "\n".join(sorted(set(problems))[:40])


def test_every_protocol_field_on_the_site_is_described(site: Path) -> None:
    """The protocol reference's field tables (generated from spec/protocol/protocol.schema.json; the
    schema test checks every property has a description) show a description in every row."""
    page = (site / "protocol" / "index.html").read_text(encoding="utf-8")
    rows, empty = 0, []
    for table in re.findall(r"<table>(.*?)</table>", page, re.S):
        head, _, body = table.partition("</thead>")
        if "<th>description</th>" not in head.replace(' style="text-align: left;"', ""):
            continue
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
            cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            rows += 1
            if not cells[-1]:
                empty.append(cells[0])
    assert rows >= 100, f"only {rows} field rows found on protocol/"
    assert not empty, f"protocol fields shown without a description: {empty}"


def test_the_site_ships_a_hangul_font_for_exactly_the_hangul_it_shows(site: Path) -> None:
    from fontTools.ttLib import TTFont

    hangul = re.compile("[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff]")
    shown = {ch for page in site.rglob("*.html") for ch in hangul.findall(html.unescape(page.read_text(encoding="utf-8")))}
    assert {"뻑", "광", "피"} <= shown
    font = TTFont(site / "assets" / "fonts" / "hangul.woff2")
    held = {chr(code) for code in font.getBestCmap()}
    assert held == shown, f"missing {sorted(shown - held)[:20]}, not shown {sorted(held - shown)[:20]}"
    assert font["name"].getDebugName(1) == "Noto Sans KR"
    assert (site / "assets" / "fonts" / "hangul.woff2").stat().st_size < 64_000, "the hangul font grew past 64 kB"
    licence = (site / "assets" / "fonts" / "OFL.txt").read_text(encoding="utf-8")
    assert "Copyright 2014-2021 Adobe" in licence and "SIL OPEN FONT LICENSE Version 1.1" in licence
    css = (site / "assets" / "hangul.css").read_text(encoding="utf-8")
    face = re.search(r'@font-face \{ font-family: "Gostop Hangul";[^}]*src: url\("([^"]+)"\) format\("woff2"\)', css)
    assert face and posixpath.normpath(posixpath.join("assets", face.group(1))) == "assets/fonts/hangul.woff2", "no @font-face for the font"
    for stack in ("--md-text-font-family", "--md-code-font-family"):
        declared = re.search(stack + r":([^;]+);", css)
        assert declared and '"Gostop Hangul"' in declared.group(1), f"{stack} does not fall back on the site's hangul font"


def test_pages_are_generated_not_copied() -> None:
    """The options, rulesets, conformance pages and card pictures exist only in the build (the hook
    refuses a docs/ file at a generated path). The protocol, cards, rules and scenario catalogue pages
    may be in docs/ only as the portable renderings docs/_build/generate.py commits so that the
    repository reads without a build (tests/docs/test_repository_docs.py checks that they are fresh
    and that nothing else is in their folders); the site renders them its own way."""
    docs = REPO / "docs"
    for name in ("rulesets", "cards", "downloads"):
        assert not (docs / name).exists(), f"docs/{name}/ would shadow generated pages"
    for name in ("options.md", "conformance.md"):
        assert not (docs / name).exists(), f"docs/{name} would shadow a generated page"
    for name in ("protocol.md", "cards.md", "rules/index.md", "scenarios/index.md"):
        text = (docs / name).read_text(encoding="utf-8")
        assert text.startswith("<!-- Generated by docs/_build/generate.py"), f"docs/{name} is not the generated portable page"


_DIGEST = """
import hashlib, sys
sys.path.insert(0, {build!r}); sys.path.insert(0, {repo!r})
from docsgen.model import Model
from docsgen import site
m = Model()
h = hashlib.sha256()
for src, content in [*site.generated_files(m).items(), *site.repository_files(m).items()]:
    h.update(src.encode()); h.update(content.encode())
    for block in m.slots.get(src, []):
        h.update(block.encode())
h.update(repr(site.nav(m)).encode())
print(h.hexdigest())
"""


@pytest.mark.slow
def test_generated_content_does_not_depend_on_hash_seed() -> None:
    code = _DIGEST.format(build=str(REPO / "docs" / "_build"), repo=str(REPO))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**ENV, "PYTHONHASHSEED": seed, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        for seed in ("1", "4242")
    ]
    digests = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-3000:]
        digests.append(out.strip())
    assert digests[0] == digests[1]


# ------------------------------------------------------------------------------------ the tutorial

TUTORIAL = (REPO / "docs" / "tutorial.md").read_text(encoding="utf-8")


def _help(*args: str) -> str:
    proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=120, env=ENV, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_every_flag_the_tutorial_mentions_exists() -> None:
    cli = [str(Path(sys.executable).parent / "gostop-conformance")]
    reference = str(Path(sys.executable).parent / "gostop-reference")
    known = "".join(
        [
            _help(*cli, "run", "--help"),
            _help(*cli, "smoke", "--help"),
            _help(*cli, "support", "--help"),
            _help(*cli, "summary", "--help"),
            _help(*cli, "ledger", "--help"),
            _help(*cli, "fuzz", "--help"),
            _help(*cli, "fuzz-merge", "--help"),
            _help(reference, "play", "--help"),
            _help(sys.executable, "-m", "pytest", "--help"),
        ]
    )
    flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*[a-z0-9]|-q)(?![\w-])", TUTORIAL))
    assert flags, "no flags found"
    missing = sorted(f for f in flags if not re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", known))
    assert not missing, f"flags in docs/tutorial.md that no command knows: {missing}"


def test_the_transcript_replay_recipe_gives_the_engine_what_it_read(tmp_path: Path) -> None:
    """The tutorial's command, run on a failure's transcript.jsonl, gives the requests the engine
    read; piped into the engine alone, they get the replies the transcript holds."""
    recipe = re.search(r'^(python3 -c ".*?") \\\n\s+reports/repro/<scenario id>/transcript\.jsonl > requests\.jsonl$', TUTORIAL, re.M)
    assert recipe, "the replay recipe of section 6 is missing"
    engine = [sys.executable, "-m", "gostop_conformance.mutants", "jjok-no-steal"]
    run = [sys.executable, "-m", "gostop_conformance.harness", "run", "-q", "--id", "capture-jjok-basic"]
    subprocess.run(
        [*run, "--engine", subprocess.list2cmdline(engine), "--report-dir", str(tmp_path / "r")], capture_output=True, check=False
    )
    transcript = tmp_path / "r" / "repro" / "capture-jjok-basic" / "transcript.jsonl"
    command = recipe.group(1).replace("python3", subprocess.list2cmdline([sys.executable]), 1)
    requests = subprocess.run(f"{command} {transcript}", shell=True, capture_output=True, text=True, check=True).stdout
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert [json.loads(r) for r in requests.splitlines()] == [m["message"] for m in lines if m["to"] == "engine"]
    replies = subprocess.run(engine, input=requests, capture_output=True, text=True, check=True).stdout
    assert [json.loads(r) for r in replies.splitlines()] == [m["message"] for m in lines if m["to"] == "harness"]


def _smoke_blocks() -> list[str]:
    """The smoke outputs section 3 quotes: the toy adapter's, then the skeletons'."""
    section = TUTORIAL.split("## 3.", 1)[1].split("## 4.", 1)[0]
    blocks = re.findall(r"```text\n(.*?)```", section, re.S)
    assert len(blocks) == 2, "section 3 quotes the toy's smoke output, then the skeletons'"
    return [str(b) for b in blocks]


@pytest.mark.parametrize("command", ["python3 docs/adapters/skeleton_engine.py", "node docs/adapters/skeleton_engine.js"])
def test_the_skeleton_adapters_print_what_the_tutorial_shows(command: str) -> None:
    program = command.split(maxsplit=1)[0]
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    cli = str(Path(sys.executable).parent / "gostop-conformance")
    proc = subprocess.run([cli, "smoke", "--engine", command], cwd=REPO, capture_output=True, text=True, timeout=120, env=ENV, check=False)
    assert proc.returncode == 1  # a skeleton: the handshake and the card ids pass, the game checks fail
    assert proc.stdout == _smoke_blocks()[1], proc.stdout + proc.stderr


# the tutorial's worked example (docs/adapters/toy_engine.py behind toy_adapter.py, on the kit, and its
# JavaScript port toy_engine.mjs behind toy_adapter.mjs, on kit-js/): run by the very commands the
# tutorial prints, whose `python3` must be one the kit is installed in
TOY = "python3 docs/adapters/toy_adapter.py"
TOY_JS = "node docs/adapters/toy_adapter.mjs"
TOYS = [pytest.param(TOY, id="python"), pytest.param(TOY_JS, id="javascript")]
#: the fewest scenarios the toy's declaration must run (issue 40: the worked example is a real check)
TOY_MIN_CHECKED = 30


def _suite_python_first() -> dict[str, str]:
    return {**ENV, "PATH": os.pathsep.join([str(Path(sys.executable).parent), ENV.get("PATH", "")])}


def _needs_program(command: str) -> None:
    program = command.split(maxsplit=1)[0]
    if program != "python3" and shutil.which(program) is None:  # python3 is the suite's own, put first on PATH
        pytest.skip(f"{program} is not installed (the JavaScript toy runs on Node.js)")


@pytest.mark.parametrize("toy", TOYS)
def test_the_toy_adapter_passes_smoke_as_the_tutorial_shows(toy: str) -> None:
    """Both toys print the one smoke output section 3 quotes."""
    _needs_program(toy)
    assert f'smoke --engine "{toy}"' in TUTORIAL, "section 3 no longer prints this toy's smoke command"
    cli = str(Path(sys.executable).parent / "gostop-conformance")
    env = _suite_python_first()
    proc = subprocess.run([cli, "smoke", "--engine", toy], cwd=REPO, capture_output=True, text=True, timeout=120, env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == _smoke_blocks()[0], proc.stdout


@pytest.mark.parametrize("toy", TOYS)
def test_the_toy_adapter_passes_every_scenario_it_runs_as_the_tutorial_shows(toy: str, tmp_path: Path) -> None:
    """`run` exits 0 (every scenario the toy's declaration runs passes, and at least TOY_MIN_CHECKED
    run) and prints the summary section 5 quotes, the Python toy's, which the JavaScript toy's is
    but for the command it names; after a change to the corpus, paste the new one."""
    _needs_program(toy)
    section = TUTORIAL.split("## 5.", 1)[1].split("## 6.", 1)[0]
    assert f'run --engine "{toy}" -q' in section, "section 5 no longer prints this toy's run command"
    block = re.search(r"```text\n(reports: .*?)```", section, re.S)
    assert block, "the toy's run summary is missing from section 5"
    expected = block.group(1).replace(f"scenarios against {TOY}:", f"scenarios against {toy}:")
    cli = str(Path(sys.executable).parent / "gostop-conformance")
    reports = tmp_path / "reports"
    args = [cli, "run", "--engine", toy, "-q", "--report-dir", str(reports), "--min-checked", str(TOY_MIN_CHECKED)]
    proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=300, env=_suite_python_first(), check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    assert proc.stdout.replace(f"{reports}{os.sep}", "reports/") == expected, proc.stdout


def test_the_scenario_ids_the_tutorial_names_exist() -> None:
    ids = {sc.id for sc in corpus()}
    named = set(re.findall(r"(?:--id |id: |FAIL )([a-z0-9]+-[a-z0-9-]+)", TUTORIAL))
    assert named
    assert not sorted(named - ids)


def test_the_pytest_node_ids_the_tutorial_names_exist() -> None:
    """A node id given back to pytest names a scenario of that area (the plugin refuses any other)."""
    node_ids = {f"gostop::{sc.area}::{sc.id}" for sc in corpus()}
    named = set(re.findall(r"gostop::[a-z0-9-]+::[a-z0-9-]+", TUTORIAL))
    assert named
    assert not sorted(named - node_ids)


def test_the_failure_the_tutorial_shows_is_what_the_skeleton_gets() -> None:
    block = re.search(r"```text\n(FAIL capture-flip[^`]*)```", TUTORIAL)
    assert block, "the example failure is missing from docs/tutorial.md"
    sid = block.group(1).split()[1]
    cli = str(Path(sys.executable).parent / "gostop-conformance")
    proc = subprocess.run(
        [cli, "run", "--engine", f"{sys.executable} docs/adapters/skeleton_engine.py", "--id", sid, "--no-reports", "-q"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
        check=False,
    )
    assert proc.returncode == 1
    assert block.group(1).strip() in proc.stdout, proc.stdout


# ------------------------------------------------------------------------------------ the browser


class _Site(http.server.SimpleHTTPRequestHandler):
    """The built site at the path of its address (site_url), as a host serves it: a missing page is
    answered with 404.html and status 404."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        path = urllib.parse.urlsplit(self.path).path
        if path.startswith(SITE_PATH):
            self.path = "/" + self.path[len(SITE_PATH) :]
            local = Path(self.translate_path(self.path))
            if local.is_file() or (local.is_dir() and (local / "index.html").is_file()):
                return super().send_head()
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(_Site, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{SITE_PATH}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[DevTools]:
    with chromium() as tools:
        yield tools


def _visit(tools: DevTools, url: str, shot: str, full: bool = False, expect_404: bool = False) -> None:
    tools.events.clear()
    tools.call("Page.navigate", {"url": url})
    tools.wait_for("Page.loadEventFired")
    tools.evaluate("new Promise(r => setTimeout(r, 600))")  # let the theme's header transition end
    _shoot(tools, shot, full)
    errors = tools.errors()
    if expect_404:  # the page itself was answered with 404, as a host answers a missing page
        errors = [e for e in errors if "404" not in e]
    assert not errors, f"{url}:\n" + "\n".join(errors)


def _shoot_element(tools: DevTools, selector: str, shot: str, below: int = 0) -> None:
    """A screenshot of one element of the page (and `below` more pixels under it)."""
    box = tools.evaluate(
        f"""(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();
        return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }})()"""
    )
    x, y, w, h = (float(v) for v in box)
    clip = {"x": max(0.0, x - 12), "y": max(0.0, y - 12), "width": w + 24, "height": h + 24 + below, "scale": 1}
    data = tools.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})["data"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / shot).write_bytes(base64.b64decode(data))


def _shoot(tools: DevTools, shot: str, full: bool = False) -> None:
    """A screenshot into SCREENSHOTS: the window, or the whole page (at most 16,000 px high)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    params: dict[str, Any] = {"format": "png"}
    if full:
        height = min(int(tools.evaluate("document.documentElement.scrollHeight")), 16_000)
        params.update(captureBeyondViewport=True, clip={"x": 0, "y": 0, "width": 1280, "height": height, "scale": 1})
    data = tools.call("Page.captureScreenshot", params)["data"]
    (SCREENSHOTS / shot).write_bytes(base64.b64decode(data))


CARD_PICTURES = """(() => {
  const imgs = [...document.querySelectorAll('img.gs-card')];
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'));
  return {count: imgs.length, broken: broken.slice(0, 10), distinct: new Set(imgs.map(i => i.getAttribute('src'))).size};
})()"""


def _pictures(tools: DevTools) -> dict[str, Any]:
    result: dict[str, Any] = tools.evaluate(CARD_PICTURES)
    assert result["count"] > 0, "no card pictures on the page"
    assert not result["broken"], f"card pictures that did not render: {result['broken']}"
    return result


def _example_clause() -> str:
    cited = {c for sc in corpus() for c in sc.clauses}
    return "R-JJOK" if "R-JJOK" in cited else sorted(cited)[0]


def test_a_rules_page_renders_its_clauses_and_examples(browser: DevTools, served: str) -> None:
    cid = _example_clause()
    area = clauses()[cid].area
    _visit(browser, f"{served}rules/{area}/#{cid}", "rules-page.png")
    _pictures(browser)
    assert browser.evaluate(f"!!document.getElementById({json.dumps(cid)})")
    assert browser.evaluate("document.querySelectorAll('details.gs-compact').length") > 0


def test_the_card_gallery_renders_every_card(browser: DevTools, served: str) -> None:
    _visit(browser, f"{served}cards/", "card-gallery.png")
    result = _pictures(browser)
    assert result["distinct"] == len(deck().cards)
    assert browser.evaluate("document.querySelectorAll('.gs-gallery img.gs-card').length") == len(deck().cards)


def test_a_scenario_page_renders_and_steps_through(browser: DevTools, served: str) -> None:
    cid = _example_clause()
    sc = next(s for s in corpus() if cid in s.clauses and s.steps)
    _visit(browser, f"{served}{sc.file[: -len('.yaml')]}/#{sc.id}", "scenario-page.png")
    _pictures(browser)
    state = browser.evaluate(
        """(() => {
      const s = [...document.querySelectorAll('.gs-stepper')].find(x => x.querySelectorAll('.gs-frame').length > 1);
      if (!s) return null;
      const visible = () => [...s.querySelectorAll('.gs-frame')].filter(f => f.offsetParent !== null).length;
      const pos = () => s.querySelector('.gs-pos').textContent;
      const before = {visible: visible(), pos: pos()};
      s.querySelector('.gs-controls').querySelectorAll('button')[2].click();
      return {before, after: {visible: visible(), pos: pos()}};
    })()"""
    )
    assert state is not None, "no step-through view with two frames or more"
    assert state["before"]["visible"] == 1 and state["after"]["visible"] == 1
    assert state["before"]["pos"].startswith("1 / ") and state["after"]["pos"].startswith("2 / ")


def test_the_catalogue_filters_by_clause(browser: DevTools, served: str) -> None:
    cid = _example_clause()
    expected = sum(1 for sc in corpus() if cid in sc.clauses)
    _visit(browser, f"{served}scenarios/?clause={cid}", "scenario-catalogue.png")
    shown = browser.evaluate("document.querySelector('#gs-filter .gs-count').textContent")
    assert shown == f"{expected} of {len(corpus())} scenarios"


# ------------------------------------------------------------------------------------ the player's pages


def test_the_learn_page_pictures_every_lesson(browser: DevTools, served: str) -> None:
    from docsgen.learn import LESSONS

    _visit(browser, f"{served}learn/", "learn-page.png")
    _pictures(browser)
    for anchor in ("deal", "jjok", "scoring", "bak"):
        _shoot_element(browser, f"#scene-{anchor}", f"learn-{anchor}.png")
    found = browser.evaluate(
        "[...document.querySelectorAll('figure.gs-lesson')].map(f => [f.id, f.querySelectorAll('img.gs-card').length])"
    )
    scenes = {fid: n for fid, n in found if fid}
    for lesson in LESSONS:
        assert scenes.get(f"scene-{lesson.anchor}", 0) > 0, f"lesson {lesson.anchor}: no scene with card pictures"
    links = browser.evaluate("[...document.querySelectorAll('figure.gs-lesson figcaption a')].map(a => a.textContent)")
    assert {lesson.scenario for lesson in LESSONS} <= set(links), "a scene does not link its scenario"


def test_the_glossary_shows_every_term_in_hangul_romanisation_and_english(browser: DevTools, served: str) -> None:
    from gostop_conformance.spec import glossary

    _visit(browser, f"{served}glossary/", "glossary.png")
    _pictures(browser)
    _shoot_element(browser, "h3#ppeok", "glossary-ppeok.png", below=260)
    headings = browser.evaluate("Object.fromEntries([...document.querySelectorAll('h3[id]')].map(h => [h.id, h.textContent]))")
    for term in glossary().terms:
        text = headings.get(term.id, "")
        assert term.hangul in text and term.romanisation in text, f"{term.id}: heading {text!r}"


#: draws each text in a font into a canvas and returns its pixels (alpha only), to tell glyphs apart
DRAW = """(font, texts) => texts.map(t => { const c = document.createElement('canvas'); c.width = 72; c.height = 72;
  const x = c.getContext('2d'); x.font = font; x.textBaseline = 'middle'; x.fillText(t, 8, 36);
  return x.getImageData(0, 0, 72, 72).data.filter((_, i) => i % 4 === 3).join(''); })"""
SYLLABLES = ("피", "광", "뻑", "쪽", "고", "스", "톱")


def test_hangul_is_drawn_by_the_site_font_on_a_machine_without_a_korean_font(browser: DevTools, served: str) -> None:
    _visit(browser, f"{served}glossary/", "glossary-no-korean-font.png")
    text = "".join(SYLLABLES)
    state = browser.evaluate(
        f"""(async () => {{
      const draw = {DRAW};
      const probe = document.createElement('p'); probe.textContent = {json.dumps(text)};
      document.querySelector('.md-typeset').append(probe);
      const font = '48px ' + getComputedStyle(probe).fontFamily;  // the page's own stack
      probe.getBoundingClientRect(); await document.fonts.load(font, {json.dumps(text)}); await document.fonts.ready;
      const none = '\\u{{10FFFF}}';  // no font has it: whatever the browser draws for a missing glyph
      return {{font, page: draw(font, [...{json.dumps(SYLLABLES)}, none]), bare: draw('48px sans-serif', ['피', '광', none]),
        faces: [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)}};
    }})()"""
    )
    *syllables, missing = state["page"]
    # the control: without the site's font the browser has none for hangul (else this test proves nothing)
    bare = state["bare"]
    assert bare[0] == bare[1] == bare[2], "the browser draws hangul without the site's font: a Korean system font is not hidden"
    assert all(s != missing for s in syllables), f"hangul drawn as the missing-glyph box with {state['font']}"
    assert len(set(syllables)) == len(SYLLABLES), f"two syllables drawn alike (boxes) with {state['font']}"
    assert '"Gostop Hangul"' in state["font"] and "Gostop Hangul" in state["faces"], state


def test_the_learn_page_on_a_phone_wraps_card_rows_from_the_left(browser: DevTools, served: str) -> None:
    width = 390
    browser.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        _visit(browser, f"{served}learn/", "learn-phone-top.png")
        height = min(int(browser.evaluate("document.documentElement.scrollHeight")), 16_000)
        clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
        data = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})["data"]
        (SCREENSHOTS / "learn-phone.png").write_bytes(base64.b64decode(data))
        state = browser.evaluate(
            """(() => {
          const rows = [...document.querySelectorAll('figure.gs-lesson .gs-cards')].map(row => {
            const box = row.getBoundingClientRect();
            const left = box.left + parseFloat(getComputedStyle(row).paddingLeft);
            const lines = new Map();
            for (const img of row.querySelectorAll(':scope > img, :scope > * > img')) {
              const r = img.getBoundingClientRect(), top = Math.round(r.top);
              if (!lines.has(top)) lines.set(top, []);
              lines.get(top).push([r.left, r.right]);
            }
            return {left, lines: [...lines.values()].map(l => l.sort((a, b) => a[0] - b[0]))};
          });
          return {overflow: document.documentElement.scrollWidth - window.innerWidth, rows};
        })()"""
        )
    finally:
        browser.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 2000, "deviceScaleFactor": 1, "mobile": False})
    assert state["overflow"] <= 0, f"the learn page is {state['overflow']} px wider than a {width} px phone"
    wrapped = [row for row in state["rows"] if len(row["lines"]) > 1]
    assert wrapped, f"no card row wraps at {width} px: the check would prove nothing"
    for n, row in enumerate(state["rows"]):
        for line in row["lines"]:
            indent = line[0][0] - row["left"]
            assert indent < 4, f"card row {n}: a line starts {indent:.0f} px right of the row's left edge"
            gaps = [b[0] - a[1] for a, b in itertools.pairwise(line)]
            assert not gaps or max(gaps) - min(gaps) < 1, f"card row {n}: uneven gaps {gaps}"


def test_the_compatibility_report_shows_the_peers_the_reference_and_its_mutants(browser: DevTools, served: str) -> None:
    from docsgen.compat import EXAMPLE_MUTANTS, peer_runs

    peers = [peer.name for peer in peer_runs()]
    _visit(browser, f"{served}compatibility/", "compatibility-page.png")
    badges = browser.evaluate("[...document.querySelectorAll('table.gs-compat img')].map(i => i.complete && i.naturalWidth > 0)")
    assert badges == [True] * (len(peers) + 1 + len(EXAMPLE_MUTANTS)), f"badges that did not load: {badges}"
    shown = browser.evaluate(
        "[...document.querySelectorAll('table.gs-peers tbody tr')].map(r => r.cells[0].querySelector('a').textContent)"
    )
    assert shown == peers and len(peers) == 2
    declared = browser.evaluate("[...document.querySelectorAll('details summary')].map(s => s.textContent)")
    assert [d.split(":")[0] for d in declared if d.startswith("The declaration of ")] == [f"The declaration of {p}" for p in peers]
    # the page's own tables fit a laptop's width (1280 px): nothing wider than the page
    assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the compatibility page is wider than the page"
    framed = browser.evaluate(
        """new Promise(resolve => { const f = document.querySelector('iframe.gs-report');
        const check = () => { const d = f.contentDocument; if (d && d.querySelector('h1')) resolve(d.querySelector('h1').textContent);
          else setTimeout(check, 100); }; check(); })"""
    )
    assert "compatibility" in framed.lower()
    # the overview fits the framed report too, as narrow as the site's content column
    fits = browser.evaluate(
        """(() => { const d = document.querySelector('iframe.gs-report').contentDocument; const t = d.querySelector('table.overview');
        const w = d.documentElement.clientWidth; return t.getBoundingClientRect().right <= w && d.documentElement.scrollWidth <= w; })()"""
    )
    assert fits, "the report's overview overflows the frame it is shown in on the compatibility page"
    _visit(browser, f"{served}compat/", "compat-report.png")
    rows = browser.evaluate(
        """[...document.querySelectorAll('table.overview tbody tr')].map(r => ({
          engine: r.cells[0].querySelector('a').textContent, verdict: r.cells[2].className,
          badge: r.querySelector('img').complete && r.querySelector('img').naturalWidth > 0,
          links: [...r.querySelectorAll('td a[href^="#"]')].map(a => a.getAttribute('href').slice(1))}))"""
    )
    assert len(rows) == len(peers) + 1 + len(EXAMPLE_MUTANTS) >= 5
    # the overview fits the page at 1280 px, its own width included (the engines' matrices below scroll in their frames)
    assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the report is wider than the page"
    assert browser.evaluate(
        "document.querySelector('table.overview').getBoundingClientRect().right <= document.documentElement.clientWidth"
    ), "the overview is wider than the page"
    assert [row["engine"] for row in rows[: len(peers)]] == peers
    reference = rows[len(peers)]
    assert reference["engine"] == "gostop-reference --stdio" and reference["verdict"] == "ok"
    for row, mutant in zip(rows[len(peers) + 1 :], EXAMPLE_MUTANTS, strict=True):
        assert row["engine"] == f"gostop-mutant {mutant}" and row["verdict"] == "bad", row
        failing = row["links"][1:]  # the first link is the engine's own section
        assert failing, f"{mutant}: no ruleset links to its failures"
        assert browser.evaluate(f"{json.dumps(failing)}.every(id => !!document.getElementById(id))"), f"{mutant}: a ruleset links nowhere"
    assert all(row["badge"] for row in rows)
    replay = browser.evaluate("[...document.querySelectorAll('code.replay')].map(c => c.textContent).slice(0, 3)")
    assert replay and all(r.startswith("gostop-conformance run --engine") for r in replay), replay


SEARCH = """(async (q) => {
  document.querySelector('label[for=__search]').click();
  const input = document.querySelector('input[data-md-component=search-query]');
  input.focus(); input.value = q;
  input.dispatchEvent(new Event('input', {bubbles: true}));
  input.dispatchEvent(new KeyboardEvent('keyup', {bubbles: true, key: 'a'}));
  for (let i = 0; i < 150; i++) {
    const links = [...document.querySelectorAll('.md-search-result__item a.md-search-result__link')];
    if (links.length) return links.map(a => new URL(a.href).pathname + new URL(a.href).hash);
    await new Promise(r => setTimeout(r, 100));
  }
  return [];
})"""


@pytest.mark.parametrize(
    ("query", "section", "shot"),
    [
        ("뻑", "glossary/#ppeok", "search-hangul.png"),
        ("sweep", "glossary/#sseul", "search-english.png"),
        ("ppeok", "glossary/#ppeok", "search-romanisation.png"),
        ("R-JJOK", "rules/events/#R-JJOK", "search-clause-id.png"),
    ],
)
def test_the_search_box_finds_terms_and_clause_ids(browser: DevTools, served: str, query: str, section: str, shot: str) -> None:
    _visit(browser, served, "home.png")
    results = browser.evaluate(f"{SEARCH}({json.dumps(query)})")
    _shoot(browser, shot)
    sections = [r for r in results if "#" in r]
    assert sections and sections[0] == SITE_PATH + section, f"{query}: first sections {sections[:3]}"


# ------------------------------------------------------------------------------------ wide tables, the 404 page


def test_the_ruleset_matrix_scrolls_with_its_option_column_in_view(browser: DevTools, served: str) -> None:
    _visit(browser, f"{served}rulesets/compare/", "ruleset-matrix.png")
    state = browser.evaluate(
        """(async () => {
      const wrap = document.querySelector('.gs-matrix-wrap');
      const first = () => wrap.querySelector('tbody tr th').getBoundingClientRect().left;
      const box = wrap.getBoundingClientRect();
      const heads = [...wrap.querySelectorAll('thead th.gs-rot')];
      const inside = r => r.left >= box.left && r.right <= box.right + 1;
      const shown = () => heads.filter(h => inside(h.getBoundingClientRect())).length;
      const before = {left: first(), shown: shown(), scrollable: wrap.scrollWidth > wrap.clientWidth};
      wrap.scrollLeft = wrap.scrollWidth;
      await new Promise(r => setTimeout(r, 100));
      const last = heads[heads.length - 1].getBoundingClientRect();
      return {before, after: {left: first(), lastVisible: inside(last)}, columns: heads.length};
    })()"""
    )
    _shoot(browser, "ruleset-matrix-scrolled.png")
    assert state["columns"] == len(ruleset_ids())
    assert state["before"]["scrollable"], "the matrix fits: nothing to scroll"
    assert state["before"]["shown"] >= 8, f"only {state['before']['shown']} ruleset columns in view at 1280 px"
    assert abs(state["after"]["left"] - state["before"]["left"]) < 1, "the option column moved when the matrix scrolled"
    assert state["after"]["lastVisible"], "scrolled to the end, the last ruleset is still not in view"


def test_the_catalogue_counts_follow_the_filters(browser: DevTools, served: str) -> None:
    cid = _example_clause()
    _visit(browser, f"{served}scenarios/?clause={cid}", "scenario-catalogue-filtered.png")
    counts = browser.evaluate(
        "Object.fromEntries([...document.querySelectorAll('.gs-area-count')].map(c => [c.dataset.area, c.textContent]))"
    )
    for area in sorted({sc.area for sc in corpus()}):
        total = sum(1 for sc in corpus() if sc.area == area)
        shown = sum(1 for sc in corpus() if sc.area == area and cid in sc.clauses)
        assert counts[area] == (str(total) if shown == total else f"{shown} of {total}"), area


def test_a_missing_page_gets_the_404_page_in_the_site_style(browser: DevTools, served: str) -> None:
    _visit(browser, f"{served}no/such/page/", "404.png", expect_404=True)
    state = browser.evaluate(
        """(async () => ({
      title: document.querySelector('h1') && document.querySelector('h1').textContent,
      header: getComputedStyle(document.querySelector('.md-header')).backgroundColor,
      links: await Promise.all([...document.querySelectorAll('a[href]')].map(a => a.href)
        .filter(h => h.startsWith(location.origin)).slice(0, 40).map(h => fetch(h).then(r => [h, r.status])))
    }))()"""
    )
    assert "404" in (state["title"] or "")
    assert {"learn/", "glossary/", "rules/"} <= {h.removeprefix(served) for h, _ in state["links"]}, "the 404 page offers no way on"
    assert state["header"] not in ("rgba(0, 0, 0, 0)", "transparent"), "the 404 page has no site style"
    broken = [h for h, status in state["links"] if status != 200]
    assert state["links"] and not broken, f"links of the 404 page that do not resolve: {broken}"


def test_the_tutorials_ci_recipe_installs_only_the_package_and_writes_the_job_summary() -> None:
    """Section 8's GitHub workflow: the package from the repository (no dev extras, no checkout of
    the suite, no make), the suite run against the user's engine, summary.md of that run appended
    to $GITHUB_STEP_SUMMARY and the reports uploaded, both also when the run fails."""
    import yaml

    section = TUTORIAL.split("## 8.", 1)[1].split("## 9.", 1)[0]
    workflow = yaml.safe_load(re.search(r"```yaml\n(# \.github/workflows/conformance\.yml.*?)```", section, re.S).group(1))
    steps = workflow["jobs"]["gostop"]["steps"]
    runs = [str(s["run"]) for s in steps if "run" in s]
    assert not any("make" in r.split() or "[dev]" in r or ".[" in r for r in runs), runs
    assert [s.get("uses", "").split("@")[0] for s in steps if "uses" in s] == [
        "actions/checkout",
        "actions/setup-python",
        "actions/upload-artifact",
    ]
    [install] = [r for r in runs if "pip install" in r]
    assert re.fullmatch(r'pip install "git\+https://github\.com/<owner>/gostop-conformance"', install.strip())
    [suite] = [r for r in runs if r.split()[:2] == ["gostop-conformance", "run"]]
    args = shlex.split(suite)
    assert args[args.index("--engine") + 1] == "node my_engine.js"
    reports = args[args.index("--report-dir") + 1]
    [summary] = [s for s in steps if "GITHUB_STEP_SUMMARY" in str(s.get("run", ""))]
    assert summary["if"] == "always()" and summary["run"].strip() == f'cat {reports}/summary.md >> "$GITHUB_STEP_SUMMARY"'
    [upload] = [s for s in steps if s.get("uses", "").startswith("actions/upload-artifact")]
    assert upload["if"] == "always()" and upload["with"]["path"].rstrip("/") == reports
    # the flags of the recipe's run exist (the action's own steps are checked in tests/conformance/test_action.py)
    known = _help(str(Path(sys.executable).parent / "gostop-conformance"), "run", "--help")
    assert all(re.search(rf"(?<![\w-]){re.escape(a)}(?![\w-])", known) for a in args if a.startswith("--"))
