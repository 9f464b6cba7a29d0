"""Your house rules on the site (issue 41): the guide docs/house-rules.md, whose every command is run
here as the guide shows it; the plain words of every value on the ruleset pages and the comparison
matrix; and, in headless Chromium (skipped without it), the matrix's differences-only and
plain-words views, a ruleset page's added cards, and the self-contained page of a ruleset file.

The guide is read as a script, in order: a ```yaml block with a title is written to that file, a
`gostop:include house-rules/NAME` marker copies the example file docs/house-rules/NAME, each line of
a ```sh block is run (`# exits N` at its end: the exit status it must have, else 0), and a ```text
block after a ```sh block is output the commands must print: each of its lines, in order, is a
whole line of theirs, `…` standing for any text."""

from __future__ import annotations

import html
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from gostop_conformance.spec import load_ruleset, load_ruleset_file, option_registry, ruleset_ids, show_value
from tests.docs.conftest import ENV, REPO
from tests.docs.test_site import SCREENSHOTS, DevTools, _shoot, _visit, browser, served  # noqa: F401 (fixtures)

GUIDE = REPO / "docs" / "house-rules.md"
BLOCK = re.compile(r"^```(?P<lang>\w+)(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$|^<!-- gostop:include (?P<include>\S+) -->$", re.M | re.S)
TITLE = re.compile(r'title="([^"]+)"')
EXITS = re.compile(r"\s+#\s*exits\s+(\d+)\s*$")
PROGRAMS = ("gostop-conformance", "gostop-reference")


def _steps(text: str) -> list[tuple[str, str, str]]:
    """The guide's steps in order: ("file", name, content), ("run", command, expected status), ("expect", lines, "")."""
    out: list[tuple[str, str, str]] = []
    for m in BLOCK.finditer(text):
        if m.group("include"):
            rel = m.group("include")
            out.append(("file", Path(rel).name, (REPO / "docs" / rel).read_text(encoding="utf-8")))
            continue
        lang, body = m.group("lang"), m.group("body")
        title = TITLE.search(m.group("info"))
        if lang == "yaml" and title:
            out.append(("file", title.group(1), body))
        elif lang == "sh":
            for line in body.splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    status = EXITS.search(line)
                    out.append(("run", EXITS.sub("", line), status.group(1) if status else "0"))
        elif lang == "text" and out and out[-1][0] == "run":
            out.append(("expect", body, ""))
    return out


def _matches(expected: str, output: list[str]) -> str | None:
    """None if every line of `expected` is a whole line of `output`, in order; else the first that is not."""
    at = 0
    for line in expected.rstrip("\n").split("\n"):
        if not line.strip():
            continue
        pattern = re.compile(".*?".join(re.escape(part) for part in line.rstrip().split("…")) + r"\Z")
        while at < len(output) and not pattern.match(output[at].rstrip()):
            at += 1
        if at == len(output):
            return line
        at += 1
    return None


