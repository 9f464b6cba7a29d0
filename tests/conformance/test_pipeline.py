"""The stdio client's plan: the requests of a scenario's round go out ahead of the replies the
harness is still checking, up to a window (conformance/_pipeline.py, Pipeline.plan)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gostop_conformance.harness import load_corpus, run_scenario
from gostop_conformance.harness._engine import EngineError
from gostop_conformance.harness._pipeline import FLIGHT_BYTES
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.harness._steps import compile_round

REFERENCE = [sys.executable, "-m", "gostop_conformance.reference", "--stdio"]


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
    """The runner executes the compiled steps the plan is made of: over the whole corpus no call leaves its plan, every
    request goes out ahead of the call for it (a round's, as soon as it is planned), and rounds
    go out many requests at once."""
    corpus = load_corpus()
    results = [run_scenario(engine, sc) for sc in corpus]
    assert [r.text() for r in results if r.outcome != "PASS"] == []
    assert engine.plans_dropped == 0
    messages = sum(len(r.transcript) for r in results)
    assert engine.sent_ahead == messages
    longest = max(len(compile_round(sc, rnd, sc.id).plan) for sc in corpus for rnd in sc.rounds)
    assert engine.most_in_flight == min(longest, engine.pipeline)


@pytest.mark.parametrize("depth", [0, 1, 2, 5])
def test_the_window_bounds_the_requests_in_flight(depth: int) -> None:
    sc = max(load_corpus(), key=lambda s: sum(len(r.steps) for r in s.rounds))
    engine = StdioEngine(REFERENCE, pipeline=depth)
    engine.start()
    try:
        assert run_scenario(engine, sc).outcome == "PASS"
        assert engine.most_in_flight == max(1, depth)
        if depth == 0:
            assert engine.sent_ahead == 0
    finally:
        engine.close()


def test_skipped_queries_are_read_and_forgotten_and_the_plan_goes_on() -> None:
    sc, rnd = _first_round()
    ruleset = sc.ruleset_json()
    act, then = rnd.steps[0].act, rnd.steps[1].act
    plan = [
        ("new_game", {"ruleset": ruleset, "deal": rnd.deal}),
        ("legal", {}),
        ("score", {}),
        ("act", {"action": act}),
        ("act", {"action": then}),
    ]
    for depth in (2, 4):  # the act not out yet, or out already
        engine = StdioEngine(REFERENCE, pipeline=depth)
        engine.start()
        try:
            engine.plan(plan)
            assert "state" in engine.new_game(ruleset, rnd.deal)
            reply = engine.act(act)  # not the legal reply: both queries are read and forgotten
            assert "error" not in reply and "events" in reply
            assert "error" not in engine.act(then)
            assert engine.plans_dropped == 0 and engine.sent_ahead == {2: 4, 4: 5}[depth]  # the first act went out ahead at depth 4
        finally:
            engine.close()


def test_a_call_off_the_plan_drops_it_and_discards_read_only_replies() -> None:
    sc, rnd = _first_round()
    ruleset = sc.ruleset_json()
    engine = StdioEngine(REFERENCE, pipeline=1)
    engine.start()
    try:
        engine.plan([("new_game", {"ruleset": ruleset, "deal": rnd.deal}), ("legal", {}), ("act", {"action": rnd.steps[0].act})])
        assert "state" in engine.new_game(ruleset, rnd.deal)  # new_game went out when planned, then the legal query
        assert "scores" in engine.score()  # not planned: the legal reply is read and forgotten
        assert engine.plans_dropped == 1 and engine.sent_ahead == 2
        reply = engine.act(rnd.steps[0].act)  # no longer planned: sent and answered in turn
        assert "error" not in reply and engine.sent_ahead == 2
    finally:
        engine.close()


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
    plan = compile_round(sc, rnd, sc.id).plan
    engine.plan(plan)
    engine.new_game(ruleset, rnd.deal)
    assert engine.sent_ahead == len(plan)  # the whole round is out
    engine.plan(())  # the round stops early: the acts in flight are answered and their replies dropped
    seq = engine.seq
    assert "scores" in engine.score()
    assert engine.seq == seq + 1 and engine.plans_dropped == 0


DIES_ON_ACT = """
import json, sys
from gostop_conformance.reference._jsonapi import JsonEngine
from gostop_conformance.reference._server import handle
engine = JsonEngine()
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "act":
        sys.exit(7)
    print(json.dumps(handle(engine, message)[0]), flush=True)
"""


def test_an_engine_that_dies_on_a_request_sent_ahead_is_closed_for_a_restart(tmp_path: Path) -> None:
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
from gostop_conformance.reference._jsonapi import JsonEngine
from gostop_conformance.reference._server import handle
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


HUGE_REPLIES = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "bye":
        break
    reply = {"seq": message["seq"], "player": 0, "decision": "turn", "actions": []}
    if message["cmd"] == "hello":
        reply = {"seq": message["seq"], "protocol": "1", "engine": {"name": "huge", "version": "0"}, "rulesets": []}
    text = json.dumps(reply)
    print(text[:-1] + " " * 200_000 + "}", flush=True)  # far more than a pipe holds
"""


def test_a_window_of_huge_replies_does_not_deadlock(tmp_path: Path) -> None:
    """The engine blocks writing replies nobody reads yet; the harness never blocks writing
    requests meanwhile (FLIGHT_BYTES), so it gets to read them."""
    script = tmp_path / "huge.py"
    script.write_text(HUGE_REPLIES)
    engine = StdioEngine([sys.executable, str(script)], message_timeout=10.0)
    engine.start()
    try:
        engine.plan([("legal", {})] * 40)
        for _ in range(40):
            assert engine.legal()["actions"] == []
        assert engine.most_in_flight == engine.pipeline
    finally:
        engine.close()


def test_requests_in_flight_stay_below_the_byte_limit(engine: StdioEngine) -> None:
    """A plan of big requests: no more than FLIGHT_BYTES of them are ever unanswered (except one
    alone, which is always sent)."""
    sc, rnd = _first_round()
    ruleset = sc.ruleset_json()
    game = ("new_game", {"ruleset": ruleset, "deal": rnd.deal})
    size = len(str(game[1]))
    engine.plan([game] * 30)
    for _ in range(30):
        assert "state" in engine.new_game(ruleset, rnd.deal)
    assert 1 < engine.most_in_flight <= max(1, FLIGHT_BYTES // size) + 1


def test_a_run_sends_each_round_ahead_and_each_record_keeps_its_own_exchanges() -> None:
    """The harness tells the engine of the rounds it runs next: each round's requests are out
    before it begins, and each scenario's transcript still holds exactly its own requests."""
    from gostop_conformance.harness._harness import run

    corpus = [sc for sc in load_corpus() if sc.area in ("capture", "match")]
    engines: list[StdioEngine] = []

    def factory() -> StdioEngine:
        engines.append(StdioEngine(REFERENCE))
        return engines[-1]

    report = run(corpus, factory, keep_exchanges=True)
    [engine] = engines
    assert {r.outcome for r in report.records} == {"PASS"}
    assert engine.plans_dropped == 0
    assert engine.rounds_sent_ahead == sum(len(sc.rounds) for sc in corpus)
    for record in report.records:
        sent = [line for direction, line in record.engine_transcript if direction == ">"]
        games = [line for line in sent if '"cmd":"new_game"' in line]
        assert len(games) == len(record.scenario.rounds), record.scenario.id
        assert len(sent) == sum(len(compile_round(record.scenario, rnd, "").plan) for rnd in record.scenario.rounds)


def _rounds(n: int):
    """The plans of n one-round scenarios with steps, and the scenarios."""
    scs = [s for s in load_corpus() if len(s.rounds) == 1 and s.rounds[0].steps and all(t.reject is None for t in s.rounds[0].steps)][:n]
    return [compile_round(sc, sc.rounds[0], sc.id).plan for sc in scs], scs


def _play(engine: StdioEngine, plan) -> list:
    """Make a round's planned calls in order, as the runner does; the replies."""
    engine.plan(plan)
    replies = [engine.request(cmd, payload) for cmd, payload in plan]
    engine.plan(())
    return replies


def test_expected_rounds_that_do_not_run_are_dropped_and_the_next_one_goes_on(engine: StdioEngine) -> None:
    (a, b, c), _ = _rounds(3)
    expected_b = _play(engine, b)  # b alone, for its replies
    engine.expect([a, b, c])
    assert _play(engine, b) == expected_b  # a was sent ahead and never ran: its replies are read and dropped
    assert engine.expected == 1 and engine.plans_dropped == 0
    assert engine.rounds_sent_ahead == 1
    assert "error" not in _play(engine, c)[0]


def test_a_round_nobody_expected_runs_afresh_and_the_expected_ones_go_out_again(engine: StdioEngine) -> None:
    (a, b), _ = _rounds(2)
    alone_a = _play(engine, a)
    alone_b = _play(engine, b)
    engine.expect([a])  # a goes out ahead ...
    assert _play(engine, b) == alone_b  # ... but b comes instead: a's requests are read and dropped
    assert engine.expected == 1
    assert _play(engine, a) == alone_a  # and sent again when a comes


def test_a_request_between_rounds_while_the_next_round_is_out_is_a_harness_bug(engine: StdioEngine) -> None:
    """The engine answers in order: with the next round's new_game out, a question about the
    previous game cannot be answered about it any more, so the harness never asks one."""
    (a, b), _ = _rounds(2)
    _play(engine, a)
    assert "scores" in engine.score()  # nothing out: a request between rounds is simply answered
    engine.expect([b])
    with pytest.raises(RuntimeError, match="harness bug: the next round went out ahead, and score came before it began"):
        engine.score()


def test_nothing_goes_out_ahead_at_pipeline_depth_zero() -> None:
    (a, b), _ = _rounds(2)
    engine = StdioEngine(REFERENCE, pipeline=0)
    engine.start()
    try:
        engine.expect([a, b])
        # nothing is out, so nothing stands in the way of a request between rounds (no game yet)
        assert engine.act({"type": "skip", "player": 0})["error"]["code"] == "no_game"
        _play(engine, a)
        _play(engine, b)
        assert engine.sent_ahead == 0 and engine.most_in_flight == 1 and engine.rounds_sent_ahead == 0
    finally:
        engine.close()
