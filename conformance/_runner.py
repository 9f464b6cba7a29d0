"""Running scenarios against an engine, step by step, collecting every mismatch."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conformance._compare import Mismatch, check_expectation
from conformance._engine import Engine, EngineError
from conformance._oracle import card_violations, options_of, score_violations
from conformance._scenarios import Scenario

Json = dict[str, Any]

PASS = "PASS"
FAIL = "FAIL"
ERROR = "ERROR"
CRASH = "CRASH"
TIMEOUT = "TIMEOUT"
PROTOCOL = "PROTOCOL"
UNSUPPORTED = "UNSUPPORTED"
OUTCOME_OF_ERROR = {"crash": CRASH, "timeout": TIMEOUT, "protocol": PROTOCOL, "error": ERROR}
#: outcomes after which the engine process is restarted before the next scenario
RESTART_AFTER = frozenset({CRASH, TIMEOUT, PROTOCOL})


@dataclass(frozen=True, slots=True)
class Result:
    scenario: str
    outcome: str
    mismatches: tuple[Mismatch, ...] = ()
    error: str | None = None
    steps_run: int = 0
    transcript: tuple[tuple[str, Json, Json], ...] = field(default=(), compare=False)

    def text(self) -> str:
        lines = [f"{self.outcome} {self.scenario}"]
        if self.error:
            lines.append(f"  {self.error}")
        lines += ["  " + m.text().replace("\n", "\n  ") for m in self.mismatches]
        return "\n".join(lines)


def run_scenario(engine: Engine, sc: Scenario) -> Result:
    """Run one scenario; FAIL lists every mismatch, ERROR says what the engine did wrong."""
    transcript: list[tuple[str, Json, Json]] = []

    def call(kind: str, request: Json, fn: Callable[[], Json]) -> Json:
        reply = fn()
        transcript.append((kind, request, reply))
        return reply

    mismatches: list[Mismatch] = []
    steps_run = 0
    try:
        reply = call("new_game", {"ruleset": sc.ruleset_json(), "deal": sc.deal}, lambda: engine.new_game(sc.ruleset_json(), sc.deal))
        if "error" in reply:
            return Result(sc.id, ERROR, error=f"new_game was refused: {reply['error']}", transcript=tuple(transcript))
        state = reply.get("state", {})
        options = options_of(sc.ruleset_json())

        def invariants(where: str, st: Json) -> None:
            for problem in card_violations(st, options):
                mismatches.append(Mismatch(where, "invariant: cards", "every card in exactly one place", problem))

        invariants(f"{sc.id} after the deal", state)

        def legal() -> Json:
            return call("legal", {}, engine.legal)

        def score() -> Json:
            return call("score", {}, engine.score)

        if sc.after_deal:
            mismatches += check_expectation(sc.after_deal, reply.get("events", []), state, f"{sc.id} after the deal", legal, score)
        for step in sc.steps:
            label = f"{sc.id} step {step.index + 1} ({_action_text(step.act)})"
            before = legal() if step.reject is not None else None
            reply = call("act", step.act, lambda a=step.act: engine.act(a))  # type: ignore[misc]
            steps_run += 1
            if step.reject is not None:
                err = reply.get("error")
                code = err.get("code") if isinstance(err, dict) else None
                if code != step.reject:
                    mismatches.append(Mismatch(label, "rejection", step.reject, code if err else "accepted", "expected a rejection"))
                    if not err:
                        break  # the state moved on; later steps would only cascade
                elif legal() != before:
                    mismatches.append(
                        Mismatch(
                            label,
                            "rejection",
                            "the same legal actions as before",
                            "they changed",
                            "a rejected action must leave the state unchanged",
                        )
                    )
                continue
            if "error" in reply:
                mismatches.append(Mismatch(label, "act", "accepted", reply["error"], "the action was rejected"))
                break
            state = reply.get("state", {})
            invariants(label, state)
            if step.expect:
                mismatches += check_expectation(step.expect, reply.get("events", []), state, label, legal, score)
        if sc.final:
            mismatches += check_expectation(sc.final, [], state, f"{sc.id} at the end", legal, score)
        for problem in score_violations(state, score().get("scores") or [], options):
            mismatches.append(
                Mismatch(f"{sc.id} at the end", "invariant: scores", "scores that recompute from the captured piles", problem)
            )
    except EngineError as exc:
        return Result(sc.id, OUTCOME_OF_ERROR.get(exc.kind, ERROR), tuple(mismatches), exc.message, steps_run, tuple(transcript))
    return Result(sc.id, FAIL if mismatches else PASS, tuple(mismatches), None, steps_run, tuple(transcript))


def unsupported_reason(sc: Scenario, hello: Json) -> str | None:
    """Why an engine cannot run `sc`, from what its hello declared; None if it can. A declared
    ruleset covers its own option values; overridden options need the values declared."""
    rulesets = set(hello.get("rulesets") or ())
    options = hello.get("options") or {}
    features = set(hello.get("features") or ())
    missing = [f for f in sc.requires if f not in features]
    if missing:
        return f"requires {', '.join(missing)}"
    if sc.ruleset in rulesets:
        to_check = {k: sc.resolved_options[k] for k in sc.options}
    elif options:
        to_check = dict(sc.resolved_options)
    else:
        return f"ruleset {sc.ruleset} is not declared"
    for key, value in to_check.items():
        support = options.get(key)
        if not (support == "all" or (isinstance(support, list) and value in support)):
            return f"option {key} = {value!r} is not declared"
    return None


def _action_text(a: Json) -> str:
    parts = [f"P{a.get('player')} {a.get('type')}"]
    for key in ("card", "take", "month"):
        if key in a:
            parts.append(f"{key}={a[key]}")
    if a.get("shake"):
        parts.append("shake")
    return " ".join(parts)
