"""The spec is the single source of truth: code, options, rules and vocabulary must agree with it."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import yaml

from gostop_conformance import reference
from gostop_conformance.reference._events import ACTION_FIELDS
from gostop_conformance.reference._pointcount import PC_SETS
from gostop_conformance.spec import Options, clauses, deal_layouts, load_ruleset, option_registry, ruleset_ids, spec_dir

#: the engine's sources and the spec model's (cards and deck checks live there), wherever they are
#: installed (a checkout, a wheel, the compiled wheel)
CODE = sorted([*Path(reference.__file__).parent.glob("*.py"), *spec_dir().glob("*.py")])
assert CODE, "the engine's sources were not found beside reference_impl/__init__.py"


def _vocabulary() -> dict:
    return yaml.safe_load((spec_dir() / "vocabulary.yaml").read_text(encoding="utf-8"))


def _sources() -> set[str]:
    return set(yaml.safe_load((spec_dir() / "sources.yaml").read_text(encoding="utf-8"))["sources"])


def test_options_dataclass_matches_the_registry() -> None:
    assert [f.name for f in fields(Options)] == list(option_registry())


def test_every_clause_cited_in_code_exists() -> None:
    known = set(clauses())
    cited = {m for path in CODE for m in re.findall(r"\bR-[A-Z0-9]+(?:-[A-Z0-9]+)*\b", path.read_text(encoding="utf-8"))}
    assert cited - known == set()


def test_every_clause_is_implemented_somewhere() -> None:
    cited = {m for path in CODE for m in re.findall(r"\bR-[A-Z0-9]+(?:-[A-Z0-9]+)*\b", path.read_text(encoding="utf-8"))}
    assert set(clauses()) - cited == set()


def test_options_and_clauses_point_at_each_other() -> None:
    registry = option_registry()
    cl = clauses()
    for option in registry.values():
        for cid in option.clauses:
            assert cid in cl, f"option {option.id} names unknown clause {cid}"
            assert option.id in cl[cid].options, f"clause {cid} does not list option {option.id}"
    for clause in cl.values():
        for oid in clause.options:
            assert oid in registry, f"clause {clause.id} names unknown option {oid}"
            assert clause.id in registry[oid].clauses, f"option {oid} does not list clause {clause.id}"


def test_sources_are_registered() -> None:
    known = _sources()
    for clause in clauses().values():
        assert set(clause.sources) <= known, clause.id
    for option in option_registry().values():
        assert set(option.sources) <= known, option.id
    for rid in ruleset_ids():
        assert set(load_ruleset(rid).sources) <= known, rid


def test_point_count_sets_match_the_vocabulary() -> None:
    assert set(_vocabulary()["point_count_sets"]) == {name for table in PC_SETS.values() for name, _, _ in table}


def test_action_types_match_the_vocabulary() -> None:
    vocab = _vocabulary()
    assert set(ACTION_FIELDS) == set(vocab["actions"])
    for kind, spec in vocab["actions"].items():
        assert tuple(spec["fields"]) == ACTION_FIELDS[kind]


def test_event_kinds_and_rejection_codes_are_in_the_vocabulary() -> None:
    vocab = _vocabulary()
    text = "\n".join(p.read_text(encoding="utf-8") for p in CODE)
    emitted = set(re.findall(r'\bemit\(\s*s,\s*"([a-z_]+)"', text))
    rejected = set(re.findall(r'Rejection\(\s*"([a-z_]+)"', text))
    assert emitted, "no event emission found"
    assert emitted <= set(vocab["events"])
    assert rejected <= set(vocab["rejections"])
    decisions = set(re.findall(r'^(?:TURN|CHOOSE_HAND|CHOOSE_FLIP|GO_STOP|NONE): Final\[Decision\] = "([a-z_]+)"', text, re.M))
    assert decisions == set(vocab["decisions"])


def test_deal_layouts_match_the_option() -> None:
    reg = option_registry()
    assert set(reg["deal_layout"].values) == set(deal_layouts())
    orders = {o for layout in deal_layouts().values() for o in layout["orders"]}
    assert set(reg["deal_packet_order"].values) == orders
