"""The kit's events derived from states (kit/_derive*.py, issue 40) against the reference engine.

The property: over random rounds of every named ruleset (and of a few configurations that reach
the option values no named ruleset plays), each `new_game` and `act` reply's events, `clauses`
left out, are exactly those derived from the deal or the states before and after, the score
reply and the legal actions after it. Then hand-built positions of the tricky kinds, each event
list written out, and the same position played by the reference engine as a check that the
hand-built state after it and the events written out are right."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import pytest

from gostop_conformance.kit._derive import EventDeriver, derive_deal_events, derive_events
from gostop_conformance.reference import JsonEngine, SplitMix64, complete_deal_json, deck_indices, seeded_deal
from gostop_conformance.spec import Ruleset, deck, load_ruleset, ruleset_ids

Json = dict[str, Any]

#: option values no named ruleset plays, so that random rounds reach them too: buried hand bonus
#: cards, final-turn ppeok handlings, first-turn awards, three ppeok, two_cards_cleared, the choice
#: after the flip, a four on the table taken by the dealer or ending the round, creator-only and
#: cup steals, two-card bombs, ppeok off in Go-Stop, Go on the last turn, chongtong handlings
VARIANTS: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "online-buried-awards": (
        "matgo-online",
        {
            "bonus_joins_ppeok": "all_bonus_this_turn",
            "final_turn_ppeok": "capture_three",
            "first_ppeok_award": 3,
            "first_ttadak_award": "threshold",
            "three_ppeok_win": "threshold",
        },
    ),
    "matgo-after-flip": (
        "matgo-2p",
        {
            "sweep_definition": "two_cards_cleared",
            "two_match_choice_timing": "after_flip",
            "table_four_of_month": "dealer_captures_four",
            "steal_selection": "taker_lowest_first",
            "ppeok_steal_payers": "creator_only",
        },
    ),
    "standard-final-cup": (
        "standard-3p",
        {
            "final_turn_ppeok": "capture_pair_leave_drawn",
            "final_turn_scope": "each_player_last_hand_card",
            "dual_role_mode": "fixed_double_junk",
            "steal_cup_eligible": True,
            "dec_ribbon": "junk",
            "steal_multi_when_no_single": "give_nothing",
            "two_card_bomb": "capture_only",
        },
    ),
    "matgo-no-ppeok-bonus": (
        "matgo-2p",
        {"ppeok_enabled": False, "bonus_cards": [2, 2, 3], "bonus_steal": 2, "two_card_bomb": "full_bomb"},
    ),
    "blog-go-last": (
        "beginner-blog-2p",
        {"go_on_last_turn": "allowed", "deck_exhausted_after_go": "last_go_caller_wins", "go_threshold": 3},
    ),
    "family-bonus-after-flip": ("family-3p", {"bonus_cards": [2, 3], "two_match_choice_timing": "after_flip"}),
    "online-creator-two-cards": (
        "matgo-online",
        {
            "two_match_choice_timing": "after_flip",
            "sweep_definition": "two_cards_cleared",
            "ppeok_steal_payers": "creator_only",
            "bonus_joins_ppeok": "all_bonus_this_turn",
        },
    ),
    "site-redeal-fixed": ("site-default-3p", {"hand_chongtong": "redeal", "table_four_of_month": "dealer_wins_fixed", "bonus_cards": [2]}),
    "wiki-nagari-higher": (
        "wikipedia-3p",
        {
            "table_four_of_month": "nagari",
            "multiple_chongtong": "higher_month",
            "hand_chongtong": "instant_win",
            "first_player": "non_dealer",
        },
    ),
}
#: (test id, ruleset id, option overrides): every named ruleset, then the variants
CONFIGS: Final = [(rid, rid, {}) for rid in ruleset_ids()] + [(name, rid, ov) for name, (rid, ov) in VARIANTS.items()]
#: the rulesets whose events follow from the states alone (no bonus_steal, one steal for every
#: stack, no first-turn award, sweeps as the table at the end): derive_events without `earlier`
STATELESS: Final = [rid for rid in ruleset_ids() if rid.startswith(("wikipedia", "beginner-blog", "family"))]


def _ruleset(rid: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    rs = load_ruleset(rid)
    return rs.with_overrides(dict(overrides), "test") if overrides else rs


def _strip(events: Iterable[Mapping[str, Any]]) -> list[Json]:
    return [{k: v for k, v in e.items() if k != "clauses"} for e in events]


def _same(got: list[Json], reference: Sequence[Mapping[str, Any]], where: str) -> None:
    expected = _strip(reference)
    if got != expected:
        shown = "\n".join(f"  {json.dumps(e, sort_keys=True)}" for e in expected)
        derived = "\n".join(f"  {json.dumps(e, sort_keys=True)}" for e in got)
        pytest.fail(f"{where}\nreference events:\n{shown}\nderived events:\n{derived}", pytrace=False)


def _rounds(rid: str, overrides: Mapping[str, Any], seeds: Iterable[int], *, earlier: bool = True) -> tuple[int, int]:
    """Random rounds of the reference engine, each reply's events compared with the derived ones;
    the acts and the new_games compared."""
    rs = _ruleset(rid, overrides)
    options = rs.options.as_json()
    ruleset = {"id": rid, "options": options}
    acts = games = 0
    for seed in seeds:
        engine = JsonEngine()
        deal = seeded_deal(rs.options, SplitMix64(seed), dealer=seed % rs.options.players).to_json()
        reply = engine.new_game(ruleset, deal)
        deriver = EventDeriver()
        got = deriver.new_game(deal, reply["state"], options=options, settlement=engine.score()["settlement"])
        where = f"ruleset {rid} (overrides {json.dumps(overrides, sort_keys=True)}), seed {seed}"
        _same(got, reply["events"], f"{where}: new_game")
        games += 1
        rng = random.Random(seed)
        before = reply["state"]
        step = 0
        while before["decision"] != "none":
            action = rng.choice(engine.legal()["actions"])
            reply = engine.act(action)
            score = engine.score()
            after_legal = engine.legal()["actions"]
            kwargs: Json = {"scores": score["scores"], "settlement": score["settlement"], "legal": after_legal}
            if earlier:
                got = deriver.act(before, reply["state"], action, **kwargs)
            else:
                got = derive_events(before, reply["state"], action, options=options, **kwargs)
            _same(got, reply["events"], f"{where}, act {step} of the round: {json.dumps(action)}")
            acts, step = acts + 1, step + 1
            before = reply["state"]
    return acts, games


@pytest.mark.parametrize(("rid", "overrides"), [pytest.param(rid, ov, id=name) for name, rid, ov in CONFIGS])
def test_derived_events_are_the_reference_engines(rid: str, overrides: dict[str, Any]) -> None:
    acts, games = _rounds(rid, overrides, range(12))
    assert games == 12 and acts > 0


@pytest.mark.parametrize("rid", STATELESS)
def test_without_earlier_acts_the_states_suffice_where_the_options_allow(rid: str) -> None:
    """The three things the states do not say (docstring of derive_events) change nothing here."""
    acts, _ = _rounds(rid, {}, range(4), earlier=False)
    assert acts > 0


@pytest.mark.slow
@pytest.mark.parametrize(("rid", "overrides"), [pytest.param(rid, ov, id=name) for name, rid, ov in CONFIGS])
def test_derived_events_over_many_rounds(rid: str, overrides: dict[str, Any]) -> None:
    acts, games = _rounds(rid, overrides, range(200))
    print(f"{rid} {json.dumps(overrides, sort_keys=True)}: {games} new_games, {acts} acts compared")
    assert games == 200


# ------------------------------------------------------------------------------------ hand-built positions

_FRESH: Final = {"gos": 0, "go_base": 0, "shaken_months": [], "bombs": [], "skip_credits": 0, "ppeoks": 0, "dual_junk": []}


def _position(
    rid: str,
    hands: Sequence[Sequence[str]],
    table: Sequence[str] = (),
    stock: Sequence[str] = (),
    captured: Sequence[Sequence[str]] | None = None,
    *,
    rest_to: int | None = None,
    stacks: Sequence[Json] = (),
    players: Sequence[Mapping[str, Any]] | None = None,
    to_act: int = 0,
    turn: int = 8,
) -> Json:
    """A state of the ruleset's deck at a turn decision. The cards not listed go to the bottom of
    the stock, or with `rest_to` to that seat's pile (so that the stock can run out)."""
    piles = [list(c) for c in captured] if captured is not None else [[] for _ in hands]
    listed = {c for group in (*hands, table, stock, *piles) for c in group}
    rest = [c for c in _deck(rid) if c not in listed]
    if rest_to is None:
        stock = [*stock, *rest]
    else:
        piles[rest_to] += rest
    return {
        "decision": "turn",
        "to_act": to_act,
        "turn": turn,
        "dealer": 0,
        "hands": [sorted(h, key=_index) for h in hands],
        "table": sorted(table, key=_index),
        "stacks": [{"month": s["month"], "owner": s["owner"], "cards": _of_month(table, s["month"]), "bonus": []} for s in stacks],
        "stock": list(stock),
        "captured": [sorted(p, key=_index) for p in piles],
        "in_play": [],
        "players": [{**_FRESH, **(players[seat] if players else {})} for seat in range(len(hands))],
        "nagari_streak": 0,
    }


