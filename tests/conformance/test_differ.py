"""The first difference between two replies (conformance/_differ.py): what the fuzzer and profile
count as the same reply, whether or not the fast path (the field as sent) applies."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gostop_conformance.harness._differ import first_difference, normal_state, same_legal
from gostop_conformance.spec import load_ruleset

RULES = load_ruleset("matgo-2p").options


def reply(**state: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "decision": "play",
        "to_act": 0,
        "hands": [["m01-bright", "m01-junk-1", "m02-junk-1"], ["m03-bright", "m04-animal"]],
        "table": ["m05-animal", "m06-ribbon"],
        "stacks": [{"month": 7, "owner": 1, "cards": ["m07-junk-1", "m07-junk-2", "m07-animal"]}],
        "stock": ["m08-bright", "m09-animal"],
        "captured": [["m10-junk-1", "m11-junk-2"], []],
        "players": [{"gos": 0, "shaken_months": []}, {"gos": 1, "shaken_months": [3]}],
    }
    return {"state": {**base, **state}, "events": [{"kind": "play", "player": 0, "cards": ["m01-bright"]}]}


def test_the_same_reply_has_no_difference() -> None:
    assert first_difference(reply(), copy.deepcopy(reply()), "after action 1", RULES) is None


@pytest.mark.parametrize(
    "change",
    [
        {"hands": [["m02-junk-1", "m01-junk-1", "m01-bright"], ["m04-animal", "m03-bright"]]},  # order
        {"hands": [["m01-bright", "m01-junk-2", "m02-junk-1"], ["m03-bright", "m04-animal"]]},  # an equivalent card
        {"captured": [["m03-junk-1", "m04-junk-2"], []]},  # captured single junk of other months
        {"stacks": [{"month": 7, "owner": 1, "cards": ["m07-animal", "m07-junk-2", "m07-junk-1"]}]},
    ],
)
def test_what_scenarios_count_as_the_same_is_no_difference(change: dict[str, Any]) -> None:
    assert first_difference(reply(), reply(**change), "after action 1", RULES) is None


@pytest.mark.parametrize(
    ("change", "category", "expected", "actual"),
    [
        ({"to_act": 1}, "state.to_act", 0, 1),
        ({"table": ["m05-animal", "m06-junk-1"]}, "state.table", ["m05-animal", "m06-ribbon"], ["m05-animal", "m06-junk-1"]),
        ({"stock": ["m09-animal", "m08-bright"]}, "state.stock", ["m08-bright", "m09-animal"], ["m09-animal", "m08-bright"]),
        ({"captured": [["m10-junk-1", "m11-double-junk"], []]}, "state.captured", None, None),
        ({"players": [{"gos": 0, "shaken_months": []}, {"gos": 2, "shaken_months": [3]}]}, "players.gos", 1, 2),
    ],
)
def test_a_difference_is_found_and_shown_in_normal_form(change: dict[str, Any], category: str, expected: Any, actual: Any) -> None:
    diff = first_difference(reply(), reply(**change), "after action 1", RULES)
    assert diff is not None and diff[0] == category
    if expected is not None:
        assert (diff[2], diff[3]) == (expected, actual)


def test_an_absent_field_is_its_empty_value() -> None:
    """An engine that leaves out an empty field agrees with one that sends it empty."""
    ref = reply(table=[])
    got = copy.deepcopy(ref)
    del got["state"]["table"]
    assert first_difference(ref, got, "after the deal", RULES) is None
    assert normal_state(ref["state"], RULES) == normal_state(got["state"], RULES)


def test_the_first_difference_in_field_order() -> None:
    diff = first_difference(reply(), reply(to_act=1, table=[]), "after action 1", RULES)
    assert diff is not None and diff[0] == "state.to_act"


def test_events_only_when_asked_and_only_as_their_normal_form() -> None:
    got = reply()
    got["events"] = [{"kind": "play", "player": 0, "cards": ["m01-bright"], "clauses": ["R-TURN"]}]
    assert first_difference(reply(), got, "x", RULES, events=True) is None
    got["events"] = [{"kind": "flip", "player": 0, "cards": ["m01-bright"]}]
    assert first_difference(reply(), got, "x", RULES) is None
    assert first_difference(reply(), got, "x", RULES, events=True)[0] == "events"  # type: ignore[index]


def test_a_rejection_differs_by_its_code_only() -> None:
    refused = {"error": {"code": "illegal_action", "message": "not your turn"}}
    assert first_difference(refused, {"error": {"code": "illegal_action", "message": "other words"}}, "x", RULES) is None
    assert first_difference(refused, {"error": {"code": "bad_request", "message": "x"}}, "x", RULES)[0] == "rejection"  # type: ignore[index]
    assert first_difference(refused, reply(), "x", RULES)[0] == "rejection"  # type: ignore[index]


def test_legal_actions_as_sets_of_equivalent_actions() -> None:
    ref = {
        "player": 0,
        "actions": [{"type": "play", "player": 0, "card": "m01-junk-1"}, {"type": "play", "player": 0, "card": "m02-junk-1"}],
    }
    assert same_legal(ref, copy.deepcopy(ref))
    assert same_legal(ref, {"player": 0, "actions": list(reversed(ref["actions"]))})
    assert same_legal(ref, {"player": 0, "actions": [{"type": "play", "player": 0, "card": "m01-junk-2"}, ref["actions"][1]]})
    assert not same_legal(ref, {"player": 1, "actions": ref["actions"]})
    assert not same_legal(ref, {"player": 0, "actions": ref["actions"][:1]})
