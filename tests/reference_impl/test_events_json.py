"""The JSON forms of actions and events (reference_impl._events) as the protocol reply carries them.

The protocol server validates a request against the schema before the engine sees it, so the
engine's own check of an action (`Action.from_json`) is only reached when `JsonEngine` is driven in
process, as the conformance harness does. These tests drive it so: a malformed action must be the
`malformed_action` rejection (spec/vocabulary.yaml, rejections) in a reply the protocol schema
accepts, and must change nothing; a well-formed one must not be called malformed. The events must
carry what spec/vocabulary.yaml (events) lists for their kind and, as `hello` declares the
`rule_trace` feature, the clause ids that produced them.
"""

from __future__ import annotations

from typing import Any

import pytest

from gostop_conformance.reference._events import Action, Event, Rejection
from gostop_conformance.reference._jsonapi import JsonEngine
from gostop_conformance.spec import clauses, vocabulary
from tests.reference_impl.test_server_inprocess import DEAL, DEFS, RULESET, valid_reply

Json = dict[str, Any]


def valid(kind: str, reply: Json) -> None:
    """`reply` (without its seq) is valid against the protocol's reply definition `reply_<kind>`."""
    valid_reply(kind, {"seq": 1, **reply})


def started() -> JsonEngine:
    engine = JsonEngine()
    assert "error" not in engine.new_game(RULESET, DEAL)
    return engine


#: Actions that break the action object's shape (spec/vocabulary.yaml, actions: the fields of each
#: type; protocol schema, action), each with what is wrong with it.
MALFORMED: list[tuple[str, Any]] = [
    ("not an object", "play m01-bright"),
    ("a list, not an object", ["play", 0, "m01-bright"]),
    ("an unknown type", {"type": "dance", "player": 0}),
    ("no type", {"player": 0, "card": "m01-bright"}),
    ("no player", {"type": "stop"}),
    ("a string player", {"type": "play", "player": "0", "card": "m01-bright"}),
    ("a boolean player", {"type": "play", "player": False, "card": "m01-bright"}),
    ("a field the type does not take", {"type": "stop", "player": 0, "card": "m01-bright"}),
    ("two fields the type does not take", {"type": "go", "player": 0, "month": 1, "card": "m01-bright"}),
    ("a card that is not a string", {"type": "play", "player": 0, "card": 5}),
    ("a take that is not a string", {"type": "play", "player": 0, "card": "m01-bright", "take": 7}),
    ("a shake that is not a boolean", {"type": "play", "player": 0, "card": "m01-bright", "shake": "yes"}),
    ("month 13", {"type": "bomb", "player": 0, "month": 13}),
    ("month 0", {"type": "bomb", "player": 0, "month": 0}),
    ("a string month", {"type": "bomb", "player": 0, "month": "3"}),
    ("a boolean month", {"type": "shake", "player": 0, "month": True}),
]
#: Each action type that needs a field (spec/vocabulary.yaml, actions), sent without it.
NEEDS = {"play": "card", "bonus": "card", "dual_to_junk": "card", "take": "card", "bomb": "month", "shake": "month", "chongtong": "month"}
MALFORMED += [(f"a {kind} without its {field}", {"type": kind, "player": 0}) for kind, field in NEEDS.items()]


@pytest.mark.parametrize("action", [a for _, a in MALFORMED], ids=[why for why, _ in MALFORMED])
def test_a_malformed_action_is_the_malformed_action_rejection_and_changes_nothing(action: Any) -> None:
    """The check of the action's shape comes before any rule (the seat is the one to act, the game is
    on): the reply is the vocabulary's `malformed_action` code with a message, valid as a protocol reply."""
    assert NEEDS.items() <= {k: v["fields"][0] for k, v in vocabulary()["actions"].items() if v["fields"]}.items()
    engine = started()
    assert engine.round is not None
    before = engine.round.snapshot()
    reply = engine.act(action)
    assert set(reply) == {"error"} and reply["error"]["code"] == "malformed_action"
    assert "malformed_action" in vocabulary()["rejections"]
    valid("error", reply)
    assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]
    assert engine.round.snapshot() == before


@pytest.mark.parametrize("action", [a for _, a in MALFORMED], ids=[why for why, _ in MALFORMED])
def test_parsing_a_malformed_action_raises_the_rejection(action: Any) -> None:
    """Action.from_json's contract (its docstring): a malformed action raises Rejection('malformed_action')."""
    with pytest.raises(Rejection) as info:
        Action.from_json(action)
    assert info.value.code == "malformed_action" and isinstance(info.value.message, str)
    assert info.value.to_json() == {"code": "malformed_action", "message": info.value.message}


