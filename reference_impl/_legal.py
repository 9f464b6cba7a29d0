"""Legal actions and the checks of one action (R-TURN): what the player to act may do, and why
an action is refused. Every check here only reads the state (python-chess's `is_legal`): `Round.apply`
runs the check before the first change, so a refused action changes nothing."""

from __future__ import annotations

from typing import Final

import gostop_conformance.reference._state as state
from gostop_conformance.reference._cards import CARD_ID, CARDS, FIRST_BONUS, INDEX_OF, MONTH, SEATS, equivalent, ids_of, month_sets
from gostop_conformance.reference._events import Action, Rejection
from gostop_conformance.reference._scoring import dual_cards_in
from gostop_conformance.reference._state import CHOOSE_FLIP, CHOOSE_HAND, GO_STOP, NONE, TURN, RoundState

#: the actions with no more than a card, built once per seat and card (actions are values):
#: legal_actions lists them at every decision. Listing these rather than building each action
#: when it is listed saves 17.9 % of a random round's instructions on matgo-2p, 14.6 % on
#: standard-3p (benchmarks/instructions.py, 150 rounds, the interpreted engine);
#: tests/reference_impl/test_legal.py holds them equal to the actions built by keyword
_PLAY: Final = tuple(tuple(Action(type="play", player=seat, card=cid) for cid in CARD_ID) for seat in SEATS)
_PLAY_SHAKE: Final = tuple(tuple(Action(type="play", player=seat, card=cid, shake=True) for cid in CARD_ID) for seat in SEATS)
_TAKE: Final = tuple(tuple(Action(type="take", player=seat, card=cid) for cid in CARD_ID) for seat in SEATS)
_BONUS: Final = tuple(tuple(Action(type="bonus", player=seat, card=cid) for cid in CARD_ID) for seat in SEATS)
_DUAL: Final = tuple(tuple(Action(type="dual_to_junk", player=seat, card=cid) for cid in CARD_ID) for seat in SEATS)
_GO: Final = tuple(Action(type="go", player=seat) for seat in SEATS)
_STOP: Final = tuple(Action(type="stop", player=seat) for seat in SEATS)
_SKIP: Final = tuple(Action(type="skip", player=seat) for seat in SEATS)
_BOMB: Final = tuple(tuple(Action(type="bomb", player=seat, month=m) for m in range(13)) for seat in SEATS)
_SHAKE: Final = tuple(tuple(Action(type="shake", player=seat, month=m) for m in range(13)) for seat in SEATS)
_CHONGTONG: Final = tuple(tuple(Action(type="chongtong", player=seat, month=m) for m in range(13)) for seat in SEATS)


def _play_taking(seat: int, card: int, taken: int, shake: bool = False) -> Action:
    """A play naming the table card it takes (R-TWO-MATCH-CHOICE), with or without a shake."""
    return Action(type="play", player=seat, card=CARD_ID[card], take=CARD_ID[taken], shake=shake)


#: which actions answer which decision (R-TURN)
ANSWERS: Final = {
    TURN: frozenset({"play", "bomb", "skip", "shake", "bonus", "dual_to_junk", "chongtong"}),
    CHOOSE_HAND: frozenset({"take"}),
    CHOOSE_FLIP: frozenset({"take"}),
    GO_STOP: frozenset({"go", "stop", "dual_to_junk"}),
}


def legal_actions(s: RoundState) -> list[Action]:
    """Every legal action of the player to act, in a canonical order."""
    seat = s.to_act
    decision = s.decision
    if decision == TURN:  # the commonest first
        return turn_actions(s, seat)
    if decision == NONE:
        return []
    if decision == GO_STOP:
        out: list[Action] = []
        if not state.go_forced_stop(s, seat):
            out.append(_GO[seat])
        out.append(_STOP[seat])
        out.extend(dual_actions(s, seat))
        return out
    assert s.ctx is not None  # choose_hand_match or choose_flip_match
    month = s.ctx.month if decision == CHOOSE_HAND else MONTH[s.ctx.flip or 0]
    takes = _TAKE[seat]
    return [takes[c] for c in sorted(s.table[month])]


