"""R-SHUFFLE, R-DEAL-SIZE, R-DEAL-ORDER and explicit-deal validation."""

from __future__ import annotations

import pytest

from reference_impl import Deal, Round, SplitMix64, complete_deal, seeded_deal
from reference_impl._deal import check_deal
from spec import InputError, load_ruleset


def test_splitmix64_reference_values() -> None:
    """The first outputs for seed 0 are SplitMix64's published test values."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize(
    ("rid", "hand", "table", "stock"),
    [("matgo-2p", 10, 8, 20), ("standard-3p", 7, 6, 21), ("family-4p", 5, 8, 20), ("matgo-online", 10, 8, 22)],
)
def test_seeded_deal_sizes(rid: str, hand: int, table: int, stock: int) -> None:
    o = load_ruleset(rid).options
    d = seeded_deal(o, SplitMix64(5), dealer=1)
    assert [len(h) for h in d.hands] == [hand] * o.players
    assert (len(d.table), len(d.stock)) == (table, stock)
    check_deal(d, o)


def test_sloperama_layout() -> None:
    rs = load_ruleset("matgo-2p").with_overrides({"deal_layout": "8-10", "deal_packet_order": "sloperama"}, "t")
    d = seeded_deal(rs.options, SplitMix64(5), dealer=0)
    # 48 - 2 x 8 - 10 = 22 (rules-matrix A-39 says "stock 20 in both", which does not add up)
    assert ([len(h) for h in d.hands], len(d.table), len(d.stock)) == ([8, 8], 10, 22)


def test_wp_packet_order_two_players() -> None:
    """R-DEAL-ORDER (wp): 4 table, 5 opponent, 5 dealer, 4 table, 5 opponent, 5 dealer from the top."""
    o = load_ruleset("matgo-2p").options
    rng = SplitMix64(9)
    d = seeded_deal(o, rng, dealer=0)
    order = list(range(48))
    SplitMix64(9).shuffle(order)
    from spec import deck

    ids = [deck().cards[i].id for i in order]
    assert list(d.table) == ids[0:4] + ids[14:18]
    assert set(d.hands[1]) == set(ids[4:9] + ids[18:23])
    assert set(d.hands[0]) == set(ids[9:14] + ids[23:28])
    assert list(d.stock) == ids[28:]


def test_same_seed_same_deal() -> None:
    o = load_ruleset("standard-3p").options
    assert seeded_deal(o, SplitMix64(11), 0) == seeded_deal(o, SplitMix64(11), 0)
    assert seeded_deal(o, SplitMix64(11), 0) != seeded_deal(o, SplitMix64(12), 0)


def _deal(**changes: object) -> Deal:
    o = load_ruleset("matgo-2p").options
    d = complete_deal(o, [["m01-bright"], ["m02-animal"]], ["m03-bright"], [])
    from dataclasses import replace

    return replace(d, **changes)


def test_duplicate_card_is_named() -> None:
    d = _deal(hands=(("m01-bright",), ("m01-bright",)))
    with pytest.raises(InputError, match=r"deal.hands\[1\]\[0\]: card 'm01-bright' appears twice \(also in deal.hands\[0\]\)"):
        check_deal(d, load_ruleset("matgo-2p").options)


def test_unknown_card_is_named() -> None:
    d = _deal(table=("m13-bright",))
    with pytest.raises(InputError, match=r"deal.table\[0\]: unknown card 'm13-bright'"):
        check_deal(d, load_ruleset("matgo-2p").options)


def test_missing_card_is_named() -> None:
    d = _deal(table=())
    with pytest.raises(InputError, match="missing cards: m03-bright"):
        check_deal(d, load_ruleset("matgo-2p").options)


def test_bonus_card_outside_the_rulesets_deck() -> None:
    d = _deal(table=("m03-bright", "bonus-3"))
    with pytest.raises(InputError, match=r"card 'bonus-3' is not in this ruleset's deck"):
        check_deal(d, load_ruleset("matgo-2p").options)


def test_table_bonus_goes_to_the_dealer_with_cascade() -> None:
    """R-DEAL-BONUS (A-07): replacements cascade; the table checks run afterwards (a May triple here)."""
    rs = load_ruleset("matgo-online")
    d = complete_deal(
        rs.options, [["m01-junk-1"], ["m02-junk-1"]], ["bonus-2a", "m05-junk-1", "m05-junk-2"], ["bonus-3", "m05-ribbon"], dealer=1
    )
    rnd = Round(rs, d)
    snap = rnd.snapshot()
    assert snap["captured"][1] == ["bonus-2a", "bonus-3"]
    assert snap["stacks"] == [{"month": 5, "owner": None, "cards": ["m05-ribbon", "m05-junk-1", "m05-junk-2"], "bonus": []}]


@pytest.mark.parametrize(("rid", "kind", "each"), [("standard-3p", "chongtong", 3), ("site-default-3p", "chongtong", 10)])
def test_chongtong_instant_win(rid: str, kind: str, each: int) -> None:
    """R-CHONGTONG (A-29): four of a month dealt to a hand wins at once."""
    rs = load_ruleset(rid)
    hands = [["m01-junk-1"], ["m07-animal", "m07-ribbon", "m07-junk-1", "m07-junk-2"], ["m02-junk-1"]]
    rnd = Round(rs, complete_deal(rs.options, hands, ["m03-junk-1"], []))
    assert rnd.over and rnd.settlement is not None
    assert (rnd.settlement.kind, rnd.settlement.winner, rnd.settlement.net) == (kind, 1, (-each, 2 * each, -each))


def test_chongtong_redeal_house_rule() -> None:
    rs = load_ruleset("site-default-3p").with_overrides({"hand_chongtong": "redeal"}, "t")
    hands = [["m01-junk-1"], ["m07-animal", "m07-ribbon", "m07-junk-1", "m07-junk-2"], ["m02-junk-1"]]
    rnd = Round(rs, complete_deal(rs.options, hands, ["m03-junk-1"], []))
    assert rnd.settlement is not None and rnd.settlement.kind == "redeal"


@pytest.mark.parametrize(("mode", "kind"), [("redeal", "redeal"), ("nagari", "nagari"), ("dealer_wins_fixed", "dealer_wins_fixed")])
def test_four_of_a_month_on_the_table(mode: str, kind: str) -> None:
    """R-TABLE-FOUR (A-31)."""
    rs = load_ruleset("matgo-2p").with_overrides({"table_four_of_month": mode}, "t")
    table = ["m04-animal", "m04-ribbon", "m04-junk-1", "m04-junk-2"]
    rnd = Round(rs, complete_deal(rs.options, [["m01-junk-1"], ["m02-junk-1"]], table, []))
    assert rnd.settlement is not None and rnd.settlement.kind == kind


def test_dealer_captures_four() -> None:
    rs = load_ruleset("matgo-2p").with_overrides({"table_four_of_month": "dealer_captures_four"}, "t")
    table = ["m04-animal", "m04-ribbon", "m04-junk-1", "m04-junk-2", "m05-junk-1"]
    rnd = Round(rs, complete_deal(rs.options, [["m01-junk-1"], ["m02-junk-1"]], table, [], dealer=1))
    assert not rnd.over
    assert rnd.snapshot()["captured"][1] == ["m04-animal", "m04-ribbon", "m04-junk-1", "m04-junk-2"]


def test_match_seed_one_values_from_the_spec() -> None:
    """R-SHUFFLE's informative values (worked out from the algorithm as written in the clause)."""
    from reference_impl import Match
    from reference_impl._deal import deck_indices
    from spec import deck

    match = Match(load_ruleset("standard-3p"), 1)
    assert match.dealer == 2
    cards = deck_indices(match.o)
    match.rng.shuffle(cards)
    assert [deck().cards[i].id for i in cards[:6]] == ["m03-junk-2", "m02-ribbon", "m10-junk-2", "m07-junk-1", "m01-ribbon", "m01-junk-1"]
