"""Semantic mutants of the reference engine: each one breaks one rule the way a real engine might,
so that `gostop-conformance mutants` can measure how many of them the scenario corpus catches.

A mutant is applied in process (a context manager patches the engine) or for a whole stdio
server (`gostop-reference --stdio --mutant NAME`). The engine's own code carries no mutant flags.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

import reference_impl._deal as deal_mod
import reference_impl._round as round_mod
import reference_impl._scoring as scoring_mod
import reference_impl._settlement as settlement_mod
from reference_impl._build import engine_build
from reference_impl._events import Action
from spec import InputError, Options, Ruleset

Patch = tuple[Any, str, Any]

_CARDS = round_mod._CARDS


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


def _wrap_request(rewrite: Callable[[round_mod.Round, str, int, int, tuple[int, ...] | None], tuple[int, ...] | None]) -> list[Patch]:
    """Patch Round._request: `rewrite` returns the payers to use, or None to drop the request."""
    original = round_mod.Round._request

    def request(self: round_mod.Round, k: str, units: int, actor: int, payers: tuple[int, ...] | None = None) -> None:
        new = rewrite(self, k, units, actor, payers)
        if new is not None:
            original(self, k, units, actor, new)

    return [(round_mod.Round, "_request", request)]


def _drop_steal(kind: str) -> Callable[[], list[Patch]]:
    return lambda: _wrap_request(lambda rnd, k, units, actor, payers: None if k == kind else (payers or tuple(rnd._others(actor))))


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
        return original(s._replace(shaken=(), shake_factors=()), o)

    return [(settlement_mod, "_own_shake_bomb_factor", own)]


def _other_packet_order() -> list[Patch]:
    original = deal_mod.seeded_deal

    def seeded_deal(options: Options, rng: Any, dealer: int) -> Any:
        order = "family" if options.deal_packet_order != "family" else "wp"
        return original(dataclasses.replace(options, deal_packet_order=order), rng, dealer)

    return [(deal_mod, "seeded_deal", seeded_deal)]


def _swallow_godori() -> list[Patch]:
    return [(scoring_mod, "_GODORI", (1 << 4) | (1 << 12) | (1 << 45))]


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

    return [(round_mod, "choose_surrender", choose)]


def _no_pc_sets() -> list[Patch]:
    def pc_sets(pile: Any, o: Options) -> list[tuple[str, int]]:
        return []

    return [(settlement_mod, "pc_sets", pc_sets)]


def _go_without_rise() -> list[Patch]:
    def eligible(self: round_mod.Round, seat: int, base: int) -> bool:
        return base >= self.o.go_threshold

    return [(round_mod.Round, "_go_eligible", eligible)]


def _ttadak_from_two_pairs() -> list[Patch]:
    """Counts a hand pair plus a different flip pair as a ttadak (a classic engine bug)."""
    original = round_mod.Round._finish

    def finish(self: round_mod.Round, ctx: Any) -> None:
        pairs = len(ctx.captures) == 4 and ctx.mode == "pair" and ctx.flip is not None and not ctx.made_ttadak
        if pairs and round_mod.MONTH[ctx.flip] != ctx.month:
            self._request("ttadak", self.o.ttadak_steal, ctx.actor)
        original(self, ctx)

    return [(round_mod.Round, "_finish", finish)]


def _counted_as_ppeok(made: Callable[[Any], bool]) -> Callable[[], list[Patch]]:
    """One counter for several events that bring cards of a month together (a real Python Matgo
    engine counted its ttadaks with its ppeoks): a turn for which `made(turn)` holds counts toward
    three ppeoks, and can be the third."""

    def patches() -> list[Patch]:
        original = round_mod.Round._finish

        def finish(self: round_mod.Round, ctx: Any) -> None:
            if made(ctx):
                self.ppeoks[ctx.actor] += 1
                # the engine's instant-win check runs on its counter after any of those events
                ctx.made_ppeok = ctx.made_ppeok or self.ppeoks[ctx.actor] == 3
            original(self, ctx)

        return [(round_mod.Round, "_finish", finish)]

    return patches


def _made_jjok(ctx: Any) -> bool:
    return bool(ctx.mode == "discard" and ctx.flip is not None and round_mod.MONTH[ctx.flip] == ctx.month)


def _shake_automatic() -> list[Patch]:
    """Playing a card of a held triple onto a table without its month always shakes that month (a
    real TypeScript engine did this): the player's choice not to shake is lost. Round.apply is
    patched because the handlers themselves are dispatched from a table built at import."""
    original = round_mod.Round.apply

    def apply(self: round_mod.Round, a: Any) -> Any:
        seat = self.to_act
        c = round_mod.INDEX_OF.get(a.card or "")
        if a.type == "play" and self.decision == round_mod.TURN and not a.shake and c is not None and c in self.hands[seat]:
            month = round_mod.MONTH[c]
            # only a legal play shakes: a refused one must leave the round unchanged
            if month and not self.table[month] and month in self._shake_months(seat) and a in self.legal_actions():
                if self.o.shake_declaration == "with_triple_card_play":
                    a = a._replace(shake=True)
                else:
                    self._do_shake(seat, month)
        return original(self, a)

    return [(round_mod.Round, "apply", apply)]


def _bomb_automatic() -> list[Patch]:
    """Playing one of three held cards onto the fourth card on the table always bombs: the same
    lost choice as shake-automatic, for the other declaration."""
    original = round_mod.Round.apply

    def apply(self: round_mod.Round, a: Any) -> Any:
        seat = self.to_act
        c = round_mod.INDEX_OF.get(a.card or "")
        if a.type == "play" and self.decision == round_mod.TURN and c is not None and c in self.hands[seat]:
            month = round_mod.MONTH[c]
            held = self._month_counts(seat)[month]
            # only a legal play bombs: a refused one must leave the round unchanged
            if month and held == 3 and month in self._bomb_months(seat) and a in self.legal_actions():
                a = Action("bomb", seat, month=month)
        return original(self, a)

    return [(round_mod.Round, "apply", apply)]


def _steal_debt() -> list[Patch]:
    """A giver who could not surrender every unit asked owes the rest, paid on the next steal."""
    original = round_mod.Round._surrender
    debts: weakref.WeakKeyDictionary[round_mod.Round, dict[tuple[int, int], int]] = weakref.WeakKeyDictionary()

    def surrender(self: round_mod.Round, giver: int, taker: int, units: int, why: tuple[str, ...] = ()) -> None:
        owed_by = debts.setdefault(self, {})
        owed = units + owed_by.pop((giver, taker), 0)
        before = list(self.captured[giver])
        original(self, giver, taker, owed, why)
        given = [c for c in before if c not in self.captured[giver]]
        got = sum(_CARDS[c].units if _CARDS[c].is_junk else 2 for c in given)
        if got < owed:
            owed_by[(giver, taker)] = owed - got

    return [(round_mod.Round, "_surrender", surrender)]


def _bonus_never_surrendered() -> list[Patch]:
    """Captured bonus cards are kept out of every steal, as if they were no junk."""
    original = round_mod.choose_surrender

    def choose(eligible: list[int], unit_of: dict[int, int], request: int, selection: str) -> list[int]:
        return original([c for c in eligible if not round_mod.IS_BONUS[c]], unit_of, request, selection)

    return [(round_mod, "choose_surrender", choose)]


def _ppeok_uncounted_when_captured() -> list[Patch]:
    """The ppeok count is the stacks a player still owns: a captured ppeok no longer counts."""
    original = round_mod.Round._capture_stack

    def capture(self: round_mod.Round, ctx: Any, month: int, extra: int) -> None:
        owner = self.stack_owner.get(month)
        original(self, ctx, month, extra)
        if owner is not None:
            self.ppeoks[owner] -= 1

    return [(round_mod.Round, "_capture_stack", capture)]


_INSTANT_WINS: Final = ("chongtong", "three_ppeok", "dealer_wins_fixed")


def _instant_win_repaid(pay: Callable[[round_mod.Round, Any, int, int], int]) -> list[Patch]:
    """Patch Round._end: `pay(round, settlement, payer, amount)` is what each opponent pays
    instead of `amount` for an instant win (an engine that runs every win through the factors
    of a Stop)."""
    original = round_mod.Round._end

    def end(self: round_mod.Round, s: Any) -> None:
        if s.kind in _INSTANT_WINS and s.winner is not None:
            payments = tuple((payer, to, pay(self, s, payer, amount)) for payer, to, amount in s.payments)
            net = [0] * self.n
            for payer, to, amount in payments:
                net[payer] -= amount
                net[to] += amount
            s = s._replace(net=tuple(net), payments=payments)
        original(self, s)

    return [(round_mod.Round, "_end", end)]


def _instant_win_shake_factor() -> list[Patch]:
    return _instant_win_repaid(lambda rnd, s, payer, amount: amount * settlement_mod._own_shake_bomb_factor(rnd._seats()[s.winner], rnd.o))


def _instant_win_go_bak() -> list[Patch]:
    return _instant_win_repaid(lambda rnd, s, payer, amount: amount * 2 if rnd.gos[payer] else amount)


def _instant_win_go_points() -> list[Patch]:
    def pay(rnd: round_mod.Round, s: Any, payer: int, amount: int) -> int:
        gos = rnd.gos[s.winner]
        carry: int = s.carry
        return (amount + settlement_mod.go_points(gos, rnd.o) * carry) * settlement_mod.go_multiplier(gos, rnd.o)

    return _instant_win_repaid(pay)


def _go_last_ignores_credits() -> list[Patch]:
    """Whether the actor has a later turn is judged by the hand alone: a bomber whose hand is
    empty but who still holds a skip credit is forced to stop."""

    def forced(self: round_mod.Round, seat: int) -> bool:
        return self.o.go_on_last_turn == "forced_stop" and (not self.hands[seat] or not self.stock)

    return [(round_mod.Round, "_go_forced_stop", forced)]


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
)

BY_NAME: dict[str, Mutant] = {m.name: m for m in MUTANTS}


def _patchable() -> None:
    """Mutants replace the engine's functions at run time, which compiled code never looks up."""
    if engine_build() == "compiled":
        raise InputError(
            "mutants",
            "semantic mutants patch the interpreted engine, and this one is compiled with mypyc (make compiled): "
            "run them from the source tree instead",
        )


@contextmanager
def applied(name: str) -> Iterator[Mutant]:
    """Patch the engine with one mutant for the duration of the block."""
    _patchable()
    mutant = BY_NAME[name]
    saved: list[Patch] = []
    try:
        for obj, attr, new in mutant.patches():
            saved.append((obj, attr, getattr(obj, attr)))
            setattr(obj, attr, new)
        yield mutant
    finally:
        for obj, attr, old in reversed(saved):
            setattr(obj, attr, old)


def apply_for_process(name: str) -> Mutant:
    """Patch the engine for the rest of the process (the stdio server's --mutant)."""
    _patchable()
    mutant = BY_NAME[name]
    for obj, attr, new in mutant.patches():
        setattr(obj, attr, new)
    return mutant