def turn_actions(s: RoundState, seat: int) -> list[Action]:
    """The actions of a turn decision (R-TURN): plays, bombs, a skip, shakes, bonus cards,
    chongtong, dual cards moved to junk."""
    out: list[Action] = []
    o = s.o
    me = s.seats[seat]
    hand = me.hand
    if s.forced_card is not None:
        return forced_actions(s, seat, s.forced_card)
    must = o.must_match_if_possible and matching(s, seat)
    # a counts list is built only for the rare hand with three of a month (a shake or a bomb)
    twice, thrice, four, bonus = month_sets(hand)
    ordinary = len(hand) - bonus
    # without three of a month there is no shake: an empty tuple, with no allocation
    shakes = tuple(shake_months(s, seat, state.month_counts(s, seat))) if thrice else ()
    shake_with_play = bool(shakes) and o.shake_declaration == "with_triple_card_play"
    at_play = o.two_match_choice_timing == "at_play"
    table, stacks, plays = s.table, s.stack_owner, _PLAY[seat]
    for c in hand:
        if c >= FIRST_BONUS:
            continue
        month = MONTH[c]
        on = table[month]
        if must and not on:
            continue
        if len(on) == 2 and at_play and month not in stacks and not equivalent(on[0], on[1]):
            low, high = (on[0], on[1]) if on[0] < on[1] else (on[1], on[0])
            shake = shake_with_play and month in shakes
            out.append(_play_taking(seat, c, low))
            if shake:
                out.append(_play_taking(seat, c, low, shake=True))
            out.append(_play_taking(seat, c, high))
            if shake:
                out.append(_play_taking(seat, c, high, shake=True))
        else:
            out.append(plays[c])
            if shake_with_play and month in shakes:
                out.append(_PLAY_SHAKE[seat][c])
    if thrice or (twice and o.two_card_bomb != "off"):
        bombs = _BOMB[seat]
        for m in bomb_months(s, seat):  # a loop, not extend(generator): compiled, a generator is an object
            out.append(bombs[m])
    if me.skip_credits > 0 and (ordinary or not hand):
        out.append(_SKIP[seat])
    if shakes and o.shake_declaration == "any_own_turn_start":
        out.extend(_SHAKE[seat][m] for m in shakes)
    if bonus and (s.stock or not ordinary):
        out.extend(_BONUS[seat][c] for c in hand if c >= FIRST_BONUS)
    if four and o.hand_chongtong == "instant_win_or_continue":
        out.extend(_CHONGTONG[seat][m] for m in chongtong_months(s, seat))
    if o.dual_role_mode == "owner_one_way_to_junk":
        out.extend(dual_actions(s, seat))
    return out


def forced_actions(s: RoundState, seat: int, card: int) -> list[Action]:
    """R-BONUS-HAND (must_play_replacement): the replacement is this turn's hand card."""
    if card >= FIRST_BONUS:
        return [_BONUS[seat][card]]
    on = s.table[MONTH[card]]
    if len(on) == 2 and MONTH[card] not in s.stack_owner and not equivalent(on[0], on[1]) and s.o.two_match_choice_timing == "at_play":
        return [_play_taking(seat, card, t) for t in sorted(on)]
    return [_PLAY[seat][card]]


def chongtong_months(s: RoundState, seat: int) -> list[int]:
    """R-CHONGTONG (instant_win_or_continue): months whose four cards the player was dealt and
    still holds (R-FOUR-IN-HAND-LATER: a four completed during play is no chongtong)."""
    if s.o.hand_chongtong != "instant_win_or_continue" or s.forced_card is not None:
        return []
    counts = state.month_counts(s, seat)
    return [m for m in s.dealt_fours[seat] if counts[m] == 4]


def dual_actions(s: RoundState, seat: int) -> list[Action]:
    if s.o.dual_role_mode != "owner_one_way_to_junk":
        return []
    p = s.seats[seat]
    return [_DUAL[seat][c] for c in dual_cards_in(p.captured, s.o) if c not in p.dual_junk]


def matching(s: RoundState, seat: int) -> bool:
    return any(s.table[MONTH[c]] for c in s.seats[seat].hand if c < FIRST_BONUS)


def bomb_months(s: RoundState, seat: int) -> list[int]:
    """R-BOMB, R-BOMB-TWO: months the player may bomb now."""
    o = s.o
    if not o.bomb_enabled:
        return []
    counts = state.month_counts(s, seat)
    two = o.two_card_bomb != "off"
    out = []
    for month, held in enumerate(counts):
        if held < 2 or month in s.stack_owner:
            continue
        on = len(s.table[month])
        if (held == 3 and on == 1) or (two and held == 2 and on == 2):
            out.append(month)
    return out


