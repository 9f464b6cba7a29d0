"""Comparing what an engine reports with what a scenario expects: outcomes over conventions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gostop_conformance.harness import ReferenceEngine, load_corpus, run_scenario
from gostop_conformance.harness._compare import (
    Mismatch,
    card_class,
    cards_equal,
    check_events,
    check_legal,
    check_score_reply,
    check_seen,
    differing_cards,
)
from gostop_conformance.spec import load_ruleset


def test_equivalent_cards_are_one_card_unless_exact() -> None:
    assert card_class("m05-junk-2") == card_class("m05-junk-1") != card_class("m06-junk-1")
    assert card_class("bonus-2c") == card_class("bonus-2a") != card_class("bonus-3")
    assert card_class("m11-double-junk") != card_class("m11-junk-1")
    assert cards_equal(["m05-junk-1", "m01-bright"], ["m01-bright", "m05-junk-2"])
    assert not cards_equal(["m05-junk-1", "m01-bright"], ["m01-bright", "m05-junk-2"], exact=True)
    assert not cards_equal(["m05-junk-1", "m05-junk-1"], ["m05-junk-1", "m06-junk-1"])


def test_a_steal_of_the_other_equivalent_junk_passes() -> None:
    state = {"captured": [["m09-junk-1", "m09-junk-2", "m04-junk-2"], []]}
    spec = {"captured": [["m09-junk-1", "m09-junk-2", "m04-junk-1"], []]}
    assert check_seen(spec, [], state, "step 1") == []
    [m] = check_seen(spec, [], state, "step 1", exact=True)
    assert m.binding and "missing m04-junk-1; extra m04-junk-2" in m.text()
    events = [{"kind": "steal", "player": 1, "to": 0, "cards": ["m04-junk-2"]}]
    expected = {"events": {"contains": [{"kind": "steal", "cards": ["m04-junk-1"]}]}}
    assert check_seen(expected, events, state, "step 1", event_log=True) == []


def test_legal_actions_compare_as_a_set_of_choices() -> None:
    both = {"actions": [{"type": "play", "player": 0, "card": "m05-junk-1"}, {"type": "play", "player": 0, "card": "m05-junk-2"}]}
    one = {"actions": [{"type": "play", "player": 0, "card": "m05-junk-1"}]}
    assert check_legal({"exact": both["actions"]}, one, "w") == []
    assert check_legal({"exact": both["actions"]}, one, "w", exact=True) != []
    assert check_legal({"contains": [{"type": "play", "player": 0, "card": "m05-junk-2"}]}, one, "w") == []
    assert check_legal({"absent": [{"type": "play", "player": 0, "card": "m05-junk-2"}]}, one, "w") != []


def test_event_differences_are_notes_unless_the_scenario_is_about_the_event_log() -> None:
    spec = {"events": {"contains": [{"kind": "steal_exempt"}]}, "captured": [["m01-bright"], []]}
    state = {"captured": [["m01-bright"], []]}
    [note] = check_seen(spec, [], state, "step 9")
    assert not note.binding and note.text().startswith("note, not a failure: step 9: events.contains")
    [failure] = check_seen(spec, [], state, "step 9", event_log=True)
    assert failure.binding


def test_lists_without_order_compare_as_multisets() -> None:
    spec = {"settlement": {"losers": [{"seat": 1, "baks": ["pi_bak", "gwang_bak"]}]}}
    score = {"scores": [], "settlement": {"losers": [{"seat": 1, "baks": ["gwang_bak", "pi_bak"]}]}}
    assert check_score_reply(spec, score, "end") == []


class SilentEngine(ReferenceEngine):
    """The reference engine reporting no event at all: its play is right, its log empty."""

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        reply = super().act(action)
        return {**reply, "events": []} if "events" in reply else reply


def test_an_engine_with_an_empty_event_log_passes_on_outcomes_and_fails_event_log_scenarios() -> None:
    # scenarios about the event log (event_log: true) fail such an engine, as they should: the others
    corpus = [sc for sc in load_corpus() if not sc.event_log and any(step.expect and "events" in step.expect for step in sc.steps)]
    assert len(corpus) > 50
    noted = 0
    for sc in corpus[:60]:
        result = run_scenario(SilentEngine(), sc)
        assert result.outcome == "PASS", result.text()
        assert not any(m.binding for m in result.mismatches)
        if result.mismatches:  # the scenario expected events the engine did not report
            noted += 1
            assert run_scenario(SilentEngine(), replace(sc, event_log=True)).outcome == "FAIL"
    assert noted >= 30


def test_captured_single_junk_of_any_month_is_one_class_unless_months_score() -> None:
    """R-STEAL: which single junk a giver hands over is the giver's choice in play; once captured,
    only the point-count sets and palssari tell the months of single junk apart."""
    from gostop_conformance.harness._compare import pile_class
    from gostop_conformance.spec import load_ruleset

    plain = load_ruleset("matgo-2p").options
    state = {"captured": [["m01-bright", "m04-junk-1"], []]}
    spec = {"captured": [["m01-bright", "m01-junk-1"], []]}
    assert pile_class("m04-junk-1", plain) == pile_class("m01-junk-2", plain) != pile_class("m11-double-junk", plain)
    assert check_seen(spec, [], state, "w", rules=plain) == []
    assert check_seen(spec, [], state, "w") != []  # without the rules: by card class
    in_hand = {"hands": [["m01-bright", "m01-junk-1"], []]}
    assert check_seen(in_hand, [], {"hands": state["captured"]}, "w", rules=plain) != []  # a hand card's month matters
    palssari = load_ruleset("matgo-2p").with_overrides({"extra_yaku": ["palssari"]}, "test").options
    assert check_seen(spec, [], state, "w", rules=palssari) != []
    assert pile_class("m05-junk-1", palssari) == pile_class("m01-junk-1", palssari)
    family = load_ruleset("family-3p").options
    assert pile_class("m05-junk-1", family) != pile_class("m01-junk-1", family)


def test_captured_double_junk_of_either_month_is_one_class_unless_months_score() -> None:
    """R-STEAL: a giver holding both double junk hands over either; no rule but the point-count
    sets (R-PC-SETS) tells them apart once captured (go-stop-python hands over m12-double-junk
    where the reference hands m11-double-junk: seeds 1000642, 1001750 of its fuzz run)."""
    from gostop_conformance.harness._compare import pile_class
    from gostop_conformance.spec import load_ruleset

    plain = load_ruleset("matgo-2p").options
    spec = {"captured": [["m01-bright", "m11-double-junk"], ["m12-double-junk", "m03-junk-1"]]}
    state = {"captured": [["m01-bright", "m12-double-junk"], ["m11-double-junk", "m03-junk-1"]]}
    assert pile_class("m11-double-junk", plain) == pile_class("m12-double-junk", plain) != pile_class("m03-junk-1", plain)
    assert check_seen(spec, [], state, "w", rules=plain) == []
    assert check_seen(spec, [], state, "w", rules=plain, exact=True) != []
    assert check_seen(spec, [], state, "w") != []  # without the rules: by card class
    palssari = load_ruleset("matgo-2p").with_overrides({"extra_yaku": ["palssari"]}, "test").options
    assert check_seen(spec, [], state, "w", rules=palssari) == []  # palssari scores April and July only
    family = load_ruleset("family-3p").options
    assert pile_class("m11-double-junk", family) != pile_class("m12-double-junk", family)
    in_hand = {"hands": [["m11-double-junk"], []]}
    assert check_seen(in_hand, [], {"hands": [["m12-double-junk"], []]}, "w", rules=plain) != []  # a hand card's month matters


def test_a_pile_compared_by_units_is_not_named_by_card_ids() -> None:
    """A captured pile's mismatch says what differs as compared: junk of any month by units, never
    the reference's own choice of card as "missing" (it need not be surrendered)."""
    from gostop_conformance.harness._compat import _first_problem
    from gostop_conformance.spec import load_ruleset

    plain = load_ruleset("matgo-2p").options
    expected = ["m01-bright", "m02-junk-1", "m11-double-junk", "m05-animal", "m06-junk-1", "m07-junk-2", "m08-junk-1"]
    got = ["m01-bright", "m09-junk-2", "m12-double-junk", "m12-double-junk", "m06-junk-1", "m07-junk-2", "m08-junk-1"]
    [m] = check_seen({"captured": [expected, []]}, [], {"captured": [got, []]}, "step 3", rules=plain)
    diff = "7 cards expected, 7 reported; missing m05-animal; extra 1 double junk; junk of any month compared by units (R-STEAL)"
    assert m.note == diff and m.brief() == diff and m.text() == f"step 3: captured[0]\n    {diff}"
    assert "m02-junk-1" not in m.text() and "m11-double-junk" not in m.text()
    record = {"mismatches": [{"where": m.where, "path": m.path, "expected": m.expected, "actual": m.actual, "note": m.note}]}
    assert _first_problem(record) == f"captured[0]: {diff}"
    [short] = check_seen({"captured": [["m02-junk-1"], []]}, [], {"captured": [["m05-animal"], []]}, "w", rules=plain)
    assert short.text().endswith(
        "(1 card expected, 1 reported; missing 1 single junk; extra m05-animal; junk of any month compared by units (R-STEAL))"
    )
    [by_id] = check_seen({"captured": [expected, []]}, [], {"captured": [got, []]}, "w", rules=plain, exact=True)
    assert not by_id.note and "missing m02-junk-1 m05-animal m11-double-junk" in by_id.text()


