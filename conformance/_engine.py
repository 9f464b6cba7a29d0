"""What the harness needs from an engine: the `Engine` protocol, satisfied by the in-process
reference engine here and by the stdio client. Every method speaks the JSON vocabulary of
spec/vocabulary.yaml (the same objects the stdio protocol carries)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal, Protocol, TypeAlias

from reference_impl import JsonEngine

Json = dict[str, Any]

#: how an engine can fail a request; each has its scenario outcome (_runner.OUTCOME_OF_ERROR)
FailureKind: TypeAlias = Literal["crash", "timeout", "protocol", "error"]


class EngineError(Exception):
    """The engine failed to answer a request properly (crash, hang, garbage, internal error)."""

    def __init__(self, kind: FailureKind, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message

    def __reduce__(self) -> tuple[type[EngineError], tuple[FailureKind, str]]:
        # raised in a worker process (--jobs), it crosses back to the parent whole
        return (EngineError, (self.kind, self.message))


class Engine(Protocol):
    """An engine under test. Replies are JSON objects; `act` may reply `{"error": {code, message}}`."""

    def hello(self) -> Json: ...

    def new_game(self, ruleset: Json, deal: Json) -> Json: ...

    def legal(self) -> Json: ...

    def act(self, action: Json) -> Json: ...

    def score(self) -> Json: ...

    def close(self) -> None: ...


@contextmanager
def planned(engine: Engine, requests: Sequence[tuple[str, Json]]) -> Iterator[None]:
    """Tell an engine that can take requests early (the stdio client: `plan`) which ones come
    next, for the duration of the block; other engines are called as they are."""
    plan = getattr(engine, "plan", None)
    if plan is None:
        yield
        return
    plan(requests)
    try:
        yield
    finally:
        plan(())


class ReferenceEngine(JsonEngine):
    """The bundled reference engine, in process (the same object the stdio server drives)."""
