"""Legal actions and the checks of one action (R-TURN): what the player to act may do, and why
an action is refused. Every check here only reads the state (python-chess's `is_legal`): `Round.apply`
runs the check before the first change, so a refused action changes nothing."""

from __future__ import annotations

from typing import Final

from gostop_conformance.reference._dealtime import DealTime
from gostop_conformance.reference._events import Action, Rejection
from gostop_conformance.reference._scoring import dual_cards_in
from gostop_conformance.reference._state import (
    _CARDS,
    _SEATS,
    CARD_ID,
    CHOOSE_FLIP,
    CHOOSE_HAND,
    FIRST_BONUS,
    GO_STOP,
    INDEX_OF,
    MONTH,
    NONE,
    TURN,
    _ids,
    equivalent,
    month_sets,
)

#: the actions with no more than a card, built once per seat and card: legal_actions lists them
#: at every decision, and actions are values
_PLAY: Final = tuple(tuple(Action(type="play", player=seat, card=cid) for cid in CARD_ID) for seat in _SEATS)
_PLAY_SHAKE: Final = tuple(tuple(Action(type="play", player=seat, card=cid, shake=True) for cid in CARD_ID) for seat in _SEATS)
_TAKE: Final = tuple(tuple(Action(type="take", player=seat, card=cid) for cid in CARD_ID) for seat in _SEATS)
_BONUS: Final = tuple(tuple(Action(type="bonus", player=seat, card=cid) for cid in CARD_ID) for seat in _SEATS)
_DUAL: Final = tuple(tuple(Action(type="dual_to_junk", player=seat, card=cid) for cid in CARD_ID) for seat in _SEATS)
_GO: Final = tuple(Action(type="go", player=seat) for seat in _SEATS)
_STOP: Final = tuple(Action(type="stop", player=seat) for seat in _SEATS)
_SKIP: Final = tuple(Action(type="skip", player=seat) for seat in _SEATS)
_BOMB: Final = tuple(tuple(Action(type="bomb", player=seat, month=m) for m in range(13)) for seat in _SEATS)
_SHAKE: Final = tuple(tuple(Action(type="shake", player=seat, month=m) for m in range(13)) for seat in _SEATS)
_CHONGTONG: Final = tuple(tuple(Action(type="chongtong", player=seat, month=m) for m in range(13)) for seat in _SEATS)
#: a play naming the table card it takes (R-TWO-MATCH-CHOICE), with and without a shake, at
#: (seat * _N + card) * _N + table card: a flat tuple, indexed natively where a dict hashes a key.
#: Only cards of the same month are ever looked up: the other places hold a placeholder
_N: Final = len(CARD_ID)
_UNUSED: Final = Action(type="play", player=0)


def _play_takes(shake: bool) -> tuple[Action, ...]:
    return tuple(
        [
            Action(type="play", player=seat, card=CARD_ID[c], take=CARD_ID[t], shake=shake)
            if c != t and MONTH[c] and MONTH[c] == MONTH[t]
            else _UNUSED
            for seat in _SEATS
            for c in range(_N)
            for t in range(_N)
        ]
    )


_PLAY_TAKE: Final = _play_takes(False)
_PLAY_TAKE_SHAKE: Final = _play_takes(True)

#: which actions answer which decision, and the method that applies each (R-TURN)
HANDLERS: Final = {
    TURN: {
        "play": "_play",
        "bomb": "_bomb",
        "skip": "_skip",
        "shake": "_shake",
        "bonus": "_bonus",
        "dual_to_junk": "_dual_to_junk",
        "chongtong": "_chongtong",
    },
    CHOOSE_HAND: {"take": "_take"},
    CHOOSE_FLIP: {"take": "_take"},
    GO_STOP: {"go": "_go", "stop": "_stop", "dual_to_junk": "_dual_to_junk"},
}


