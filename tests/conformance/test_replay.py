"""A reproducer folder's replay.html and replay.sh (conformance/_replay.py, _reporters.py; issue 43).

- replay.html is written for every failing scenario, self-contained (no address to fetch), the same
  bytes for the same inputs, its script and stylesheet those the site is built from
  (docs/assets/); the failing step shows the reference's state beside the engine's with the cards
  the comparison found missing and extra outlined.
- replay.sh works from a copy of the folder, on a machine without the run's interpreter too, runs
  the scenario.yaml beside it (an edited one), and GOSTOP_ENGINE replaces the engine command.
- In headless Chromium, replay.html opened from file:// steps to the failing step and shows the
  outlined cards with their pictures, without console errors (screenshots in $GOSTOP_SCREENSHOTS,
  else reports/screenshots/).
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from gostop_conformance.harness import load_corpus
from gostop_conformance.harness._cli import main
from gostop_conformance.harness._replay import exchanges_of_lines, frames_of, own_exchanges
from tests.browser import DevTools, chromium
from tests.conformance.test_stdio_harness import FAKE

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("GOSTOP_SCREENSHOTS", str(REPO / "reports" / "screenshots")))
#: a scenario of the corpus the jjok-no-steal mutant fails: its jjok takes no junk from P1
MUTANT, MUTANT_SCENARIO = "jjok-no-steal", "capture-jjok-basic"
#: harness-jjok (tests/conformance/test_stdio_harness.py): P1's m04-junk-1 is the junk the jjok steals
STOLEN = "m04-junk-1"


def _run(*args: str) -> int:
    return main(["run", "-q", *args])


def _failing(root: Path, out: Path) -> Path:
    assert _run("--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} one_rule_wrong", "--report-dir", str(out)) == 1
    return out / "repro" / "harness-jjok"


def test_replay_html_is_written_self_contained_and_deterministic(root: Path, tmp_path: Path) -> None:
    first, second = _failing(root, tmp_path / "r1"), _failing(root, tmp_path / "r2")
    page = (first / "replay.html").read_text(encoding="utf-8")
    assert page.encode() == (second / "replay.html").read_bytes()
    # nothing to fetch: no address, no file beside it (the pictures are data in the stylesheet)
    markup, script = page.split("<script>")
    assert not re.search(r"""(src|href)=|url\((?!"data:image/svg\+xml;base64,)|https?://""", markup)
    assert not re.search(r"fetch\(|XMLHttpRequest|import\(|https?://", script)
    # the site's own stepper and stylesheet, as docs/assets/ holds them
    for asset in ("gostop.js", "gostop.css"):
        source = (REPO / "docs" / "assets" / asset).read_text(encoding="utf-8")
        assert source.replace("</", "<\\/") in page or source in page, asset
    # one frame per reply: the deal, the one step, the scores at the end
    assert page.count('<section class="gs-frame') == 3
    [failing] = re.findall(r'<section class="gs-frame gs-failing" data-frame="(\d)" data-where="([^"]*)"', page)
    assert failing == ("1", "harness-jjok step 1 (P0 play card=m09-junk-1)")


@pytest.mark.parametrize("mode", ["nasty", "surrogate"])
def test_an_engines_text_is_shown_not_obeyed(root: Path, tmp_path: Path, mode: str) -> None:
    """Markup, escape sequences and lone surrogates from an engine: the page is written, as text."""
    out = tmp_path / "r"
    assert _run("--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} {mode}", "--report-dir", str(out)) == 1
    page = (out / "repro" / "harness-trigger" / "replay.html").read_text(encoding="utf-8")
    assert page.count("<script") == 1 and "\x1b" not in page and "\x00" not in page


def test_the_frames_are_the_scenarios_own_play_named_as_the_harness_names_its_steps(root: Path) -> None:
    """Lines of the scenario before (sent ahead of their replies) are not drawn; the k-th action of
    a round is the scenario's k-th step; a round's two score requests make one frame."""
    [sc] = [s for s in load_corpus(root) if s.id == "harness-jjok"]
    [other] = [s for s in load_corpus(root) if s.id == "harness-plain"]
    state = {"table": [], "hands": [[], []], "captured": [[], []], "stock": []}

    def exchange(cmd: str, request: dict[str, Any], reply: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"to": "engine", "message": {"cmd": cmd, **request}}, {"to": "harness", "message": reply}]

    lines = [
        *exchange("new_game", {"deal": other.rounds[0].deal}, {"state": state}),
        *exchange("act", {"action": {"type": "play", "player": 0, "card": "m06-junk-1"}}, {"state": state}),
        *exchange("new_game", {"deal": sc.rounds[0].deal}, {"state": state}),
        *exchange("act", {"action": {"type": "play", "player": 0, "card": "m09-junk-1"}}, {"error": {"code": "bad"}}),
        {"to": "harness", "line": "not JSON"},
        *exchange("legal", {}, {"actions": []}),
        *exchange("score", {}, {"scores": [{"base": 1}, {"base": 0}]}),
        *exchange("score", {}, {"scores": [{"base": 2}, {"base": 0}]}),
    ]
    exchanges = exchanges_of_lines(lines)
    own = own_exchanges(sc, exchanges)
    assert len(exchanges) == 7 and len(own) == 5
    [frames] = frames_of(sc, own)
    assert [f.where for f in frames] == [
        "harness-jjok after the deal",
        "harness-jjok step 1 (P0 play card=m09-junk-1)",
        "harness-jjok at the end",
    ]
    assert frames[1].error == {"code": "bad"} and frames[1].action == {"type": "play", "player": 0, "card": "m09-junk-1"}
    assert frames[2].scores == ({"base": 2}, {"base": 0})


