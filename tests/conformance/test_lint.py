"""`gostop-conformance lint`: a scenario that can fail no engine is a problem."""

from __future__ import annotations

from pathlib import Path

from gostop_conformance.harness import load_corpus
from gostop_conformance.harness._lint import binds, lint

EVENTS_ONLY = """schema_version: 1
scenarios:
  - id: harness-dealer-by-event
    title: "the first dealer, expected only as an event"
    clauses: [R-FIRST-DEALER]
    ruleset: wikipedia-3p
    deal:
      seed: 5
    after_deal:
      events:
        contains: [{kind: deal, dealer: 1}]
"""


def _corpus(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "scenarios" / "harness"
    root.mkdir(parents=True)
    (root / "h.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "scenarios"


def test_a_scenario_expecting_only_events_binds_nothing(tmp_path: Path) -> None:
    """Events are notes outside an event-log scenario: this one (with a wrong dealer) passes
    against every engine, so lint says so."""
    (sc,) = load_corpus(_corpus(tmp_path, EVENTS_ONLY))
    assert not binds(sc)
    problems = [p for p in lint([sc]).problems if "harness-dealer-by-event" in p]
    assert len(problems) == 1 and "expects nothing that can fail an engine" in problems[0]


def test_the_same_events_in_an_event_log_scenario_bind(tmp_path: Path) -> None:
    (sc,) = load_corpus(
        _corpus(tmp_path, EVENTS_ONLY.replace("    ruleset: wikipedia-3p\n", "    ruleset: wikipedia-3p\n    event_log: true\n"))
    )
    assert binds(sc)


def test_a_state_expectation_binds(tmp_path: Path) -> None:
    text = EVENTS_ONLY.replace("    after_deal:\n", "    after_deal:\n      decision: {kind: turn, player: 0}\n")
    (sc,) = load_corpus(_corpus(tmp_path, text))
    assert binds(sc)


def test_every_corpus_scenario_binds() -> None:
    assert [sc.id for sc in load_corpus() if not binds(sc)] == []


def test_a_behaviour_under_one_ruleset_and_player_count_is_reported() -> None:
    """Issue 15: a clause or a depended-on option value pinned only in one configuration."""
    from dataclasses import replace

    from gostop_conformance.harness import _dependencies as dependencies
    from gostop_conformance.harness import default_root
    from gostop_conformance.harness._lint import single_configurations

    corpus = load_corpus(default_root())
    deps = dependencies.load(default_root())
    first = next(sc for sc in corpus if sc.ruleset == "standard-3p" and "R-SCORE-JUNK" in sc.clauses)
    twin = replace(first, id=first.id + "-twin")
    found = dict(single_configurations([first, twin], deps))
    assert found["R-SCORE-JUNK"] == "standard-3p (3 players)"
    elsewhere = replace(twin, ruleset="matgo-2p", resolved_options=twin.resolved_options | {"players": 2})
    assert "R-SCORE-JUNK" not in dict(single_configurations([first, elsewhere], deps))
