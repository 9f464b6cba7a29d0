"""Settlement arithmetic (R-GO-BONUS, R-SETTLE, R-GO-BAK, R-PI-BAK, R-GWANG-BAK, R-NAGARI-CARRY).
Expected figures are the worked examples of rules-matrix §4 (A-21, A-22, A-23, A-24, A-33)."""

from __future__ import annotations

import pytest

from gostop_conformance.reference._settlement import Seat, carry_factor, go_multiplier, go_points, settle_fixed, settle_stop
from gostop_conformance.spec import deck
from tests.conftest import ruleset


def idx(*ids: str) -> tuple[int, ...]:
    return tuple(sorted(deck().card(c).index for c in ids))


def seat(
    *ids: str, gos: int = 0, first_go: int | None = None, shaken: tuple[int, ...] = (), bombs: tuple[tuple[int, bool], ...] = ()
) -> Seat:
    return Seat(idx(*ids), gos, first_go, shaken, tuple(2 for _ in shaken), bombs, ())


@pytest.mark.parametrize(
    ("multiplier", "bonus", "expected"),
    [
        ("exp2_from_3", "plus_one_per_go", [7, 8, 9, 20, 44, 96]),
        ("linear_from_3", "plus_one_per_go", [7, 8, 9, 20, 33, 48]),
        ("linear_from_3", "plus_first_two_only", [7, 8, 9, 18, 27, 36]),
        ("count_from_2", "plus_one_per_go", [7, 8, 14, 21, 28, 35]),
    ],
)
def test_go_arithmetic_table(multiplier: str, bonus: str, expected: list[int]) -> None:
    """A-21: payable points for base 7 and 0 to 5 Gos."""
    o = ruleset("matgo-2p", go_multiplier=multiplier, go_bonus=bonus).options
    assert [(7 + go_points(g, o)) * go_multiplier(g, o) for g in range(6)] == expected


# Winner: 13 single junk + the November double = 15 units -> 6 points, nothing else.
WINNER_15_UNITS = (
    "m01-junk-1",
    "m01-junk-2",
    "m02-junk-1",
    "m02-junk-2",
    "m03-junk-1",
    "m03-junk-2",
    "m04-junk-1",
    "m04-junk-2",
    "m05-junk-1",
    "m05-junk-2",
    "m06-junk-1",
    "m06-junk-2",
    "m07-junk-1",
    "m11-double-junk",
)
LOSER_A = ("m08-junk-1", "m08-junk-2", "m09-junk-1")  # 3 units: pi-bak
LOSER_B = ("m10-junk-1", "m10-junk-2", "m11-junk-1", "m11-junk-2", "m12-double-junk")  # 6 units: no pi-bak in 3p


@pytest.mark.parametrize(
    ("mode", "pays_a", "pays_b"),
    [("pay_for_all", 18, 0), ("double_own", 24, 6), ("pay_for_all_doubled", 36, 0), ("off", 12, 6)],
)
def test_three_player_go_bak(mode: str, pays_a: int, pays_b: int) -> None:
    """A-22: W = 6; loser A called Go and is pi-bak (12), loser B plain (6)."""
    o = ruleset("standard-3p", go_bak_mode=mode).options
    seats = [seat(*WINNER_15_UNITS), seat(*LOSER_A, gos=1, first_go=2), seat(*LOSER_B)]
    s = settle_stop("stop", 0, seats, 0, o)
    assert s.points == 6
    assert {line.seat: line.pays for line in s.losers} == {1: pays_a, 2: pays_b}
    assert s.net == (pays_a + pays_b, -pays_a, -pays_b)


@pytest.mark.parametrize(
    ("rid", "loser_units", "pi_bak"),
    [
        ("standard-3p", 5, True),
        ("standard-3p", 6, False),
        ("matgo-2p", 7, True),
        ("wikipedia-2p", 7, False),
        ("wikipedia-2p", 5, True),
        ("standard-3p", 0, True),
        ("matgo-online", 0, False),
        ("wikipedia-3p", 0, True),
    ],
)
def test_pi_bak_boundaries(rid: str, loser_units: int, pi_bak: bool) -> None:
    """A-23: the limit is in units after all steals; zero junk is exempt only where the ruleset says so."""
    pool = ["m08-junk-1", "m08-junk-2", "m09-junk-1", "m09-junk-2", "m10-junk-1", "m10-junk-2", "m11-junk-1"]
    loser = (*pool[:loser_units], "m12-animal")  # the animal keeps the pile non-empty
    o = ruleset(rid).options
    seats = [seat(*WINNER_15_UNITS), seat(*loser)] + ([seat("m12-ribbon")] if o.players == 3 else [])
    s = settle_stop("stop", 0, seats, 0, o)
    assert ("pi_bak" in s.losers[0].baks) is pi_bak


