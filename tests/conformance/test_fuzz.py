"""Differential fuzzing within the declaration: silent against the reference engine itself and
against a mutant that plays a declared house rule; against a mutant with a real bug it finds the
divergence, shrinks it to a few actions, writes a scenario that fails the mutant and passes the
reference engine, and carries on."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gostop_conformance.harness import load_corpus, run_scenario
from gostop_conformance.harness._declaration import parse
from gostop_conformance.harness._engine import ReferenceEngine
from gostop_conformance.harness._fuzz import (
    Verification,
    fuzz,
    fuzz_configurations,
    fuzz_coverage_lines,
    random_case,
    scenario_yaml,
    shaped_deal,
)
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.reference import JsonEngine, SplitMix64, seeded_deal
from gostop_conformance.spec import load_ruleset, ruleset_ids
from tests.conftest import needs_interpreted

FAKE = Path(__file__).parent / "fakes" / "fake_engine.py"
EVERYTHING: dict[str, Any] = {"rulesets": ruleset_ids(), "features": ["seeded_deal", "rule_trace", "perft", "match"]}


def server(mutant: str | None = None) -> StdioEngine:
    argv = ["-m", "gostop_conformance.reference", "--stdio"] if mutant is None else ["-m", "gostop_conformance.mutants", mutant]
    engine = StdioEngine([sys.executable, *argv])
    engine.start()
    return engine


def mutant(name: str, declaration: dict[str, Any]) -> StdioEngine:
    engine = StdioEngine([sys.executable, str(FAKE), "mutant", name, json.dumps(declaration)])
    engine.start()
    return engine


def configs_of(engine: StdioEngine) -> list[Any]:
    assert engine.hello_reply is not None
    return fuzz_configurations(parse(engine.hello_reply))


@pytest.mark.slow
def test_no_divergence_against_itself_on_every_ruleset() -> None:
    """Fuzzing the fuzzer: every ruleset, every deal, guided or not, without a crash or a divergence."""
    engine = server()
    try:
        plain = fuzz(engine, 120, seed=3, configs=configs_of(engine))
        guided = fuzz(engine, 60, seed=4, configs=configs_of(engine), guided=True)
    finally:
        engine.close()
    assert plain.rounds == 120 and not plain.found
    assert guided.rounds == 60 and not guided.found


def test_the_run_counts_the_clauses_scores_and_settlements_cite() -> None:
    """Clause coverage counts the whole rule-hit trace (events, scores, settlement), and records
    the round each clause was first reached in."""
    engine = ReferenceEngine()
    configs = fuzz_configurations(parse({"rulesets": ["matgo-2p"], "features": ["seeded_deal"]}))
    report = fuzz(engine, 30, seed=5, configs=configs)
    assert "R-SETTLE" in report.first_seen or any(c.startswith("R-SCORE") for c in report.first_seen), sorted(report.first_seen)
    assert report.clauses_seen >= set(report.first_seen) and min(report.first_seen.values()) == 1
    assert report.covered_by(report.rounds) == len(report.first_seen) and report.covered_by(0) == 0
    [line, *rest] = fuzz_coverage_lines(report)
    assert f"{len(report.first_seen)} of " in line and "in 30 rounds" in line
    assert all(c not in report.first_seen for c in rest[0].removeprefix("never reached: ").split(", ")) if rest else True


def test_cases_stay_within_the_declaration() -> None:
    """Every case uses a declared configuration and only declared values (once, a third of all
    divergences came from option values the engine had never declared)."""
    exceptions = {"meong_mode": ["off"], "jjok_steal": "all", "go_bak_mode": "unsupported"}
    declaration = parse({"rulesets": [{"id": "matgo-2p", "options": exceptions}]})
    configs = fuzz_configurations(declaration)
    assert [c.base for c in configs] == ["matgo-2p"]
    own = load_ruleset("matgo-2p").options.as_json()
    for seed in range(200):
        case = random_case(seed, configs)
        options = case.ruleset_json()["options"]
        assert case.ruleset == "matgo-2p" and options["meong_mode"] == "off"
        assert options["go_bak_mode"] == own["go_bak_mode"]  # undeclared (unsupported): the ruleset's own, never varied
        assert set(case.options) <= {"meong_mode", "jjok_steal"}


@needs_interpreted
def test_a_declared_house_rule_is_no_divergence() -> None:
    """A mutant that plays three_ppeok_win = off is silent when it declares that value."""
    declaration = {**EVERYTHING, "rulesets": [{"id": rid, "options": {"three_ppeok_win": ["off"]}} for rid in ruleset_ids()]}
    engine = mutant("three-ppeok-ignored", declaration)
    try:
        report = fuzz(engine, 150, seed=2, configs=configs_of(engine), guided=True)
    finally:
        engine.close()
    assert not report.found


@needs_interpreted
def test_the_same_seed_plays_the_same_cases() -> None:
    engine = server("jjok-no-steal")
    try:
        a = fuzz(engine, 50, seed=1, configs=configs_of(engine))
        b = fuzz(engine, 50, seed=1, configs=configs_of(engine))
    finally:
        engine.close()
    assert [(s, d.case.choices, d.what) for s, d in a.divergences] == [(s, d.case.choices, d.what) for s, d in b.divergences]


@needs_interpreted
@pytest.mark.parametrize("name", ["jjok-no-steal", "ppeok-never", "pi-bak-at-six", "shake-automatic", "ttadak-counts-as-ppeok"])
def test_a_bug_is_found_shrunk_and_written_as_a_failing_scenario(name: str, tmp_path: Path) -> None:
    engine = mutant(name, EVERYTHING)
    reproduced: list[bool] = []

    def check(text: str) -> Verification:
        folder = tmp_path / f"check{len(reproduced)}" / "scenarios" / "fuzz"
        folder.mkdir(parents=True)
        (folder / "found.yaml").write_text(text, encoding="utf-8")
        [scenario] = load_corpus(folder.parent)
        ok = run_scenario(ReferenceEngine(), scenario).outcome == "PASS" and run_scenario(engine, scenario).outcome != "PASS"
        reproduced.append(ok)
        return Verification(ok)

    try:
        report = fuzz(engine, 400, seed=1, configs=configs_of(engine), guided=True, check=check)
        assert report.found, f"{name} was not found in 400 guided rounds"
        assert report.rounds == 400, "the run carries on after a divergence, and after the cap"
        first = next(iter(report.found.values()))
        assert len(first.divergence.case.choices) <= 30
        assert first.reproduced and first.scenario is not None and "needs-review" in first.scenario
    finally:
        engine.close()


def test_a_divergence_right_after_the_deal_writes_a_scenario(tmp_path: Path) -> None:
    """Once a ZeroDivisionError: a case whose round is over at the deal (a chongtong)."""
    from gostop_conformance.harness._fuzz import Case, Divergence

    reference = JsonEngine()
    rid = "standard-3p"
    hands = [["m01-bright", "m01-ribbon", "m01-junk-1", "m01-junk-2", "m02-junk-1", "m03-junk-1", "m04-junk-1"], [], []]
    from gostop_conformance.reference import complete_deal
    from gostop_conformance.spec import load_ruleset

    deal = complete_deal(load_ruleset(rid).options, hands, [], []).to_json()
    div = Divergence(Case(rid, deal, [5, 7]), -1, "after the deal: state.decision", "none", "turn", ["R-CHONGTONG"], "state.decision")
    text = scenario_yaml(div, 1, "an engine", reference)
    folder = tmp_path / "scenarios" / "fuzz"
    folder.mkdir(parents=True)
    (folder / "found.yaml").write_text(text, encoding="utf-8")
    [scenario] = load_corpus(tmp_path / "scenarios")
    assert run_scenario(ReferenceEngine(), scenario).outcome == "PASS"


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_a_shaped_deal_is_the_same_cards_in_the_same_places(ruleset: str) -> None:
    """Guided runs rearrange the deal (any arrangement is a shuffle): same cards, same hand, table
    and stock sizes; and the shapes make four of a month in one hand common."""
    options = load_ruleset(ruleset).options
    chongtong = 0
    for seed in range(300):
        rng = SplitMix64(seed)
        deal = seeded_deal(options, rng, dealer=0).to_json()
        shaped, reserve = shaped_deal(deal, rng, last=1)
        assert set(reserve) <= set(shaped["hands"][1])
        assert sorted([*(c for h in deal["hands"] for c in h), *deal["table"], *deal["stock"]]) == sorted(
            [*(c for h in shaped["hands"] for c in h), *shaped["table"], *shaped["stock"]]
        )
        assert [len(h) for h in shaped["hands"]] == [len(h) for h in deal["hands"]]
        assert (len(shaped["table"]), len(shaped["stock"])) == (len(deal["table"]), len(deal["stock"]))
        months = [[c[:3] for c in h if c.startswith("m")] for h in shaped["hands"]]
        chongtong += any(h.count(m) == 4 for h in months for m in set(h))
    assert chongtong >= 30  # about one deal in eight or more; by chance, a fraction of a percent


def _fuzz_cli(cwd: Path, *args: str) -> tuple[str, dict[str, bytes]]:
    """`gostop-conformance fuzz` run in `cwd`: its output without the timing line, and the
    scenarios it wrote (name -> bytes)."""
    engine = f"{sys.executable} -m gostop_conformance.mutants jjok-no-steal"
    cwd.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "gostop_conformance.harness", "fuzz", "--engine", engine, "--out", "found", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr  # the mutant diverges
    timing = re.compile(r"^\d+ rounds in [\d.]+s \(\d+ rounds/s\), ", re.MULTILINE)
    assert timing.search(proc.stdout), proc.stdout
    written = {p.name: p.read_bytes() for p in sorted((cwd / "found").iterdir())}
    return timing.sub("<timing> ", proc.stdout), written


@needs_interpreted
def test_jobs_do_not_change_the_report(tmp_path: Path) -> None:
    """--jobs 2 plays the rounds in two worker processes and merges them in order: the same
    output and the same scenario files, byte for byte, as one job (the timing aside)."""
    one = _fuzz_cli(tmp_path / "one", "--games", "40", "--seed", "3", "--jobs", "1")
    two = _fuzz_cli(tmp_path / "two", "--games", "40", "--seed", "3", "--jobs", "2")
    assert one[1], "the run wrote no scenario: nothing was compared"
    assert one == two


def test_a_guided_run_is_one_job(capsys: pytest.CaptureFixture[str]) -> None:
    """A guided round is picked from the rounds before it: --guided with --jobs 2 is a usage error."""
    from gostop_conformance.harness._cli import main

    assert main(["fuzz", "--engine", f"{sys.executable} -m gostop_conformance.reference --stdio", "--guided", "--jobs", "2"]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_a_class_is_what_differs_not_the_clauses_alone() -> None:
    """Legal-action divergences cite no clause: their class is the kinds of actions missing and
    extra, so two bugs of one ruleset (a forced bomb, a skip offered too early) stay apart, while
    the same bug on other cards is one class."""
    from gostop_conformance.harness._fuzz import Case, Divergence

    case = Case("matgo-2p", {}, [])

    def legal(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> tuple[str, ...]:
        return Divergence(case, 0, "legal actions", expected, actual, [], "legal").signature

    play = {"type": "play", "player": 0, "card": "m10-junk-1"}
    bomb = {"type": "bomb", "player": 0, "month": 10}
    forced_bomb = legal([play, bomb], [bomb])
    assert forced_bomb == ("legal", "missing play")
    assert legal([{**play, "card": "m03-junk-1"}, bomb], [bomb]) == forced_bomb
    assert legal([play], [play, {"type": "skip", "player": 0}]) == ("legal", "extra skip")
    assert legal([{**play, "take": "m10-animal"}, bomb], [bomb]) == forced_bomb  # a play naming a table card is a play
    assert legal([{**play, "take": "m10-animal"}], [play]) == ("legal", "missing play", "extra play")  # no choice asked
    assert legal([play, {**play, "shake": True}], [play]) == ("legal", "missing play+shake")
    steal = Divergence(case, 1, "after action 2: state.captured", [], [], ["R-JJOK", "R-STEAL"], "state.captured")
    assert steal.signature == ("state.captured", "R-JJOK", "R-STEAL")
    refused = Divergence(case, 1, "rejection", {"code": "card_not_in_hand"}, {"code": "wrong_decision"}, [], "rejection")
    assert refused.signature == ("rejection", "card_not_in_hand", "wrong_decision")
    go_offered = Divergence(case, 5, "after action 6: state.decision", "go_stop", "turn", ["R-GO-WHEN", "R-JJOK"], "state.decision")
    assert go_offered.signature == ("state.decision", "go_stop -> turn")  # not one class per set of clauses cited
    settled = Divergence(case, 9, "settlement", {}, {}, ["R-SETTLE", "R-PI-BAK"], "settlement.net")
    assert settled.signature == ("settlement.net",)


@needs_interpreted
def test_a_divergence_in_an_undeclared_option_is_outside_the_declaration(tmp_path: Path) -> None:
    """jjok-no-steal declared with jjok_steal unsupported: every jjok divergence rests on what the
    engine does not declare. The written scenario is not run by that declaration: no divergence is
    reported, and the run says what it set apart."""
    declaration = {"rulesets": [{"id": "matgo-2p", "options": {"jjok_steal": "unsupported"}}], "features": ["o'clock"]}
    engine = f"{sys.executable} {FAKE} mutant jjok-no-steal " + shlex.quote(json.dumps(declaration))
    proc = subprocess.run(
        [sys.executable, "-m", "gostop_conformance.harness", "fuzz", "--engine", engine, "--games", "60", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "DIVERGENCE" not in proc.stdout and "outside the declaration: " in proc.stdout, proc.stdout
    assert "needs jjok_steal = 1 (not declared)" in proc.stdout


@needs_interpreted
def test_the_cap_counts_later_classes_and_the_written_scenario_is_valid_yaml_whatever_the_command(tmp_path: Path) -> None:
    """--max-divergences 1: the run still plays every round, says where the cap was reached and
    counts the classes after it; the engine command, quotes and all, is written into valid YAML
    that reproduces the divergence under the engine's declaration."""
    declaration = {**EVERYTHING, "features": [*EVERYTHING["features"], 'it\'s "quoted"']}
    engine = f"{sys.executable} {FAKE} mutant shake-automatic " + shlex.quote(json.dumps(declaration))
    out = tmp_path / "out"
    argv = ["fuzz", "--engine", engine, "--games", "200", "--guided", "--max-divergences", "1", "--out", str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "gostop_conformance.harness", *argv], capture_output=True, text=True, timeout=600, check=False
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"^200 rounds in ", proc.stdout, re.MULTILINE), proc.stdout
    assert "the cap of 1 class (--max-divergences) was reached in round " in proc.stdout
    [written] = sorted(p for p in out.iterdir() if p.suffix == ".yaml")
    [scenario] = _load_one(written, tmp_path)
    assert scenario.title.startswith(f"Found by fuzzing {engine}: ") and run_scenario(ReferenceEngine(), scenario).outcome == "PASS"
    assert "it fails the engine and passes the reference" in proc.stdout


