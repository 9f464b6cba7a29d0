"""The turn behind an `act` reply whose action plays it (play, bomb, skip, and the take that resumes
it): the hand action and the draw (R-TURN, R-FLIP), the resolution of the hand card and the flip
(R-MATCH), and the turn's end (R-SWEEP, R-FIRST-TURN-AWARD, R-THREE-PPEOK, R-FINAL-TURN, R-STEAL,
R-GO-WHEN, R-ROUND-END), as `_derive` reports them. `TurnEvents` also reads the states for
`_derive`'s other action types."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gostop_conformance.kit._cards import card, equivalent, is_bonus, month, sort_ids
from gostop_conformance.kit._derive_deal import Json, by_month, junk_units_of, make_event, minus, round_end

_PAUSED: Final = frozenset({"choose_hand_match", "choose_flip_match"})
#: the actions that play the turn's hand card (or a skip credit) and flip: they start a turn's resolution
HAND_ACTIONS: Final = frozenset({"play", "bomb", "skip"})
#: the reference engine's wording of the pair captured when ppeok is off (the capture event's `note`)
_NO_PPEOK_NOTE: Final = "flip of the paired month stays on the table"

#: a steal owed at the end of the turn: why (a final_turn_exempt value, `bomb` or `bonus`), the
#: junk units, and the seats that owe them (R-EVENTS-STACK sums them per seat)
_Request = tuple[str, int, tuple[int, ...]]


@dataclass
class _Turn:
    """A turn in progress, as R-MATCH resolves it. `mode` says what the hand action met: discard
    (no card of its month on the table), pair, pair2 (two), stack, bomb or skip."""

    actor: int
    mode: str
    month: int = 0
    hand: str | None = None
    pair: tuple[str, ...] = ()
    hand_take: str | None = None
    flip: str | None = None
    flip_take: str | None = None
    flip_bonus: list[str] = field(default_factory=list)
    captures: list[str] = field(default_factory=list)
    requests: list[_Request] = field(default_factory=list)
    start: list[str] = field(default_factory=list)  # the table when the hand action began (R-SWEEP two_cards_cleared)
    made_ppeok: bool = False
    made_ttadak: bool = False


@dataclass(frozen=True)
class _History:
    """What the round's earlier acts tell about the turn in progress."""

    bonus_cards: tuple[str, ...]  # played from the hand this turn before its hand action, in order
    hand_act: Json | None  # for a take: the turn's play, bomb or skip act
    takes: tuple[str, ...]  # for a take: the cards of the takes answered since that act


def _history(earlier: Sequence[Json], action: Json) -> _History:
    hands = [i for i, act in enumerate(earlier) if act["action"]["type"] in HAND_ACTIONS]
    if action["type"] == "take" and hands:
        here, start = hands[-1], (hands[-2] + 1 if len(hands) > 1 else 0)
        hand_act: Json | None = earlier[here]
        takes = tuple(act["action"]["card"] for act in earlier[here + 1 :] if act["action"]["type"] == "take")
    else:
        here, start, hand_act, takes = len(earlier), (hands[-1] + 1 if hands else 0), None, ()
    bonus = tuple(act["action"]["card"] for act in earlier[start:here] if act["action"]["type"] == "bonus")
    return _History(bonus, hand_act, takes)


class _Board:
    """The table as the turn changes it: cards by month (a stack's three included), each stack's
    owner and buried bonus cards (R-STACK-CAPTURE, R-BONUS-PPEOK)."""

    def __init__(self, state: Json) -> None:
        self.table = by_month(state.get("table", ()))
        self.owner: dict[int, int | None] = {}
        self.buried: dict[int, list[str]] = {}
        for s in state.get("stacks", ()):
            self.owner[int(s["month"])] = s.get("owner")
            self.buried[int(s["month"])] = list(s.get("bonus", ()))

    def on(self, m: int) -> list[str]:
        return self.table.setdefault(m, [])

    def cards(self) -> list[str]:
        return [c for cs in self.table.values() for c in cs] + [b for bs in self.buried.values() for b in bs]


