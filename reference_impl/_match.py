"""Multi-round matches (R-FIRST-DEALER, R-NEXT-DEALER, R-REDEAL, R-NAGARI-CARRY, R-MATCH-ROUNDS)
and the seeded random player used by the play command, the checks and the property tests."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from gostop_conformance.reference._deal import draw_first_dealer, seeded_deal
from gostop_conformance.reference._events import Action
from gostop_conformance.reference._rng import SplitMix64
from gostop_conformance.reference._round import Round
from gostop_conformance.reference._settlement import Settlement
from gostop_conformance.spec import Ruleset


@dataclass(frozen=True, slots=True)
class RoundRecord:
    number: int
    dealer: int
    settlement: Settlement
    nagari_streak: int


class Match:
    """A match: rounds until `match_rounds` decided rounds were played; zero-sum totals."""

    def __init__(self, ruleset: Ruleset, seed: int) -> None:
        self.ruleset = ruleset
        self.o = ruleset.options
        self.rng = SplitMix64(seed)
        self.dealer = draw_first_dealer(self.o, self.rng)
        self.nagari_streak = 0
        self.carried_multiplier = 1  # nagari_carry_prior_multipliers (R-NAGARI-CARRY)
        self.totals = [0] * self.o.players
        self.counted = 0
        self.records: list[RoundRecord] = []

    @property
    def over(self) -> bool:
        """R-MATCH-ROUNDS: enough decided rounds, or a total reached match_target_points."""
        target = self.o.match_target_points
        return self.counted >= self.o.match_rounds or (isinstance(target, int) and max(self.totals) >= target)

    def new_round(self) -> Round:
        deal = seeded_deal(self.o, self.rng, self.dealer)
        return Round(self.ruleset, replace(deal, nagari_streak=self.nagari_streak, carried_multiplier=self.carried_multiplier), check=False)

    def record(self, rnd: Round) -> RoundRecord:
        s = rnd.settlement
        assert s is not None
        rec = RoundRecord(number=len(self.records) + 1, dealer=self.dealer, settlement=s, nagari_streak=self.nagari_streak)
        self.records.append(rec)
        for seat, amount in enumerate(s.net):
            self.totals[seat] += amount
        nxt = rnd.next_round()
        self.dealer = nxt["dealer"]
        self.nagari_streak = nxt["nagari_streak"]
        self.carried_multiplier = nxt["carried_multiplier"]
        self.counted += 1 if nxt["counts_as_round"] else 0
        return rec

    def winners(self) -> list[int]:
        best = max(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]


class RandomPlayer:
    """Picks uniformly among the legal actions with its own SplitMix64 stream."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed ^ 0x5DEECE66D)

    def choose(self, rnd: Round) -> Action:
        actions = rnd.legal_actions()
        return actions[self.rng.below(len(actions))]


def play_random_round(rnd: Round, player: RandomPlayer) -> Iterator[tuple[Action, list[object]]]:
    while not rnd.over:
        action = player.choose(rnd)
        yield action, list(rnd.apply(action))
