"""A scenario round compiled once: the requests it makes, in order, each with the check of its
reply. The runner executes the steps; the stdio client is told the same requests ahead
(`Compiled.plan`); nothing describes a round a second time, so what is sent ahead is what the
runner asks for whenever the replies are as the scenario expects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from gostop_conformance.harness._compare import REPLY_KEYS, Mismatch, check_legal_reply, check_score_reply, check_seen, queries
from gostop_conformance.harness._oracle import card_violations, score_violations
from gostop_conformance.harness._safetext import engine_text
from gostop_conformance.harness._scenarios import RoundSpec, Scenario

Json = dict[str, Any]

#: how the error of a new_game refused with the code `unsupported` begins (the outcome is UNSUPPORTED)
REFUSED = "the engine refused the deal as unsupported"

#: the expectation keys checked against a query's reply rather than the state (REPLY_KEYS)
_QUERIED: Final = frozenset(k for keys in REPLY_KEYS.values() for k in keys)


class Flow(Enum):
    """What a step's check says comes next."""

    NEXT = "next"
    #: the rest of this scenario step's requests are not needed (a rejection with another code)
    SKIP_GROUP = "skip group"
    #: the round stops here (the state moved on unexpectedly, or the deal was refused)
    STOP = "stop"


@dataclass(slots=True)
class Progress:
    """What the steps of one round have seen so far, as they run."""

    mismatches: list[Mismatch]
    state: Json = field(default_factory=dict)
    events: list[Json] = field(default_factory=list)
    #: the legal reply before an action that must be rejected (it must not change)
    before: Json | None = None
    #: why the round could not be played (new_game refused), or None
    error: str | None = None
    #: the final score reply, when it carries a settlement (the round ended)
    settled: Json | None = None
    acts: int = 0


Check = Callable[[Json, Progress], Flow]


@dataclass(frozen=True, slots=True)
class Step:
    """One request (`cmd`, `payload` as the protocol carries it) and the check of its reply; a
    step with no `cmd` checks what the last reply showed and sends nothing. `group` numbers the
    scenario step it belongs to (0: the deal; the final checks: the last). `spec` is the check
    as data, made beside it from the same inputs (the corpus export writes it: conformance._export)."""

    cmd: str | None
    payload: Json
    check: Check
    group: int
    spec: Json


@dataclass(frozen=True, slots=True)
class Compiled:
    steps: tuple[Step, ...]

    @property
    def plan(self) -> list[tuple[str, Json]]:
        """The requests, in order, when every reply is as the scenario expects (what a stdio
        engine is told to expect)."""
        return [(s.cmd, s.payload) for s in self.steps if s.cmd is not None]


def compile_round(sc: Scenario, rnd: RoundSpec, name: str) -> Compiled:
    """The steps of round `rnd` of `sc`, reported under `name`."""
    judging: dict[str, Any] = {"exact": sc.exact_cards, "event_log": sc.event_log, "rules": sc.rules}
    options = sc.rules

    def invariants(where: str, progress: Progress) -> None:
        for problem in card_violations(progress.state, options):
            progress.mismatches.append(Mismatch(where, "invariant: cards", "every card in exactly one place", problem))

    def dealt(reply: Json, progress: Progress) -> Flow:
        if "error" in reply:
            err = reply["error"]
            if isinstance(err, dict) and err.get("code") == "unsupported":
                progress.error = f"{REFUSED}: {engine_text(err.get('message', ''))}"
            else:
                progress.error = f"new_game was refused: {err}"
            return Flow.STOP
        progress.state, progress.events = reply.get("state", {}), reply.get("events", [])
        invariants(f"{name} after the deal", progress)
        return Flow.NEXT

    steps = [Step("new_game", {"ruleset": sc.ruleset_json(), "deal": rnd.deal}, dealt, 0, {"check": "dealt"})]
    steps += _expectation(rnd.after_deal, f"{name} after the deal", 0, judging)
    for number, step in enumerate(rnd.steps, 1):
        label = f"{name} {step.title}"
        payload = {"action": step.act}
        if step.reject is not None:
            steps += [
                Step("legal", {}, _remember, number, {"check": "remember"}),
                Step("act", payload, _rejected(step.reject, label), number, {"check": "rejected", "code": step.reject}),
                Step("legal", {}, _unchanged(label), number, {"check": "unchanged"}),
            ]
            continue
        steps.append(Step("act", payload, _accepted(label, invariants), number, {"check": "accepted"}))
        steps += _expectation(step.expect, label, number, judging)
    last = len(rnd.steps) + 1
    steps += _expectation(rnd.final, f"{name} at the end", last, judging, events=False)

    def final(reply: Json, progress: Progress) -> Flow:
        for problem in score_violations(progress.state, reply.get("scores") or [], options, sc.unjudged):
            progress.mismatches.append(
                Mismatch(f"{name} at the end", "invariant: scores", "scores that recompute from the captured piles", problem)
            )
        progress.settled = reply if reply.get("settlement") is not None else None
        return Flow.NEXT

    steps.append(Step("score", {}, final, last, {"check": "end"}))
    return Compiled(tuple(steps))