def shake_months(s: RoundState, seat: int, counts: list[int] | None = None) -> list[int]:
    """R-SHAKE, R-FOUR-IN-HAND-LATER: months with three or four cards in hand, not yet shaken."""
    o = s.o
    if not o.shake_enabled:
        return []
    counts = counts or state.month_counts(s, seat)
    return [
        m
        for m in range(1, 13)
        if counts[m] >= 3 and m not in s.seats[seat].shaken_months and not (o.shake_requires_month_absent and s.table[m])
    ]


def card(s: RoundState, card_id: str | None) -> int:
    index = INDEX_OF.get(card_id or "")
    if index is None:
        raise Rejection("unknown_card", f"{card_id!r} is not a card id of spec/deck.yaml")
    if not s.deck_mask >> index & 1:
        raise Rejection("unknown_card", f"{card_id} is not a card of this ruleset's deck (bonus_cards = {list(s.o.bonus_cards)})")
    return index


def hand_card(s: RoundState, card_id: str | None) -> int:
    c = card(s, card_id)
    if c not in s.seats[s.to_act].hand:
        raise Rejection("card_not_in_hand", f"{card_id} is not in seat {s.to_act}'s hand")
    return c


def check_forced(s: RoundState, card: int | None) -> None:
    if s.forced_card is not None and card != s.forced_card:
        raise Rejection(
            "must_play_replacement",
            f"the replacement {CARDS[s.forced_card].id} must be this turn's hand card (bonus_replacement_use = must_play_replacement)",
        )


# ------------------------------------------------------------------ checking one action


def check(s: RoundState, a: Action) -> None:
    """Raise the Rejection `a` earns now (`Round.check`); reads the state only (R-TURN).
    `Round.apply` runs the same per-kind checks itself and keeps what they name."""
    kind = check_decision(s, a)
    if kind == "play":
        check_play(s, a)
    elif kind == "take":
        check_take(s, a)
    elif kind == "go":
        check_go(s)
    elif kind == "bomb":
        check_bomb(s, a)
    elif kind == "skip":
        check_skip(s)
    elif kind == "shake":
        check_shake(s, a)
    elif kind == "bonus":
        check_bonus(s, a)
    elif kind == "dual_to_junk":
        check_dual(s, a)
    elif kind == "chongtong":
        check_chongtong(s, a)


def check_decision(s: RoundState, a: Action) -> str:
    """R-TURN: the round goes on, `a` is the seat to act's and answers the pending decision;
    its type."""
    if s.decision == NONE:
        raise Rejection("round_over", "the round is over")
    if a.player != s.to_act:
        raise Rejection("not_your_turn", f"seat {s.to_act} is to act, not seat {a.player}")
    kind = a.type
    if kind not in ANSWERS[s.decision]:
        raise Rejection("wrong_decision", f"the pending decision is {s.decision!r}; a {kind!r} action does not answer it")
    return kind


def check_play(s: RoundState, a: Action) -> tuple[int, int]:
    """R-MATCH, R-FREE-PLAY, R-NO-BONUS-MATCH, R-TWO-MATCH-CHOICE, R-SHAKE (with a play): the
    hand card, and the table card it names when that choice is the player's (else -1)."""
    o = s.o
    seat = s.to_act
    c = hand_card(s, a.card)
    check_forced(s, c)
    if c >= FIRST_BONUS:  # R-NO-BONUS-MATCH
        raise Rejection("bonus_not_allowed", f"{a.card} is a bonus card: it is played with a 'bonus' action and never matches")
    month = MONTH[c]
    on = s.table[month]
    # a bonus replacement that must be played (R-BONUS-HAND) is the turn's only card: the
    # obligation to match, a choice among hand cards, has nothing to choose from (R-FREE-PLAY)
    if o.must_match_if_possible and not on and s.forced_card is None and matching(s, seat):
        raise Rejection("must_match", f"{a.card} matches nothing on the table, and this ruleset requires playing a matching card")
    take = -1
    is_pair2 = len(on) == 2 and month not in s.stack_owner
    if a.take is not None:
        named = card(s, a.take)
        if named not in on:
            raise Rejection("wrong_month", f"{a.take} is not a table card of month {month}")
        if is_pair2:
            if o.two_match_choice_timing == "after_flip":
                raise Rejection("wrong_decision", "under two_match_choice_timing = after_flip the table card is chosen after the flip")
            take = named
    if is_pair2 and take < 0 and o.two_match_choice_timing == "at_play" and not equivalent(on[0], on[1]):
        raise Rejection(
            "take_required", f"two different table cards of month {month} ({', '.join(ids_of(sorted(on)))}): name one with 'take'"
        )
    if a.shake and (o.shake_declaration != "with_triple_card_play" or month not in shake_months(s, seat)):
        raise Rejection("shake_not_allowed", f"no shake of month {month} can be declared with this play")
    return c, take