class Legal(DealTime):
    """Legal actions and checks: queries only."""

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, in a canonical order."""
        seat = self.to_act
        decision = self.decision
        if decision == TURN:  # the commonest first
            return self._turn_actions(seat)
        if decision == NONE:
            return []
        if decision == GO_STOP:
            out: list[Action] = []
            if not self._go_forced_stop(seat):
                out.append(_GO[seat])
            out.append(_STOP[seat])
            out.extend(self._dual_actions(seat))
            return out
        assert self.ctx is not None  # choose_hand_match or choose_flip_match
        month = self.ctx.month if decision == CHOOSE_HAND else MONTH[self.ctx.flip or 0]
        takes = _TAKE[seat]
        return [takes[c] for c in sorted(self.table[month])]

    def _turn_actions(self, seat: int) -> list[Action]:
        """The actions of a turn decision (R-TURN): plays, bombs, a skip, shakes, bonus cards,
        chongtong, dual cards moved to junk."""
        out: list[Action] = []
        o = self.o
        me = self.seats[seat]
        hand = me.hand
        if self.forced_card is not None:
            return self._forced_actions(seat, self.forced_card)
        must = o.must_match_if_possible and self._matching(seat)
        # a counts list is built only for the rare hand with three of a month (a shake or a bomb)
        twice, thrice, four, bonus = month_sets(hand)
        ordinary = len(hand) - bonus
        # without three of a month there is no shake: an empty tuple, with no allocation
        shakes = tuple(self._shake_months(seat, self._month_counts(seat))) if thrice else ()
        shake_with_play = bool(shakes) and o.shake_declaration == "with_triple_card_play"
        at_play = o.two_match_choice_timing == "at_play"
        table, stacks, plays = self.table, self.stack_owner, _PLAY[seat]
        for c in hand:
            if c >= FIRST_BONUS:
                continue
            month = MONTH[c]
            on = table[month]
            if must and not on:
                continue
            if len(on) == 2 and at_play and month not in stacks and not equivalent(on[0], on[1]):
                low, high = (on[0], on[1]) if on[0] < on[1] else (on[1], on[0])
                key = (seat * _N + c) * _N
                shake = shake_with_play and month in shakes
                out.append(_PLAY_TAKE[key + low])
                if shake:
                    out.append(_PLAY_TAKE_SHAKE[key + low])
                out.append(_PLAY_TAKE[key + high])
                if shake:
                    out.append(_PLAY_TAKE_SHAKE[key + high])
            else:
                out.append(plays[c])
                if shake_with_play and month in shakes:
                    out.append(_PLAY_SHAKE[seat][c])
        if thrice or (twice and o.two_card_bomb != "off"):
            bombs = _BOMB[seat]
            for m in self._bomb_months(seat):  # a loop, not extend(generator): compiled, a generator is an object
                out.append(bombs[m])
        if me.skip_credits > 0 and (ordinary or not hand):
            out.append(_SKIP[seat])
        if shakes and o.shake_declaration == "any_own_turn_start":
            out.extend(_SHAKE[seat][m] for m in shakes)
        if bonus and (self.stock or not ordinary):
            out.extend(_BONUS[seat][c] for c in hand if c >= FIRST_BONUS)
        if four and o.hand_chongtong == "instant_win_or_continue":
            out.extend(_CHONGTONG[seat][m] for m in self._chongtong_months(seat))
        if o.dual_role_mode == "owner_one_way_to_junk":
            out.extend(self._dual_actions(seat))
        return out

    def _forced_actions(self, seat: int, card: int) -> list[Action]:
        """R-BONUS-HAND (must_play_replacement): the replacement is this turn's hand card."""
        if card >= FIRST_BONUS:
            return [_BONUS[seat][card]]
        on = self.table[MONTH[card]]
        if (
            len(on) == 2
            and MONTH[card] not in self.stack_owner
            and not equivalent(on[0], on[1])
            and self.o.two_match_choice_timing == "at_play"
        ):
            return [_PLAY_TAKE[(seat * _N + card) * _N + t] for t in sorted(on)]
        return [_PLAY[seat][card]]

    def _chongtong_months(self, seat: int) -> list[int]:
        """R-CHONGTONG (instant_win_or_continue): months whose four cards the player was dealt and
        still holds (R-FOUR-IN-HAND-LATER: a four completed during play is no chongtong)."""
        if self.o.hand_chongtong != "instant_win_or_continue" or self.forced_card is not None:
            return []
        counts = self._month_counts(seat)
        return [m for m in self.dealt_fours[seat] if counts[m] == 4]

    def _dual_actions(self, seat: int) -> list[Action]:
        if self.o.dual_role_mode != "owner_one_way_to_junk":
            return []
        p = self.seats[seat]
        return [_DUAL[seat][c] for c in dual_cards_in(p.captured, self.o) if c not in p.dual_junk]

    def _matching(self, seat: int) -> bool:
        return any(self.table[MONTH[c]] for c in self.seats[seat].hand if c < FIRST_BONUS)

    def _bomb_months(self, seat: int) -> list[int]:
        """R-BOMB, R-BOMB-TWO: months the player may bomb now."""
        o = self.o
        if not o.bomb_enabled:
            return []
        counts = self._month_counts(seat)
        two = o.two_card_bomb != "off"
        out = []
        for month, held in enumerate(counts):
            if held < 2 or month in self.stack_owner:
                continue
            on = len(self.table[month])
            if (held == 3 and on == 1) or (two and held == 2 and on == 2):
                out.append(month)
        return out

    def _shake_months(self, seat: int, counts: list[int] | None = None) -> list[int]:
        """R-SHAKE, R-FOUR-IN-HAND-LATER: months with three or four cards in hand, not yet shaken."""
        o = self.o
        if not o.shake_enabled:
            return []
        counts = counts or self._month_counts(seat)
        return [
            m
            for m in range(1, 13)
            if counts[m] >= 3 and m not in self.seats[seat].shaken_months and not (o.shake_requires_month_absent and self.table[m])
        ]

    def _card(self, card_id: str | None) -> int:
        index = INDEX_OF.get(card_id or "")
        if index is None:
            raise Rejection("unknown_card", f"{card_id!r} is not a card id of spec/deck.yaml")
        if not self.deck_mask >> index & 1:
            raise Rejection("unknown_card", f"{card_id} is not a card of this ruleset's deck (bonus_cards = {list(self.o.bonus_cards)})")
        return index

    def _hand_card(self, card_id: str | None) -> int:
        c = self._card(card_id)
        if c not in self.seats[self.to_act].hand:
            raise Rejection("card_not_in_hand", f"{card_id} is not in seat {self.to_act}'s hand")
        return c

    def _check_forced(self, card: int | None) -> None:
        if self.forced_card is not None and card != self.forced_card:
            raise Rejection(
                "must_play_replacement",
                f"the replacement {_CARDS[self.forced_card].id} must be this turn's hand card "
                "(bonus_replacement_use = must_play_replacement)",
            )

    # ------------------------------------------------------------------ checking one action

    def _check(self, a: Action) -> None:
        """Raise the Rejection `a` earns now (`Round.check`); reads the state only (R-TURN).
        `Round.apply` runs the same per-kind checks itself and keeps what they name."""
        kind = self._check_decision(a)
        if kind == "play":
            self._check_play(a)
        elif kind == "take":
            self._check_take(a)
        elif kind == "go":
            self._check_go()
        elif kind == "bomb":
            self._check_bomb(a)
        elif kind == "skip":
            self._check_skip()
        elif kind == "shake":
            self._check_shake(a)
        elif kind == "bonus":
            self._check_bonus(a)
        elif kind == "dual_to_junk":
            self._check_dual(a)
        elif kind == "chongtong":
            self._check_chongtong(a)

    def _check_decision(self, a: Action) -> str:
        """R-TURN: the round goes on, `a` is the seat to act's and answers the pending decision;
        its type."""
        if self.decision == NONE:
            raise Rejection("round_over", "the round is over")
        if a.player != self.to_act:
            raise Rejection("not_your_turn", f"seat {self.to_act} is to act, not seat {a.player}")
        kind = a.type
        if kind not in HANDLERS[self.decision]:
            raise Rejection("wrong_decision", f"the pending decision is {self.decision!r}; a {kind!r} action does not answer it")
        return kind

    def _check_play(self, a: Action) -> tuple[int, int]:
        """R-MATCH, R-FREE-PLAY, R-NO-BONUS-MATCH, R-TWO-MATCH-CHOICE, R-SHAKE (with a play): the
        hand card, and the table card it names when that choice is the player's (else -1)."""
        o = self.o
        seat = self.to_act
        c = self._hand_card(a.card)
        self._check_forced(c)
        if c >= FIRST_BONUS:  # R-NO-BONUS-MATCH
            raise Rejection("bonus_not_allowed", f"{a.card} is a bonus card: it is played with a 'bonus' action and never matches")
        month = MONTH[c]
        on = self.table[month]
        # a bonus replacement that must be played (R-BONUS-HAND) is the turn's only card: the
        # obligation to match, a choice among hand cards, has nothing to choose from (R-FREE-PLAY)
        if o.must_match_if_possible and not on and self.forced_card is None and self._matching(seat):
            raise Rejection("must_match", f"{a.card} matches nothing on the table, and this ruleset requires playing a matching card")
        take = -1
        is_pair2 = len(on) == 2 and month not in self.stack_owner
        if a.take is not None:
            named = self._card(a.take)
            if named not in on:
                raise Rejection("wrong_month", f"{a.take} is not a table card of month {month}")
            if is_pair2:
                if o.two_match_choice_timing == "after_flip":
                    raise Rejection("wrong_decision", "under two_match_choice_timing = after_flip the table card is chosen after the flip")
                take = named
        if is_pair2 and take < 0 and o.two_match_choice_timing == "at_play" and not equivalent(on[0], on[1]):
            raise Rejection(
                "take_required", f"two different table cards of month {month} ({', '.join(_ids(sorted(on)))}): name one with 'take'"
            )
        if a.shake and (o.shake_declaration != "with_triple_card_play" or month not in self._shake_months(seat)):
            raise Rejection("shake_not_allowed", f"no shake of month {month} can be declared with this play")
        return c, take

    def _check_bomb(self, a: Action) -> int:
        """R-BOMB, R-BOMB-TWO: the month bombed."""
        month = a.month or 0
        self._check_forced(None)
        if month not in self._bomb_months(self.to_act):
            raise Rejection(
                "bomb_not_allowed",
                f"a bomb of month {month} needs three cards of it in hand and exactly one on the table"
                + (" (or two and two)" if self.o.two_card_bomb != "off" else ""),
            )
        return month

    def _check_skip(self) -> None:
        """R-BOMB-SKIP, R-BONUS-HAND."""
        seat = self.to_act
        self._check_forced(None)
        if self.seats[seat].skip_credits <= 0:
            raise Rejection("no_skip_credit", f"seat {seat} holds no skip credit")
        hand = self.seats[seat].hand
        if hand and all(c >= FIRST_BONUS for c in hand):
            raise Rejection("must_play_bonus", "only bonus cards are left in hand: one must be played (R-BONUS-HAND)")

    def _check_shake(self, a: Action) -> int:
        """R-SHAKE (declared at the start of an own turn): the month shown."""
        seat = self.to_act
        month = a.month or 0
        if self.o.shake_declaration != "any_own_turn_start" or month not in self._shake_months(seat):
            raise Rejection("shake_not_allowed", f"seat {seat} cannot shake month {month} now")
        return month

    def _check_bonus(self, a: Action) -> int:
        """R-BONUS-HAND: the bonus card played from hand."""
        c = self._hand_card(a.card)
        self._check_forced(c)
        if c < FIRST_BONUS:
            raise Rejection("bonus_not_allowed", f"{a.card} is not a bonus card")
        if not self.stock and not all(h >= FIRST_BONUS for h in self.seats[self.to_act].hand):
            # without a replacement the hand action must still be made with an ordinary card
            raise Rejection("bonus_not_allowed", f"{a.card}: the stock is empty and the hand holds an ordinary card (R-BONUS-HAND)")
        return c

    def _check_chongtong(self, a: Action) -> int:
        """R-CHONGTONG (instant_win_or_continue): the month whose four cards are shown."""
        seat = self.to_act
        month = a.month or 0
        if month not in self._chongtong_months(seat):
            raise Rejection("chongtong_not_allowed", f"seat {seat} cannot declare a chongtong of month {month} now")
        return month

    def _check_dual(self, a: Action) -> int:
        """R-DUAL-ROLE (owner_one_way_to_junk): the captured dual card moved to junk."""
        seat = self.to_act
        c = self._card(a.card)
        p = self.seats[seat]
        if self.o.dual_role_mode != "owner_one_way_to_junk" or c not in dual_cards_in(p.captured, self.o) or c in p.dual_junk:
            raise Rejection("dual_not_allowed", f"{a.card} is not a captured dual-role card of seat {seat} that can move to junk")
        return c

    def _check_take(self, a: Action) -> int:
        """R-TWO-MATCH-CHOICE: the table card chosen at a choose_hand_match / choose_flip_match."""
        ctx = self.ctx
        assert ctx is not None
        c = self._card(a.card)
        month = ctx.month if self.decision == CHOOSE_HAND else MONTH[ctx.flip or 0]
        if c not in self.table[month]:
            raise Rejection("wrong_month", f"{a.card} is not a table card of month {month}")
        return c

    def _check_go(self) -> None:
        """R-GO-LAST: no Go without a later turn under forced_stop."""
        if self._go_forced_stop(self.to_act):
            raise Rejection(
                "go_not_allowed", "Go is not allowed: the caller has no later turn in this round (go_on_last_turn = forced_stop)"
            )
