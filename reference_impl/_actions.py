"""Applying an action `_legal` has checked (R-TURN): a play, a bomb, a skip, a bonus card from
the hand, a chongtong, a dual card moved to junk, the table card taken at a choose_* decision, Go
and Stop. A turn's resolution after the hand action is `_turns`'."""

from __future__ import annotations

import gostop_conformance.reference._state as state
import gostop_conformance.reference._turns as turns
from gostop_conformance.reference._cards import MONTH, equivalent, ids_of
from gostop_conformance.reference._settlement import fixed_points, settle_fixed, settle_stop
from gostop_conformance.reference._state import CHOOSE_HAND, GO_STOP, TURN, RoundState, _Turn


def play(s: RoundState, c: int, take: int, shake: bool) -> None:
    """R-MATCH, R-FREE-PLAY, R-TWO-MATCH-CHOICE, R-STACK-CAPTURE (hand side): hand card `c`,
    naming table card `take` (-1: none named), checked by `_legal.check_play`."""
    o = s.o
    seat = s.to_act
    month = MONTH[c]
    on = s.table[month]
    turns.begin_turn_action(s)
    if shake:
        turns.shake(s, seat, month)
    s.seats[seat].hand.remove(c)
    state.emit(s, "play", seat, (c,), ("R-TURN", "R-MATCH", "R-PC-PLAY") if o.scoring_system == "point_count" else ("R-TURN", "R-MATCH"))
    if not on:
        ctx = _Turn(seat, "discard", month, c)
        on.append(c)
    elif month in s.stack_owner:
        ctx = _Turn(seat, "stack", month, c)
        turns.capture_stack(s, ctx, month, extra=c)
    elif len(on) == 1:
        ctx = _Turn(seat, "pair", month, c, (on[0],))
    else:
        ctx = _Turn(seat, "pair2", month, c, (on[0], on[1]) if on[0] < on[1] else (on[1], on[0]))
        if equivalent(on[0], on[1]):
            ctx.hand_take = min(on)  # R-TWO-MATCH-CHOICE: equivalent cards, the lower index, whatever was named
        elif take >= 0:
            ctx.hand_take = take
    turns.flip(s, ctx)
    turns.resolve(s, ctx)


def bomb(s: RoundState, month: int) -> None:
    """R-BOMB, R-BOMB-SKIP, R-BOMB-TWO (checked by `_legal.check_bomb`)."""
    o = s.o
    seat = s.to_act
    turns.begin_turn_action(s)
    played = [c for c in s.seats[seat].hand if MONTH[c] == month]
    two = len(played) == 2
    for c in played:
        s.seats[seat].hand.remove(c)
    ctx = _Turn(seat, "bomb", month)
    ctx.captures.extend(sorted(played + s.table[month]))
    s.table[month] = []
    clauses = ("R-BOMB-TWO",) if two else ("R-BOMB",)
    steal = 0 if two and o.two_card_bomb == "capture_only" else o.bomb_steal
    multiplier = not two or o.two_card_bomb == "full_bomb"
    s.seats[seat].bombs.append((month, multiplier))
    if steal:
        s.pending_steals.append(("bomb", steal, state.others(s, seat)))
    credits = 0
    if o.bomb_compensation == "skip_credits_2" and (not two or o.two_card_bomb == "full_bomb"):
        credits = len(played) - 1
        s.seats[seat].skip_credits += credits
    state.emit(s, "bomb", seat, played, (*clauses, "R-BOMB-SKIP"), {"month": month, "skip_credits": credits})
    turns.flip(s, ctx)
    turns.resolve(s, ctx)


def skip(s: RoundState) -> None:
    """R-BOMB-SKIP: a flip-only turn (checked by `_legal.check_skip`)."""
    seat = s.to_act
    turns.begin_turn_action(s)
    p = s.seats[seat]
    p.skip_credits -= 1
    state.emit(s, "skip", seat, (), ("R-BOMB-SKIP",), {"skip_credits": p.skip_credits})
    ctx = _Turn(seat, "skip")
    turns.flip(s, ctx)
    turns.resolve(s, ctx)


def bonus(s: RoundState, c: int) -> None:
    """R-BONUS-HAND: captured at once and replaced by the top stock card; the turn goes on."""
    seat = s.to_act
    s.seats[seat].hand.remove(c)
    state.gain(s, seat, [c])
    s.turn_bonus.append(c)
    replacement: tuple[int, ...] = ()
    s.forced_card = None
    if s.stock:
        r = s.stock.pop()
        hand = s.seats[seat].hand
        hand.append(r)
        hand.sort()
        replacement = (r,)
        if s.o.bonus_replacement_use == "must_play_replacement":
            s.forced_card = r
    if s.o.bonus_steal:
        s.pending_steals.append(("bonus", s.o.bonus_steal, state.others(s, seat)))
    state.emit(s, "bonus", seat, (c,), ("R-BONUS-HAND", "R-BONUS-STEAL"), {"source": "hand", "replacement": list(ids_of(replacement))})


def chongtong(s: RoundState, month: int) -> None:
    """R-CHONGTONG (instant_win_or_continue): the holder shows the four and wins at once."""
    seat = s.to_act
    o = s.o
    state.emit(s, "chongtong", seat, [c for c in s.seats[seat].hand if MONTH[c] == month], ("R-CHONGTONG",), {"month": month})
    points = fixed_points(o, o.chongtong_points)
    state.end(s, settle_fixed("chongtong", seat, points, s.n, s.nagari_streak, o, ("R-CHONGTONG",), s.carried_multiplier))


def dual_to_junk(s: RoundState, c: int) -> None:
    """R-DUAL-ROLE (owner_one_way_to_junk): irrevocable."""
    seat = s.to_act
    s.seats[seat].dual_junk.add(c)
    state.emit(s, "dual_to_junk", seat, (c,), ("R-DUAL-ROLE",))
    if s.decision == GO_STOP and not state.go_eligible(s, seat, state.base(s, seat)):
        turns.advance(s, seat)  # the Go/Stop decision lapses (R-GO-WHEN)


def take(s: RoundState, c: int) -> None:
    """R-TWO-MATCH-CHOICE: answer a choose_hand_match / choose_flip_match decision."""
    ctx = s.ctx
    assert ctx is not None
    if s.decision == CHOOSE_HAND:
        ctx.hand_take = c
    else:
        ctx.flip_take = c
    s.ctx = None
    s.decision = TURN
    turns.resolve(s, ctx)


def go(s: RoundState) -> None:
    """R-GO-WHEN, R-GO-RISE, R-GO-LAST (checked by `_legal.check_go`)."""
    seat = s.to_act
    p = s.seats[seat]
    p.gos += 1
    p.go_base = state.base(s, seat)
    if p.first_go_turn is None:
        p.first_go_turn = s.turn_no
    p.last_go_turn = s.turn_no
    state.emit(s, "go", seat, (), ("R-GO-WHEN", "R-GO-BONUS"), {"gos": p.gos, "base": p.go_base})
    turns.advance(s, seat)


def stop(s: RoundState) -> None:
    """R-GO-WHEN: Stop ends the round; the caller wins (R-SETTLE)."""
    seat = s.to_act
    state.emit(s, "stop", seat, (), ("R-GO-WHEN",), {"base": state.base(s, seat)})
    state.end(s, settle_stop("stop", seat, state.frozen_seats(s), s.nagari_streak, s.o, s.carried_multiplier))