def _index(card: str) -> int:
    return deck().by_id[card].index


def _deck(rid: str) -> list[str]:
    return [deck().cards[i].id for i in deck_indices(_ruleset(rid).options)]


def _of_month(cards: Iterable[str], month: int) -> list[str]:
    return sorted((c for c in cards if deck().by_id[c].month == month), key=_index)


def _then(state: Mapping[str, Any], **changes: Any) -> Json:
    """The state with some fields replaced (card lists put in the deck's order)."""
    out = json.loads(json.dumps(state))
    for key, value in changes.items():
        if key in ("hands", "captured"):
            value = [sorted(v, key=_index) for v in value]
        elif key == "table":
            value = sorted(value, key=_index)
        out[key] = value
    return out


def _player(state: Mapping[str, Any], seat: int, **changes: Any) -> list[Json]:
    return [{**p, **changes} if i == seat else dict(p) for i, p in enumerate(state["players"])]


def _reference(
    rid: str, before: Mapping[str, Any], action: Mapping[str, Any], **overrides: Any
) -> tuple[list[Json], Json, Json, list[Json]]:
    """The position played by the reference engine: the events (no clauses), the state after,
    the score reply and the legal actions after it."""
    rs = _ruleset(rid, overrides)
    deal = {
        "dealer": before["dealer"],
        "first_player": before["to_act"],
        "turn": before["turn"],
        "hands": before["hands"],
        "table": before["table"],
        "stock": before["stock"],
        "captured": before["captured"],
        "stacks": [{"month": s["month"], "owner": s["owner"]} for s in before["stacks"]],
        "players": before["players"],
    }
    engine = JsonEngine()
    reply = engine.new_game({"id": rid, "options": rs.options.as_json()}, complete_deal_json(deal, rs.options))
    assert "error" not in reply, reply
    assert _comparable(reply["state"]) == _comparable(before)
    reply = engine.act(dict(action))
    assert "error" not in reply, reply
    return _strip(reply["events"]), reply["state"], engine.score(), engine.legal()["actions"]


