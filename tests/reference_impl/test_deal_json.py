"""The deal as the harness sends it to engines (protocol `deal`, spec/protocol/protocol.schema.json):
Deal.to_json, the scenario completion rule (complete_deal_json) and normalized_deal_json.

The corpus completes its scenario deals at collection time only, so these run the same functions
inside test functions; every expectation is written from the protocol schema and the docstrings."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

import jsonschema
import pytest

from gostop_conformance.reference import Deal, PlayerState, complete_deal
from gostop_conformance.reference._deal import complete_deal_json, deal_from_json, normalized_deal_json
from gostop_conformance.spec import InputError, deck, load_ruleset

DEFS: Final = json.loads(resources.files("gostop_conformance.spec").joinpath("protocol/protocol.schema.json").read_text(encoding="utf-8"))[
    "$defs"
]


def _validate_deal(raw: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator({"$defs": DEFS, "$ref": "#/$defs/explicit_deal"}).validate(raw)


def _mid_game_deal() -> Deal:
    """A game in progress with every optional field away from its default (two stacks, one owned)."""
    o = load_ruleset("matgo-2p").options
    return complete_deal(
        o,
        [["m01-bright", "m02-animal"], ["m04-animal"]],
        ["m03-bright", "m03-junk-1", "m03-junk-2", "m05-animal", "m05-junk-1", "m05-junk-2", "m06-animal"],
        ["m07-animal", "m08-animal"],
        dealer=1,
        captured=[["m09-animal", "m09-junk-1"], ["m10-animal"]],
        stacks={5: 1, 3: None},
        player_state=(
            PlayerState(
                gos=2, go_base=9, first_go_turn=4, shaken_months=(1, 2), bombs=(11,), skip_credits=1, ppeoks=1, dual_junk=("m09-animal",)
            ),
            PlayerState(ppeoks=2),
        ),
        nagari_streak=2,
        carried_multiplier=2,
        turn=7,
        first_player=0,
    )


def test_complete_deal_takes_every_deal_field_and_defaults_the_dealer_to_seat_0() -> None:
    """complete_deal passes the mid-game fields through to the Deal; without a dealer it is seat 0,
    the protocol's default seat (normalized_deal_json fills dealer 0 likewise)."""
    d = _mid_game_deal()
    assert (d.dealer, d.nagari_streak, d.carried_multiplier, d.turn, d.first_player) == (1, 2, 2, 7, 0)
    assert dict(d.stacks) == {5: 1, 3: None}
    plain = complete_deal(load_ruleset("matgo-2p").options, [["m01-bright"], ["m02-animal"]], ["m03-bright"], [])
    assert plain.dealer == 0


def test_mid_game_deal_to_json_validates_and_round_trips() -> None:
    """Every non-default field reaches the JSON under its protocol name: the JSON is a valid
    explicit_deal and reads back (deal_from_json) as the same Deal."""
    d = _mid_game_deal()
    raw = d.to_json()
    _validate_deal(raw)
    assert raw["stacks"] == [{"month": 3, "owner": None}, {"month": 5, "owner": 1}]
    assert raw["players"][0]["first_go_turn"] == 4
    assert "first_go_turn" not in raw["players"][1], "absent means no Go yet (player_state.first_go_turn)"
    assert (raw["nagari_streak"], raw["carried_multiplier"], raw["turn"], raw["first_player"]) == (2, 2, 7, 0)
    assert raw["captured"] == [["m09-animal", "m09-junk-1"], ["m10-animal"]]
    assert deal_from_json(raw, load_ruleset("matgo-2p").options) == d


def test_fresh_deal_to_json_leaves_the_defaults_out() -> None:
    """A fresh deal (no captures, stacks, player states, streak, carry, turn or first player) is the
    four required fields only; absent optional fields mean the fresh-round values."""
    d = complete_deal(load_ruleset("matgo-2p").options, [["m01-bright"], ["m02-animal"]], ["m03-bright"], ["m04-animal"], dealer=1)
    raw = d.to_json()
    _validate_deal(raw)
    assert sorted(raw) == ["dealer", "hands", "stock", "table"]
    assert raw["dealer"] == 1 and raw["stock"][0] == "m04-animal"
    assert deal_from_json(raw, load_ruleset("matgo-2p").options) == d


def _expected_rest(rid: str, listed: set[str]) -> list[str]:
    """The ruleset's deck in canonical order (the 48 cards, then its bonus cards by index), minus `listed`."""
    o = load_ruleset(rid).options
    cards = deck().cards
    used: list[int] = []
    for units in o.bonus_cards:
        used.append(next(c.index for c in cards[48:] if c.units == units and c.index not in used))
    return [cards[i].id for i in [*range(48), *sorted(used)] if cards[i].id not in listed]


