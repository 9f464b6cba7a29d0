"""Turns and capture events on explicit deals. Expectations are worked out from spec/rules/ by hand.

Each test names the clause it pins. Unlisted cards go to the bottom of the stock (complete_deal).
"""

from __future__ import annotations

import dataclasses

import pytest

from gostop_conformance.reference import Action, Deal, PlayerState, Rejection, Round, complete_deal
from gostop_conformance.spec import load_ruleset
from tests.conftest import kinds, play, start


def captured(rnd, seat: int) -> set[str]:
    return set(rnd.snapshot()["captured"][seat])


def test_jjok_steals_one_junk_from_the_opponent() -> None:
    """R-JJOK: discard matched by the flipped card -> both captured, one junk from each opponent."""
    rnd = start(
        "matgo-2p",
        hands=[["m09-junk-1", "m01-bright"], ["m02-junk-1"]],
        table=["m03-junk-1"],
        stock=["m09-junk-2"],
        captured=[[], ["m04-junk-1", "m04-ribbon"]],
    )
    events = play(rnd, "m09-junk-1")
    assert "jjok" in kinds(events)
    assert captured(rnd, 0) == {"m09-junk-1", "m09-junk-2", "m04-junk-1"}
    assert captured(rnd, 1) == {"m04-ribbon"}


def test_hand_pair_is_pending_until_the_flip_makes_a_ppeok() -> None:
    """R-PPEOK (A-01): the pair stays on the table with the flipped card as a stack owned by the actor."""
    rnd = start(
        "matgo-2p",
        hands=[["m01-junk-2", "m02-junk-1"], ["m01-bright", "m02-junk-2"]],
        table=["m01-junk-1"],
        stock=["m01-ribbon", "m11-junk-1"],
    )
    play(rnd, "m01-junk-2")
    snap = rnd.snapshot()
    assert captured(rnd, 0) == set()
    assert snap["stacks"] == [{"month": 1, "owner": 0, "cards": ["m01-ribbon", "m01-junk-1", "m01-junk-2"], "bonus": []}]
    assert snap["players"][0]["ppeoks"] == 1


def test_capturing_another_players_ppeok_steals_one() -> None:
    """R-PPEOK-CAPTURE, R-STACK-CAPTURE: the fourth card takes the stack and one junk from each opponent."""
    rnd = start(
        "matgo-2p",
        hands=[["m01-junk-2", "m02-junk-1"], ["m01-bright", "m02-junk-2"]],
        table=["m01-junk-1"],
        stock=["m01-ribbon", "m11-junk-1"],
        captured=[["m03-junk-1"], []],
    )
    play(rnd, "m01-junk-2")
    events = play(rnd, "m01-bright")
    assert "stack_capture" in kinds(events)
    assert captured(rnd, 1) == {"m01-bright", "m01-ribbon", "m01-junk-1", "m01-junk-2", "m03-junk-1"}
    assert captured(rnd, 0) == set()


def test_own_ppeok_capture_takes_two_units_as_a_double() -> None:
    """R-PPEOK-CAPTURE, R-STEAL (A-12): jappeok asks 2 units; the giver hands over the double alone."""
    rnd = start(
        "matgo-2p",
        hands=[["m01-junk-2", "m01-bright", "m05-junk-1"], ["m02-junk-2", "m03-junk-2"]],
        table=["m01-junk-1"],
        stock=["m01-ribbon", "m11-junk-1", "m12-animal", "m07-junk-1"],
        captured=[[], ["m03-junk-1", "m04-junk-1", "m11-double-junk"]],
    )
    play(rnd, "m01-junk-2")  # ppeok, stock now starts at m11-junk-1
    play(rnd, "m02-junk-2")  # P1 discards, flips m11-junk-1 (no November on the table)
    play(rnd, "m01-bright")  # P0 takes its own stack, flips m12-animal
    assert captured(rnd, 0) == {"m01-bright", "m01-ribbon", "m01-junk-1", "m01-junk-2", "m11-double-junk"}
    assert captured(rnd, 1) == {"m03-junk-1", "m04-junk-1"}