def _comparable(state: Mapping[str, Any]) -> Json:
    keys = ("decision", "to_act", "turn", "hands", "table", "stock", "captured", "in_play", "players")
    out = {k: state[k] for k in keys}
    out["stacks"] = sorted(
        ({k: s[k] for k in ("month", "owner", "cards", "bonus") if k in s} for s in state["stacks"]), key=lambda s: s["month"]
    )
    return out


def _check(
    rid: str,
    before: Json,
    action: Json,
    after: Json,
    expected: list[Json],
    *,
    scores: list[Json] | None = None,
    settlement: Json | None = None,
    legal: list[Json] | None = None,
    **overrides: Any,
) -> None:
    """The events derived from the hand-built states are those written out, and the reference
    engine plays the position to the same state and the same events."""
    options = _ruleset(rid, overrides).options.as_json()
    got = derive_events(before, after, action, options=options, scores=scores, settlement=settlement, legal=legal, earlier=[])
    assert got == expected
    events, state, _, _ = _reference(rid, before, action, **overrides)
    assert _comparable(state) == _comparable(after)
    assert events == expected


def _advanced(before: Json, *, to_act: int = 1) -> Json:
    return {"decision": "turn", "to_act": to_act, "turn": before["turn"] + 1}


def test_jjok_takes_the_played_card_back_with_its_flip_and_a_junk_from_each_opponent() -> None:
    """R-JJOK: a card played onto nothing of its month and the flip of that month."""
    before = _position(
        "matgo-2p", [["m05-junk-1", "m07-junk-1"], ["m09-junk-1"]], ["m01-bright"], ["m05-junk-2"], [[], ["m02-junk-1", "m02-ribbon"]]
    )
    after = _then(
        before,
        **_advanced(before),
        hands=[["m07-junk-1"], ["m09-junk-1"]],
        stock=before["stock"][1:],
        captured=[["m05-junk-1", "m05-junk-2", "m02-junk-1"], ["m02-ribbon"]],
    )
    _check(
        "matgo-2p",
        before,
        {"type": "play", "player": 0, "card": "m05-junk-1"},
        after,
        [
            {"kind": "play", "player": 0, "cards": ["m05-junk-1"]},
            {"kind": "flip", "player": 0, "cards": ["m05-junk-2"]},
            {"kind": "jjok", "player": 0, "cards": ["m05-junk-1", "m05-junk-2"]},
            {"kind": "capture", "player": 0, "cards": ["m05-junk-1", "m05-junk-2"]},
            {"kind": "steal", "player": 1, "cards": ["m02-junk-1"], "to": 0, "requested": 1, "units": 1},
        ],
    )


