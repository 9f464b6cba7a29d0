"""The reference engine's self-check: random rounds of every ruleset with every invariant checked
after every action, and each round replayed to prove it deterministic."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gostop_conformance.reference._deal import seeded_deal
from gostop_conformance.reference._invariants import violations
from gostop_conformance.reference._match import RandomPlayer
from gostop_conformance.reference._rng import SplitMix64
from gostop_conformance.reference._round import Round
from gostop_conformance.spec import load_ruleset


@dataclass
class CheckResult:
    ruleset: str
    rounds: int = 0
    actions: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _transcript(ruleset_id: str, seed: int, check: bool) -> tuple[list[str], list[str], int, str]:
    rs = load_ruleset(ruleset_id)
    rng = SplitMix64(seed)
    rnd = Round(rs, seeded_deal(rs.options, rng, dealer=rng.below(rs.options.players)), check=True)
    player = RandomPlayer(seed)
    lines = [repr(e) for e in rnd.deal_events]
    problems: list[str] = []
    actions = 0
    while not rnd.over:
        action = player.choose(rnd)
        lines.append(repr(action))
        lines.extend(repr(e) for e in rnd.apply(action))
        actions += 1
        if check:
            problems.extend(f"seed {seed}, action {actions}: {p}" for p in violations(rnd))
        if actions > 1000:
            problems.append(f"seed {seed}: round did not end after 1000 actions")
            break
    if check:
        problems.extend(f"seed {seed}, end: {p}" for p in violations(rnd))
    assert rnd.settlement is not None or problems
    lines.append(repr(rnd.settlement))
    return lines, problems, actions, rnd.settlement.kind if rnd.settlement else "unfinished"


def check_ruleset(ruleset_id: str, rounds: int, seed: int, progress: Callable[[int], None] | None = None) -> CheckResult:
    result = CheckResult(ruleset_id)
    start = time.perf_counter()
    for k in range(rounds):
        s = seed * 1_000_003 + k
        first, problems, actions, outcome = _transcript(ruleset_id, s, check=True)
        again, _, _, _ = _transcript(ruleset_id, s, check=False)
        if first != again:
            problems.append(f"seed {s}: replaying the round gave a different transcript")
        result.rounds += 1
        result.actions += actions
        result.outcomes[outcome] += 1
        result.problems.extend(problems)
        if progress:
            progress(k + 1)
    result.seconds = time.perf_counter() - start
    return result


def check_all(ruleset_ids: Sequence[str], rounds: int, seed: int) -> list[CheckResult]:
    return [check_ruleset(rid, rounds, seed) for rid in ruleset_ids]
