"""Loading scenario files: every user error names file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from gostop_conformance.harness import ReferenceEngine, load_corpus, run_scenario
from gostop_conformance.spec import InputError

GOOD = """\
schema_version: 1
scenarios:
  - id: demo-one
    title: "demo"
    clauses: [R-JJOK]
    ruleset: matgo-2p
    deal:
      hands: [[m09-junk-1, m01-bright], [m02-junk-1]]
      table: [m03-junk-1]
      stock: [m09-junk-2]
    steps:
      - act: {type: play, player: 0, card: m09-junk-1}
        expect:
          captured: [[m09-junk-1, m09-junk-2], []]
"""


def write(tmp_path: Path, text: str, name: str = "area/a.yaml") -> Path:
    path = tmp_path / "scenarios" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return tmp_path / "scenarios"


def test_good_file_loads_and_completes_the_deal(tmp_path: Path) -> None:
    [sc] = load_corpus(write(tmp_path, GOOD))
    assert sc.area == "area"
    assert len(sc.deal["stock"]) == 48 - 4
    assert sc.deal["stock"][0] == "m09-junk-2"
    assert run_scenario(ReferenceEngine(), sc).outcome == "PASS"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("m01-bright]", "m01-brigt]"), r"scenarios/area/a\.yaml:8 at scenarios\[0\]\.deal\.hands\[0\]\[1\]: 'm01-brigt' is not a card id"),
        (("ruleset: matgo-2p", "ruleset: matgo-3p"), r"a\.yaml:6 at scenarios\[0\]\.ruleset: unknown ruleset 'matgo-3p'"),
        (
            ("stock: [m09-junk-2]", "stock: [m09-junk-2, m01-bright]"),
            r"a\.yaml:10 at scenarios\[0\]\.deal\.stock\[1\]: card 'm01-bright' appears twice",
        ),
        (
            ("    deal:", "    options: {jjok_steal: 7}\n    deal:"),
            r"a\.yaml:7 at scenarios\[0\]\.options\.jjok_steal: expected an integer from 0 to 5, got 7",
        ),
        (('title: "demo"', 'titel: "demo"'), r"a\.yaml:3 at scenarios\[0\]: .*'titel' was unexpected"),
        (("  - id: demo-one", "  - id: Demo_One"), r"a\.yaml:3 at scenarios\[0\]\.id: 'Demo_One' does not match"),
    ],
)
def test_errors_name_file_line_and_field(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    root = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(InputError, match=message):
        load_corpus(root)


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    write(tmp_path, GOOD, "a/one.yaml")
    root = write(tmp_path, GOOD, "b/two.yaml")
    with pytest.raises(InputError, match=r"two\.yaml:3: duplicate scenario id 'demo-one' \(first used at .*one\.yaml:3\)"):
        load_corpus(root)


def test_retired_ids_cannot_be_reused(tmp_path: Path) -> None:
    root = write(tmp_path, GOOD)
    (root / "retired.yaml").write_text("retired:\n  - {id: demo-one, reason: replaced}\n", encoding="utf-8")
    with pytest.raises(InputError, match="is retired"):
        load_corpus(root)


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    root = write(tmp_path, GOOD.replace("    deal:", "    deal: [oops"))
    with pytest.raises(InputError, match=r"a\.yaml:\d+: invalid YAML"):
        load_corpus(root)


def test_a_wrong_expectation_fails_with_the_step_and_both_values(tmp_path: Path) -> None:
    [sc] = load_corpus(write(tmp_path, GOOD.replace("[[m09-junk-1, m09-junk-2], []]", "[[m09-junk-1], []]")))
    result = run_scenario(ReferenceEngine(), sc)
    assert result.outcome == "FAIL"
    text = result.text()
    assert "step 1 (P0 play card=m09-junk-1): captured[0]" in text
    assert 'expected: ["m09-junk-1"]' in text and 'actual:   ["m09-junk-1", "m09-junk-2"]' in text
    assert "extra 1 single junk" in text  # a captured pile's junk by units, as it is compared (R-STEAL)


def test_expected_rejection_that_is_accepted_fails(tmp_path: Path) -> None:
    text = GOOD.replace("        expect:\n          captured: [[m09-junk-1, m09-junk-2], []]\n", "        reject: card_not_in_hand\n")
    [sc] = load_corpus(write(tmp_path, text))
    result = run_scenario(ReferenceEngine(), sc)
    assert result.outcome == "FAIL"
    assert "expected a rejection" in result.text()


MATCH = """\
schema_version: 1
scenarios:
  - id: demo-two-rounds
    title: "a void round, then a decided one at double"
    clauses: [R-NAGARI, R-NAGARI-CARRY]
    ruleset: matgo-2p
    rounds:
      - deal:
          hands: [[m01-junk-1], [m02-junk-1]]
          table: [m03-junk-1]
          stock: [m04-junk-1, m05-junk-1]
        steps:
          - act: {type: play, player: 0, card: m01-junk-1}
          - act: {type: play, player: 1, card: m02-junk-1}
        final: {settlement: {kind: nagari}}
      - deal:
          dealer: 0
          nagari_streak: 1
          hands: [[m09-junk-1], [m02-junk-1]]
          table: [m03-junk-1]
          stock: [m09-junk-2, m05-junk-1]
          captured: [[m01-bright, m03-bright, m08-bright, m11-bright, m12-bright, m10-animal, m06-animal], [m12-ribbon]]
        steps:
          - act: {type: play, player: 0, card: m09-junk-1}
          - act: {type: stop, player: 0}
        # brights 15, carried x2 after one void round = 30; the loser has no bright: gwang-bak x2
        final: {settlement: {kind: stop, winner: 0, points: 30, net: [60, -60]}}
    match: {totals: [60, -60], counted_rounds: 1, over: false}