def test_ttadak_takes_all_four_and_a_junk() -> None:
    """R-TTADAK (A-02): two table cards of the month, the hand card, then the fourth flipped."""
    rnd = start(
        "matgo-2p",
        hands=[["m06-animal", "m02-junk-1"], ["m03-junk-2"]],
        table=["m06-ribbon", "m06-junk-1"],
        stock=["m06-junk-2"],
        captured=[[], ["m07-junk-1"]],
    )
    events = play(rnd, "m06-animal", take="m06-ribbon")
    assert "ttadak" in kinds(events)
    assert captured(rnd, 0) == {"m06-animal", "m06-ribbon", "m06-junk-1", "m06-junk-2", "m07-junk-1"}


def test_two_table_cards_choice_at_play() -> None:
    """R-TWO-MATCH-CHOICE (A-02 second part): the chosen card is taken, the other stays."""
    rnd = start("matgo-2p", hands=[["m06-animal", "m03-junk-1"], ["m03-junk-2"]], table=["m06-ribbon", "m06-junk-1"], stock=["m02-junk-1"])
    play(rnd, "m06-animal", take="m06-ribbon")
    assert captured(rnd, 0) == {"m06-animal", "m06-ribbon"}
    assert set(rnd.snapshot()["table"]) == {"m06-junk-1", "m02-junk-1"}


def test_take_is_required_between_different_cards() -> None:
    rnd = start("matgo-2p", hands=[["m06-animal", "m03-junk-1"], ["m03-junk-2"]], table=["m06-ribbon", "m06-junk-1"], stock=["m02-junk-1"])
    with pytest.raises(Rejection) as err:
        play(rnd, "m06-animal")
    assert err.value.code == "take_required"


def test_equivalent_candidates_take_the_lower_index() -> None:
    """R-TWO-MATCH-CHOICE: m06-junk-1 and m06-junk-2 are equivalent; the lower index is taken."""
    rnd = start("matgo-2p", hands=[["m06-animal", "m03-junk-1"], ["m03-junk-2"]], table=["m06-junk-1", "m06-junk-2"], stock=["m02-junk-1"])
    assert [a.take for a in rnd.legal_actions() if a.card == "m06-animal"] == [None]
    play(rnd, "m06-animal")
    assert captured(rnd, 0) == {"m06-animal", "m06-junk-1"}


def test_choice_after_flip_is_asked_after_the_flip() -> None:
    """R-TWO-MATCH-CHOICE with two_match_choice_timing = after_flip."""
    rnd = start(
        "matgo-2p",
        hands=[["m06-animal", "m03-junk-1"], ["m03-junk-2"]],
        table=["m06-ribbon", "m06-junk-1"],
        stock=["m02-junk-1"],
        two_match_choice_timing="after_flip",
    )
    play(rnd, "m06-animal")
    assert rnd.decision == "choose_hand_match"
    assert [a.card for a in rnd.legal_actions()] == ["m06-ribbon", "m06-junk-1"]
    rnd.apply(Action("take", 0, card="m06-junk-1"))
    assert captured(rnd, 0) == {"m06-animal", "m06-junk-1"}


def test_flipped_card_with_two_candidates_asks_the_actor() -> None:
    """R-FLIP (A-03): the actor chooses which table card the flipped card takes."""
    rnd = start("matgo-2p", hands=[["m03-junk-1", "m04-junk-1"], ["m03-junk-2"]], table=["m06-ribbon", "m06-junk-1"], stock=["m06-animal"])
    play(rnd, "m03-junk-1")
    assert rnd.decision == "choose_flip_match"
    rnd.apply(Action("take", 0, card="m06-ribbon"))
    assert captured(rnd, 0) == {"m06-animal", "m06-ribbon"}


