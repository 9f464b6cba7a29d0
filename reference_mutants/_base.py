"""Semantic mutants of the reference engine: each one breaks one rule the way a real engine might,
so that `gostop-conformance mutants` can measure how many of them the scenario corpus catches.
This module holds the first set and the builders every set reuses (`_options`, `_wrap_request`,
`_flip_rewrite`, `_bak_added`, `_next_round_rewrite`, ...); `_set` gathers the sets and
applies one.

A mutant is applied in process (a context manager patches the engine) or for a whole stdio
server (`gostop-reference --stdio --mutant NAME`). The engine's own code carries no mutant flags.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import gostop_conformance.reference._cards as cards_mod
import gostop_conformance.reference._deal as deal_mod
import gostop_conformance.reference._dealtime as dealtime_mod
import gostop_conformance.reference._legal as legal_mod
import gostop_conformance.reference._match as match_mod
import gostop_conformance.reference._pointcount as pointcount_mod
import gostop_conformance.reference._rng as rng_mod
import gostop_conformance.reference._round as round_mod
import gostop_conformance.reference._scoring as scoring_mod
import gostop_conformance.reference._settlement as settlement_mod
import gostop_conformance.reference._state as state_mod
import gostop_conformance.reference._steals as steals_mod
import gostop_conformance.reference._turns as turns_mod
from gostop_conformance.reference._events import Action
from gostop_conformance.spec import Bak, Options, Ruleset, deck

Patch = tuple[Any, str, Any]

_CARDS = cards_mod.CARDS


@dataclass(frozen=True, slots=True)
class Mutant:
    name: str
    area: str
    clause: str
    description: str
    patches: Callable[[], list[Patch]]


def _options(change: Callable[[Options], dict[str, Any]]) -> Callable[[], list[Patch]]:
    """A mutant that plays with other option values than the ruleset says (an engine that
    hard-codes or ignores an option)."""

    def patches() -> list[Patch]:
        original = round_mod.Round.__init__

        def init(self: round_mod.Round, ruleset: Ruleset, deal: Any, *, check: bool = True) -> None:
            changes = {k: v for k, v in change(ruleset.options).items() if getattr(ruleset.options, k) != v}
            if changes:
                ruleset = dataclasses.replace(ruleset, options=dataclasses.replace(ruleset.options, **changes))
            original(self, ruleset, deal, check=check)

        return [(round_mod.Round, "__init__", init)]

    return patches


def _wrap_request(rewrite: Callable[[state_mod.RoundState, str, int, int, tuple[int, ...] | None], tuple[int, ...] | None]) -> list[Patch]:
    """Patch Round._request: `rewrite` returns the payers to use, or None to drop the request."""
    original = steals_mod.request

    def request(self: state_mod.RoundState, k: str, units: int, actor: int, payers: tuple[int, ...] | None = None) -> None:
        new = rewrite(self, k, units, actor, payers)
        if new is not None:
            original(self, k, units, actor, new)

    return [(steals_mod, "request", request)]


def _drop_steal(kind: str) -> Callable[[], list[Patch]]:
    return lambda: _wrap_request(
        lambda rnd, k, units, actor, payers: None if k == kind else (payers or tuple(state_mod.others(rnd, actor)))
    )


def _next_player_pays_only() -> list[Patch]:
    return _wrap_request(lambda rnd, k, units, actor, payers: ((actor + 1) % rnd.n,))


def _linear_go() -> list[Patch]:
    def go_multiplier(gos: int, o: Options) -> int:
        return 1 if gos <= 2 else gos - 1

    return [(settlement_mod, "go_multiplier", go_multiplier)]


def _capped_go_points() -> list[Patch]:
    def go_points(gos: int, o: Options) -> int:
        return min(gos, 2)

    return [(settlement_mod, "go_points", go_points)]


def _no_carry() -> list[Patch]:
    def carry_factor(streak: int, o: Options) -> int:
        return 1

    return [(settlement_mod, "carry_factor", carry_factor)]


def _no_shake_factor() -> list[Patch]:
    original = settlement_mod._own_shake_bomb_factor

    def own(s: settlement_mod.Seat, o: Options) -> int:
        return original(s._replace(shaken_months=(), shake_factors=()), o)

    return [(settlement_mod, "_own_shake_bomb_factor", own)]


def _other_packet_order() -> list[Patch]:
    original = deal_mod.seeded_deal

    def seeded_deal(options: Options, rng: Any, dealer: int) -> Any:
        if options.deal_packet_order != "family":
            return original(dataclasses.replace(options, deal_packet_order="family"), rng, dealer)
        return original(dataclasses.replace(options, deal_packet_order="wp"), rng, dealer)

    return [(deal_mod, "seeded_deal", seeded_deal)]


def _swallow_godori() -> list[Patch]:
    geese, swallow = deck().card("m08-animal").index, deck().card("m12-animal").index
    return [(scoring_mod, "_GODORI", scoring_mod._GODORI & ~(1 << geese) | (1 << swallow))]


def _meongtta_at_six() -> list[Patch]:
    return [(settlement_mod, "MEONGTTA_ANIMALS", 6)]


def _highest_junk_first() -> list[Patch]:
    def choose(eligible: list[int], unit_of: dict[int, int], request: int, selection: str) -> list[int]:
        out: list[int] = []
        got = 0
        for c in sorted(eligible, key=lambda c: (-unit_of[c], c)):
            if got >= request:
                break
            out.append(c)
            got += unit_of[c]
        return sorted(out)

    return [(steals_mod, "choose_surrender", choose)]


def _no_pc_sets() -> list[Patch]:
    def pc_sets(pile: Any, o: Options) -> list[tuple[str, int]]:
        return []

    return [(pointcount_mod, "pc_sets", pc_sets)]


def _go_without_rise() -> list[Patch]:
    def eligible(self: state_mod.RoundState, seat: int, base: int) -> bool:
        return base >= self.o.go_threshold

    return [(state_mod, "go_eligible", eligible)]


def _ttadak_from_two_pairs() -> list[Patch]:
    """Counts a hand pair plus a different flip pair as a ttadak (a classic engine bug)."""
    original = turns_mod.finish

    def finish(self: state_mod.RoundState, ctx: Any) -> None:
        pairs = len(ctx.captures) == 4 and ctx.mode == "pair" and ctx.flip is not None and not ctx.made_ttadak
        if pairs and cards_mod.MONTH[ctx.flip] != ctx.month:
            steals_mod.request(self, "ttadak", self.o.ttadak_steal, ctx.actor)
        original(self, ctx)

    return [(turns_mod, "finish", finish)]


def _counted_as_ppeok(made: Callable[[Any], bool]) -> Callable[[], list[Patch]]:
    """One counter for several events that bring cards of a month together (a real Python Matgo
    engine counted its ttadaks with its ppeoks): a turn for which `made(turn)` holds counts toward
    three ppeoks, and can be the third."""

    def patches() -> list[Patch]:
        original = turns_mod.finish

        def finish(self: state_mod.RoundState, ctx: Any) -> None:
            if made(ctx):
                self.seats[ctx.actor].ppeoks += 1
                # the engine's instant-win check runs on its counter after any of those events
                ctx.made_ppeok = ctx.made_ppeok or self.seats[ctx.actor].ppeoks == 3
            original(self, ctx)

        return [(turns_mod, "finish", finish)]

    return patches


def _made_jjok(ctx: Any) -> bool:
    return bool(ctx.mode == "discard" and ctx.flip is not None and cards_mod.MONTH[ctx.flip] == ctx.month)


def _shake_automatic() -> list[Patch]:
    """Playing a card of a held triple onto a table without its month always shakes that month (a
    real TypeScript engine did this): the player's choice not to shake is lost. Round.apply is
    patched because the handlers themselves are dispatched from a table built at import."""
    original = round_mod.Round.apply

    def apply(self: round_mod.Round, a: Any) -> Any:
        s = self._state
        seat = s.to_act
        c = cards_mod.INDEX_OF.get(a.card or "")
        if a.type == "play" and s.decision == state_mod.TURN and not a.shake and c is not None and c in s.seats[seat].hand:
            month = cards_mod.MONTH[c]
            # only a legal play shakes: a refused one must leave the round unchanged
            if month and not s.table[month] and month in legal_mod.shake_months(s, seat) and a in legal_mod.legal_actions(s):
                if s.o.shake_declaration == "with_triple_card_play":
                    a = a._replace(shake=True)
                else:
                    turns_mod.shake(s, seat, month)
        return original(self, a)

    return [(round_mod.Round, "apply", apply)]


def _bomb_automatic() -> list[Patch]:
    """Playing one of three held cards onto the fourth card on the table always bombs: the same
    lost choice as shake-automatic, for the other declaration."""
    original = round_mod.Round.apply

    def apply(self: round_mod.Round, a: Any) -> Any:
        s = self._state
        seat = s.to_act
        c = cards_mod.INDEX_OF.get(a.card or "")
        if a.type == "play" and s.decision == state_mod.TURN and c is not None and c in s.seats[seat].hand:
            month = cards_mod.MONTH[c]
            held = state_mod.month_counts(s, seat)[month]
            # only a legal play bombs: a refused one must leave the round unchanged
            if month and held == 3 and month in legal_mod.bomb_months(s, seat) and a in legal_mod.legal_actions(s):
                a = Action(type="bomb", player=seat, month=month)
        return original(self, a)

    return [(round_mod.Round, "apply", apply)]


def _steal_debt() -> list[Patch]:
    """A giver who could not surrender every unit asked owes the rest, paid on the next steal."""
    original = steals_mod.surrender
    debts: weakref.WeakKeyDictionary[state_mod.RoundState, dict[tuple[int, int], int]] = weakref.WeakKeyDictionary()

    def surrender(self: state_mod.RoundState, giver: int, taker: int, units: int, why: tuple[str, ...] = ()) -> None:
        owed_by = debts.setdefault(self, {})
        owed = units + owed_by.pop((giver, taker), 0)
        before = list(self.seats[giver].captured)
        original(self, giver, taker, owed, why)
        given = [c for c in before if c not in self.seats[giver].captured]
        got = sum(_CARDS[c].units if _CARDS[c].is_junk else 2 for c in given)
        if got < owed:
            owed_by[(giver, taker)] = owed - got

    return [(steals_mod, "surrender", surrender)]


def _bonus_never_surrendered() -> list[Patch]:
    """Captured bonus cards are kept out of every steal, as if they were no junk."""
    original = steals_mod.choose_surrender

    def choose(eligible: list[int], unit_of: dict[int, int], request: int, selection: str) -> list[int]:
        return original([c for c in eligible if not cards_mod.IS_BONUS[c]], unit_of, request, selection)

    return [(steals_mod, "choose_surrender", choose)]


def _ppeok_uncounted_when_captured() -> list[Patch]:
    """The ppeok count is the stacks a player still owns: a captured ppeok no longer counts."""
    original = turns_mod.capture_stack

    def capture(self: state_mod.RoundState, ctx: Any, month: int, extra: int) -> None:
        owner = self.stack_owner.get(month)
        original(self, ctx, month, extra)
        if owner is not None:
            self.seats[owner].ppeoks -= 1

    return [(turns_mod, "capture_stack", capture)]


_INSTANT_WINS: Final = ("chongtong", "three_ppeok", "dealer_wins_fixed")


def _instant_win_repaid(pay: Callable[[state_mod.RoundState, Any, int, int], int]) -> list[Patch]:
    """Patch Round._end: `pay(round, settlement, payer, amount)` is what each opponent pays
    instead of `amount` for an instant win (an engine that runs every win through the factors
    of a Stop)."""
    original = state_mod.end

    def end(self: state_mod.RoundState, s: Any) -> None:
        if s.kind in _INSTANT_WINS and s.winner is not None:
            payments = tuple((payer, to, pay(self, s, payer, amount)) for payer, to, amount in s.payments)
            net = [0] * self.n
            for payer, to, amount in payments:
                net[payer] -= amount
                net[to] += amount
            s = s._replace(net=tuple(net), payments=payments)
        original(self, s)

    return [(state_mod, "end", end)]


def _instant_win_shake_factor() -> list[Patch]:
    return _instant_win_repaid(
        lambda rnd, s, payer, amount: amount * settlement_mod._own_shake_bomb_factor(state_mod.frozen_seats(rnd)[s.winner], rnd.o)
    )


def _instant_win_go_bak() -> list[Patch]:
    return _instant_win_repaid(lambda rnd, s, payer, amount: amount * 2 if rnd.seats[payer].gos else amount)


def _instant_win_go_points() -> list[Patch]:
    def pay(rnd: state_mod.RoundState, s: Any, payer: int, amount: int) -> int:
        gos = rnd.seats[s.winner].gos
        carry: int = s.carry
        return (amount + settlement_mod.go_points(gos, rnd.o) * carry) * settlement_mod.go_multiplier(gos, rnd.o)

    return _instant_win_repaid(pay)


def _go_last_ignores_credits() -> list[Patch]:
    """Whether the actor has a later turn is judged by the hand alone: a bomber whose hand is
    empty but who still holds a skip credit is forced to stop."""

    def forced(self: state_mod.RoundState, seat: int) -> bool:
        return self.o.go_on_last_turn == "forced_stop" and (not self.seats[seat].hand or not self.stock)

    return [(state_mod, "go_forced_stop", forced)]


# ------------------------------------------------------------------ issue 15: more mutants from the prose


def _next_round_rewrite(rewrite: Callable[[state_mod.RoundState, dict[str, Any]], dict[str, Any]]) -> list[Patch]:
    """Patch Round.next_round: `rewrite` changes what a finished round hands to the next one."""
    original = state_mod.next_round

    def next_round(self: state_mod.RoundState) -> dict[str, Any]:
        return rewrite(self, dict(original(self)))

    return [(state_mod, "next_round", next_round)]


def _kind(rnd: state_mod.RoundState) -> str:
    assert rnd.settlement is not None
    return rnd.settlement.kind


def _redeal_as_nagari_streak() -> list[Patch]:
    """A redeal is run through the void-round path for the carry (R-REDEAL: it leaves it unchanged)."""

    def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        if _kind(rnd) == "redeal":
            nxt["nagari_streak"] = rnd.nagari_streak + 1
        return nxt

    return _next_round_rewrite(rewrite)


def _redeal_counted() -> list[Patch]:
    def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        if _kind(rnd) == "redeal":
            nxt["counts_as_round"] = True
        return nxt

    return _next_round_rewrite(rewrite)


def _redeal_resets_carry() -> list[Patch]:
    """A redeal starts afresh, as if the void rounds before it were forgotten."""

    def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        if _kind(rnd) == "redeal":
            nxt["nagari_streak"], nxt["carried_multiplier"] = 0, 1
        return nxt

    return _next_round_rewrite(rewrite)


def _void_passes_deal(kinds: tuple[str, ...]) -> Callable[[], list[Patch]]:
    """After a round of one of `kinds` the deal passes to the next seat (R-NEXT-DEALER: it stays)."""

    def patches() -> list[Patch]:
        def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
            if _kind(rnd) in kinds:
                nxt["dealer"] = (rnd.dealer + 1) % rnd.n
            return nxt

        return _next_round_rewrite(rewrite)

    return patches


def _nagari_streak_not_cumulative() -> list[Patch]:
    """Each void round sets the streak to one instead of adding to it."""

    def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        if _kind(rnd) == "nagari":
            nxt["nagari_streak"] = 1
        return nxt

    return _next_round_rewrite(rewrite)


def _instant_win_dealer_keeps() -> list[Patch]:
    """Only a Stop passes the deal to the winner; after an instant win the dealer deals again."""

    def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        if _kind(rnd) in _INSTANT_WINS:
            nxt["dealer"] = rnd.dealer
        return nxt

    return _next_round_rewrite(rewrite)


def _pc_tie_lowest_seat() -> list[Patch]:
    """A tie for the best point-count balance goes to the lowest seat number, not turn order from the dealer."""

    def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        s = rnd.settlement
        if s is not None and s.kind == "point_count":
            nxt["dealer"] = s.net.index(max(s.net))
        return nxt

    return _next_round_rewrite(rewrite)


def _pc_dealer_keeps() -> list[Patch]:
    """No single player stops in the point-count variant, so the dealer keeps the deal."""

    def rewrite(rnd: state_mod.RoundState, nxt: dict[str, Any]) -> dict[str, Any]:
        if _kind(rnd) == "point_count":
            nxt["dealer"] = rnd.dealer
        return nxt

    return _next_round_rewrite(rewrite)


def _first_dealer(draw: Callable[[Options, rng_mod.SplitMix64], int]) -> list[Patch]:
    """Replace the first-dealer draw everywhere it is looked up."""
    return [(deal_mod, "draw_first_dealer", draw), (match_mod, "draw_first_dealer", draw)]


def _day_night_draw(all_redraw: bool, kind_sign: int | None, same_deck: bool) -> Callable[[], list[Patch]]:
    """The R-FIRST-DEALER draw with one slip: every player redraws after a tie (`all_redraw`),
    the kind tie-break runs one way whatever the rule (`kind_sign`: +1 higher kind, 0 none, None
    as specified), or a redraw takes the next cards of the same deck (`same_deck`)."""

    def draw(o: Options, rng: rng_mod.SplitMix64) -> int:
        n = o.players
        if o.first_dealer == "seeded_random":
            return rng.below(n)
        cards = deck().cards
        seats = list(range(n))
        order = list(range(48))
        rng.shuffle(order)
        pos = 0
        while True:
            if not same_deck and pos:
                order = list(range(48))
                rng.shuffle(order)
                pos = 0
            drawn = {seat: cards[order[pos + k]] for k, seat in enumerate(seats)}
            pos += len(seats)
            sign = 1 if o.first_dealer == "draw_day_high" else -1
            ks = sign if kind_sign is None else kind_sign
            keys = {seat: (sign * c.month, ks * deal_mod.KIND_RANK[c.kind]) for seat, c in drawn.items()}
            best = max(keys.values())
            tied = [seat for seat in seats if keys[seat] == best]
            if len(tied) == 1:
                return tied[0]
            if not all_redraw:
                seats = tied
            if same_deck and pos + len(seats) > 48:
                pos = 0
                rng.shuffle(order)

    return lambda: _first_dealer(draw)


def _exhaust_winner(pick: Callable[[state_mod.RoundState, list[int]], int]) -> Callable[[], list[Patch]]:
    """R-EXHAUST-AFTER-GO with another Go-caller settled than the one who called Go last."""

    def patches() -> list[Patch]:
        original = turns_mod.round_exhausted

        def exhausted(self: state_mod.RoundState) -> None:
            callers = [s for s in range(self.n) if self.seats[s].gos > 0]
            o = self.o
            if o.scoring_system == "gostop" and callers and o.deck_exhausted_after_go == "last_go_caller_wins":
                winner = pick(self, callers)
                state_mod.end(
                    self,
                    settlement_mod.settle_stop(
                        "last_go_caller_wins", winner, state_mod.frozen_seats(self), self.nagari_streak, o, self.carried_multiplier
                    ),
                )
                return
            original(self)

        return [(turns_mod, "round_exhausted", exhausted)]

    return patches


def _advance_when(has_turn: Callable[[state_mod.RoundState, int], bool]) -> list[Patch]:
    """Patch Round._advance: the next player is the next seat for which `has_turn` holds, instead
    of Round._has_turn (which the Go/Stop checks keep using)."""

    def advance(self: state_mod.RoundState, actor: int) -> None:
        if self.stock:
            for k in range(1, self.n + 1):
                seat = (actor + k) % self.n
                if has_turn(self, seat):
                    self.to_act = seat
                    self.decision = state_mod.TURN
                    return
        turns_mod.round_exhausted(self)

    return [(turns_mod, "advance", advance)]


def _advance_by_hand() -> list[Patch]:
    """The next player is the next one holding a hand card: a player left with only skip
    credits is passed over (R-BOMB-SKIP: a credit is something to play)."""
    return _advance_when(lambda rnd, seat: bool(rnd.seats[seat].hand))


def _go_last_ignores_stock() -> list[Patch]:
    """Whether the actor has a later turn is judged by their own hand and credits alone: an
    empty stock does not force a Stop."""

    def forced(self: state_mod.RoundState, seat: int) -> bool:
        return self.o.go_on_last_turn == "forced_stop" and not state_mod.has_turn(self, seat)

    return [(state_mod, "go_forced_stop", forced)]


def _go_base_first_only() -> list[Patch]:
    """The rise is measured against the base of the first Go, never updated by later Gos. Round.apply
    is patched: the handlers are dispatched from a table built at import."""
    original = round_mod.Round.apply

    def apply(self: round_mod.Round, a: Any) -> Any:
        seat = self.to_act
        before, had = self.seats[seat].go_base, self.seats[seat].gos
        out = original(self, a)
        if a.type == "go" and had:
            self.seats[seat].go_base = before
        return out

    return [(round_mod.Round, "apply", apply)]


def _final_ppeok_uncounted() -> list[Patch]:
    """A last-turn ppeok captured at once (final_turn_ppeok = capture_three) is not counted,
    because no stack was left (R-THREE-PPEOK counts it)."""
    original = turns_mod.ppeok

    def ppeok(self: state_mod.RoundState, ctx: Any, f: int) -> None:
        original(self, ctx, f)
        if ctx.made_ppeok and ctx.month not in self.stack_owner:
            self.seats[ctx.actor].ppeoks -= 1
            ctx.made_ppeok = False

    return [(turns_mod, "ppeok", ppeok)]


def _three_ppeok_after_steals() -> list[Patch]:
    """The turn's steals are performed before the three-ppeok instant win ends the round."""
    original = turns_mod.finish

    def finish(self: state_mod.RoundState, ctx: Any) -> None:
        if ctx.made_ppeok and self.seats[ctx.actor].ppeoks == 3 and self.o.three_ppeok_win != "off" and self.pending_steals:
            steals_mod.perform_steals(self, ctx.actor, False)
        original(self, ctx)

    return [(turns_mod, "finish", finish)]