def _side(page: str, frame: str, side: str) -> str:
    section = page[page.index(f'data-frame="{frame}"') :]
    section = section[: section.index("</section>")]
    start = section.index(f'<div class="gs-side gs-side-{side}">')
    return section[start:]


def test_the_failing_step_outlines_the_stolen_junk_on_both_sides(root: Path, tmp_path: Path) -> None:
    page = (_failing(root, tmp_path / "r") / "replay.html").read_text(encoding="utf-8")
    engine, reference = _side(page, "1", "engine"), _side(page, "1", "ref")
    reference = reference[: reference.index("</div></div></div>")]
    # the engine kept the junk with P1 (extra there); the reference moved it to P0 (missing from the engine's P0)
    assert re.findall(r'class="gs-card gs-card-\w gs-pic-\d+ gs-extra"[^>]*data-card="([^"]+)"', engine) == [STOLEN]
    assert re.findall(r'class="gs-card gs-card-\w gs-pic-\d+ gs-missing"[^>]*data-card="([^"]+)"', reference) == [STOLEN]
    assert "gs-missing" not in engine.split('<div class="gs-side gs-side-ref">')[0]
    # the deal is no failing step: nothing outlined, no reference beside it
    deal = page[page.index('data-frame="0"') :]
    deal = deal[: deal.index("</section>")]
    assert "gs-side" not in deal and "gs-missing" not in deal and "gs-extra" not in deal


def _copied(repro: Path, tmp_path: Path) -> Path:
    """The folder as a downloaded CI artifact holds it: elsewhere, the run's report folder gone, and
    the run's interpreter missing (gostop-conformance from PATH instead)."""
    copy = tmp_path / "downloaded" / repro.name
    shutil.copytree(repro, copy)
    shutil.rmtree(repro.parent.parent)
    script = copy / "replay.sh"
    text = script.read_text(encoding="utf-8")
    script.write_text(re.sub(r"(?m)^python=.*$", "python=/nonexistent/python", text), encoding="utf-8")
    return copy


def _replay(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "/usr/bin:/bin")])
    return subprocess.run(
        [str(folder / "replay.sh")],
        check=False,
        cwd="/",
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PATH": path, **env},
    )


def test_replay_sh_works_from_a_copy_and_runs_the_scenario_beside_it(root: Path, tmp_path: Path) -> None:
    copy = _copied(_failing(root, tmp_path / "r"), tmp_path)
    proc = _replay(copy)
    assert proc.returncode == 1, proc.stderr
    assert re.search(r"^FAIL harness-jjok$", proc.stdout, re.M) and "0 passed, 1 failed" in proc.stdout
    # an edited scenario is what runs: its new id, and an expectation that the broken engine meets
    scenario = yaml.safe_load((copy / "scenario.yaml").read_text(encoding="utf-8"))
    raw = scenario["scenarios"][0]
    raw["id"] = "harness-jjok-edited"
    raw["steps"][0]["expect"]["captured"] = [["m09-junk-1", "m09-junk-2"], [STOLEN]]
    (copy / "scenario.yaml").write_text(yaml.safe_dump(scenario, sort_keys=False), encoding="utf-8")
    proc = _replay(copy)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"^PASS harness-jjok-edited", proc.stdout, re.M) or "1 passed, 0 failed" in proc.stdout
    # another engine: the reference steals the junk, so the edited expectation fails
    proc = _replay(copy, GOSTOP_ENGINE=f"{sys.executable} -m gostop_conformance.reference --stdio")
    assert proc.returncode == 1 and "FAIL harness-jjok-edited" in proc.stdout and "gostop_conformance.reference" in proc.stdout


