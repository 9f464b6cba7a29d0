"""Options beyond the core rulesets, each pinned by a case whose outcome it changes."""

from __future__ import annotations

import pytest

from gostop_conformance.reference import Action, Match, Rejection
from gostop_conformance.reference._scoring import breakdown
from gostop_conformance.reference._settlement import Seat, settle_stop, void_multiplier
from gostop_conformance.spec import deck, load_ruleset
from tests.conftest import play, ruleset, start


def idx(*ids: str) -> tuple[int, ...]:
    return tuple(sorted(deck().card(c).index for c in ids))


def test_must_play_replacement() -> None:
    """R-BONUS-HAND: the card drawn for the bonus is this turn's hand card."""
    hands = [["bonus-3", "m02-junk-1"], ["m03-junk-2"]]
    rnd = start("matgo-online", hands=hands, table=["m04-junk-1"], stock=["m09-ribbon"], bonus_replacement_use="must_play_replacement")
    rnd.apply(Action("bonus", 0, card="bonus-3"))
    assert rnd.legal_actions() == [Action("play", 0, card="m09-ribbon")]
    with pytest.raises(Rejection) as err:
        play(rnd, "m02-junk-1")
    assert err.value.code == "must_play_replacement"
    default = start("matgo-online", hands=hands, table=["m04-junk-1"], stock=["m09-ribbon"])
    default.apply(Action("bonus", 0, card="bonus-3"))
    play(default, "m02-junk-1")  # legal when the replacement simply joins the hand


def test_chongtong_may_be_declared_later() -> None:
    """R-CHONGTONG (instant_win_or_continue): no win at the deal; the holder declares at a turn start."""
    four = ["m07-animal", "m07-ribbon", "m07-junk-1", "m07-junk-2"]
    rnd = start(
        "standard-3p",
        hands=[[*four, "m01-junk-1"], ["m02-junk-1"], ["m03-junk-1"]],
        table=["m04-junk-1"],
        hand_chongtong="instant_win_or_continue",
    )
    assert not rnd.over
    assert Action("chongtong", 0, month=7) in rnd.legal_actions()
    rnd.apply(Action("chongtong", 0, month=7))
    assert rnd.settlement is not None
    assert (rnd.settlement.kind, rnd.settlement.net) == ("chongtong", (6, -3, -3))


def test_first_turn_ppeok_award_is_paid_at_once() -> None:
    """R-FIRST-TURN-AWARD: 3 points from the opponent, standing even in a void round."""
    rnd = start(
        "matgo-2p", hands=[["m01-junk-2"], ["m02-junk-2"]], table=["m01-junk-1"], stock=["m01-ribbon", "m11-junk-1"], first_ppeok_award=3
    )
    events = play(rnd, "m01-junk-2")
    assert [e.data.get("points") for e in events if e.kind == "award"] == [3]
    play(rnd, "m02-junk-2")
    assert rnd.settlement is not None
    assert (rnd.settlement.kind, rnd.settlement.net) == ("nagari", (3, -3))


@pytest.mark.parametrize(
    ("yaku", "cards", "godori"),
    [
        ((), ("m02-animal", "m04-animal", "m08-animal", "m12-animal"), 5),
        (("yukdori",), ("m02-animal", "m04-animal", "m08-animal", "m12-animal"), 6),
        (("six_birds",), ("m02-animal", "m04-animal", "m08-animal", "m11-bright"), 6),
        (("three_birds_phoenix",), ("m02-animal", "m04-animal", "m11-bright"), 4),
        (("three_birds_phoenix",), ("m02-animal", "m04-animal", "m08-animal", "m11-bright"), 5),
    ],
)
def test_bird_combinations(yaku: tuple[str, ...], cards: tuple[str, ...], godori: int) -> None:
    """R-EXTRA-YAKU: the best bird combination replaces godori."""
    o = ruleset("standard-3p", extra_yaku=list(yaku)).options
    assert breakdown(idx(*cards), o).godori_points == godori


def test_all_ten_ribbons() -> None:
    ribbons = [c.id for c in deck().cards if c.kind == "ribbon"]
    o = ruleset("standard-3p", extra_yaku=["all_ten_ribbons"]).options
    b = breakdown(idx(*ribbons), o)
    # 10 ribbons: 6 points, hong + cheong + cho: 9, all ten: 15
    assert (b.ribbon_points, b.dan_points, b.extra_points, b.base) == (6, 9, 15, 30)