def _sweep_rewrite(swept: Callable[[state_mod.RoundState, Any], bool]) -> list[Patch]:
    """Patch Round._check_sweep under the default definition: `swept` says whether the turn sweeps."""
    original = turns_mod.check_sweep

    def check(self: state_mod.RoundState, ctx: Any) -> None:
        o = self.o
        if o.sweep_steal > 0 and ctx.captures and swept(self, ctx):
            state_mod.emit(self, "sweep", ctx.actor, (), ("R-SWEEP",), {"definition": o.sweep_definition})
            steals_mod.request(self, "sweep", o.sweep_steal, ctx.actor)
            return
        original(self, ctx)

    return [(turns_mod, "check_sweep", check)]


def _sweep_before_flip() -> list[Patch]:
    """The table is checked after the hand capture: a flipped card left alone on it still sweeps."""

    def swept(rnd: state_mod.RoundState, ctx: Any) -> bool:
        left = [c for month in rnd.table for c in month]
        return (
            rnd.o.sweep_definition == "table_empty_at_turn_end" and ctx.flip is not None and left == [ctx.flip] and ctx.hand in ctx.captures
        )

    return _sweep_rewrite(swept)


def _sweep_ignores_stacks() -> list[Patch]:
    """Only loose cards count: a table holding nothing but stacks is swept."""

    def swept(rnd: state_mod.RoundState, ctx: Any) -> bool:
        loose = [c for m, cards in enumerate(rnd.table) if m not in rnd.stack_owner for c in cards]
        return rnd.o.sweep_definition == "table_empty_at_turn_end" and not loose

    return _sweep_rewrite(swept)


