"""spec/_names.py against the sources it writes out: the vocabulary's closed sets and the option
values of spec/options.yaml, both ways and in order."""

from __future__ import annotations

import ast
import dataclasses
import typing

import pytest

from gostop_conformance.spec import Options, _names, option_registry, spec_dir, vocabulary

_OF_SECTION = {
    "decisions": _names.Decision,
    "actions": _names.ActionType,
    "events": _names.EventKind,
    "settlements": _names.Outcome,
    "baks": _names.Bak,
    "rejections": _names.RejectionCode,
    "errors": _names.ErrorCode,
}


@pytest.mark.parametrize("section", sorted(_OF_SECTION))
def test_each_name_type_is_its_vocabulary_section(section: str) -> None:
    assert typing.get_args(_OF_SECTION[section]) == tuple(vocabulary()[section])


def _option_literals() -> dict[str, tuple[str, ...]]:
    """Per Options field, the strings of the Literal in its annotation, read from the source:
    the compiled build (mypyc) keeps no Literal in its runtime annotations, and both builds are
    tested (make test-compiled)."""
    tree = ast.parse((spec_dir() / "_rulesets.py").read_text(encoding="utf-8"))
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Options"]
    out: dict[str, tuple[str, ...]] = {}
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            literals = [
                sub.slice
                for sub in ast.walk(node.annotation)
                if isinstance(sub, ast.Subscript) and getattr(sub.value, "id", "") == "Literal"
            ]
            out[node.target.id] = tuple(
                c.value for lit in literals for c in ast.walk(lit) if isinstance(c, ast.Constant) and isinstance(c.value, str)
            )
    return out


def test_every_symbolic_option_value_is_the_type_of_its_field() -> None:
    literals = _option_literals()
    assert set(literals) == {f.name for f in dataclasses.fields(Options)}
    checked = 0
    for f in dataclasses.fields(Options):
        spec = option_registry()[f.name]
        symbols = tuple(spec.values) if spec.type == "enum" else tuple(spec.symbols) if spec.type == "int_or_enum" else ()
        assert literals[f.name] == symbols, f.name
        checked += bool(symbols)
    assert checked == sum(spec.type in ("enum", "int_or_enum") for spec in option_registry().values()) > 0