def check_bomb(s: RoundState, a: Action) -> int:
    """R-BOMB, R-BOMB-TWO: the month bombed."""
    month = a.month or 0
    check_forced(s, None)
    if month not in bomb_months(s, s.to_act):
        raise Rejection(
            "bomb_not_allowed",
            f"a bomb of month {month} needs three cards of it in hand and exactly one on the table"
            + (" (or two and two)" if s.o.two_card_bomb != "off" else ""),
        )
    return month


def check_skip(s: RoundState) -> None:
    """R-BOMB-SKIP, R-BONUS-HAND."""
    seat = s.to_act
    check_forced(s, None)
    if s.seats[seat].skip_credits <= 0:
        raise Rejection("no_skip_credit", f"seat {seat} holds no skip credit")
    hand = s.seats[seat].hand
    if hand and all(c >= FIRST_BONUS for c in hand):
        raise Rejection("must_play_bonus", "only bonus cards are left in hand: one must be played (R-BONUS-HAND)")


def check_shake(s: RoundState, a: Action) -> int:
    """R-SHAKE (declared at the start of an own turn): the month shown."""
    seat = s.to_act
    month = a.month or 0
    if s.o.shake_declaration != "any_own_turn_start" or month not in shake_months(s, seat):
        raise Rejection("shake_not_allowed", f"seat {seat} cannot shake month {month} now")
    return month


def check_bonus(s: RoundState, a: Action) -> int:
    """R-BONUS-HAND: the bonus card played from hand."""
    c = hand_card(s, a.card)
    check_forced(s, c)
    if c < FIRST_BONUS:
        raise Rejection("bonus_not_allowed", f"{a.card} is not a bonus card")
    if not s.stock and not all(h >= FIRST_BONUS for h in s.seats[s.to_act].hand):
        # without a replacement the hand action must still be made with an ordinary card
        raise Rejection("bonus_not_allowed", f"{a.card}: the stock is empty and the hand holds an ordinary card (R-BONUS-HAND)")
    return c


def check_chongtong(s: RoundState, a: Action) -> int:
    """R-CHONGTONG (instant_win_or_continue): the month whose four cards are shown."""
    seat = s.to_act
    month = a.month or 0
    if month not in chongtong_months(s, seat):
        raise Rejection("chongtong_not_allowed", f"seat {seat} cannot declare a chongtong of month {month} now")
    return month


def check_dual(s: RoundState, a: Action) -> int:
    """R-DUAL-ROLE (owner_one_way_to_junk): the captured dual card moved to junk."""
    seat = s.to_act
    c = card(s, a.card)
    p = s.seats[seat]
    if s.o.dual_role_mode != "owner_one_way_to_junk" or c not in dual_cards_in(p.captured, s.o) or c in p.dual_junk:
        raise Rejection("dual_not_allowed", f"{a.card} is not a captured dual-role card of seat {seat} that can move to junk")
    return c


def check_take(s: RoundState, a: Action) -> int:
    """R-TWO-MATCH-CHOICE: the table card chosen at a choose_hand_match / choose_flip_match."""
    ctx = s.ctx
    assert ctx is not None
    c = card(s, a.card)
    month = ctx.month if s.decision == CHOOSE_HAND else MONTH[ctx.flip or 0]
    if c not in s.table[month]:
        raise Rejection("wrong_month", f"{a.card} is not a table card of month {month}")
    return c


def check_go(s: RoundState) -> None:
    """R-GO-LAST: no Go without a later turn under forced_stop."""
    if state.go_forced_stop(s, s.to_act):
        raise Rejection("go_not_allowed", "Go is not allowed: the caller has no later turn in this round (go_on_last_turn = forced_stop)")