JJOK = [
    {"kind": "play", "player": 0, "cards": ["m09-junk-1"]},
    {"kind": "flip", "player": 0, "cards": ["m09-junk-2"]},
    {"kind": "jjok", "player": 0, "cards": ["m09-junk-1", "m09-junk-2"]},
    {"kind": "steal", "player": 1, "to": 0, "cards": ["m03-junk-1"], "requested": 1, "units": 1},
]


def test_an_event_log_mismatch_names_the_first_event_and_field_that_differ() -> None:
    """Docs: an event list is shown where it parts from the expected one, not cut at 250 characters."""
    no_requested = [*JJOK[:3], {k: v for k, v in JJOK[3].items() if k != "requested"}]
    [m] = check_events({"exact": JJOK}, no_requested, "w")
    assert m.note == "event 4 (steal): requested: missing (expected 1)" and m.brief() == m.note
    reordered = [JJOK[0], JJOK[2], JJOK[1], JJOK[3]]
    assert check_events({"exact": JJOK}, reordered, "w")[0].note == "event 2: expected flip, got jjok (the flip comes as event 3)"
    assert check_events({"exact": JJOK}, JJOK[:2], "w")[0].note == "event 3 (jjok) and after are missing: jjok, steal"
    extra = [*JJOK, {"kind": "sweep", "player": 0}]
    assert check_events({"exact": JJOK}, extra, "w")[0].note == "1 more event than expected, from event 5: sweep"
    other_card = [*JJOK[:3], {**JJOK[3], "cards": ["m04-animal"]}]
    assert check_events({"exact": JJOK}, other_card, "w")[0].note == (
        "event 4 (steal): cards: 1 card expected, 1 reported; missing m03-junk-1; extra m04-animal"
    )


