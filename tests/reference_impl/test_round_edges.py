"""Round edges random play rarely or never reaches, each pinned from its clause: a chongtong
declared during play (R-CHONGTONG, instant_win_or_continue), what a redeal hands over (R-REDEAL),
the forced replacement card of a hand bonus (R-BONUS-HAND, R-TWO-MATCH-CHOICE), a hand bonus with
an empty stock."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gostop_conformance.reference import Action, Round, complete_deal
from gostop_conformance.spec import InputError
from tests.conftest import play, ruleset, start

FOUR_JULY = ["m07-animal", "m07-ribbon", "m07-junk-1", "m07-junk-2"]


def test_chongtong_declared_later_is_announced_and_the_winner_deals_next() -> None:
    """R-CHONGTONG (instant_win_or_continue): the holder shows the four cards of the month and wins
    3 (the threshold) from each opponent. A first-turn ppeok award (R-FIRST-TURN-AWARD, 10 here) was
    paid at once before, so another player ends with the best balance; the next dealer is still the
    winner (R-NEXT-DEALER), not the best balance."""
    rnd = start(
        "standard-3p",
        hands=[[*FOUR_JULY, "m01-junk-1"], ["m02-junk-2", "m09-junk-1"], ["m03-junk-1", "m10-junk-1"]],
        table=["m02-junk-1", "m04-junk-1"],
        stock=["m06-junk-1", "m02-ribbon", "m08-junk-1"],
        hand_chongtong="instant_win_or_continue",
        first_ppeok_award=10,
    )
    for card in ("m01-junk-1", "m02-junk-2", "m03-junk-1"):
        play(rnd, card)
    events = list(rnd.apply(Action("chongtong", 0, month=7)))
    shown = events[0]
    assert (shown.kind, shown.player, sorted(shown.cards), shown.clauses, shown.data) == (
        "chongtong",
        0,
        sorted(FOUR_JULY),
        ("R-CHONGTONG",),
        {"month": 7},
    )
    end = events[-1]
    assert (end.kind, end.clauses) == ("round_end", ("R-ROUND-END", "R-CHONGTONG"))
    s = rnd.settlement
    assert s is not None
    assert (s.kind, s.winner, s.net) == ("chongtong", 0, (6 - 10, -3 + 20, -3 - 10))
    assert s.clauses[0] == "R-CHONGTONG"
    assert rnd.next_round() == {"dealer": 0, "nagari_streak": 0, "carried_multiplier": 1, "counts_as_round": True}


def test_chongtong_declared_later_pays_the_carry() -> None:
    """R-NAGARI-CARRY (chongtong_multipliers = nagari_carry_only): after one void round (carry x2 by
    doubling) with a multiplier of 2 carried beyond the streak's own, each opponent pays 3 x 2 x 2."""
    rs = ruleset("standard-3p", hand_chongtong="instant_win_or_continue")
    deal = complete_deal(
        rs.options, [[*FOUR_JULY, "m01-junk-1"], ["m02-junk-1"], ["m03-junk-1"]], ["m04-junk-1"], [], nagari_streak=1, carried_multiplier=2
    )
    rnd = Round(rs, deal)
    rnd.apply(Action("chongtong", 0, month=7))
    s = rnd.settlement
    assert s is not None
    assert (s.kind, s.carry, s.net) == ("chongtong", 4, (24, -12, -12))


def test_a_redeal_hands_everything_over_unchanged() -> None:
    """R-REDEAL: the same dealer deals again, the void-round streak and carried multiplier stay as
    they were, and the cancelled deal does not count toward match_rounds (R-MATCH-ROUNDS)."""
    rs = ruleset("site-default-3p", hand_chongtong="redeal")
    hands = [["m01-junk-1"], [*FOUR_JULY], ["m02-junk-1"]]
    rnd = Round(rs, complete_deal(rs.options, hands, ["m03-junk-1"], [], dealer=1, nagari_streak=2, carried_multiplier=3))
    assert rnd.settlement is not None and rnd.settlement.kind == "redeal"
    assert rnd.next_round() == {"dealer": 1, "nagari_streak": 2, "carried_multiplier": 3, "counts_as_round": False}


