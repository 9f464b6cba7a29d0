"""The stdio client's plan: the next request of a scenario's round is sent while the harness
still checks the reply before it (conformance/_stdio.py, StdioEngine.plan)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conformance import load_corpus, run_scenario
from conformance._engine import EngineError
from conformance._runner import round_plan
from conformance._stdio import StdioEngine

REFERENCE = [sys.executable, "-m", "reference_impl", "--stdio"]


@pytest.fixture
def engine():
    e = StdioEngine(REFERENCE)
    e.start()
    yield e
    e.close()


def _first_round():
    sc = next(
        s for s in load_corpus() if len(s.rounds) == 1 and len(s.rounds[0].steps) >= 2 and all(t.reject is None for t in s.rounds[0].steps)
    )
    return sc, sc.rounds[0]


def test_every_round_of_the_corpus_follows_its_plan(engine: StdioEngine) -> None:
    """round_plan mirrors the runner: over the whole corpus no call leaves its plan, and every
    request but each round's new_game goes out ahead of the reply before it."""
    corpus = load_corpus()
    results = [run_scenario(engine, sc) for sc in corpus]
    assert [r.text() for r in results if r.outcome != "PASS"] == []
    assert engine.plans_dropped == 0
    rounds = sum(len(sc.rounds) for sc in corpus)
    messages = sum(len(r.transcript) for r in results)
    assert engine.sent_ahead == messages - rounds


def test_a_call_off_the_plan_drops_it_and_discards_a_read_only_reply(engine: StdioEngine) -> None:
    sc, rnd = _first_round()
    ruleset = sc.ruleset_json()
    engine.plan([("new_game", {"ruleset": ruleset, "deal": rnd.deal}), ("legal", {}), ("act", {"action": rnd.steps[0].act})])
    assert "state" in engine.new_game(ruleset, rnd.deal)  # the legal query goes out ahead
    assert engine.sent_ahead == 1
    assert "scores" in engine.score()  # not the legal reply: that one is read and forgotten
    assert engine.plans_dropped == 1
    reply = engine.act(rnd.steps[0].act)  # no longer planned: sent and answered in turn
    assert "error" not in reply and engine.sent_ahead == 1


def test_a_state_changing_request_sent_ahead_and_not_wanted_is_a_harness_bug(engine: StdioEngine) -> None:
    sc, rnd = _first_round()
    ruleset = sc.ruleset_json()
    engine.plan([("new_game", {"ruleset": ruleset, "deal": rnd.deal}), ("act", {"action": rnd.steps[0].act})])
    engine.new_game(ruleset, rnd.deal)
    with pytest.raises(RuntimeError, match="harness bug: act was sent ahead"):
        engine.legal()


def test_plan_reads_what_is_in_flight_and_starts_afresh(engine: StdioEngine) -> None:
    sc, rnd = _first_round()
    ruleset = sc.ruleset_json()
    plan = round_plan(ruleset, rnd)
    engine.plan(plan)
    engine.new_game(ruleset, rnd.deal)
    engine.plan(())  # the round stops early: the act in flight is answered and its reply dropped
    seq = engine.seq
    assert "scores" in engine.score()
    assert engine.seq == seq + 1 and engine.plans_dropped == 0


DIES_ON_ACT = """
import json, sys
from reference_impl._jsonapi import JsonEngine
from reference_impl._server import handle
engine = JsonEngine()
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "act":
        sys.exit(7)
    print(json.dumps(handle(engine, message)[0]), flush=True)
"""


def test_an_engine_that_dies_on_the_request_sent_ahead_is_closed_for_a_restart(tmp_path: Path) -> None:
    script = tmp_path / "dies_on_act.py"
    script.write_text(DIES_ON_ACT)
    engine = StdioEngine([sys.executable, str(script)], message_timeout=5.0)
    engine.start()
    try:
        sc, rnd = _first_round()
        ruleset = sc.ruleset_json()
        engine.plan([("new_game", {"ruleset": ruleset, "deal": rnd.deal}), ("act", {"action": rnd.steps[0].act})])
        engine.new_game(ruleset, rnd.deal)  # the act goes out ahead; the engine dies on it
        engine.plan(())  # the harness stopped listening: the failure is swallowed, the process closed
        assert not engine.alive()
        with pytest.raises(EngineError):
            engine.legal()
        assert "state" in engine.new_game(ruleset, rnd.deal)  # new_game restarts it
    finally:
        engine.close()


EXITS_AFTER_NEW_GAME = """
import json, sys
from reference_impl._jsonapi import JsonEngine
from reference_impl._server import handle
engine = JsonEngine()
for line in sys.stdin:
    message = json.loads(line)
    print(json.dumps(handle(engine, message)[0]), flush=True)
    if message["cmd"] == "new_game":
        sys.stdout.close()
        sys.exit(0)
"""


def test_a_reply_in_hand_is_returned_even_if_the_engine_is_gone_before_the_next_request(tmp_path: Path) -> None:
    """The failure belongs to the request that meets it, not to the reply already read."""
    script = tmp_path / "exits.py"
    script.write_text(EXITS_AFTER_NEW_GAME)
    engine = StdioEngine([sys.executable, str(script)], message_timeout=5.0)
    engine.start()
    try:
        sc, rnd = _first_round()
        ruleset = sc.ruleset_json()
        engine.plan([("new_game", {"ruleset": ruleset, "deal": rnd.deal}), ("act", {"action": rnd.steps[0].act})])
        assert "state" in engine.new_game(ruleset, rnd.deal)
        with pytest.raises(EngineError) as caught:
            engine.act(rnd.steps[0].act)
        assert caught.value.kind == "crash"
    finally:
        engine.close()