def test_ttadak_takes_the_month_with_the_card_named_and_the_flip() -> None:
    """R-TTADAK: two of the month on the table, the hand card and the flip of that month."""
    before = _position(
        "matgo-2p", [["m06-junk-1", "m07-junk-1"], ["m09-junk-1"]], ["m06-animal", "m06-ribbon"], ["m06-junk-2"], [[], ["m02-junk-1"]]
    )
    after = _then(
        before,
        **_advanced(before),
        hands=[["m07-junk-1"], ["m09-junk-1"]],
        table=[],
        stock=before["stock"][1:],
        captured=[["m06-animal", "m06-ribbon", "m06-junk-1", "m06-junk-2", "m02-junk-1"], []],
    )
    four = ["m06-junk-1", "m06-animal", "m06-ribbon", "m06-junk-2"]
    _check(
        "matgo-2p",
        before,
        {"type": "play", "player": 0, "card": "m06-junk-1", "take": "m06-ribbon"},
        after,
        [
            {"kind": "play", "player": 0, "cards": ["m06-junk-1"]},
            {"kind": "flip", "player": 0, "cards": ["m06-junk-2"]},
            {"kind": "ttadak", "player": 0, "cards": four},
            {"kind": "capture", "player": 0, "cards": ["m06-animal", "m06-ribbon", "m06-junk-1", "m06-junk-2"]},
            # the table is empty at the end of the turn: a sweep too, and one steal for both (R-EVENTS-STACK)
            {"kind": "sweep", "player": 0, "definition": "table_empty_at_turn_end"},
            {"kind": "steal", "player": 1, "cards": ["m02-junk-1"], "to": 0, "requested": 2, "units": 1},
        ],
    )


def test_ppeok_leaves_a_stack_and_buries_the_flipped_bonus_card() -> None:
    """R-PPEOK, R-BONUS-PPEOK, R-BONUS-STEAL: the flipped bonus card is buried in the stack, not
    captured, and still owed for."""
    before = _position(
        "matgo-online",
        [["m08-junk-1", "m07-junk-1"], ["m09-junk-1"]],
        ["m08-animal", "m01-bright"],
        ["bonus-2a", "m08-junk-2"],
        [[], ["m02-junk-1"]],
    )
    three = ["m08-animal", "m08-junk-1", "m08-junk-2"]
    stack = {"month": 8, "owner": 0, "cards": three, "bonus": ["bonus-2a"]}
    after = _then(
        before,
        **_advanced(before),
        hands=[["m07-junk-1"], ["m09-junk-1"]],
        stock=before["stock"][2:],
        table=["m01-bright", *three],
        stacks=[stack],
        captured=[["m02-junk-1"], []],
        players=_player(before, 0, ppeoks=1),
    )
    _check(
        "matgo-online",
        before,
        {"type": "play", "player": 0, "card": "m08-junk-1"},
        after,
        [
            {"kind": "play", "player": 0, "cards": ["m08-junk-1"]},
            {"kind": "bonus", "player": 0, "cards": ["bonus-2a"], "source": "flip"},
            {"kind": "flip", "player": 0, "cards": ["m08-junk-2"]},
            {"kind": "ppeok", "player": 0, "cards": three, "month": 8, "bonus": ["bonus-2a"], "count": 1},
            {"kind": "steal", "player": 1, "cards": ["m02-junk-1"], "to": 0, "requested": 1, "units": 1},
        ],
    )


def test_stack_capture_by_the_hand_card_comes_before_the_flip_and_steals_for_its_creator() -> None:
    """R-STACK-CAPTURE, R-PPEOK-CAPTURE: another's ppeok, taken by the fourth card from the hand;
    the giver runs short of junk (R-STEAL): one unit of the two owed."""
    stack_cards = ["m03-bright", "m03-ribbon", "m03-junk-1"]
    before = _position(
        "matgo-2p",
        [["m03-junk-2", "m07-junk-1"], ["m09-junk-1"]],
        [*stack_cards, "m01-bright"],
        ["m10-junk-1"],
        [[], ["m02-junk-1", "m02-animal"]],
        stacks=[{"month": 3, "owner": 1, "cards": stack_cards, "bonus": []}],
        players=[{}, {"ppeoks": 1}],
    )
    after = _then(
        before,
        **_advanced(before),
        hands=[["m07-junk-1"], ["m09-junk-1"]],
        table=["m01-bright", "m10-junk-1"],
        stacks=[],
        stock=before["stock"][1:],
        captured=[[*stack_cards, "m03-junk-2", "m02-junk-1"], ["m02-animal"]],
    )
    _check(
        "matgo-2p",
        before,
        {"type": "play", "player": 0, "card": "m03-junk-2"},
        after,
        [
            {"kind": "play", "player": 0, "cards": ["m03-junk-2"]},
            {"kind": "stack_capture", "player": 0, "cards": [*stack_cards, "m03-junk-2"], "month": 3, "owner": 1},
            {"kind": "flip", "player": 0, "cards": ["m10-junk-1"]},
            {"kind": "capture", "player": 0, "cards": [*stack_cards, "m03-junk-2"]},
            {"kind": "steal", "player": 1, "cards": ["m02-junk-1"], "to": 0, "requested": 2, "units": 1},
        ],
        ppeok_capture_steal=2,
    )


