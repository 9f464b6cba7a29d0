"""`gostop-reference` called in process (`gostop_conformance.reference._cli.main`), its output read with capsys.

tests/reference_impl/test_cli.py runs the command in a subprocess; these tests call `main` in the
pytest process, so that a mutation tool, which sees only code run in that process, can tell whether the
command line's code is tested. Usage errors end in argparse's SystemExit with the project's usage
status (`EXIT_USAGE` of the spec package), not in a traceback.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections import Counter
from dataclasses import dataclass, field

import orjson
import pytest

from gostop_conformance.reference import _cli
from gostop_conformance.reference._check import CheckResult, check_ruleset
from gostop_conformance.reference._match import Match, RandomPlayer
from gostop_conformance.reference._text import action_text, event_text, settlement_text, state_text
from gostop_conformance.spec import EXIT_FAIL, EXIT_OK, EXIT_USAGE, load_ruleset, ruleset_ids


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    """The exit status, the lines written to stdout and what went to stderr."""
    status = _cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What a usage error printed; it must exit with EXIT_USAGE (argparse's SystemExit)."""
    with pytest.raises(SystemExit) as exited:
        _cli.main(list(argv))
    assert exited.value.code == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: gostop-reference")
    return err


def test_rulesets_lists_every_ruleset_with_its_title_in_aligned_columns(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "rulesets")
    assert status == EXIT_OK
    assert [line.split(maxsplit=1) for line in lines] == [[rid, load_ruleset(rid).title] for rid in ruleset_ids()]
    assert {line.index(load_ruleset(rid).title) for line, rid in zip(lines, ruleset_ids(), strict=True)} == {19}


@dataclass
class Replay:
    """The match `play` must print, replayed with the library it calls: every line in order, and
    the parts the tests name."""

    lines: list[str] = field(default_factory=list)
    headers: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    settlements: list[list[str]] = field(default_factory=list)
    totals: list[list[int]] = field(default_factory=list)
    winners: list[int] | None = None


def totals_line(totals: list[int]) -> str:
    return "totals: " + ", ".join(f"P{s} {t:+d}" for s, t in enumerate(totals))


def replay(ruleset_id: str, seed: int, rounds: int | None) -> Replay:
    rs = load_ruleset(ruleset_id)
    match = Match(rs, seed)
    player = RandomPlayer(seed)
    out = Replay([f"ruleset {rs.id} ({rs.title}, {rs.hash}), seed {seed}, first dealer P{match.dealer}"])
    while not match.over and (rounds is None or len(out.headers) < rounds):
        rnd = match.new_round()
        out.headers.append(f"=== round {len(out.headers) + 1}: dealer P{rnd.dealer}, nagari streak {rnd.nagari_streak}")
        out.lines += ["", out.headers[-1], *("  " + event_text(e) for e in rnd.deal_events), *state_text(rnd)]
        while not rnd.over:
            action = player.choose(rnd)
            out.actions.append(f"P{action.player}: {action_text(action)}")
            out.lines += [out.actions[-1], *("  " + event_text(e) for e in rnd.apply(action))]
            if rnd.decision == "turn" and not rnd.over:  # the state after each turn, not after a pending choice
                out.lines += state_text(rnd)
        assert rnd.settlement is not None
        match.record(rnd)
        out.settlements.append(settlement_text(rnd.settlement))
        out.totals.append(list(match.totals))
        out.lines += [*out.settlements[-1], totals_line(out.totals[-1])]
    if match.over:
        out.winners = match.winners()
        out.lines += ["", f"match over after {len(out.headers)} rounds; winner(s): {', '.join(f'P{s}' for s in out.winners)}"]
    return out


def test_play_one_round_prints_the_header_the_turns_the_settlement_and_zero_sum_totals(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "play", "--ruleset", "matgo-2p", "--seed", "3", "--rounds", "1")
    assert status == EXIT_OK
    want = replay("matgo-2p", 3, 1)
    rs = load_ruleset("matgo-2p")
    assert lines[0] == f"ruleset matgo-2p ({rs.title}, {rs.hash}), seed 3, first dealer P{Match(rs, 3).dealer}"
    assert [line for line in lines if line.startswith("=== round")] == want.headers == ["=== round 1: dealer P1, nagari streak 0"]
    assert [line for line in lines if re.match(r"P\d: ", line)] == want.actions
    assert lines[-1] == totals_line(want.totals[0]) and lines[-1 - len(want.settlements[0]) : -1] == want.settlements[0]
    assert lines[-1 - len(want.settlements[0])].startswith("outcome: ")
    assert sum(want.totals[0]) == 0 and any(want.totals[0])
    assert want.winners is None  # one round of a longer match: no "match over" line
    assert lines == want.lines  # and every event and state line between them