def test_the_guide_is_in_the_navigation_and_reads_its_example_files() -> None:
    sys.path.insert(0, str(REPO / "docs" / "_build"))
    try:
        from docsgen.site import nav
    finally:
        sys.path.remove(str(REPO / "docs" / "_build"))

    # the navigation of a model with no scenario and no rules area: the pages it always lists
    bare = SimpleNamespace(scenario_files={}, scenario_areas=[], areas=[], ruleset_ids=ruleset_ids())
    flat = json.dumps(nav(bare))
    assert '"Write down your house rules": "house-rules.md"' in flat
    assert "house-rules.md" in (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    steps = _steps(GUIDE.read_text(encoding="utf-8"))
    included = {name for kind, name, _ in steps if kind == "file"}
    assert {"our-table-3p.yaml", "our-table-2p.yaml"} <= included
    for name in ("our-table-3p.yaml", "our-table-2p.yaml"):
        load_ruleset_file(REPO / "docs" / "house-rules" / name)  # the example files are valid as they stand
    # the worked example is seed 002's house-rules table: every row the guide's table names is traced there
    table = GUIDE.read_text(encoding="utf-8").split("## 2.", 1)[1].split("## 3.", 1)[0]
    for row in ("Rounds", "Show 3 and Bomb", "Chrysanthemum cup", "Chongtong", "Go-bak", "Deck ends after Go", "Carry after a void round"):
        assert f"| {row}" in table


def test_the_guide_s_commands_do_what_it_shows(tmp_path: Path) -> None:
    """From a blank file to a shared page: every command of the guide, in order, in an empty folder,
    with the installed commands (the folder of this Python first on PATH)."""
    steps = _steps(GUIDE.read_text(encoding="utf-8"))
    runs = [s for s in steps if s[0] == "run"]
    assert len(runs) >= 10 and all(shlex.split(c)[0] in PROGRAMS for _, c, _ in runs)
    env = {**ENV, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""), "PY_COLORS": "0"}
    env.pop("GOSTOP_ENGINE", None)
    output: list[str] = []
    for kind, what, extra in steps:
        if kind == "file":
            (tmp_path / what).write_text(extra, encoding="utf-8")
        elif kind == "run":
            argv = shlex.split(what)
            argv[0] = shutil.which(argv[0], path=env["PATH"]) or argv[0]
            done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
            assert done.returncode == int(extra), f"{what}: exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            assert "Traceback" not in done.stderr, what
            output = (done.stdout + "\n" + done.stderr).splitlines()
        else:
            missing = _matches(what, output)
            assert missing is None, f"the guide shows {missing!r}; the command printed:\n" + "\n".join(output[:60])
    # what the guide says it made
    page = (tmp_path / "our-table-3p.html").read_text(encoding="utf-8")
    assert "<h1>our-table-3p — Our table, three players</h1>" in page
    profiled = load_ruleset_file(tmp_path / "profile" / "profile.yaml")
    assert profiled.ruleset.parent in ruleset_ids()


def test_the_guide_s_output_matching_fails_on_a_line_it_does_not_print() -> None:
    assert _matches("a …\nc", ["a b", "x", "c"]) is None
    assert _matches("c\na …", ["a b", "c"]) == "a …"  # in order
    assert _matches("a", ["ab"]) == "a"  # whole lines
    steps = _steps("```sh\ngostop-conformance ruleset check x.yaml  # exits 2\n```\n\n```text\nerror\n```\n")
    assert steps == [("run", "gostop-conformance ruleset check x.yaml", "2"), ("expect", "error\n", "")]


# ------------------------------------------------------------------------------------ the built site


def test_the_matrix_says_every_value_in_plain_words_and_marks_the_options_all_agree_on(site: Path) -> None:
    text = (site / "rulesets" / "compare" / "index.html").read_text(encoding="utf-8")
    registry = option_registry()
    ids = ruleset_ids()
    row = r'<tr( class="gs-same")?><th title="[^"]*"><a href="[^"]*"><code>([a-z0-9_]+)</code></a></th>(.*?)</tr>'
    rows = re.findall(row, text)
    assert [r[1] for r in rows] == list(registry)
    for same, oid, cells in rows:
        values = [load_ruleset(rid).options.as_json()[oid] for rid in ids]
        assert bool(same) == (len({show_value(v) for v in values}) == 1), oid
        words = re.findall(r'<span class="gs-w">(.*?)</span>', cells)
        expected = [registry[oid].plain(registry[oid].default), *(registry[oid].plain(v) for v in values)]
        assert [html.unescape(w) for w in words] == expected, oid
    agreed = sum(1 for r in rows if r[0])
    assert f"Differences only: the {len(registry) - agreed} options the rulesets do not all agree on" in text