def _load_one(path: Path, tmp: Path) -> list[Any]:
    folder = tmp / "load" / "scenarios" / "fuzz"
    folder.mkdir(parents=True)
    (folder / path.name).write_bytes(path.read_bytes())
    return load_corpus(folder.parent)


def test_a_class_set_aside_as_outside_the_declaration_is_tried_again() -> None:
    """One divergence of a class may rest on an undeclared value while the next does not: the
    class is tried again (OUTSIDE_RETRIES times) and, once one of its divergences reproduces within
    the declaration, it is a divergence, with every round of it counted."""
    from gostop_conformance.harness._fuzz import Case, Divergence, FuzzReport, _Classes

    verdicts = iter([Verification(False, outside="needs x"), Verification(False, outside="needs x"), Verification(True)])
    report = FuzzReport()
    classes = _Classes(report, ReferenceEngine(), JsonEngine(), [], 20, False, lambda text: next(verdicts), "e")
    deal = seeded_deal(load_ruleset("matgo-2p").options, SplitMix64(1), dealer=0).to_json()
    for seed in range(3):
        classes.add(
            seed, Divergence(Case("matgo-2p", deal, []), -1, "after the deal: state.decision", "turn", "none", [], "state.decision")
        )
    [found] = report.found.values()
    assert not report.outside and found.seed == 2 and found.count == 3 and found.reproduced