def _two_cards_sweep(loose: Callable[[list[int]], bool]) -> Callable[[], list[Patch]]:
    """two_cards_cleared with another condition on the table at the turn's start."""

    def patches() -> list[Patch]:
        def swept(rnd: state_mod.RoundState, ctx: Any) -> bool:
            start = rnd.table_at_start
            return rnd.o.sweep_definition == "two_cards_cleared" and loose(start) and all(c in ctx.captures for c in start)

        return _sweep_rewrite(swept)

    return patches


def _steals_per_request(combine: str) -> list[Patch]:
    """R-EVENTS-STACK done another way: `separate` surrenders each request on its own, `largest`
    only the largest request of each opponent, `first` only the turn's first request."""

    def perform(self: state_mod.RoundState, actor: int, final: bool) -> None:
        o = self.o
        requests: list[tuple[str, int, tuple[int, ...]]] = [r for r in self.pending_steals if not (final and r[0] in o.final_turn_exempt)]
        self.pending_steals = []
        if combine == "first":
            requests = requests[:1]
        if combine == "separate":
            for kind, units, payers in requests:
                for payer in state_mod.others(self, actor):
                    if payer in payers:
                        steals_mod.surrender(self, payer, actor, units, (steals_mod.STEAL_CLAUSE[kind],))
            return
        owed = [0] * self.n
        for _, units, payers in requests:
            for p in payers:
                owed[p] = max(owed[p], units) if combine == "largest" else owed[p] + units
        for payer in state_mod.others(self, actor):
            if owed[payer]:
                steals_mod.surrender(self, payer, actor, owed[payer], ())

    return [(steals_mod, "perform_steals", perform)]