def test_a_ruleset_page_says_each_difference_in_plain_words_and_shows_its_cards(site: Path) -> None:
    text = (site / "rulesets" / "matgo-online" / "index.html").read_text(encoding="utf-8")
    plain = html.unescape(re.sub(r"<[^>]+>", " ", text))
    plain = " ".join(plain.split())
    registry = option_registry()
    before, after = load_ruleset("matgo-2p").options.as_json(), load_ruleset("matgo-online").options.as_json()
    for oid in (k for k in after if before[k] != after[k]):
        assert " ".join(registry[oid].plain(after[oid]).split()) in plain, oid
    assert "Cards it adds" in plain and "bonus-2a" in plain and "bonus-3" in plain
    assert re.search(r'<p class="gs-cards">(<img[^>]*class="gs-card[^>]*>){2}</p>', text)
    assert "in plain words" in plain


# ------------------------------------------------------------------------------------ in the browser


def test_the_matrix_shows_the_differences_only_and_the_plain_words(browser: DevTools, served: str) -> None:  # noqa: F811
    registry = option_registry()
    agreed = sum(1 for oid in registry if len({show_value(load_ruleset(r).options.as_json()[oid]) for r in ruleset_ids()}) == 1)
    _visit(browser, f"{served}rulesets/compare/", "ruleset-matrix-all.png")
    visible = "[...document.querySelectorAll('table.gs-matrix tbody tr')].filter(r => r.offsetParent !== null).length"
    first_cell = """(() => { const c = document.querySelector('table.gs-matrix tbody tr:not(.gs-same) td:nth-child(3)');
      const shown = s => c.querySelector(s).offsetParent !== null; return {value: shown('.gs-v'), words: shown('.gs-w'),
      text: c.querySelector('.gs-w').textContent, title: c.title}; })()"""
    assert browser.evaluate(visible) == len(registry)
    before = browser.evaluate(first_cell)
    assert before["value"] and not before["words"] and before["text"] in before["title"]
    browser.evaluate("document.getElementById('gs-diff-only').click()")
    assert browser.evaluate(visible) == len(registry) - agreed
    browser.evaluate("document.getElementById('gs-words').click()")
    after = browser.evaluate(first_cell)
    assert after["words"] and not after["value"]
    assert browser.evaluate("location.search") == "?view=differences%2Cwords"
    _shoot(browser, "ruleset-matrix-differences-words.png")
    _visit(browser, f"{served}rulesets/compare/?view=differences", "ruleset-matrix-differences.png")
    assert browser.evaluate("document.getElementById('gs-diff-only').checked && !document.getElementById('gs-words').checked")
    assert browser.evaluate(visible) == len(registry) - agreed


def test_a_ruleset_page_renders_the_cards_it_adds(browser: DevTools, served: str) -> None:  # noqa: F811
    _visit(browser, f"{served}rulesets/matgo-online/#cards", "ruleset-page-cards.png")
    cards = browser.evaluate("[...document.querySelectorAll('p.gs-cards img')].map(i => i.complete && i.naturalWidth > 0)")
    assert cards == [True, True]


def test_the_page_of_a_ruleset_file_renders_alone(browser: DevTools, tmp_path: Path) -> None:  # noqa: F811
    """`ruleset page` writes one file that renders with nothing else: opened from the disk, it
    fetches nothing and logs no error."""
    for name in ("our-table-3p.yaml", "our-table-2p.yaml"):
        shutil.copy(REPO / "docs" / "house-rules" / name, tmp_path / name)
    subprocess.run(
        [sys.executable, "-m", "gostop_conformance.harness", "ruleset", "page", "our-table-2p.yaml"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        timeout=120,
    )
    _visit(browser, (tmp_path / "our-table-2p.html").as_uri(), "ruleset-file-page.png", full=True)
    state = browser.evaluate(
        """({h1: document.querySelector('h1').textContent, fetched: performance.getEntriesByType('resource').length,
        tables: document.querySelectorAll('table').length, width: document.documentElement.scrollWidth <= innerWidth})"""
    )
    assert state == {"h1": "our-table-2p — Our table, two players", "fetched": 0, "tables": 3, "width": True}
    assert SCREENSHOTS.joinpath("ruleset-file-page.png").is_file()
