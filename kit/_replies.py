"""Builders of what an adapter reports: a state, a player's round state, a score, a settlement, an
event. Each checks what it built against its definition of the protocol schema
(spec/protocol/protocol.schema.json) and raises KitError naming the JSON path of the first mistake,
so that an adapter's bug shows where it is made rather than as a harness failure later."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, TypeVar

from jsonschema.exceptions import ValidationError

from gostop_conformance import spec
from gostop_conformance.kit._errors import KitError

Json = dict[str, Any]
J = TypeVar("J")

#: the fields each event kind carries besides kind (spec/vocabulary.yaml, events)
EVENT_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    kind: frozenset(entry["fields"]) for kind, entry in spec.vocabulary()["events"].items()
}
#: the fields each action type takes besides type and player (spec/vocabulary.yaml, actions)
ACTION_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {kind: tuple(entry["fields"]) for kind, entry in spec.vocabulary()["actions"].items()}


def checked(value: J, definition: str, where: str) -> J:
    """`value` when it is valid under the protocol definition; KitError naming the path otherwise."""
    if spec.protocol_check(definition)(value):
        return value
    raise KitError(explain(value, definition, where))


def explain(value: Any, definition: str, where: str) -> str:
    """Where `value` first breaks the protocol definition, and how: inside a oneOf, the error of
    the branch that went deepest (the branch meant, not the others refusing its `cmd` or `kind`)."""
    errors = list(spec.protocol_validator(definition).iter_errors(value))
    if not errors:
        return f"{where}: invalid (spec/protocol: {definition})"
    first = _deepest(min(errors, key=lambda e: list(map(str, e.absolute_path))))
    return f"{spec.format_path([where, *first.absolute_path])}: {first.message} (spec/protocol: {definition})"


def _deepest(error: ValidationError) -> ValidationError:
    while error.context:
        error = max(error.context, key=lambda e: (e.validator not in ("const", "enum"), len(e.absolute_path)))
    return error


def cards(items: Iterable[str]) -> list[str]:
    return [str(c) for c in items]


def player(
    *,
    gos: int = 0,
    go_base: int = 0,
    shaken_months: Sequence[int] = (),
    bombs: Sequence[int] = (),
    skip_credits: int = 0,
    ppeoks: int = 0,
    dual_junk: Iterable[str] = (),
    first_go_turn: int | None = None,
) -> Json:
    """A player's round state besides the cards (player_state). Every field is reported, as the
    protocol asks of every field an engine knows: a scenario that names one compares it."""
    found: Json = {
        "gos": gos,
        "go_base": go_base,
        "shaken_months": list(shaken_months),
        "bombs": list(bombs),
        "skip_credits": skip_credits,
        "ppeoks": ppeoks,
        "dual_junk": cards(dual_junk),
    }
    if first_go_turn is not None:
        found["first_go_turn"] = first_go_turn
    return checked(found, "player_state", "player")


def stack(month: int, owner: int | None, stack_cards: Iterable[str], bonus: Iterable[str] = ()) -> Json:
    """A stack on the table (R-PPEOK, R-TABLE-TRIPLE): its three cards are in the table too."""
    return {"month": month, "owner": owner, "cards": cards(stack_cards), "bonus": cards(bonus)}


def state(
    *,
    decision: str,
    to_act: int | None,
    hands: Sequence[Iterable[str]],
    table: Iterable[str],
    stock: Iterable[str],
    captured: Sequence[Iterable[str]],
    stacks: Iterable[Json] = (),
    in_play: Iterable[str] = (),
    turn: int | None = None,
    dealer: int | None = None,
    players: Sequence[Json] | None = None,
    nagari_streak: int | None = None,
    awards: Sequence[Sequence[int]] | None = None,
) -> Json:
    """The whole observable state of a reply (state). `stock` is top first; `table` holds every
    table card, the stacks' three included; `in_play` the cards of a turn paused at a
    choose_hand_match or choose_flip_match decision; `awards` the first-turn awards paid so far,
    each (payer, payee, points), from which the kit derives award events (R-FIRST-TURN-AWARD). A
    field left None is not reported: report every one the engine knows (the harness compares a
    field whenever a scenario names it)."""
    found: Json = {
        "decision": decision,
        "to_act": to_act,
        "hands": [cards(h) for h in hands],
        "table": cards(table),
        "stacks": list(stacks),
        "stock": cards(stock),
        "captured": [cards(p) for p in captured],
        "in_play": cards(in_play),
    }
    for name, number in (("turn", turn), ("dealer", dealer), ("nagari_streak", nagari_streak)):
        if number is not None:
            found[name] = number
    if players is not None:
        found["players"] = list(players)
    if awards is not None:
        found["awards"] = [list(a) for a in awards]
    return checked(found, "state", "state")


def score(**categories: Any) -> Json:
    """A player's base score by category (score): brights, bright_points, animals, ..., base."""
    return checked(dict(categories), "score", "score")


def settlement(**fields: Any) -> Json:
    """The result of a finished round (settlement): kind, winner, net, payments and what its kind
    carries (spec/vocabulary.yaml, settlements)."""
    return checked(dict(fields), "settlement", "settlement")


def event(kind: str, **fields: Any) -> Json:
    """One event (event): its kind first, then the fields spec/vocabulary.yaml lists for it."""
    allowed = EVENT_FIELDS.get(kind)
    if allowed is None:
        raise KitError(f"event.kind: {kind!r} is not an event kind of spec/vocabulary.yaml")
    extra = sorted(set(fields) - allowed - {"clauses"})
    if extra:
        raise KitError(f"event {kind}: {', '.join(extra)} not among its fields ({', '.join(sorted(allowed))})")
    return checked({"kind": kind, **fields}, "event", "event")


def action(raw: Mapping[str, Any]) -> Json:
    """A protocol action as a plain dict with only the fields its type takes (an absent shake is
    false, and is left out)."""
    kind = raw["type"]
    found: Json = {"type": kind, "player": raw["player"]}
    for name in ACTION_FIELDS.get(kind, ()):
        if raw.get(name) is not None and not (name == "shake" and raw[name] is False):
            found[name] = raw[name]
    return found
