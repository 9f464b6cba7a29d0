"""The invariant checker (reference_impl._invariants) that `gostop-reference check` runs after every action.

It must find nothing on real rounds, and find each invariant it checks broken when a real round's
state is corrupted the way that invariant forbids: a card in two places or in none (R-DECK: every card
of the ruleset's deck is in exactly one place), a score tally out of step with its captured pile,
settlement nets that do not sum to zero (R-SETTLE), a pending decision without a legal action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from gostop_conformance.reference import SplitMix64, seeded_deal
from gostop_conformance.reference._cards import CARD_ID
from gostop_conformance.reference._deal import deck_indices
from gostop_conformance.reference._invariants import card_places, violations
from gostop_conformance.reference._match import RandomPlayer
from gostop_conformance.reference._round import Round
from gostop_conformance.reference._tally import Tally
from gostop_conformance.spec import deck, load_ruleset
from tests.conftest import play, start


def deck_of(rnd: Round) -> Counter[str]:
    return Counter(deck().cards[i].id for i in deck_indices(rnd.o))


def random_round(ruleset_id: str, seed: int) -> Round:
    rs = load_ruleset(ruleset_id)
    rng = SplitMix64(seed)
    return Round(rs, seeded_deal(rs.options, rng, dealer=rng.below(rs.options.players)))


@pytest.mark.parametrize("ruleset_id", ["matgo-2p", "matgo-online", "standard-3p", "family-4p"])
def test_real_rounds_break_no_invariant(ruleset_id: str) -> None:
    """Two random rounds, checked after the deal and after every action; every card counted once."""
    for seed in (1, 2):
        rnd = random_round(ruleset_id, seed)
        player = RandomPlayer(seed)
        assert violations(rnd) == []
        while not rnd.over:
            rnd.apply(player.choose(rnd))
            assert violations(rnd) == []
            assert card_places(rnd) == deck_of(rnd)
        assert rnd.settlement is not None


def paused_at_a_flip_choice() -> Round:
    """The flipped pine bright matches two different pine cards: the turn waits, the bright in play."""
    rnd = start(
        "matgo-2p",
        hands=[["m05-junk-1", "m06-junk-2"], ["m02-junk-1", "m06-junk-1"]],
        table=["m01-ribbon", "m01-junk-1"],
        stock=["m01-bright"],
    )
    play(rnd, "m05-junk-1")
    return rnd


def stack_with_a_bonus_card() -> Round:
    """A ppeok made with a bonus card flipped in the same turn: the bonus card lies on the stack (R-BONUS-PPEOK)."""
    rnd = start(
        "matgo-online",
        hands=[["m01-junk-2", "m05-junk-1"], ["m02-junk-1", "m06-junk-1"]],
        table=["m01-junk-1"],
        stock=["bonus-2a", "m01-ribbon"],
    )
    play(rnd, "m01-junk-2")
    return rnd


@pytest.mark.parametrize(
    ("make", "place", "card"),
    [(paused_at_a_flip_choice, "in_play", "m01-bright"), (stack_with_a_bonus_card, "stacks", "bonus-2a")],
)
def test_cards_held_by_a_paused_turn_or_on_a_stack_are_counted(make: Callable[[], Round], place: str, card: str) -> None:
    """The places real rounds reach only now and then: a card there is in its one place, not lost."""
    rnd = make()
    snap = rnd.snapshot()
    assert card in (snap["in_play"] if place == "in_play" else snap["stacks"][0]["bonus"])
    assert card_places(rnd) == deck_of(rnd)
    assert violations(rnd) == []


def mid_round(ruleset_id: str = "matgo-2p") -> Round:
    """A real round some turns in: cards in hands, on the table, in the stock and in captured piles."""
    rnd = random_round(ruleset_id, 3)
    player = RandomPlayer(3)
    for _ in range(6):
        rnd.apply(player.choose(rnd))
    assert not rnd.over and all(seat.captured for seat in rnd.seats)
    return rnd


def test_a_card_in_two_places_is_reported() -> None:
    rnd = mid_round()
    card = rnd.stock[-1]  # the top of the stock, also put into a hand
    rnd.seats[1].hand.append(card)
    assert violations(rnd) == [f"card {CARD_ID[card]} is in 2 places (expected exactly one)"]


@pytest.mark.parametrize("place", ["hands", "table", "stock", "captured"])
def test_a_lost_card_is_reported_wherever_it_was(place: str) -> None:
    rnd = mid_round()
    if place == "hands":
        card = rnd.seats[1].hand.pop(0)
    elif place == "table":
        card = next(month for month in rnd._state.table if month).pop()
    elif place == "stock":
        card = rnd.stock.pop(0)
    else:
        card = rnd.seats[1].captured.pop()
        rnd.seats[1].tally.remove(card)  # the tally follows: only the card is missing
    assert violations(rnd) == [f"card {CARD_ID[card]} is in 0 places (expected exactly one)"]


def test_every_card_in_the_wrong_count_is_reported_in_card_order() -> None:
    rnd = mid_round()
    lost, doubled = rnd.seats[0].hand[0], rnd.stock[0]
    rnd.seats[0].hand.remove(lost)
    rnd.stock.append(doubled)
    assert violations(rnd) == sorted(
        [f"card {CARD_ID[lost]} is in 0 places (expected exactly one)", f"card {CARD_ID[doubled]} is in 2 places (expected exactly one)"]
    )


def test_a_card_of_another_deck_is_reported() -> None:
    """matgo-2p deals no bonus card: one in its stock is a card too many, even in one place."""
    rnd = mid_round()
    rnd.stock.insert(0, CARD_ID.index("bonus-2a"))
    assert violations(rnd) == ["card bonus-2a is not in this ruleset's deck but is in 1 place"]


@pytest.mark.parametrize("seat", [0, 1])
def test_a_tally_out_of_step_with_its_pile_is_reported(seat: int) -> None:
    rnd = mid_round()
    rnd.seats[seat].tally = Tally([*rnd.seats[seat].captured, rnd.stock[0]])  # counts a card the pile does not hold
    assert violations(rnd) == [f"seat {seat}'s score tally is out of step with its captured pile"]


def finished_round() -> Round:
    rnd = random_round("matgo-2p", 3)
    player = RandomPlayer(3)
    while not rnd.over:
        rnd.apply(player.choose(rnd))
    assert rnd.settlement is not None and any(rnd.settlement.net)
    return rnd


def test_settlement_nets_that_do_not_sum_to_zero_are_reported() -> None:
    rnd = finished_round()
    assert rnd.settlement is not None
    net = (rnd.settlement.net[0] + 1, *rnd.settlement.net[1:])
    rnd._state.settlement = rnd.settlement._replace(net=net)
    assert violations(rnd) == [f"settlement nets {list(net)} do not sum to zero"]


def test_a_zero_sum_settlement_with_unequal_nets_is_not_reported() -> None:
    """The nets must sum to zero, not each be zero."""
    rnd = finished_round()
    assert rnd.settlement is not None
    rnd._state.settlement = rnd.settlement._replace(net=(5, -5))
    assert violations(rnd) == []


def test_a_decision_without_a_legal_action_is_reported() -> None:
    """The player to act has nothing left to play: their hand moved to the bottom of the stock, so
    every card is still in one place and only the missing legal action is wrong."""
    rnd = mid_round()
    seat = rnd.to_act
    hand = rnd.seats[seat].hand
    rnd.stock[:0] = hand  # the stock is kept top last
    hand.clear()
    assert rnd.legal_actions() == []
    assert violations(rnd) == [f"no legal action for seat {seat} at decision 'turn'"]


def test_a_finished_round_needs_no_legal_action() -> None:
    rnd = finished_round()
    assert rnd.legal_actions() == [] and violations(rnd) == []
