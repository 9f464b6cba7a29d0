"""Checking an action apart from applying it (R-TURN), from the engine's own legal actions: an
action among them is accepted, and any other gets the rejection code spec/vocabulary.yaml gives its
mistake, in the order the reference engine checks them (the decision, the card, the forced card,
the month, the choice, the shake). The adapter never writes a rejection itself.

The state read is the protocol state before the action (hands, table, stacks, players); the
options are the new_game ruleset's."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from gostop_conformance.kit._cards import deck_ids, equivalent, is_bonus, is_card, month
from gostop_conformance.kit._errors import Rejected
from gostop_conformance.kit._replies import action as plain_action

Json = dict[str, Any]

#: the action types that answer each decision (spec/vocabulary.yaml, decisions and actions)
ANSWERS: Final[Mapping[str, frozenset[str]]] = {
    "turn": frozenset({"play", "bomb", "skip", "shake", "bonus", "dual_to_junk", "chongtong"}),
    "go_stop": frozenset({"go", "stop", "dual_to_junk"}),
    "choose_hand_match": frozenset({"take"}),
    "choose_flip_match": frozenset({"take"}),
    "none": frozenset(),
}


def _key(a: Mapping[str, Any]) -> tuple[Any, ...]:
    return (a["type"], a["player"], a.get("card"), a.get("take"), a.get("month"), bool(a.get("shake")))


def check_action(
    raw: Mapping[str, Any],
    *,
    player: int | None,
    decision: str,
    actions: Sequence[Mapping[str, Any]],
    state: Mapping[str, Any],
    options: Mapping[str, Any],
    forced: str | None = None,
) -> Json:
    """The action to apply (a `take` the rules do not need dropped: protocol, action.take), or
    Rejected.

    `player`, `decision` and `actions` are the engine's legal reply now; `forced` the bonus
    replacement that must be this turn's hand card (bonus_replacement_use = must_play_replacement;
    the server tracks it)."""
    a = plain_action(raw)
    legal = {_key(x): x for x in actions}
    if _key(a) in legal:
        return a
    if decision == "none":
        raise Rejected("round_over", "the round is over")
    if a["player"] != player:
        raise Rejected("not_your_turn", f"seat {player} is to act, not seat {a['player']}")
    kind = a["type"]
    if kind not in ANSWERS[decision]:
        raise Rejected("wrong_decision", f"the pending decision is {decision!r}; a {kind!r} action does not answer it")
    assert player is not None  # a decision other than none has a seat deciding
    return _Checker(a, player, decision, legal, state, options, forced).check()


class _Checker:
    def __init__(
        self,
        a: Json,
        seat: int,
        decision: str,
        legal: Mapping[tuple[Any, ...], Mapping[str, Any]],
        state: Mapping[str, Any],
        options: Mapping[str, Any],
        forced: str | None,
    ) -> None:
        self.a, self.seat, self.decision, self.legal, self.o, self.forced = a, seat, decision, legal, options, forced
        self.hand: list[str] = list(state["hands"][seat])
        self.table: list[str] = list(state["table"])
        self.stacked = {s["month"] for s in state.get("stacks") or ()}
        players = state.get("players") or ()
        self.me: Mapping[str, Any] = players[seat] if seat < len(players) else {}
        self.deck = set(deck_ids(tuple(options.get("bonus_cards") or ())))

    def check(self) -> Json:
        kind = self.a["type"]
        handler: Callable[[], Json | None] | None = getattr(self, f"_{kind}", None)
        accepted = handler() if handler is not None else None
        if accepted is not None:
            return accepted
        # the engine lists no such action, and no rule above names the mistake: the engine's own
        # legal actions are the authority (the adapter and the rules disagree: a bug to look at).
        # A card it lets be played only with a take asks for one, whatever the options say
        if kind == "play" and self.a.get("take") is None:
            takes = [x for x in self.legal.values() if x["type"] == "play" and x.get("card") == self.a.get("card") and x.get("take")]
            if takes:
                raise Rejected("take_required", f"the engine lets {self.a.get('card')} be played only naming the table card it takes")
        raise Rejected(_FALLBACK[kind], f"{_show(self.a)} is not among the engine's legal actions")

    def _card(self, card_id: Any) -> str:
        if not is_card(card_id):
            raise Rejected("unknown_card", f"{card_id!r} is not a card id of spec/deck.yaml")
        if card_id not in self.deck:
            bonus = list(self.o.get("bonus_cards") or ())
            raise Rejected("unknown_card", f"{card_id} is not a card of this ruleset's deck (bonus_cards = {bonus})")
        return str(card_id)

    def _hand_card(self, card_id: Any) -> str:
        c = self._card(card_id)
        if c not in self.hand:
            raise Rejected("card_not_in_hand", f"{c} is not in seat {self.seat}'s hand")
        return c

    def _check_forced(self, c: str | None) -> None:
        if self.forced is not None and c != self.forced:
            raise Rejected(
                "must_play_replacement",
                f"the replacement {self.forced} must be this turn's hand card (bonus_replacement_use = must_play_replacement)",
            )

    def _on_table(self, m: int) -> list[str]:
        return [c for c in self.table if not is_bonus(c) and month(c) == m]

    def _play(self) -> Json | None:
        """R-MATCH, R-FREE-PLAY, R-NO-BONUS-MATCH, R-TWO-MATCH-CHOICE, R-SHAKE."""
        a, o = self.a, self.o
        c = self._hand_card(a.get("card"))
        self._check_forced(c)
        if is_bonus(c):
            raise Rejected("bonus_not_allowed", f"{c} is a bonus card: it is played with a 'bonus' action and never matches")
        m = month(c)
        on = self._on_table(m)
        matching = any(self._on_table(month(h)) for h in self.hand if not is_bonus(h))
        if o.get("must_match_if_possible") and not on and self.forced is None and matching:
            raise Rejected("must_match", f"{c} matches nothing on the table, and this ruleset requires playing a matching card")
        pair = len(on) == 2 and m not in self.stacked
        if a.get("take") is not None:
            named = self._card(a["take"])
            if named not in on:
                raise Rejected("wrong_month", f"{named} is not a table card of month {m}")
            if pair and o.get("two_match_choice_timing") == "after_flip":
                raise Rejected("wrong_decision", "under two_match_choice_timing = after_flip the table card is chosen after the flip")
            if not pair or equivalent(on[0], on[1]):  # a take the rules do not need changes nothing
                without = {k: v for k, v in a.items() if k != "take"}
                if _key(without) in self.legal:
                    return without
        elif pair and o.get("two_match_choice_timing") == "at_play" and not equivalent(on[0], on[1]):
            raise Rejected("take_required", f"two different table cards of month {m} ({', '.join(sorted(on))}): name one with 'take'")
        if a.get("shake"):
            raise Rejected("shake_not_allowed", f"no shake of month {m} can be declared with this play")
        return None

    def _bomb(self) -> None:
        """R-BOMB, R-BOMB-TWO."""
        self._check_forced(None)
        raise Rejected("bomb_not_allowed", f"seat {self.seat} cannot bomb month {self.a.get('month')} now")

    def _skip(self) -> None:
        """R-BOMB-SKIP, R-BONUS-HAND."""
        self._check_forced(None)
        if int(self.me.get("skip_credits", 0)) <= 0:
            raise Rejected("no_skip_credit", f"seat {self.seat} holds no skip credit")
        if self.hand and all(is_bonus(c) for c in self.hand):
            raise Rejected("must_play_bonus", "only bonus cards are left in hand: one must be played (R-BONUS-HAND)")

    def _shake(self) -> None:
        raise Rejected("shake_not_allowed", f"seat {self.seat} cannot shake month {self.a.get('month')} now")

    def _bonus(self) -> None:
        """R-BONUS-HAND."""
        c = self._hand_card(self.a.get("card"))
        self._check_forced(c)
        why = "is not a bonus card" if not is_bonus(c) else "cannot be played now (R-BONUS-HAND)"
        raise Rejected("bonus_not_allowed", f"{c} {why}")

    def _chongtong(self) -> None:
        raise Rejected("chongtong_not_allowed", f"seat {self.seat} cannot declare a chongtong of month {self.a.get('month')} now")

    def _dual_to_junk(self) -> None:
        c = self._card(self.a.get("card"))
        raise Rejected("dual_not_allowed", f"{c} is not a captured dual-role card of seat {self.seat} that can move to junk")

    def _take(self) -> None:
        c = self._card(self.a.get("card"))
        raise Rejected("wrong_month", f"{c} is not a table card the pending choice can take")

    def _go(self) -> None:
        raise Rejected("go_not_allowed", "Go is not allowed now (R-GO-WHEN, R-GO-LAST)")


#: the code of an action the engine does not list when no rule names the mistake
_FALLBACK: Final[Mapping[str, str]] = {
    "play": "wrong_decision",
    "bomb": "bomb_not_allowed",
    "skip": "no_skip_credit",
    "shake": "shake_not_allowed",
    "bonus": "bonus_not_allowed",
    "dual_to_junk": "dual_not_allowed",
    "chongtong": "chongtong_not_allowed",
    "take": "wrong_month",
    "go": "go_not_allowed",
    "stop": "wrong_decision",
}


def _show(a: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in a.items())
