"""Turn resolution: the flip, the hand card and the flipped card matched, ppeok and stacks, the
end of a turn (sweep, first-turn awards, steals, three ppeok, the Go/Stop offer) and the round
running out (R-FLIP, R-MATCH, R-PPEOK, R-STACK-CAPTURE, R-SWEEP, R-GO-WHEN, R-NAGARI, R-PC-END)."""

from __future__ import annotations

import gostop_conformance.reference._state as state
import gostop_conformance.reference._steals as steals
from gostop_conformance.reference._cards import FIRST_BONUS, MONTH, equivalent, ids_of
from gostop_conformance.reference._pointcount import settle_point_count
from gostop_conformance.reference._settlement import (
    fixed_points,
    settle_fixed,
    settle_stop,
    settle_void,
    void_multiplier,
)
from gostop_conformance.reference._state import CHOOSE_FLIP, CHOOSE_HAND, GO_STOP, TURN, RoundState, _Turn


def begin_turn_action(s: RoundState) -> None:
    s.forced_card = None
    if s.o.sweep_definition == "two_cards_cleared":  # only that definition looks back (R-SWEEP)
        s.table_at_start = [c for month in s.table for c in month]


def shake(s: RoundState, seat: int, month: int) -> None:
    p = s.seats[seat]
    shown = [c for c in p.hand if MONTH[c] == month]
    p.shaken_months.append(month)
    p.shake_factors.append(state.shake_factor(s.o, month, len(shown)))
    clauses = ("R-SHAKE", "R-FOUR-IN-HAND-LATER") if len(shown) == 4 else ("R-SHAKE",)
    state.emit(s, "shake", seat, shown, clauses, {"month": month})


def flip(s: RoundState, ctx: _Turn) -> None:
    """R-FLIP, R-BONUS-FLIP: turn up stock cards until an ordinary card comes."""
    while s.stock:
        c = s.stock.pop()
        if c >= FIRST_BONUS:
            ctx.flip_bonus = (*ctx.flip_bonus, c)
            state.emit(s, "bonus", ctx.actor, (c,), ("R-BONUS-FLIP", "R-BONUS-STEAL"), {"source": "flip"})
            if s.o.bonus_steal:
                s.pending_steals.append(("bonus", s.o.bonus_steal, state.others(s, ctx.actor)))
            continue
        ctx.flip = c
        state.emit(s, "flip", ctx.actor, (c,), ("R-FLIP",))
        break
    seats = s.seats  # R-BOMB-SKIP: a skip credit is a turn too
    me = seats[ctx.actor]
    ctx.actor_last = not (me.hand or me.skip_credits > 0)
    ctx.round_last = not s.stock or (ctx.actor_last and not any(p.hand or p.skip_credits > 0 for p in seats))


def resolve(s: RoundState, ctx: _Turn) -> None:
    """R-MATCH: resolve the hand card and the flipped card; may pause for a choice."""
    f = ctx.flip
    fm = MONTH[f] if f is not None else -1
    hand_month = ctx.month if ctx.mode in ("discard", "pair", "pair2") else -2
    if ctx.mode == "pair2" and ctx.hand_take is None and fm != hand_month:
        s.decision, s.ctx = CHOOSE_HAND, ctx
        return
    if f is not None and fm != hand_month:
        on = s.table[fm]
        if len(on) == 2 and fm not in s.stack_owner and ctx.flip_take is None:
            if equivalent(on[0], on[1]):
                ctx.flip_take = min(on)
            else:
                s.decision, s.ctx = CHOOSE_FLIP, ctx
                return
    actor = ctx.actor
    o = s.o
    flip_used = False
    if ctx.mode == "discard" and fm == hand_month:
        assert f is not None and ctx.hand is not None
        s.table[fm].remove(ctx.hand)
        ctx.captures.extend((ctx.hand, f))
        flip_used = True
        if o.scoring_system == "gostop":  # R-PC-PLAY: the point-count variant knows no jjok
            state.emit(s, "jjok", actor, (ctx.hand, f), ("R-MATCH", "R-JJOK"))
            steals.request(s, "jjok", o.jjok_steal, actor)
    elif ctx.mode == "pair":
        assert ctx.hand is not None
        if fm == hand_month:
            assert f is not None
            flip_used = True
            ppeok(s, ctx, f)
        else:
            s.table[ctx.month].remove(ctx.pair[0])
            ctx.captures.extend((ctx.hand, ctx.pair[0]))
    elif ctx.mode == "pair2":
        assert ctx.hand is not None
        if fm == hand_month:
            assert f is not None
            flip_used = True
            ctx.captures.extend((ctx.hand, *ctx.pair, f))
            s.table[ctx.month] = []
            if o.scoring_system == "gostop":  # R-PC-PLAY: "there is no ppeok or ttadak"
                ctx.made_ttadak = True
                state.emit(s, "ttadak", actor, (ctx.hand, *ctx.pair, f), ("R-MATCH", "R-TTADAK"))
                steals.request(s, "ttadak", o.ttadak_steal, actor)
        else:
            assert ctx.hand_take is not None
            s.table[ctx.month].remove(ctx.hand_take)
            ctx.captures.extend((ctx.hand, ctx.hand_take))
    if f is not None and not flip_used:
        on = s.table[fm]
        if fm in s.stack_owner:
            capture_stack(s, ctx, fm, extra=f)
        elif not on:
            on.append(f)
        elif len(on) == 1:
            ctx.captures.extend((on.pop(), f))
        else:
            assert ctx.flip_take is not None
            on.remove(ctx.flip_take)
            ctx.captures.extend((ctx.flip_take, f))
    finish(s, ctx)


