"""Locating and validating the spec data shipped as the `spec` package (one source of truth)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import jsonschema
import jsonschema_rs

from gostop_conformance.spec._yamlio import InputError, Located, load_yaml

SPEC_PACKAGE: Final = "gostop_conformance.spec"


def spec_dir() -> Path:
    """The directory holding deck.yaml, options.yaml, rulesets/, rules/ and schemas/."""
    return Path(str(resources.files(SPEC_PACKAGE))).resolve()


@cache
def schema(name: str) -> dict[str, Any]:
    path = spec_dir() / "schemas" / f"{name}.schema.json"
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def display_name(path: Path) -> str:
    """Paths inside the spec are shown relative to it (`spec/options.yaml`), others as given."""
    try:
        return "spec/" + path.resolve().relative_to(spec_dir().resolve()).as_posix()
    except ValueError:
        return str(path)


@cache
def _fast_check(schema_name: str) -> Callable[[Any], bool]:
    is_valid: Callable[[Any], bool] = jsonschema_rs.Draft202012Validator(schema(schema_name)).is_valid
    return is_valid


def validate(located: Located, schema_name: str) -> None:
    """Validate against a shipped JSON Schema; the first error (by position) names file, line, path.
    A valid document (nearly all of them) is passed by the compiled check (jsonschema-rs); the
    Python validator only runs to explain what is wrong."""
    if _fast_check(schema_name)(located.data):
        return
    validator = jsonschema.Draft202012Validator(schema(schema_name))
    # the first error by position; at one position an unknown field explains more than a missing one
    errors = sorted(
        validator.iter_errors(located.data),
        key=lambda e: (located.line_of(list(e.absolute_path)), e.validator != "additionalProperties", str(e.message)),
    )
    if errors:
        err = _deepest(errors[0])
        message = err.message
        if err.validator == "pattern" and "double-junk" in str(err.validator_value):
            message = (
                f"{err.instance!r} is not a card id; expected mMM-bright, mMM-animal, mMM-ribbon, "
                "mMM-double-junk, mMM-junk-1, mMM-junk-2 or bonus-N"
            )
        elif err.validator == "additionalProperties":
            message = f"{message}; see spec/schemas/{schema_name}.schema.json for the allowed fields"
        raise InputError(located.where(list(err.absolute_path)), f"{message} (schema {schema_name})")


@cache
def vocabulary() -> dict[str, Any]:
    """spec/vocabulary.yaml, validated: the closed sets of names the protocol, the scenarios and the
    engine share (the protocol schema repeats them as enums; a test keeps the copies equal)."""
    data: dict[str, Any] = load_spec_file("vocabulary.yaml", "vocabulary").data
    return data


@cache
def protocol_schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((spec_dir() / "protocol" / "protocol.schema.json").read_text(encoding="utf-8"))
    return loaded


@cache
def protocol_validator(definition: str) -> jsonschema.Draft202012Validator:
    """The full validator of one protocol definition: slow, used to explain what is wrong."""
    return jsonschema.Draft202012Validator({"$defs": protocol_schema()["$defs"], "$ref": f"#/$defs/{definition}"})


@cache
def protocol_check(definition: str, branch: int | None = None) -> Callable[[Any], bool]:
    """A compiled check of one protocol definition (or of one branch of its oneOf) for the hot
    path of every message: jsonschema-rs validates an act reply about twenty times faster than a
    Python validator (benchmarks/harness.py); on failure, `protocol_validator` says why."""
    defs = protocol_schema()["$defs"]
    schema = (
        {"$defs": defs, **defs[definition]["oneOf"][branch]} if branch is not None else {"$defs": defs, "$ref": f"#/$defs/{definition}"}
    )
    is_valid: Callable[[Any], bool] = jsonschema_rs.Draft202012Validator(schema).is_valid
    return is_valid


def _deepest(err: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """Inside oneOf/anyOf, the alternative that got furthest explains the mistake best."""
    while err.context:
        err = max(err.context, key=lambda e: (len(list(e.absolute_path)), e.validator != "required"))
    return err


def load_spec_file(relative: str, schema_name: str) -> Located:
    path = spec_dir() / relative
    located = load_yaml(path, display_name(path))
    validate(located, schema_name)
    return located
