"""`new_game` as values: the ruleset the harness sends and the explicit deal, parsed and checked
the way the protocol's `bad_deal` asks (spec/protocol: explicit_deal), so that an adapter only maps
places onto its engine."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gostop_conformance.kit._cards import card, deck_ids, is_card, month
from gostop_conformance.kit._errors import BadDeal, Unsupported
from gostop_conformance.kit._seeded import seeded_deal
from gostop_conformance.spec import counted


@dataclass(frozen=True)
class Ruleset:
    """The rules of a round: the named ruleset it is based on and every option value, resolved
    (spec/options.yaml). Play by `options`, never by the name: a scenario may override any of them."""

    id: str
    options: Mapping[str, Any]

    @property
    def players(self) -> int:
        return int(self.options["players"])

    @property
    def bonus_cards(self) -> tuple[int, ...]:
        return tuple(self.options.get("bonus_cards") or ())

    @property
    def deck(self) -> tuple[str, ...]:
        """The ids of this configuration's deck (R-BONUS-DECK)."""
        return deck_ids(self.bonus_cards)

    def __getitem__(self, option: str) -> Any:
        return self.options[option]

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Ruleset:
        return cls(str(raw["id"]), dict(raw["options"]))


@dataclass(frozen=True)
class Stack:
    """Three cards of a month on the table, taken only by the fourth (R-STACK-CAPTURE); `owner` is
    the ppeok's creator, None for a dealt triple (R-TABLE-TRIPLE)."""

    month: int
    owner: int | None
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deal:
    """An explicit deal (every card's place) or a seeded one (`seed` set, the places empty): the
    engine deals from the seed only if it declared the feature seeded_deal.

    A fresh round has no captured cards and turn 0; any other deal is a game in progress, which
    the table's deal-time rules still apply to and the chongtong check does not (explicit_deal)."""

    dealer: int
    hands: tuple[tuple[str, ...], ...] = ()
    table: tuple[str, ...] = ()
    stock: tuple[str, ...] = ()
    captured: tuple[tuple[str, ...], ...] = ()
    stacks: tuple[Stack, ...] = ()
    players: tuple[Mapping[str, Any], ...] = ()
    first_player: int | None = None
    turn: int = 0
    nagari_streak: int = 0
    carried_multiplier: int = 1
    seed: int | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def fresh(self) -> bool:
        """Whether this is the start of a round: no captured piles given (even empty ones make a
        game in progress) and no turn played. Only then is a dealt chongtong checked (R-CHONGTONG;
        spec/protocol, explicit_deal: the reference engine reads it so)."""
        return self.turn == 0 and self.raw.get("captured") is None

    def player(self, seat: int) -> Mapping[str, Any]:
        """The round state of a seat besides its cards (gos, go_base, skip_credits, ...), empty for
        a fresh round: an absent field has the value of a fresh round."""
        return self.players[seat] if seat < len(self.players) else {}

    def stack_of(self, month_: int) -> Stack | None:
        return next((s for s in self.stacks if s.month == month_), None)

    def explicit(self, ruleset: Ruleset) -> Deal:
        """This deal with every card's place: a seeded deal dealt as R-SHUFFLE and R-DEAL-ORDER
        say (the dealer drawn first when the request names none, R-FIRST-DEALER), an explicit one
        as it is. An engine that takes explicit deals only can so declare the feature seeded_deal."""
        if self.seed is None:
            return self
        return Deal.from_json(seeded_deal(self.raw, ruleset.options), ruleset)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], ruleset: Ruleset) -> Deal:
        """The deal of a new_game request, checked against the ruleset: BadDeal names what is wrong
        (a card missing, twice, or not of the deck; the wrong number of hands or piles; a stack
        without three cards of its month on the table; a seat out of range)."""
        n = ruleset.players
        if "seed" in raw:
            return cls(
                dealer=int(raw.get("dealer", -1)),
                seed=int(raw["seed"]),
                raw=raw,
                nagari_streak=int(raw.get("nagari_streak", 0)),
                carried_multiplier=int(raw.get("carried_multiplier", 1)),
            )
        hands = tuple(tuple(h) for h in raw["hands"])
        if len(hands) != n:
            raise BadDeal(f"deal.hands: {counted(len(hands), 'hand')} for {n} players")
        captured = tuple(tuple(p) for p in raw.get("captured") or [[] for _ in range(n)])
        if len(captured) != n:
            raise BadDeal(f"deal.captured: {counted(len(captured), 'pile')} for {n} players")
        players = tuple(dict(p) for p in raw.get("players") or ())
        if players and len(players) != n:
            raise BadDeal(f"deal.players: {counted(len(players), 'entry', 'entries')} for {n} players")
        for where, seat in (("deal.dealer", raw["dealer"]), ("deal.first_player", raw.get("first_player"))):
            if seat is not None and not 0 <= seat < n:
                raise BadDeal(f"{where}: expected a seat from 0 to {n - 1}, got {seat}")
        table, stock = tuple(raw["table"]), tuple(raw["stock"])
        _check_cards(ruleset, hands, table, stock, captured)
        stacks = []
        for k, s in enumerate(raw.get("stacks") or ()):
            of = tuple(c for c in table if month(c) == s["month"])
            if len(of) != 3:
                raise BadDeal(f"deal.stacks[{k}]: the table holds {counted(len(of), 'card')} of month {s['month']}, a stack is three")
            owner = s["owner"]
            if owner is not None and not 0 <= owner < n:
                raise BadDeal(f"deal.stacks[{k}].owner: expected a seat from 0 to {n - 1}, got {owner}")
            stacks.append(Stack(s["month"], owner, of))
        return cls(
            dealer=int(raw["dealer"]), hands=hands, table=table, stock=stock, captured=captured,
            stacks=tuple(stacks), players=players, first_player=raw.get("first_player"),
            turn=int(raw.get("turn", 0)), nagari_streak=int(raw.get("nagari_streak", 0)),
            carried_multiplier=int(raw.get("carried_multiplier", 1)), raw=raw,
        )  # fmt: skip


def _check_cards(ruleset: Ruleset, *places: tuple[Any, ...]) -> None:
    seen: Counter[str] = Counter()
    for place in places:
        for item in place:
            for c in item if isinstance(item, tuple) else (item,):
                if not is_card(c):
                    raise BadDeal(f"deal: {c!r} is not a card id of spec/deck.yaml")
                seen[c] += 1
    deck = set(ruleset.deck)
    twice = sorted(c for c, k in seen.items() if k > 1)
    foreign = sorted(set(seen) - deck, key=lambda c: card(c).index)
    missing = sorted(deck - set(seen), key=lambda c: card(c).index)
    for problem, cards in (("twice", twice), ("not of this ruleset's deck", foreign), ("missing", missing)):
        if cards:
            raise BadDeal(f"deal: cards {problem}: {', '.join(cards)}")


def new_game(request: Mapping[str, Any]) -> tuple[Ruleset, Deal]:
    """The ruleset and the deal of a new_game request (its schema already checked); Unsupported
    for a seeded deal is the engine's to raise, when it does not declare seeded_deal."""
    ruleset = Ruleset.from_json(request["ruleset"])
    try:
        ruleset.deck  # noqa: B018 - an unknown bonus_cards value fails here, as the engine cannot play it
    except ValueError as exc:
        raise Unsupported(str(exc)) from None
    return ruleset, Deal.from_json(request["deal"], ruleset)
