"""Running scenarios against an engine, step by step, collecting every mismatch."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias, get_args

from gostop_conformance.harness._compare import Mismatch
from gostop_conformance.harness._engine import Engine, EngineError, FailureKind, planned
from gostop_conformance.harness._scenarios import Scenario
from gostop_conformance.harness._steps import REFUSED, Compiled, Flow, Progress, compile_scenario

Json = dict[str, Any]

#: what became of a scenario in a run; XFAIL and XPASS come from a known-failures ledger, NOT_RUN from
#: an interrupted run
Outcome: TypeAlias = Literal["PASS", "FAIL", "ERROR", "CRASH", "TIMEOUT", "PROTOCOL", "UNSUPPORTED", "XFAIL", "XPASS", "NOT_RUN"]
OUTCOMES: Final[tuple[Outcome, ...]] = get_args(Outcome)
PASS: Final[Outcome] = "PASS"
FAIL: Final[Outcome] = "FAIL"
ERROR: Final[Outcome] = "ERROR"
CRASH: Final[Outcome] = "CRASH"
TIMEOUT: Final[Outcome] = "TIMEOUT"
PROTOCOL: Final[Outcome] = "PROTOCOL"
UNSUPPORTED: Final[Outcome] = "UNSUPPORTED"
#: every way an engine can fail has its outcome, so no caller needs a default of its own
OUTCOME_OF_ERROR: Final[dict[FailureKind, Outcome]] = {"crash": CRASH, "timeout": TIMEOUT, "protocol": PROTOCOL, "error": ERROR}
#: outcomes after which the engine process is restarted before the next scenario
RESTART_AFTER: Final[frozenset[Outcome]] = frozenset({CRASH, TIMEOUT, PROTOCOL})


@dataclass(frozen=True, slots=True)
class Result:
    scenario: str
    outcome: Outcome
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
    """Run one scenario (each of its rounds in turn, as conformance._steps compiles them); FAIL
    lists every mismatch, ERROR and the other outcomes say what the engine did wrong."""
    transcript: list[tuple[str, Json, Json]] = []
    mismatches: list[Mismatch] = []
    acts = 0
    try:
        options = sc.rules
        previous: Json | None = None
        totals = [0] * options.players
        counted = 0
        for number, (rnd, compiled) in enumerate(zip(sc.rounds, compile_scenario(sc), strict=True)):
            if previous is not None:
                label = sc.id if len(sc.rounds) == 1 else f"{sc.id} round {number + 1}"
                mismatches += _check_chain(label, previous, rnd.deal)
                if sc.match and _match_over(options, totals, counted):
                    # R-MATCH-ROUNDS: no round is played after the match has ended
                    note = f"the match ended after round {number}, before the round the scenario plays next"
                    mismatches.append(Mismatch(label, "match.over", False, True, note))
                    break
            progress = Progress(mismatches)
            try:
                with planned(engine, compiled.plan):
                    run_round(engine, compiled, progress, transcript)
            finally:  # an engine error ends the scenario: the actions made so far are its steps run
                acts += progress.acts
            if progress.error is not None:
                # a deal the engine says it does not support is its own declaration, made late
                outcome = UNSUPPORTED if progress.error.startswith(REFUSED) else ERROR
                return Result(sc.id, outcome, tuple(mismatches), progress.error, acts, tuple(transcript))
            settled = progress.settled
            if settled is None:
                break
            previous = settled.get("next") or {}
            for seat, amount in enumerate((settled.get("settlement") or {}).get("net", [])[: len(totals)]):
                totals[seat] += amount
            counted += 1 if previous.get("counts_as_round") else 0
        if sc.match:
            mismatches += _check_match(sc, options, totals, counted)
    except EngineError as exc:
        return Result(sc.id, OUTCOME_OF_ERROR[exc.kind], tuple(mismatches), exc.message, acts, tuple(transcript))
    failed = any(m.binding for m in mismatches)  # notes alone (events outside an event-log scenario) fail nothing
    return Result(sc.id, FAIL if failed else PASS, tuple(mismatches), None, acts, tuple(transcript))


def run_round(engine: Engine, compiled: Compiled, progress: Progress, transcript: list[tuple[str, Json, Json]]) -> None:
    """Execute the steps of one round in order, each request's reply going to its check, until
    a check stops the round; every exchange goes to `transcript` (an act's request as the action)."""
    skip = -1
    for step in compiled.steps:
        if step.group == skip:
            continue
        cmd = step.cmd
        if cmd is None:
            reply: Json = {}
        else:
            if cmd == "act":
                request = step.payload["action"]
                reply = engine.act(request)
                progress.acts += 1
            elif cmd == "legal":
                request, reply = step.payload, engine.legal()
            elif cmd == "score":
                request, reply = step.payload, engine.score()
            else:
                request = step.payload
                reply = engine.new_game(request["ruleset"], request["deal"])
            transcript.append((cmd, request, reply))
        flow = step.check(reply, progress)
        if flow is Flow.STOP:
            return
        if flow is Flow.SKIP_GROUP:
            skip = step.group


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
    actual = {"totals": totals, "counted_rounds": counted, "over": _match_over(options, totals, counted)}
    label = f"{sc.id} match"
    return [
        Mismatch(label, f"match.{key}", spec[key], actual[key])
        for key in ("totals", "counted_rounds", "over")
        if key in spec and spec[key] != actual[key]
    ]


def _match_over(options: Any, totals: list[int], counted: int) -> bool:
    """R-MATCH-ROUNDS: the match ends after `match_rounds` counted rounds or at the target total."""
    target = options.match_target_points
    return counted >= options.match_rounds or (isinstance(target, int) and max(totals) >= target)
