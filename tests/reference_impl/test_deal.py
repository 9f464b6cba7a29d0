"""R-SHUFFLE, R-DEAL-SIZE, R-DEAL-ORDER and explicit-deal validation."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from gostop_conformance.reference import Deal, RandomPlayer, Round, SplitMix64, complete_deal, seeded_deal, seeded_round
from gostop_conformance.reference._deal import check_deal, deal_cards
from gostop_conformance.spec import InputError, deck, load_ruleset, ruleset_ids


def test_splitmix64_reference_values() -> None:
    """The first outputs for seed 0 are SplitMix64's published test values."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def _textbook(seed: int) -> Iterator[int]:
    """R-SHUFFLE's generator exactly as the clause writes it, on Python integers."""
    mod = 1 << 64
    state = seed % mod
    while True:
        state = (state + 0x9E3779B97F4A7C15) % mod
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % mod
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % mod
        yield z ^ (z >> 31)


_EDGE_SEEDS = [0, 1, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 0x9E3779B97F4A7C15]

#: bounds past the compiled build's 32-bit-halves arithmetic (no deal or player draws them; a
#: caller of the public SplitMix64 may)
_LARGE_BOUNDS = (2**31 - 1, 2**31, 2**31 + 1, 2**40 + 7, 2**63 - 1, 2**64 + 3)


def test_splitmix64_is_the_definition_over_many_seeds() -> None:
    """Both builds draw R-SHUFFLE's values (the compiled one computes them on 32-bit halves in
    native integers): next() and below() against the clause's formula, for every bound a deal or
    a random player uses, over edge seeds and 400 seeds spread over the 64-bit range."""
    spread = random.Random(20240517)
    seeds = _EDGE_SEEDS + [spread.getrandbits(64) for _ in range(400)]
    for seed in seeds:
        rng, expected = SplitMix64(seed), _textbook(seed)
        assert [rng.next() for _ in range(8)] == [next(expected) for _ in range(8)], seed
        for bound in (*range(1, 61), *_LARGE_BOUNDS):
            assert rng.below(bound) == next(expected) % bound, (seed, bound)
        # the native path itself, whichever build runs this (the interpreted one draws otherwise)
        halves, again = SplitMix64(seed), _textbook(seed)
        for _ in range(20):
            hi, lo = halves._step()
            assert (hi << 32) | lo == next(again), seed


@pytest.mark.parametrize("native", [False, True])
def test_both_paths_of_next_and_below_draw_the_definition(monkeypatch: pytest.MonkeyPatch, native: bool) -> None:
    """The interpreted build runs either path of next() and below() when told to, so its tests
    check the compiled build's 32-bit-halves path too (mutation testing runs interpreted); the
    compiled build, whose flag is compiled in, checks its own path whatever the flag says."""
    from gostop_conformance.reference import _rng

    monkeypatch.setattr(_rng, "_NATIVE", native)
    spread = random.Random(7)
    for seed in _EDGE_SEEDS + [spread.getrandbits(64) for _ in range(50)]:
        rng, expected = SplitMix64(seed), _textbook(seed)
        assert [rng.next() for _ in range(4)] == [next(expected) for _ in range(4)], seed
        for bound in (1, 2, 3, 7, 12, 48, 52, 60, *_LARGE_BOUNDS):
            assert rng.below(bound) == next(expected) % bound, (seed, bound)


def test_splitmix64_shuffle_is_fisher_yates_over_the_definition() -> None:
    """R-SHUFFLE: for i from n - 1 down to 1, j = next() mod (i + 1), swap."""
    for seed in _EDGE_SEEDS + list(range(50)):
        items, values = list(range(52)), _textbook(seed)
        for i in range(51, 0, -1):
            j = next(values) % (i + 1)
            items[i], items[j] = items[j], items[i]
        got = list(range(52))
        SplitMix64(seed).shuffle(got)
        assert got == items, seed


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
    from gostop_conformance.spec import deck

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


@pytest.mark.parametrize("rid", ["family-2p", "family-3p", "family-4p"])
def test_point_count_deal_with_an_extra_or_a_missing_card_is_never_played(rid: str) -> None:
    """R-PC-END, seed 001: 'If there is an extra or missing card, it means someone has cheated and
    the game ends in a draw.' A protocol deal places every card once, so a wrong count is refused
    as input before any turn, not played and scored."""
    o = load_ruleset(rid).options
    d = seeded_deal(o, SplitMix64(5), 0)
    extra = replace(d, table=(*d.table, d.stock[0]))
    with pytest.raises(InputError, match=rf"card {d.stock[0]!r} appears twice"):
        check_deal(extra, o)
    missing = replace(d, stock=d.stock[1:])
    with pytest.raises(InputError, match=rf"missing cards: {d.stock[0]}; every card of the deck must be placed exactly once"):
        check_deal(missing, o)


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
    from gostop_conformance.reference import Match
    from gostop_conformance.reference._deal import deck_indices
    from gostop_conformance.spec import deck

    match = Match(load_ruleset("standard-3p"), 1)
    assert match.dealer == 2
    cards = deck_indices(match.o)
    match.rng.shuffle(cards)
    assert [deck().cards[i].id for i in cards[:6]] == ["m03-junk-2", "m02-ribbon", "m10-junk-2", "m07-junk-1", "m01-ribbon", "m01-junk-1"]


