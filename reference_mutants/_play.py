"""Semantic mutants of the seeded deal, the deal-time bonus replacements, turn order, the free
play, matching and the two-match choice, the flip, bonus cards in hand and from the stock, and
stack capture (R-SHUFFLE, R-DEAL-ORDER, R-DEAL-BONUS, R-TURN-ORDER, R-FREE-PLAY,
R-TWO-MATCH-CHOICE, R-BONUS-FLIP, R-BONUS-HAND, R-BONUS-PPEOK, R-BONUS-STEAL, R-STACK-CAPTURE):
each one a bug a real engine author could make reading the rules prose
(_set.py gathers every set)."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

import gostop_conformance.reference._actions as actions_mod
import gostop_conformance.reference._cards as cards_mod
import gostop_conformance.reference._deal as deal_mod
import gostop_conformance.reference._dealtime as dealtime_mod
import gostop_conformance.reference._legal as legal_mod
import gostop_conformance.reference._match as match_mod
import gostop_conformance.reference._rng as rng_mod
import gostop_conformance.reference._state as state_mod
import gostop_conformance.reference._steals as steals_mod
import gostop_conformance.reference._turns as turns_mod
from gostop_conformance.mutants._base import Mutant, Patch, _advance_when, _first_dealer, _options
from gostop_conformance.reference._events import Action, Rejection
from gostop_conformance.spec import Options, deck

_IS_BONUS = cards_mod.IS_BONUS
_MONTH = cards_mod.MONTH
_CARDS = cards_mod.CARDS


# ------------------------------------------------------------------ the deal


def _sattolo_shuffle() -> list[Patch]:
    """Fisher-Yates written with j = next() mod i (Sattolo's algorithm): no card stays in place."""

    def shuffle(self: rng_mod.SplitMix64, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i)
            items[i], items[j] = items[j], items[i]

    return [(rng_mod.SplitMix64, "shuffle", shuffle)]


def _packet_deal(from_dealer: bool = False, one_at_a_time: bool = False) -> list[Patch]:
    """R-DEAL-ORDER with one slip: each hands packet starts with the dealer (`from_dealer`; the
    player after the dealer first, the dealer last), or is dealt one card per player at a time
    (`one_at_a_time`; N consecutive cards to each player)."""

    def seeded_deal(options: Options, rng: rng_mod.SplitMix64, dealer: int) -> deal_mod.Deal:
        cards = deal_mod.deck_indices(options)
        rng.shuffle(cards)
        n = options.players
        order = [(dealer + k) % n for k in range(0 if from_dealer else 1, n + (0 if from_dealer else 1))]
        hands: list[list[int]] = [[] for _ in range(n)]
        table: list[int] = []
        pos = 0
        for to_table, size in deal_mod._plan(options.deal_layout, options.deal_packet_order):
            if to_table:
                table.extend(cards[pos : pos + size])
                pos += size
            elif one_at_a_time:
                for _ in range(size):
                    for seat in order:
                        hands[seat].append(cards[pos])
                        pos += 1
            else:
                for seat in order:
                    hands[seat].extend(cards[pos : pos + size])
                    pos += size
        ids = deal_mod._card_ids()
        return deal_mod.Deal(
            players=n,
            dealer=dealer,
            hands=tuple(tuple(ids[c] for c in sorted(h)) for h in hands),
            table=tuple(ids[c] for c in table),
            stock=tuple(ids[c] for c in cards[pos:]),
        )

    return [(deal_mod, "seeded_deal", seeded_deal), (match_mod, "seeded_deal", seeded_deal)]


def _stock_reversed() -> list[Patch]:
    """The stock is drawn from the last card the deal left, not the first (R-DEAL-ORDER: the
    remaining cards in their order, its top card first)."""
    original = deal_mod.seeded_deal

    def seeded_deal(options: Options, rng: rng_mod.SplitMix64, dealer: int) -> deal_mod.Deal:
        d = original(options, rng, dealer)
        return dataclasses.replace(d, stock=tuple(reversed(d.stock)))

    return [(deal_mod, "seeded_deal", seeded_deal), (match_mod, "seeded_deal", seeded_deal)]


def _draw_with_bonus_cards() -> list[Patch]:
    """The first-dealer draw shuffles the ruleset's whole deck, bonus cards included; a player
    drawing one ranks below every card (R-FIRST-DEALER: bonus cards never take part)."""

    def draw(o: Options, rng: rng_mod.SplitMix64) -> int:
        n = o.players
        if o.first_dealer == "seeded_random":
            return rng.below(n)
        cards = deck().cards
        sign = 1 if o.first_dealer == "draw_day_high" else -1
        seats = list(range(n))
        while True:
            order = deal_mod.deck_indices(o)
            rng.shuffle(order)
            drawn = {seat: cards[order[k]] for k, seat in enumerate(seats)}
            keys = {
                seat: (-99, -99) if _IS_BONUS[c.index] else (sign * c.month, sign * deal_mod.KIND_RANK[c.kind]) for seat, c in drawn.items()
            }
            best = max(keys.values())
            seats = [seat for seat in seats if keys[seat] == best]
            if len(seats) == 1:
                return seats[0]

    return _first_dealer(draw)


def _lay_table_to(taker: Any) -> list[Patch]:
    """R-DEAL-BONUS with the table's bonus cards captured by `taker(round)` instead of the dealer."""

    def lay(self: state_mod.RoundState, table: list[int]) -> None:
        seat = taker(self)
        layout = list(table)
        while any(_IS_BONUS[c] for c in layout):
            pos = next(k for k, c in enumerate(layout) if _IS_BONUS[c])
            bonus = layout[pos]
            state_mod.gain(self, seat, [bonus])
            if self.stock:
                layout[pos] = self.stock.pop()
                state_mod.emit(self, "table_bonus", seat, (bonus, layout[pos]), ("R-DEAL-BONUS",))
            else:
                del layout[pos]
                state_mod.emit(self, "table_bonus", seat, (bonus,), ("R-DEAL-BONUS",))
        for c in layout:
            self.table[_MONTH[c]].append(c)

    return [(dealtime_mod, "lay_table", lay)]


def _checks_before_replacement() -> list[Patch]:
    """The table-four and table-triple checks look at the table as dealt: a card that replaced a
    bonus card is laid after them (R-DEAL-BONUS: the checks run after every replacement)."""

    def deal_time(self: state_mod.RoundState, table: list[int], stacks: Any, fresh: bool) -> None:
        dealtime_mod.lay_table(self, list(table))
        state_mod.emit(self, "deal", None, (), ("R-DEAL-SIZE",), {"dealer": self.dealer, "first_player": self.to_act})
        dealt = set(table)
        late = [[c for c in month if c not in dealt] for month in self.table]
        self.table = [[c for c in month if c in dealt] for month in self.table]
        ending = dealtime_mod.table_fours(self)
        if ending is None:
            dealtime_mod.table_triples(self, stacks)
        for month, cards in enumerate(late):
            self.table[month].extend(cards)
        if ending is None and fresh:
            ending = dealtime_mod.hand_chongtong(self)
        if ending is not None:
            state_mod.end(self, ending)

    return [(dealtime_mod, "deal_time", deal_time)]


def _deal_bonus_steals() -> list[Patch]:
    """The dealer's table bonus cards each take the bonus-card steal at once (R-DEAL-BONUS: they
    grant nothing)."""
    original = dealtime_mod.lay_table

    def lay(self: state_mod.RoundState, table: list[int]) -> None:
        before = len(self.seats[self.dealer].captured)
        original(self, table)
        taken = len(self.seats[self.dealer].captured) - before
        for _ in range(taken if self.o.bonus_steal else 0):
            for payer in state_mod.others(self, self.dealer):
                steals_mod.surrender(self, payer, self.dealer, self.o.bonus_steal, ("R-BONUS-STEAL",))

    return [(dealtime_mod, "lay_table", lay)]


# ------------------------------------------------------------------ turn order and free play


def _counter_order_reversed() -> list[Patch]:
    """ "Counter-clockwise" read the other way: the next player after seat s is s - 1, for the turn
    after a turn and for the non-dealer first player alike (R-TURN-ORDER: s + 1)."""
    original_dealt = state_mod.dealt

    def dealt(ruleset: Any, deal: deal_mod.Deal | deal_mod.DealtCards, check: bool) -> state_mod.RoundState:
        s = original_dealt(ruleset, deal, check)
        named = isinstance(deal, deal_mod.Deal) and deal.first_player is not None
        if not named and s.o.first_player == "non_dealer":
            s.to_act = (s.dealer - 1) % s.n
        return s

    def advance(self: state_mod.RoundState, actor: int) -> None:
        if self.stock:
            for k in range(1, self.n + 1):
                seat = (actor - k) % self.n
                if state_mod.has_turn(self, seat):
                    self.to_act = seat
                    self.decision = state_mod.TURN
                    return
        turns_mod.round_exhausted(self)

    return [(state_mod, "dealt", dealt), (turns_mod, "advance", advance)]


def _bonus_only_hand_passed_over() -> list[Patch]:
    """A player whose hand holds only bonus cards is passed over, as if the hand were empty
    (R-TURN-ORDER: bonus cards included)."""

    def has_turn(rnd: state_mod.RoundState, seat: int) -> bool:
        p = rnd.seats[seat]
        return any(not _IS_BONUS[c] for c in p.hand) or p.skip_credits > 0

    return _advance_when(has_turn)


def _must_match_ignores_stacks() -> list[Patch]:
    """Under must_match_if_possible a locked stack is not a match: a player whose only match is a
    stack may discard (R-FREE-PLAY: a stack included)."""

    def matching(self: state_mod.RoundState, seat: int) -> bool:
        return any(self.table[_MONTH[c]] and _MONTH[c] not in self.stack_owner for c in self.seats[seat].hand if not _IS_BONUS[c])

    return [(legal_mod, "matching", matching)]


def _must_match_forbids_skip() -> list[Patch]:
    """Under must_match_if_possible a skip credit cannot be spent while a card matches
    (R-FREE-PLAY: spending a skip credit remains allowed)."""
    original_legal = legal_mod.legal_actions
    original_check = legal_mod.check_skip

    def bound(self: state_mod.RoundState) -> bool:
        return self.decision == state_mod.TURN and self.o.must_match_if_possible and legal_mod.matching(self, self.to_act)

    def legal_actions(self: state_mod.RoundState) -> list[Action]:
        out = original_legal(self)
        return [a for a in out if a.type != "skip"] if bound(self) else out

    def check_skip(self: state_mod.RoundState) -> None:
        original_check(self)
        if bound(self):
            raise Rejection("must_match", "a card matches the table: it must be played")

    return [(legal_mod, "legal_actions", legal_actions), (legal_mod, "check_skip", check_skip)]


# ------------------------------------------------------------------ the two-match choice


def _equivalence(same: Any) -> list[Patch]:
    """Another test of which two table cards need no choice, wherever the engine asks it."""
    return [(legal_mod, "equivalent", same), (actions_mod, "equivalent", same), (turns_mod, "equivalent", same)]


def _junk_units_ignored() -> list[Patch]:
    """Two junk cards of a month are interchangeable whatever their units: the double junk is
    taken without asking (R-TWO-MATCH-CHOICE: candidates differing in units are offered)."""

    def kind(c: int) -> tuple[str, tuple[str, ...]]:
        card = _CARDS[c]
        return ("junk" if card.is_junk else card.kind, tuple(card.roles))

    return _equivalence(lambda a, b: kind(a) == kind(b))


def _flip_never_asks() -> list[Patch]:
    """The flipped card meeting two table cards takes the first without asking (R-TWO-MATCH-CHOICE:
    the actor chooses for the flipped card too)."""
    return [(turns_mod, "equivalent", lambda a, b: True)]


def _flip_choice_pending(rnd: state_mod.RoundState, ctx: Any) -> bool:
    """Whether the flipped card, resolved alone, still waits for the actor's choice."""
    if ctx.flip is None or ctx.flip_take is not None:
        return False
    fm = _MONTH[ctx.flip]
    on = rnd.table[fm]
    return fm != ctx.month and len(on) == 2 and fm not in rnd.stack_owner and not cards_mod.equivalent(on[0], on[1])


def _after_flip_rewrite(ask_first: Any) -> list[Patch]:
    """Patch Round._resolve under after_flip: `ask_first(round, ctx)` names a choice to request
    before the reference order would (CHOOSE_HAND or CHOOSE_FLIP), or None."""
    original = turns_mod.resolve

    def resolve(self: state_mod.RoundState, ctx: Any) -> None:
        if self.o.two_match_choice_timing == "after_flip" and ctx.mode == "pair2" and ctx.hand_take is None:
            decision = ask_first(self, ctx)
            if decision is not None:
                self.decision, self.ctx = decision, ctx
                return
        original(self, ctx)

    return [(turns_mod, "resolve", resolve)]


def _flip_choice_first() -> list[Patch]:
    """after_flip: the flipped card's choice is requested before the hand card's."""
    return _after_flip_rewrite(lambda rnd, ctx: state_mod.CHOOSE_FLIP if _flip_choice_pending(rnd, ctx) else None)


def _asks_before_ttadak() -> list[Patch]:
    """after_flip: the hand card's choice is requested even when the flip makes a ttadak."""
    return _after_flip_rewrite(lambda rnd, ctx: state_mod.CHOOSE_HAND if ctx.flip is not None and _MONTH[ctx.flip] == ctx.month else None)


# ------------------------------------------------------------------ bonus cards


def _flipped_bonus_ends_flip() -> list[Patch]:
    """A flipped bonus card is taken and nothing more is turned: the turn has no flipped card
    (R-BONUS-FLIP: the next stock card is turned, until one has a month)."""

    def flip(self: state_mod.RoundState, ctx: Any) -> None:
        if self.stock:
            c = self.stock.pop()
            if _IS_BONUS[c]:
                ctx.flip_bonus = (*ctx.flip_bonus, c)
                state_mod.emit(self, "bonus", ctx.actor, (c,), ("R-BONUS-FLIP", "R-BONUS-STEAL"), {"source": "flip"})
                if self.o.bonus_steal:
                    self.pending_steals.append(("bonus", self.o.bonus_steal, state_mod.others(self, ctx.actor)))
            else:
                ctx.flip = c
                state_mod.emit(self, "flip", ctx.actor, (c,), ("R-FLIP",))
        me = self.seats[ctx.actor]
        ctx.actor_last = not (me.hand or me.skip_credits > 0)
        ctx.round_last = not self.stock or (ctx.actor_last and not any(p.hand or p.skip_credits > 0 for p in self.seats))

    return [(turns_mod, "flip", flip)]


def _bonus_without_replacement() -> list[Patch]:
    """A bonus card played from the hand is captured but no replacement is drawn."""

    def bonus(self: state_mod.RoundState, c: int) -> None:
        seat = self.to_act
        self.seats[seat].hand.remove(c)
        state_mod.gain(self, seat, [c])
        self.turn_bonus.append(c)
        self.forced_card = None
        if self.o.bonus_steal:
            self.pending_steals.append(("bonus", self.o.bonus_steal, state_mod.others(self, seat)))
        state_mod.emit(self, "bonus", seat, (c,), ("R-BONUS-HAND", "R-BONUS-STEAL"), {"source": "hand", "replacement": []})

    return [(actions_mod, "bonus", bonus)]


def _bonus_is_hand_action() -> list[Patch]:
    """Playing a bonus card from the hand is the turn's hand action: after the replacement the
    stock card is flipped and the turn ends (R-BONUS-HAND: the turn continues)."""
    original = actions_mod.bonus

    def bonus(self: state_mod.RoundState, c: int) -> None:
        original(self, c)
        turns_mod.begin_turn_action(self)
        ctx = state_mod._Turn(self.to_act, "skip")
        turns_mod.flip(self, ctx)
        turns_mod.resolve(self, ctx)

    return [(actions_mod, "bonus", bonus)]


def _bonus_hand_may_skip() -> list[Patch]:
    """A skip credit may be spent by a player holding only bonus cards (R-BONUS-HAND: one must be
    played first, even with a skip credit)."""
    original_legal = legal_mod.legal_actions

    def legal_actions(self: state_mod.RoundState) -> list[Action]:
        out = original_legal(self)
        p = self.seats[self.to_act]
        only_bonus = bool(p.hand) and all(_IS_BONUS[c] for c in p.hand)
        if self.decision == state_mod.TURN and self.forced_card is None and p.skip_credits > 0 and only_bonus:
            out.append(Action(type="skip", player=self.to_act))
        return out

    def check_skip(self: state_mod.RoundState) -> None:
        legal_mod.check_forced(self, None)
        if self.seats[self.to_act].skip_credits <= 0:
            raise Rejection("no_skip_credit", f"seat {self.to_act} holds no skip credit")

    return [(legal_mod, "legal_actions", legal_actions), (legal_mod, "check_skip", check_skip)]


def _bonus_steal_once_per_turn() -> list[Patch]:
    """Several bonus cards in one turn grant a single bonus-card steal (R-BONUS-STEAL: one each)."""
    original = steals_mod.perform_steals

    def perform(self: state_mod.RoundState, actor: int, final: bool) -> None:
        kept: list[tuple[str, int, tuple[int, ...]]] = []
        for r in self.pending_steals:
            if r[0] != "bonus" or all(k[0] != "bonus" for k in kept):
                kept.append(r)
        self.pending_steals = kept
        original(self, actor, final)

    return [(steals_mod, "perform_steals", perform)]


# ------------------------------------------------------------------ stack capture


def _stack_bonus_left_behind() -> list[Patch]:
    """The capturer of a stack takes its four cards only: bonus cards buried in it are lost
    (R-STACK-CAPTURE: they go to the capturer with the stack)."""
    original = turns_mod.capture_stack

    def capture(self: state_mod.RoundState, ctx: Any, month: int, extra: int) -> None:
        self.stack_bonus.pop(month, None)
        original(self, ctx, month, extra)

    return [(turns_mod, "capture_stack", capture)]


def _flip_stack_capture_no_steal() -> list[Patch]:
    """Only the hand card's stack capture steals: a flipped fourth card takes the stack for free
    (R-STACK-CAPTURE: both are treated alike)."""
    original = turns_mod.capture_stack

    def capture(self: state_mod.RoundState, ctx: Any, month: int, extra: int) -> None:
        before = len(self.pending_steals)
        original(self, ctx, month, extra)
        if extra == ctx.flip:
            self.pending_steals = self.pending_steals[:before] + [r for r in self.pending_steals[before:] if r[0] != "stack_capture"]

    return [(turns_mod, "capture_stack", capture)]


MUTANTS: Final[tuple[Mutant, ...]] = (
    Mutant("shuffle-sattolo", "deal", "R-SHUFFLE", "the shuffle draws j = next() mod i, so no card keeps its place", _sattolo_shuffle),
    Mutant(
        "deal-hands-from-dealer",
        "deal",
        "R-DEAL-ORDER",
        "each hands packet is dealt to the dealer first instead of last",
        lambda: _packet_deal(from_dealer=True),
    ),
    Mutant(
        "deal-hands-one-at-a-time",
        "deal",
        "R-DEAL-ORDER",
        "a hands packet of N is dealt one card to each player at a time, N rounds",
        lambda: _packet_deal(one_at_a_time=True),
    ),
    Mutant("deal-stock-reversed", "deal", "R-DEAL-ORDER", "the stock is drawn from the end the deal stopped short of", _stock_reversed),
    Mutant(
        "first-dealer-draw-with-bonus-cards",
        "deal",
        "R-FIRST-DEALER",
        "the first-dealer draw shuffles the bonus cards in too",
        _draw_with_bonus_cards,
    ),
    Mutant(
        "deal-bonus-to-first-player",
        "deal",
        "R-DEAL-BONUS",
        "a bonus card dealt to the table goes to the first player, not the dealer",
        lambda: _lay_table_to(lambda rnd: rnd.to_act),
    ),
    Mutant(
        "deal-checks-before-bonus-replacement",
        "deal",
        "R-DEAL-BONUS",
        "the table-four and triple checks ignore the cards that replaced table bonus cards",
        _checks_before_replacement,
    ),
    Mutant("deal-bonus-steals", "deal", "R-DEAL-BONUS", "the dealer's table bonus cards take the bonus-card steal", _deal_bonus_steals),
    Mutant(
        "turn-order-reversed",
        "deal",
        "R-TURN-ORDER",
        "the player after seat s is s - 1, for turns and the non-dealer first player",
        _counter_order_reversed,
    ),
    Mutant(
        "bonus-only-hand-passed-over",
        "deal",
        "R-TURN-ORDER",
        "a player holding only bonus cards is passed over",
        _bonus_only_hand_passed_over,
    ),
    Mutant(
        "must-match-ignores-stacks",
        "turn",
        "R-FREE-PLAY",
        "under must_match_if_possible a stack is not a match",
        _must_match_ignores_stacks,
    ),
    Mutant(
        "must-match-forbids-skip",
        "turn",
        "R-FREE-PLAY",
        "under must_match_if_possible a skip credit cannot be spent while a card matches",
        _must_match_forbids_skip,
    ),
    Mutant(
        "two-match-junk-units-ignored",
        "turn",
        "R-TWO-MATCH-CHOICE",
        "a junk and a double junk of one month are taken without asking",
        _junk_units_ignored,
    ),
    Mutant(
        "flip-two-match-no-choice",
        "turn",
        "R-TWO-MATCH-CHOICE",
        "a flipped card meeting two different table cards takes one without asking",
        _flip_never_asks,
    ),
    Mutant(
        "after-flip-flip-choice-first",
        "turn",
        "R-TWO-MATCH-CHOICE",
        "under after_flip the flipped card's choice is asked before the hand card's",
        _flip_choice_first,
    ),
    Mutant(
        "after-flip-asks-before-ttadak",
        "turn",
        "R-TWO-MATCH-CHOICE",
        "under after_flip the hand card's choice is asked even when the flip makes a ttadak",
        _asks_before_ttadak,
    ),
    Mutant(
        "flip-stack-capture-no-steal",
        "turn",
        "R-STACK-CAPTURE",
        "a stack taken by a flipped card grants no stack-capture steal",
        _flip_stack_capture_no_steal,
    ),
    Mutant(
        "stack-bonus-left-behind",
        "turn",
        "R-STACK-CAPTURE",
        "bonus cards buried in a stack are not taken by its capturer",
        _stack_bonus_left_behind,
    ),
    Mutant(
        "bonus-flip-no-reflip",
        "bonus",
        "R-BONUS-FLIP",
        "a flipped bonus card is taken and no further card is flipped",
        _flipped_bonus_ends_flip,
    ),
    Mutant(
        "bonus-hand-no-replacement",
        "bonus",
        "R-BONUS-HAND",
        "a bonus card played from the hand draws no replacement",
        _bonus_without_replacement,
    ),
    Mutant(
        "bonus-hand-is-hand-action",
        "bonus",
        "R-BONUS-HAND",
        "playing a bonus card from the hand is the turn's hand action: the flip follows",
        _bonus_is_hand_action,
    ),
    Mutant(
        "bonus-only-hand-may-skip",
        "bonus",
        "R-BONUS-HAND",
        "a player holding only bonus cards may spend a skip credit",
        _bonus_hand_may_skip,
    ),
    Mutant(
        "bonus-replacement-use-swapped",
        "bonus",
        "R-BONUS-HAND",
        "bonus_replacement_use plays as its other value",
        _options(lambda o: {"bonus_replacement_use": "to_hand" if o.bonus_replacement_use != "to_hand" else "must_play_replacement"}),
    ),
    Mutant(
        "bonus-joins-ppeok-swapped",
        "bonus",
        "R-BONUS-PPEOK",
        "bonus_joins_ppeok plays as its other value",
        _options(
            lambda o: {"bonus_joins_ppeok": "all_bonus_this_turn" if o.bonus_joins_ppeok == "flipped_this_turn" else "flipped_this_turn"}
        ),
    ),
    Mutant(
        "bonus-steal-once-per-turn",
        "bonus",
        "R-BONUS-STEAL",
        "several bonus cards in one turn grant a single bonus-card steal",
        _bonus_steal_once_per_turn,
    ),
)
