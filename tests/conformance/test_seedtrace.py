"""`gostop-conformance lint` and the seed traceability: the shipped table passes, and a bad entry
makes lint fail with the file, line and statement."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gostop_conformance.harness import _seedtrace
from gostop_conformance.harness._cli import main
from gostop_conformance.harness._lint import lint
from gostop_conformance.spec import InputError, load_traceability, traceability

ROOT = Path(__file__).resolve().parents[2]


def _bad_table(tmp_path: Path, old: str, new: str) -> Path:
    text = (ROOT / "spec" / "traceability.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "traceability.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_the_shipped_table_passes() -> None:
    assert _seedtrace.check_traceability().problems == []


def test_lint_fails_on_a_statement_citing_a_clause_that_does_not_exist(tmp_path: Path) -> None:
    table = load_traceability(_bad_table(tmp_path, "{clause: R-GO-RISE}", "{clause: R-GO-RAISE}"))
    report = lint([], table=table)
    assert not report.ok
    cited = [p for p in report.problems if "traceability.yaml" in p]
    assert len(cited) == 1 and "statement 000-go-rise cites unknown clause R-GO-RAISE" in cited[0]


def test_lint_fails_on_a_quote_that_is_not_in_its_seed(tmp_path: Path) -> None:
    if any(path is None for path in _seedtrace.seed_files().values()):
        pytest.skip("the seed texts (shared/seeds/) are not beside this checkout")
    table = load_traceability(_bad_table(tmp_path, "Highest total wins.", "The highest total wins."))
    problems = _seedtrace.check_traceability(table).problems
    assert len(problems) == 1 and "statement 002-highest-total: quote not found in 002_7f2035ee5549610c.txt" in problems[0]


def test_lint_fails_on_an_implemented_value_the_ruleset_does_not_play(tmp_path: Path) -> None:
    table = load_traceability(_bad_table(tmp_path, "{option: go_bak_mode, value: double_own}", "{option: go_bak_mode, value: pay_for_all}"))
    problems = _seedtrace.check_traceability(table).problems
    assert problems and all("but wikipedia-" in p and "plays go_bak_mode = double_own" in p for p in problems)


def test_a_table_that_does_not_load_is_a_lint_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise InputError("spec/traceability.yaml:9 at statements[0]", "'reason' is a required property")

    monkeypatch.setattr(_seedtrace, "traceability", broken)
    assert _seedtrace.check_traceability().problems == ["spec/traceability.yaml:9 at statements[0]: 'reason' is a required property"]


def test_seeds_not_found_are_a_note_unless_a_folder_was_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_seedtrace, "seed_files", lambda folder=None: dict.fromkeys(traceability().seeds))
    found = _seedtrace.check_traceability()
    assert found.problems == [] and found.notes and "their quotes were not checked" in found.notes[0]
    given = _seedtrace.check_traceability(seeds_dir=tmp_path)
    assert given.notes == [] and given.problems == [
        f"seed texts of seed-000, seed-001, seed-002, seed-003 not found in {tmp_path}: their quotes were not checked"
    ]


def test_the_command_line_reports_an_empty_seed_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "scenarios" / "deal"
    corpus.mkdir(parents=True)
    shutil.copy(ROOT / "scenarios" / "deal" / "redeal.yaml", corpus / "redeal.yaml")
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    assert main(["lint", "--scenarios", str(tmp_path / "scenarios"), "--seeds", str(seeds), "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert f"lint: seed texts of seed-000, seed-001, seed-002, seed-003 not found in {seeds}: their quotes were not checked" in out
