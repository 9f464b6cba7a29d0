#!/usr/bin/env python3
"""The data of the JavaScript kit, kit-js/spec-data.json, generated from spec/ through
`gostop_conformance.spec` so that nothing in the kit is copied by hand (issue 40): the card table
(R-CARD-IDS, R-BONUS-DECK), the vocabulary's names and fields, the options registry the hello
builder checks values against, the deal layouts a seeded deal is dealt by (R-DEAL-ORDER), the named
rulesets, and the protocol schema's definitions without their prose (the kit checks requests and
replies against them). tests/kit/test_js_kit.py fails when the committed file is stale.

    python kit-js/generate.py           # write kit-js/spec-data.json (and package.json's version)
    python kit-js/generate.py --check   # exit 1 when either is stale
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any, Final

from gostop_conformance import spec

HERE: Final = Path(__file__).resolve().parent
DATA: Final = HERE / "spec-data.json"
PACKAGE: Final = HERE / "package.json"
PYPROJECT: Final = HERE.parent / "pyproject.toml"

#: the JSON Schema keywords the kit's checker (kit-js/src/shape.js) understands; a schema that uses
#: any other fails generation here rather than being checked loosely in JavaScript
KEYWORDS: Final = frozenset(
    {
        "$ref",
        "type",
        "const",
        "enum",
        "minimum",
        "maximum",
        "pattern",
        "items",
        "minItems",
        "maxItems",
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
        "propertyNames",
        "oneOf",
    }
)
#: prose, which the kit does not need
_PROSE: Final = frozenset({"description", "title", "$schema", "$id", "$comment"})


def _bare(schema: Any, where: str) -> Any:
    """A schema fragment without its prose; ValueError for a keyword the JS checker lacks."""
    if isinstance(schema, list):
        return [_bare(item, f"{where}[{i}]") for i, item in enumerate(schema)]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _PROSE:
            continue
        if key not in KEYWORDS:
            raise ValueError(f"{where}.{key}: a JSON Schema keyword kit-js/src/shape.js does not check")
        if key == "properties":
            out[key] = {name: _bare(sub, f"{where}.properties.{name}") for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "propertyNames", "oneOf"):
            out[key] = _bare(value, f"{where}.{key}")
        elif key == "$ref":
            out[key] = value.removeprefix("#/$defs/")
        else:
            out[key] = value
    return out


def _cards() -> list[dict[str, Any]]:
    return [
        {
            "id": c.id,
            "index": c.index,
            "month": c.month,
            "kind": c.kind,
            "units": c.units,
            "ribbon_class": c.ribbon_class,
            "roles": sorted(c.roles),
        }
        for c in spec.deck().cards
    ]


def _options() -> dict[str, dict[str, Any]]:
    """What OptionSpec.coerce and OptionSpec.expected read, per option."""
    out: dict[str, dict[str, Any]] = {}
    for option in spec.option_registry().values():
        entry: dict[str, Any] = {"type": option.type}
        if option.values:
            entry["values"] = list(option.values)
        if option.symbols:
            entry["symbols"] = list(option.symbols)
        for name, number in (("min", option.minimum), ("max", option.maximum), ("max_items", option.max_items)):
            if number is not None:
                entry[name] = number
        out[option.id] = entry
    return out


def build() -> dict[str, Any]:
    vocabulary = spec.vocabulary()
    schema = spec.protocol_schema()
    return {
        "generated_by": "kit-js/generate.py from spec/ (do not edit)",
        "protocol": schema["$defs"]["version"]["const"],
        "no_month": spec.NO_MONTH,
        "cards": _cards(),
        "action_fields": {kind: list(entry["fields"]) for kind, entry in vocabulary["actions"].items()},
        "event_fields": {kind: list(entry["fields"]) for kind, entry in vocabulary["events"].items()},
        "decisions": list(vocabulary["decisions"]),
        "rejections": list(vocabulary["rejections"]),
        "errors": list(vocabulary["errors"]),
        "features": list(vocabulary["features"]),
        "positions": list(vocabulary["positions"]),
        "event_reports": list(vocabulary["event_reports"]),
        "options": _options(),
        "rulesets": spec.ruleset_ids(),
        "deal_layouts": {
            layout_id: {"players": layout["players"], "hand": layout["hand"], "table": layout["table"], "orders": layout["orders"]}
            for layout_id, layout in spec.deal_layouts().items()
        },
        "schema": {name: _bare(definition, name) for name, definition in schema["$defs"].items()},
    }


def render() -> str:
    """spec-data.json's text: one card, option or definition a line would be longer to diff than
    this, so plain indented JSON, keys in the order built."""
    return json.dumps(build(), indent=1, ensure_ascii=False) + "\n"


def python_version() -> str:
    version: str = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    return version


def package_text() -> str:
    """package.json with the Python package's version: the kits are versioned together."""
    package = json.loads(PACKAGE.read_text(encoding="utf-8"))
    package["version"] = python_version()
    return json.dumps(package, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 when a generated file is stale, writing nothing")
    args = parser.parse_args(argv)
    stale = [path for path, text in ((DATA, render()), (PACKAGE, package_text())) if not path.exists() or path.read_text("utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(HERE.parent)} is stale: run python kit-js/generate.py", file=sys.stderr)
        return 1 if stale else 0
    DATA.write_text(render(), encoding="utf-8")
    PACKAGE.write_text(package_text(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