def compile_scenario(sc: Scenario) -> list[Compiled]:
    """compile_round for every round of `sc`, named as the reports name them."""
    if len(sc.rounds) == 1:
        return [compile_round(sc, sc.rounds[0], sc.id)]
    return [compile_round(sc, rnd, f"{sc.id} round {k}") for k, rnd in enumerate(sc.rounds, 1)]


def scenario_plan(sc: Scenario) -> list[list[tuple[str, Json]]]:
    """The plan of every round of `sc`, in order."""
    return [c.plan for c in compile_scenario(sc)]


def _expectation(spec: Json | None, where: str, group: int, judging: dict[str, Any], events: bool = True) -> list[Step]:
    """An expectation's steps: a check of what the last reply showed, then one query per reply
    it needs besides (conformance._compare.queries), each checked as it comes."""
    if not spec:
        return []

    def seen(_: Json, progress: Progress) -> Flow:
        progress.mismatches += check_seen(spec, progress.events if events else [], progress.state, where, **judging)
        return Flow.NEXT

    def legal(reply: Json, progress: Progress) -> Flow:
        progress.mismatches += check_legal_reply(spec, reply, where, judging["exact"])
        return Flow.NEXT

    def score(reply: Json, progress: Progress) -> Flow:
        progress.mismatches += check_score_reply(spec, reply, where)
        return Flow.NEXT

    asked = {"legal": legal, "score": score}
    # each check reads only its own keys of the expectation (check_seen, check_legal_reply,
    # check_score_reply): the data form names those alone
    seen_spec = {"check": "state", "events": events, "expect": {k: v for k, v in spec.items() if k not in _QUERIED}}
    steps = [Step(None, {}, seen, group, seen_spec)]
    for q in queries(spec):
        steps.append(Step(q, {}, asked[q], group, {"check": q, "expect": {k: spec[k] for k in REPLY_KEYS[q] if k in spec}}))
    return steps


def _remember(reply: Json, progress: Progress) -> Flow:
    progress.before = reply
    return Flow.NEXT


def _rejected(code: str, label: str) -> Check:
    def check(reply: Json, progress: Progress) -> Flow:
        err = reply.get("error")
        got = err.get("code") if isinstance(err, dict) else None
        if got == code:
            return Flow.NEXT
        progress.mismatches.append(Mismatch(label, "rejection", code, got if err else "accepted", "expected a rejection"))
        # accepted: the state moved on, and later steps would only cascade
        return Flow.SKIP_GROUP if err else Flow.STOP

    return check


def _unchanged(label: str) -> Check:
    def check(reply: Json, progress: Progress) -> Flow:
        if reply != progress.before:
            progress.mismatches.append(
                Mismatch(
                    label,
                    "rejection",
                    "the same legal actions as before",
                    "they changed",
                    "a rejected action must leave the state unchanged",
                )
            )
        return Flow.NEXT

    return check


def _accepted(label: str, invariants: Callable[[str, Progress], None]) -> Check:
    def check(reply: Json, progress: Progress) -> Flow:
        if "error" in reply:
            progress.mismatches.append(Mismatch(label, "act", "accepted", reply["error"], "the action was rejected"))
            return Flow.STOP
        progress.state, progress.events = reply.get("state", {}), reply.get("events", [])
        invariants(label, progress)
        return Flow.NEXT

    return check