class TwoBugs(ReferenceEngine):
    """An engine with two legal-action bugs of different classes, one on each side of the first
    choice: after a first play that is not the first legal one, it offers an extra skip at the
    round's third decision; after the first legal one, it leaves a play out at the second."""

    def new_game(self, ruleset: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any]:
        self.first: int | None = None
        self.acts = 0
        return super().new_game(ruleset, deal)

    def legal(self) -> dict[str, Any]:
        reply = super().legal()
        actions = list(reply.get("actions") or [])
        if self.acts == 2 and self.first not in (None, 0):
            return {**reply, "actions": [*actions, {"type": "skip", "player": reply.get("player")}]}
        if self.acts == 1 and self.first == 0 and len(actions) > 1:
            return {**reply, "actions": actions[1:]}
        return reply

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if self.acts == 0:
            listed = super().legal().get("actions") or []
            self.first = listed.index(action) if action in listed else None
        self.acts += 1
        return super().act(action)


def _two_bugs_divergence() -> Any:
    from gostop_conformance.harness._fuzz import Case, play_case

    deal = seeded_deal(load_ruleset("matgo-2p").options, SplitMix64(7), dealer=0).to_json()
    div = play_case(Case("matgo-2p", deal, [1] * 40), TwoBugs(), JsonEngine())
    assert div is not None and div.signature == ("legal", "extra skip") and div.case.choices == [1, 1, 1], div
    # the first choice moved to the first legal action diverges in the same category, another class
    other = play_case(Case("matgo-2p", deal, [0, 1, 1]), TwoBugs(), JsonEngine())
    assert other is not None and other.category == "legal" and other.signature == ("legal", "missing play"), other
    return div


