"""The suite's strength: the corpus must kill the semantic mutants of the reference engine
(issue: at least 95 %); a mutant served over stdio is caught by the harness like any engine."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gostop_conformance.harness import load_corpus, run_scenario
from gostop_conformance.harness._mutation import kill_rate, run_mutants
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.mutants import MUTANTS, applied
from gostop_conformance.reference import Action, Rejection
from gostop_conformance.spec import InputError
from tests.conftest import needs_compiled, needs_interpreted, start

CORPUS = load_corpus()


def test_every_rule_area_has_mutants() -> None:
    areas = {m.area for m in MUTANTS}
    assert {"deal", "turn", "events", "declarations", "scoring", "go-stop", "settlement", "round", "family"} <= areas


@needs_compiled
def test_a_compiled_engine_refuses_mutants_with_a_clear_error() -> None:
    with pytest.raises(InputError, match="compiled with mypyc"), applied("jjok-no-steal"):
        pass
    proc = subprocess.run(
        [sys.executable, "-m", "gostop_conformance.mutants", "jjok-no-steal"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "compiled with mypyc" in proc.stderr and "Traceback" not in proc.stderr


@needs_interpreted
@pytest.mark.slow
def test_kill_rate_is_at_least_95_percent() -> None:
    results = run_mutants(CORPUS)
    survivors = [r.mutant.name for r in results if not r.killed]
    assert kill_rate(results) >= 0.95, f"surviving mutants: {survivors}"


@needs_interpreted
def test_a_mutant_is_undone_after_its_block() -> None:
    sc = next(s for s in CORPUS if s.id == "capture-jjok-basic")
    from gostop_conformance.harness import ReferenceEngine

    with applied("jjok-no-steal"):
        assert run_scenario(ReferenceEngine(), sc).outcome == "FAIL"
    assert run_scenario(ReferenceEngine(), sc).outcome == "PASS"


@needs_interpreted
def test_a_mutant_served_over_stdio_fails_its_scenario() -> None:
    sc = next(s for s in CORPUS if s.id == "capture-jjok-basic")
    engine = StdioEngine([sys.executable, "-m", "gostop_conformance.mutants", "jjok-no-steal"])
    try:
        engine.start()
        assert run_scenario(engine, sc).outcome == "FAIL"
    finally:
        engine.close()


@needs_interpreted
@pytest.mark.parametrize(
    ("mutant", "action"),
    [
        # must_match_if_possible refuses the October discard: the automatic shake must not happen first
        ("shake-automatic", Action("play", 0, "m10-junk-1")),
        # a take naming a card of another month is refused: it must not turn into a bomb
        ("bomb-automatic", Action("play", 0, "m10-junk-1", take="m05-junk-1")),
    ],
)
def test_a_declaring_mutant_leaves_a_refused_play_unchanged(mutant: str, action: Action) -> None:
    """The mutants that declare in the player's place do so only for a legal play: the harness
    checks that a refused action changes nothing, and a mutant must fail on its rule, not on that."""
    table = ["m05-junk-1", "m10-junk-2"] if mutant == "bomb-automatic" else ["m05-junk-1"]
    rnd = start(
        "standard-3p",
        hands=[["m10-animal", "m10-ribbon", "m10-junk-1", "m05-junk-2"], ["m06-junk-1"], ["m07-junk-1"]],
        table=table,
        must_match_if_possible=True,
    )
    before = rnd.snapshot()
    with applied(mutant), pytest.raises(Rejection):
        rnd.apply(action)
    assert rnd.snapshot() == before
