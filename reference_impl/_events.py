"""Events, actions and rejections: the typed vocabulary of spec/vocabulary.yaml."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple, final

from gostop_conformance.spec import ActionType, EventKind, RejectionCode, vocabulary

#: the fields each action type takes besides type and player, read from spec/vocabulary.yaml (its
#: one statement; tests/kit checks that every table of them in the repository agrees)
ACTION_FIELDS: Final[dict[str, tuple[str, ...]]] = {kind: tuple(entry["fields"]) for kind, entry in vocabulary()["actions"].items()}


NO_DATA: Final[Mapping[str, Any]] = MappingProxyType({})


@final
class Event:
    """Something that happened, with the clause ids that made it happen (the rule-hit trace).
    An immutable value (read-only properties), equal to an event with the same fields. A class
    of the engine's own rather than a named tuple: every action makes several, and compiled,
    such a class is built by a direct call where a named tuple's construction goes through the
    generic calling convention (several hundred instructions an event)."""

    __slots__ = ("_cards", "_clauses", "_data", "_kind", "_player")

    def __init__(
        self,
        kind: EventKind,
        player: int | None = None,
        cards: tuple[str, ...] = (),
        clauses: tuple[str, ...] = (),
        data: Mapping[str, Any] = NO_DATA,
    ) -> None:
        self._kind = kind
        self._player = player
        self._cards = cards
        self._clauses = clauses
        self._data = data

    @property
    def kind(self) -> EventKind:
        return self._kind

    @property
    def player(self) -> int | None:
        return self._player

    @property
    def cards(self) -> tuple[str, ...]:
        return self._cards

    @property
    def clauses(self) -> tuple[str, ...]:
        return self._clauses

    @property
    def data(self) -> Mapping[str, Any]:
        return self._data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (
            self._kind == other._kind
            and self._player == other._player
            and self._cards == other._cards
            and self._clauses == other._clauses
            and self._data == other._data
        )

    __hash__ = None  # type: ignore[assignment]  # its data is a mapping

    def __repr__(self) -> str:
        return f"Event(kind={self._kind!r}, player={self._player!r}, cards={self._cards!r}, clauses={self._clauses!r}, data={self._data!r})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self._kind}
        if self._player is not None:
            out["player"] = self._player
        if self._cards:
            out["cards"] = list(self._cards)
        out.update(self._data)
        out["clauses"] = list(self._clauses)
        return out


class Action(NamedTuple):
    """A player's move (an immutable value). `player` is the seat acting; other fields per
    spec/vocabulary.yaml. A named tuple rather than a dataclass: legal_actions builds thousands."""

    type: ActionType
    player: int
    card: str | None = None
    take: str | None = None
    month: int | None = None
    shake: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "player": self.player}
        if self.card is not None:
            out["card"] = self.card
        if self.take is not None:
            out["take"] = self.take
        if self.month is not None:
            out["month"] = self.month
        if self.shake:
            out["shake"] = True
        return out

    @staticmethod
    def from_json(raw: Any, where: str = "action") -> Action:
        """Parse an action object; a malformed one raises Rejection('malformed_action')."""
        if not isinstance(raw, Mapping):
            raise Rejection("malformed_action", f"{where}: expected an object, got {type(raw).__name__}")
        kind = raw.get("type")
        if kind not in ACTION_FIELDS:
            raise Rejection("malformed_action", f"{where}.type: expected one of {', '.join(ACTION_FIELDS)}, got {kind!r}")
        player = raw.get("player")
        if not isinstance(player, int) or isinstance(player, bool):
            raise Rejection("malformed_action", f"{where}.player: expected a seat number, got {player!r}")
        allowed = set(ACTION_FIELDS[kind]) | {"type", "player"}
        extra = sorted(set(raw) - allowed)
        if extra:
            raise Rejection(
                "malformed_action",
                f"{where}: unexpected field {extra[0]!r} for a {kind!r} action; expected only {', '.join(sorted(allowed))}",
            )
        for key in ("card", "take"):
            if key in raw and not isinstance(raw[key], str):
                raise Rejection("malformed_action", f"{where}.{key}: expected a card id string, got {raw[key]!r}")
        needs = {
            "play": "card",
            "bonus": "card",
            "dual_to_junk": "card",
            "take": "card",
            "bomb": "month",
            "shake": "month",
            "chongtong": "month",
        }
        if kind in needs and needs[kind] not in raw:
            raise Rejection("malformed_action", f"{where}: a {kind!r} action needs the field {needs[kind]!r}")
        month = raw.get("month")
        if month is not None and (not isinstance(month, int) or isinstance(month, bool) or not 1 <= month <= 12):
            raise Rejection("malformed_action", f"{where}.month: expected a month from 1 to 12, got {month!r}")
        shake = raw.get("shake", False)
        if not isinstance(shake, bool):
            raise Rejection("malformed_action", f"{where}.shake: expected true or false, got {shake!r}")
        return Action(type=kind, player=player, card=raw.get("card"), take=raw.get("take"), month=month, shake=shake)


class Rejection(Exception):
    """An illegal action: a stable code (spec/vocabulary.yaml) and a message; the state is unchanged."""

    def __init__(self, code: RejectionCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
