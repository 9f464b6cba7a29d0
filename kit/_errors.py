"""The errors an adapter raises, each the error reply of spec/vocabulary.yaml it becomes (rejections
and errors). Any other exception of the engine is an `internal` error: the kit serves on."""

from __future__ import annotations

from typing import Final

from gostop_conformance import spec

#: the codes a refused action may carry (spec/vocabulary.yaml, rejections)
REJECTION_CODES: Final = frozenset(spec.vocabulary()["rejections"])


class ProtocolError(Exception):
    """An error reply: `code` (spec/vocabulary.yaml) and a message for a human."""

    code: str = "internal"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self)

    def reply(self, seq: int | None) -> dict[str, object]:
        return {"seq": seq, "error": {"code": self.code, "message": self.message}}


class Rejected(ProtocolError):
    """An action that breaks a rule (R-TURN): refused with a rejection code, the state unchanged."""

    def __init__(self, code: str, message: str) -> None:
        if code not in REJECTION_CODES:
            raise ValueError(f"{code!r} is not a rejection code of spec/vocabulary.yaml: {sorted(REJECTION_CODES)}")
        super().__init__(message, code)


class Unsupported(ProtocolError):
    """The ruleset or an option value is one the engine does not play, or a command it does not
    implement: the scenario is UNSUPPORTED, never failed (declare in hello only what you play)."""

    code = "unsupported"


class BadDeal(ProtocolError):
    """The deal of new_game is not a deal of the ruleset."""

    code = "bad_deal"


class KitError(ValueError):
    """What an adapter built breaks the protocol (a state, score or event that the schema refuses):
    a bug of the adapter, answered as `internal` with the JSON path of the mistake."""
