"""`gostop-conformance report`: the compatibility page and the badges, from saved runs."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gostop_conformance.harness._cli import main
from tests.conformance.test_stdio_harness import CORPUS, FAKE


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    """Three engines: the reference, one with a wrong rule, one that breaks its protocol, the last in two versions."""
    folder = tmp_path / "scenarios" / "harness"
    folder.mkdir(parents=True)
    (folder / "h.yaml").write_text(CORPUS, encoding="utf-8")
    out = []
    for name, engine in (
        ("reference", f"{sys.executable} -m gostop_conformance.reference --stdio"),
        ("wrong", f"{sys.executable} {FAKE} one_rule_wrong"),
        ("liar", f"{sys.executable} {FAKE} liar"),
    ):
        target = tmp_path / name
        main(["run", "-q", "--scenarios", str(tmp_path / "scenarios"), "--engine", engine, "--report-dir", str(target)])
        out.append(target / "report.jsonl")
    return out


def test_the_report_shows_each_engine_with_its_failures_and_a_badge(runs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "compat"
    # the fakes all answer hello as gostop-reference: tell them apart by their label (run --label)
    for path, label in zip(runs, ("reference", "wrong-rule <b>", "liar"), strict=True):
        lines = path.read_text().splitlines()
        header = json.loads(lines[0]) | {"label": label}
        path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert main(["report", *map(str, runs), str(runs[2]), "--out", str(out)]) == 0
    page = (out / "index.html").read_text()
    assert "wrong-rule &lt;b&gt;" in page and "<b>" not in page.split("wrong-rule", 1)[1].split("</a>", 1)[0]
    assert "harness-jjok" in page and "R-JJOK (Jjok (kiss))" in page and "gostop-conformance run --engine" in page
    assert "<h3>Failures by clause</h3>" in page and "<td>R-JJOK</td><td>Jjok (kiss)</td><td>1</td>" in page
    # card lists as missing and extra; a captured pile's junk by units, as it is compared (R-STEAL)
    assert "captured[0]: 3 cards expected, 2 reported; missing 1 single junk" in page
    assert "<h3>Runs</h3>" in page  # the liar given twice: its runs side by side
    badges = sorted(p.name for p in (out / "badges").iterdir())
    assert badges == ["liar.svg", "reference.svg", "wrong-rule-b.svg"]
    green = ET.parse(out / "badges" / "reference.svg").getroot()
    assert "3/3 pass" in "".join(green.itertext())
    assert 'fill="#4c1"' in (out / "badges" / "reference.svg").read_text()
    assert 'fill="#4c1"' not in (out / "badges" / "wrong-rule-b.svg").read_text()
    before = page
    main(["report", *map(str, runs), str(runs[2]), "--out", str(out)])
    assert (out / "index.html").read_text() == before  # deterministic


def test_a_file_that_is_not_a_report_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "report.jsonl"
    header = '{"record": "header", "suite_version": "0", "engine": {}, "engine_label": "x", "engine_command": null, '
    header += '"support": {}, "selection": {}, "scenarios": 0}'
    path.write_text(header + "\nnot json\n")
    assert main(["report", str(path), "--out", str(tmp_path / "c")]) == 2
    assert f"{path}:2: not JSON" in capsys.readouterr().err
    path.write_text('{"record": "header"}\n')
    assert main(["report", str(path), "--out", str(tmp_path / "c")]) == 2
    assert f"{path}:1: header record, (record): 'engine' is a required property" in capsys.readouterr().err


def test_engines_are_named_by_their_hello_unless_labelled_and_never_share_a_badge(runs: list[Path], tmp_path: Path) -> None:
    """Without --label an engine is its hello's name (runs of one engine side by side), not its
    command; two names that slug alike get two badges."""
    for path, name in zip(runs, ("My Engine", "my-engine", "liar"), strict=True):
        lines = path.read_text().splitlines()
        header = json.loads(lines[0])
        header["engine"] = {**header["engine"], "name": name}
        path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    out = tmp_path / "compat"
    assert main(["report", *map(str, runs), "--out", str(out)]) == 0
    assert sorted(p.name for p in (out / "badges").iterdir()) == ["liar.svg", "my-engine-2.svg", "my-engine.svg"]
    page = (out / "index.html").read_text()
    assert '<a href="#my-engine">My Engine</a>' in page and '<a href="#my-engine-2">my-engine</a>' in page
    assert sys.executable not in page.split('<table class="overview">', 1)[1].split("</table>", 1)[0]


def test_run_label_names_the_engine_in_the_reports(tmp_path: Path) -> None:
    folder = tmp_path / "scenarios" / "harness"
    folder.mkdir(parents=True)
    (folder / "h.yaml").write_text(CORPUS, encoding="utf-8")
    engine = f"{sys.executable} -m gostop_conformance.reference --stdio"
    main(
        [
            "run",
            "-q",
            "--scenarios",
            str(tmp_path / "scenarios"),
            "--engine",
            engine,
            "--label",
            "nightly",
            "--report-dir",
            str(tmp_path / "r"),
        ]
    )
    header = json.loads((tmp_path / "r" / "report.jsonl").read_text().splitlines()[0])
    assert header["label"] == "nightly" and header["engine"]["name"] == "gostop-reference"


def test_the_overview_has_four_columns_whatever_the_rulesets(runs: list[Path], tmp_path: Path) -> None:
    """The overview fits a laptop's width: one row per engine in four columns (engine, version,
    verdict, by ruleset), its rulesets a list that wraps in the last cell, never a column each."""
    import re

    for path, label in zip(runs, ("reference", "wrong", "liar"), strict=True):  # the fakes all say they are the reference
        lines = path.read_text().splitlines()
        path.write_text("\n".join([json.dumps(json.loads(lines[0]) | {"label": label}), *lines[1:]]) + "\n")
    out = tmp_path / "compat"
    assert main(["report", *map(str, runs), "--out", str(out)]) == 0
    page = (out / "index.html").read_text()
    overview = page.split('<table class="overview">', 1)[1].split("</table>", 1)[0]
    assert overview.startswith("<thead><tr><th>engine</th><th>version</th><th>verdict</th><th>by ruleset</th></tr></thead>")
    rows = re.findall(r"<tr>(.*?)</tr>", overview.split("<tbody>", 1)[1])
    assert len(rows) == 3 and all(row.count("<td") == 4 for row in rows)
    assert all('<ul class="rulesets">' in row for row in rows)
    assert "ul.rulesets{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap" in page
    assert '<div class="scroll"><table class="overview">' not in page  # nothing to scroll: it fits