def test_replay_sh_replays_a_mutants_failure(tmp_path: Path) -> None:
    engine = f"{sys.executable} -m gostop_conformance.mutants {MUTANT}"
    out = tmp_path / "r"
    assert _run("--engine", engine, "--id", MUTANT_SCENARIO, "--report-dir", str(out)) == 1
    copy = _copied(out / "repro" / MUTANT_SCENARIO, tmp_path)
    proc = _replay(copy)
    assert proc.returncode == 1, proc.stderr
    assert re.search(rf"^FAIL {MUTANT_SCENARIO}$", proc.stdout, re.M) and MUTANT in proc.stdout


# ------------------------------------------------------------------------------------ in the browser

STEP_TO_FAILING = """(() => {
  const s = document.querySelector('.gs-stepper');
  const frames = [...s.querySelectorAll('.gs-frame')];
  const failing = frames.findIndex(f => f.classList.contains('gs-failing'));
  const next = s.querySelector('.gs-controls').querySelectorAll('button')[2];
  const visible = () => frames.filter(f => f.offsetParent !== null).map(f => Number(f.dataset.frame));
  const before = visible();
  let clicks = 0;
  while (visible()[0] !== failing && clicks < frames.length) { next.click(); clicks += 1; }
  return {failing, before, after: visible(), clicks, pos: s.querySelector('.gs-pos').textContent};
})()"""

OUTLINED = """(() => {
  const frame = document.querySelector('.gs-frame.gs-failing');
  const seen = sel => [...frame.querySelectorAll(sel)].filter(c => c.offsetParent !== null).map(c => {
    const st = getComputedStyle(c);
    return {card: c.dataset.card, outline: st.outlineStyle, picture: st.backgroundImage.startsWith('url("data:image/svg+xml'),
            width: c.getBoundingClientRect().width};
  });
  return {missing: seen('.gs-side-ref .gs-missing'), extra: seen('.gs-side-engine .gs-extra'),
          pictures: seen('.gs-card').every(c => c.picture && c.width > 0), cards: seen('.gs-card').length};
})()"""


def _open(tools: DevTools, page: Path) -> None:
    tools.events.clear()
    tools.call("Page.navigate", {"url": page.as_uri()})
    tools.wait_for("Page.loadEventFired")


def _shoot(tools: DevTools, name: str) -> None:
    """The failing frame and the page's head above it, into SCREENSHOTS."""
    box = tools.evaluate(
        """(() => { const r = document.querySelector('.gs-frame.gs-failing').getBoundingClientRect();
        return [r.top + scrollY, r.height]; })()"""
    )
    height = float(box[0]) + float(box[1]) + 24
    clip = {"x": 0, "y": 0, "width": 1280, "height": height, "scale": 1}
    data = tools.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})["data"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / name).write_bytes(base64.b64decode(data))


def _step_and_check(tools: DevTools, page: Path, shot: str) -> dict[str, Any]:
    _open(tools, page)
    stepped = tools.evaluate(STEP_TO_FAILING)
    assert stepped["failing"] >= 1 and stepped["before"] == [0], stepped
    assert stepped["after"] == [stepped["failing"]] and stepped["pos"].startswith(f"{stepped['failing'] + 1} / "), stepped
    seen: dict[str, Any] = tools.evaluate(OUTLINED)
    assert seen["pictures"] and seen["cards"] > 0, seen
    _shoot(tools, shot)
    assert not tools.errors(), tools.errors()
    return seen


def test_replay_html_steps_to_the_failing_step_and_shows_the_outlined_cards(root: Path, tmp_path: Path) -> None:
    fake = _failing(root, tmp_path / "fake") / "replay.html"
    out = tmp_path / "mutant"
    assert (
        _run("--engine", f"{sys.executable} -m gostop_conformance.mutants {MUTANT}", "--id", MUTANT_SCENARIO, "--report-dir", str(out)) == 1
    )
    mutant = out / "repro" / MUTANT_SCENARIO / "replay.html"
    with chromium() as tools:
        seen = _step_and_check(tools, fake, "replay-fake-failing-step.png")
        assert [(c["card"], c["outline"]) for c in seen["missing"]] == [(STOLEN, "dashed")], seen
        assert [(c["card"], c["outline"]) for c in seen["extra"]] == [(STOLEN, "solid")], seen
        seen = _step_and_check(tools, mutant, f"replay-{MUTANT}-{MUTANT_SCENARIO}.png")
        # the scenario's jjok steals P1's single junk: missing from the mutant's P0, extra in its P1
        assert [(c["card"], c["outline"]) for c in seen["missing"]] == [(STOLEN, "dashed")], seen
        assert [(c["card"], c["outline"]) for c in seen["extra"]] == [(STOLEN, "solid")], seen
