"""The first difference between the reference engine's reply and an engine's, compared as
scenarios compare (docs/scenario-format.md): card lists as multisets, equivalent cards as one
(R-CARD-IDS), captured junk by units (R-STEAL), outcomes before events. The fuzzer judges
every reply of a round this way, and profile reads engines through the same normal forms.

Each field is compared as sent first and put in normal form only when that differs: an engine
that reports the reference's own order (most replies of most rounds) costs a dict comparison, and
the normal forms, which are all that decide a difference, are built only where one may be.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any, Final

from gostop_conformance.harness._compare import CARD_CLASSES, card_class, pile_class
from gostop_conformance.spec import Options, deck

Json = dict[str, Any]

#: the player-state fields compared when both engines report them
PLAYER_FIELDS: Final = ("ppeoks", "gos", "skip_credits", "shaken_months", "bombs")


def _classes(cards: Any, key: Callable[[Any], Any] = card_class) -> Any:
    return sorted(map(str, (key(c) for c in cards))) if isinstance(cards, list) else cards


def _mapped(cards: Any, classes: Mapping[str, str], key: Callable[[Any], Any]) -> Any:
    """_classes through a table of card ids (most cards of most replies): the same result."""
    if not isinstance(cards, list):
        return cards
    try:
        return sorted([classes[c] for c in cards])
    except (KeyError, TypeError):  # not a card id of the deck: each as `key` sees it
        return _classes(cards, key)


def _hands(hands: Any, rules: Options) -> Any:
    return [_mapped(h, CARD_CLASSES, card_class) for h in hands] if isinstance(hands, list) else hands


def _table(cards: Any, rules: Options) -> Any:
    return _mapped(cards, CARD_CLASSES, card_class)


def _stacks(stacks: Any, rules: Options) -> Any:
    return sorted((s.get("month"), s.get("owner")) for s in stacks)


def _stock(cards: Any, rules: Options) -> Any:
    return [card_class(c) for c in cards]


def _captured(piles: Any, rules: Options) -> Any:
    table = _pile_classes(pile_key(rules))
    return [_mapped(c, table, lambda card: pile_class(card, rules)) for c in piles]


def pile_key(rules: Options) -> tuple[Any, ...]:
    """What of the rules decides how captured cards compare (pile_class): rules alike in it see
    every reply alike."""
    return (rules.dec_ribbon, rules.scoring_system, "palssari" in rules.extra_yaku)


@functools.cache
def _pile_classes(key: tuple[Any, ...]) -> dict[str, str]:
    dec_ribbon, scoring_system, palssari = key
    rules = SimpleNamespace(dec_ribbon=dec_ribbon, scoring_system=scoring_system, extra_yaku=("palssari",) if palssari else ())
    return {card.id: str(pile_class(card.id, rules)) for card in deck().cards}  # type: ignore[arg-type]


def _same(value: Any, rules: Options) -> Any:
    return value


#: the state's fields in the order a difference is looked for: (field, absent as, normal form)
_STATE: Final[tuple[tuple[str, Any, Callable[[Any, Options], Any]], ...]] = (
    ("decision", None, _same),
    ("to_act", None, _same),
    ("hands", [], _hands),
    ("table", [], _table),
    ("stacks", [], _stacks),
    ("stock", [], _stock),
    ("captured", [], _captured),
)


def normal_state(state: Json, rules: Options) -> Json:
    """The observable state as scenarios compare it: order-free card lists, equivalent cards as one,
    captured single and double junk by units (conformance._compare)."""
    return {key: normal(state.get(key, absent), rules) for key, absent, normal in _STATE}


def player_states(state: Json) -> list[Json]:
    """Each seat's player state (an entry that is not an object as empty)."""
    return [p if isinstance(p, dict) else {} for p in state.get("players") or []]


def normal_events(events: list[Json]) -> list[tuple[Any, ...]]:
    return [(e.get("kind"), e.get("player"), tuple(_classes(e.get("cards", [])))) for e in events]


def normal_legal(legal: Json) -> set[tuple[Any, ...]]:
    return {
        (a.get("type"), a.get("player"), card_class(a.get("card")), card_class(a.get("take")), a.get("month"), bool(a.get("shake")))
        for a in legal.get("actions", [])
    }


def same_legal(ref: Json, got: Json) -> bool:
    """The same legal actions for the same player, as sets of equivalent actions."""
    if ref.get("player") != got.get("player"):
        return False
    return ref.get("actions") == got.get("actions") or normal_legal(ref) == normal_legal(got)


def first_difference(ref: Json, got: Json, what: str, rules: Options, events: bool = False) -> tuple[str, str, Any, Any] | None:
    """(category, description, expected, actual) of the first difference, outcomes before events;
    the event log only with `events` (as scenarios judge it: a note unless it is the subject)."""
    if "error" in ref or "error" in got:
        if ("error" in ref) != ("error" in got) or (ref.get("error") or {}).get("code") != (got.get("error") or {}).get("code"):
            return "rejection", f"{what}: rejection", ref.get("error"), got.get("error")
        return None
    ref_state, got_state = ref.get("state", {}), got.get("state", {})
    for key, absent, normal in _STATE:
        mine, theirs = ref_state.get(key, absent), got_state.get(key, absent)
        if mine != theirs:
            mine, theirs = normal(mine, rules), normal(theirs, rules)
            if mine != theirs:
                return f"state.{key}", f"{what}: state.{key}", mine, theirs
    for seat, (mine, theirs) in enumerate(zip(player_states(ref_state), player_states(got_state), strict=False)):
        for key in PLAYER_FIELDS:
            if key in mine and key in theirs and mine[key] != theirs[key] and _norm(mine[key]) != _norm(theirs[key]):
                return f"players.{key}", f"{what}: players[{seat}].{key}", mine[key], theirs[key]
    if events:
        ref_events, got_events = ref.get("events", []), got.get("events", [])
        if ref_events != got_events and normal_events(ref_events) != normal_events(got_events):
            return "events", f"{what}: events (the state agrees)", normal_events(ref_events), normal_events(got_events)
    return None


def _norm(value: Any) -> Any:
    return sorted(value) if isinstance(value, list) else value
