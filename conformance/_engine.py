"""What the harness needs from an engine: the `Engine` protocol, satisfied by the in-process
reference engine here and by the stdio client. Every method speaks the JSON vocabulary of
spec/vocabulary.yaml (the same objects the stdio protocol carries)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final, Literal, Protocol, TypeAlias

import jsonschema

from gostop_conformance.reference import JsonEngine
from gostop_conformance.spec import format_path, protocol_check, protocol_validator

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


#: replies whose schema is a oneOf of a success shape and the error shape
_TWO_SHAPED: Final = frozenset({"new_game", "act", "legal", "score", "perft"})


def _reply_ok(cmd: str, reply: Json) -> bool:
    """The compiled check of the one reply shape this reply claims to have."""
    if cmd in _TWO_SHAPED:
        return protocol_check("reply_error")(reply) if "error" in reply else protocol_check(f"reply_{cmd}", 0)(reply)
    return protocol_check(f"reply_{cmd}")(reply)


def reply_problem(cmd: str, reply: Json) -> str | None:
    """What makes a reply (with its `seq`) break the protocol schema, naming the JSON path, or None."""
    if _reply_ok(cmd, reply):
        return None
    # the full validator explains; should the two ever disagree, it decides. A reply holding `error`
    # is an error reply, and is held to that shape alone: the success shapes allow other members, so
    # a result with a non-object `error` beside it passes the full schema's oneOf, and the harness,
    # which reads any reply holding `error` as a refusal, would take that error for an object
    shape = "reply_error" if cmd in _TWO_SHAPED and "error" in reply else f"reply_{cmd}"
    err = jsonschema.exceptions.best_match(protocol_validator(shape).iter_errors(reply))
    if err is None:
        return None
    where = format_path(list(err.absolute_path)) or "(reply)"
    return f"the reply to {cmd} does not follow the protocol schema: {where}: {err.message}"


class Engine(Protocol):
    """An engine under test. Replies are JSON objects; `act` may reply `{"error": {code, message}}`."""

    def hello(self) -> Json: ...

    def new_game(self, ruleset: Json, deal: Json) -> Json: ...

    def legal(self) -> Json: ...

    def act(self, action: Json) -> Json: ...

    def score(self) -> Json: ...

    def close(self) -> None: ...


def restart(engine: Engine) -> None:
    """Start an engine that failed again, if it can be (the stdio client); a second failure is not
    raised here: it shows at the engine's next request."""
    start = getattr(engine, "start", None)
    if start is not None:
        with contextlib.suppress(EngineError):
            start()


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


class SchemaChecked:
    """An engine whose every reply is held to the protocol schema, as the stdio client holds an
    engine's lines: the in-process reference engine under test (tests/conformance/test_corpus.py)
    then answers in exactly the shapes an engine over stdio must, so a reply that loses a field
    or renames one fails the corpus in process too."""

    def __init__(self, inner: Engine) -> None:
        self.inner = inner

    def _checked(self, cmd: str, reply: Json) -> Json:
        problem = reply_problem(cmd, {"seq": 0, **reply})
        if problem is not None:
            raise EngineError("protocol", problem)
        return reply

    def hello(self) -> Json:
        return self._checked("hello", self.inner.hello())

    def new_game(self, ruleset: Json, deal: Json) -> Json:
        return self._checked("new_game", self.inner.new_game(ruleset, deal))

    def legal(self) -> Json:
        return self._checked("legal", self.inner.legal())

    def act(self, action: Json) -> Json:
        return self._checked("act", self.inner.act(action))

    def score(self) -> Json:
        return self._checked("score", self.inner.score())

    def close(self) -> None:
        self.inner.close()