def ppeok(s: RoundState, ctx: _Turn, f: int) -> None:
    """R-PPEOK, R-FINAL-PPEOK, R-BONUS-PPEOK, R-PC-PLAY."""
    o = s.o
    actor = ctx.actor
    month = ctx.month
    assert ctx.hand is not None
    pair = ctx.pair[0]
    if not o.ppeok_enabled:
        s.table[month] = [f]
        ctx.captures.extend((ctx.hand, pair))
        state.emit(s, "capture", actor, (ctx.hand, pair), ("R-MATCH", "R-PC-PLAY"), {"note": "flip of the paired month stays on the table"})
        return
    three = (pair, ctx.hand, f)
    if ctx.round_last and o.final_turn_ppeok != "leave_stack":
        if o.final_turn_ppeok == "capture_three":  # a ppeok all the same (R-THREE-PPEOK counts it)
            s.table[month] = []
            ctx.captures.extend(three)
            s.seats[actor].ppeoks += 1
            ctx.made_ppeok = True
            clauses_final: tuple[str, ...] = ("R-MATCH", "R-PPEOK", "R-FINAL-PPEOK") + (("R-BONUS-PPEOK",) if ctx.flip_bonus else ())
            state.emit(
                s,
                "ppeok",
                actor,
                three,
                clauses_final,
                {"month": month, "handling": o.final_turn_ppeok, "count": s.seats[actor].ppeoks},
            )
        else:  # capture_pair_leave_drawn: no ppeok is made
            s.table[month] = [f]
            ctx.captures.extend((ctx.hand, pair))
            ctx.trace = (*ctx.trace, "R-FINAL-PPEOK")
        return
    s.table[month] = sorted(three)
    s.stack_owner[month] = actor
    joined = list(ctx.flip_bonus)
    ctx.flip_bonus = ()
    if o.bonus_joins_ppeok == "all_bonus_this_turn":
        for b in s.turn_bonus:
            state.lose(s, actor, b)
            joined.append(b)
    s.stack_bonus[month] = sorted(joined)
    s.seats[actor].ppeoks += 1
    ctx.made_ppeok = True
    clauses: tuple[str, ...] = ("R-MATCH", "R-PPEOK", "R-BONUS-PPEOK") if joined else ("R-MATCH", "R-PPEOK")
    if ctx.round_last:
        clauses = (*clauses, "R-FINAL-PPEOK")
    state.emit(s, "ppeok", actor, three, clauses, {"month": month, "bonus": list(ids_of(joined)), "count": s.seats[actor].ppeoks})


def capture_stack(s: RoundState, ctx: _Turn, month: int, extra: int) -> None:
    """R-STACK-CAPTURE, R-TABLE-TRIPLE, R-PPEOK-CAPTURE: the fourth card takes the stack."""
    o = s.o
    actor = ctx.actor
    owner = s.stack_owner.pop(month)
    cards = sorted(s.table[month] + s.stack_bonus.pop(month, []) + [extra])
    s.table[month] = []
    ctx.captures.extend(cards)
    if owner is None:
        clauses: tuple[str, ...] = ("R-STACK-CAPTURE", "R-TABLE-TRIPLE")
        units, payers = o.table_triple_capture_steal, state.others(s, actor)
    elif owner == actor:
        clauses = ("R-STACK-CAPTURE", "R-PPEOK-CAPTURE")
        units, payers = o.own_ppeok_capture_steal, state.others(s, actor)
    else:
        clauses = ("R-STACK-CAPTURE", "R-PPEOK-CAPTURE")
        units = o.ppeok_capture_steal
        payers = (owner,) if o.ppeok_steal_payers == "creator_only" else state.others(s, actor)
    state.emit(s, "stack_capture", actor, cards, clauses, {"month": month, "owner": owner})
    steals.request(s, "stack_capture", units, actor, payers)