@pytest.mark.parametrize("rid", ["matgo-2p", "matgo-online", "standard-3p"])
def test_complete_deal_json_appends_exactly_the_unlisted_cards(rid: str) -> None:
    """The scenario completion rule: the unlisted cards of the ruleset's deck go to the bottom of
    the stock in canonical order; cards listed in hands, table, stock or captured are not repeated,
    other fields are kept and `complete` is dropped."""
    n = load_ruleset(rid).options.players
    hands = [["m01-bright", "m01-junk-1"], ["m02-animal"], ["m11-bright"]][:n]
    captured = [["m12-animal"], ["m12-ribbon"], []][:n]
    raw: dict[str, Any] = {
        "complete": True,
        "dealer": 1,
        "hands": hands,
        "table": ["m03-bright", "m04-junk-1"],
        "stock": ["m05-animal", "m06-animal"],
        "captured": captured,
        "nagari_streak": 1,
    }
    listed = {c for g in (*hands, raw["table"], raw["stock"], *captured) for c in g}
    out = complete_deal_json(raw, load_ruleset(rid).options)
    assert "complete" not in out
    assert (out["dealer"], out["hands"], out["table"], out["captured"], out["nagari_streak"]) == (1, hands, raw["table"], captured, 1)
    assert out["stock"] == ["m05-animal", "m06-animal", *_expected_rest(rid, listed)]
    assert raw["stock"] == ["m05-animal", "m06-animal"], "the scenario's own deal is not changed"
    _validate_deal(out)
    deal_from_json(out, load_ruleset(rid).options)  # every card exactly once


def test_complete_deal_json_with_hands_only() -> None:
    """Only `hands` is required of a scenario deal to complete: no table, stock or captured means
    the table is empty and every other card goes to the stock, in canonical order, below nothing."""
    raw = {"complete": True, "hands": [["m01-bright"], ["m02-animal"]]}
    out = complete_deal_json(raw, load_ruleset("matgo-2p").options)
    assert out == {
        "dealer": 0,
        "hands": [["m01-bright"], ["m02-animal"]],
        "table": [],
        "stock": _expected_rest("matgo-2p", {"m01-bright", "m02-animal"}),
    }
    _validate_deal(out)


def test_normalized_deal_json_fills_dealer_table_and_stock() -> None:
    """The deal as sent to engines: dealer 0, table [] and stock [] when absent, `complete` dropped,
    every other field kept as it is."""
    raw = {"complete": False, "hands": [["m01-bright"]], "turn": 3}
    assert normalized_deal_json(raw) == {"hands": [["m01-bright"]], "turn": 3, "dealer": 0, "table": [], "stock": []}
    given = {"dealer": 1, "hands": [["m01-bright"]], "table": ["m02-animal"], "stock": ["m03-bright"]}
    assert normalized_deal_json(given) == given


def test_a_seeded_deal_request_carries_the_streak_and_the_carry() -> None:
    """R-NAGARI-CARRY, protocol `seeded_deal`: the void-round streak and the carried multiplier
    of a seeded deal request reach the round (absent: 0 and 1), beside the seed and the dealer."""
    options = load_ruleset("matgo-2p").options
    deal = deal_from_json({"seed": 5, "dealer": 1, "nagari_streak": 2, "carried_multiplier": 3}, options)
    assert (deal.dealer, deal.nagari_streak, deal.carried_multiplier) == (1, 2, 3)
    plain = deal_from_json({"seed": 5, "dealer": 1}, options)
    assert (plain.nagari_streak, plain.carried_multiplier) == (0, 1)
    assert (plain.hands, plain.table, plain.stock) == (deal.hands, deal.table, deal.stock)


@pytest.mark.parametrize(
    ("request_", "path"),
    [
        ({"seed": 1 << 64}, "deal.seed"),
        ({"seed": -1}, "deal.seed"),
        ({"seed": True}, "deal.seed"),
        ({"seed": "7"}, "deal.seed"),
        ({"seed": 5, "dealer": 2}, "deal.dealer"),
        ({"seed": 5, "dealer": -1}, "deal.dealer"),
        ({"seed": 5, "dealer": "0"}, "deal.dealer"),
    ],
)
def test_a_seeded_deal_request_out_of_range_names_the_field(request_: dict[str, Any], path: str) -> None:
    """R-SHUFFLE: the seed is an integer from 0 to 2^64 - 1 (a boolean is not one), the dealer a
    seat of the ruleset; anything else is refused with the path of the field."""
    from gostop_conformance.spec import InputError

    with pytest.raises(InputError) as refused:
        deal_from_json(request_, load_ruleset("matgo-2p").options)
    assert str(refused.value).startswith(path)