def test_table_emptied_only_between_play_and_flip_is_no_sweep() -> None:
    """R-SWEEP (A-09 a): the table must be empty at the end of the turn."""
    rnd = start(
        "matgo-2p",
        hands=[["m05-junk-2", "m01-junk-1"], ["m03-junk-2"]],
        table=["m05-junk-1"],
        stock=["m08-junk-1"],
        captured=[[], ["m07-junk-1"]],
    )
    events = play(rnd, "m05-junk-2")
    assert "sweep" not in kinds(events)
    assert captured(rnd, 1) == {"m07-junk-1"}


def test_sweep_steals_one() -> None:
    """R-SWEEP: both table cards captured in one turn, table empty at the end."""
    rnd = start(
        "matgo-2p",
        hands=[["m05-junk-2", "m01-junk-1"], ["m03-junk-2"]],
        table=["m05-junk-1", "m08-junk-1"],
        stock=["m08-junk-2"],
        captured=[[], ["m07-junk-1"]],
    )
    events = play(rnd, "m05-junk-2")
    assert "sweep" in kinds(events)
    assert captured(rnd, 0) == {"m05-junk-1", "m05-junk-2", "m08-junk-1", "m08-junk-2", "m07-junk-1"}


def test_no_sweep_steal_in_wikipedia() -> None:
    """R-SWEEP: seed 001 has no sweep (sweep_steal = 0)."""
    rnd = start(
        "wikipedia-2p",
        hands=[["m05-junk-2", "m01-junk-1"], ["m03-junk-2"]],
        table=["m05-junk-1", "m08-junk-1"],
        stock=["m08-junk-2"],
        captured=[[], ["m07-junk-1"]],
    )
    events = play(rnd, "m05-junk-2")
    assert "sweep" not in kinds(events)
    assert captured(rnd, 1) == {"m07-junk-1"}


def test_jjok_on_the_rounds_last_turn_steals_nothing() -> None:
    """R-FINAL-TURN: the last turn of the round (no hand card left anywhere) withholds the jjok steal."""
    rnd = start("matgo-2p", hands=[["m09-junk-1"], []], table=["m03-junk-1"], stock=["m09-junk-2"], captured=[[], ["m04-junk-1"]])
    events = play(rnd, "m09-junk-1")
    assert "steal_exempt" in kinds(events)
    assert captured(rnd, 1) == {"m04-junk-1"}


def test_jjok_on_the_last_turn_steals_under_wikipedia() -> None:
    """R-FINAL-TURN: seed 001 has no final-turn exemption."""
    rnd = start("wikipedia-2p", hands=[["m09-junk-1"], []], table=["m03-junk-1"], stock=["m09-junk-2"], captured=[[], ["m04-junk-1"]])
    play(rnd, "m09-junk-1")
    assert captured(rnd, 1) == set()


def test_each_player_last_hand_card_scope() -> None:
    """R-FINAL-TURN (A-08): with each_player_last_hand_card the actor's own last card is exempt."""
    hands = [["m09-junk-1"], ["m02-junk-1"]]
    rnd = start("matgo-2p", hands=hands, table=["m03-junk-1"], stock=["m09-junk-2"], captured=[[], ["m04-junk-1"]])
    play(rnd, "m09-junk-1")  # P1 still holds a card: not the round's last turn -> steal applies
    assert captured(rnd, 1) == set()
    rnd = start(
        "matgo-2p",
        hands=hands,
        table=["m03-junk-1"],
        stock=["m09-junk-2"],
        captured=[[], ["m04-junk-1"]],
        final_turn_scope="each_player_last_hand_card",
    )
    play(rnd, "m09-junk-1")
    assert captured(rnd, 1) == {"m04-junk-1"}