def test_a_steal_owed_and_not_paid_is_reported_without_cards() -> None:
    """R-STEAL: the giver holds no junk: the steal event has no cards and 0 units."""
    before = _position("matgo-2p", [["m05-junk-1", "m07-junk-1"], ["m09-junk-1"]], ["m01-bright"], ["m05-junk-2"], [[], ["m02-ribbon"]])
    after = _then(
        before,
        **_advanced(before),
        hands=[["m07-junk-1"], ["m09-junk-1"]],
        stock=before["stock"][1:],
        captured=[["m05-junk-1", "m05-junk-2"], ["m02-ribbon"]],
    )
    events = derive_events(
        before, after, {"type": "play", "player": 0, "card": "m05-junk-1"}, options=_ruleset("matgo-2p").options.as_json(), earlier=[]
    )
    assert events[-1] == {"kind": "steal", "player": 1, "to": 0, "requested": 1, "units": 0}
    assert _reference("matgo-2p", before, {"type": "play", "player": 0, "card": "m05-junk-1"})[0] == events


def test_sweep_when_the_turn_leaves_the_table_empty() -> None:
    """R-SWEEP (table_empty_at_turn_end): the hand card and the flip each take the table's last cards."""
    before = _position(
        "matgo-2p", [["m04-junk-2", "m07-junk-1"], ["m11-junk-1"]], ["m04-junk-1", "m09-junk-2"], ["m09-junk-1"], [[], ["m02-junk-1"]]
    )
    after = _then(
        before,
        **_advanced(before),
        hands=[["m07-junk-1"], ["m11-junk-1"]],
        table=[],
        stock=before["stock"][1:],
        captured=[["m04-junk-1", "m04-junk-2", "m09-junk-1", "m09-junk-2", "m02-junk-1"], []],
    )
    _check(
        "matgo-2p",
        before,
        {"type": "play", "player": 0, "card": "m04-junk-2"},
        after,
        [
            {"kind": "play", "player": 0, "cards": ["m04-junk-2"]},
            {"kind": "flip", "player": 0, "cards": ["m09-junk-1"]},
            {"kind": "capture", "player": 0, "cards": ["m04-junk-1", "m04-junk-2", "m09-junk-1", "m09-junk-2"]},
            {"kind": "sweep", "player": 0, "definition": "table_empty_at_turn_end"},
            {"kind": "steal", "player": 1, "cards": ["m02-junk-1"], "to": 0, "requested": 1, "units": 1},
        ],
    )


def test_steal_exempt_on_the_final_turn() -> None:
    """R-FINAL-TURN: the round's last turn (the last stock card, no hand card left) makes a jjok:
    the steal is withheld, and the round ends void (R-NAGARI)."""
    before = _position("matgo-2p", [["m05-junk-1"], []], ["m01-bright"], ["m05-junk-2"], [[], ["m02-junk-1"]], rest_to=1)
    after = _then(
        before,
        decision="none",
        to_act=None,
        turn=before["turn"] + 1,
        hands=[[], []],
        stock=[],
        captured=[["m05-junk-1", "m05-junk-2"], before["captured"][1]],
    )
    settlement = {"kind": "nagari", "winner": None, "net": [0, 0]}
    _check(
        "matgo-2p",
        before,
        {"type": "play", "player": 0, "card": "m05-junk-1"},
        after,
        [
            {"kind": "play", "player": 0, "cards": ["m05-junk-1"]},
            {"kind": "flip", "player": 0, "cards": ["m05-junk-2"]},
            {"kind": "jjok", "player": 0, "cards": ["m05-junk-1", "m05-junk-2"]},
            {"kind": "capture", "player": 0, "cards": ["m05-junk-1", "m05-junk-2"]},
            {"kind": "steal_exempt", "player": 0, "reason": "jjok", "units": 1},
            {"kind": "round_end", "outcome": "nagari", "net": [0, 0]},
        ],
        settlement=settlement,
    )


