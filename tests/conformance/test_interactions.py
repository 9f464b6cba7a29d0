"""The design of the interaction scenarios (conformance/_interactions.py, scenarios/interactions.yaml)
and the two-player coverage of `gostop-conformance coverage` (issue 39)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness import check_interactions, default_root, load_corpus, load_interactions
from gostop_conformance.harness._lint import applies_to_two_players, two_player_gaps
from gostop_conformance.spec import InputError

SCENARIO = """schema_version: 1
scenarios:
  - id: ix-jjok
    title: "a jjok"
    clauses: [R-JJOK, R-MATCH]
    ruleset: matgo-2p
    tags: [{tags}]
    deal:
      hands: [[m09-junk-1, m01-bright], [m02-junk-1]]
      table: [m03-junk-1]
      stock: [m09-junk-2]
      captured: [[], [m04-junk-1, m04-ribbon]]
    steps:
      - act: {{type: play, player: 0, card: m09-junk-1}}
        expect:
          captured: [[m09-junk-1, m09-junk-2, m04-junk-1], [m04-ribbon]]
"""

DESIGN = """schema_version: 1
kinds:
  count: "Two or more of a counted thing, where the rules count it."
  tie: "A tie in who did something first or last, or in a count."
rows:
  - clause: {clause}
    kind: count
    what: "A jjok whose steal is counted once, in these words."
    scenarios: [{scenarios}]
"""


def _corpus(tmp_path: Path, tags: str = "interaction-count", clause: str = "R-JJOK", scenarios: str = "ix-jjok") -> Path:
    root = tmp_path / "scenarios"
    (root / "capture").mkdir(parents=True)
    (root / "capture" / "ix.yaml").write_text(SCENARIO.format(tags=tags), encoding="utf-8")
    (root / "interactions.yaml").write_text(DESIGN.format(clause=clause, scenarios=scenarios), encoding="utf-8")
    return root


def _problems(root: Path) -> list[str]:
    return check_interactions(load_interactions(root), load_corpus(root))


def test_the_bundled_design_loads_and_the_corpus_skips_it() -> None:
    design = load_interactions(default_root())
    assert design.rows and set(design.kinds) == {"count", "threshold", "order", "tie"}
    assert all(sc.file != "interactions.yaml" for sc in load_corpus(default_root()))


def test_a_design_that_agrees_with_the_corpus_has_no_problem(tmp_path: Path) -> None:
    assert _problems(_corpus(tmp_path)) == []


def test_a_row_without_scenarios_is_a_hole(tmp_path: Path) -> None:
    [problem] = _problems(_corpus(tmp_path, tags="", scenarios=""))
    assert "scenarios/interactions.yaml:6 at rows[0]: " in problem and "hole: no scenario shows R-JJOK x count" in problem


def test_a_row_names_a_scenario_that_exists_cites_its_clause_and_carries_its_tag(tmp_path: Path) -> None:
    problems = _problems(_corpus(tmp_path, tags="", clause="R-SWEEP", scenarios="ix-jjok, ix-gone"))
    assert any("scenario 'ix-gone' is not in the corpus" in p for p in problems)
    assert any("ix-jjok does not cite R-SWEEP" in p for p in problems)
    assert any("ix-jjok is in the design as count but not tagged interaction-count" in p for p in problems)


def test_a_tagged_scenario_belongs_to_a_row_and_to_a_known_kind(tmp_path: Path) -> None:
    problems = _problems(_corpus(tmp_path, tags="interaction-count, interaction-tie, interaction-odd", scenarios="ix-jjok"))
    assert any("tagged interaction-tie, but no row of interactions.yaml names it" in p for p in problems)
    assert any("unknown tag interaction-odd; expected one of interaction-count, interaction-tie" in p for p in problems)
    assert len(problems) == 2


def test_a_row_of_an_unknown_kind_or_clause_is_refused_with_its_line(tmp_path: Path) -> None:
    root = _corpus(tmp_path, clause="R-NOPE")
    with pytest.raises(InputError, match=r"interactions.yaml:6 at rows\[0\].clause: unknown clause 'R-NOPE'"):
        load_interactions(root)
    (root / "interactions.yaml").write_text(
        DESIGN.format(clause="R-JJOK", scenarios="").replace("kind: count", "kind: odd"), encoding="utf-8"
    )
    with pytest.raises(InputError, match=r"interactions.yaml:7 at rows\[0\].kind: unknown kind 'odd'; expected one of count, tie"):
        load_interactions(root)


def test_a_value_applies_to_two_players_when_a_two_player_ruleset_takes_it() -> None:
    assert applies_to_two_players("go_threshold", 3)
    assert applies_to_two_players("pi_bak_zero_exempt", False)
    assert not applies_to_two_players("deal_layout", "7-6")
    assert not applies_to_two_players("players", 3)


def test_a_clause_pinned_only_by_three_players_is_a_two_player_gap() -> None:
    corpus = load_corpus(default_root())
    deps = dependencies.load(default_root())
    gaps = two_player_gaps(corpus, deps)
    assert not any(g.startswith("clause R-JJOK") for g in gaps)
    # the same corpus with every two-player scenario of R-JJOK moved to three players
    moved = [
        replace(sc, resolved_options=sc.resolved_options | {"players": 3})
        if "R-JJOK" in sc.clauses and sc.resolved_options["players"] == 2
        else sc
        for sc in corpus
    ]
    assert "clause R-JJOK: no two-player scenario cites it" in two_player_gaps(moved, deps)


def test_an_option_value_pinned_only_by_three_players_is_a_two_player_gap() -> None:
    corpus = load_corpus(default_root())
    deps = dependencies.load(default_root())
    gap = "option value pi_bak_zero_exempt = false: no two-player scenario depends on it"
    assert gap not in two_player_gaps(corpus, deps)
    # the two-player scenarios stripped of their dependencies: no longer pinned there
    two = {sc.id for sc in corpus if sc.resolved_options["players"] == 2}
    assert gap in two_player_gaps(corpus, {k: v for k, v in deps.items() if k not in two})
