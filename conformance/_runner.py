"""Running scenarios against an engine, step by step, collecting every mismatch."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conformance._compare import Mismatch, check_expectation, queries
from conformance._engine import Engine, EngineError, planned
from conformance._oracle import card_violations, score_violations
from conformance._scenarios import RoundSpec, Scenario

Json = dict[str, Any]

PASS = "PASS"
FAIL = "FAIL"
ERROR = "ERROR"
CRASH = "CRASH"
TIMEOUT = "TIMEOUT"
PROTOCOL = "PROTOCOL"
UNSUPPORTED = "UNSUPPORTED"
OUTCOME_OF_ERROR = {"crash": CRASH, "timeout": TIMEOUT, "protocol": PROTOCOL, "error": ERROR}
#: how the error of a new_game refused with the code `unsupported` begins (the outcome is UNSUPPORTED)
REFUSED = "the engine refused the deal as unsupported"
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
    """Run one scenario (each of its rounds in turn); FAIL lists every mismatch, ERROR and the
    other outcomes say what the engine did wrong."""
    transcript: list[tuple[str, Json, Json]] = []
    mismatches: list[Mismatch] = []
    counter = [0]

    def call(kind: str, request: Json, fn: Callable[[], Json]) -> Json:
        reply = fn()
        transcript.append((kind, request, reply))
        return reply

    try:
        options = sc.rules
        previous: Json | None = None
        totals = [0] * options.players
        counted = 0
        for number, rnd in enumerate(sc.rounds):
            label = sc.id if len(sc.rounds) == 1 else f"{sc.id} round {number + 1}"
            if previous is not None:
                mismatches += _check_chain(label, previous, rnd.deal)
            error, settled = _run_round(engine, sc, rnd, label, options, call, mismatches, counter)
            if error is not None:
                # a deal the engine says it does not support is its own declaration, made late
                outcome = UNSUPPORTED if error.startswith(REFUSED) else ERROR
                return Result(sc.id, outcome, tuple(mismatches), error, counter[0], tuple(transcript))
            if settled is None:
                break
            previous = settled.get("next") or {}
            for seat, amount in enumerate((settled.get("settlement") or {}).get("net", [])[: len(totals)]):
                totals[seat] += amount
            counted += 1 if previous.get("counts_as_round") else 0
        if sc.match:
            mismatches += _check_match(sc, options, totals, counted)
    except EngineError as exc:
        return Result(sc.id, OUTCOME_OF_ERROR.get(exc.kind, ERROR), tuple(mismatches), exc.message, counter[0], tuple(transcript))
    failed = any(m.binding for m in mismatches)  # notes alone (events outside an event-log scenario) fail nothing
    return Result(sc.id, FAIL if failed else PASS, tuple(mismatches), None, counter[0], tuple(transcript))


def _run_round(
    engine: Engine,
    sc: Scenario,
    rnd: RoundSpec,
    name: str,
    options: Any,
    call: Callable[[str, Json, Callable[[], Json]], Json],
    mismatches: list[Mismatch],
    counter: list[int],
) -> tuple[str | None, Json | None]:
    """One round: (an error that stops the scenario, the final score reply when the round ended)."""
    ruleset = sc.ruleset_json()
    judging: dict[str, Any] = {"exact": sc.exact_cards, "event_log": sc.event_log, "rules": sc.rules}
    with planned(engine, round_plan(ruleset, rnd)):
        reply = call("new_game", {"ruleset": ruleset, "deal": rnd.deal}, lambda: engine.new_game(ruleset, rnd.deal))
        if "error" in reply:
            err = reply["error"]
            if isinstance(err, dict) and err.get("code") == "unsupported":
                return f"{REFUSED}: {err.get('message', '')}", None
            return f"new_game was refused: {err}", None
        state = reply.get("state", {})

        def invariants(where: str, st: Json) -> None:
            for problem in card_violations(st, options):
                mismatches.append(Mismatch(where, "invariant: cards", "every card in exactly one place", problem))

        def legal() -> Json:
            return call("legal", {}, engine.legal)

        def score() -> Json:
            return call("score", {}, engine.score)

        invariants(f"{name} after the deal", state)
        if rnd.after_deal:
            mismatches += check_expectation(
                rnd.after_deal, reply.get("events", []), state, f"{name} after the deal", legal, score, **judging
            )
        for step in rnd.steps:
            label = f"{name} {step.title}"
            before = legal() if step.reject is not None else None
            reply = call("act", step.act, lambda a=step.act: engine.act(a))  # type: ignore[misc]
            counter[0] += 1
            if step.reject is not None:
                err = reply.get("error")
                code = err.get("code") if isinstance(err, dict) else None
                if code != step.reject:
                    mismatches.append(Mismatch(label, "rejection", step.reject, code if err else "accepted", "expected a rejection"))
                    if not err:
                        return None, None  # the state moved on; later steps would only cascade
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
                return None, None
            state = reply.get("state", {})
            invariants(label, state)
            if step.expect:
                mismatches += check_expectation(step.expect, reply.get("events", []), state, label, legal, score, **judging)
        if rnd.final:
            mismatches += check_expectation(rnd.final, [], state, f"{name} at the end", legal, score, **judging)
        final = score()
        for problem in score_violations(state, final.get("scores") or [], options):
            mismatches.append(Mismatch(f"{name} at the end", "invariant: scores", "scores that recompute from the captured piles", problem))
        return None, final if final.get("settlement") is not None else None


def scenario_plan(sc: Scenario) -> list[list[tuple[str, Json]]]:
    """round_plan for every round of `sc`, in order (what a stdio engine is told to expect)."""
    ruleset = sc.ruleset_json()
    return [round_plan(ruleset, rnd) for rnd in sc.rounds]


def round_plan(ruleset: Json, rnd: RoundSpec) -> list[tuple[str, Json]]:
    """The requests _run_round makes when every reply is as the scenario expects, in order: a
    stdio engine gets each one while the harness still checks the reply before it."""
    out: list[tuple[str, Json]] = [("new_game", {"ruleset": ruleset, "deal": rnd.deal})]
    out += [(q, {}) for q in queries(rnd.after_deal)]
    for step in rnd.steps:
        if step.reject is not None:
            out += [("legal", {}), ("act", {"action": step.act}), ("legal", {})]
        else:
            out.append(("act", {"action": step.act}))
            out += [(q, {}) for q in queries(step.expect)]
    out += [(q, {}) for q in queries(rnd.final)]
    out.append(("score", {}))
    return out


def _check_chain(label: str, previous: Json, deal: Json) -> list[Mismatch]:
    """R-NEXT-DEALER, R-NAGARI-CARRY: a later round of a scenario starts as the engine said the
    previous round hands over; a scenario whose next deal disagrees with that fails."""
    out = []
    for key, default in (("dealer", 0), ("nagari_streak", 0), ("carried_multiplier", 1)):
        if key in previous and deal.get(key, default) != previous[key]:
            out.append(
                Mismatch(
                    label,
                    f"next round: {key}",
                    deal.get(key, default),
                    previous[key],
                    "the deal of this round against what the engine said the previous round hands over",
                )
            )
    return out


def _check_match(sc: Scenario, options: Any, totals: list[int], counted: int) -> list[Mismatch]:
    """R-MATCH-ROUNDS: totals, counted rounds and whether the match is over, from the engine's rounds."""
    spec = sc.match or {}
    target = options.match_target_points
    over = counted >= options.match_rounds or (isinstance(target, int) and max(totals) >= target)
    actual = {"totals": totals, "counted_rounds": counted, "over": over}
    label = f"{sc.id} match"
    return [
        Mismatch(label, f"match.{key}", spec[key], actual[key])
        for key in ("totals", "counted_rounds", "over")
        if key in spec and spec[key] != actual[key]
    ]