@pytest.mark.parametrize("month", range(1, 13))
def test_every_month_from_1_to_12_is_well_formed(month: int) -> None:
    """A month is 1 to 12 (protocol schema, month): a bomb or shake of any of them is well formed,
    whether or not the rules then allow it."""
    assert DEFS["month"]["minimum"] == 1 and DEFS["month"]["maximum"] == 12
    for kind in ("bomb", "shake", "chongtong"):
        assert Action.from_json({"type": kind, "player": 1, "month": month}) == Action(kind, 1, month=month)
        reply = started().act({"type": kind, "player": 0, "month": month})
        assert "error" in reply and reply["error"]["code"] != "malformed_action"


def test_a_well_formed_action_is_parsed_field_by_field() -> None:
    assert Action.from_json({"type": "play", "player": 1, "card": "m01-bright", "take": "m01-junk-1", "shake": True}) == Action(
        "play", 1, card="m01-bright", take="m01-junk-1", shake=True
    )
    assert Action.from_json({"type": "stop", "player": 0}) == Action("stop", 0)


def test_the_events_name_their_player_and_carry_the_rule_trace() -> None:
    """R-MATCH: P0's play, the flip of the turn and the capture are all about P0 (spec/vocabulary.yaml,
    events: `player` is the player, the player whose turn it is, the player whose pile grew). `hello`
    declares `rule_trace`, so every event carries `clauses`, ids of spec/rules/ clauses."""
    engine = JsonEngine()
    assert "rule_trace" in engine.hello()["features"]
    new = engine.new_game(RULESET, DEAL)
    reply = engine.act({"type": "play", "player": 0, "card": "m01-bright"})
    valid("new_game", new)
    valid("act", reply)
    assert [(e["kind"], e.get("player")) for e in reply["events"]] == [("play", 0), ("flip", 0), ("capture", 0)]
    ids = set(clauses())
    for event in [*new["events"], *reply["events"]]:
        assert "clauses" in event and set(event["clauses"]) <= ids
    assert any(event["clauses"] for event in reply["events"])
    after = engine.act({"type": "play", "player": 1, "card": "m02-junk-1"})
    assert [e.get("player") for e in after["events"] if e["kind"] in ("play", "flip")] == [1, 1]


def test_a_rejection_reads_as_its_code_and_message() -> None:
    """How a refused action prints (the play command and tracebacks of callers): code first."""
    refusal = Rejection("not_your_turn", "seat 1 is to act, not seat 0")
    assert str(refusal) == "not_your_turn: seat 1 is to act, not seat 0"
    assert refusal.to_json() == {"code": "not_your_turn", "message": "seat 1 is to act, not seat 0"}


def test_an_event_is_an_immutable_value() -> None:
    """Events are values (the engine shares its commonest ones between rounds): equal by their
    fields, unhashable (their data is a mapping), read-only, and shown as their fields."""
    go = Event("go", 1, (), ("R-GO-WHEN",), {"gos": 2, "base": 9})
    assert go == Event("go", 1, (), ("R-GO-WHEN",), {"base": 9, "gos": 2})
    assert go != Event("go", 0, (), ("R-GO-WHEN",), {"gos": 2, "base": 9})
    assert go != Event("go", 1, (), ("R-GO-WHEN",), {"gos": 3, "base": 9})
    assert go != Event("stop", 1, (), ("R-GO-WHEN",), {"gos": 2, "base": 9})
    assert go != Event("go", 1, ("m01-bright",), ("R-GO-WHEN",), {"gos": 2, "base": 9})
    assert go != Event("go", 1, (), ("R-GO-RISE",), {"gos": 2, "base": 9})
    assert go != ("go", 1, (), ("R-GO-WHEN",), {"gos": 2, "base": 9})
    assert Event("flip").data == {} and Event("flip").player is None and Event("flip").cards == ()
    for name in ("kind", "player", "cards", "clauses", "data"):
        with pytest.raises(AttributeError):
            setattr(go, name, None)
    with pytest.raises(TypeError):
        hash(go)
    assert repr(go) == "Event(kind='go', player=1, cards=(), clauses=('R-GO-WHEN',), data={'gos': 2, 'base': 9})"
