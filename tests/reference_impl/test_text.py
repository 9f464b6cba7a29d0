"""The text view of the play command (reference_impl/_text.py): cards, actions, events, the state
of a round and settlements as a person reads them. Each expectation is worked out from the rules
(what the position holds, what the settlement pays) and the view's layout."""

from __future__ import annotations

from gostop_conformance.reference import Action, Event, Round
from gostop_conformance.reference._deal import Deal
from gostop_conformance.reference._settlement import settle_fixed, settle_stop, settle_void, with_side_payments
from gostop_conformance.reference._text import action_text, cards, event_text, settlement_text, state_text
from gostop_conformance.spec import load_ruleset
from tests.reference_impl.test_settlement import seat


def test_cards_are_listed_by_id_and_none_is_a_dash() -> None:
    assert cards([]) == "-"
    assert cards(iter(["m01-bright", "m02-animal"])) == "m01-bright m02-animal"


def test_an_action_names_its_card_the_card_it_takes_its_month_and_a_shake() -> None:
    assert action_text(Action("go", 1)) == "go"
    assert action_text(Action("play", 0, "m01-bright")) == "play m01-bright"
    assert action_text(Action("play", 0, "m01-bright", "m01-junk-2", None, True)) == "play m01-bright taking m01-junk-2 (with shake)"
    assert action_text(Action("bomb", 0, month=12)) == "bomb month 12"


def test_an_event_shows_its_player_cards_data_and_clauses_and_drops_empty_data() -> None:
    ppeok = Event("ppeok", 0, ("m01-ribbon", "m01-bright"), ("R-MATCH", "R-PPEOK"), {"month": 1, "bonus": [], "note": "", "x": None})
    assert event_text(ppeok) == "P0 ppeok [m01-ribbon m01-bright] month=1  <R-MATCH, R-PPEOK>"
    deal = Event("deal", None, (), ("R-DEAL-SIZE",), {"dealer": 1})
    assert event_text(deal) == "deal dealer=1  <R-DEAL-SIZE>"


def test_the_state_shows_table_stacks_stock_hands_and_captures() -> None:
    """P0 plays the January bright onto the January ribbon and flips the third January card: a
    ppeok (R-PPEOK), whose three cards stay on the table as P0's stack."""
    rs = load_ruleset("matgo-2p")
    deal = Deal(
        players=2,
        dealer=0,
        hands=(("m01-bright", "m02-animal"), ("m02-ribbon", "m03-bright")),
        table=("m01-ribbon",),
        stock=("m01-junk-1", "m03-junk-1", "m03-junk-2"),
    )
    rnd = Round(rs, deal, check=False)
    assert state_text(rnd) == [
        "  table: m01-ribbon",
        "  stock: 3 cards",
        "  P0 hand: m01-bright m02-animal",
        "  P0 captured (0 pts): -",
        "  P1 hand: m02-ribbon m03-bright",
        "  P1 captured (0 pts): -",
    ]
    rnd.apply(Action("play", 0, "m01-bright"))
    assert state_text(rnd)[:3] == [
        "  table: m01-bright m01-ribbon m01-junk-1",
        "  stack m01 (P0): m01-bright m01-ribbon m01-junk-1",
        "  stock: 2 cards",
    ]
    # P1 matches the March bright with the flipped March junk: a bright and a junk, 0 points yet
    rnd.apply(Action("play", 1, "m03-bright"))
    assert state_text(rnd)[-1] == "  P1 captured (0 pts): m03-bright m03-junk-1"


def test_a_stack_dealt_to_the_table_has_no_owner_and_point_count_shows_card_points() -> None:
    """R-TABLE-TRIPLE: three cards of a month dealt to the table lie as a stack nobody made;
    the point-count variant counts card values (R-PC-CARD-POINTS), not Go-Stop points."""
    rs = load_ruleset("family-2p")
    assert rs.options.scoring_system == "point_count"
    deal = Deal(
        players=2,
        dealer=0,
        hands=(("m01-bright",), ("m02-ribbon",)),
        table=("m03-bright", "m03-ribbon", "m03-junk-1"),
        stock=("m05-junk-1", "m06-junk-1"),
    )
    lines = state_text(Round(rs, deal, check=False))
    assert "  stack m03 (dealt): m03-bright m03-ribbon m03-junk-1" in lines
    assert "  P0 captured (0 card points): -" in lines