class TurnEvents:
    """One act's events, collected in `out`; `turn` derives those of an action that plays the turn."""

    def __init__(
        self,
        before: Json,
        after: Json,
        action: Json,
        options: Json,
        scores: Sequence[Json] | None,
        settlement: Json | None,
        legal: Sequence[Json] | None,
        earlier: Sequence[Json] | None,
    ) -> None:
        self.before, self.after, self.action, self.o = before, after, action, options
        self.scores, self.settlement, self.legal = scores, settlement, legal
        self.history = None if earlier is None else _history(earlier, action)
        self.actor: int = action["player"]
        self.n = len(before["hands"])
        self.board = _Board(before)
        self.out: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ reading the states

    def seat_value(self, state: Json, seat: int, key: str, default: Any = 0) -> Any:
        players = state.get("players") or ()
        return players[seat].get(key, default) if seat < len(players) else default

    def _has_turn(self, seat: int) -> bool:
        """R-BOMB-SKIP: a hand card (a bonus card too) or a skip credit is a turn to come."""
        return bool(self.after["hands"][seat]) or self.seat_value(self.after, seat, "skip_credits") > 0

    def _others(self) -> tuple[int, ...]:
        """R-TURN-ORDER: the other seats in turn order from the actor."""
        return tuple((self.actor + k) % self.n for k in range(1, self.n))

    def hand_of(self, m: int) -> list[str]:
        return [c for c in sort_ids(self.before["hands"][self.actor]) if month(c) == m]

    def _round_last(self) -> bool:
        """R-FINAL-TURN, R-FINAL-PPEOK: the stock is empty after the flip, or nobody has a turn to
        come. The hands, credits and stock after the action are those after the flip: nothing
        later in a turn changes them."""
        return not self.after["stock"] or not any(self._has_turn(s) for s in range(self.n))

    def _final(self) -> bool:
        """R-FINAL-TURN: the round's last turn, or under each_player_last_hand_card the actor's."""
        last = self._round_last()
        return last if self.o["final_turn_scope"] == "round_final_turn" else last or not self._has_turn(self.actor)

    def base(self) -> int:
        if self.scores is None:
            raise ValueError(f"a {self.action['type']!r} reply reports the base score: pass the score reply's scores (scores=...)")
        return int(self.scores[self.actor]["base"])

    def _observed_take(self, candidates: Sequence[str]) -> str:
        """Which of two table cards a choice took, when no earlier act says: the one gone from the table."""
        table = set(self.after.get("table", ()))
        return next((c for c in sort_ids(candidates) if c not in table), sort_ids(candidates)[0])

    # ------------------------------------------------------------------ the action types

    def turn(self) -> None:
        ctx = self._resume() if self.action["type"] == "take" else self._begin()
        if self.after.get("decision") in _PAUSED:  # R-TWO-MATCH-CHOICE: the reply ends here, the take resumes
            return
        self._resolve(ctx)
        self._finish(ctx)

    # ------------------------------------------------------------------ the hand action and the flip

    def _request(self, ctx: _Turn, why: str, units: int, payers: tuple[int, ...] | None = None) -> None:
        if units > 0:
            ctx.requests.append((why, units, payers if payers is not None else self._others()))

    def _stack_request(self, ctx: _Turn, owner: int | None) -> None:
        """R-STACK-CAPTURE, R-PPEOK-CAPTURE, R-STEAL-PAYERS: a dealt triple, an own ppeok or
        another's, each with its option; another's may be paid by its creator alone."""
        o = self.o
        if owner is None:
            self._request(ctx, "stack_capture", o["table_triple_capture_steal"])
        elif owner == self.actor:
            self._request(ctx, "stack_capture", o["own_ppeok_capture_steal"])
        else:
            payers = (owner,) if o["ppeok_steal_payers"] == "creator_only" else None
            self._request(ctx, "stack_capture", o["ppeok_capture_steal"], payers)

    def _bomb_request(self, ctx: _Turn, played: int) -> None:
        """R-BOMB, R-BOMB-TWO: a two-card bomb steals nothing under capture_only."""
        two_only = played == 2 and self.o["two_card_bomb"] == "capture_only"
        self._request(ctx, "bomb", 0 if two_only else self.o["bomb_steal"])

    def _capture_stack(self, ctx: _Turn, m: int, fourth: str) -> None:
        """R-STACK-CAPTURE: the fourth card takes the stack's three and its buried bonus cards."""
        board = self.board
        owner = board.owner.pop(m)
        cards = sort_ids([*board.table.pop(m, []), *board.buried.pop(m, []), fourth])
        ctx.captures += cards
        self.out.append(make_event("stack_capture", self.actor, cards, month=m, owner=owner))
        self._stack_request(ctx, owner)

    def _begin(self) -> _Turn:
        """R-TURN, R-MATCH, R-BOMB, R-BOMB-SKIP: the hand action (with a shake declared with it,
        R-SHAKE), a stack its card takes at once, then the draw."""
        a, actor, board = self.action, self.actor, self.board
        ctx = _Turn(actor, a["type"], start=board.cards())
        for _ in self.history.bonus_cards if self.history else ():  # R-BONUS-STEAL, for each played this turn
            self._request(ctx, "bonus", self.o["bonus_steal"])
        if a["type"] == "play":
            c = a["card"]
            ctx.hand, ctx.month = c, month(c)
            if a.get("shake"):
                self.out.append(make_event("shake", actor, self.hand_of(ctx.month), month=ctx.month))
            self.out.append(make_event("play", actor, [c]))
            on = board.on(ctx.month)
            if ctx.month in board.owner:
                ctx.mode = "stack"
                self._capture_stack(ctx, ctx.month, c)
            elif not on:
                ctx.mode = "discard"
                on.append(c)
            elif len(on) == 1:
                ctx.mode, ctx.pair = "pair", (on[0],)
            else:  # R-TWO-MATCH-CHOICE: between equivalent cards the lower index, whatever was named
                ctx.mode, ctx.pair = "pair2", tuple(on)
                ctx.hand_take = on[0] if equivalent(on[0], on[1]) else a.get("take")
        elif a["type"] == "bomb":
            m = a["month"]
            played = self.hand_of(m)
            ctx.captures = sort_ids(played + board.table.pop(m, []))
            self._bomb_request(ctx, len(played))
            granted = self.seat_value(self.after, actor, "skip_credits") - self.seat_value(self.before, actor, "skip_credits")
            self.out.append(make_event("bomb", actor, played, month=m, skip_credits=granted))
        else:
            self.out.append(make_event("skip", actor, skip_credits=self.seat_value(self.after, actor, "skip_credits")))
        for c in self.before["stock"]:  # R-FLIP, R-BONUS-FLIP: until an ordinary card comes
            if not is_bonus(c):
                ctx.flip = c
                self.out.append(make_event("flip", actor, [c]))
                break
            ctx.flip_bonus.append(c)
            self.out.append(make_event("bonus", actor, [c], source="flip"))
            self._request(ctx, "bonus", self.o["bonus_steal"])
        return ctx

    def _resume(self) -> _Turn:
        """The turn a take resumes (R-TWO-MATCH-CHOICE), rebuilt from the cards in play and the
        turn's earlier acts."""
        hist = self.history
        if hist is None or hist.hand_act is None:
            return self._resume_unknown()
        a, before, board = self.action, self.before, self.board
        act, events = hist.hand_act["action"], hist.hand_act["events"]
        ctx = _Turn(self.actor, act["type"], start=board.cards())
        for _ in hist.bonus_cards:
            self._request(ctx, "bonus", self.o["bonus_steal"])
        for e in events:  # the hand action's requests, in the order it made them
            if e["kind"] == "flip":
                ctx.flip = e["cards"][0]
            elif e["kind"] == "bonus":
                ctx.flip_bonus.append(e["cards"][0])
                self._request(ctx, "bonus", self.o["bonus_steal"])
            elif e["kind"] == "stack_capture":
                ctx.mode, ctx.captures = "stack", list(e["cards"])
                self._stack_request(ctx, e["owner"])
                ctx.start += minus(e["cards"], [act["card"], *(c for c in e["cards"] if is_bonus(c))])
            elif e["kind"] == "bomb":
                self._bomb_request(ctx, len(e["cards"]))
        if act["type"] == "bomb":  # what is in play besides the draw: the bomb's cards and the table's
            ctx.captures = minus(before.get("in_play", ()), [*ctx.flip_bonus, *([ctx.flip] if ctx.flip else [])])
            ctx.start += minus(ctx.captures, [c for e in events if e["kind"] == "bomb" for c in e["cards"]])
        if act["type"] == "play" and ctx.mode != "stack":
            c = act["card"]
            ctx.hand, ctx.month = c, month(c)
            on = board.on(ctx.month)
            if c in on:  # discarded onto the table before the pause
                ctx.mode = "discard"
                ctx.start.remove(c)
            elif not on:  # discarded, and reported in play rather than on the table (in_play allows either)
                ctx.mode = "discard"
            elif len(on) == 1:
                ctx.mode, ctx.pair = "pair", (on[0],)
            else:
                ctx.mode, ctx.pair = "pair2", tuple(on)
                if equivalent(on[0], on[1]):
                    ctx.hand_take = on[0]
                elif before["decision"] == "choose_hand_match":
                    ctx.hand_take = a["card"]
                else:  # named with the play (at_play) or by the take before this one (after_flip)
                    ctx.hand_take = act.get("take") or (hist.takes[0] if hist.takes else self._observed_take(on))
        if before["decision"] == "choose_flip_match":
            ctx.flip_take = a["card"]
        return ctx

    def _resume_unknown(self) -> _Turn:
        """`_resume` without the turn's earlier acts: the cards in play tell the hand card from
        the flip by the month taken; a bomb's month is among the actor's bombs, anything else of
        several cards is a stack (owner unknown: taken as a dealt triple), every bonus card in play
        is taken as flipped, and a card discarded before the pause is not told from the table."""
        a, before, board = self.action, self.before, self.board
        in_play = list(before.get("in_play", ()))
        bonus = [c for c in in_play if is_bonus(c)]
        ordinary = [c for c in in_play if not is_bonus(c)]
        chosen = month(a["card"])
        here = next((c for c in ordinary if month(c) == chosen), None)
        if here is None:
            raise ValueError(f"a take of {a['card']} resumes a paused turn, but no card in play (in_play: {in_play}) is of month {chosen}")
        rest = [c for c in ordinary if c != here]
        ctx = _Turn(self.actor, "skip", start=board.cards(), flip_bonus=bonus)
        if before["decision"] == "choose_hand_match":
            on = board.on(chosen)
            ctx.mode, ctx.hand, ctx.month, ctx.pair, ctx.hand_take = "pair2", here, chosen, tuple(on), a["card"]
            ctx.flip = rest[0] if rest else None
        else:
            ctx.flip, ctx.flip_take = here, a["card"]
            if len(rest) == 1:
                ctx.hand, ctx.month = rest[0], month(rest[0])
                on = board.on(ctx.month)
                ctx.mode, ctx.pair = ("pair", (on[0],)) if len(on) == 1 else ("pair2", tuple(on))
                if ctx.mode == "pair2":
                    ctx.hand_take = on[0] if equivalent(on[0], on[1]) else self._observed_take(on)
            elif rest:
                ctx.captures = rest
                if month(rest[0]) in self.seat_value(before, self.actor, "bombs", []):
                    ctx.mode = "bomb"
                    self._bomb_request(ctx, 3)
                else:
                    ctx.mode = "stack"
                    self._stack_request(ctx, None)
        for _ in bonus:
            self._request(ctx, "bonus", self.o["bonus_steal"])
        return ctx

    # ------------------------------------------------------------------ the resolution

    def _resolve(self, ctx: _Turn) -> None:
        """R-MATCH: the hand card, then the flipped card (jjok R-JJOK, ppeok R-PPEOK, ttadak
        R-TTADAK, a stack the flip takes R-STACK-CAPTURE); point-count knows no jjok or ttadak
        (R-PC-PLAY)."""
        board, actor, hand = self.board, self.actor, ctx.hand
        gostop = self.o["scoring_system"] == "gostop"
        f = ctx.flip
        fm = month(f) if f is not None else -1
        hm = ctx.month if ctx.mode in ("discard", "pair", "pair2") else -2
        used = f is not None and fm == hm
        if ctx.mode == "discard" and used:
            assert f is not None and hand is not None
            board.on(hm).remove(hand)
            ctx.captures += [hand, f]
            if gostop:
                self.out.append(make_event("jjok", actor, [hand, f]))
                self._request(ctx, "jjok", self.o["jjok_steal"])
        elif ctx.mode == "pair":
            assert hand is not None
            if used:
                assert f is not None
                self._ppeok(ctx, hand, f)
            else:
                board.on(hm).remove(ctx.pair[0])
                ctx.captures += [hand, ctx.pair[0]]
        elif ctx.mode == "pair2":
            assert hand is not None
            if used:
                assert f is not None
                board.table[hm] = []
                ctx.captures += [hand, *ctx.pair, f]
                if gostop:
                    ctx.made_ttadak = True
                    self.out.append(make_event("ttadak", actor, [hand, *ctx.pair, f]))
                    self._request(ctx, "ttadak", self.o["ttadak_steal"])
            else:
                take = ctx.hand_take or self._observed_take(ctx.pair)
                board.on(hm).remove(take)
                ctx.captures += [hand, take]
        if f is None or used:
            return
        on = board.on(fm)
        if fm in board.owner:
            self._capture_stack(ctx, fm, f)
        elif not on:
            on.append(f)
        elif len(on) == 1:
            ctx.captures += [on.pop(), f]
        else:
            take = on[0] if equivalent(on[0], on[1]) else ctx.flip_take or self._observed_take(on)
            on.remove(take)
            ctx.captures += [take, f]

    def _ppeok(self, ctx: _Turn, hand: str, f: str) -> None:
        """R-PPEOK, R-FINAL-PPEOK, R-BONUS-PPEOK: the hand card paired and the flip of its month."""
        board, actor, m, pair = self.board, self.actor, ctx.month, ctx.pair[0]
        o = self.o
        three = [pair, hand, f]
        # R-THREE-PPEOK: this one included. An engine whose counter did not move (it counted the
        # month before, say) shows that in its state, which the harness compares; the event says
        # what the ppeok is, the before count and one
        made_before = self.seat_value(self.before, actor, "ppeoks")
        count = max(self.seat_value(self.after, actor, "ppeoks", made_before + 1), made_before + 1)
        if not o["ppeok_enabled"]:  # the pair is taken, the flip stays
            board.table[m] = [f]
            ctx.captures += [hand, pair]
            self.out.append(make_event("capture", actor, [hand, pair], note=_NO_PPEOK_NOTE))
        elif self._round_last() and o["final_turn_ppeok"] != "leave_stack":
            if o["final_turn_ppeok"] == "capture_three":
                board.table[m] = []
                ctx.captures += three
                ctx.made_ppeok = True
                self.out.append(make_event("ppeok", actor, three, month=m, handling="capture_three", count=count))
            else:  # capture_pair_leave_drawn: no ppeok
                board.table[m] = [f]
                ctx.captures += [hand, pair]
        else:
            # buried: the flipped bonus cards, and under all_bonus_this_turn those played from the
            # hand this turn, which leave the actor's pile
            lost = minus(self.before["captured"][actor], self.after["captured"][actor])
            played = list(self.history.bonus_cards) if self.history else []
            buried = [*ctx.flip_bonus, *(b for b in played if b in lost), *(b for b in lost if b not in played)]
            board.table[m], board.owner[m], board.buried[m] = three, actor, buried
            ctx.flip_bonus = []
            ctx.made_ppeok = True
            self.out.append(make_event("ppeok", actor, three, month=m, bonus=buried, count=count))

    def _finish(self, ctx: _Turn) -> None:
        """The end of a turn: its one capture, the sweep (R-SWEEP), first-turn awards
        (R-FIRST-TURN-AWARD), three ppeok (R-THREE-PPEOK) or the steals, then the Go/Stop offer
        (R-GO-WHEN) or the round's end (R-PC-LEFTOVER, R-ROUND-END)."""
        o, actor, board = self.o, self.actor, self.board
        taken = ctx.captures + ctx.flip_bonus
        if taken:
            self.out.append(make_event("capture", actor, sort_ids(taken)))
        if o["sweep_steal"] > 0 and ctx.captures:
            if o["sweep_definition"] == "table_empty_at_turn_end":
                swept = not any(board.table.values())
            else:  # two_cards_cleared: the table held two cards of different months, both taken
                start = ctx.start
                swept = len(start) == 2 and month(start[0]) != month(start[1]) and all(c in ctx.captures for c in start)
            if swept:
                self.out.append(make_event("sweep", actor, definition=o["sweep_definition"]))
                self._request(ctx, "sweep", o["sweep_steal"])
        # R-FIRST-TURN-AWARD, paid at once: as the state's `awards` shows it paid, never from the
        # options alone (an award nothing shows would be an event the engine may not have made)
        paid = list(self.after.get("awards") or ())[len(self.before.get("awards") or ()) :]
        for reason, made in (("first_ppeok", ctx.made_ppeok), ("first_ttadak", ctx.made_ttadak)):
            mine = [p for p in paid if p[1] == actor][: self.n - 1]
            if made and mine:
                self.out.append(make_event("award", actor, reason=reason, points=int(mine[0][2])))
                paid = [p for p in paid if p not in mine]
        # R-THREE-PPEOK as the engine played it: the round's end and its settlement say so, whatever
        # the options (an engine that played on, or won where it was told not to, is reported as it
        # played; its state and settlement then differ from the rules', which the harness judges)
        kind = self.settlement.get("kind") if self.settlement is not None and self.after.get("decision") == "none" else None
        if ctx.made_ppeok and kind == "three_ppeok":
            self.out.append(make_event("three_ppeok", actor))  # an instant win: the turn's steals are dropped
            self.out.append(round_end(self.settlement))
            return
        self._steals(ctx)
        decision = self.after.get("decision")
        if decision == "go_stop":
            self.out.append(make_event("go_stop_offered", actor, base=self.base(), stop_only=self._stop_only()))
        elif decision == "none":
            left = board.cards()
            if o["scoring_system"] == "point_count" and left:  # R-PC-LEFTOVER: to the last player
                self.out.append(make_event("leftover", actor, sort_ids(left)))
            self.out.append(round_end(self.settlement))

    def _stop_only(self) -> bool:
        """R-GO-LAST: the legal actions after the offer hold no Go; without them, forced_stop with
        no later turn for the actor or no stock left."""
        if self.legal is not None:
            return not any(a.get("type") == "go" for a in self.legal)
        return self.o["go_on_last_turn"] == "forced_stop" and (not self._has_turn(self.actor) or not self.after["stock"])

    def _steals(self, ctx: _Turn) -> None:
        """R-FINAL-TURN, R-EVENTS-STACK, R-STEAL: the withheld requests, then one steal per paying
        opponent in turn order, the cards being those that left the payer's pile."""
        exempt = set(self.o["final_turn_exempt"]) if self._final() else set()
        for why, units, _ in ctx.requests:
            if why in exempt:
                self.out.append(make_event("steal_exempt", self.actor, reason=why, units=units))
        for payer in self._others():
            owed = sum(units for why, units, payers in ctx.requests if why not in exempt and payer in payers)
            if owed:
                given = minus(self.before["captured"][payer], self.after["captured"][payer])
                units = sum(self._steal_units(c, payer) for c in given)
                self.out.append(make_event("steal", payer, given, to=self.actor, requested=owed, units=units))

    def _steal_units(self, c: str, giver: int) -> int:
        """R-STEAL: a card's units as surrendered: a dual-role card counted as junk 2 (when
        steal_cup_eligible), the December ribbon 1 under dec_ribbon = junk (R-DEC-RIBBON)."""
        o = self.o
        units = junk_units_of(c)
        if o["steal_cup_eligible"] and c in o["dual_role_cards"]:
            mode = o["dual_role_mode"]
            moved = c in self.seat_value(self.before, giver, "dual_junk", [])
            if mode == "fixed_double_junk" or (mode == "owner_one_way_to_junk" and moved):
                units = 2
        if o["dec_ribbon"] == "junk" and "december-ribbon" in card(c).roles:
            units = 1
        return units