def test_play_without_rounds_plays_the_whole_match_and_names_the_winners(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 7 ends the match level: both players win."""
    status, lines, _ = run(capsys, "play", "--ruleset", "matgo-2p", "--seed", "7")
    assert status == EXIT_OK
    want = replay("matgo-2p", 7, None)
    assert [line for line in lines if line.startswith("totals: ")] == [totals_line(t) for t in want.totals]
    assert want.totals[-1] == [0, 0] and want.winners == [0, 1]
    assert lines[-2:] == ["", "match over after 3 rounds; winner(s): P0, P1"]
    assert lines == want.lines


def test_play_default_ruleset_is_standard_3p(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "play", "--rounds", "1")
    assert status == EXIT_OK and lines[0].startswith("ruleset standard-3p (") and ", seed 1, " in lines[0]


def row(line: str) -> list[str]:
    return line.split(maxsplit=4)


def test_check_reports_each_ruleset_and_that_all_invariants_held(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "check", "--rounds", "2", "--ruleset", "matgo-2p", "--seed", "5")
    assert status == EXIT_OK
    assert lines[0].split() == ["ruleset", "rounds", "actions", "checked/s", "outcomes"]
    assert lines[-1] == "all invariants held"
    want = check_ruleset("matgo-2p", 2, 5)
    name, rounds, actions, rate, outcomes = row(lines[1])
    assert (name, rounds, actions) == ("matgo-2p", "2", str(want.actions))
    assert float(rate) > 0
    assert outcomes == ", ".join(f"{k} {v}" for k, v in sorted(want.outcomes.items()))
    assert len(lines) == 3


def test_check_without_a_ruleset_checks_every_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "check", "--rounds", "1")
    assert status == EXIT_OK
    assert [row(line)[0] for line in lines[1:-1]] == ruleset_ids()
    assert all(row(line)[1] == "1" for line in lines[1:-1])


def test_check_defaults_to_200_rounds_of_every_ruleset_from_seed_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check itself is replaced: 200 real rounds of every ruleset take minutes."""
    calls: list[tuple[str, int, int]] = []

    def record(rid: str, rounds: int, seed: int) -> CheckResult:
        calls.append((rid, rounds, seed))
        return CheckResult(rid)

    monkeypatch.setattr(_cli, "check_ruleset", record)
    status, _, _ = run(capsys, "check")
    assert status == EXIT_OK and calls == [(rid, 200, 1) for rid in ruleset_ids()]


def test_check_reports_problems_and_fails(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """At most twenty problems per ruleset are printed; one failing ruleset fails the whole check."""
    results = {
        "matgo-2p": CheckResult("matgo-2p", rounds=1, actions=3, problems=[f"problem {i}" for i in range(25)]),
        "standard-3p": CheckResult("standard-3p", rounds=3, actions=4, outcomes=Counter({"stop": 1, "nagari": 2}), seconds=0.5),
    }
    monkeypatch.setattr(_cli, "check_ruleset", lambda rid, rounds, seed: results[rid])
    status, lines, _ = run(capsys, "check", "--ruleset", "matgo-2p", "--ruleset", "standard-3p")
    assert status == EXIT_FAIL
    assert [line for line in lines if line.startswith("  FAIL ")] == [f"  FAIL problem {i}" for i in range(20)]
    assert row(lines[1])[:4] == ["matgo-2p", "1", "3", "0"]  # no time measured: no rate
    assert row(lines[-2]) == ["standard-3p", "3", "4", "12", "nagari 2, stop 1"]  # 3 rounds x 2 / 0.5 s; outcomes by name
    assert lines[-1] == "invariant violations found"


def test_an_unknown_ruleset_is_a_usage_error_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = run(capsys, "play", "--ruleset", "nope")
    assert status == EXIT_USAGE and lines == []
    assert err.startswith("gostop-reference: error: ruleset: unknown ruleset 'nope'; expected one of ")
    status, _, err = run(capsys, "check", "--rounds", "1", "--ruleset", "nope")
    assert status == EXIT_USAGE and "unknown ruleset 'nope'" in err


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert "error: a command (play, check, rulesets) or --stdio is required" in usage_error(capsys)


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert "invalid choice: 'dance'" in usage_error(capsys, "dance")


def test_every_option_and_command_is_explained_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    parser = _cli._parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    options = {("", a.dest): a.help for a in parser._actions if a.dest not in {"help", "command"}}
    for name, sub in commands.choices.items():
        options |= {(name, a.dest): a.help for a in sub._actions if a.dest != "help"}
    assert parser.description and all(options.values())
    assert {c.dest: bool(c.help) for c in commands._choices_actions} == dict.fromkeys(["play", "check", "rulesets"], True)
    with pytest.raises(SystemExit) as exited:
        _cli.main(["--help"])
    assert exited.value.code == EXIT_OK
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps long lines
    assert all(" ".join(str(c.help).split()) in shown for c in commands._choices_actions)


class Std:
    """Stands for sys.stdin / sys.stdout: the server reads and writes their binary `.buffer`."""

    def __init__(self, data: bytes = b"") -> None:
        self.buffer = io.BytesIO(data)


def serve_stdio(monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, list[dict[str, object]]]:
    requests = b'{"seq": 1, "cmd": "hello", "protocol": "1"}\n{"seq": 2, "cmd": "bye"}\n'
    stdout = Std()
    monkeypatch.setattr(sys, "stdin", Std(requests))
    monkeypatch.setattr(sys, "stdout", stdout)
    status = _cli.main(["--stdio", *argv])
    return status, [orjson.loads(line) for line in stdout.buffer.getvalue().splitlines()]


def test_stdio_serves_the_protocol_on_the_process_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    status, replies = serve_stdio(monkeypatch)
    assert status == EXIT_OK
    assert [r["seq"] for r in replies] == [1, 2] and replies[0]["protocol"] == "1" and replies[1] == {"seq": 2}
