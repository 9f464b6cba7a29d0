"""spec/_names.py against the sources it writes out: the vocabulary's closed sets and the option
values of spec/options.yaml, both ways and in order."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from spec import Options, _names, option_registry, vocabulary

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


def _literal_values(annotation: object) -> tuple[str, ...]:
    """The strings of a Literal, also when it is one member of a union (int_or_enum)."""
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    return tuple(v for arm in typing.get_args(annotation) for v in _literal_values(arm))


def test_every_symbolic_option_value_is_the_type_of_its_field() -> None:
    hints = typing.get_type_hints(Options)
    checked = 0
    for f in dataclasses.fields(Options):
        spec = option_registry()[f.name]
        symbols = tuple(spec.values) if spec.type == "enum" else tuple(spec.symbols) if spec.type == "int_or_enum" else ()
        assert _literal_values(hints[f.name]) == symbols, f.name
        checked += bool(symbols)
    assert checked == sum(spec.type in ("enum", "int_or_enum") for spec in option_registry().values()) > 0