def _bomb_bonus_steal_exempt() -> list[Patch]:
    """A final turn withholds every steal, the bomb and bonus-card steals too (R-FINAL-TURN: never those)."""
    original = steals_mod.perform_steals

    def perform(self: state_mod.RoundState, actor: int, final: bool) -> None:
        if final:
            self.pending_steals = [r for r in self.pending_steals if r[0] not in ("bomb", "bonus")]
        original(self, actor, final)

    return [(steals_mod, "perform_steals", perform)]


def _stack_bonus_to_creator() -> list[Patch]:
    """The bonus cards buried in a ppeok stack go back to its creator when it is captured."""
    original = turns_mod.capture_stack

    def capture(self: state_mod.RoundState, ctx: Any, month: int, extra: int) -> None:
        owner = self.stack_owner.get(month)
        buried = list(self.stack_bonus.get(month, []))
        if owner is not None and owner != ctx.actor and buried:
            self.stack_bonus[month] = []
            state_mod.gain(self, owner, buried)
        original(self, ctx, month, extra)

    return [(turns_mod, "capture_stack", capture)]


def _flip_bonus_not_buried() -> list[Patch]:
    """A bonus card flipped in a ppeok turn goes to the actor's pile instead of into the stack."""
    original = turns_mod.ppeok

    def ppeok(self: state_mod.RoundState, ctx: Any, f: int) -> None:
        kept = list(ctx.flip_bonus)
        original(self, ctx, f)
        month = ctx.month
        if ctx.made_ppeok and month in self.stack_owner and kept:
            self.stack_bonus[month] = [b for b in self.stack_bonus.get(month, []) if b not in kept]
            ctx.flip_bonus = tuple(kept)

    return [(turns_mod, "ppeok", ppeok)]


def _stack_bonus_steals() -> list[Patch]:
    """Bonus cards captured inside a stack grant the bonus-card steal (R-BONUS-STEAL: they grant nothing)."""
    original = turns_mod.capture_stack

    def capture(self: state_mod.RoundState, ctx: Any, month: int, extra: int) -> None:
        buried = len(self.stack_bonus.get(month, []))
        original(self, ctx, month, extra)
        for _ in range(buried):
            steals_mod.request(self, "bonus", self.o.bonus_steal, ctx.actor)

    return [(turns_mod, "capture_stack", capture)]


