"""Declarations that fit real engines (conformance._declaration): what runs, what is substituted,
what is UNSUPPORTED and why, and that a run which checked nothing is never green."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gostop_conformance.harness import ReferenceEngine, default_root, load_corpus
from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness._cli import main as cli
from gostop_conformance.harness._declaration import FEATURES, DeclarationError, Verdicts, parse, unlocks
from gostop_conformance.harness._harness import run
from gostop_conformance.mutants import applied
from gostop_conformance.spec import option_registry, ruleset_ids
from tests.conftest import needs_interpreted

CORPUS = load_corpus()
STORED = dependencies.load(default_root())
FAKE = Path(__file__).parent / "fakes" / "fake_engine.py"


class Declaring(ReferenceEngine):
    """The reference engine, in process, declaring what the test says instead of everything."""

    def __init__(self, declaration: dict[str, Any]) -> None:
        super().__init__()
        self.declaration = declaration

    def hello(self) -> dict[str, Any]:
        reply = super().hello()
        reply.pop("options")
        return reply | self.declaration


def everything_but(option: str) -> dict[str, Any]:
    """The reference engine's declaration (every option, every feature) without one option and without claiming a ruleset."""
    return {"rulesets": [], "options": {k: "all" for k in option_registry() if k != option}, "features": list(FEATURES)}


@pytest.mark.parametrize("option", list(option_registry()))
def test_without_one_option_only_the_scenarios_that_depend_on_it_are_unsupported(option: str) -> None:
    """The issue's test, for every option: an options-only declaration of everything but one
    option leaves exactly the scenarios depending on that option UNSUPPORTED; the others run as
    written (nothing to substitute), so they pass as the whole corpus does."""
    verdicts = Verdicts(parse(everything_but(option)), STORED)
    unsupported = {sc.id for sc in CORPUS if not verdicts.of(sc).supported}
    assert unsupported == {sid for sid, dep in STORED.items() if dep.depends_on(option)}
    for sc in CORPUS:
        v = verdicts.of(sc)
        assert v.supported or [n.option for n in v.needs] == [option]
        assert not v.supported or (v.scenario == replace(sc, unjudged=frozenset({option})) and not v.changes)


def test_a_run_without_one_option_passes_everything_it_checks() -> None:
    report = run(CORPUS, lambda: Declaring(everything_but("meong_mode")), dependencies=STORED)
    outcomes = {r.outcome for r in report.records}
    assert outcomes == {"PASS", "UNSUPPORTED"}
    assert sum(r.outcome == "UNSUPPORTED" for r in report.records) == sum(d.depends_on("meong_mode") for d in STORED.values())
    assert report.ok()


@needs_interpreted
def test_a_house_rule_declared_as_an_exception_is_not_a_failure() -> None:
    """An engine that plays three_ppeok_win = off (a house rule) fails the corpus when it claims
    the rulesets whole, and fails nothing when it declares the exception: the scenarios whose
    outcome needs another value are UNSUPPORTED, the others run with off and pass."""
    whole = {"rulesets": ruleset_ids(), "options": {}}
    honest = {"rulesets": [{"id": rid, "options": {"three_ppeok_win": ["off"]}} for rid in ruleset_ids()], "options": {}}
    with applied("three-ppeok-ignored"):
        claimed = run(CORPUS, lambda: Declaring(whole), dependencies=STORED)
        declared = run(CORPUS, lambda: Declaring(honest), dependencies=STORED)
    assert claimed.failed() > 0
    assert declared.failed() == 0 and declared.ok()
    # what the exception adds to UNSUPPORTED (scenarios overriding options the claims lack are unsupported either way)
    before = {r.scenario.id for r in claimed.records if r.outcome == "UNSUPPORTED"}
    added = [r for r in declared.records if r.outcome == "UNSUPPORTED" and r.scenario.id not in before]
    assert added and all("three_ppeok_win = " in (r.reason or "") for r in added)
    # the engine is never sent a value it did not declare
    ran = [r for r in declared.records if r.outcome != "UNSUPPORTED"]
    assert all(r.verdict is not None and r.verdict.scenario is not None for r in ran)
    assert all(r.verdict.scenario.resolved_options["three_ppeok_win"] == "off" for r in ran if r.verdict and r.verdict.scenario)
    assert any(r.verdict is not None and r.verdict.changes.get("three_ppeok_win") == "off" for r in ran)


def test_a_convenience_toggle_in_a_declaration_names_the_options_to_declare() -> None:
    """The wire carries options only: a toggle (spec/options.yaml) is a way of writing them."""
    with pytest.raises(
        DeclarationError, match="a convenience toggle, not an option; declare the options it sets: shake_enabled, bomb_enabled"
    ):
        parse({"options": {"show3_and_bomb": [True]}})