def test_a_captured_list_for_another_number_of_seats_names_its_path() -> None:
    d = _deal(captured=((),))
    with pytest.raises(InputError, match=r"^deal\.captured: expected 2 captured piles, got 1$"):
        check_deal(d, load_ruleset("matgo-2p").options)


def test_missing_cards_are_listed_in_deck_order() -> None:
    """Deck order (spec/deck.yaml), not the ids' alphabetical order: January's ribbon before its
    junk, a month's cards before the next month's."""
    o = load_ruleset("matgo-2p").options
    gone = ("m12-ribbon", "m01-junk-1", "m10-animal", "m02-junk-2", "m01-ribbon", "m11-junk-2", "m04-animal")
    d = complete_deal(o, [["m01-bright"], ["m02-animal"]], ["m03-bright"], [])
    d = replace(d, stock=tuple(c for c in d.stock if c not in gone))
    in_deck_order = "m01-ribbon, m01-junk-1, m02-junk-2, m04-animal, m10-animal, m11-junk-2, m12-ribbon"
    with pytest.raises(InputError, match=rf"^deal: missing cards: {in_deck_order}; "):
        check_deal(d, o)


def test_a_stack_of_a_month_without_three_table_cards_names_its_path() -> None:
    d = _deal(stacks={3: None})
    with pytest.raises(InputError, match=r"^deal\.stacks\.3: a stack needs exactly three cards of month 3 on the table$"):
        check_deal(d, load_ruleset("matgo-2p").options)


@pytest.mark.parametrize("owner", [-1, 2])
def test_a_stack_owned_by_no_seat_names_its_path(owner: int) -> None:
    o = load_ruleset("matgo-2p").options
    d = complete_deal(o, [["m01-bright"], ["m02-animal"]], ["m03-bright", "m03-ribbon", "m03-junk-1"], [], stacks={3: owner})
    with pytest.raises(InputError, match=rf"^deal\.stacks\.3: expected an owner seat from 0 to 1 or null, got {owner}$"):
        check_deal(d, o)
    check_deal(replace(d, stacks={3: 1}), o)  # the last seat owns it


def test_player_states_for_another_number_of_seats_name_their_path() -> None:
    """A Deal made in process, not only one read from JSON: a state for a seat the deal does not
    have is refused before any of its fields is read."""
    from gostop_conformance.reference import PlayerState

    extra = (PlayerState(), PlayerState(), PlayerState(dual_junk=("m09-animal",)))
    d = _deal(captured=((), ()), player_state=extra)
    with pytest.raises(InputError, match=r"^deal\.players: expected 2 player states \(one per hand\), got 3$"):
        check_deal(d, load_ruleset("matgo-2p").options)


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_a_seeded_round_is_the_round_of_the_seeded_deal(ruleset_id: str) -> None:
    """seeded_round deals straight into indices (deal_cards): over many seeds, the deal it makes
    is seeded_deal's, and the round it starts is Round(seeded_deal(...)) event for event, to the end
    of a random round (snapshots compared on the way)."""
    rs = load_ruleset(ruleset_id)
    o = rs.options
    ids = deck().cards
    for seed in range(60):
        dealer = seed % o.players
        dealt = deal_cards(o, SplitMix64(seed), dealer)
        deal = seeded_deal(o, SplitMix64(seed), dealer)
        assert [[ids[c].id for c in h] for h in dealt.hands] == [list(h) for h in deal.hands]
        assert [ids[c].id for c in dealt.table] == list(deal.table)
        assert [ids[c].id for c in dealt.stock] == list(deal.stock)
        fast, slow = seeded_round(rs, SplitMix64(seed), dealer), Round(rs, deal)
        assert fast.deal_events == slow.deal_events
        picks, twin = RandomPlayer(seed), RandomPlayer(seed)
        while not slow.over:
            assert fast.snapshot() == slow.snapshot()
            assert fast.legal_actions() == slow.legal_actions()
            assert fast.apply(picks.choose(fast)) == slow.apply(twin.choose(slow))
        assert fast.over and fast.settlement == slow.settlement