#: 3 brights (3 points) and 11 junk units (2 points): a pair of junk more makes 7 (R-SCORE-JUNK)
_SEVEN_SOON: Final = [
    "m01-bright",
    "m03-bright",
    "m08-bright",
    *(f"m{m:02d}-junk-{k}" for m in (2, 4, 6, 7) for k in (1, 2)),
    "m09-junk-1",
    "m11-double-junk",
]


@pytest.mark.parametrize(("hand", "stop_only"), [(["m10-junk-1", "m12-ribbon"], False), (["m10-junk-1"], True)])
def test_go_stop_offered_with_the_base_of_the_score_reply(hand: list[str], stop_only: bool) -> None:
    """R-GO-WHEN, R-GO-LAST: the capture brings the actor to 7 (3 brights, 13 junk units); Go is
    not allowed when it was the actor's last card (forced_stop)."""
    before = _position("matgo-2p", [hand, ["m11-junk-1"]], ["m10-junk-2", "m12-animal"], ["m05-junk-1"], [_SEVEN_SOON, []])
    after = _then(
        before,
        decision="go_stop",
        to_act=0,
        turn=before["turn"] + 1,
        hands=[hand[1:], ["m11-junk-1"]],
        table=["m12-animal", "m05-junk-1"],
        stock=before["stock"][1:],
        captured=[[*_SEVEN_SOON, "m10-junk-1", "m10-junk-2"], []],
    )
    action = {"type": "play", "player": 0, "card": "m10-junk-1"}
    legal = [{"type": "stop", "player": 0}] if stop_only else [{"type": "go", "player": 0}, {"type": "stop", "player": 0}]
    expected = [
        {"kind": "play", "player": 0, "cards": ["m10-junk-1"]},
        {"kind": "flip", "player": 0, "cards": ["m05-junk-1"]},
        {"kind": "capture", "player": 0, "cards": ["m10-junk-1", "m10-junk-2"]},
        {"kind": "go_stop_offered", "player": 0, "base": 7, "stop_only": stop_only},
    ]
    _check("matgo-2p", before, action, after, expected, scores=[{"base": 7}, {"base": 0}], legal=legal)
    # without the legal actions, R-GO-LAST from the state after
    options = _ruleset("matgo-2p").options.as_json()
    assert derive_events(before, after, action, options=options, scores=[{"base": 7}, {"base": 0}]) == expected
    _, _, score, reference_legal = _reference("matgo-2p", before, action)
    assert score["scores"][0]["base"] == 7 and reference_legal == legal


def test_the_events_a_reply_needs_a_score_reply_for_are_refused_without_it() -> None:
    before = _position("matgo-2p", [["m10-junk-1", "m12-ribbon"], ["m11-junk-1"]], ["m10-junk-2"], ["m05-junk-1"], [_SEVEN_SOON, []])
    after = _then(before, decision="go_stop", hands=[["m12-ribbon"], ["m11-junk-1"]], stock=before["stock"][1:])
    options = _ruleset("matgo-2p").options.as_json()
    with pytest.raises(ValueError, match="scores"):
        derive_events(before, after, {"type": "play", "player": 0, "card": "m10-junk-1"}, options=options)
    with pytest.raises(ValueError, match="settlement"):
        derive_events(before, _then(after, decision="none"), {"type": "stop", "player": 0}, options=options, scores=[{"base": 7}] * 2)


# ------------------------------------------------------------------------------------ positions played through


def _played(rid: str, before: Json, actions: Sequence[Json], **overrides: Any) -> list[list[Json]]:
    """The actions played by the reference engine from the position, each reply's events compared
    with those the EventDeriver derives; the events of each reply."""
    rs = _ruleset(rid, overrides)
    options = rs.options.as_json()
    engine = JsonEngine()
    deal = {k: before[k] for k in ("dealer", "turn", "hands", "table", "stock", "captured", "players")}
    deal |= {"first_player": before["to_act"], "stacks": [{"month": s["month"], "owner": s["owner"]} for s in before["stacks"]]}
    deal = complete_deal_json(deal, rs.options)
    reply = engine.new_game({"id": rid, "options": options}, deal)
    deriver = EventDeriver()
    _same(deriver.new_game(deal, reply["state"], options=options), reply["events"], f"{rid}: new_game")
    out = []
    state = reply["state"]
    for action in actions:
        reply = engine.act(action)
        assert "error" not in reply, reply
        score = engine.score()
        legal = engine.legal()["actions"]
        got = deriver.act(state, reply["state"], action, scores=score["scores"], settlement=score["settlement"], legal=legal)
        _same(got, reply["events"], f"{rid}: {json.dumps(action)}")
        out.append(got)
        state = reply["state"]
    return out


