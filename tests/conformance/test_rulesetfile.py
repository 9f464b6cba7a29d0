"""A ruleset file as the harness's input (conformance._rulesetfile, issue 41): `--ruleset-file` on
run, support, lint, fuzz and profile, the pytest plugin's `--gostop-ruleset-file`, and `ruleset
check`. Each is tried with a file that inherits from a named ruleset and one that inherits from
that file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness._cli import main
from gostop_conformance.harness._declaration import Verdicts, parse
from gostop_conformance.harness._dependencies import Dependencies
from gostop_conformance.harness._engine import ReferenceEngine
from gostop_conformance.harness._profile import OptionProfile
from gostop_conformance.harness._rulesetfile import (
    found_values,
    fuzz_configuration,
    profile_against,
    profile_ruleset,
    report_lines,
    sent_as,
    within,
)
from gostop_conformance.harness._scenarios import Scenario, default_root, load_corpus
from gostop_conformance.spec import RulesetFile, clauses, load_ruleset, load_ruleset_file

HOUSE = """\
id: our-house-3p
title: "Our house, three players"
parent: standard-3p
description: "Two jokers, three ppeoks win 7, a Go-caller who loses pays for all."
sources: [seed-002]
options:
  bonus_cards: [2, 2]
  three_ppeok_win: 7
  go_bak_mode: pay_for_all
"""
TWO = """\
id: our-house-2p
title: "Our house, two players"
parent: ./our-house-3p.yaml
description: "The same for two."
sources: [seed-002]
options:
  players: 2
  deal_layout: "10-8"
  go_threshold: 7
