"""The stdio client: any engine, in any language, driven through the JSON Lines protocol, as an
`Engine` (conformance/_engine.py). Three layers, one concern each: the process and its lines
(conformance/_transport.py), the requests sent ahead of the replies being checked
(conformance/_pipeline.py), and here the protocol's requests as the harness calls them.

The harness must never be brought down by the engine it tests: every failure becomes an
`EngineError` of kind `crash`, `timeout`, `protocol` or `error`.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from typing import Any

from gostop_conformance.harness._defaults import DEFAULT_PIPELINE, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT
from gostop_conformance.harness._engine import EngineError
from gostop_conformance.harness._pipeline import Pipeline
from gostop_conformance.harness._pipes import StderrBuffer
from gostop_conformance.harness._safetext import engine_text
from gostop_conformance.harness._transport import Transport

__all__ = ["StdioEngine", "hello_request"]

Json = dict[str, Any]


class StdioEngine:
    """An engine process speaking the protocol on stdin/stdout. Never run through a shell."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
        message_timeout: float = DEFAULT_TIMEOUT,
        max_line: int = 8 << 20,
        stderr_limit: int = 1 << 20,
        pipeline: int = DEFAULT_PIPELINE,
    ) -> None:
        if not argv:
            raise ValueError("empty engine command")
        self.argv = list(argv)
        self.startup_timeout = startup_timeout
        self.message_timeout = message_timeout
        self.pipeline = pipeline
        self.transport = Transport(argv, message_timeout=message_timeout, max_line=max_line, stderr_limit=stderr_limit)
        self.requests = Pipeline(self.transport, pipeline)
        self.hello_reply: Json | None = None

    # -------------------------------------------------------------- process

    def start(self) -> Json:
        """Start the process and shake hands; the hello reply says what the engine supports."""
        self.close()
        self.transport.open()
        self.hello_reply = self.requests.request("hello", hello_request(), self.startup_timeout)
        return self.hello_reply

    def alive(self) -> bool:
        return self.transport.alive()

    def ready(self) -> None:
        """Start the engine if the harness closed it; raise the crash if it died on its own since
        its last reply was read and nothing is in flight: a death always belongs to a scenario,
        never to a silent restart. With requests in flight (sent ahead), the replies it wrote
        before it died are read first, and the crash belongs to the first it did not finish, as
        it would had the harness been quicker."""
        proc = self.transport.proc
        if proc is not None and not self.requests.in_flight and proc.poll() is not None:
            code = proc.returncode
            stderr = self.stderr
            self.close()
            self.transport.stderr = stderr  # the next scenario's start must not lose what it said
            raise EngineError("crash", f"the engine exited (exit code {code}) after the last reply read, before this scenario's")
        if proc is None:
            self.start()

    def abort(self) -> None:
        """End the engine's process group at once, from any thread (an interrupted run)."""
        self.transport.abort()

    def close(self) -> None:
        self.requests.close()

    def take_transcript(self) -> list[tuple[str, str]]:
        """The lines exchanged since the last call (the harness takes them scenario by scenario)."""
        return self.transport.take_transcript()

    @property
    def stderr(self) -> StderrBuffer:
        return self.transport.stderr

    @property
    def proc(self) -> subprocess.Popen[bytes] | None:
        return self.transport.proc

    @property
    def seq(self) -> int:
        return self.transport.seq

    @property
    def starts(self) -> int:
        return self.transport.starts

    # -------------------------------------------------------------- sending ahead (conformance/_pipeline.py)

    def plan(self, requests: Sequence[tuple[str, Json]]) -> None:
        """Begin a round: the requests it makes when every reply is as expected (Pipeline.plan)."""
        self.requests.plan(requests)

    def expect(self, rounds: Sequence[Sequence[tuple[str, Json]]]) -> None:
        """Rounds that will run after those already planned or expected (Pipeline.expect)."""
        self.requests.expect(rounds)

    @property
    def expected(self) -> int:
        return self.requests.expected

    @property
    def sent_ahead(self) -> int:
        return self.requests.sent_ahead

    @property
    def most_in_flight(self) -> int:
        return self.requests.most_in_flight

    @property
    def plans_dropped(self) -> int:
        return self.requests.plans_dropped

    @property
    def rounds_sent_ahead(self) -> int:
        return self.requests.rounds_sent_ahead

    # -------------------------------------------------------------- the protocol's requests

    def request(self, cmd: str, payload: Json, timeout: float | None = None) -> Json:
        """Any request, its reply as the engine sent it (an error reply included)."""
        return self.requests.request(cmd, payload, timeout)

    def _checked(self, cmd: str, payload: Json, timeout: float | None = None) -> Json:
        reply = self.requests.request(cmd, payload, timeout)
        if "error" in reply:
            err = reply["error"]
            raise EngineError("error", f"{cmd} failed: {engine_text(err.get('code'))}: {engine_text(err.get('message'))}")
        return reply

    def hello(self) -> Json:
        return self.hello_reply if self.hello_reply is not None else self.start()

    def new_game(self, ruleset: Json, deal: Json) -> Json:
        if self.requests.failure is None:
            self.ready()
        return self.requests.request("new_game", {"ruleset": ruleset, "deal": deal})

    def legal(self) -> Json:
        return self._checked("legal", {})

    def act(self, action: Json) -> Json:
        return self.requests.request("act", {"action": action})

    def score(self) -> Json:
        return self._checked("score", {})

    def perft(self, depth: int) -> Json:
        return self._checked("perft", {"depth": depth}, timeout=max(self.message_timeout, 600.0))


def hello_request() -> Json:
    """The fields of the hello the harness sends (besides `seq` and `cmd`)."""
    from gostop_conformance.reference import PROTOCOL_VERSION, engine_version

    return {"protocol": PROTOCOL_VERSION, "suite_version": engine_version()}
