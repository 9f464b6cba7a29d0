"""The protocol schema in parts (spec/protocol/commands/, spec/protocol/defs/): each part a JSON
Schema of its own whose references resolve among the parts, and the one-file schema exactly what
they build (spec._protocol_parts.bundle)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from gostop_conformance import spec
from gostop_conformance.reference import JsonEngine
from gostop_conformance.spec._protocol_parts import bundle_text

FOLDER = spec.spec_dir() / "protocol"
PARTS = sorted([*FOLDER.glob("commands/*.json"), *FOLDER.glob("defs/*.json")])


def _registry() -> Registry[Any]:
    resources = [Resource.from_contents(json.loads(p.read_text(encoding="utf-8"))) for p in PARTS]
    return Registry().with_resources((r.id(), r) for r in resources if r.id() is not None)


def test_the_one_file_schema_is_built_from_the_parts() -> None:
    assert (FOLDER / "protocol.schema.json").read_text(encoding="utf-8") == bundle_text(), (
        "spec/protocol/protocol.schema.json differs from its parts: python -m gostop_conformance.spec._protocol_parts --write"
    )


def test_there_is_a_part_per_command_and_per_shared_definition() -> None:
    index = json.loads((FOLDER / "index.json").read_text(encoding="utf-8"))
    assert {p.stem for p in FOLDER.glob("commands/*.json")} == set(index["commands"])
    replies = {f"reply_{c}" for c in index["commands"]}
    shared = [n for n in index["order"] if n != "request" and n not in replies]
    assert {p.stem for p in FOLDER.glob("defs/*.json")} == set(shared)


@pytest.mark.parametrize("part", PARTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_part_is_a_schema_whose_references_resolve(part: Path) -> None:
    document = json.loads(part.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(document)
    assert document["$id"].endswith(f"/protocol/{part.parent.name}/{part.name}")
    resolver = _registry().resolver(base_uri=document["$id"])

    def refs(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                resolver.lookup(node["$ref"])  # raises when the file or the pointer does not exist
            for value in node.values():
                refs(value)
        elif isinstance(node, list):
            for value in node:
                refs(value)

    refs(document)


def test_a_command_s_part_alone_checks_its_messages() -> None:
    """An adapter author's use: the act part (with the registry of the others) accepts a real act
    reply of the reference engine and refuses one whose state lost a field."""
    registry = _registry()
    act = json.loads((FOLDER / "commands" / "act.json").read_text(encoding="utf-8"))
    reply_schema = {"$ref": act["$id"] + "#/$defs/reply"}
    engine = JsonEngine()
    options = spec.load_ruleset("matgo-2p").options.as_json()
    engine.new_game({"id": "matgo-2p", "options": options}, {"seed": 3, "dealer": 0})
    chosen = random.Random(3).choice(engine.legal()["actions"])
    reply = {"seq": 1, **engine.act(chosen)}
    validator = jsonschema.Draft202012Validator(reply_schema, registry=registry)
    assert list(validator.iter_errors(reply)) == []
    broken = {**reply, "state": {k: v for k, v in reply["state"].items() if k != "stock"}}
    assert list(validator.iter_errors(broken)) != []
