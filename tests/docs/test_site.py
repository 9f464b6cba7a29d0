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
  filters work. Screenshots go to reports/screenshots/ (or $GOSTOP_SCREENSHOTS).
"""

from __future__ import annotations

import base64
import functools
import http.server
import io
import json
import os
import posixpath
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
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
from tests.docs.conftest import ENV, REPO, SITE_PATH

if str(REPO / "docs" / "_build") not in sys.path:
    sys.path.insert(0, str(REPO / "docs" / "_build"))

pytest.importorskip("mkdocs", reason="the docs extra (mkdocs-material) is not installed")
pytest.importorskip("material", reason="the docs extra (mkdocs-material) is not installed")

#: where the browser tests put their screenshots (GOSTOP_SCREENSHOTS, else reports/screenshots/)
SCREENSHOTS = Path(os.environ.get("GOSTOP_SCREENSHOTS", str(REPO / "reports" / "screenshots")))
CHROMIUM = Path(os.environ.get("GOSTOP_CHROMIUM", "/usr/bin/chromium"))


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


class DevTools:
    """A minimal Chrome DevTools Protocol client over one websocket (RFC 6455, client side)."""

    def __init__(self, ws_url: str) -> None:
        u = urllib.parse.urlsplit(ws_url)
        self.sock = socket.create_connection((u.hostname or "127.0.0.1", u.port or 80), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the DevTools websocket closed during the handshake")
            data += chunk
        head, self.buf = data.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.decode(errors="replace"))
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def close(self) -> None:
        self.sock.close()

    def _read(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the DevTools websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _message(self) -> dict[str, Any]:
        parts = []
        while True:
            b1, b2 = self._read(2)
            n = b2 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b2 & 0x80 else b""
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            opcode = b1 & 0x0F
            if opcode == 0x9:
                self._send(0xA, payload)
            elif opcode == 0x8:
                raise ConnectionError("the browser closed the DevTools websocket")
            elif opcode in (0x0, 0x1, 0x2):
                parts.append(payload)
                if b1 & 0x80:
                    loaded: dict[str, Any] = json.loads(b"".join(parts).decode())
                    return loaded

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 60) -> dict[str, Any]:
        self.next_id += 1
        mid = self.next_id
        self._send(0x1, json.dumps({"id": mid, "method": method, "params": params or {}}).encode())
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self._message()
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                result: dict[str, Any] = msg.get("result", {})
                return result
            if "method" in msg:
                self.events.append(msg)
        raise TimeoutError(method)

    def wait_for(self, event: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(e["method"] == event for e in self.events):
                return
            self.events.append(self._message())
        raise TimeoutError(event)

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression[:80]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def errors(self) -> list[str]:
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:400])
            elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console." + p["type"] + ": " + json.dumps(p.get("args", []))[:400])
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                entry = p["entry"]
                out.append(f"log: {entry.get('text')} {entry.get('url', '')}")
        return out


@pytest.fixture(scope="module")
def browser() -> Iterator[DevTools]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests")
    profile = tempfile.mkdtemp(prefix="gostop-chromium-")
    log = open(Path(profile) / "chromium.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-default-browser-check",
            "--hide-scrollbars",
            "--mute-audio",
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",
            "--window-size=1280,2000",
            "about:blank",
        ],
        stdout=log,
        stderr=log,
    )
    tools: DevTools | None = None
    try:
        port_file = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("chromium did not start:\n" + (Path(profile) / "chromium.log").read_text()[-3000:])
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as reply:
            targets = json.load(reply)
        page = next(t for t in targets if t.get("type") == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        for domain in ("Page", "Runtime", "Log"):
            tools.call(f"{domain}.enable")
        tools.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 2000, "deviceScaleFactor": 1, "mobile": False})
        yield tools
    finally:
        if tools is not None:
            tools.close()
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        log.close()
        shutil.rmtree(profile, ignore_errors=True)


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
    # hangul is drawn with a font that has it: a syllable is as wide as a CJK ideograph, not a box
    widths = browser.evaluate(
        """(() => { const c = document.createElement('canvas').getContext('2d'); c.font = '32px sans-serif';
        return ['피', '광', '口', '\\u{10FFFF}'].map(t => c.measureText(t).width); })()"""
    )
    assert abs(widths[0] - widths[2]) < 4 and abs(widths[1] - widths[2]) < 4, f"no hangul font? widths {widths}"


def test_the_compatibility_report_shows_the_reference_and_its_mutants(browser: DevTools, served: str) -> None:
    from docsgen.compat import EXAMPLE_MUTANTS

    _visit(browser, f"{served}compatibility/", "compatibility-page.png")
    badges = browser.evaluate("[...document.querySelectorAll('table.gs-compat img')].map(i => i.complete && i.naturalWidth > 0)")
    assert badges == [True] * (1 + len(EXAMPLE_MUTANTS)), f"badges that did not load: {badges}"
    framed = browser.evaluate(
        """new Promise(resolve => { const f = document.querySelector('iframe.gs-report');
        const check = () => { const d = f.contentDocument; if (d && d.querySelector('h1')) resolve(d.querySelector('h1').textContent);
          else setTimeout(check, 100); }; check(); })"""
    )
    assert "compatibility" in framed.lower()
    _visit(browser, f"{served}compat/", "compat-report.png")
    rows = browser.evaluate(
        """[...document.querySelectorAll('table.overview tbody tr')].map(r => ({
          engine: r.cells[0].querySelector('a').textContent, verdict: r.cells[2].className,
          badge: r.querySelector('img').complete && r.querySelector('img').naturalWidth > 0,
          links: [...r.querySelectorAll('td a[href^="#"]')].map(a => a.getAttribute('href').slice(1))}))"""
    )
    assert len(rows) == 1 + len(EXAMPLE_MUTANTS) >= 3
    # the report's grids stay within the page at 1280 px: the widest scrolls inside its own frame
    assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the report is wider than the page"
    assert rows[0]["engine"] == "gostop-reference --stdio" and rows[0]["verdict"] == "ok"
    for row, mutant in zip(rows[1:], EXAMPLE_MUTANTS, strict=True):
        assert row["engine"] == f"gostop-mutant {mutant}" and row["verdict"] == "bad", row
        failing = row["links"][1:]  # the first link is the engine's own section
        assert failing, f"{mutant}: no cell links to its failures"
        assert browser.evaluate(f"{json.dumps(failing)}.every(id => !!document.getElementById(id))"), f"{mutant}: a cell links nowhere"
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