def _kinds(events: Sequence[Mapping[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


def test_a_take_after_the_hand_took_an_own_stack_steals_for_it() -> None:
    """R-TWO-MATCH-CHOICE, R-PPEOK-CAPTURE: the hand card takes the actor's own ppeok, the flip
    pauses for a choice; the take's reply carries the steal of own_ppeok_capture_steal (2), which
    only the earlier play's stack_capture says."""
    stack_cards = ["m03-bright", "m03-ribbon", "m03-junk-1"]
    before = _position(
        "matgo-2p",
        [["m03-junk-2", "m07-junk-1"], ["m09-junk-1"]],
        [*stack_cards, "m10-animal", "m10-ribbon"],
        ["m10-junk-1"],
        [[], ["m02-junk-1", "m02-junk-2", "m04-junk-1"]],
        stacks=[{"month": 3, "owner": 0}],
        players=[{"ppeoks": 1}, {}],
    )
    play, take = _played(
        "matgo-2p", before, [{"type": "play", "player": 0, "card": "m03-junk-2"}, {"type": "take", "player": 0, "card": "m10-ribbon"}]
    )
    assert _kinds(play) == ["play", "stack_capture", "flip"]
    assert take[-1] == {"kind": "steal", "player": 1, "cards": ["m02-junk-1", "m02-junk-2"], "to": 0, "requested": 2, "units": 2}


def test_a_hand_bonus_card_is_owed_for_at_the_end_of_the_turn() -> None:
    """R-BONUS-HAND, R-BONUS-STEAL: the bonus card's steal comes with the turn's hand action, which
    the states do not tie to it: the EventDeriver remembers it."""
    before = _position(
        "matgo-online",
        [["bonus-2a", "m07-junk-1", "m09-junk-1"], ["m11-junk-1"]],
        ["m01-bright"],
        ["m12-animal", "m05-junk-1"],
        [[], ["m02-junk-1"]],
    )
    bonus, play = _played(
        "matgo-online", before, [{"type": "bonus", "player": 0, "card": "bonus-2a"}, {"type": "play", "player": 0, "card": "m07-junk-1"}]
    )
    assert bonus == [{"kind": "bonus", "player": 0, "cards": ["bonus-2a"], "source": "hand", "replacement": ["m12-animal"]}]
    assert play[-1] == {"kind": "steal", "player": 1, "cards": ["m02-junk-1"], "to": 0, "requested": 1, "units": 1}


def test_bonus_cards_of_the_turn_are_buried_in_its_ppeok_flipped_ones_first() -> None:
    """R-BONUS-PPEOK (all_bonus_this_turn), R-FIRST-TURN-AWARD: the bonus card played from the hand
    leaves the pile for the stack, after the flipped one; both are owed for (R-BONUS-STEAL); the
    ppeok is the actor's first turn since the deal: an award."""
    before = _position(
        "matgo-online",
        [["bonus-2a", "m08-junk-1", "m07-junk-1"], ["m11-junk-1"]],
        ["m08-animal", "m01-bright"],
        ["m12-animal", "bonus-3", "m08-junk-2"],
        [[], ["m02-junk-1", "m02-junk-2", "m03-junk-1"]],
    )
    actions = [{"type": "bonus", "player": 0, "card": "bonus-2a"}, {"type": "play", "player": 0, "card": "m08-junk-1"}]
    _, play = _played("matgo-online", before, actions, bonus_joins_ppeok="all_bonus_this_turn", first_ppeok_award=3)
    assert _kinds(play) == ["play", "bonus", "flip", "ppeok", "award", "steal"]
    assert play[3]["bonus"] == ["bonus-3", "bonus-2a"]
    assert play[4] == {"kind": "award", "player": 0, "reason": "first_ppeok", "points": 3}
    assert play[5] == {"kind": "steal", "player": 1, "cards": ["m02-junk-1", "m02-junk-2"], "to": 0, "requested": 2, "units": 2}


def test_the_point_count_round_ends_with_the_leftover_to_the_last_player() -> None:
    """R-PC-LEFTOVER: the cards left on the table go to the player of the last turn."""
    before = _position("family-2p", [["m01-junk-1"], []], ["m01-junk-2", "m03-junk-1"], ["m07-junk-1"], rest_to=1)
    (events,) = _played("family-2p", before, [{"type": "play", "player": 0, "card": "m01-junk-1"}])
    assert _kinds(events) == ["play", "flip", "capture", "leftover", "round_end"]
    assert events[3]["cards"] == ["m03-junk-1", "m07-junk-1"]


def test_a_final_turn_ppeok_is_captured_under_capture_three() -> None:
    """R-FINAL-PPEOK: on the round's last turn the three cards are captured, the ppeok counted."""
    before = _position("matgo-2p", [["m08-junk-1"], []], ["m08-animal"], ["m08-junk-2"], rest_to=1)
    (events,) = _played("matgo-2p", before, [{"type": "play", "player": 0, "card": "m08-junk-1"}], final_turn_ppeok="capture_three")
    assert events[2] == {
        "kind": "ppeok",
        "player": 0,
        "cards": ["m08-animal", "m08-junk-1", "m08-junk-2"],
        "month": 8,
        "handling": "capture_three",
        "count": 1,
    }


def test_a_go_that_spends_the_round_makes_the_last_caller_win() -> None:
    """R-GO-LAST (allowed), R-EXHAUST-AFTER-GO: Go on the last turn; the stock is spent."""
    before = _position("matgo-2p", [["m10-junk-1"], []], ["m10-junk-2"], ["m05-junk-1"], [_SEVEN_SOON, []], rest_to=1)
    play, go = _played(
        "matgo-2p",
        before,
        [{"type": "play", "player": 0, "card": "m10-junk-1"}, {"type": "go", "player": 0}],
        go_on_last_turn="allowed",
        deck_exhausted_after_go="last_go_caller_wins",
    )
    assert play[-1] == {"kind": "go_stop_offered", "player": 0, "base": 7, "stop_only": False}
    assert _kinds(go) == ["go", "round_end"] and go[-1]["outcome"] == "last_go_caller_wins"


# ------------------------------------------------------------------------------------ deals


def _deal_events(rid: str, deal: Json, **overrides: Any) -> list[Json]:
    rs = _ruleset(rid, overrides)
    options = rs.options.as_json()
    deal = complete_deal_json(deal, rs.options)
    engine = JsonEngine()
    reply = engine.new_game({"id": rid, "options": options}, deal)
    got = derive_deal_events(deal, reply["state"], options=options, settlement=engine.score()["settlement"])
    _same(got, reply["events"], f"{rid}: new_game {json.dumps(deal)}")
    return got


def test_bonus_cards_dealt_to_the_table_are_replaced_in_place_again_and_again() -> None:
    """R-DEAL-BONUS: the replacement of a bonus card may be one too; then a four the dealer takes
    (R-TABLE-FOUR dealer_captures_four) and a dealt triple (R-TABLE-TRIPLE)."""
    table = ["bonus-2a", "m01-junk-1", "m04-animal", "m04-ribbon", "m04-junk-1", "m06-ribbon", "m06-junk-1", "m06-junk-2"]
    events = _deal_events(
        "matgo-online",
        {"dealer": 1, "hands": [["m02-junk-1"], ["m03-junk-1"]], "table": table, "stock": ["bonus-3", "m04-junk-2", "m06-animal"]},
        table_four_of_month="dealer_captures_four",
    )
    assert _kinds(events) == ["table_bonus", "table_bonus", "deal", "table_four", "capture", "table_triple"]
    assert [e["cards"] for e in events[:2]] == [["bonus-2a", "bonus-3"], ["bonus-3", "m04-junk-2"]]


@pytest.mark.parametrize(
    ("overrides", "kinds"),
    [
        ({}, ["deal", "chongtong", "round_end"]),
        ({"hand_chongtong": "redeal"}, ["deal", "chongtong", "redeal", "round_end"]),
        ({"hand_chongtong": "ignore"}, ["deal"]),
        ({"table_four_of_month": "nagari"}, ["deal", "table_four", "round_end"]),
        ({"table_four_of_month": "dealer_wins_fixed"}, ["deal", "table_four", "round_end"]),
    ],
)
def test_a_deal_that_ends_the_round(overrides: dict[str, Any], kinds: list[str]) -> None:
    """R-CHONGTONG, R-REDEAL, R-TABLE-FOUR: the first player's four of a month; a four on the table."""
    hands = [["m02-junk-1"], [f"m05-{k}" for k in ("animal", "ribbon", "junk-1", "junk-2")]]
    table = ["m09-animal", "m09-ribbon", "m09-junk-1", "m09-junk-2"] if "table_four_of_month" in overrides else []
    assert _kinds(_deal_events("matgo-2p", {"dealer": 0, "first_player": 1, "hands": hands, "table": table}, **overrides)) == kinds


def test_a_seeded_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="explicit deal"):
        derive_deal_events({"seed": 5}, {}, options=_ruleset("matgo-2p").options.as_json())
