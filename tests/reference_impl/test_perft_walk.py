"""Perft on the reference engine (reference_impl/_perft.py): the per-ply statistics of spec/perft.yaml
on a round small enough to count by hand, and divide, the subtree sizes below each root action."""

from __future__ import annotations

from gostop_conformance.reference import Round, SplitMix64, perft, perft_divide, seeded_deal
from gostop_conformance.reference._deal import Deal
from gostop_conformance.spec import load_ruleset


def small_round() -> Round:
    """matgo-2p, P0 to play one card, P1 two, two cards in the stock and none on the table: P0's
    turn discards and flips, then either card P1 plays takes the last stock card and ends the round;
    nobody scores, so both endings are void (R-NAGARI)."""
    deal = Deal(
        players=2,
        dealer=0,
        hands=(("m01-bright",), ("m02-animal", "m05-animal")),
        table=(),
        stock=("m03-junk-1", "m04-junk-1"),
    )
    return Round(load_ruleset("matgo-2p"), deal, check=False)


def go_stop_round() -> Round:
    """matgo-2p: P0 holds the five brights (15 points, R-GO-THRESHOLD 7); either of P0's two hand
    cards ends the turn at the Go/Stop decision."""
    deal = Deal(
        players=2,
        dealer=0,
        hands=(("m06-junk-1", "m06-junk-2"), ("m07-junk-1", "m07-junk-2")),
        table=(),
        stock=("m09-junk-1", "m10-junk-1", "m10-junk-2"),
        captured=(("m01-bright", "m03-bright", "m08-bright", "m11-bright", "m12-bright"), ()),
    )
    return Round(load_ruleset("matgo-2p"), deal, check=False)


def test_perft_counts_nodes_terminal_nodes_and_void_rounds_per_ply() -> None:
    table = perft(small_round(), 3)
    assert (table[0]["nodes"], table[0]["terminal"], table[0]["nagari"]) == (1, 0, 0)
    assert (table[1]["nodes"], table[1]["terminal"], table[1]["nagari"]) == (2, 2, 2)
    assert table[2]["nodes"] == 0  # nothing follows the end of a round


def test_divide_gives_each_root_action_its_subtree_at_the_depth_below() -> None:
    rnd = small_round()
    assert [(a.type, a.card, n) for a, n in perft_divide(rnd, 1)] == [("play", "m01-bright", 1)]
    assert [n for _, n in perft_divide(rnd, 2)] == [2]  # P1's two plays
    assert [n for _, n in perft_divide(rnd, 3)] == [0]  # both end the round: nothing at ply 3
    # at the root of a fresh seeded round, divide's sizes add up to perft's count of the ply below
    rs = load_ruleset("standard-3p")
    fresh = Round(rs, seeded_deal(rs.options, SplitMix64(5), dealer=0))
    assert sum(n for _, n in perft_divide(fresh, 2)) == perft(fresh, 2)[1]["nodes"]
    assert all(n > 0 for _, n in perft_divide(fresh, 2))


def test_perft_counts_go_and_stop_calls() -> None:
    """matgo-2p: P0 holds the five brights (15 points, R-GO-THRESHOLD 7) and either of two hand
    cards ends a turn at the Go/Stop decision: at ply 2, two Gos and two Stops, the Stops ending
    the round (R-GO-WHEN)."""
    table = perft(go_stop_round(), 2)
    assert (table[0]["nodes"], table[0]["go"], table[0]["stop"]) == (2, 0, 0)
    assert (table[1]["nodes"], table[1]["go"], table[1]["stop"], table[1]["terminal"], table[1]["nagari"]) == (4, 2, 2, 2, 0)


def test_perft_to_depth_zero_counts_nothing() -> None:
    assert perft(small_round(), 0) == []


def test_divide_gives_an_action_that_ends_the_round_no_subtree() -> None:
    """At the Go/Stop decision of go_stop_round: a Stop ends the
    round (R-GO-WHEN), so nothing lies below it at any depth; a Go hands the turn to P1, whose two
    hand cards are the next ply."""
    rnd = go_stop_round()
    rnd.apply(rnd.legal_actions()[0])
    assert rnd.decision == "go_stop"
    assert sorted((a.type, n) for a, n in perft_divide(rnd, 2)) == [("go", 2), ("stop", 0)]