def test_a_missing_event_names_the_closest_reported_one() -> None:
    wanted = {"kind": "steal", "player": 1, "requested": 2, "units": 2}
    reported = [*JJOK[:3], {"kind": "steal", "player": 1, "to": 0, "cards": ["m03-junk-1"], "units": 1}]
    [m] = check_events({"contains": [wanted]}, reported, "w")
    assert m.note == "the steal event reported differs: requested: missing (expected 2); units: expected 2, got 1"
    assert check_events({"contains": [{"kind": "sweep"}]}, reported, "w")[0].note == "no sweep event reported"


def test_a_legal_actions_mismatch_lists_the_missing_and_extra_actions() -> None:
    expected = [{"type": "play", "player": 0, "card": "m10-junk-1"}, {"type": "bomb", "player": 0, "month": 10}]
    legal = {"actions": [{"type": "bomb", "player": 0, "month": 10}, {"type": "play", "player": 0, "card": "m04-ribbon"}]}
    [m] = check_legal({"exact": expected}, legal, "w")
    assert m.note == "as a set of actions: missing: play P0 card=m10-junk-1; extra: play P0 card=m04-ribbon"
    assert check_legal({"contains": expected[:1]}, legal, "w")[0].note == "not offered: play P0 card=m10-junk-1"


def test_the_cards_a_mismatch_found_missing_and_extra_are_named_as_they_were_compared() -> None:
    """What replay.html outlines: a pile by units (a stolen single junk of any month), another list
    by equivalence class, each card as itself under exact; of equivalent cards, the one the other
    list lacks by id is named."""
    rules = load_ruleset("matgo-2p").options
    steal = Mismatch("step 1", "captured[0]", ["m09-junk-1", "m09-junk-2", "m04-junk-1"], ["m09-junk-2", "m09-junk-1"])
    assert differing_cards(steal, rules) == (["m04-junk-1"], [])
    given = Mismatch("step 1", "captured[1]", ["m04-ribbon"], ["m04-junk-1", "m04-ribbon"])
    assert differing_cards(given, rules) == ([], ["m04-junk-1"])
    # two single junk expected, one of another month reported: one is missing, by units, not both by id
    short = Mismatch("step 1", "captured[0]", ["m05-junk-1", "m04-junk-1"], ["m06-junk-1"])
    assert differing_cards(short, rules) == (["m04-junk-1"], [])
    assert differing_cards(short, rules, exact=True) == (["m04-junk-1", "m05-junk-1"], ["m06-junk-1"])
    # the table compares equivalent cards as one: the other junk of May is the same card there
    table = Mismatch("after the deal", "table", ["m05-junk-1", "m01-bright"], ["m05-junk-2"])
    assert differing_cards(table, rules) == (["m01-bright"], [])
    assert differing_cards(Mismatch("step 1", "stock_count", 3, 4), rules) is None
