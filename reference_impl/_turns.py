"""Turn resolution: the flip, the hand card and the flipped card matched, ppeok and stacks, the
end of a turn (sweep, first-turn awards, steals, three ppeok, the Go/Stop offer) and the round
running out (R-FLIP, R-MATCH, R-PPEOK, R-STACK-CAPTURE, R-SWEEP, R-GO-WHEN, R-NAGARI, R-PC-END)."""

from __future__ import annotations

from gostop_conformance.reference._settlement import (
    fixed_points,
    settle_fixed,
    settle_point_count,
    settle_stop,
    settle_void,
    void_multiplier,
)
from gostop_conformance.reference._state import (
    _MATCH,
    CHOOSE_FLIP,
    CHOOSE_HAND,
    FIRST_BONUS,
    FLIP_EVENTS,
    GO_STOP,
    MONTH,
    TURN,
    _ids,
    _Turn,
    equivalent,
    pair_capture,
)
from gostop_conformance.reference._steals import Steals


class Turns(Steals):
    """A turn from the card played to the next player."""

    def _begin_turn_action(self) -> None:
        self.forced_card = None
        if self.o.sweep_definition == "two_cards_cleared":  # only that definition looks back (R-SWEEP)
            self.table_at_start = [c for month in self.table for c in month]

    def _do_shake(self, seat: int, month: int) -> None:
        p = self.seats[seat]
        shown = [c for c in p.hand if MONTH[c] == month]
        p.shaken_months.append(month)
        p.shake_factors.append(self._shake_factor(month, len(shown)))
        clauses = ("R-SHAKE", "R-FOUR-IN-HAND-LATER") if len(shown) == 4 else ("R-SHAKE",)
        self._emit("shake", seat, shown, clauses, {"month": month})

    def _flip(self, ctx: _Turn) -> None:
        """R-FLIP, R-BONUS-FLIP: turn up stock cards until an ordinary card comes."""
        while self.stock:
            c = self.stock.pop()
            if c >= FIRST_BONUS:
                ctx.flip_bonus = (*ctx.flip_bonus, c)
                self._emit("bonus", ctx.actor, (c,), ("R-BONUS-FLIP", "R-BONUS-STEAL"), {"source": "flip"})
                if self.o.bonus_steal:
                    self.pending_steals.append(("bonus", self.o.bonus_steal, self._others(ctx.actor)))
                continue
            ctx.flip = c
            self._out.append(FLIP_EVENTS[ctx.actor][c])  # ("flip", actor, (c,), ("R-FLIP",)), built once
            break
        seats = self.seats  # R-BOMB-SKIP: a skip credit is a turn too
        me = seats[ctx.actor]
        ctx.actor_last = not (me.hand or me.skip_credits > 0)
        ctx.round_last = not self.stock or (ctx.actor_last and not any(p.hand or p.skip_credits > 0 for p in seats))

    def _resolve(self, ctx: _Turn) -> None:
        """R-MATCH: resolve the hand card and the flipped card; may pause for a choice."""
        f = ctx.flip
        fm = MONTH[f] if f is not None else -1
        hand_month = ctx.month if ctx.mode in ("discard", "pair", "pair2") else -2
        if ctx.mode == "pair2" and ctx.hand_take is None and fm != hand_month:
            self.decision, self.ctx = CHOOSE_HAND, ctx
            return
        if f is not None and fm != hand_month:
            on = self.table[fm]
            if len(on) == 2 and fm not in self.stack_owner and ctx.flip_take is None:
                if equivalent(on[0], on[1]):
                    ctx.flip_take = min(on)
                else:
                    self.decision, self.ctx = CHOOSE_FLIP, ctx
                    return
        actor = ctx.actor
        o = self.o
        flip_used = False
        if ctx.mode == "discard" and fm == hand_month:
            assert f is not None and ctx.hand is not None
            self.table[fm].remove(ctx.hand)
            ctx.captures.extend((ctx.hand, f))
            flip_used = True
            if o.scoring_system == "gostop":  # R-PC-PLAY: the point-count variant knows no jjok
                self._emit("jjok", actor, (ctx.hand, f), ("R-MATCH", "R-JJOK"))
                self._request("jjok", o.jjok_steal, actor)
        elif ctx.mode == "pair":
            assert ctx.hand is not None
            if fm == hand_month:
                assert f is not None
                flip_used = True
                self._ppeok(ctx, f)
            else:
                self.table[ctx.month].remove(ctx.pair[0])
                ctx.captures.extend((ctx.hand, ctx.pair[0]))
        elif ctx.mode == "pair2":
            assert ctx.hand is not None
            if fm == hand_month:
                assert f is not None
                flip_used = True
                ctx.captures.extend((ctx.hand, *ctx.pair, f))
                self.table[ctx.month] = []
                if o.scoring_system == "gostop":  # R-PC-PLAY: "there is no ppeok or ttadak"
                    ctx.made_ttadak = True
                    self._emit("ttadak", actor, (ctx.hand, *ctx.pair, f), ("R-MATCH", "R-TTADAK"))
                    self._request("ttadak", o.ttadak_steal, actor)
            else:
                assert ctx.hand_take is not None
                self.table[ctx.month].remove(ctx.hand_take)
                ctx.captures.extend((ctx.hand, ctx.hand_take))
        if f is not None and not flip_used:
            on = self.table[fm]
            if fm in self.stack_owner:
                self._capture_stack(ctx, fm, extra=f)
            elif not on:
                on.append(f)
            elif len(on) == 1:
                ctx.captures.extend((on.pop(), f))
            else:
                assert ctx.flip_take is not None
                on.remove(ctx.flip_take)
                ctx.captures.extend((ctx.flip_take, f))
        self._finish(ctx)

    def _ppeok(self, ctx: _Turn, f: int) -> None:
        """R-PPEOK, R-FINAL-PPEOK, R-BONUS-PPEOK, R-PC-PLAY."""
        o = self.o
        actor = ctx.actor
        month = ctx.month
        assert ctx.hand is not None
        pair = ctx.pair[0]
        if not o.ppeok_enabled:
            self.table[month] = [f]
            ctx.captures.extend((ctx.hand, pair))
            self._emit(
                "capture", actor, (ctx.hand, pair), ("R-MATCH", "R-PC-PLAY"), {"note": "flip of the paired month stays on the table"}
            )
            return
        three = (pair, ctx.hand, f)
        if ctx.round_last and o.final_turn_ppeok != "leave_stack":
            if o.final_turn_ppeok == "capture_three":  # a ppeok all the same (R-THREE-PPEOK counts it)
                self.table[month] = []
                ctx.captures.extend(three)
                self.seats[actor].ppeoks += 1
                ctx.made_ppeok = True
                clauses_final: tuple[str, ...] = ("R-MATCH", "R-PPEOK", "R-FINAL-PPEOK") + (("R-BONUS-PPEOK",) if ctx.flip_bonus else ())
                self._emit(
                    "ppeok",
                    actor,
                    three,
                    clauses_final,
                    {"month": month, "handling": o.final_turn_ppeok, "count": self.seats[actor].ppeoks},
                )
            else:  # capture_pair_leave_drawn: no ppeok is made
                self.table[month] = [f]
                ctx.captures.extend((ctx.hand, pair))
                ctx.trace = (*ctx.trace, "R-FINAL-PPEOK")
            return
        self.table[month] = sorted(three)
        self.stack_owner[month] = actor
        joined = list(ctx.flip_bonus)
        ctx.flip_bonus = ()
        if o.bonus_joins_ppeok == "all_bonus_this_turn":
            for b in self.turn_bonus:
                self._lose(actor, b)
                joined.append(b)
        self.stack_bonus[month] = sorted(joined)
        self.seats[actor].ppeoks += 1
        ctx.made_ppeok = True
        clauses: tuple[str, ...] = ("R-MATCH", "R-PPEOK", "R-BONUS-PPEOK") if joined else ("R-MATCH", "R-PPEOK")
        if ctx.round_last:
            clauses = (*clauses, "R-FINAL-PPEOK")
        self._emit("ppeok", actor, three, clauses, {"month": month, "bonus": list(_ids(joined)), "count": self.seats[actor].ppeoks})

    def _capture_stack(self, ctx: _Turn, month: int, extra: int) -> None:
        """R-STACK-CAPTURE, R-TABLE-TRIPLE, R-PPEOK-CAPTURE: the fourth card takes the stack."""
        o = self.o
        actor = ctx.actor
        owner = self.stack_owner.pop(month)
        cards = sorted(self.table[month] + self.stack_bonus.pop(month, []) + [extra])
        self.table[month] = []
        ctx.captures.extend(cards)
        if owner is None:
            clauses: tuple[str, ...] = ("R-STACK-CAPTURE", "R-TABLE-TRIPLE")
            units, payers = o.table_triple_capture_steal, self._others(actor)
        elif owner == actor:
            clauses = ("R-STACK-CAPTURE", "R-PPEOK-CAPTURE")
            units, payers = o.own_ppeok_capture_steal, self._others(actor)
        else:
            clauses = ("R-STACK-CAPTURE", "R-PPEOK-CAPTURE")
            units = o.ppeok_capture_steal
            payers = (owner,) if o.ppeok_steal_payers == "creator_only" else self._others(actor)
        self._emit("stack_capture", actor, cards, clauses, {"month": month, "owner": owner})
        self._request("stack_capture", units, actor, payers)

    def _finish(self, ctx: _Turn) -> None:
        """End of a turn: captures, sweep, final-turn exemptions, steals, three ppeok, Go/Stop."""
        o = self.o
        actor = ctx.actor
        taken = [*ctx.captures, *ctx.flip_bonus] if ctx.flip_bonus else ctx.captures  # the captures are not changed below
        # R-FINAL-TURN: under each_player_last_hand_card "the round's last turn is final as well"
        final = ctx.round_last if o.final_turn_scope == "round_final_turn" else ctx.round_last or ctx.actor_last
        if taken:
            self._gain(actor, taken)
            point_count = o.scoring_system == "point_count"
            if final:
                ctx.trace = (*ctx.trace, "R-FINAL-TURN")
            plain = not (point_count or ctx.trace)
            clauses = _MATCH if plain else ("R-MATCH", *(("R-PC-PLAY",) if point_count else ()), *ctx.trace)
            if len(taken) == 2:  # the commonest capture, a pair: ordered without sorted(), which costs ~1,900 instructions compiled
                a, b = taken[0], taken[1]
                if b < a:
                    a, b = b, a
                if plain:
                    self._out.append(pair_capture(actor, a, b))
                else:
                    self._emit("capture", actor, (a, b), clauses)
            else:
                self._emit("capture", actor, sorted(taken), clauses)
        self._check_sweep(ctx)
        me = self.seats[actor]
        first_turn = me.turns_taken == 0
        me.turns_taken += 1
        if first_turn:
            self._first_turn_awards(ctx)
        if ctx.made_ppeok and me.ppeoks == 3 and o.three_ppeok_win != "off":
            # the instant win comes before the turn's steals (R-THREE-PPEOK)
            self.pending_steals, self.turn_bonus = [], []
            self.last_actor = actor
            self.turn_no += 1
            self._emit("three_ppeok", actor, (), ("R-THREE-PPEOK",))
            points = fixed_points(o, o.three_ppeok_win)
            self._end(
                settle_fixed("three_ppeok", actor, points, self.n, self.nagari_streak, o, ("R-THREE-PPEOK",), self.carried_multiplier)
            )
            return
        if self.pending_steals:
            self._perform_steals(actor, final)
        self.turn_bonus = []
        self.last_actor = actor
        self.turn_no += 1
        base = self._base(actor) if o.scoring_system == "gostop" else 0
        if o.scoring_system == "gostop" and self._go_eligible(actor, base):
            self.decision = GO_STOP
            self.to_act = actor
            forced = self._go_forced_stop(actor)
            clauses = ("R-GO-WHEN", "R-GO-THRESHOLD") + (("R-GO-RISE",) if me.gos else ()) + (("R-GO-LAST",) if forced else ())
            self._emit("go_stop_offered", actor, (), clauses, {"base": base, "stop_only": forced})
            return
        self._advance(actor)

    def _first_turn_awards(self, ctx: _Turn) -> None:
        """R-FIRST-TURN-AWARD: paid at once by each opponent, outside the score and every multiplier."""
        o = self.o
        self._award(ctx.actor, "first_ppeok", fixed_points(o, o.first_ppeok_award), ctx.made_ppeok)
        self._award(ctx.actor, "first_ttadak", fixed_points(o, o.first_ttadak_award), ctx.made_ttadak)

    def _award(self, actor: int, reason: str, points: int, made: bool) -> None:
        if made and points > 0:
            for payer in self._others(actor):
                self.side_payments.append((payer, actor, points))
            self._emit("award", actor, (), ("R-FIRST-TURN-AWARD",), {"reason": reason, "points": points})

    def _check_sweep(self, ctx: _Turn) -> None:
        """R-SWEEP: checked on the table as it stands at the end of the turn."""
        o = self.o
        if o.sweep_steal <= 0 or not ctx.captures:
            return
        if o.sweep_definition == "table_empty_at_turn_end":
            swept = True
            for month in self.table:  # not any(...): a generic call through the builtins, compiled
                if month:
                    swept = False
                    break
        else:
            start = self.table_at_start
            swept = len(start) == 2 and MONTH[start[0]] != MONTH[start[1]] and all(c in ctx.captures for c in start)
        if swept:
            self._emit("sweep", ctx.actor, (), ("R-SWEEP",), {"definition": o.sweep_definition})
            self._request("sweep", o.sweep_steal, ctx.actor)

    def _advance(self, actor: int) -> None:
        """Next player with a hand card or a skip credit; otherwise the round ends (R-ROUND-END)."""
        if self.stock:
            for k in range(1, self.n + 1):
                seat = (actor + k) % self.n
                if self._has_turn(seat):
                    self.to_act = seat
                    self.decision = TURN
                    return
        self._round_exhausted()

    def _round_exhausted(self) -> None:
        """R-NAGARI, R-EXHAUST-AFTER-GO, R-PC-LEFTOVER, R-PC-END."""
        o = self.o
        if o.scoring_system == "point_count":
            left = [c for month in self.table for c in month] + [b for bs in self.stack_bonus.values() for b in bs]
            if left:
                self.table = [[] for _ in range(13)]
                self.stack_owner.clear()
                self.stack_bonus.clear()
                self._gain(self.last_actor, left)
                self._emit("leftover", self.last_actor, sorted(left), ("R-PC-LEFTOVER",))
            self._end(settle_point_count([sorted(p.captured) for p in self.seats], o))
            return
        callers = [s for s, p in enumerate(self.seats) if p.gos > 0]
        if callers and o.deck_exhausted_after_go == "last_go_caller_wins":
            winner = max(callers, key=lambda s: (self.seats[s].last_go_turn or 0, s))
            self._end(settle_stop("last_go_caller_wins", winner, self._seats(), self.nagari_streak, o, self.carried_multiplier))
            return
        clauses = ("R-NAGARI", "R-EXHAUST-AFTER-GO") if callers else ("R-NAGARI",)
        self._end(settle_void("nagari", self.n, clauses, void_multiplier(self._seats(), o)))