def test_bomb_captures_four_steals_and_grants_two_skips() -> None:
    """R-BOMB, R-BOMB-SKIP."""
    rnd = start(
        "matgo-2p",
        hands=[["m10-animal", "m10-ribbon", "m10-junk-1", "m01-junk-1"], ["m03-junk-2"]],
        table=["m10-junk-2"],
        stock=["m02-junk-1"],
        captured=[[], ["m07-junk-1"]],
    )
    assert Action("bomb", 0, month=10) in rnd.legal_actions()
    rnd.apply(Action("bomb", 0, month=10))
    assert captured(rnd, 0) == {"m10-animal", "m10-ribbon", "m10-junk-1", "m10-junk-2", "m07-junk-1"}
    assert rnd.snapshot()["players"][0]["skip_credits"] == 2


def test_dealt_triple_is_a_stack_taken_by_the_fourth_from_the_flip() -> None:
    """R-TABLE-TRIPLE, R-STACK-CAPTURE (A-45): the flipped fourth card takes the dealt triple."""
    rnd = start(
        "matgo-2p",
        hands=[["m03-junk-1", "m04-junk-1"], ["m03-junk-2"]],
        table=["m08-bright", "m08-animal", "m08-junk-1"],
        stock=["m08-junk-2"],
        captured=[[], ["m07-junk-1"]],
    )
    assert rnd.snapshot()["stacks"][0]["owner"] is None
    play(rnd, "m03-junk-1")
    assert captured(rnd, 0) == {"m08-bright", "m08-animal", "m08-junk-1", "m08-junk-2", "m07-junk-1"}


def test_go_stop_decision_and_rise() -> None:
    """R-GO-THRESHOLD, R-GO-RISE: offered at the threshold; after a Go only when the base rises."""
    junk = ["m01-junk-1", "m01-junk-2", "m02-junk-1", "m02-junk-2", "m04-junk-1", "m04-junk-2", "m05-junk-1", "m06-junk-1", "m06-junk-2"]
    # 3p: 9 units captured; one more junk unit -> 10 units = 1 point... threshold 3 needs 12 units.
    rnd = start(
        "standard-3p",
        hands=[["m07-junk-1", "m10-junk-1"], ["m03-junk-2"], ["m03-bright"]],
        table=["m07-junk-2"],
        stock=["m11-double-junk"],
        captured=[[*junk, "m05-junk-2"], [], []],
    )
    # P0 takes m07 pair (2 units) and flips the November double junk onto nothing: 10 + 2 = 12 units -> 3 points.
    play(rnd, "m07-junk-1")
    assert rnd.decision == "go_stop" and rnd.score(0).base == 3
    rnd.apply(Action("go", 0))
    assert rnd.decision == "turn" and rnd.to_act == 1


def test_go_not_allowed_on_the_last_turn() -> None:
    """R-GO-LAST: with no later turn, only Stop is legal."""
    junk = [
        "m01-junk-1",
        "m01-junk-2",
        "m02-junk-1",
        "m02-junk-2",
        "m04-junk-1",
        "m04-junk-2",
        "m05-junk-1",
        "m05-junk-2",
        "m06-junk-1",
        "m06-junk-2",
    ]
    rnd = start("standard-3p", hands=[["m07-junk-1"], [], []], table=["m07-junk-2"], stock=["m11-junk-1"], captured=[junk, [], []])
    play(rnd, "m07-junk-1")
    assert rnd.decision == "go_stop"
    assert [a.type for a in rnd.legal_actions()] == ["stop"]
    with pytest.raises(Rejection) as err:
        rnd.apply(Action("go", 0))
    assert err.value.code == "go_not_allowed"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Action("play", 0, card="m02-junk-1"), "card_not_in_hand"),
        (Action("play", 1, card="m03-junk-2"), "not_your_turn"),
        (Action("play", 0, card="m06-animal", take="m07-junk-1"), "wrong_month"),
        (Action("shake", 0, month=6), "shake_not_allowed"),
        (Action("bomb", 0, month=6), "bomb_not_allowed"),
        (Action("stop", 0), "wrong_decision"),
        (Action("go", 0), "wrong_decision"),
        (Action("skip", 0), "no_skip_credit"),
        (Action("play", 0, card="m99-nothing"), "unknown_card"),
    ],
)
def test_rejections_change_nothing(action: Action, code: str) -> None:
    rnd = start(
        "matgo-2p",
        hands=[["m06-animal", "m06-junk-2", "m03-junk-1"], ["m03-junk-2"]],
        table=["m06-ribbon", "m07-junk-1"],
        stock=["m02-junk-2"],
    )
    before = rnd.snapshot()
    with pytest.raises(Rejection) as err:
        rnd.apply(action)
    assert err.value.code == code
    assert rnd.snapshot() == before