def _dual_decision_kept() -> list[Patch]:
    """A dual_to_junk at a Go/Stop decision never makes the decision lapse, even when the player
    is no longer eligible (R-DUAL-ROLE: the decision lapses and the turn ends)."""
    original = round_mod.Round.apply

    def apply(self: round_mod.Round, a: Any) -> Any:
        if a.type != "dual_to_junk" or self.decision != state_mod.GO_STOP:
            return original(self, a)
        advance = turns_mod.advance
        turns_mod.advance = lambda s, actor: None
        try:
            return original(self, a)
        finally:
            turns_mod.advance = advance

    return [(round_mod.Round, "apply", apply)]


def _stolen_dual_reverts() -> list[Patch]:
    """A surrendered dual-role card counts as an animal again for its taker (R-STEAL: it keeps its role)."""
    original = steals_mod.surrender

    def surrender(self: state_mod.RoundState, giver: int, taker: int, units: int, why: tuple[str, ...] = ()) -> None:
        before = set(self.seats[taker].dual_junk)
        original(self, giver, taker, units, why)
        self.seats[taker].dual_junk = before

    return [(steals_mod, "surrender", surrender)]


def _best_base_scores(seat: settlement_mod.Seat, o: Options) -> list[Any]:
    """Each loser is scored with the allocation that maximises their own base (R-DUAL-ROLE (1)),
    not the one that minimises what they pay (3)."""
    return [scoring_mod.best_breakdown(seat.captured, o, seat.dual_junk)]


def _display_allocation_everywhere() -> list[Patch]:
    """Under auto_best every player settles with the allocation of their best base (R-DUAL-ROLE
    (1)), as if the display allocation were the only one (the winner's is (2), each loser's (3))."""
    original = scoring_mod.fixed_allocation  # what settlement imported

    def fixed(pile: Any, o: Options, moved: Any) -> frozenset[int] | None:
        got = original(pile, o, moved)
        duals = scoring_mod.dual_cards_in(pile, o)
        if got is not None or not duals:
            return got
        best = scoring_mod.best_breakdown(pile, o, moved).base
        return next(a for a in scoring_mod.allocations(duals) if scoring_mod.breakdown(pile, o, a).base == best)

    return [(settlement_mod, "fixed_allocation", fixed)]


def _bak_added(extra: Callable[[Any, Any, Any, Options], Bak | None]) -> list[Patch]:
    """Patch settlement._loser_baks: `extra` names one more bak a loser gets, or None."""
    original = settlement_mod._loser_baks

    def baks(win: Any, lose: Any, pile: Any, o: Options) -> list[Bak]:
        out = original(win, lose, pile, o)
        more = extra(win, lose, pile, o)
        if more is not None and more not in out:
            out.append(more)
        return out

    return [(settlement_mod, "_loser_baks", baks)]


def _gwang_bak_any_winner_bright() -> list[Patch]:
    """Gwang-bak when the winner holds any bright, with or without bright points."""

    def extra(win: Any, lose: Any, pile: Any, o: Options) -> Bak | None:
        rain_off = not o.gwang_bak_rain_protects and scoring_mod.RAIN_BRIGHT in pile
        return "gwang_bak" if o.gwang_bak and win.brights > 0 and lose.brights - (1 if rain_off else 0) == 0 else None

    return _bak_added(extra)


def _rain_always_exposes() -> list[Patch]:
    """With the rain bright not protecting, a loser holding it is gwang-bak even beside another bright."""

    def extra(win: Any, lose: Any, pile: Any, o: Options) -> Bak | None:
        exposed = not o.gwang_bak_rain_protects and scoring_mod.RAIN_BRIGHT in pile
        return "gwang_bak" if o.gwang_bak and win.bright_points > 0 and exposed else None

    return _bak_added(extra)


def _meongbak_any_animal() -> list[Patch]:
    """Meong-bak when the winner holds any animal, with or without animal points."""

    def extra(win: Any, lose: Any, pile: Any, o: Options) -> Bak | None:
        modes = ("meongbak_loser_zero", "meongtta_and_meongbak")
        return "meong_bak" if o.meong_mode in modes and win.animals > 0 and lose.animals == 0 else None

    return _bak_added(extra)


def _meongbak_under_meongtta() -> list[Patch]:
    """Seven animals also make a loser without animals meong-bak under meongtta_7_global."""

    def extra(win: Any, lose: Any, pile: Any, o: Options) -> Bak | None:
        hit = o.meong_mode == "meongtta_7_global" and win.animals >= settlement_mod.MEONGTTA_ANIMALS and lose.animals == 0
        return "meong_bak" if hit else None

    return _bak_added(extra)


def _flip_rewrite(rewrite: Callable[[state_mod.RoundState, Any], None]) -> list[Patch]:
    """Patch Round._flip: `rewrite` changes the turn's last-turn flags after the flip."""
    original = turns_mod.flip

    def flip(self: state_mod.RoundState, ctx: Any) -> None:
        original(self, ctx)
        rewrite(self, ctx)

    return [(turns_mod, "flip", flip)]


def _actor_last_by_hand(rnd: state_mod.RoundState, ctx: Any) -> None:
    ctx.actor_last = not rnd.seats[ctx.actor].hand


def _round_last_by_stock(rnd: state_mod.RoundState, ctx: Any) -> None:
    ctx.round_last = not rnd.stock


def _round_scope_includes_own_last() -> list[Patch]:
    """Under round_final_turn, a player's own last turn is final too (the two scopes mixed up)."""

    def rewrite(rnd: state_mod.RoundState, ctx: Any) -> None:
        if rnd.o.final_turn_scope == "round_final_turn" and ctx.actor_last:
            ctx.round_last = True

    return _flip_rewrite(rewrite)


def _own_scope_misses_round_last() -> list[Patch]:
    """Under each_player_last_hand_card only the actor's own last turn is final: the turn that
    empties the stock while the actor still holds a card is not (R-FINAL-TURN: it is final as well)."""

    def rewrite(rnd: state_mod.RoundState, ctx: Any) -> None:
        if rnd.o.final_turn_scope == "each_player_last_hand_card" and not ctx.actor_last:
            ctx.round_last = False

    return _flip_rewrite(rewrite)


def _chongtong_order_from_dealer() -> list[Patch]:
    """Two chongtong holders are ranked in turn order from the dealer, not from the first player."""
    original = dealtime_mod.deal_time

    def deal_time(self: state_mod.RoundState, table: list[int], stacks: Any, fresh: bool) -> None:
        first = self.to_act
        self.to_act = self.dealer
        try:
            original(self, table, stacks, fresh)
        finally:
            self.to_act = first

    return [(dealtime_mod, "deal_time", deal_time)]


def _chongtong_months_as_holders() -> list[Patch]:
    """Chongtongs are counted by month: one player holding two complete months is handled as two
    holders (R-CHONGTONG-MULTI is about two or more players)."""
    original = dealtime_mod.deal_time

    def deal_time(self: state_mod.RoundState, table: list[int], stacks: Any, fresh: bool) -> None:
        original(self, table, stacks, fresh)
        s = self.settlement
        o = self.o
        if s is None or s.kind != "chongtong" or o.hand_chongtong != "instant_win" or s.winner is None:
            return
        full = [m for m, k in enumerate(state_mod.month_counts(self, s.winner)) if m and k == 4]
        if len(full) < 2 or o.multiple_chongtong not in ("redeal", "nagari"):
            return
        self.events = [e for e in self.events if e.kind != "round_end"]
        self.settlement = None
        kind = o.multiple_chongtong
        clause = "R-REDEAL" if kind == "redeal" else "R-NAGARI"
        state_mod.end(self, settlement_mod.settle_void(kind, self.n, ("R-CHONGTONG-MULTI", clause)))

    return [(dealtime_mod, "deal_time", deal_time)]


MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "ppeok-never",
        "events",
        "R-PPEOK",
        "a flipped card of the month just paired never makes a ppeok stack",
        _options(lambda o: {"ppeok_enabled": False}),
    ),
    Mutant("jjok-no-steal", "events", "R-JJOK", "no junk is surrendered for a jjok", _drop_steal("jjok")),
    Mutant("ttadak-no-steal", "events", "R-TTADAK", "no junk is surrendered for a ttadak", _drop_steal("ttadak")),
    Mutant(
        "ttadak-from-two-pairs", "events", "R-TTADAK", "a hand pair and a different flip pair count as a ttadak", _ttadak_from_two_pairs
    ),
    Mutant("sweep-no-steal", "events", "R-SWEEP", "no junk is surrendered for a sweep", _drop_steal("sweep")),
    Mutant(
        "sweep-on-final-turn",
        "events",
        "R-FINAL-TURN",
        "the sweep steal is granted on the final turn",
        _options(lambda o: {"final_turn_exempt": o.final_turn_exempt - {"sweep"}}),
    ),
    Mutant(
        "stack-steal-on-final-turn",
        "events",
        "R-FINAL-TURN",
        "the stack-capture steal is granted on the final turn",
        _options(lambda o: {"final_turn_exempt": o.final_turn_exempt - {"stack_capture"}}),
    ),
    Mutant(
        "own-ppeok-like-any",
        "events",
        "R-PPEOK-CAPTURE",
        "capturing your own ppeok steals like any other stack",
        _options(lambda o: {"own_ppeok_capture_steal": o.ppeok_capture_steal}),
    ),
    Mutant(
        "dealt-triple-no-steal",
        "deal",
        "R-TABLE-TRIPLE",
        "capturing a dealt triple steals nothing",
        _options(lambda o: {"table_triple_capture_steal": 0}),
    ),
    Mutant(
        "final-ppeok-captured",
        "events",
        "R-FINAL-PPEOK",
        "a ppeok on the final turn is captured at once",
        _options(lambda o: {"final_turn_ppeok": "capture_three" if o.final_turn_ppeok == "leave_stack" else "leave_stack"}),
    ),
    Mutant("steal-highest-first", "events", "R-STEAL", "the giver surrenders the most valuable junk first", _highest_junk_first),
    Mutant("steal-debt-carried", "events", "R-STEAL", "junk a giver could not surrender is owed on the next steal", _steal_debt),
    Mutant(
        "bonus-never-surrendered",
        "events",
        "R-STEAL",
        "a captured bonus card is never surrendered in a steal",
        _bonus_never_surrendered,
    ),
    Mutant("steal-next-player-only", "events", "R-STEAL-PAYERS", "only the next player pays a steal", _next_player_pays_only),
    Mutant(
        "ttadak-counts-as-ppeok",
        "events",
        "R-THREE-PPEOK",
        "a ttadak counts as a ppeok toward three ppeoks",
        _counted_as_ppeok(lambda ctx: bool(ctx.made_ttadak)),
    ),
    Mutant(
        "jjok-counts-as-ppeok",
        "events",
        "R-THREE-PPEOK",
        "a jjok counts as a ppeok toward three ppeoks",
        _counted_as_ppeok(_made_jjok),
    ),
    Mutant(
        "bomb-counts-as-ppeok",
        "events",
        "R-THREE-PPEOK",
        "a bomb counts as a ppeok toward three ppeoks",
        _counted_as_ppeok(lambda ctx: bool(ctx.mode == "bomb")),
    ),
    Mutant(
        "ppeok-uncounted-when-captured",
        "events",
        "R-THREE-PPEOK",
        "a ppeok stack no longer counts toward three ppeoks once it is captured",
        _ppeok_uncounted_when_captured,
    ),
    Mutant(
        "instant-win-shake-factor",
        "settlement",
        "R-CHONGTONG",
        "an instant win is multiplied by the winner's shakes and bombs",
        _instant_win_shake_factor,
    ),
    Mutant(
        "instant-win-go-bak",
        "settlement",
        "R-THREE-PPEOK",
        "an opponent who called Go pays an instant win double (go-bak)",
        _instant_win_go_bak,
    ),
    Mutant(
        "instant-win-go-points",
        "settlement",
        "R-THREE-PPEOK",
        "an instant win adds the winner's go points and Go multiplier",
        _instant_win_go_points,
    ),
    Mutant("three-ppeok-ignored", "events", "R-THREE-PPEOK", "three ppeoks win nothing", _options(lambda o: {"three_ppeok_win": "off"})),
    Mutant(
        "bomb-no-skip-credits",
        "declarations",
        "R-BOMB-SKIP",
        "a bomb grants no skip credits",
        _options(lambda o: {"bomb_compensation": "none"}),
    ),
    Mutant(
        "shake-automatic",
        "declarations",
        "R-SHAKE",
        "a held triple's card played to a table without that month always shakes",
        _shake_automatic,
    ),
    Mutant(
        "bomb-automatic",
        "declarations",
        "R-BOMB",
        "playing one of three held cards onto the fourth on the table always bombs",
        _bomb_automatic,
    ),
    Mutant("shake-not-counted", "settlement", "R-SHAKE-BOMB-MULT", "shakes never double the winnings", _no_shake_factor),
    Mutant(
        "chongtong-ignored",
        "deal",
        "R-CHONGTONG",
        "four of a month in a dealt hand wins nothing",
        _options(lambda o: {"hand_chongtong": "ignore"}),
    ),
    Mutant(
        "table-four-not-redealt",
        "deal",
        "R-TABLE-FOUR",
        "four of a month on the table is played as a void round",
        _options(lambda o: {"table_four_of_month": "nagari" if o.table_four_of_month != "nagari" else "redeal"}),
    ),
    Mutant(
        "first-player-non-dealer",
        "deal",
        "R-TURN-ORDER",
        "the player after the dealer plays first",
        _options(lambda o: {"first_player": "non_dealer" if o.first_player == "dealer" else "dealer"}),
    ),
    Mutant(
        "must-match",
        "turn",
        "R-FREE-PLAY",
        "a matching card must be played when there is one",
        _options(lambda o: {"must_match_if_possible": not o.must_match_if_possible}),
    ),
    Mutant(
        "choice-after-flip",
        "turn",
        "R-TWO-MATCH-CHOICE",
        "the table card is chosen after the flip",
        _options(lambda o: {"two_match_choice_timing": "after_flip" if o.two_match_choice_timing == "at_play" else "at_play"}),
    ),
    Mutant(
        "deal-order-family",
        "deal",
        "R-DEAL-ORDER",
        "seeded deals use another packet order",
        _other_packet_order,
    ),
    Mutant(
        "rain-three-like-dry",
        "scoring",
        "R-SCORE-BRIGHT",
        "three brights with the rain bright score like three without",
        _options(lambda o: {"bright_3_rain": o.bright_3}),
    ),
    Mutant("godori-with-swallow", "scoring", "R-SCORE-GODORI", "the December swallow replaces the geese in godori", _swallow_godori),
    Mutant(
        "animal-threshold-off-by-one",
        "scoring",
        "R-SCORE-ANIMAL",
        "animal points start one card early",
        _options(lambda o: {"animal_threshold": o.animal_threshold - 1}),
    ),
    Mutant(
        "ribbon-threshold-off-by-one",
        "scoring",
        "R-SCORE-RIBBON",
        "ribbon points start one card early",
        _options(lambda o: {"ribbon_threshold": o.ribbon_threshold - 1}),
    ),
    Mutant(
        "junk-threshold-off-by-one",
        "scoring",
        "R-SCORE-JUNK",
        "junk points start one unit early",
        _options(lambda o: {"junk_threshold": o.junk_threshold - 1}),
    ),
    Mutant(
        "december-ribbon-in-cho",
        "scoring",
        "R-DEC-RIBBON",
        "the December ribbon completes cho-dan",
        _options(lambda o: {"dec_ribbon": "in_cho_set" if o.dec_ribbon != "in_cho_set" else "ribbon_no_set"}),
    ),
    Mutant(
        "cup-always-animal",
        "scoring",
        "R-DUAL-ROLE",
        "the cup always counts as an animal",
        _options(lambda o: {"dual_role_mode": "fixed_animal" if o.dual_role_mode != "fixed_animal" else "fixed_double_junk"}),
    ),
    Mutant("go-without-rise", "go-stop", "R-GO-RISE", "Go or Stop is offered again without a rise", _go_without_rise),
    Mutant("go-multiplier-linear", "go-stop", "R-GO-BONUS", "from the third Go the score is multiplied by Gos - 1", _linear_go),
    Mutant("go-points-capped", "go-stop", "R-GO-BONUS", "only the first two Gos add a point", _capped_go_points),
    Mutant(
        "go-last-ignores-skip-credits",
        "go-stop",
        "R-GO-LAST",
        "an actor left with skip credits but no hand card is forced to stop",
        _go_last_ignores_credits,
    ),
    Mutant(
        "go-on-last-turn",
        "go-stop",
        "R-GO-LAST",
        "Go is allowed with no later turn",
        _options(lambda o: {"go_on_last_turn": "allowed" if o.go_on_last_turn == "forced_stop" else "forced_stop"}),
    ),
    Mutant(
        "pi-bak-at-six",
        "settlement",
        "R-PI-BAK",
        "pi-bak applies with one more junk unit",
        _options(lambda o: {"pi_bak_max_units": o.pi_bak_max_units + 1}),
    ),
    Mutant(
        "pi-bak-zero-junk",
        "settlement",
        "R-PI-BAK",
        "the pi-bak exemption of a loser with no junk is the other way round",
        _options(lambda o: {"pi_bak_zero_exempt": not o.pi_bak_zero_exempt}),
    ),
    Mutant(
        "rain-never-protects",
        "settlement",
        "R-GWANG-BAK",
        "holding only the rain bright never protects from gwang-bak",
        _options(lambda o: {"gwang_bak_rain_protects": not o.gwang_bak_rain_protects}),
    ),
    Mutant("meongtta-at-six", "settlement", "R-MEONG", "six animals already double the winnings", _meongtta_at_six),
    Mutant(
        "go-bak-ignored",
        "settlement",
        "R-GO-BAK",
        "a losing Go-caller pays like any loser",
        _options(lambda o: {"go_bak_mode": "off" if o.go_bak_mode != "off" else "double_own"}),
    ),
    Mutant(
        "empty-capture-pays",
        "settlement",
        "R-EMPTY-EXEMPT",
        "a loser with no captured card pays like any loser",
        _options(lambda o: {"empty_capture_exempt": not o.empty_capture_exempt}),
    ),
    Mutant("no-nagari-carry", "round", "R-NAGARI-CARRY", "a void round carries no doubling", _no_carry),
    Mutant(
        "last-go-caller-wins",
        "round",
        "R-EXHAUST-AFTER-GO",
        "the stock running out after a Go settles the last caller",
        _options(lambda o: {"deck_exhausted_after_go": "last_go_caller_wins" if o.deck_exhausted_after_go == "nagari" else "nagari"}),
    ),
    Mutant("pc-sets-unpaid", "family", "R-PC-SETS", "point-count set bonuses are never paid", _no_pc_sets),
    # issue 15: behaviours the independent review's survivors clustered in, from the clause prose
    Mutant("redeal-grows-carry", "round", "R-REDEAL", "a redeal adds to the nagari streak like a void round", _redeal_as_nagari_streak),
    Mutant("redeal-counted", "round", "R-MATCH-ROUNDS", "a redeal counts as one of the match's rounds", _redeal_counted),
    Mutant("redeal-resets-carry", "round", "R-NAGARI-CARRY", "a redeal clears the nagari streak and carry", _redeal_resets_carry),
    Mutant("redeal-passes-deal", "round", "R-NEXT-DEALER", "after a redeal the next seat deals", _void_passes_deal(("redeal",))),
    Mutant("nagari-passes-deal", "round", "R-NEXT-DEALER", "after a void round the next seat deals", _void_passes_deal(("nagari",))),
    Mutant(
        "nagari-streak-not-cumulative",
        "round",
        "R-NAGARI-CARRY",
        "every void round sets the streak to one instead of adding one",
        _nagari_streak_not_cumulative,
    ),
    Mutant("instant-win-dealer-keeps", "round", "R-NEXT-DEALER", "after an instant win the dealer deals again", _instant_win_dealer_keeps),
    Mutant(
        "pc-tie-lowest-seat-deals",
        "family",
        "R-NEXT-DEALER",
        "a tie for the best point-count balance goes to the lowest seat",
        _pc_tie_lowest_seat,
    ),
    Mutant("pc-dealer-keeps-deal", "family", "R-NEXT-DEALER", "after a point-count round the dealer deals again", _pc_dealer_keeps),
    Mutant(
        "first-dealer-all-redraw",
        "deal",
        "R-FIRST-DEALER",
        "after a full tie every player draws again",
        _day_night_draw(all_redraw=True, kind_sign=None, same_deck=False),
    ),
    Mutant(
        "first-dealer-no-kind-tiebreak",
        "deal",
        "R-FIRST-DEALER",
        "a tie in the month is not broken by card kind",
        _day_night_draw(all_redraw=False, kind_sign=0, same_deck=False),
    ),
    Mutant(
        "first-dealer-night-high-kind",
        "deal",
        "R-FIRST-DEALER",
        "by night a month tie goes to the higher kind, as by day",
        _day_night_draw(all_redraw=False, kind_sign=1, same_deck=False),
    ),
    Mutant(
        "first-dealer-redraw-same-deck",
        "deal",
        "R-FIRST-DEALER",
        "a redraw takes the next cards of the same deck, not a fresh shuffle",
        _day_night_draw(all_redraw=False, kind_sign=None, same_deck=True),
    ),
    Mutant(
        "exhaust-first-go-caller-wins",
        "round",
        "R-EXHAUST-AFTER-GO",
        "when the stock runs out after several Gos the earliest caller wins",
        _exhaust_winner(lambda rnd, callers: min(callers, key=lambda s: (rnd.seats[s].first_go_turn or 0, s))),
    ),
    Mutant(
        "exhaust-most-gos-wins",
        "round",
        "R-EXHAUST-AFTER-GO",
        "when the stock runs out after several Gos the caller with the most Gos wins",
        _exhaust_winner(lambda rnd, callers: max(callers, key=lambda s: (rnd.seats[s].gos, -s))),
    ),
    Mutant(
        "exhaust-best-base-wins",
        "round",
        "R-EXHAUST-AFTER-GO",
        "when the stock runs out after several Gos the caller with the best base wins",
        _exhaust_winner(lambda rnd, callers: max(callers, key=lambda s: (state_mod.base(rnd, s), -s))),
    ),
    Mutant("skip-credit-passed-over", "go-stop", "R-BOMB-SKIP", "a player holding only skip credits is passed over", _advance_by_hand),
    Mutant("go-last-ignores-stock", "go-stop", "R-GO-LAST", "an empty stock does not force a Stop", _go_last_ignores_stock),
    Mutant("go-rise-from-first-go", "go-stop", "R-GO-RISE", "the rise is measured against the first Go's base", _go_base_first_only),
    Mutant(
        "final-ppeok-uncounted",
        "events",
        "R-THREE-PPEOK",
        "a last-turn ppeok captured at once does not count toward three ppeoks",
        _final_ppeok_uncounted,
    ),
    Mutant(
        "three-ppeok-after-steals",
        "events",
        "R-THREE-PPEOK",
        "the third ppeok's turn performs its steals before the instant win",
        _three_ppeok_after_steals,
    ),
    Mutant(
        "sweep-before-flip", "events", "R-SWEEP", "a table emptied by the hand capture sweeps though the flip stays", _sweep_before_flip
    ),
    Mutant("sweep-ignores-stacks", "events", "R-SWEEP", "a table holding only stacks counts as swept", _sweep_ignores_stacks),
    Mutant(
        "two-cards-sweep-one-month",
        "events",
        "R-SWEEP",
        "two_cards_cleared also counts two cards of one month",
        _two_cards_sweep(lambda start: len(start) == 2),
    ),
    Mutant(
        "steals-not-summed",
        "events",
        "R-EVENTS-STACK",
        "each steal request is surrendered on its own",
        lambda: _steals_per_request("separate"),
    ),
    Mutant(
        "steals-largest-only",
        "events",
        "R-EVENTS-STACK",
        "only the largest request of a turn is surrendered",
        lambda: _steals_per_request("largest"),
    ),
    Mutant(
        "steal-once-per-turn",
        "events",
        "R-EVENTS-STACK",
        "only the first steal request of a turn counts",
        lambda: _steals_per_request("first"),
    ),
    Mutant(
        "bomb-bonus-steal-exempt-on-final",
        "events",
        "R-FINAL-TURN",
        "a final turn withholds the bomb and bonus-card steals too",
        _bomb_bonus_steal_exempt,
    ),
    Mutant(
        "stack-bonus-to-creator",
        "bonus",
        "R-BONUS-PPEOK",
        "bonus cards buried in a ppeok go back to its creator when it is captured",
        _stack_bonus_to_creator,
    ),
    Mutant("flip-bonus-not-buried", "bonus", "R-BONUS-PPEOK", "a bonus card flipped in a ppeok turn is not buried", _flip_bonus_not_buried),
    Mutant(
        "stack-bonus-steals", "bonus", "R-BONUS-STEAL", "bonus cards captured inside a stack grant the bonus steal", _stack_bonus_steals
    ),
    Mutant(
        "dual-decision-kept",
        "scoring",
        "R-DUAL-ROLE",
        "moving a dual card to junk at a Go/Stop decision never makes it lapse",
        _dual_decision_kept,
    ),
    Mutant("stolen-dual-reverts", "scoring", "R-STEAL", "a surrendered dual card is an animal again for its taker", _stolen_dual_reverts),
    Mutant(
        "losers-best-base-allocation",
        "settlement",
        "R-DUAL-ROLE",
        "each loser settles with the allocation of their best base",
        lambda: [(settlement_mod, "_allocated_scores", _best_base_scores)],
    ),
    Mutant(
        "display-allocation-everywhere",
        "settlement",
        "R-DUAL-ROLE",
        "every player settles with the allocation of their best base",
        _display_allocation_everywhere,
    ),
    Mutant(
        "gwang-bak-any-winner-bright",
        "settlement",
        "R-GWANG-BAK",
        "gwang-bak applies when the winner holds any bright",
        _gwang_bak_any_winner_bright,
    ),
    Mutant(
        "rain-always-exposes",
        "settlement",
        "R-GWANG-BAK",
        "a loser holding the non-protecting rain bright is gwang-bak beside another bright",
        _rain_always_exposes,
    ),
    Mutant("meongbak-any-animal", "settlement", "R-MEONG", "meong-bak applies when the winner holds any animal", _meongbak_any_animal),
    Mutant(
        "meongbak-under-meongtta",
        "settlement",
        "R-MEONG",
        "seven animals also make an animal-less loser meong-bak under meongtta_7_global",
        _meongbak_under_meongtta,
    ),
    Mutant(
        "final-turn-ignores-credits",
        "events",
        "R-FINAL-TURN",
        "a player's own last turn is judged by the hand alone",
        lambda: _flip_rewrite(_actor_last_by_hand),
    ),
    Mutant(
        "final-turn-by-stock-only",
        "events",
        "R-FINAL-TURN",
        "the round's last turn is only the one that empties the stock",
        lambda: _flip_rewrite(_round_last_by_stock),
    ),
    Mutant(
        "round-scope-own-last-final",
        "events",
        "R-FINAL-TURN",
        "under round_final_turn a player's own last turn is final too",
        _round_scope_includes_own_last,
    ),
    Mutant(
        "own-scope-misses-round-last",
        "events",
        "R-FINAL-TURN",
        "under each_player_last_hand_card the round's last turn is final only if it is the actor's own last",
        _own_scope_misses_round_last,
    ),
    Mutant(
        "chongtong-order-from-dealer",
        "deal",
        "R-CHONGTONG-MULTI",
        "two chongtong holders are ranked in turn order from the dealer",
        _chongtong_order_from_dealer,
    ),
    Mutant(
        "chongtong-months-as-holders",
        "deal",
        "R-CHONGTONG-MULTI",
        "one player with two chongtong months is handled as two holders",
        _chongtong_months_as_holders,
    ),
)