@pytest.mark.parametrize(
    ("table", "timing", "expected"),
    [
        (["m09-animal", "m09-junk-1"], "at_play", [("m09-ribbon", "m09-animal"), ("m09-ribbon", "m09-junk-1")]),
        (["m09-animal", "m09-junk-1"], "after_flip", [("m09-ribbon", None)]),
        (["m09-junk-1", "m09-junk-2"], "at_play", [("m09-ribbon", None)]),
        (["m09-junk-1"], "at_play", [("m09-ribbon", None)]),
    ],
)
def test_forced_replacement_names_the_table_card_when_the_choice_is_at_play(
    table: list[str], timing: str, expected: list[tuple[str, str | None]]
) -> None:
    """R-BONUS-HAND (must_play_replacement): the replacement drawn for a hand bonus is the turn's
    hand card. R-TWO-MATCH-CHOICE: when it matches two table cards that are not equivalent and the
    choice is made at play, the player names the table card to take (one action per card); two
    equivalent cards, one card, or a choice after the flip leave a single plain play."""
    rnd = start(
        "matgo-online",
        hands=[["bonus-3", "m02-junk-1"], ["m03-junk-2"]],
        table=["m04-junk-1", *table],
        stock=["m09-ribbon"],
        bonus_replacement_use="must_play_replacement",
        two_match_choice_timing=timing,
    )
    rnd.apply(Action("bonus", 0, card="bonus-3"))
    assert [(a.type, a.card, a.take) for a in rnd.legal_actions()] == [("play", card, take) for card, take in expected]


def test_hand_bonus_with_an_empty_stock_has_no_replacement() -> None:
    """R-BONUS-HAND: the bonus card is captured at once and replaced by the top stock card; with
    the stock empty (a game in progress near its end, the hand holding bonus cards only, so that the
    bonus may be played) there is nothing to replace it with."""
    rs = ruleset("matgo-online")
    full = complete_deal(rs.options, [["bonus-3"], ["m03-junk-2"]], ["m04-junk-1"], [], captured=[[], []])
    deal = replace(full, stock=(), captured=(full.stock, ()))
    rnd = Round(rs, deal)
    events = list(rnd.apply(Action("bonus", 0, card="bonus-3")))
    bonus = [e for e in events if e.kind == "bonus"]
    assert len(bonus) == 1 and bonus[0].data["replacement"] == []


def test_a_round_checks_its_deal_unless_told_not_to() -> None:
    """Round(ruleset, deal) refuses a deal that places a card twice; check=False is the caller's
    promise that the deal is sound (a seeded deal, a match's next round)."""
    rs = ruleset("matgo-2p")
    good = complete_deal(rs.options, [["m01-bright"], ["m02-animal"]], ["m03-bright"], [])
    bad = replace(good, hands=(("m01-bright",), ("m01-bright",)))
    with pytest.raises(InputError, match=r"deal\.hands\[1\]\[0\]: card 'm01-bright' appears twice"):
        Round(rs, bad)
    Round(rs, good)


@pytest.mark.parametrize("first", [0, 1])
def test_a_position_names_who_acts_first(first: int) -> None:
    """R-TURN-ORDER: a deal's first_player (a mid-round position) overrides the dealer rule."""
    rs = ruleset("matgo-2p")
    deal = complete_deal(rs.options, [["m01-bright"], ["m02-animal"]], ["m03-bright"], ["m04-junk-1"], dealer=1, first_player=first)
    assert Round(rs, deal).to_act == first


def test_a_shake_of_a_position_counts_as_a_three_card_shake() -> None:
    """R-SHAKE-BOMB-MULT, R-FOUR-IN-HAND-LATER: a position's shaken months say which months were
    shown, not how many cards; under four_card_shake_x4 such a shake doubles (x2), and a month of
    shake_x4_months still quadruples."""
    from gostop_conformance.reference import PlayerState

    rs = ruleset("matgo-2p", four_in_hand_later="four_card_shake_x4", shake_x4_months=[11])
    states = (PlayerState(shaken_months=(7, 11)), PlayerState())
    deal = complete_deal(rs.options, [["m01-bright"], ["m02-animal"]], ["m03-bright"], ["m04-junk-1"], player_state=states, turn=2)
    assert Round(rs, deal).seats[0].shake_factors == [2, 4]


def test_four_bonus_cards_in_a_hand_are_no_chongtong() -> None:
    """R-CHONGTONG: a chongtong is the four cards of a month; bonus cards have no month
    (R-BONUS-DECK), so a hand dealt all four of them offers no chongtong to declare."""
    rnd = start(
        "matgo-2p",
        hands=[["bonus-2a", "bonus-2b", "bonus-3", "bonus-2c", "m01-bright"], ["m02-animal"]],
        table=["m03-bright"],
        stock=["m04-junk-1"],
        hand_chongtong="instant_win_or_continue",
        bonus_cards=[2, 2, 3, 2],
    )
    assert [a for a in rnd.legal_actions() if a.type == "chongtong"] == []
    assert {a.card for a in rnd.legal_actions() if a.type == "bonus"} == {"bonus-2a", "bonus-2b", "bonus-3", "bonus-2c"}