def test_a_stop_settlement_shows_the_score_the_multipliers_each_loser_and_the_net() -> None:
    """matgo-2p: three brights without the rain bright score 3 (R-BRIGHT); the loser took no
    bright, so gwang-bak doubles what they owe (R-GWANG-BAK): 6."""
    o = load_ruleset("matgo-2p").options
    won = settle_stop("stop", 0, [seat("m01-bright", "m03-bright", "m08-bright"), seat("m02-animal")], 0, o, 1)
    assert settlement_text(won) == [
        "outcome: stop, winner P0",
        "  base 3 (brights 3, godori 0, animals 0, ribbons 0, dan 0 [], junk 0 from 0 units)",
        "  gos 0: +0, x1; shake/bomb x1; meongtta x1; carry x1 => 3 points",
        "  P1: gwang_bak; owes 6, pays 6",
        "  net: P0 +6, P1 -6",
    ]
    named = settlement_text(won, ["Ann", "Bo"])
    assert (named[0], named[3], named[4]) == ("outcome: stop, winner Ann", "  Bo: gwang_bak; owes 6, pays 6", "  net: Ann +6, Bo -6")
    # R-FIRST-TURN-AWARD: an award of 7 from P1 is listed and enters the net
    awarded = settlement_text(with_side_payments(won, [(1, 0, 7)]))
    assert awarded[-2:] == ["  awards: [[1, 0, 7]]", "  net: P0 +13, P1 -13"]


def test_an_exempt_loser_is_marked() -> None:
    """R-EMPTY-EXEMPT: a loser who captured nothing pays nothing when the option is on."""
    o = load_ruleset("matgo-2p").with_overrides({"empty_capture_exempt": True}, "test").options
    won = settle_stop("stop", 0, [seat("m01-bright", "m03-bright", "m08-bright"), seat()], 0, o, 1)
    assert settlement_text(won)[3:] == ["  P1: no bak; owes 0, pays 0 (exempt)", "  net: P0 +0, P1 +0"]


def test_instant_wins_and_void_rounds_show_their_own_lines() -> None:
    o = load_ruleset("matgo-2p").options
    chongtong = settle_fixed("chongtong", 1, 10, 2, 0, o, ("R-CHONGTONG",), 1)
    assert settlement_text(chongtong) == [
        "outcome: chongtong, winner P1",
        "  10 points from each opponent, carry x1",
        "  net: P0 -10, P1 +10",
    ]
    nagari = settle_void("nagari", 3, ("R-NAGARI",), 4)
    assert settlement_text(nagari) == ["outcome: nagari", "  void_multiplier: 4", "  net: P0 +0, P1 +0, P2 +0"]


def test_an_event_lists_every_data_field_separated_by_a_space() -> None:
    go = Event("go", 1, (), ("R-GO-WHEN",), {"gos": 2, "base": 9})
    assert event_text(go) == "P1 go gos=2 base=9  <R-GO-WHEN>"


def test_a_win_by_the_last_go_caller_shows_the_score_like_a_stop_and_baks_are_listed_with_commas() -> None:
    """R-EXHAUST-AFTER-GO (last_go_caller_wins) is paid as a Stop, and shown the same way.
    matgo-2p: P0's five brights score 15 (R-SCORE-BRIGHT) and ten junk units 1 (R-SCORE-JUNK): base 16; P1
    took no bright (R-GWANG-BAK) and one junk unit against a winner who scored junk (R-PI-BAK):
    two baks, listed with a comma."""
    o = load_ruleset("matgo-2p").options
    brights = ("m01-bright", "m03-bright", "m08-bright", "m11-bright", "m12-bright")
    junk = ("m01-junk-1", "m01-junk-2", "m02-junk-1", "m02-junk-2", "m03-junk-1", "m03-junk-2", "m04-junk-1", "m04-junk-2")
    won = settle_stop("last_go_caller_wins", 0, [seat(*brights, *junk, "m05-junk-1", "m05-junk-2", gos=1), seat("m06-junk-1")], 0, o, 1)
    lines = settlement_text(won)
    assert lines[0] == "outcome: last_go_caller_wins, winner P0"
    assert lines[1].startswith("  base 16 (brights 15, godori 0, animals 0, ribbons 0, dan 0 [], junk 1 from 10 units)")
    assert lines[3].startswith("  P1: gwang_bak, pi_bak; owes ")


def test_three_ppeok_and_a_dealer_win_show_the_fixed_payment() -> None:
    o = load_ruleset("matgo-2p").options
    for kind in ("three_ppeok", "dealer_wins_fixed"):
        fixed = settle_fixed(kind, 0, 7, 2, 0, o, ("R-THREE-PPEOK",), 1)
        assert settlement_text(fixed)[:2] == [f"outcome: {kind}, winner P0", "  7 points from each opponent, carry x1"]
