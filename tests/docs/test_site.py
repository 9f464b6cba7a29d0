"""The documentation site (mkdocs.yml, docs/_build/hooks.py).

- The site builds with `mkdocs build --strict`; every clause, option, ruleset, scenario and card has
  its page or anchor; every internal link and picture of the built site resolves.
- The generated content does not depend on the hash seed (dict and set ordering).
- The tutorial tells the truth: its CLI flags exist, its smoke output is what the skeleton adapters
  print, the scenario ids it names exist.
- In headless Chromium (/usr/bin/chromium, driven over the DevTools protocol with the standard
  library only; skipped when it is missing) a rules page, the card gallery, a scenario page and the
  filtered catalogue render their card pictures without console errors; the step-through and the
  filters work. Screenshots go to reports/screenshots/ (or $GOSTOP_SCREENSHOTS).
"""

from __future__ import annotations

import base64
import functools
import http.server
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

from conformance import load_corpus
from spec import clauses, deck, option_registry, ruleset_ids
from tests.docs.conftest import ENV, REPO, SITE_PATH

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
            _help(reference, "play", "--help"),
            _help(sys.executable, "-m", "pytest", "--help"),
        ]
    )
    flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*[a-z0-9]|-q)(?![\w-])", TUTORIAL))
    assert flags, "no flags found"
    missing = sorted(f for f in flags if not re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", known))
    assert not missing, f"flags in docs/tutorial.md that no command knows: {missing}"


def _smoke_block() -> str:
    section = TUTORIAL.split("## 3.", 1)[1].split("## 4.", 1)[0]
    blocks = re.findall(r"```text\n(.*?)```", section, re.S)
    assert blocks, "the smoke output block of section 3 is missing"
    return str(blocks[0])


@pytest.mark.parametrize("command", ["python3 docs/adapters/skeleton_engine.py", "node docs/adapters/skeleton_engine.js"])
def test_the_skeleton_adapters_print_what_the_tutorial_shows(command: str) -> None:
    program = command.split(maxsplit=1)[0]
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    cli = str(Path(sys.executable).parent / "gostop-conformance")
    proc = subprocess.run([cli, "smoke", "--engine", command], cwd=REPO, capture_output=True, text=True, timeout=120, env=ENV, check=False)
    assert proc.returncode == 1  # a skeleton: the handshake and the card ids pass, the game checks fail
    assert proc.stdout == _smoke_block(), proc.stdout + proc.stderr


def test_the_scenario_ids_the_tutorial_names_exist() -> None:
    ids = {sc.id for sc in corpus()}
    named = set(re.findall(r"(?:--id |id: |FAIL )([a-z0-9]+-[a-z0-9-]+)", TUTORIAL))
    assert named
    assert not sorted(named - ids)


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


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
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


def _visit(tools: DevTools, url: str, shot: str) -> None:
    tools.events.clear()
    tools.call("Page.navigate", {"url": url})
    tools.wait_for("Page.loadEventFired")
    tools.evaluate("new Promise(r => setTimeout(r, 600))")  # let the theme's header transition end
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    data = tools.call("Page.captureScreenshot", {"format": "png"})["data"]
    (SCREENSHOTS / shot).write_bytes(base64.b64decode(data))
    errors = tools.errors()
    assert not errors, f"{url}:\n" + "\n".join(errors)


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
