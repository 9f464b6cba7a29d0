"""Differential fuzzing: silent against the reference engine itself; against a mutant it finds
the divergence, shrinks it to a few actions and writes a scenario that fails on the mutant and
passes on the reference engine."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conformance import load_corpus, run_scenario
from conformance._engine import ReferenceEngine
from conformance._fuzz import fuzz, scenario_yaml
from conformance._stdio import StdioEngine
from reference_impl import ruleset_ids
from reference_impl._jsonapi import JsonEngine
from tests.conftest import needs_interpreted


def server(*extra: str) -> StdioEngine:
    engine = StdioEngine([sys.executable, "-m", "reference_impl", "--stdio", *extra])
    engine.start()
    return engine


def test_no_divergence_against_itself() -> None:
    engine = server()
    try:
        report = fuzz(engine, 40, seed=3, rulesets=ruleset_ids())
    finally:
        engine.close()
    assert report.rounds == 40 and report.divergences == []


@needs_interpreted
def test_same_seed_same_cases() -> None:
    engine = server("--mutant", "jjok-no-steal")
    try:
        a = fuzz(engine, 50, seed=1, rulesets=ruleset_ids())
        b = fuzz(engine, 50, seed=1, rulesets=ruleset_ids())
    finally:
        engine.close()
    assert [(s, d.case.choices, d.what) for s, d in a.divergences] == [(s, d.case.choices, d.what) for s, d in b.divergences]


@needs_interpreted
@pytest.mark.parametrize("mutant", ["jjok-no-steal", "ppeok-never", "pi-bak-at-six", "ttadak-no-steal"])
def test_a_mutant_is_found_shrunk_and_written_as_a_failing_scenario(mutant: str, tmp_path: Path) -> None:
    engine = server("--mutant", mutant)
    try:
        report = fuzz(engine, 300, seed=1, rulesets=ruleset_ids())
        assert report.divergences, f"{mutant} was not found in 300 rounds"
        case_seed, div = report.divergences[0]
        assert len(div.case.choices) <= 20
        folder = tmp_path / "scenarios" / "fuzz"
        folder.mkdir(parents=True)
        (folder / "found.yaml").write_text(scenario_yaml(div, case_seed, mutant, JsonEngine()), encoding="utf-8")
        [scenario] = load_corpus(tmp_path / "scenarios")
        assert "needs-review" in scenario.tags
        assert run_scenario(ReferenceEngine(), scenario).outcome == "PASS"
        assert run_scenario(engine, scenario).outcome != "PASS"
    finally:
        engine.close()