def test_must_match_if_possible() -> None:
    """R-FREE-PLAY (A-38)."""
    hands = [["m02-junk-1", "m11-junk-1"], ["m03-junk-2"]]
    rnd = start("matgo-2p", hands=hands, table=["m02-ribbon"], stock=["m04-junk-1"])
    play(rnd, "m11-junk-1")  # legal by default
    rnd = start("matgo-2p", hands=hands, table=["m02-ribbon"], stock=["m04-junk-1"], must_match_if_possible=True)
    with pytest.raises(Rejection) as err:
        play(rnd, "m11-junk-1")
    assert err.value.code == "must_match"


def test_point_count_has_no_ppeok() -> None:
    """R-PC-PLAY: the pair is taken and the flipped card of that month stays on the table."""
    rnd = start("family-2p", hands=[["m01-junk-2", "m02-junk-1"], ["m01-bright"]], table=["m01-junk-1"], stock=["m01-ribbon"])
    play(rnd, "m01-junk-2")
    assert captured(rnd, 0) == {"m01-junk-1", "m01-junk-2"}
    assert rnd.snapshot()["table"] == ["m01-ribbon"]
    assert rnd.snapshot()["stacks"] == []


def test_bonus_card_from_hand_is_captured_and_replaced() -> None:
    """R-BONUS-HAND: captured at once, the top stock card replaces it, the turn goes on."""
    rnd = start(
        "matgo-online",
        hands=[["bonus-3", "m02-junk-1"], ["m03-junk-2"]],
        table=["m04-junk-1"],
        stock=["m09-ribbon"],
        captured=[[], ["m07-junk-1"]],
    )
    rnd.apply(Action("bonus", 0, card="bonus-3"))
    snap = rnd.snapshot()
    assert "bonus-3" in snap["captured"][0]
    assert snap["hands"][0] == ["m02-junk-1", "m09-ribbon"]
    assert rnd.decision == "turn" and rnd.to_act == 0


def test_flipped_bonus_joins_a_ppeok_stack() -> None:
    """R-BONUS-FLIP, R-BONUS-PPEOK (A-04): the bonus flipped before the ppeok card joins the stack."""
    rnd = start(
        "matgo-online", hands=[["m03-junk-2", "m02-junk-1"], ["m03-bright"]], table=["m03-junk-1"], stock=["bonus-2a", "m03-ribbon"]
    )
    play(rnd, "m03-junk-2")
    stack = rnd.snapshot()["stacks"][0]
    assert stack["bonus"] == ["bonus-2a"] and stack["owner"] == 0
    assert captured(rnd, 0) == set()


def _fields(obj: object) -> dict[str, object]:
    """An object's fields: a dataclass's, its slots, its __dict__, or (compiled with mypyc) its pickled state."""
    if dataclasses.is_dataclass(obj):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    slots = getattr(type(obj), "__slots__", None)
    if slots is not None:
        return {name: getattr(obj, name) for name in slots}
    return dict(vars(obj)) if hasattr(obj, "__dict__") else dict(obj.__reduce_ex__(2)[2])  # type: ignore[index]


