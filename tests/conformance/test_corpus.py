"""The scenario corpus is the primary test of the rules: each scenario is one test, named by its id."""

from __future__ import annotations

import pytest

from gostop_conformance.harness import ReferenceEngine, load_corpus, run_scenario
from gostop_conformance.harness._engine import SchemaChecked

CORPUS = load_corpus()


def test_corpus_is_not_empty() -> None:
    assert CORPUS


@pytest.mark.parametrize("scenario", CORPUS, ids=[sc.id for sc in CORPUS])
def test_scenario_passes_on_the_reference_engine(scenario) -> None:
    # every reply held to the protocol schema, as over stdio (a renamed or lost field fails here too)
    result = run_scenario(SchemaChecked(ReferenceEngine()), scenario)
    assert result.outcome == "PASS", result.text()


def test_the_whole_corpus_passes_over_stdio() -> None:
    """The README's main job: the same corpus through the protocol, as any engine is run."""
    import sys

    from gostop_conformance.harness._stdio import StdioEngine

    engine = StdioEngine([sys.executable, "-m", "gostop_conformance.reference", "--stdio"])
    try:
        engine.start()
        failures = [r.text() for r in (run_scenario(engine, sc) for sc in CORPUS) if r.outcome != "PASS"]
    finally:
        engine.close()
    assert not failures, "\n".join(failures[:5])
