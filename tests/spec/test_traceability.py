"""Seed traceability (spec/traceability.yaml): loading, the errors a user sees (file, line, path),
the checks against the spec and against the seed texts."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from gostop_conformance.spec import (
    TRACE_STATUSES,
    InputError,
    clauses,
    load_traceability,
    option_registry,
    quote_problems,
    ruleset_ids,
    seed_files,
    traceability,
    traceability_problems,
    uncovered_seeds,
)

SEED_TEXT = "Rules\n\nA bright is worth\n  twenty points. Ribbons five.\n"
SEED_SHA = hashlib.sha256(SEED_TEXT.encode()).hexdigest()
SEED_FILE = "001_1695ba46d1ed46f2.txt"  # the file name spec/sources.yaml gives seed-001

HEAD = f"""schema_version: 1
seeds:
  seed-001:
    sha256: {SEED_SHA}
    rulesets: [wikipedia-2p, wikipedia-3p, family-3p]
statements:
"""

GOOD = """  - id: 001-bright
    source: seed-001
    section: "Point system"
    quote: "A bright is worth twenty points."
    status: implemented
    implements: [{clause: R-PC-CARD-POINTS}, {option: scoring_system, value: point_count}]
    rulesets: [family-3p]
"""


def _table(tmp_path: Path, statements: str, head: str = HEAD) -> Path:
    path = tmp_path / "traceability.yaml"
    path.write_text(head + statements, encoding="utf-8")
    return path


def _seeds(tmp_path: Path, text: str = SEED_TEXT) -> Path:
    folder = tmp_path / "seeds"
    folder.mkdir(exist_ok=True)
    (folder / SEED_FILE).write_text(text, encoding="utf-8")
    return folder


# ---------------------------------------------------------------------------- the shipped table


def test_the_shipped_table_loads_and_traces_every_seed() -> None:
    table = traceability()
    assert not uncovered_seeds(table)
    assert set(table.seeds) == {"seed-000", "seed-001", "seed-002", "seed-003"}
    for seed in table.seeds:
        counts = table.counts(seed)
        assert list(counts) == list(TRACE_STATUSES)
        assert sum(counts.values()) == len(table.of_seed(seed)) > 0


def test_the_shipped_table_refers_only_to_what_the_spec_has() -> None:
    assert traceability_problems(traceability()) == []


def test_every_rule_statement_of_the_shipped_table_names_a_clause() -> None:
    known = clauses()
    for st in traceability().statements:
        if st.status == "not-a-rule":
            assert not st.links and st.reason, st.id
        else:
            assert st.clause_ids and set(st.clause_ids) <= set(known), st.id


def test_the_shipped_quotes_are_in_the_seed_texts() -> None:
    files = seed_files()
    if any(path is None for path in files.values()):
        pytest.skip("the seed texts (shared/seeds/) are not beside this checkout")
    assert quote_problems(traceability(), files) == ([], [])


def test_the_departures_of_issue_15_are_on_record() -> None:
    """The departures a review found (issue 15), each traced where the seed says it."""
    departs = {st.id for st in traceability().statements if st.status == "departs"}
    assert not {"001-junk-definition", "001-four-in-hand", "001-nagari-double-chongtong", "001-family-setup"} & departs
    implemented = {st.id for st in traceability().statements if st.status == "implemented"}
    # issue 15 decided them: the rulesets named after the seed now play the seed's reading
    assert {
        "001-junk-definition",
        "001-four-in-hand",
        "001-nagari-double-chongtong",
        "001-family-setup",
        "003-four-blank-red",
    } <= implemented
    assert {"003-next-dealer", "003-winner-first"} <= implemented


# ---------------------------------------------------------------------------- loading errors


def test_a_good_table_loads(tmp_path: Path) -> None:
    table = load_traceability(_table(tmp_path, GOOD))
    (st,) = table.statements
    assert st.id == "001-bright" and st.rulesets == ("family-3p",)
    assert [link.text() for link in st.links] == ["R-PC-CARD-POINTS", "scoring_system = point_count"]
    assert st.clause_ids == ("R-PC-CARD-POINTS", *option_registry()["scoring_system"].clauses)
    assert st.where.endswith("traceability.yaml:7 at statements[0]")
    assert traceability_problems(table) == []


def test_a_rule_statement_that_names_nothing_is_refused_with_its_line(tmp_path: Path) -> None:
    bad = GOOD.replace("[{clause: R-PC-CARD-POINTS}, {option: scoring_system, value: point_count}]", "[]")
    with pytest.raises(InputError, match=r"traceability\.yaml:12 at statements\[0\]\.implements: \[\] should be non-empty"):
        load_traceability(_table(tmp_path, bad))


def test_a_statement_that_is_not_a_rule_needs_a_reason_and_no_links(tmp_path: Path) -> None:
    no_reason = '  - {id: 001-story, source: seed-001, section: "History", quote: "A bright is worth", status: not-a-rule}\n'
    with pytest.raises(InputError, match=r"traceability\.yaml:7 at statements\[0\]: 'reason' is a required property"):
        load_traceability(_table(tmp_path, no_reason))
    linked = no_reason.replace("status: not-a-rule}", "status: not-a-rule, reason: 'narrative only', implements: [{clause: R-DECK}]}")
    with pytest.raises(InputError, match=r"traceability\.yaml:7 at statements\[0\]"):
        load_traceability(_table(tmp_path, linked))


def test_a_departure_needs_a_reason(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"'reason' is a required property"):
        load_traceability(_table(tmp_path, GOOD.replace("status: implemented", "status: departs")))


def test_duplicate_ids_and_unknown_seeds_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"yaml:14 at statements\[1\]\.id: duplicate statement id '001-bright' \(first at .*:7"):
        load_traceability(_table(tmp_path, GOOD + GOOD))
    with pytest.raises(InputError, match=r":8 at statements\[0\]\.source: source 'seed-003' is not listed under seeds:"):
        load_traceability(_table(tmp_path, GOOD.replace("source: seed-001", "source: seed-003")))


def test_an_unknown_field_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r":7 at statements\[0\]: Additional properties are not allowed \('clause' was unexpected\)"):
        load_traceability(_table(tmp_path, GOOD + "    clause: R-DECK\n"))


# ---------------------------------------------------------------------------- checks against the spec


def _problems(tmp_path: Path, statements: str) -> list[str]:
    return traceability_problems(load_traceability(_table(tmp_path, statements)))


def test_unknown_clauses_options_values_and_rulesets_are_problems(tmp_path: Path) -> None:
    assert _problems(tmp_path, GOOD.replace("R-PC-CARD-POINTS", "R-PC-NOPE")) == [
        f"{tmp_path / 'traceability.yaml'}:12 at statements[0].implements[0]: statement 001-bright cites unknown clause R-PC-NOPE"
    ]
    (unknown,) = _problems(tmp_path, GOOD.replace("option: scoring_system", "option: scoring_sistem"))
    assert unknown.endswith("statement 001-bright cites unknown option 'scoring_sistem'")
    (value,) = _problems(tmp_path, GOOD.replace("value: point_count", "value: points"))
    assert "'points' is not a value of scoring_system; expected one of gostop, point_count" in value
    (ruleset,) = _problems(tmp_path, GOOD.replace("rulesets: [family-3p]", "rulesets: [family-9p]"))
    assert ruleset.endswith("statement 001-bright: unknown ruleset 'family-9p'")


def test_a_ruleset_not_named_after_the_seed_is_a_problem(tmp_path: Path) -> None:
    (problem,) = _problems(tmp_path, GOOD.replace("rulesets: [family-3p]", "rulesets: [family-3p, standard-3p]"))
    assert "ruleset standard-3p is not named after seed-001 (expected one of wikipedia-2p, wikipedia-3p, family-3p)" in problem


def test_an_implemented_value_must_be_what_each_ruleset_plays(tmp_path: Path) -> None:
    problems = _problems(tmp_path, GOOD.replace("rulesets: [family-3p]", "rulesets: [family-3p, wikipedia-3p]"))
    assert problems == [
        f"{tmp_path / 'traceability.yaml'}:12 at statements[0].implements[1]: statement 001-bright is implemented by "
        "scoring_system = point_count, but wikipedia-3p plays scoring_system = gostop"
    ]
    # an option-value statement names a variant a party may choose: no ruleset need play it
    variant = GOOD.replace("rulesets: [family-3p]", "rulesets: [wikipedia-3p]").replace("implemented", "option-value")
    assert _problems(tmp_path, variant) == []


def test_a_departure_whose_seed_reading_is_played_is_stale(tmp_path: Path) -> None:
    departs = """  - id: 001-rain
    source: seed-001
    section: "Point system"
    quote: "Ribbons five."
    status: departs
    implements: [{clause: R-DEC-RIBBON}]
    rulesets: [wikipedia-3p]
    seed_reading: {option: dec_ribbon, value: junk}
    reason: "a departure that is not one"
