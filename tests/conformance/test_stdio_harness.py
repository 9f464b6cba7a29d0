"""The harness against fake engines: every fault is detected and classified, and the run goes on
with every other result intact."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gostop_conformance.harness import load_corpus, run_scenario
from gostop_conformance.harness._declaration import Verdicts, parse
from gostop_conformance.harness._runner import RESTART_AFTER
from gostop_conformance.harness._stdio import StdioEngine

FAKE = Path(__file__).parent / "fakes" / "fake_engine.py"

CORPUS = """\
schema_version: 1
scenarios:
  - id: harness-jjok
    title: "jjok"
    clauses: [R-JJOK]
    ruleset: matgo-2p
    deal:
      hands: [[m09-junk-1, m01-bright], [m02-junk-1]]
      table: [m03-junk-1]
      stock: [m09-junk-2]
      captured: [[], [m04-junk-1]]
    steps:
      - act: {type: play, player: 0, card: m09-junk-1}
        expect:
          captured: [[m09-junk-1, m09-junk-2, m04-junk-1], []]
  - id: harness-trigger
    title: "the fake engines misbehave here (m11-bright in the first hand)"
    clauses: [R-MATCH]
    ruleset: matgo-2p
    deal:
      hands: [[m11-bright, m01-junk-1], [m02-junk-1]]
      table: [m11-junk-1]
      stock: [m05-junk-1]
    steps:
      - act: {type: play, player: 0, card: m11-bright}
        expect:
          captured: [[m11-bright, m11-junk-1], []]
  - id: harness-plain
    title: "a plain pair capture"
    clauses: [R-MATCH]
    ruleset: standard-3p
    deal:
      hands: [[m06-junk-1, m01-junk-1], [m02-junk-1], [m03-junk-1]]
      table: [m06-ribbon]
      stock: [m05-junk-1]
    steps:
      - act: {type: play, player: 0, card: m06-junk-1}
        expect:
          captured: [[m06-junk-1, m06-ribbon], [], []]
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("h") / "scenarios"
    (root / "harness").mkdir(parents=True)
    (root / "harness" / "h.yaml").write_text(CORPUS, encoding="utf-8")
    return load_corpus(root)


def run_all(mode: str, corpus, **kw) -> dict[str, str]:
    engine = StdioEngine([sys.executable, str(FAKE), mode], message_timeout=kw.get("timeout", 2.0), startup_timeout=kw.get("startup", 5.0))
    outcomes: dict[str, str] = {}
    try:
        try:
            hello = engine.start()
        except Exception as exc:  # the handshake failure is the finding
            return {"start": type(exc).__name__ + ":" + getattr(exc, "kind", "")}
        verdicts = Verdicts(parse(hello))
        for sc in corpus:
            sent = verdicts.of(sc).scenario
            if sent is None:
                outcomes[sc.id] = "UNSUPPORTED"
                continue
            result = run_scenario(engine, sent)
            outcomes[sc.id] = result.outcome
            if result.outcome in RESTART_AFTER:
                engine.close()
    finally:
        engine.close()
    return outcomes


@pytest.mark.parametrize(
    ("mode", "trigger"),
    [
        ("crash_mid_game", "CRASH"),
        ("hang", "TIMEOUT"),
        ("invalid_json", "PROTOCOL"),
        ("wrong_seq", "PROTOCOL"),
        ("huge_line", "PROTOCOL"),
        ("schema_invalid", "PROTOCOL"),
        ("liar", "ERROR"),
        ("refuses", "UNSUPPORTED"),
        ("stderr_flood", "PASS"),
        ("lose_card", "FAIL"),
        ("wrong_score", "FAIL"),
    ],
)
def test_each_fault_is_classified_and_the_rest_is_intact(mode: str, trigger: str, corpus) -> None:
    outcomes = run_all(mode, corpus)
    assert outcomes == {"harness-jjok": "PASS", "harness-trigger": trigger, "harness-plain": "PASS"}


def test_one_wrong_rule_fails_only_where_it_matters(corpus) -> None:
    assert run_all("one_rule_wrong", corpus) == {"harness-jjok": "FAIL", "harness-trigger": "PASS", "harness-plain": "PASS"}


def test_crash_at_start_is_reported_with_stderr() -> None:
    engine = StdioEngine([sys.executable, str(FAKE), "crash_at_start"], startup_timeout=5.0)
    with pytest.raises(Exception) as err:
        engine.start()
    assert getattr(err.value, "kind", None) == "crash"
    engine.close()
    assert "refusing to start" in engine.stderr.text()