def test_clone_copies_every_field_and_shares_nothing_mutable() -> None:
    """Round.copy (perft): RoundState.copy names every field, and copies the mutable ones."""
    from gostop_conformance.reference import RandomPlayer, SplitMix64, seeded_deal
    from gostop_conformance.reference._round import Round
    from gostop_conformance.spec import load_ruleset

    rs = load_ruleset("matgo-online")
    paused = 0
    for seed in range(60):
        rnd = Round(rs, seeded_deal(rs.options, SplitMix64(seed), dealer=0))
        player = RandomPlayer(seed)
        for _ in range(seed % 17):
            if rnd.over:
                break
            rnd.apply(player.choose(rnd))
        copy = rnd.copy()
        assert copy._state is not rnd._state
        original, copied = _fields(rnd._state), _fields(copy._state)
        assert set(copied) == set(original)
        pairs = [(original, copied)]
        ctx, copied_ctx = rnd._state.ctx, copy._state.ctx
        if ctx is not None:  # a turn paused at a choose_* decision
            assert copied_ctx is not None and copied_ctx is not ctx
            pairs.append((_fields(ctx), _fields(copied_ctx)))
        for mine, theirs in zip(rnd.seats, copy.seats, strict=True):  # SeatState.copy
            assert theirs is not mine and theirs.tally is not mine.tally
            pairs += [(_fields(mine), _fields(theirs)), (_fields(mine.tally), _fields(theirs.tally))]
        for before, after in pairs:
            assert set(after) == set(before)
            for key, value in before.items():
                if key in ("events", "ctx", "seats", "tally"):
                    continue
                assert after[key] == value, key
                if isinstance(value, (list, dict, set)):
                    assert after[key] is not value, f"{key} is shared with the clone"
        paused += rnd._state.ctx is not None
        while not rnd.over:  # the two play on alike, and apart
            action = player.choose(rnd)
            assert copy.apply(action) == rnd.apply(action)
        assert copy.settlement == rnd.settlement
    assert paused  # some copies were made in the middle of a turn


def test_the_snapshot_reports_the_turn_the_dealer_and_the_void_round_streak() -> None:
    """spec/protocol (state): turn counts the turns played (from the deal's turn), dealer and
    nagari_streak are the deal's (R-NAGARI-CARRY)."""
    deal = Deal(
        players=2,
        dealer=1,
        hands=(("m01-bright", "m02-animal"), ("m05-animal", "m06-animal")),
        table=(),
        stock=("m03-junk-1", "m04-junk-1", "m07-junk-1"),
        nagari_streak=2,
        turn=6,
    )
    rnd = Round(load_ruleset("matgo-2p"), deal, check=False)
    snap = rnd.snapshot()
    assert (snap["turn"], snap["dealer"], snap["nagari_streak"]) == (6, 1, 2)
    rnd.apply(rnd.legal_actions()[0])
    assert rnd.snapshot()["turn"] == 7


def test_a_three_ppeok_win_counts_its_turn() -> None:
    """R-THREE-PPEOK: the winning turn is a turn played like any other: the snapshot's turn counts
    it (a player who made two ppeoks makes a third on turn 6 of the deal, the round's 7th)."""
    from tests.conftest import ruleset

    rs = ruleset("matgo-2p", three_ppeok_win=7)
    hands = [["m03-junk-2", "m05-animal"], ["m06-animal", "m07-animal"]]
    stock = ["m03-ribbon", "m09-junk-1", "m10-junk-1"]
    deal = complete_deal(rs.options, hands, ["m03-junk-1"], stock, player_state=(PlayerState(ppeoks=2), PlayerState()), turn=6)
    rnd = Round(rs, deal)
    rnd.apply(Action("play", 0, "m03-junk-2"))
    assert rnd.over and rnd.settlement is not None and rnd.settlement.kind == "three_ppeok"
    assert rnd.snapshot()["turn"] == 7
