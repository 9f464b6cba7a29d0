"""Checking an action apart from applying it (`Round.check`, reference_impl/_legal.py; R-TURN).

Over seeded random rounds of every ruleset, at every decision, a few hundred candidate actions
(every card and month of the deck in every action type, every seat) are checked, and:

- every action `legal_actions()` lists passes the check;
- an action that passes is listed, or is a listed play spelled with a table card the rules
  ignore (a `take` where no choice exists), and applies exactly as the listed one does;
- an action the check refuses is refused by `apply` with the same code, and every field of the
  round (the turn paused at a choose_* decision included) is as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import pytest

from gostop_conformance.reference import Action, Rejection, Round, SplitMix64, complete_deal, seeded_deal
from gostop_conformance.reference._deal import deck_indices
from gostop_conformance.reference._match import RandomPlayer
from gostop_conformance.spec import ActionType, InputError, deck, load_ruleset, option_registry, ruleset_ids
from tests.conftest import BUILD
from tests.reference_impl.test_round import _fields

SEEDS = range(6)
#: refusals made before any action-specific check (the decision, the seat): a few are applied
EARLY: Final = ("round_over", "not_your_turn", "wrong_decision")


def _state(rnd: Round) -> str:
    """Every field of the round, and of a turn paused at a choose_* decision, as text."""
    s = rnd._state
    fields = {k: v for k, v in _fields(s).items() if k not in ("events", "ctx", "ruleset", "o")}
    fields["ctx"] = None if s.ctx is None else sorted(_fields(s.ctx).items())
    return repr(sorted(fields.items()))


def _candidates(rnd: Round, card_ids: list[str]) -> list[Action]:
    seat, n = rnd.to_act, rnd.n
    out: list[Action] = []
    table = rnd.snapshot()["table"]
    for cid in card_ids:
        month = deck().card(cid).month
        for kind in ("play", "take", "bonus", "dual_to_junk"):
            out.append(Action(kind, seat, cid))
        out.append(Action("play", seat, cid, shake=True))
        for t in table:
            if deck().card(t).month == month and t != cid:
                out.append(Action("play", seat, cid, t))
                out.append(Action("play", seat, cid, t, shake=True))
    for m in range(13):
        out.extend(Action(kind, seat, month=m) for kind in ("bomb", "shake", "chongtong"))
    out.extend(Action(kind, seat) for kind in ("go", "stop", "skip", "play"))
    out.extend(a._replace(player=(seat + k) % n) for a in rnd.legal_actions() for k in range(1, n))
    return out


def _events(rnd: Round, action: Action) -> object:
    twin = rnd.copy()
    return twin.apply(action), twin.snapshot()


@pytest.mark.parametrize("rid", ruleset_ids())
def test_check_agrees_with_legal_actions_and_apply(rid: str) -> None:
    rs = load_ruleset(rid)
    o = rs.options
    card_ids = [deck().cards[i].id for i in deck_indices(o)]
    refused = spelled = 0
    for seed in SEEDS:
        rng = SplitMix64(seed)
        rnd = Round(rs, seeded_deal(o, rng, dealer=rng.below(o.players)))
        player = RandomPlayer(seed)
        while not rnd.over:
            legal = rnd.legal_actions()
            for action in legal:
                assert rnd.check(action) is None, (action, rnd.check(action))
            before, early = _state(rnd), 0
            for action in _candidates(rnd, card_ids):
                refusal = rnd.check(action)
                if refusal is None:
                    if action in legal:
                        continue
                    listed = action._replace(take=None)
                    assert listed in legal, f"{action} passes the check but is not among {legal}"
                    assert _events(rnd, action) == _events(rnd, listed)
                    spelled += 1
                    continue
                refused += 1
                if refusal.code in EARLY:
                    early += 1
                    if early > 3:
                        continue
                with pytest.raises(Rejection) as raised:
                    rnd.apply(action)
                assert raised.value.code == refusal.code
                assert _state(rnd) == before, action
            rnd.apply(player.choose(rnd))
        assert rnd.check(Action("stop", 0)) is not None  # a finished round refuses everything
    assert refused
    del spelled  # only some rulesets have spellings the rules ignore


def test_check_names_the_reason_and_changes_nothing() -> None:
    rs = load_ruleset("matgo-2p")
    rnd = Round(rs, seeded_deal(rs.options, SplitMix64(3), dealer=0))
    before = _state(rnd)
    outsider = next(c for c in (deck().cards[i].id for i in deck_indices(rs.options)) if c not in rnd.snapshot()["hands"][rnd.to_act])
    refusal = rnd.check(Action("play", rnd.to_act, outsider))
    assert refusal is not None and refusal.code == "card_not_in_hand"
    assert rnd.check(Action("go", rnd.to_act)) is not None
    assert rnd.check(Action("play", 1 - rnd.to_act, outsider)).code == "not_your_turn"  # type: ignore[union-attr]
    assert _state(rnd) == before


def test_check_after_the_round_is_over_is_round_over() -> None:
    """R-TURN: once the round has ended, every action is refused with round_over."""
    from tests.conftest import play, start

    rnd = start("matgo-2p", [["m01-bright"], ["m02-animal"]], stock=["m03-junk-1", "m04-junk-1"])
    play(rnd, "m01-bright")
    play(rnd, "m02-animal")
    assert rnd.over
    refusal = rnd.check(Action("play", 0, "m05-animal"))
    assert refusal is not None and refusal.code == "round_over"


def test_a_bonus_action_with_an_ordinary_card_is_bonus_not_allowed() -> None:
    """R-BONUS-HAND: only a bonus card can be played as one; check and apply agree."""
    from tests.conftest import start

    rnd = start("matgo-2p", [["m01-bright", "m05-animal"], ["m02-animal"]], stock=["m03-junk-1", "m04-junk-1"])
    action = Action("bonus", 0, "m01-bright")
    refusal = rnd.check(action)
    assert refusal is not None and refusal.code == "bonus_not_allowed"
    with pytest.raises(Rejection) as applied:
        rnd.apply(action)
    assert applied.value.code == "bonus_not_allowed"


def test_a_hand_of_bonus_cards_only_plays_them_with_an_empty_stock() -> None:
    """R-BONUS-HAND: with the stock empty (a listed deal placing every other card in a pile), a
    hand of two bonus cards and nothing else must play one: both are listed, and nothing else (the
    hand's ordinary cards are counted, not guessed from whether it holds a bonus card)."""
    from tests.conftest import ruleset

    rs = ruleset("matgo-online")
    ids = [deck().cards[i].id for i in deck_indices(rs.options)]
    bonus = [c for c in ids if c.startswith("bonus")]
    assert len(bonus) == 2
    rest = [c for c in ids if c not in bonus and c != "m02-animal"]
    rnd = Round(rs, complete_deal(rs.options, [bonus, ["m02-animal"]], (), (), dealer=0, captured=[[], rest]))
    assert rnd.stock == [] and rnd.to_act == 0
    assert rnd.legal_actions() == [Action("bonus", 0, c) for c in bonus]


def test_a_chongtong_naming_no_month_is_refused() -> None:
    """R-CHONGTONG (instant_win_or_continue, wikipedia-3p): the four shown must be named, even
    when the hand holds the four of January (month 1)."""
    from tests.conftest import start

    rnd = start(
        "wikipedia-3p",
        [["m01-bright", "m01-ribbon", "m01-junk-1", "m01-junk-2", "m05-animal"], ["m02-animal"], ["m03-junk-2"]],
        stock=["m03-junk-1", "m04-junk-1"],
    )
    assert Action("chongtong", 0, month=1) in rnd.legal_actions()
    refusal = rnd.check(Action("chongtong", 0))
    assert refusal is not None and refusal.code == "chongtong_not_allowed"


def test_a_shake_naming_no_month_is_refused() -> None:
    """R-SHAKE: the month shown must be named, even when the hand holds three January cards."""
    from tests.conftest import start

    rnd = start("matgo-2p", [["m01-bright", "m01-ribbon", "m01-junk-1", "m05-animal"], ["m02-animal"]], stock=["m03-junk-1", "m04-junk-1"])
    assert Action("shake", 0, month=1) in rnd.legal_actions()
    refusal = rnd.check(Action("shake", 0))
    assert refusal is not None and refusal.code == "shake_not_allowed"


#: options whose values change the deck, the deal's shape or the scoring system: kept as each ruleset has them
_KEPT: Final = frozenset({"scoring_system", "players", "deal_layout", "deal_packet_order", "first_dealer", "bonus_cards"})


def _varied(rng: SplitMix64) -> Round | None:
    """A round of a random ruleset with up to three of its closed-set options (bool, enum) given
    another value: the meetings of options no named ruleset has together."""
    rid = ruleset_ids()[rng.below(len(ruleset_ids()))]
    rs = load_ruleset(rid)
    flippable = [spec for name, spec in option_registry().items() if spec.type in ("bool", "enum") and name not in _KEPT]
    overrides: dict[str, object] = {}
    for _ in range(1 + rng.below(3)):
        spec = flippable[rng.below(len(flippable))]
        values = [True, False] if spec.type == "bool" else list(spec.values or ())
        overrides[spec.id] = values[rng.below(len(values))]
    try:
        varied = rs.with_overrides(overrides, "test")
    except InputError:  # values that do not go together
        return None
    o = varied.options
    return Round(varied, seeded_deal(o, rng, dealer=rng.below(o.players)))


def test_every_listed_action_passes_the_check_when_options_meet() -> None:
    """Every action the legal list offers is accepted, under option values no named ruleset has
    together (found this way: a bonus replacement that must be played and matches nothing, under
    must_match_if_possible, was listed and then refused, leaving the player no legal action;
    R-BONUS-HAND, R-FREE-PLAY)."""
    rng = SplitMix64(20261207)
    rounds = 0
    while rounds < 400:
        rnd = _varied(rng)
        if rnd is None:
            continue
        rounds += 1
        player = RandomPlayer(rounds)
        while not rnd.over:
            legal = rnd.legal_actions()
            assert legal, f"{rnd.ruleset.id}: decision {rnd.decision} with no legal action"
            for action in legal:
                assert rnd.check(action) is None, (rnd.ruleset.options.as_json(), action, rnd.check(action))
            rnd.apply(player.choose(rnd))


class _BuiltWhenRead:
    """A table of _legal read as the tables are (`table[seat][card or month]`), each action built
    by keyword when it is read: the readable construction the tables stand in for."""

    def __init__(self, build: Callable[[int, int], Action]) -> None:
        self.build = build

    def __getitem__(self, seat: int) -> _Row:
        return _Row(self.build, seat)


class _Row:
    def __init__(self, build: Callable[[int, int], Action], seat: int) -> None:
        self.build, self.seat = build, seat

    def __getitem__(self, key: int) -> Action:
        return self.build(self.seat, key)


def _readable_tables() -> dict[str, object]:
    from gostop_conformance.reference._cards import CARD_ID, SEATS

    def card(kind: ActionType, shake: bool = False) -> _BuiltWhenRead:
        return _BuiltWhenRead(lambda seat, c: Action(type=kind, player=seat, card=CARD_ID[c], shake=shake))

    def month(kind: ActionType) -> _BuiltWhenRead:
        return _BuiltWhenRead(lambda seat, m: Action(type=kind, player=seat, month=m))

    def alone(kind: ActionType) -> list[Action]:
        return [Action(type=kind, player=seat) for seat in SEATS]

    return {
        "_PLAY": card("play"),
        "_PLAY_SHAKE": card("play", shake=True),
        "_TAKE": card("take"),
        "_BONUS": card("bonus"),
        "_DUAL": card("dual_to_junk"),
        "_BOMB": month("bomb"),
        "_SHAKE": month("shake"),
        "_CHONGTONG": month("chongtong"),
        "_GO": alone("go"),
        "_STOP": alone("stop"),
        "_SKIP": alone("skip"),
    }


@pytest.mark.skipif(BUILD == "compiled", reason="a compiled module's Final tables cannot be replaced")
@pytest.mark.parametrize("rid", ruleset_ids())
def test_the_action_tables_list_what_building_each_action_lists(rid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """_legal lists prebuilt actions for speed (its comment gives the figure); with every table
    replaced by the keyword construction it stands in for, every decision lists the same actions
    (OpenSpiel's test_consistent: a fast variant held equal to a readable one)."""
    from gostop_conformance.reference import _legal

    readable = _readable_tables()
    assert set(readable) == {name for name in vars(_legal) if name.isupper() and name.startswith("_")}
    rs = load_ruleset(rid)
    decisions = 0
    for seed in range(8):
        rnd = Round(rs, seeded_deal(rs.options, SplitMix64(seed), dealer=seed % rs.options.players))
        player = RandomPlayer(seed)
        while not rnd.over:
            fast = rnd.legal_actions()
            with monkeypatch.context() as m:
                for name, table in readable.items():
                    m.setattr(_legal, name, table)
                assert rnd.legal_actions() == fast
            decisions += 1
            rnd.apply(player.choose(rnd))
    assert decisions > 100
