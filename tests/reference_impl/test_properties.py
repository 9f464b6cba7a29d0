"""Property tests over thousands of random rounds of every ruleset (R-* invariants):

- after every action each card of the ruleset's deck is in exactly one place;
- a pending decision always has a legal action, and every listed action is accepted;
- settlements sum to zero;
- the same seed gives the same round, event for event;
- the score breakdown, and the running tally Go/Stop reads, recompute from the captured piles
  (an independent scorer below);
- an illegal action is rejected and changes nothing.
"""

from __future__ import annotations

import os
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gostop_conformance.reference import Action, Rejection, Round, SplitMix64, seeded_deal
from gostop_conformance.reference._deal import deck_indices
from gostop_conformance.reference._match import RandomPlayer
from gostop_conformance.reference._state import base
from gostop_conformance.spec import Options, deck, load_ruleset, ruleset_ids

ROUNDS = int(os.environ.get("GOSTOP_PROPERTY_ROUNDS", "1000"))
PROFILE = settings(max_examples=ROUNDS, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])


def independent_base(pile: list[str], o: Options, as_junk: set[str]) -> int:
    """A second, deliberately naive implementation of R-SCORE-* used as an oracle."""
    cards = [deck().card(c) for c in pile]
    brights = [c for c in cards if c.kind == "bright"]
    rain = any(c.id == "m12-bright" for c in brights)
    table = {3: o.bright_3_rain if rain else o.bright_3, 4: o.bright_4_wet if rain else o.bright_4_dry, 5: o.bright_5}
    score = table.get(len(brights), 0)
    animals = [c for c in cards if c.kind == "animal" and c.id not in as_junk]
    score += max(0, len(animals) - o.animal_threshold + 1)
    if {"m02-animal", "m04-animal", "m08-animal"} <= {c.id for c in animals}:
        score += o.godori_points
    ribbons = [c for c in cards if c.kind == "ribbon" and not (c.id == "m12-ribbon" and o.dec_ribbon in ("not_counted", "junk"))]
    score += max(0, len(ribbons) - o.ribbon_threshold + 1)
    held = set(pile)
    for trio in (("m01", "m02", "m03"), ("m06", "m09", "m10")):
        if all(f"{m}-ribbon" in held for m in trio):
            score += o.dan_points
    cho = [f"{m}-ribbon" for m in ("m04", "m05", "m07")]
    if all(c in held for c in cho) or (o.dec_ribbon == "in_cho_set" and sum(c in held for c in [*cho, "m12-ribbon"]) >= 3):
        score += o.dan_points
    if o.dec_ribbon == "four_red_bonus" and all(c in held for c in [*cho, "m12-ribbon"]):
        score += 1
    units = sum(c.units for c in cards if c.kind in ("junk", "double-junk", "bonus")) + 2 * len(as_junk & held)
    if o.dec_ribbon == "junk" and "m12-ribbon" in held:
        units += 1
    score += max(0, units - o.junk_threshold + 1)
    return score


def expected_base(rnd: Round, seat: int) -> int:
    o = rnd.o
    pile = rnd.snapshot()["captured"][seat]
    duals = [c for c in pile if c in o.dual_role_cards]
    if o.dual_role_mode == "fixed_animal":
        return independent_base(pile, o, set())
    if o.dual_role_mode == "fixed_double_junk":
        return independent_base(pile, o, set(duals))
    if o.dual_role_mode == "owner_one_way_to_junk":
        return independent_base(pile, o, set(rnd.snapshot()["players"][seat]["dual_junk"]))
    return max(independent_base(pile, o, set(combo)) for k in range(len(duals) + 1) for combo in combinations(duals, k))


def play_checked(rid: str, seed: int) -> list[str]:
    rs = load_ruleset(rid)
    o = rs.options
    rng = SplitMix64(seed)
    rnd = Round(rs, seeded_deal(o, rng, dealer=rng.below(o.players)))
    player = RandomPlayer(seed)
    wanted = Counter(deck().cards[i].id for i in deck_indices(o))
    transcript = [repr(rnd.deal_events)]
    illegal_probe = SplitMix64(seed + 17)
    while not rnd.over:
        legal = rnd.legal_actions()
        assert legal, f"no legal action at {rnd.decision}"
        # an illegal action is rejected and changes nothing
        before = rnd.snapshot()
        hand = set(before["hands"][rnd.to_act])
        outsider = [c for c in wanted if c not in hand]
        bad = Action("play", rnd.to_act, card=outsider[illegal_probe.below(len(outsider))])
        with pytest.raises(Rejection):
            rnd.apply(bad)
        with pytest.raises(Rejection):
            rnd.apply(Action(legal[0].type, (rnd.to_act + 1) % o.players, card=legal[0].card, take=legal[0].take, month=legal[0].month))
        assert rnd.snapshot() == before
        action = player.choose(rnd)
        transcript.append(repr(action))
        transcript.extend(repr(e) for e in rnd.apply(action))
        snap = rnd.snapshot()
        places: Counter[str] = Counter()
        for group in (
            *snap["hands"],
            snap["table"],
            snap["in_play"],
            snap["stock"],
            *snap["captured"],
            *(s["bonus"] for s in snap["stacks"]),
        ):
            places.update(group)
        assert places == wanted
        for seat in range(o.players):
            if o.scoring_system == "gostop":
                expected = expected_base(rnd, seat)
                assert rnd.score(seat).base == expected
                assert base(rnd._state, seat) == expected  # Go/Stop's view: the pile's tally, kept card by card
    assert rnd.settlement is not None
    assert sum(rnd.settlement.net) == 0
    transcript.append(repr(rnd.settlement))
    return transcript


@pytest.mark.slow
@pytest.mark.parametrize("rid", ruleset_ids())
def test_random_rounds_keep_every_invariant(rid: str) -> None:
    @PROFILE
    @given(st.integers(min_value=0, max_value=2**64 - 1))
    def run(seed: int) -> None:
        play_checked(rid, seed)

    run()


@pytest.mark.parametrize("rid", ruleset_ids())
def test_same_seed_same_round(rid: str) -> None:
    for seed in (0, 1, 2**63 + 5):
        assert play_checked(rid, seed) == play_checked(rid, seed)