"""


def test_multi_round_scenario_checks_the_hand_over(tmp_path: Path) -> None:
    [sc] = load_corpus(write(tmp_path, MATCH))
    assert len(sc.rounds) == 2
    assert run_scenario(ReferenceEngine(), sc).outcome == "PASS"
    # a second deal that ignores the void round's carry is a mismatch
    [bad] = load_corpus(write(tmp_path, MATCH.replace("nagari_streak: 1", "nagari_streak: 0")))
    result = run_scenario(ReferenceEngine(), bad)
    assert result.outcome == "FAIL"
    assert "next round: nagari_streak" in result.text()


def test_a_round_after_the_match_has_ended_fails(tmp_path: Path) -> None:
    """R-MATCH-ROUNDS: with match_rounds = 1 the decided first round ends the match, so a scenario
    that plays a second round after it is refused, whatever the final match check says."""
    decided_first = MATCH.replace(
        """        steps:
          - act: {type: play, player: 0, card: m01-junk-1}
          - act: {type: play, player: 1, card: m02-junk-1}
        final: {settlement: {kind: nagari}}
""",
        """          captured: [[m01-bright, m03-bright, m08-bright, m11-bright, m12-bright], []]
        steps:
          - act: {type: play, player: 0, card: m01-junk-1}
          - act: {type: stop, player: 0}
""",
    ).replace("          nagari_streak: 1\n", "")
    for old, new in (
        ("{kind: stop, winner: 0, points: 30, net: [60, -60]}", "{kind: stop, winner: 0, points: 15}"),
        ("match: {totals: [60, -60], counted_rounds: 1, over: false}", "match: {counted_rounds: 2, over: true}"),
    ):
        decided_first = decided_first.replace(old, new)
    assert decided_first != MATCH
    [sc] = load_corpus(write(tmp_path, decided_first.replace("ruleset: matgo-2p", "ruleset: matgo-2p\n    options: {match_rounds: 2}")))
    result = run_scenario(ReferenceEngine(), sc)
    assert result.outcome == "PASS", result.text()
    [bad] = load_corpus(write(tmp_path, decided_first.replace("ruleset: matgo-2p", "ruleset: matgo-2p\n    options: {match_rounds: 1}")))
    result = run_scenario(ReferenceEngine(), bad)
    assert result.outcome == "FAIL"
    assert "match.over" in result.text() and "the match ended after round 1" in result.text()


def test_seeded_deal_requires_the_feature(tmp_path: Path) -> None:
    text = GOOD.replace(
        """    deal:
      hands: [[m09-junk-1, m01-bright], [m02-junk-1]]
      table: [m03-junk-1]
      stock: [m09-junk-2]
    steps:
      - act: {type: play, player: 0, card: m09-junk-1}
        expect:
          captured: [[m09-junk-1, m09-junk-2], []]
""",
        """    deal: {seed: 1, dealer: 0}
    after_deal:
      stock_count: 20
""",
    )
    [sc] = load_corpus(write(tmp_path, text))
    assert "seeded_deal" in sc.requires
    assert run_scenario(ReferenceEngine(), sc).outcome == "PASS"


def test_the_bundled_corpus_is_package_data() -> None:
    """The corpus is found through importlib.resources, as in an installed wheel (.ci/check-wheel
    checks the wheel itself), never relative to the source tree."""
    import importlib.resources

    from gostop_conformance.harness import default_root

    assert default_root() == Path(str(importlib.resources.files("gostop_conformance.scenarios"))).resolve()
    assert len(load_corpus()) > 600


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_a_corpus_root_that_is_not_a_directory_is_an_error(tmp_path: Path, kind: str) -> None:
    """An empty corpus must never look like a corpus that passed."""
    root = tmp_path / "nowhere"
    if kind == "file":
        root.write_text("schema_version: 1\n", encoding="utf-8")
    state = "does not exist" if kind == "missing" else "is a file"
    with pytest.raises(InputError, match=f"expected a directory of scenario files, but it {state}"):
        load_corpus(root)


def test_a_long_pile_that_differs_by_a_card_shows_the_difference() -> None:
    from gostop_conformance.harness import Mismatch

    pile = [f"m{m:02d}-junk-1" for m in range(1, 12)]
    swapped = [*pile[:-1], "m11-junk-2"]
    text = Mismatch("step 3", "captured[1]", pile, swapped).text()
    assert text.splitlines()[1].strip() == "11 cards expected, 11 reported; missing m11-junk-1; extra m11-junk-2"
    assert "m01-junk-1" not in text