@pytest.mark.parametrize(("protects", "gwang_bak"), [(True, False), (False, True)])
def test_rain_bright_and_gwang_bak(protects: bool, gwang_bak: bool) -> None:
    """A-24: winner with three brights; the loser holds only the rain bright."""
    o = ruleset("matgo-2p", gwang_bak_rain_protects=protects, go_threshold=3).options
    seats = [seat("m01-bright", "m03-bright", "m08-bright"), seat("m12-bright")]
    s = settle_stop("stop", 0, seats, 0, o)
    assert s.base == 3
    assert ("gwang_bak" in s.losers[0].baks) is gwang_bak
    assert s.losers[0].pays == (6 if gwang_bak else 3)


def test_cup_counted_as_junk_saves_the_loser_from_pi_bak() -> None:
    """A-23 last case, R-DUAL-ROLE (3): cup + 4 single junk = 6 units under auto_best: no pi-bak in 3p."""
    o = ruleset("standard-3p").options
    loser = ("m09-animal", "m08-junk-1", "m08-junk-2", "m09-junk-1", "m09-junk-2")
    seats = [seat(*WINNER_15_UNITS), seat(*loser), seat("m12-ribbon")]
    s = settle_stop("stop", 0, seats, 0, o)
    assert "pi_bak" not in s.losers[0].baks
    fixed = ruleset("standard-3p", dual_role_mode="fixed_animal").options
    assert "pi_bak" in settle_stop("stop", 0, seats, 0, fixed).losers[0].baks


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [({}, 20), ({"nagari_carry_cap": 8}, 40), ({"nagari_carry_growth": "fixed_x2"}, 10), ({"nagari_carry_cap": "none"}, 40)],
)
def test_nagari_carry_after_three_void_rounds(overrides: dict[str, object], expected: int) -> None:
    """A-33: three void rounds, then a win with W = 5."""
    o = ruleset("standard-3p", **overrides).options
    assert 5 * carry_factor(3, o) == expected


def test_shake_and_bomb_factor() -> None:
    """R-SHAKE-BOMB-MULT (A-27): a shaken month bombed later counts once unless it stacks."""
    win = seat("m01-bright", "m03-bright", "m08-bright", shaken=(10,), bombs=((10, True),))
    std = settle_stop("stop", 0, [win, seat("m12-ribbon")], 0, ruleset("matgo-2p").options)
    assert std.shake_bomb_factor == 2
    stacks = settle_stop("stop", 0, [win, seat("m12-ribbon")], 0, ruleset("matgo-2p", shake_then_bomb_stacks=True).options)
    assert stacks.shake_bomb_factor == 4
    wiki = settle_stop("stop", 0, [seat("m01-bright", bombs=((10, True),)), seat("m12-ribbon")], 0, ruleset("wikipedia-2p").options)
    assert wiki.shake_bomb_factor == 1


def test_meongtta_doubles_for_seven_animals() -> None:
    """R-MEONG: a winner with seven animals doubles W under meongtta_7_global."""
    animals = ("m02-animal", "m04-animal", "m06-animal", "m07-animal", "m08-animal", "m10-animal", "m12-animal")
    o = ruleset("matgo-2p").options
    s = settle_stop("stop", 0, [seat(*animals), seat("m12-ribbon")], 0, o)
    # animals 7 -> 3 points, godori 5 -> base 8; x2 meongtta
    assert (s.base, s.meongtta, s.points) == (8, 2, 16)


def test_empty_capture_exempt() -> None:
    """R-EMPTY-EXEMPT (A-34): a loser who captured nothing pays nothing where the ruleset says so."""
    o = ruleset("standard-3p").options
    seats = [seat(*WINNER_15_UNITS), seat(), seat("m12-ribbon")]
    s = settle_stop("stop", 0, seats, 0, o)
    assert s.losers[0].exempt and s.losers[0].pays == 0
    s = settle_stop("stop", 0, seats, 0, ruleset("site-default-3p").options)
    assert not s.losers[0].exempt and s.losers[0].pays == 12  # zero junk is pi-bak in site-default


def test_a_stop_settlement_leaves_the_other_outcomes_fields_at_their_defaults() -> None:
    """A Stop names its own fields; the nagari's, the point count's and the awards keep their
    defaults (they are not sent: `Settlement.to_json`)."""
    won = settle_stop("stop", 0, [seat("m01-bright", "m03-bright", "m08-bright"), seat("m02-animal")], 0, ruleset("matgo-2p").options, 1)
    assert won.kind == "stop" and won.winner == 0 and won.base == 3 and won.void_multiplier == 1 and won.point_count is None
    assert won.awards == () and won.clauses[0] == "R-SETTLE" and won.winner_breakdown is not None


def test_an_instant_win_is_paid_by_each_opponent_in_turn_order() -> None:
    """R-CHONGTONG, R-THREE-PPEOK, R-TABLE-FOUR: the fixed points come from every other seat, in
    turn order from the winner, and the payments are what the nets add up."""
    o = ruleset("standard-3p").options
    won = settle_fixed("chongtong", 1, 10, 3, 0, o, ("R-CHONGTONG",), 1)
    assert won.payments == ((2, 1, 10), (0, 1, 10))
    assert won.net == (-10, 20, -10) and won.points == 10 and won.carry == 1
