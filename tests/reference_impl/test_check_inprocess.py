"""The engine's self-check (`gostop-reference check`, reference_impl._check) run in process.

It plays random rounds with every invariant checked after every action and replays each round to
prove it deterministic. Here: what it counts on real rounds, and that each kind of problem it looks for
(a broken invariant, a replay that differs, a round that never ends) is reported when it happens.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace

import pytest

from gostop_conformance.reference import _check
from gostop_conformance.reference._check import check_all, check_ruleset
from gostop_conformance.reference._deal import Deal, seeded_deal
from gostop_conformance.reference._events import Action, Event
from gostop_conformance.reference._match import RandomPlayer
from gostop_conformance.reference._rng import SplitMix64
from gostop_conformance.reference._round import Round
from gostop_conformance.spec import InputError, Options, load_ruleset
from tests.conftest import BUILD

SEED = 7


def seeds(seed: int, rounds: int) -> list[int]:
    """The seed of each round: what a reported problem names, so that the round can be played again."""
    return [seed * 1_000_003 + k for k in range(rounds)]


def played(ruleset_id: str, seed: int) -> tuple[int, str]:
    """The actions and the outcome of the round of `seed`, played here: dealt by R-SHUFFLE from the
    seed's generator, which first draws the dealer, and played by the random player of the seed."""
    rs = load_ruleset(ruleset_id)
    rng = SplitMix64(seed)
    rnd = Round(rs, seeded_deal(rs.options, rng, dealer=rng.below(rs.options.players)))
    player = RandomPlayer(seed)
    actions = 0
    while not rnd.over:
        rnd.apply(player.choose(rnd))
        actions += 1
    assert rnd.settlement is not None
    return actions, rnd.settlement.kind


@pytest.mark.parametrize("ruleset_id", ["matgo-2p", "standard-3p", "matgo-online"])
def test_real_rounds_are_counted_and_hold_every_invariant(ruleset_id: str) -> None:
    progress: list[int] = []
    start = time.perf_counter()
    result = check_ruleset(ruleset_id, 3, SEED, progress.append)
    took = time.perf_counter() - start
    expected = [played(ruleset_id, s) for s in seeds(SEED, 3)]
    assert result.ruleset == ruleset_id and result.rounds == 3
    assert result.actions == sum(a for a, _ in expected)
    assert result.outcomes == Counter(kind for _, kind in expected)
    assert sum(result.outcomes.values()) == result.rounds
    assert result.problems == []
    assert progress == [1, 2, 3]
    assert 0 < result.seconds <= took


def test_check_all_checks_each_ruleset_in_order() -> None:
    results = check_all(["standard-3p", "matgo-2p"], 1, SEED)
    assert [(r.ruleset, r.rounds, r.problems) for r in results] == [("standard-3p", 1, []), ("matgo-2p", 1, [])]


def test_a_broken_invariant_is_reported_after_every_action_and_at_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the checked play looks for violations; the replay does not repeat them."""
    checked: list[Round] = []

    def broken(rnd: Round) -> list[str]:
        checked.append(rnd)
        return ["a card is lost"]

    monkeypatch.setattr(_check, "violations", broken)
    result = check_ruleset("matgo-2p", 2, SEED)
    expected: list[str] = []
    for s in seeds(SEED, 2):
        actions, _ = played("matgo-2p", s)
        expected += [f"seed {s}, action {k}: a card is lost" for k in range(1, actions + 1)]
        expected.append(f"seed {s}, end: a card is lost")
    assert result.problems == expected
    assert len(checked) == len(expected)
    assert result.rounds == 2 and sum(result.outcomes.values()) == 2


def test_a_replay_that_differs_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _check._transcript

    def drifting(ruleset_id: str, seed: int, check: bool) -> tuple[list[str], list[str], int, str]:
        lines, problems, actions, outcome = real(ruleset_id, seed, check)
        return ([*lines, "something else"] if not check else lines), problems, actions, outcome

    monkeypatch.setattr(_check, "_transcript", drifting)
    result = check_ruleset("matgo-2p", 2, SEED)
    assert result.problems == [f"seed {s}: replaying the round gave a different transcript" for s in seeds(SEED, 2)]


def test_the_transcript_records_the_deal_every_action_every_event_and_the_settlement() -> None:
    """What the replay compares: a round that differed anywhere gives another transcript."""
    s = seeds(SEED, 1)[0]
    lines, problems, actions, outcome = _check._transcript("matgo-2p", s, check=True)
    assert problems == [] and (actions, outcome) == played("matgo-2p", s)
    assert lines[0].startswith("Event(kind='deal'") and lines[-1].startswith("Settlement(")
    assert sum(line.startswith("Action(") for line in lines) == actions
    assert all(line.startswith(("Event(", "Action(")) for line in lines[:-1])  # every event of every action, by value
    assert sum(line.startswith("Event(") for line in lines) > actions  # a play makes at least a play and a flip event
    assert _check._transcript("matgo-2p", s, check=False) == (lines, [], actions, outcome)
    assert _check._transcript("matgo-2p", s + 1, check=False)[0] != lines


@pytest.mark.skipif(BUILD == "compiled", reason="a Python subclass of the compiled Round is not possible")
def test_a_round_that_never_ends_is_cut_off_after_1000_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    class Stuck(Round):
        """Takes every action and changes nothing, and lasts 1010 actions: longer than the check waits."""

        applied = 0

        def apply(self, action: Action) -> list[Event]:
            self.applied += 1
            return []

        @property
        def over(self) -> bool:
            return self.applied >= 1010

    monkeypatch.setattr(_check, "Round", Stuck)
    result = check_ruleset("matgo-2p", 1, SEED)
    s = seeds(SEED, 1)[0]
    assert result.problems == [f"seed {s}: round did not end after 1000 actions"]
    assert result.actions == 1001 and result.outcomes == Counter({"unfinished": 1})


def test_a_deal_that_is_not_a_deal_of_the_ruleset_is_an_error_not_a_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """The self-check builds its rounds with the deal check on, so it checks the seeded deals too."""

    def card_twice(options: Options, rng: SplitMix64, dealer: int) -> Deal:
        deal = seeded_deal(options, rng, dealer=dealer)
        return replace(deal, table=(*deal.table, deal.hands[0][0]))

    monkeypatch.setattr(_check, "seeded_deal", card_twice)
    with pytest.raises(InputError, match="deal"):
        check_ruleset("matgo-2p", 1, SEED)