def test_unsupported_option_in_a_claim_is_unknown() -> None:
    declaration = parse({"rulesets": [{"id": "matgo-2p", "options": {"meong_mode": "unsupported"}}], "features": list(FEATURES)})
    verdicts = Verdicts(declaration, STORED)
    for sc in (sc for sc in CORPUS if sc.ruleset == "matgo-2p"):
        v = verdicts.of(sc)
        missing = {n.option: n.declared for n in v.needs}
        if STORED[sc.id].depends_on("meong_mode"):
            assert not v.supported and "meong_mode" in missing and missing["meong_mode"] is None
        else:
            assert "meong_mode" not in missing
            assert v.supported or missing


def test_a_claimed_ruleset_runs_other_rulesets_scenarios_that_do_not_depend_on_the_difference() -> None:
    verdicts = Verdicts(parse({"rulesets": ["matgo-2p"]}), STORED)
    ran = [verdicts.of(sc) for sc in CORPUS if sc.ruleset != "matgo-2p" and verdicts.of(sc).supported]
    assert ran, "scenarios of other two-player rulesets that do not depend on their differences run as matgo-2p"
    for v in ran:
        assert v.scenario is not None and v.scenario.ruleset == "matgo-2p"


def test_the_reason_lists_every_missing_value() -> None:
    verdicts = Verdicts(parse({"rulesets": [], "options": {"players": [2]}, "features": list(FEATURES)}), STORED)
    sc = next(sc for sc in CORPUS if sc.rules.players == 2 and len(STORED[sc.id].passes) >= 3)
    v = verdicts.of(sc)
    assert not v.supported
    assert {n.option for n in v.needs} == set(STORED[sc.id].passes) - {"players"}
    for need in v.needs:
        assert f"{need.option} = " in v.reason() and "(not declared)" in v.reason()


def test_unlocks_rank_the_values_that_would_run_the_most() -> None:
    verdicts = Verdicts(parse(everything_but("meong_mode")), STORED)
    [best] = unlocks(verdicts.of(sc) for sc in CORPUS)
    assert best.option == "meong_mode"
    assert sum(alone for _, alone, _ in best.values) >= sum(d.depends_on("meong_mode") for d in STORED.values())


@pytest.mark.parametrize(
    ("hello", "where"),
    [
        ({"rulesets": ["matgo-3p"]}, r"hello.rulesets\[0\]: unknown ruleset 'matgo-3p'"),
        ({"rulesets": ["matgo-2p", "matgo-2p"]}, r"hello.rulesets\[1\]: ruleset 'matgo-2p' is claimed twice"),
        ({"rulesets": [{"id": "matgo-2p", "option": {}}]}, r"hello.rulesets\[0\].option: unexpected field"),
        ({"rulesets": [{"id": "matgo-2p", "options": {"meong_bak": ["off"]}}]}, r"hello.rulesets\[0\].options.meong_bak: unknown option"),
        ({"rulesets": [{"id": "matgo-2p", "options": {"meong_mode": ["offf"]}}]}, r"options.meong_mode\[0\]: expected one of"),
        ({"options": {"jjok_steal": "unsupported"}}, r"hello.options.jjok_steal: expected \"all\" or a non-empty list"),
        ({"options": {"jjok_steal": []}}, r"hello.options.jjok_steal: expected"),
        ({"rulesets": [3]}, r"hello.rulesets\[0\]: expected a ruleset id"),
        ({"options": {"go_threshold": {"by_player": {"2": [7]}}}}, r"hello.options.go_threshold: expected \"all\", a non-empty list"),
        (
            {"options": {"go_threshold": {"by_players": {"5": [7]}}}},
            r"hello.options.go_threshold.by_players: expected player counts 2, 3 or 4",
        ),
        ({"options": {"go_threshold": {"by_players": {"2": [77]}}}}, r"hello.options.go_threshold.by_players.2\[0\]: expected an integer"),
        ({"options": {"players": {"by_players": {"2": [2]}}}}, r"hello.options.players: the player count itself cannot"),
    ],
)
def test_a_malformed_declaration_names_the_field(hello: dict[str, Any], where: str) -> None:
    with pytest.raises(DeclarationError, match=where):
        parse(hello)


def test_a_malformed_declaration_fails_the_handshake() -> None:
    report = run(CORPUS[:3], lambda: Declaring({"rulesets": ["nope"]}))
    assert not report.ok() and {r.outcome for r in report.records} == {"PROTOCOL"}
    assert report.aborted is not None and "declaration is not valid: hello.rulesets[0]: unknown ruleset 'nope'" in report.aborted