def test_slow_start_within_and_beyond_the_startup_timeout() -> None:
    slow = StdioEngine([sys.executable, str(FAKE), "slow_start", "1.5"], startup_timeout=0.5)
    with pytest.raises(Exception) as err:
        slow.start()
    assert getattr(err.value, "kind", None) == "timeout"
    slow.close()
    patient = StdioEngine([sys.executable, str(FAKE), "slow_start", "1.5"], startup_timeout=10.0)
    assert patient.start()["engine"]["name"] == "gostop-reference"
    patient.close()


def test_the_reference_engine_over_stdio_passes(corpus) -> None:
    engine = StdioEngine([sys.executable, "-m", "gostop_conformance.reference", "--stdio"])
    try:
        engine.start()
        assert [run_scenario(engine, sc).outcome for sc in corpus] == ["PASS", "PASS", "PASS"]
    finally:
        engine.close()


def test_invariant_violations_are_reported_even_when_expectations_pass(corpus) -> None:
    engine = StdioEngine([sys.executable, str(FAKE), "lose_card"])
    try:
        engine.start()
        result = run_scenario(engine, corpus[1])
    finally:
        engine.close()
    assert result.outcome == "FAIL"
    assert [m.path for m in result.mismatches] == ["invariant: cards"]
    assert "is in 0 places" in str(result.mismatches[0].actual)


def test_a_reply_the_full_validator_accepts_is_accepted_whatever_the_fast_check_says(monkeypatch: pytest.MonkeyPatch) -> None:
    from gostop_conformance.harness import _engine

    monkeypatch.setattr(_engine, "_reply_ok", lambda _cmd, _reply: False)
    engine = StdioEngine([sys.executable, "-m", "gostop_conformance.reference", "--stdio"])
    try:
        assert engine.start()["protocol"] == "1"
    finally:
        engine.close()


REJECTING = """\
schema_version: 1
scenarios:
  - id: harness-reject-then-play
    title: "a rejection, then a capture (the fake engine rejects for the wrong reason)"
    clauses: [R-MATCH]
    ruleset: matgo-2p
    deal:
      hands: [[m11-bright, m01-junk-1], [m02-junk-1]]
      table: [m11-junk-1]
      stock: [m05-junk-1]
    steps:
      - act: {type: play, player: 0, card: m03-junk-1}
        reject: card_not_in_hand
      - act: {type: play, player: 0, card: m11-bright}
        expect:
          captured: [[m11-bright, m11-junk-1], []]
"""


@pytest.mark.parametrize("pipeline", [0, 1, 32])
def test_a_wrong_rejection_code_fails_the_scenario_and_the_rest_of_it_runs(pipeline: int, tmp_path: Path) -> None:
    """After a rejection with the wrong code the harness skips the legal query it had planned
    (the state after an unexpected answer cannot be compared), with requests already out."""
    root = tmp_path / "scenarios"
    (root / "harness").mkdir(parents=True)
    (root / "harness" / "r.yaml").write_text(REJECTING, encoding="utf-8")
    [sc] = load_corpus(root)
    engine = StdioEngine([sys.executable, str(FAKE), "wrong_rejection"], message_timeout=5.0, pipeline=pipeline)
    try:
        engine.start()
        result = run_scenario(engine, sc)
    finally:
        engine.close()
    assert result.outcome == "FAIL", result.text()
    assert [(m.path, m.expected, m.actual) for m in result.mismatches] == [("rejection", "card_not_in_hand", "must_match")]
    assert result.steps_run == 2


def test_an_engine_that_dies_leaving_a_grandchild_on_its_pipe_is_a_crash_at_once(corpus, tmp_path: Path) -> None:
    """The grandchild keeps stdout open, so EOF never comes: the harness must notice that the
    engine itself is gone (not wait for the timeout), and nothing it started may outlive it."""
    import os
    import time

    pid_file = tmp_path / "grandchild.pid"
    engine = StdioEngine([sys.executable, str(FAKE), "orphan", str(pid_file)], message_timeout=30.0, startup_timeout=10.0)
    start = time.monotonic()
    try:
        engine.start()
        results = {sc.id: run_scenario(engine, sc).outcome for sc in corpus if sc.id == "harness-trigger"}
    finally:
        engine.close()
    assert results == {"harness-trigger": "CRASH"}
    assert time.monotonic() - start < 10, "the harness waited for the timeout instead of seeing the engine die"
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        stat = Path(f"/proc/{grandchild}/stat")
        if stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z":
            break  # killed, waiting for an init process to reap it
        time.sleep(0.05)
    else:
        raise AssertionError(f"the engine's grandchild {grandchild} survived the engine")