def test_shrinking_keeps_the_class_not_only_the_category() -> None:
    """Once, shrinking kept any trial that still diverged in the legal actions: go-stop-python's
    class `legal / extra dual_to_junk` was written with a scenario showing only missing plays (its
    forced bomb). A shrunk divergence now reproduces the class it shrinks."""
    from gostop_conformance.harness._fuzz import shrink

    div = _two_bugs_divergence()
    shrunk = shrink(div, TwoBugs(), JsonEngine(), {})
    assert shrunk.signature == div.signature == ("legal", "extra skip")
    assert shrunk.case.choices[0] == 1 and shrunk.case.choices[1:] == [0, 0], "the other choices still shrink"


def test_a_class_shrunk_outside_the_declaration_keeps_the_divergence_as_found() -> None:
    """Shrinking keeps the class, not the path: a moved choice may pass through an option the engine
    does not declare. A shrunk scenario outside the declaration is checked against the divergence
    as found, which stands when it reproduces within the declaration; when both are outside, the
    class is outside."""
    from gostop_conformance.harness._fuzz import FuzzReport, _Classes

    def classes(verdicts: list[Verification], texts: list[str]) -> FuzzReport:
        answers = iter(verdicts)

        def check(text: str) -> Verification:
            texts.append(text)
            return next(answers)

        report = FuzzReport()
        _Classes(report, TwoBugs(), JsonEngine(), [], 20, True, check, "e").add(1, _two_bugs_divergence())
        return report

    texts: list[str] = []
    report = classes([Verification(False, outside="needs x"), Verification(True)], texts)
    [found] = report.found.values()
    assert not report.outside and found.reproduced and found.scenario == texts[1] != texts[0]
    assert found.divergence.case.choices == [1, 1, 1] and found.divergence.signature == ("legal", "extra skip")
    texts = []
    report = classes([Verification(False, outside="needs x"), Verification(False, outside="needs y")], texts)
    [aside] = report.outside.values()
    assert not report.found and len(texts) == 2 and aside.outside == "needs x" and aside.divergence.case.choices == [1, 0, 0]