def test_the_largest_seed_and_the_last_seat_are_accepted() -> None:
    deal = deal_from_json({"seed": (1 << 64) - 1, "dealer": 1}, load_ruleset("matgo-2p").options)
    assert deal.dealer == 1


def test_an_explicit_deal_without_dealer_or_go_base_takes_seat_0_and_no_go_base() -> None:
    """Protocol `explicit_deal`: the dealer defaults to seat 0, and a player state that gives Gos
    without the base of the last one starts from 0 (R-GO-RISE compares against it)."""
    o = load_ruleset("matgo-2p").options
    raw = complete_deal_json({"hands": [["m01-bright"], ["m02-animal"]], "players": [{"gos": 1}, {}]}, o)
    raw.pop("dealer", None)
    deal = deal_from_json(raw, o)
    assert deal.dealer == 0
    assert deal.player_state is not None and (deal.player_state[0].gos, deal.player_state[0].go_base) == (1, 0)


def _all_in_hands() -> dict[str, Any]:
    """A matgo-2p deal with every card in a hand: no table and no stock keys at all."""
    ids = [c.id for c in deck().cards if c.kind != "bonus"]
    return {"hands": [ids[:24], ids[24:]]}


def test_a_deal_without_table_or_stock_has_both_empty() -> None:
    d = deal_from_json(_all_in_hands(), load_ruleset("matgo-2p").options)
    assert (d.table, d.stock, d.dealer) == ((), (), 0)


def test_a_deal_whose_player_states_do_not_match_its_hands_names_the_field() -> None:
    with pytest.raises(InputError) as refused:
        deal_from_json({**_all_in_hands(), "players": [{}]}, load_ruleset("matgo-2p").options, "scenario.deal")
    assert refused.value.where == "scenario.deal.players"
    assert refused.value.detail == "expected 2 player states (one per hand), got 1"


def test_a_deal_missing_a_card_is_refused_at_the_callers_path() -> None:
    raw = _all_in_hands()
    raw["hands"][1] = raw["hands"][1][:-1]
    with pytest.raises(InputError) as refused:
        deal_from_json(raw, load_ruleset("matgo-2p").options, "scenario.deal")
    assert refused.value.where == "scenario.deal"
    assert "missing cards: m12-double-junk" in refused.value.detail


def test_a_deal_for_another_player_count_is_refused_at_its_players_path() -> None:
    ids = [c.id for c in deck().cards if c.kind != "bonus"]
    with pytest.raises(InputError) as refused:
        deal_from_json({"hands": [ids[:16], ids[16:32], ids[32:]]}, load_ruleset("matgo-2p").options, "scenario.deal")
    assert refused.value.where == "scenario.deal.players"
    assert refused.value.detail == "the ruleset is for 2 players, got 3"


def test_a_dealer_outside_the_seats_is_refused_at_its_dealer_path() -> None:
    raw = {**_all_in_hands(), "dealer": 2}
    with pytest.raises(InputError) as refused:
        deal_from_json(raw, load_ruleset("matgo-2p").options, "scenario.deal")
    assert refused.value.where == "scenario.deal.dealer"
    assert refused.value.detail == "expected a seat from 0 to 1, got 2"


def test_a_deal_with_more_hands_than_players_is_refused_at_its_hands_path() -> None:
    from gostop_conformance.reference._deal import check_deal

    ids = [c.id for c in deck().cards if c.kind != "bonus"]
    deal = Deal(players=2, dealer=0, hands=(tuple(ids[:16]), tuple(ids[16:32]), tuple(ids[32:])), table=(), stock=())
    with pytest.raises(InputError) as refused:
        check_deal(deal, load_ruleset("matgo-2p").options, "scenario.deal")
    assert refused.value.where == "scenario.deal.hands"
    assert refused.value.detail == "expected 2 hands, got 3"


@pytest.mark.parametrize("moved", ["m09-animal", "m08-animal"])
def test_a_moved_card_must_be_a_dual_role_card_its_owner_holds(moved: str) -> None:
    """R-DUAL-ROLE (owner_one_way_to_junk): the cup in seat 1's hand, not its pile, cannot have
    been moved to junk; nor can the August animal, which is no dual-role card."""
    ids = [c.id for c in deck().cards if c.kind != "bonus"]
    piles = [[c for c in ids if c in ("m08-animal",)], []]
    rest = [c for c in ids if c not in piles[0]]
    raw = {"hands": [rest[:24], rest[24:]], "captured": piles, "players": [{}, {"dual_junk": [moved]}]}
    with pytest.raises(InputError) as refused:
        deal_from_json(raw, load_ruleset("matgo-2p").options, "scenario.deal")
    assert refused.value.where == "scenario.deal.players[1].dual_junk[0]"
    assert refused.value.detail.startswith(f"card {moved!r} must be a dual-role card")