"""
#: the file that inherits from a named ruleset, and the one that inherits from it
FILES = ("our-house-3p.yaml", "our-house-2p.yaml")
MUTANT = f"{sys.executable} -m gostop_conformance.mutants"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("house")
    (out / FILES[0]).write_text(HOUSE, encoding="utf-8")
    (out / FILES[1]).write_text(TWO, encoding="utf-8")
    return out


@cache
def _corpus() -> list[Scenario]:
    return load_corpus()


@cache
def _stored() -> dict[str, Dependencies]:
    return dependencies.load(default_root())


def _rules(folder: Path, name: str) -> RulesetFile:
    return load_ruleset_file(folder / name, name)


# ---------------------------------------------------------------- which scenarios run under a file


def test_the_declaration_of_a_file_is_its_base_with_every_value_of_the_file(folder: Path) -> None:
    rules = _rules(folder, FILES[1])
    declared = within(rules, parse(ReferenceEngine().hello()))
    [cfg] = declared.configurations
    assert cfg.base == "standard-3p" and declared.claimed == ()
    assert {name: cfg.of(name) for name in cfg.support} == {k: (v,) for k, v in rules.ruleset.options.as_json().items()}
    # what the engine says of its features is kept; without an engine, the reference engine's
    assert declared.features == parse(ReferenceEngine().hello()).features == within(rules).features


@pytest.mark.parametrize("name", FILES)
def test_a_scenario_runs_exactly_when_it_holds_under_the_file(folder: Path, name: str) -> None:
    """Every scenario that runs is sent as the file's base with every option at the file's value,
    and no option the file changes is one its outcome depends on with a value it fails under; one
    that does not run depends on a value the file changes, or (all changes together) on their
    combination, which the reference engine was asked."""
    rules = _rules(folder, name)
    own = rules.ruleset.options.as_json()
    verdicts = Verdicts(within(rules), _stored())
    ran = 0
    refused_by_a_difference = 0
    for sc in _corpus():
        verdict = verdicts.of(sc)
        changed = [k for k, v in own.items() if sc.resolved_options[k] != v]
        dep = verdicts.dependencies(sc)
        fails = [k for k in changed if dep.admits(k, own[k], sc.resolved_options[k]) is False]
        if verdict.scenario is not None:
            ran += 1
            assert verdict.scenario.ruleset == rules.base and verdict.scenario.resolved_options == own, sc.id
            assert not fails, (sc.id, fails)
        else:
            assert verdict.needs and {n.option for n in verdict.needs} <= set(changed), (sc.id, verdict.reason())
            assert fails or all(n.passes == () for n in verdict.needs), (sc.id, verdict.reason())
            refused_by_a_difference += bool(fails)
    assert ran >= 50 and refused_by_a_difference >= 50, (ran, refused_by_a_difference)


@pytest.mark.parametrize("name", FILES)
def test_run_under_a_file_reports_what_the_corpus_checks_of_it(folder: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _rules(folder, name)
    out = folder / f"reports-{name}"
    assert main(["run", "--rules", str(folder / name), "--quiet", "--report-dir", str(out)]) == 0
    text = capsys.readouterr().out
    header = json.loads((out / "report.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["selection"]["rules"] == {"id": rules.ruleset.id, "file": str(folder / name), "hash": rules.hash, "base": "standard-3p"}
    records = [json.loads(line) for line in (out / "report.jsonl").read_text(encoding="utf-8").splitlines()[1:-1]]
    checked = [r for r in records if r["outcome"] == "PASS"]
    assert checked and all(r["outcome"] in ("PASS", "UNSUPPORTED") for r in records)
    assert f"under the rules of {rules.ruleset.id} ({folder / name}), {rules.hash}, sent as standard-3p" in text
    assert "UNSUPPORTED by a value the ruleset file changes (" in text and "scenarios ran with the ruleset file's values" in text
    assert f"  {len(checked)} of {len(records)} scenarios held under them and ran" in text
    assert f"  its {len(rules.differences())} differences from standard-3p" in text
    for option in rules.differences():
        assert f"    {option} = " in text
    # the clauses no scenario that ran cites
    cited = {c for r in checked for c in r["clauses"]}
    gaps = [c for c in clauses() if c not in cited]
    assert f"clauses no scenario checked under these rules ({len(gaps)} of {len(clauses())};" in text
    assert all(c in text for c in gaps)


def test_a_difference_no_scenario_pins_is_said_so(folder: Path) -> None:
    rules = _rules(folder, FILES[0])
    corpus = [sc for sc in _corpus() if sc.ruleset == "standard-3p"][:5]
    outcomes = [(sc, "PASS", None) for sc in corpus]
    lines = report_lines(rules, outcomes, {})  # no dependency known: nothing pins anything
    assert "    three_ppeok_win = 7 (standard-3p: off; R-THREE-PPEOK): NO scenario checks it" in lines


@pytest.mark.parametrize("name", FILES)
def test_support_under_a_file_needs_no_engine_and_agrees_with_run(folder: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _rules(folder, name)
    verdicts = Verdicts(within(rules), _stored())
    running = sum(1 for sc in _corpus() if verdicts.of(sc).supported)
    os.environ.pop("GOSTOP_ENGINE", None)
    assert main(["support", "--ruleset-file", str(folder / name)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{running} of {len(_corpus())} scenarios will run")
    assert f"  {running} of {len(_corpus())} scenarios held under them and ran" in out


def test_lint_lints_the_file_and_counts_the_scenarios_that_pin_each_value(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _rules(folder, FILES[1])
    assert main(["lint", "--ruleset-file", str(folder / FILES[1])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"our-house-2p ({folder / FILES[1]}): valid; {rules.hash}; based on standard-3p"
    stored = _stored()
    for option in rules.differences():
        value = rules.ruleset.options.as_json()[option]
        pins = [
            sc.id
            for sc in _corpus()
            if sc.id in stored
            and stored[sc.id].depends_on(option)
            and (sc.resolved_options[option] == value or stored[sc.id].admits(option, value, sc.resolved_options[option]) is True)
        ]
        line = next(x for x in out if x.startswith(f"    {option} = "))
        assert line.endswith(
            f": {len(pins)} scenarios" if len(pins) > 1 else f": {len(pins)} scenario" if pins else "NO scenario checks it"
        )
    broken = folder / "broken.yaml"
    broken.write_text(HOUSE.replace("go_bak_mode: pay_for_all", "go_bak_mode: always"), encoding="utf-8")
    assert main(["lint", "--ruleset-file", str(broken)]) == 2


# ---------------------------------------------------------------- ruleset check


@pytest.mark.parametrize("name", FILES)
def test_ruleset_check_prints_the_resolved_options_and_their_hash(folder: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    rules = _rules(folder, name)
    assert main(["ruleset", "check", str(folder / name)]) == 0
    out = capsys.readouterr().out
    head, values = out.split("resolved options:\n")
    assert head.startswith(f"{folder / name}: ok: {rules.ruleset.id} ({rules.ruleset.title})")
    assert f"options hash {rules.hash}" in head
    assert yaml.safe_load(values) == rules.ruleset.options.as_json()  # the values read back as written ("off" stays a string)
    assert main(["ruleset", "check", str(folder / name), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["hash"] == rules.hash and shown["ruleset"] == {"id": "standard-3p", "options": rules.ruleset.options.as_json()}
    assert shown["differences"] == rules.differences()


def test_ruleset_check_of_a_mistake_exits_2_naming_file_and_line(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = folder / "bad-parent" / "two.yaml"
    bad.parent.mkdir(exist_ok=True)
    bad.write_text(TWO, encoding="utf-8")  # its parent is not beside it
    assert main(["ruleset", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"error: {bad}:3 at parent: parent ruleset file './our-house-3p.yaml' not found" in err and "Traceback" not in err


# ---------------------------------------------------------------- fuzz and profile under a file


def test_fuzz_under_a_file_plays_its_rules_and_writes_scenarios_that_hold_them(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _rules(folder, FILES[1])
    config = fuzz_configuration(rules)
    assert config.base == "standard-3p" and all(len(v) == 1 for v in config.values.values())
    out = folder / "fuzz"
    code = main(
        ["fuzz", "--engine", f"{MUTANT} jjok-no-steal", "--ruleset-file", str(folder / FILES[1]), "--games", "40", "--out", str(out)]
    )
    text = capsys.readouterr().out
    assert code == 1 and f"fuzzed within the declaration: our-house-2p ({folder / FILES[1]})" in text
    written = sorted(out.glob("*.yaml"))
    assert written
    found = load_corpus(out)
    assert found and all(sc.resolved_options == rules.ruleset.options.as_json() for sc in found)
    assert main(["fuzz", "--engine", f"{MUTANT} jjok-no-steal", "--ruleset-file", str(folder / FILES[1]), "--ruleset", "matgo-2p"]) == 2


def _profiled(option: str, values: tuple[object, ...] | None, votes: int = 5, **kw: object) -> OptionProfile:
    return OptionProfile(option, values, scenarios=[f"s{i}" for i in range(votes)], votes=votes, **kw)  # type: ignore[arg-type]


def test_profile_findings_become_a_ruleset_file_on_the_closest_named_ruleset(tmp_path: Path) -> None:
    found = [
        _profiled("jjok_steal", (0,)),
        _profiled("go_bak_mode", ("pay_for_all", "double_own")),  # the corpus cannot tell them apart
        _profiled("three_ppeok_win", (7,)),
        _profiled("chongtong_points", (10,)),  # as site-default-3p has them, not standard-3p
        _profiled("chongtong_multipliers", ("none",)),
        _profiled("pi_bak", None),  # undecided
        _profiled("meong_mode", ("off",), votes=1),  # weak
    ]
    assert set(found_values(found, 3)) == {"jjok_steal", "go_bak_mode", "three_ppeok_win", "chongtong_points", "chongtong_multipliers"}
    text, parent = profile_ruleset(found, {"engine": {"name": "x"}}, "My Engine 2", "standard-3p")
    path = tmp_path / "profile.yaml"
    path.write_text(text, encoding="utf-8")
    rules = load_ruleset_file(path)
    # the closest of the rulesets with standard-3p's deck and deal: the fewest findings contradicted
    assert parent == "site-default-3p" and rules.ruleset.parent == parent and rules.ruleset.id == "profile-my-engine-2"
    assert rules.ruleset.own == {"jjok_steal": 0, "three_ppeok_win": 7}  # go_bak_mode: the parent's value is one of those found
    assert load_ruleset(parent).options.go_bak_mode == "double_own"
    assert "#   pi_bak, meong_mode" in text
    # an engine claiming rulesets: the closest of those
    _, claimed = profile_ruleset(found, {"rulesets": ["standard-3p", "wikipedia-3p"]}, "x", "standard-3p")
    assert claimed in ("standard-3p", "wikipedia-3p")


def test_profile_against_a_file_names_what_the_engine_plays_otherwise(folder: Path) -> None:
    rules = _rules(folder, FILES[0])
    found = [
        _profiled("jjok_steal", (0,)),
        _profiled("three_ppeok_win", (7,)),
        _profiled("go_bak_mode", ("pay_for_all",), follows=True),
        _profiled("pi_bak", None),
    ]
    lines = profile_against(found, rules)
    assert lines[1] == "  jjok_steal: the engine plays 0; the file says 1 (5 of 5 scenarios)"
    counts = "1 played otherwise than the file says, 1 as it says, 1 follow the value the engine is sent, 1 undecided"
    assert lines[-1] == f"  of the 4 options profiled: {counts}"


def test_profile_against_a_file_writes_the_ruleset_file_it_found(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = folder / "profile"
    args = ["profile", "--engine", f"{MUTANT} jjok-no-steal", "--ruleset-file", str(folder / FILES[1]), "--option", "jjok_steal"]
    assert main([*args, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"against our-house-2p ({folder / FILES[1]}):" in text
    assert "  jjok_steal: the engine plays 0; the file says 1" in text
    found = load_ruleset_file(out / "profile.yaml")
    assert found.ruleset.own == {"jjok_steal": 0} and found.base == found.ruleset.parent


# ---------------------------------------------------------------- the pytest plugin


def test_the_pytest_plugin_runs_the_scenarios_that_hold_under_a_file(folder: Path) -> None:
    rules = _rules(folder, FILES[1])
    verdicts = Verdicts(within(rules), _stored())
    running = sum(1 for sc in _corpus() if verdicts.of(sc).supported)
    engine = f"{sys.executable} -m gostop_conformance.reference --stdio"
    base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--gostop-engine", engine, "--gostop-only"]
    env = {**os.environ, "PY_COLORS": "0"}
    proc = subprocess.run(
        [*base, "--gostop-ruleset-file", str(folder / FILES[1])],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert f"{len(_corpus())} scenarios run, {running} checked, {len(_corpus()) - running} unsupported" in proc.stdout
    proc = subprocess.run(
        [*base, "--gostop-ruleset-file", "missing.yaml"], cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 4 and "missing.yaml: cannot read file" in proc.stderr


def test_new_game_names_a_ruleset_the_engine_claims(folder: Path) -> None:
    """The protocol's ruleset id is one the engine claimed (spec/protocol/defs/ruleset.json): the
    file's base when it claims it or claims none, else the claimed ruleset closest to the file."""
    rules = _rules(folder, FILES[1])
    assert sent_as(rules) == sent_as(rules, parse({"rulesets": []})) == "standard-3p"
    assert sent_as(rules, parse({"rulesets": ["matgo-2p", "standard-3p"]})) == "standard-3p"
    assert sent_as(rules, parse({"rulesets": ["family-3p", "matgo-online"]})) == "matgo-online"
    declared = within(rules, parse({"rulesets": ["family-3p", "matgo-online"]}))
    verdicts = Verdicts(declared, _stored())
    sent = [v.scenario for sc in _corpus()[:200] if (v := verdicts.of(sc)).scenario is not None]
    assert sent and all(sc.ruleset == "matgo-online" and sc.resolved_options == rules.ruleset.options.as_json() for sc in sent)
