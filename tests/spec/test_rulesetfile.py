"""Ruleset files outside the package (spec.load_ruleset_file, issue 41): inheritance from a named
ruleset and from another file, and every mistake reported with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from gostop_conformance.spec import (
    InputError,
    closest_named,
    is_ruleset_path,
    load_ruleset,
    load_ruleset_file,
    named_chain,
    option_registry,
    ruleset_ids,
    source_ids,
)

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


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_inherits_from_a_named_ruleset(tmp_path: Path) -> None:
    rules = load_ruleset_file(_write(tmp_path, "our-house-3p.yaml", HOUSE))
    rs = rules.ruleset
    assert (rs.id, rs.parent, rules.base) == ("our-house-3p", "standard-3p", "standard-3p")
    assert [p.id for p in rules.parents] == ["standard-3p"]
    assert rs.options.bonus_cards == (2, 2) and rs.options.three_ppeok_win == 7 and rs.options.go_bak_mode == "pay_for_all"
    # everything else is the parent's
    parent = load_ruleset("standard-3p").options.as_json()
    assert {k for k, v in rs.options.as_json().items() if parent[k] != v} == {"bonus_cards", "three_ppeok_win", "go_bak_mode"}
    assert rules.differences() == ["bonus_cards", "three_ppeok_win", "go_bak_mode"]
    assert rules.protocol_json() == {"id": "standard-3p", "options": rs.options.as_json()}
    assert rules.hash.startswith("sha256:") and rules.hash != load_ruleset("standard-3p").hash


def test_a_file_inherits_from_another_file_by_a_path_relative_to_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path / "rules", "our-house-3p.yaml", HOUSE)
    _write(tmp_path / "rules", "two/our-house-2p.yaml", TWO.replace("./our-house-3p.yaml", "../our-house-3p.yaml"))
    monkeypatch.chdir(tmp_path)  # the file is named from elsewhere: its parent is found beside it, not here
    rules = load_ruleset_file(Path("rules/two/our-house-2p.yaml"))
    assert [p.id for p in rules.parents] == ["our-house-3p", "standard-3p"]
    assert rules.parents[0].file == "rules/our-house-3p.yaml"  # shown as reached from the file named
    assert rules.base == "standard-3p"  # the nearest named ancestor, through the file
    o = rules.ruleset.options
    assert (o.players, o.deal_layout, o.go_threshold, o.bonus_cards, o.go_bak_mode) == (2, "10-8", 7, (2, 2), "pay_for_all")


def test_a_file_without_parent_starts_from_the_defaults_and_is_based_on_the_closest_named_ruleset(tmp_path: Path) -> None:
    text = HOUSE.replace("parent: standard-3p\n", "").replace(
        "options:\n", 'options:\n  players: 2\n  deal_layout: "10-8"\n  go_threshold: 7\n  pi_bak_max_units: 7\n'
    )
    rules = load_ruleset_file(_write(tmp_path, "root.yaml", text))
    assert rules.parents == () and rules.ruleset.parent is None
    values = rules.ruleset.options.as_json()
    assert rules.base == closest_named(values)
    best = min(sum(load_ruleset(r).options.as_json()[k] != v for k, v in values.items()) for r in ruleset_ids())
    assert sum(load_ruleset(rules.base).options.as_json()[k] != v for k, v in values.items()) == best


def test_closest_named_picks_the_fewest_differences_first_in_order_among_equals() -> None:
    assert closest_named(load_ruleset("matgo-2p").options.as_json()) == "matgo-2p"
    assert closest_named({}) == ruleset_ids()[0]
    assert closest_named({}, ["wikipedia-3p", "family-3p"]) == "family-3p"


def test_named_chain_runs_to_the_root() -> None:
    assert [r.id for r in named_chain("site-default-2p")] == ["site-default-2p", "site-default-3p", "standard-3p"]


def test_is_ruleset_path() -> None:
    assert is_ruleset_path("./ours.yaml") and is_ruleset_path("../a/b.yml") and not is_ruleset_path("standard-3p")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("  go_bak_mode: pay_for_all\n", "  go_bak_mod: pay_for_all\n"), r"h\.yaml:9 at options\.go_bak_mod: unknown option 'go_bak_mod'"),
        (
            ("  three_ppeok_win: 7\n", "  three_ppeok_win: 700\n"),
            r"h\.yaml:8 at options\.three_ppeok_win: expected an integer from 1 to 100 or one of off, threshold, got 700",
        ),
        (
            ("  go_bak_mode: pay_for_all\n", "  show3_and_bomb: false\n  bomb_enabled: true\n"),
            r"h\.yaml:10 at options\.bomb_enabled: bomb_enabled = true contradicts show3_and_bomb = false",
        ),
        (
            ("parent: standard-3p", "parent: standard-4p"),
            r"h\.yaml:3 at parent: unknown parent ruleset 'standard-4p'",
        ),
        (("parent: standard-3p", "parent: ./missing.yaml"), r"h\.yaml:3 at parent: parent ruleset file './missing.yaml' not found"),
        (("sources: [seed-002]", "sources: [seed-002, our-gran]"), r"h\.yaml:5 at sources\[1\]: unknown source 'our-gran'"),
        (("id: our-house-3p", "id: matgo-2p"), r"h\.yaml:1 at id: 'matgo-2p' is a named ruleset's id"),
        (("  three_ppeok_win: 7\n", "  players: 2\n"), r"h\.yaml:6 at options: deal_layout '7-6' is for 3 players, but players is 2"),
        (("title: ", "titel: "), r"h\.yaml:1: Additional properties are not allowed \('titel' was unexpected\)"),
        (("parent: standard-3p", "parent: Our House"), r"h\.yaml:3 at parent: 'Our House' does not match .*\(schema ruleset\)"),
    ],
)
def test_every_mistake_names_its_file_and_line(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    assert change[0] in HOUSE
    path = _write(tmp_path, "h.yaml", HOUSE.replace(*change))
    with pytest.raises(InputError, match=message):
        load_ruleset_file(path, "h.yaml")


def test_a_mistake_in_the_parent_file_names_the_parent_file(tmp_path: Path) -> None:
    _write(tmp_path, "our-house-3p.yaml", HOUSE.replace("  three_ppeok_win: 7\n", "  three_ppeok_win: sometimes\n"))
    path = _write(tmp_path, "two.yaml", TWO)
    with pytest.raises(InputError, match=r"^our-house-3p\.yaml:8 at options\.three_ppeok_win: expected an integer"):
        load_ruleset_file(path, "two.yaml")


def test_a_parent_cycle_is_an_error_naming_the_files(tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", HOUSE.replace("parent: standard-3p", "parent: b.yaml"))
    _write(tmp_path, "b.yaml", TWO.replace("./our-house-3p.yaml", "./a.yaml"))
    with pytest.raises(InputError, match=r"b\.yaml:3 at parent: ruleset inheritance cycle: a\.yaml -> b\.yaml -> a\.yaml"):
        load_ruleset_file(tmp_path / "a.yaml", "a.yaml")
    _write(tmp_path, "self.yaml", HOUSE.replace("parent: standard-3p", "parent: self.yaml"))
    with pytest.raises(InputError, match=r"self\.yaml:3 at parent: ruleset inheritance cycle: self\.yaml -> self\.yaml"):
        load_ruleset_file(tmp_path / "self.yaml", "self.yaml")


def test_a_file_that_is_not_there_or_not_yaml(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read file"):
        load_ruleset_file(tmp_path / "nope.yaml")
    with pytest.raises(InputError, match=r"x\.yaml:\d+: invalid YAML"):
        load_ruleset_file(_write(tmp_path, "x.yaml", "id: [\nfoo"), "x.yaml")


def test_the_named_rulesets_cite_known_sources_only() -> None:
    """The named rulesets are resolved by the same code (spec._rulesets.ruleset_of): a source not in
    spec/sources.yaml is an error there too, not a test failure later (issue 41)."""
    known = set(source_ids())
    assert "seed-002" in known
    for rid in ruleset_ids():
        assert set(load_ruleset(rid).sources) <= known


# ---------------------------------------------------------------- plain words (OptionSpec.plain)


def test_every_value_of_every_named_ruleset_has_plain_words() -> None:
    registry = option_registry()
    for rid in ruleset_ids():
        for name, value in load_ruleset(rid).options.as_json().items():
            words = registry[name].plain(value)
            assert len(words) > 3 and "{" not in words, (rid, name, words)


def test_plain_words_fill_in_integers_and_lists() -> None:
    r = option_registry()
    assert r["three_ppeok_win"].plain(7) == "A player's third ppeok of a round wins at once, for 7 points from each opponent."
    assert r["three_ppeok_win"].plain("off") == r["three_ppeok_win"].value_docs["off"]
    assert r["jjok_steal"].plain(0) != r["jjok_steal"].plain(2)
    assert "2 and 3" in r["bonus_cards"].plain([2, 3]) and "One bonus card" in r["bonus_cards"].plain((3,))
    assert r["must_match_if_possible"].plain(True) != r["must_match_if_possible"].plain(False)
    # a subset is its members' words; the empty set has its own
    assert r["final_turn_exempt"].plain(frozenset({"jjok", "sweep"})) == " ".join(
        r["final_turn_exempt"].value_docs[m] for m in ("jjok", "sweep")
    )
    assert r["extra_yaku"].plain([]) == r["extra_yaku"].words["[]"]


def test_an_option_left_without_words_does_not_load() -> None:
    from dataclasses import replace

    from gostop_conformance.spec import load_yaml_text
    from gostop_conformance.spec._rulesets import _check_words

    located = load_yaml_text("options:\n  - id: x\n", "spec/options.yaml")
    jjok = option_registry()["jjok_steal"]
    _check_words(jjok, located, 0)
    with pytest.raises(InputError, match=r"options\.yaml:2 at options\[0\]\.words: no plain words for jjok_steal = 0"):
        _check_words(replace(jjok, words={}), located, 0)
    with pytest.raises(InputError, match="'7x' is neither a value of jjok_steal nor a template"):
        _check_words(replace(jjok, words={**jjok.words, "7x": "never"}), located, 0)