def test_palssari_counts_only_for_the_winner() -> None:
    """R-EXTRA-YAKU: 8 points added in W, not to the base score."""
    apr_jul = ("m04-animal", "m04-ribbon", "m04-junk-1", "m04-junk-2", "m07-animal", "m07-ribbon", "m07-junk-1", "m07-junk-2")
    o = ruleset("matgo-2p", extra_yaku=["palssari"], go_threshold=1).options
    winner = Seat(idx(*apr_jul), 0, None, (), (), (), ())
    b = breakdown(winner.captured, o)
    assert (b.base, b.winner_bonus) == (0, 8)
    s = settle_stop("stop", 0, [winner, Seat(idx("m12-ribbon"), 0, None, (), (), (), ())], 0, o)
    assert s.points == 8


def test_shake_x4_months() -> None:
    """R-SHAKE-BOMB-MULT: a shake of November counts x4 with shake_x4_months = [11, 12]."""
    rnd = start(
        "matgo-2p",
        hands=[["m11-bright", "m11-junk-1", "m11-junk-2", "m01-junk-1"], ["m02-junk-1"]],
        table=["m03-junk-1"],
        shake_x4_months=[11, 12],
    )
    rnd.apply(Action("shake", 0, month=11))
    assert rnd.seats[0].shake_factors == [4]


def test_pi_bak_measured_in_cards() -> None:
    """R-PI-BAK: two doubles + 4 singles = 8 units but 6 cards: pi-bak in 2p only when counting cards."""
    junk = [c.id for c in deck().cards if c.kind == "junk"][:12]
    winner = Seat(idx(*junk), 0, None, (), (), (), ())
    loser = Seat(idx("m11-double-junk", "m12-double-junk", "m10-junk-1", "m10-junk-2", "m11-junk-1", "m11-junk-2"), 0, None, (), (), (), ())
    by_units = settle_stop("stop", 0, [winner, loser], 0, ruleset("matgo-2p", go_threshold=3).options)
    by_cards = settle_stop("stop", 0, [winner, loser], 0, ruleset("matgo-2p", go_threshold=3, pi_bak_measure="cards").options)
    assert "pi_bak" not in by_units.losers[0].baks
    assert "pi_bak" in by_cards.losers[0].baks


def test_ribbon_bak() -> None:
    """R-RIBBON-BAK: winner with ribbon points, loser without a ribbon."""
    ribbons = ("m01-ribbon", "m02-ribbon", "m04-ribbon", "m06-ribbon", "m07-ribbon", "m09-ribbon", "m12-ribbon")  # no trio
    winner = Seat(idx(*ribbons), 0, None, (), (), (), ())  # 7 ribbons: 3 points
    loser = Seat(idx("m12-animal"), 0, None, (), (), (), ())
    plain = settle_stop("stop", 0, [winner, loser], 0, ruleset("matgo-2p", go_threshold=3).options)
    bak = settle_stop("stop", 0, [winner, loser], 0, ruleset("matgo-2p", go_threshold=3, ribbon_bak=True).options)
    assert (plain.losers[0].pays, bak.losers[0].pays) == (3, 6)


def test_void_round_multipliers_carry() -> None:
    """R-NAGARI-CARRY (nagari_carry_prior_multipliers): one shake (x2) and three Gos (x2) -> x4."""
    seats = [Seat((), 3, 1, (5,), (2,), (), ()), Seat((), 0, None, (), (), (), ())]
    assert void_multiplier(seats, ruleset("matgo-2p").options) == 1
    assert void_multiplier(seats, ruleset("matgo-2p", nagari_carry_prior_multipliers=True).options) == 4


def test_match_target_points_ends_the_match_early() -> None:
    """R-MATCH-ROUNDS: with a target of 1 point the first decided round with a payment ends the match."""
    rs = load_ruleset("matgo-2p").with_overrides({"match_rounds": 12, "match_target_points": 1}, "t")
    match = Match(rs, 3)
    from gostop_conformance.reference import RandomPlayer

    player = RandomPlayer(3)
    while not match.over:
        rnd = match.new_round()
        while not rnd.over:
            rnd.apply(player.choose(rnd))
        match.record(rnd)
    assert max(match.totals) >= 1
    assert len([r for r in match.records if r.settlement.kind not in ("nagari", "redeal")]) < 12
