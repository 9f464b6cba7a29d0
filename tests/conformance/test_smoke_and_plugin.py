"""`gostop-conformance smoke` and the pytest plugin, against the reference engine and fakes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gostop_conformance.harness._cli import main
from tests.conformance.test_stdio_harness import CORPUS, FAKE

REFERENCE = f"{sys.executable} -m gostop_conformance.reference --stdio"


def test_smoke_passes_on_the_reference_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", "--engine", REFERENCE]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()[:4]] == ["ok", "ok", "ok", "ok"]


def test_smoke_explains_a_bad_handshake(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", "--engine", f"{sys.executable} {FAKE} crash_at_start"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL handshake: crash:") and "hint: read one JSON object per line" in out
    assert "refusing to start" in out  # the engine's stderr is shown


def test_smoke_explains_a_schema_violation(capsys: pytest.CaptureFixture[str]) -> None:
    # an engine that echoes requests back fails the handshake schema check with a readable message
    assert main(["smoke", "--engine", f"{sys.executable} -c \"import sys; [print(l, end='', flush=True) for l in sys.stdin]\""]) == 1
    assert "'engine' is a required property" in capsys.readouterr().out


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    root = tmp_path / "scenarios" / "harness"
    root.mkdir(parents=True, exist_ok=True)
    (root / "h.yaml").write_text(CORPUS, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--gostop-scenarios", str(tmp_path / "scenarios"), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_plugin_runs_scenarios_as_tests(tmp_path: Path) -> None:
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 passed" in proc.stdout


def test_plugin_reports_failures_and_known_failures(tmp_path: Path) -> None:
    engine = f"{sys.executable} {FAKE} one_rule_wrong"
    proc = _pytest(tmp_path, "--gostop-engine", engine)
    assert proc.returncode == 1
    assert "1 failed, 2 passed" in proc.stdout and "harness-jjok" in proc.stdout
    ledger = tmp_path / "known.yaml"
    ledger.write_text("known_failures:\n  - {id: harness-jjok, reason: not yet}\n")
    proc = _pytest(tmp_path, "--gostop-engine", engine, "--gostop-known-failures", str(ledger))
    assert proc.returncode == 0 and "2 passed, 1 xfailed" in proc.stdout


@pytest.mark.parametrize(
    ("declaration", "ruleset"),
    [
        ({"rulesets": [{"id": "matgo-2p", "options": {"meong_mode": ["off"], "first_player": ["non_dealer"]}}]}, "matgo-2p"),
        ({"rulesets": [], "options": {"players": [3], "deal_layout": ["7-6"], "jjok_steal": [2]}}, "standard-3p"),
    ],
)
def test_smoke_plays_within_the_declaration(declaration: dict, ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A ruleset claimed with exceptions, or options alone, is what smoke sends (with seat 0 first)."""
    import json

    from gostop_conformance.harness._declaration import parse
    from gostop_conformance.harness._smoke import setup

    found = setup(parse(declaration))
    assert found is not None
    sent, deal = found
    assert sent["id"] == ruleset and len(deal["hands"]) == (2 if ruleset == "matgo-2p" else 3)
    for name, values in (declaration["rulesets"][0]["options"] if declaration["rulesets"] else declaration["options"]).items():
        assert sent["options"][name] == values[0]
    engine = f"{sys.executable} {FAKE} declares " + json.dumps(json.dumps(declaration))
    assert main(["smoke", "--engine", engine]) == 0, capsys.readouterr().out


def test_smoke_explains_a_declaration_it_cannot_play(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    engine = f"{sys.executable} {FAKE} declares " + json.dumps(json.dumps({"rulesets": ["family-4p"]}))
    assert main(["smoke", "--engine", engine]) == 1
    assert "declares no Go-Stop ruleset of two or three players" in capsys.readouterr().out


@pytest.mark.slow
def test_plugin_node_ids_select_and_name_the_corpus(tmp_path: Path) -> None:
    """Node ids gostop::<area>::<id>, junit classname gostop.<area>, -k and --gostop-id select,
    --gostop-only leaves a project's own tests out."""
    (tmp_path / "test_mine.py").write_text("def test_mine():\n    pass\n", encoding="utf-8")
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--collect-only")
    assert "gostop::harness::harness-jjok" in proc.stdout and "test_mine.py::test_mine" in proc.stdout
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--gostop-only", "--junitxml", str(tmp_path / "j.xml"))
    assert proc.returncode == 0 and "3 passed, 1 deselected" in proc.stdout, proc.stdout
    junit = (tmp_path / "j.xml").read_text()
    assert 'classname="gostop.harness" name="harness-jjok"' in junit and "test_mine" not in junit
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--gostop-only", "-k", "plain")
    assert "1 passed" in proc.stdout
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--gostop-only", "--gostop-id", "harness-trigger")
    assert "1 passed" in proc.stdout


def test_the_plugin_runs_in_a_project_with_packages_named_like_our_folders(tmp_path: Path) -> None:
    """A project with its own `spec`, `scenarios`, `conformance` and `reference_impl` packages: the
    suite installs only `gostop_conformance`, so the plugin runs the bundled corpus there and the
    project's tests import their own packages."""
    for package in ("spec", "scenarios", "conformance", "reference_impl"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(f"OWNER = 'the project: {package}'\n", encoding="utf-8")
    (tmp_path / "scenarios" / "deal.yaml").write_text("schema_version: 1\nscenarios: []\n", encoding="utf-8")
    (tmp_path / "test_mine.py").write_text(
        "import conformance, reference_impl, scenarios, spec\n\n\n"
        "def test_mine():\n"
        "    assert [p.OWNER for p in (spec, scenarios, conformance, reference_impl)] == [\n"
        "        'the project: spec', 'the project: scenarios', 'the project: conformance', 'the project: reference_impl']\n",
        encoding="utf-8",
    )
    ids = ("scoring-junk-nine-ten-eleven", "capture-jjok-basic")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--gostop-engine", REFERENCE, *(f"--gostop-id={i}" for i in ids)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 passed" in proc.stdout, proc.stdout
