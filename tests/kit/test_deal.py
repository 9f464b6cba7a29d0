"""kit.Deal and kit.Ruleset: new_game parsed and checked; a seeded deal spelled out as R-SHUFFLE,
R-DEAL-ORDER and R-FIRST-DEALER say, card for card the reference engine's."""

from __future__ import annotations

import pytest

from gostop_conformance import kit, spec
from gostop_conformance.reference import deal_from_json


def _ruleset(ruleset_id: str) -> kit.Ruleset:
    return kit.Ruleset(ruleset_id, spec.load_ruleset(ruleset_id).options.as_json())


@pytest.mark.parametrize("ruleset_id", spec.ruleset_ids())
def test_a_seeded_deal_is_the_reference_engine_s(ruleset_id: str) -> None:
    rules = _ruleset(ruleset_id)
    typed = spec.load_ruleset(ruleset_id).options
    for seed in [*range(12), 2**64 - 1, 0x9E3779B97F4A7C15]:
        for dealer in (None, seed % rules.players):
            raw = {"seed": seed} if dealer is None else {"seed": seed, "dealer": dealer}
            ours = kit.Deal.from_json(raw, rules).explicit(rules)
            theirs = deal_from_json(raw, typed)
            assert (ours.dealer, ours.hands, ours.table, ours.stock) == (theirs.dealer, theirs.hands, theirs.table, theirs.stock), raw


def test_the_deck_of_a_ruleset_has_its_bonus_cards() -> None:
    assert kit.deck_ids((2, 3))[-2:] == ("bonus-2a", "bonus-3")
    assert kit.deck_ids((2, 2, 2))[-3:] == ("bonus-2a", "bonus-2b", "bonus-2c")
    with pytest.raises(ValueError, match="no further bonus card of 3 units"):
        kit.deck_ids((3, 3))


def test_a_bad_deal_says_what_is_wrong() -> None:
    rules = _ruleset("matgo-2p")
    ids = list(kit.deck_ids())
    good = {"dealer": 0, "hands": [ids[0:10], ids[10:20]], "table": ids[20:28], "stock": ids[28:]}
    assert kit.Deal.from_json(good, rules).fresh
    for change, message in [
        ({"hands": [ids[0:10]]}, "deal.hands: 1 hand for 2 players"),
        ({"stock": ids[28:-1]}, "deal: cards missing: m12-double-junk"),
        ({"stock": [*ids[28:], "bonus-3"]}, "deal: cards not of this ruleset's deck: bonus-3"),
        ({"stock": [*ids[28:], "m13-x"]}, "deal: 'm13-x' is not a card id of spec/deck.yaml"),
        ({"dealer": 2}, "deal.dealer: expected a seat from 0 to 1, got 2"),
        ({"stacks": [{"month": 12, "owner": None}]}, "deal.stacks[0]: the table holds 0 cards of month 12, a stack is three"),
    ]:
        with pytest.raises(kit.BadDeal, match=message.replace("[", r"\[").replace("]", r"\]")):
            kit.Deal.from_json({**good, **change}, rules)
    in_progress = kit.Deal.from_json({**good, "turn": 3, "players": [{"gos": 1}, {}]}, rules)
    assert not in_progress.fresh and in_progress.player(0)["gos"] == 1 and in_progress.player(1) == {}
