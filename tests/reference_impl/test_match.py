"""Match (reference_impl/_match.py): a match of rounds (R-MATCH-ROUNDS), the next round's dealer
(R-NEXT-DEALER) and the void-round carry (R-NAGARI-CARRY) handed from each round to the next."""

from __future__ import annotations

from gostop_conformance.reference._match import Match, RandomPlayer, play_random_round
from gostop_conformance.spec import load_ruleset


def test_a_new_match_starts_fresh() -> None:
    """Before any round: no void-round streak, no carried multiplier, every total zero, no round
    counted toward match_rounds, no record; the first round is dealt by the drawn first dealer."""
    for rid in ("matgo-2p", "standard-3p", "family-4p"):
        m = Match(load_ruleset(rid), seed=7)
        n = m.o.players
        assert (m.nagari_streak, m.carried_multiplier, m.counted, m.records) == (0, 1, 0, [])
        assert m.totals == [0] * n
        assert not m.over
        rnd = m.new_round()
        assert (rnd.dealer, rnd.nagari_streak, rnd._state.carried_multiplier) == (m.dealer, 0, 1)


def test_each_round_hands_over_to_the_next() -> None:
    """R-NEXT-DEALER, R-NAGARI-CARRY, R-MATCH-ROUNDS: each record numbers the round from 1 with the
    dealer and streak it was played under; the totals are the sum of the rounds' nets; the next
    round is dealt by next_round's dealer with its streak and carried multiplier; only rounds whose
    next_round says so count. Seeds are walked until void rounds (which do not count under the
    default nagari_counts_as_round = false) and decided rounds have both been seen."""
    rs = load_ruleset("standard-3p")
    assert not rs.options.nagari_counts_as_round
    seen_void = seen_decided = seen_void_carry = False
    for seed in range(200):
        m = Match(rs, seed)
        player = RandomPlayer(seed)
        totals = [0] * rs.options.players
        counted = 0
        while not m.over:
            dealer, streak, carried = m.dealer, m.nagari_streak, m.carried_multiplier
            rnd = m.new_round()
            assert (rnd.dealer, rnd.nagari_streak, rnd._state.carried_multiplier) == (dealer, streak, carried)
            for _ in play_random_round(rnd, player):
                pass
            nxt = rnd.next_round()
            rec = m.record(rnd)
            assert rnd.settlement is not None
            assert (rec.number, rec.dealer, rec.settlement, rec.nagari_streak) == (len(m.records), dealer, rnd.settlement, streak)
            assert m.records[-1] is rec
            totals = [t + a for t, a in zip(totals, rnd.settlement.net, strict=True)]
            counted += 1 if nxt["counts_as_round"] else 0
            assert m.totals == totals
            assert m.counted == counted
            assert (m.dealer, m.nagari_streak, m.carried_multiplier) == (nxt["dealer"], nxt["nagari_streak"], nxt["carried_multiplier"])
            if rnd.settlement.kind == "nagari":
                seen_void = True
                assert not nxt["counts_as_round"]
            elif rnd.settlement.winner is not None:
                seen_decided = True
            seen_void_carry |= streak > 0
        if seen_void and seen_decided and seen_void_carry:
            break
    assert seen_void and seen_decided and seen_void_carry


def test_a_new_round_inherits_a_carried_multiplier_above_one() -> None:
    """R-NAGARI-CARRY (nagari_carry_prior_multipliers): a multiplier carried out of void rounds
    reaches the next round whatever its size. Random play under the named rulesets rarely carries
    more than 1, so the match is put in that state directly."""
    m = Match(load_ruleset("standard-3p"), seed=7)
    m.nagari_streak, m.carried_multiplier = 2, 4
    rnd = m.new_round()
    assert (rnd.nagari_streak, rnd._state.carried_multiplier) == (2, 4)
