"""kit.serve and kit.Session: the protocol's loop around an engine, with the reference engine behind
the kit (docs/adapters/kit_reference.py) and engines that fail on purpose."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import pytest

from gostop_conformance import kit, spec
from tests.kit.example import ReferenceBehindKit

Json = dict[str, Any]
MATGO: Final = {"id": "matgo-2p", "options": spec.load_ruleset("matgo-2p").options.as_json()}


def _serve(engine: kit.Engine, *requests: Json | bytes, debug: bool = False) -> list[Json]:
    lines = b"".join(r if isinstance(r, bytes) else json.dumps(r).encode() + b"\n" for r in requests)
    out = io.BytesIO()
    assert kit.serve(engine, stdin=io.BytesIO(lines), stdout=out, debug=debug) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _deal(**changes: Any) -> Json:
    """A fresh deal with no chongtong, no bonus card and no four of a month on the table."""
    ids = list(kit.deck_ids())
    random.Random(4).shuffle(ids)
    deal: Json = {"dealer": 0, "hands": [ids[0:10], ids[10:20]], "table": ids[20:28], "stock": ids[28:]}
    deal.update(changes)
    return deal


def test_requests_sent_ahead_are_each_answered_with_their_seq() -> None:
    replies = _serve(
        ReferenceBehindKit(),
        {"seq": 1, "cmd": "hello", "protocol": "1"},
        {"seq": 2, "cmd": "new_game", "ruleset": MATGO, "deal": {"seed": 5, "dealer": 0}},
        {"seq": 3, "cmd": "legal"},
        {"seq": 4, "cmd": "score"},
        {"seq": 5, "cmd": "bye"},
        {"seq": 6, "cmd": "legal"},  # after bye: never read
    )
    assert [r["seq"] for r in replies] == [1, 2, 3, 4, 5]
    assert replies[0]["protocol"] == kit.PROTOCOL and "rule_trace" not in replies[0]["features"]
    assert replies[1]["state"]["decision"] == "turn" and replies[2]["decision"] == "turn"
    assert replies[3]["settlement"] is None


def test_a_malformed_request_gets_a_located_bad_request_and_the_loop_goes_on() -> None:
    replies = _serve(
        ReferenceBehindKit(),
        b"not json\n",
        {"seq": 1, "cmd": "new_game", "ruleset": MATGO, "deal": {"dealer": 0, "hands": "x", "table": [], "stock": []}},
        b'{"seq": 2, "cmd": "legal"}\n',
    )
    assert replies[0] == {"seq": None, "error": {"code": "bad_request", "message": replies[0]["error"]["message"]}}
    assert "not JSON" in replies[0]["error"]["message"]
    assert replies[1]["seq"] == 1 and replies[1]["error"]["code"] == "bad_request"
    assert "request.deal" in replies[1]["error"]["message"]
    assert replies[2]["error"]["code"] == "no_game"


def test_a_bad_deal_names_the_cards() -> None:
    deal = _deal()
    deal["stock"] = deal["stock"][:-1]
    (reply,) = _serve(ReferenceBehindKit(), {"seq": 1, "cmd": "new_game", "ruleset": MATGO, "deal": deal})
    assert reply["error"]["code"] == "bad_deal" and "missing" in reply["error"]["message"], reply
    deal = _deal(hands=[_deal()["hands"][0], _deal()["hands"][0]])
    (reply,) = _serve(ReferenceBehindKit(), {"seq": 1, "cmd": "new_game", "ruleset": MATGO, "deal": deal})
    assert reply["error"]["code"] == "bad_deal" and "twice" in reply["error"]["message"], reply


def test_an_illegal_action_is_refused_by_the_kit_before_the_engine_sees_it() -> None:
    replies = _serve(
        ReferenceBehindKit(),
        {"seq": 1, "cmd": "new_game", "ruleset": MATGO, "deal": _deal()},
        {"seq": 2, "cmd": "act", "action": {"type": "play", "player": 1, "card": "m06-bright"}},
        {"seq": 3, "cmd": "act", "action": {"type": "play", "player": 0, "card": "m12-bright"}},
    )
    assert replies[1]["error"]["code"] == "not_your_turn"
    assert replies[2]["error"]["code"] == "card_not_in_hand"


class _Broken(ReferenceBehindKit):
    """An engine whose state breaks the schema, and whose score raises."""

    def state(self) -> Mapping[str, Any]:
        return {**super().state(), "hands": "nothing"}

    def score(self) -> kit.Scores:
        raise ZeroDivisionError("the engine's own bug")


def test_an_engine_bug_is_an_internal_error_that_names_the_mistake_and_the_loop_goes_on() -> None:
    replies = _serve(
        _Broken(),
        {"seq": 1, "cmd": "new_game", "ruleset": MATGO, "deal": _deal()},
        {"seq": 2, "cmd": "score"},
        {"seq": 3, "cmd": "perft", "depth": 1},
    )
    assert replies[0]["error"]["code"] == "internal"
    assert "new_game reply.state.hands" in replies[0]["error"]["message"]
    assert replies[1]["error"]["code"] == "internal" and "ZeroDivisionError: the engine's own bug" in replies[1]["error"]["message"]
    assert replies[2]["error"]["code"] == "unsupported"


def test_debug_logs_every_message_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    _serve(ReferenceBehindKit(), {"seq": 1, "cmd": "hello", "protocol": "1"}, debug=True)
    err = capsys.readouterr().err
    assert 'kit <- {"seq": 1, "cmd": "hello", "protocol": "1"}' in err and 'kit -> {"seq":1' in err


class _Quiet(ReferenceBehindKit):
    def hello(self) -> Mapping[str, Any]:
        return {**super().hello(), "events": "none"}

    def new_game(self, ruleset: kit.Ruleset, deal: kit.Deal) -> Sequence[Mapping[str, Any]] | None:
        super().new_game(ruleset, deal)
        return None


def test_an_engine_that_reports_no_events_gets_none_derived() -> None:
    replies = _serve(
        _Quiet(),
        {"seq": 1, "cmd": "hello", "protocol": "1"},
        {"seq": 2, "cmd": "new_game", "ruleset": MATGO, "deal": _deal()},
    )
    assert replies[0]["events"] == "none" and replies[1]["events"] == []


def test_the_hello_builder_names_a_mistake_where_it_is_made() -> None:
    with pytest.raises(kit.KitError, match=r"hello.options.jjok_stael: unknown option .*did you mean jjok_steal"):
        kit.hello("x", "1", options={"jjok_stael": [1]})
    with pytest.raises(kit.KitError, match=r"hello.options.jjok_steal: 9 is not a value"):
        kit.hello("x", "1", options={"jjok_steal": [9]})
    with pytest.raises(kit.KitError, match=r"not a ruleset"):
        kit.ruleset("matgo-9p")
    declared = kit.hello("x", "1", rulesets=[kit.ruleset("matgo-2p", meong_mode=["off"])], reasons={"meong_mode": "why"})
    assert declared["rulesets"] == [{"id": "matgo-2p", "options": {"meong_mode": ["off"]}}]


def test_builders_check_what_they_build() -> None:
    with pytest.raises(kit.KitError, match=r"^event.kind: 'capturee'"):
        kit.event("capturee", player=0)
    with pytest.raises(kit.KitError, match=r"event steal: units2 not among its fields"):
        kit.event("steal", player=0, units2=1)
    with pytest.raises(kit.KitError, match=r"^score.base: -1 is less than the minimum of 0"):
        kit.score(base=-1)
    assert kit.player(skip_credits=2)["skip_credits"] == 2


def test_the_action_and_event_fields_are_the_vocabulary_s() -> None:
    vocabulary = spec.vocabulary()
    assert {k: tuple(v["fields"]) for k, v in vocabulary["actions"].items()} == kit.ACTION_FIELDS
    assert {k: frozenset(v["fields"]) for k, v in vocabulary["events"].items()} == kit.EVENT_FIELDS


def test_the_hello_builder_checks_what_the_schema_would_refuse_and_takes_events() -> None:
    with pytest.raises(kit.KitError, match=r"hello.options.jjok_steal: 'unsupported' is for a ruleset's exceptions"):
        kit.hello("x", "1", options={"jjok_steal": kit.UNSUPPORTED})
    with pytest.raises(kit.KitError, match=r"hello.options.go_threshold.by_players: expected player counts"):
        kit.hello("x", "1", options={"go_threshold": {"by_players": {"5": [7]}}})
    with pytest.raises(kit.KitError, match=r"not a ruleset of spec/rulesets/"):
        kit.hello("x", "1", rulesets=["matgo-9p"])
    with pytest.raises(kit.KitError, match=r"hello.events: expected one of all, none"):
        kit.hello("x", "1", rulesets=["matgo-2p"], events="some")
    assert kit.hello("x", "1", rulesets=["matgo-2p"], events="none")["events"] == "none"
    per_count = kit.hello("x", "1", options={"go_threshold": {"by_players": {"2": [7], "3": kit.UNSUPPORTED}}})
    assert per_count["options"] == {"go_threshold": {"by_players": {"2": [7], "3": "unsupported"}}}


class _PassesItsHelloThrough(ReferenceBehindKit):
    def hello(self) -> Mapping[str, Any]:
        return {**super().hello(), "seq": 99, "protocol": "0"}


def test_the_hello_reply_carries_the_request_s_seq_whatever_the_engine_says() -> None:
    (reply,) = _serve(_PassesItsHelloThrough(), {"seq": 1, "cmd": "hello", "protocol": "1"})
    assert (reply["seq"], reply["protocol"]) == (1, kit.PROTOCOL)


def test_a_deal_naming_its_captured_piles_is_a_game_in_progress() -> None:
    rules = kit.Ruleset("matgo-2p", spec.load_ruleset("matgo-2p").options.as_json())
    assert kit.Deal.from_json(_deal(), rules).fresh
    assert not kit.Deal.from_json(_deal(captured=[[], []]), rules).fresh
    assert not kit.Deal.from_json(_deal(turn=2), rules).fresh
