"""Base score categories (R-SCORE-*, R-DEC-RIBBON, R-DUAL-ROLE), with values from rules-matrix §3 F."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gostop_conformance.reference._pointcount import pc_card_points, pc_sets
from gostop_conformance.reference._scoring import best_base, best_breakdown, breakdown, tally_base
from gostop_conformance.reference._tally import Tally
from gostop_conformance.spec import deck, ruleset_ids
from tests.conftest import ruleset


def idx(*ids: str) -> list[int]:
    return [deck().card(c).index for c in ids]


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        (("m01-bright", "m03-bright"), 0),
        (("m01-bright", "m03-bright", "m08-bright"), 3),
        (("m01-bright", "m03-bright", "m12-bright"), 2),
        (("m01-bright", "m03-bright", "m08-bright", "m11-bright"), 4),
        (("m01-bright", "m03-bright", "m08-bright", "m12-bright"), 4),
        (("m01-bright", "m03-bright", "m08-bright", "m11-bright", "m12-bright"), 15),
    ],
)
def test_brights(cards: tuple[str, ...], points: int) -> None:
    """R-SCORE-BRIGHT: 3 / 2 with rain / 4 / 15."""
    assert breakdown(idx(*cards), ruleset("standard-3p").options).bright_points == points


def test_dry_four_under_sloperama_values() -> None:
    o = ruleset("standard-3p", bright_4_dry=5).options
    assert breakdown(idx("m01-bright", "m03-bright", "m08-bright", "m11-bright"), o).bright_points == 5


def test_godori_plus_animals() -> None:
    """R-SCORE-GODORI, R-SCORE-ANIMAL: [001] example godori + 6 animals = 7 (5 + 2)."""
    cards = idx("m02-animal", "m04-animal", "m08-animal", "m06-animal", "m07-animal", "m10-animal")
    b = breakdown(cards, ruleset("standard-3p").options)
    assert (b.godori_points, b.animal_points, b.base) == (5, 2, 7)


def test_december_swallow_is_not_a_godori_bird() -> None:
    b = breakdown(idx("m02-animal", "m04-animal", "m12-animal"), ruleset("standard-3p").options)
    assert b.godori_points == 0


def test_ribbons_and_dans_add_up() -> None:
    """R-SCORE-RIBBON, R-SCORE-DAN: [001] example hong + cheong (6 ribbons) = 3 + 3 + 2 = 8."""
    cards = idx("m01-ribbon", "m02-ribbon", "m03-ribbon", "m06-ribbon", "m09-ribbon", "m10-ribbon")
    b = breakdown(cards, ruleset("standard-3p").options)
    assert (b.dans, b.dan_points, b.ribbon_points, b.base) == (("hong", "cheong"), 6, 2, 8)


@pytest.mark.parametrize(("mode", "ribbon_points", "dans"), [("ribbon_no_set", 1, ()), ("not_counted", 0, ()), ("in_cho_set", 1, ("cho",))])
def test_december_ribbon(mode: str, ribbon_points: int, dans: tuple[str, ...]) -> None:
    """R-DEC-RIBBON (A-36): four ribbons + the December ribbon."""
    cards = idx("m04-ribbon", "m05-ribbon", "m01-ribbon", "m06-ribbon", "m12-ribbon")
    b = breakdown(cards, ruleset("standard-3p", dec_ribbon=mode).options)
    assert (b.ribbon_points, b.dans) == (ribbon_points, dans)


def test_junk_units() -> None:
    """R-SCORE-JUNK: ten units = 1 point; doubles count 2."""
    cards = idx(
        "m01-junk-1", "m01-junk-2", "m02-junk-1", "m02-junk-2", "m03-junk-1", "m03-junk-2", "m04-junk-1", "m04-junk-2", "m11-double-junk"
    )
    b = breakdown(cards, ruleset("standard-3p").options)
    assert (b.junk_units, b.junk_points) == (10, 1)


def test_auto_best_allocates_the_cup_where_it_scores_more() -> None:
    """R-DUAL-ROLE (1): 9 single junk + the cup: as junk 11 units = 2 points beats 1 animal = 0."""
    cards = idx(
        "m09-animal",
        "m01-junk-1",
        "m01-junk-2",
        "m02-junk-1",
        "m02-junk-2",
        "m03-junk-1",
        "m03-junk-2",
        "m04-junk-1",
        "m04-junk-2",
        "m05-junk-1",
    )
    o = ruleset("standard-3p").options
    b = best_breakdown(cards, o)
    assert (b.junk_units, b.base, b.dual_as_junk) == (11, 2, ("m09-animal",))
    assert best_breakdown(cards, ruleset("standard-3p", dual_role_mode="fixed_animal").options).base == 0


def test_auto_best_may_count_both_dual_cards_as_junk() -> None:
    """R-DUAL-ROLE (1), two dual cards (the May bridge and the cup): 6 single junk + both as
    double junk = 10 units, 1 point; one as junk leaves 8 units and a lone animal, 0. Every
    allocation is tried, the one moving both cards too."""
    cards = idx("m05-animal", "m09-animal", "m01-junk-1", "m01-junk-2", "m02-junk-1", "m02-junk-2", "m03-junk-1", "m03-junk-2")
    o = ruleset("wikipedia-2p").options
    assert sorted(o.dual_role_cards) == ["m05-animal", "m09-animal"]
    b = best_breakdown(cards, o)
    assert (b.junk_units, b.animals, b.base, b.dual_as_junk) == (10, 0, 1, ("m05-animal", "m09-animal"))


def test_point_count_card_values_and_sets() -> None:
    """R-PC-CARD-POINTS, R-PC-SETS: 20 / 10 / 5 / 0; all four November cards pay 40."""
    o = ruleset("family-3p").options
    nov = idx("m11-bright", "m11-double-junk", "m11-junk-1", "m11-junk-2")
    assert pc_card_points(nov) == 20
    assert pc_sets(nov, o) == [("november", 40)]
    assert pc_card_points(range(48)) == 240


@settings(max_examples=2000, deadline=None, derandomize=True, database=None)
@given(
    pile=st.sets(st.integers(min_value=0, max_value=50)),
    rid=st.sampled_from(sorted(ruleset_ids())),
    dec=st.sampled_from(["ribbon_no_set", "not_counted", "in_cho_set"]),
    cup_as_junk=st.booleans(),
    mode=st.sampled_from(["auto_best", "fixed_animal", "fixed_double_junk", "owner_one_way_to_junk"]),
    moved=st.sets(st.sampled_from([32, 41, 47])),
)
def test_fast_base_score_equals_the_breakdown(pile: set[int], rid: str, dec: str, cup_as_junk: bool, mode: str, moved: set[int]) -> None:
    """tally_base and best_base are the hot-path (count and bit set) twins of breakdown(...).base
    and best_breakdown(...).base (R-SCORE-SUM, R-DUAL-ROLE), under every dual-role mode (tally_base
    is not used for rulesets with extra yaku: their scores need the whole breakdown)."""
    o = ruleset(rid, dec_ribbon=dec, dual_role_mode=mode).options
    as_junk = {32} & pile if cup_as_junk else set()
    if not o.extra_yaku:
        assert tally_base(Tally(pile), len(as_junk), o) == breakdown(pile, o, as_junk).base
    assert best_base(pile, o) == best_breakdown(pile, o).base
    assert best_base(pile, o, moved & pile) == best_breakdown(pile, o, moved & pile).base


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 51)), max_size=80))
def test_the_running_tally_equals_a_fresh_tally_of_the_pile(ops: list[tuple[bool, int]]) -> None:
    """The incremental tally a round keeps per seat (captures add, steals and ppeok stacks remove:
    R-STEAL) always equals the tally of the pile it describes."""
    from gostop_conformance.reference._tally import Tally

    pile: list[int] = []
    running = Tally(())
    for add, card in ops:
        if add and card not in pile:
            pile.append(card)
            running.add_all([card])
        elif not add and card in pile:
            pile.remove(card)
            running.remove(card)
        assert running == Tally(pile)


def test_an_empty_tally_holds_no_card_with_extra_combinations_on() -> None:
    """R-SCORE-BRIGHT, R-EXTRA-YAKU: with extra combinations the best base is worked out from the
    pile's bit set; two brights score nothing there as everywhere (a tally starting with a card in
    it would count a third bright)."""
    o = ruleset("matgo-2p", extra_yaku=["yukdori"]).options
    pile = [deck().by_id["m03-bright"].index, deck().by_id["m08-bright"].index]
    assert Tally().held == 0
    assert best_base(pile, o) == best_breakdown(pile, o).base == 0
