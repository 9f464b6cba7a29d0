"""The invariants the harness checks on every engine's replies (conformance._oracle), and that an
option the engine does not declare is never judged through them."""

from __future__ import annotations

from gostop_conformance.harness._oracle import card_violations, score_violations
from gostop_conformance.spec import load_ruleset

#: the cup (dual-role) and nine single junk: 11 junk units with the cup as double junk (base 2 in
#: matgo-2p), nine with it as an animal (base 0)
PILE = ["m09-animal", *(f"m{m:02d}-junk-1" for m in (1, 2, 3, 4, 5, 6, 7, 8, 10))]
STATE = {"captured": [PILE, []], "players": [{}, {}]}


def test_a_score_that_does_not_recompute_from_the_pile_is_a_violation() -> None:
    o = load_ruleset("matgo-2p").options
    assert o.dual_role_mode == "auto_best"
    assert score_violations(STATE, [{"base": 2}, {"base": 0}], o) == []
    [problem] = score_violations(STATE, [{"base": 0}, {"base": 0}], o)
    assert problem.startswith("seat 0: reported base 0, but the captured pile scores 2 (recomputed: bright_points 0 (brights 0), ")
    assert "junk_points 2 (junk_units 11)" in problem


def test_a_score_mismatch_names_the_categories_the_engine_reports_otherwise() -> None:
    o = load_ruleset("matgo-2p").options
    reported = {"base": 0, "animal_points": 0, "junk_points": 0}
    [problem] = score_violations(STATE, [reported, {"base": 0}], o)
    assert problem == "seat 0: reported base 0, but the captured pile scores 2 (junk_points: reported 0, recomputed 2 (junk_units 11))"


def test_a_score_resting_on_an_undeclared_option_is_not_judged() -> None:
    """An engine that scores the cup as an animal (dual_role_mode = fixed_animal) and declares
    dual_role_mode unsupported: the base it reports is not judged under auto_best, while an
    option the recomputed base does not rest on leaves the check as it is."""
    o = load_ruleset("matgo-2p").options
    wrong = [{"base": 0}, {"base": 0}]
    assert score_violations(STATE, wrong, o, frozenset({"dual_role_mode"})) == []
    assert score_violations(STATE, wrong, o, frozenset({"go_threshold", "meong_mode"})) != []


def test_every_card_in_exactly_one_place() -> None:
    o = load_ruleset("matgo-2p").options
    state = {"hands": [["m01-bright"], []], "table": [], "stock": [], "captured": [[], []]}
    problems = card_violations(state, o)
    assert "m01-junk-1 is in 0 places" in problems and len(problems) == 47
    state["hands"][1] = ["m01-bright"]
    assert "m01-bright is in 2 places" in card_violations(state, o)