def finish(s: RoundState, ctx: _Turn) -> None:
    """End of a turn: captures, sweep, final-turn exemptions, steals, three ppeok, Go/Stop."""
    o = s.o
    actor = ctx.actor
    taken = [*ctx.captures, *ctx.flip_bonus] if ctx.flip_bonus else ctx.captures  # the captures are not changed below
    # R-FINAL-TURN: under each_player_last_hand_card "the round's last turn is final as well"
    final = ctx.round_last if o.final_turn_scope == "round_final_turn" else ctx.round_last or ctx.actor_last
    if taken:
        state.gain(s, actor, taken)
        point_count = o.scoring_system == "point_count"
        if final:
            ctx.trace = (*ctx.trace, "R-FINAL-TURN")
        clauses = ("R-MATCH", *(("R-PC-PLAY",) if point_count else ()), *ctx.trace)
        state.emit(s, "capture", actor, sorted(taken), clauses)
    check_sweep(s, ctx)
    me = s.seats[actor]
    first_turn = me.turns_taken == 0
    me.turns_taken += 1
    if first_turn:
        first_turn_awards(s, ctx)
    if ctx.made_ppeok and me.ppeoks == 3 and o.three_ppeok_win != "off":
        # the instant win comes before the turn's steals (R-THREE-PPEOK)
        s.pending_steals, s.turn_bonus = [], []
        s.last_actor = actor
        s.turn_no += 1
        state.emit(s, "three_ppeok", actor, (), ("R-THREE-PPEOK",))
        points = fixed_points(o, o.three_ppeok_win)
        state.end(s, settle_fixed("three_ppeok", actor, points, s.n, s.nagari_streak, o, ("R-THREE-PPEOK",), s.carried_multiplier))
        return
    if s.pending_steals:
        steals.perform_steals(s, actor, final)
    s.turn_bonus = []
    s.last_actor = actor
    s.turn_no += 1
    base = state.base(s, actor) if o.scoring_system == "gostop" else 0
    if o.scoring_system == "gostop" and state.go_eligible(s, actor, base):
        s.decision = GO_STOP
        s.to_act = actor
        forced = state.go_forced_stop(s, actor)
        clauses = ("R-GO-WHEN", "R-GO-THRESHOLD") + (("R-GO-RISE",) if me.gos else ()) + (("R-GO-LAST",) if forced else ())
        state.emit(s, "go_stop_offered", actor, (), clauses, {"base": base, "stop_only": forced})
        return
    advance(s, actor)


def first_turn_awards(s: RoundState, ctx: _Turn) -> None:
    """R-FIRST-TURN-AWARD: paid at once by each opponent, outside the score and every multiplier."""
    o = s.o
    award(s, ctx.actor, "first_ppeok", fixed_points(o, o.first_ppeok_award), ctx.made_ppeok)
    award(s, ctx.actor, "first_ttadak", fixed_points(o, o.first_ttadak_award), ctx.made_ttadak)


def award(s: RoundState, actor: int, reason: str, points: int, made: bool) -> None:
    if made and points > 0:
        for payer in state.others(s, actor):
            s.side_payments.append((payer, actor, points))
        state.emit(s, "award", actor, (), ("R-FIRST-TURN-AWARD",), {"reason": reason, "points": points})


def check_sweep(s: RoundState, ctx: _Turn) -> None:
    """R-SWEEP: checked on the table as it stands at the end of the turn."""
    o = s.o
    if o.sweep_steal <= 0 or not ctx.captures:
        return
    if o.sweep_definition == "table_empty_at_turn_end":
        swept = True
        for month in s.table:  # not any(...): a generic call through the builtins, compiled
            if month:
                swept = False
                break
    else:
        start = s.table_at_start
        swept = len(start) == 2 and MONTH[start[0]] != MONTH[start[1]] and all(c in ctx.captures for c in start)
    if swept:
        state.emit(s, "sweep", ctx.actor, (), ("R-SWEEP",), {"definition": o.sweep_definition})
        steals.request(s, "sweep", o.sweep_steal, ctx.actor)


def advance(s: RoundState, actor: int) -> None:
    """Next player with a hand card or a skip credit; otherwise the round ends (R-ROUND-END)."""
    if s.stock:
        for k in range(1, s.n + 1):
            seat = (actor + k) % s.n
            if state.has_turn(s, seat):
                s.to_act = seat
                s.decision = TURN
                return
    round_exhausted(s)


def round_exhausted(s: RoundState) -> None:
    """R-NAGARI, R-EXHAUST-AFTER-GO, R-PC-LEFTOVER, R-PC-END."""
    o = s.o
    if o.scoring_system == "point_count":
        left = [c for month in s.table for c in month] + [b for bs in s.stack_bonus.values() for b in bs]
        if left:
            s.table = [[] for _ in range(13)]
            s.stack_owner.clear()
            s.stack_bonus.clear()
            state.gain(s, s.last_actor, left)
            state.emit(s, "leftover", s.last_actor, sorted(left), ("R-PC-LEFTOVER",))
        state.end(s, settle_point_count([sorted(p.captured) for p in s.seats], o))
        return
    callers = [seat for seat, p in enumerate(s.seats) if p.gos > 0]
    if callers and o.deck_exhausted_after_go == "last_go_caller_wins":
        winner = max(callers, key=lambda seat: (s.seats[seat].last_go_turn or 0, seat))
        state.end(s, settle_stop("last_go_caller_wins", winner, state.frozen_seats(s), s.nagari_streak, o, s.carried_multiplier))
        return
    clauses = ("R-NAGARI", "R-EXHAUST-AFTER-GO") if callers else ("R-NAGARI",)
    state.end(s, settle_void("nagari", s.n, clauses, void_multiplier(state.frozen_seats(s), o)))
