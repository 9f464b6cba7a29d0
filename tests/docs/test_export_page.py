"""docs/export.md: its tables come from the export's schema (docsgen.export), so that the format
cannot change without the page (tests/conformance/test_export.py holds its matching rules to the
harness's comparison)."""

from __future__ import annotations

import sys
from pathlib import Path

from gostop_conformance.spec import schema

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "docs" / "_build"
if str(BUILD) not in sys.path:
    sys.path.insert(0, str(BUILD))

from docsgen import export, site  # noqa: E402

PAGE = (REPO / "docs" / "export.md").read_text(encoding="utf-8")


def test_the_page_asks_for_every_table_of_the_schema() -> None:
    for marker in site.EXPORT_TABLES:
        assert f"<!-- gostop:{marker} -->" in PAGE


def test_the_field_table_has_every_field_of_the_schema() -> None:
    doc = schema("export")
    table = export.fields_table()
    for name, node in doc["properties"].items():
        assert f"| `{name}` |" in table and node["description"] in table
    for name in doc["$defs"]["scenario"]["properties"]:
        assert f"| `scenarios[].{name}` |" in table
    for name in doc["$defs"]["scenario"]["properties"]["requires"]["properties"]:
        assert f"| `scenarios[].requires.{name}` |" in table


def test_the_check_tables_have_every_check_and_expectation_key() -> None:
    items = schema("export")["$defs"]["scenario"]["properties"]["rounds"]["items"]["items"]["oneOf"]
    checks, keys = export.checks_table(), export.expectation_table()
    assert len(items) == checks.count("\n") - 1
    for item in items:
        props = item["properties"]
        assert f"| `{props['check']['const']}`" in checks
        for name in props.get("expect", {}).get("properties", {}):
            assert f"| `{name}` | `{props['check']['const']}` |" in keys