def test_a_run_that_checked_nothing_is_not_green(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's first finding: an honest engine got 632 UNSUPPORTED and exit code 0."""
    engine = f"{sys.executable} {FAKE} declares " + json.dumps(json.dumps({"rulesets": [], "options": {}}))
    code = cli(["run", "--engine", engine, "--area", "capture", "-q", "--report-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "NOT GREEN: only 0 of" in out
    assert not re.search(r"^UNSUPPORTED [\w-]+: ", out, re.M), "--quiet prints no line per UNSUPPORTED scenario"
    footer = json.loads((tmp_path / "report.jsonl").read_text().splitlines()[-1])
    assert footer["checked"] == 0 and footer["ok"] is False
    junit = (tmp_path / "junit.xml").read_text()
    assert 'name="scenarios-checked"' in junit and "too few scenarios checked" in junit
    assert "Not green: only 0 of" in (tmp_path / "summary.md").read_text()


@pytest.mark.slow
def test_min_checked_takes_a_count_or_a_share(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = f"{sys.executable} {FAKE} declares " + json.dumps(json.dumps(everything_but("meong_mode")))
    common = ["run", "--engine", engine, "--area", "settlement", "-q", "--no-reports"]
    assert cli([*common, "--min-checked", "50%"]) == 0
    assert cli([*common, "--min-checked", "100%"]) == 1
    assert "NOT GREEN" in capsys.readouterr().out
    assert cli([*common, "--min-checked", "lots"]) == 2
    assert "--min-checked: expected a number of scenarios" in capsys.readouterr().err


def test_quiet_prints_no_unsupported_line_and_the_summary_groups_them(capsys: pytest.CaptureFixture[str]) -> None:
    engine = f"{sys.executable} {FAKE} declares " + json.dumps(json.dumps(everything_but("go_threshold")))
    assert cli(["run", "--engine", engine, "--area", "go-stop", "-q", "--no-reports"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"^UNSUPPORTED [\w-]+: ", out, re.M)
    groups = re.search(r"^UNSUPPORTED by what the engine does not declare \((\d+) reasons", out, re.M)
    assert groups and int(groups[1]) >= 1
    assert re.search(r"^ +\d+ needs go_threshold = \d", out, re.M)


def test_support_reads_a_hello_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hello.json"
    path.write_text(json.dumps(everything_but("meong_mode")))
    assert cli(["support", "--hello", str(path)]) == 0
    out = capsys.readouterr().out
    depending = sum(d.depends_on("meong_mode") for d in STORED.values())
    assert out.startswith(f"{len(CORPUS) - depending} of {len(CORPUS)} scenarios will run, {depending} are unsupported")
    assert "meong_mode = " in out
    path.write_text("{not json")
    assert cli(["support", "--hello", str(path)]) == 2
    assert "expected a file holding a hello reply as JSON" in capsys.readouterr().err


def test_a_declaration_with_exceptions_passes_the_schema_over_stdio(tmp_path: Path) -> None:
    claim = {"id": "standard-3p", "options": {"jjok_steal": [1, 2], "meong_mode": "unsupported"}}
    declaration = {"rulesets": [claim], "options": {"go_threshold": "all", "ppeok_steal_payers": {"by_players": {"3": "all"}}}}
    engine = f"{sys.executable} {FAKE} declares " + json.dumps(json.dumps(declaration))
    assert cli(["run", "--engine", engine, "--area", "capture", "-q", "--report-dir", str(tmp_path)]) == 0
    header = json.loads((tmp_path / "report.jsonl").read_text().splitlines()[0])
    assert header["support"]["rulesets"] == declaration["rulesets"]


def test_an_engine_may_decline_constructed_positions() -> None:
    """R-ROUND-END: the scenarios that reach an empty stock while cards remain in hand, in a deck
    without bonus cards, are UNSUPPORTED for an engine declaring positions: reachable."""
    constructed = {sid for sid, dep in STORED.items() if dep.constructed}
    assert "capture-flip-empty-stock-pair" in constructed
    everything = {"rulesets": ruleset_ids(), "options": {k: "all" for k in option_registry()}, "features": list(FEATURES)}
    declining = Verdicts(parse(everything | {"positions": "reachable"}), STORED)
    taking = Verdicts(parse(everything), STORED)
    assert {sc.id for sc in CORPUS if not declining.of(sc).supported} == constructed
    assert all(taking.of(sc).supported for sc in CORPUS)
    sc = next(sc for sc in CORPUS if sc.id in constructed)
    assert "constructed position" in declining.of(sc).reason()
    with pytest.raises(DeclarationError, match=r'hello.positions: expected "any" \(the default\) or "reachable"'):
        parse({"positions": "real"})


def test_an_engine_that_reports_no_events_is_not_judged_on_the_event_log() -> None:
    """hello events: none (spec/vocabulary.yaml, event_reports): exactly the scenarios about the
    event log are UNSUPPORTED, with the reason; every other scenario still runs."""
    about_events = {sc.id for sc in CORPUS if sc.event_log}
    assert len(about_events) > 20
    everything = {"rulesets": ruleset_ids(), "options": {k: "all" for k in option_registry()}, "features": list(FEATURES)}
    quiet = Verdicts(parse(everything | {"events": "none"}), STORED)
    assert {sc.id for sc in CORPUS if not quiet.of(sc).supported} == about_events
    sc = next(sc for sc in CORPUS if sc.id in about_events)
    assert "the engine reports no events" in quiet.of(sc).reason()
    with pytest.raises(DeclarationError, match=r'hello.events: expected "all" \(the default\) or "none", got \'some\''):
        parse({"events": "some"})


def test_reasons_name_known_options_and_are_text() -> None:
    parse({"rulesets": ["matgo-2p"], "reasons": {"jjok_steal": "the engine's own rule"}})
    with pytest.raises(DeclarationError, match=r"hello.reasons.jjok_stael: unknown option"):
        parse({"rulesets": ["matgo-2p"], "reasons": {"jjok_stael": "x"}})
    with pytest.raises(DeclarationError, match=r"hello.reasons.jjok_steal: expected the reason as a string"):
        parse({"rulesets": ["matgo-2p"], "reasons": {"jjok_steal": 3}})


def test_support_prints_each_reason_beside_the_scenarios_its_option_leaves_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hello = {"rulesets": [{"id": "matgo-2p", "options": {"shake_declaration": "unsupported"}}], "events": "none",
             "reasons": {"shake_declaration": "shakes by itself\u001b[2J"}}  # fmt: skip
    (tmp_path / "hello.json").write_text(json.dumps(hello))
    assert cli(["support", "--hello", str(tmp_path / "hello.json")]) == 0
    out = capsys.readouterr().out
    assert "scenarios about the event log, which the declaration declines" in out
    line = next(x for x in out.splitlines() if x.startswith("  shake_declaration: "))
    assert re.fullmatch(r"  shake_declaration: shakes by itself\\x1b\[2J \(\d+ left out\)", line), line


def test_options_declared_per_player_count_make_one_configuration_per_count() -> None:
    """An engine that plays Go at 7 with two players and at 3 with three (gostop-ts) says so: the
    scenarios of matgo-2p and standard-3p that depend on go_threshold run, each under its count."""
    per_count = {"players": [2, 3], "go_threshold": {"by_players": {"2": [7], "3": [3]}}}
    declaration = parse({"rulesets": [], "options": per_count | {k: "all" for k in option_registry() if k not in per_count}})
    assert [c.label for c in declaration.configurations] == ["declared options, 2 players", "declared options, 3 players"]
    verdicts = Verdicts(declaration, STORED)
    for rid, threshold in (("matgo-2p", 7), ("standard-3p", 3)):
        deciding = [
            sc
            for sc in CORPUS
            if sc.ruleset == rid and sc.rules.go_threshold == threshold and STORED[sc.id].depends_on("go_threshold") and not sc.requires
        ]
        assert len(deciding) > 10
        for sc in deciding:
            v = verdicts.of(sc)
            assert v.supported and v.configuration == f"declared options, {sc.rules.players} players", (sc.id, v.reason())
    flat = Verdicts(parse({"rulesets": [], "options": {k: "all" for k in option_registry() if k != "go_threshold"}}), STORED)
    two = next(sc for sc in CORPUS if sc.ruleset == "matgo-2p" and sc.rules.go_threshold == 7 and STORED[sc.id].depends_on("go_threshold"))
    assert not flat.of(two).supported and "go_threshold" in flat.of(two).reason()


def test_a_claimed_ruleset_takes_the_per_count_values_of_its_own_count() -> None:
    declaration = parse({"rulesets": ["matgo-2p"], "options": {"jjok_steal": {"by_players": {"2": "all", "3": [1]}}}})
    assert declaration.claims("matgo-2p").of("jjok_steal") == "all"
    declaration = parse({"rulesets": ["standard-3p"], "options": {"jjok_steal": {"by_players": {"2": "all", "3": [2]}}}})
    assert declaration.claims("standard-3p").of("jjok_steal") == (1, 2)


def test_an_option_the_engine_does_not_declare_is_sent_as_unjudged() -> None:
    verdicts = Verdicts(parse(everything_but("dual_role_mode")), STORED)
    sc = next(sc for sc in CORPUS if sc.ruleset == "matgo-2p" and not sc.options and not STORED[sc.id].depends_on("dual_role_mode"))
    assert verdicts.of(sc).scenario.unjudged == {"dual_role_mode"}
    assert Verdicts(parse({"rulesets": ["matgo-2p"]}), STORED).of(sc).scenario.unjudged == frozenset()