"""
    (stale,) = _problems(tmp_path, departs)
    assert stale.endswith(
        "statement 001-rain departs, but wikipedia-3p already plays dec_ribbon = junk: the status is stale (implemented there)"
    )
    assert _problems(tmp_path, departs.replace("value: junk", "value: in_cho_set")) == []


def test_a_seed_reading_belongs_to_a_departure_only(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r":7 at statements\[0\]"):
        load_traceability(_table(tmp_path, GOOD + "    seed_reading: {option: dec_ribbon, value: in_cho_set}\n"))


# ---------------------------------------------------------------------------- checks against the seed texts


def test_a_quote_is_found_across_line_breaks_and_extra_spaces(tmp_path: Path) -> None:
    table = load_traceability(_table(tmp_path, GOOD))
    assert quote_problems(table, seed_files(_seeds(tmp_path))) == ([], [])


def test_a_quote_that_is_not_verbatim_is_a_problem(tmp_path: Path) -> None:
    table = load_traceability(_table(tmp_path, GOOD.replace("twenty points.", "20 points.")))
    problems, unchecked = quote_problems(table, seed_files(_seeds(tmp_path)))
    assert unchecked == [] and len(problems) == 1
    assert problems[0].endswith(f"statement 001-bright: quote not found in {SEED_FILE}: 'A bright is worth 20 points.'")


def test_a_seed_text_other_than_the_recorded_one_is_a_problem(tmp_path: Path) -> None:
    table = load_traceability(_table(tmp_path, GOOD))
    problems, _ = quote_problems(table, seed_files(_seeds(tmp_path, SEED_TEXT + "edited\n")))
    assert len(problems) == 1 and f"not the {SEED_SHA} its quotes were checked against" in problems[0]


def test_a_missing_seed_text_is_reported_as_not_checked(tmp_path: Path) -> None:
    table = load_traceability(_table(tmp_path, GOOD))
    empty = tmp_path / "empty"
    empty.mkdir()
    assert quote_problems(table, seed_files(empty)) == ([], ["seed-001"])


def test_the_shipped_rulesets_named_after_seeds_exist() -> None:
    named = {rid for seed in traceability().seeds.values() for rid in seed.rulesets}
    assert named <= set(ruleset_ids())
