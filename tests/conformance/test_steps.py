"""A round compiled once (conformance/_steps.py): the runner makes exactly the requests of the
plan when the replies are as expected, and a check that stops or skips makes fewer, never others."""

from __future__ import annotations

from typing import Any

from gostop_conformance.harness import ReferenceEngine, load_corpus, run_scenario
from gostop_conformance.harness._steps import compile_scenario

Json = dict[str, Any]


class Recording(ReferenceEngine):
    """The reference engine, keeping every request as the stdio protocol would carry it."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Json]] = []

    def new_game(self, ruleset: Json, deal: Json) -> Json:
        self.calls.append(("new_game", {"ruleset": ruleset, "deal": deal}))
        return super().new_game(ruleset, deal)

    def legal(self) -> Json:
        self.calls.append(("legal", {}))
        return super().legal()

    def act(self, action: Json) -> Json:
        self.calls.append(("act", {"action": action}))
        return super().act(action)

    def score(self) -> Json:
        self.calls.append(("score", {}))
        return super().score()


def test_every_round_of_the_corpus_makes_exactly_its_plan() -> None:
    for sc in load_corpus():
        engine = Recording()
        assert run_scenario(engine, sc).outcome == "PASS", sc.id
        assert engine.calls == [request for compiled in compile_scenario(sc) for request in compiled.plan], sc.id


def _rejecting_scenario():
    return next(
        s
        for s in load_corpus()
        if len(s.rounds) == 1 and sum(t.reject is not None for t in s.rounds[0].steps) == 1 and s.rounds[0].steps[-1].reject is None
    )


class OtherCode(Recording):
    """Refuses the action the scenario expects refused, with another code."""

    def __init__(self, refused: Json) -> None:
        super().__init__()
        self.refused = refused

    def act(self, action: Json) -> Json:
        if action == self.refused:
            self.calls.append(("act", {"action": action}))
            return {"error": {"code": "some_other_code", "message": "no"}}
        return super().act(action)


class Accepts(Recording):
    """Accepts the action the scenario expects refused (plays a legal action instead)."""

    def __init__(self, refused: Json) -> None:
        super().__init__()
        self.refused = refused

    def act(self, action: Json) -> Json:
        if action == self.refused:
            self.calls.append(("act", {"action": action}))
            return ReferenceEngine.act(self, ReferenceEngine.legal(self)["actions"][0])
        return super().act(action)


def test_a_rejection_with_another_code_skips_only_the_check_that_the_state_is_unchanged() -> None:
    sc = _rejecting_scenario()
    [refused] = [t.act for t in sc.rounds[0].steps if t.reject is not None]
    plan = compile_scenario(sc)[0].plan
    engine = OtherCode(refused)
    result = run_scenario(engine, sc)
    assert result.outcome == "FAIL" and [m.path for m in result.mismatches] == ["rejection"]
    k = plan.index(("act", {"action": refused}))
    assert plan[k + 1] == ("legal", {})
    assert engine.calls == plan[: k + 1] + plan[k + 2 :]


def test_an_action_accepted_that_must_be_refused_ends_the_round_there() -> None:
    sc = _rejecting_scenario()
    [refused] = [t.act for t in sc.rounds[0].steps if t.reject is not None]
    plan = compile_scenario(sc)[0].plan
    engine = Accepts(refused)
    result = run_scenario(engine, sc)
    assert result.outcome == "FAIL" and result.mismatches[-1].actual == "accepted"
    k = plan.index(("act", {"action": refused}))
    assert engine.calls == plan[: k + 1]  # no more requests: not even the final score
