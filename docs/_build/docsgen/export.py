"""The tables of docs/export.md, generated from the export's schema (spec/schemas/export.schema.json):
its fields, the checks of a round's items, and the expectation keys each check compares, so that
the page never states the format differently from the file that defines it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gostop_conformance.spec import schema

Json = dict[str, Any]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _type(node: Json) -> str:
    if "const" in node:
        return f"`{node['const']}`" if isinstance(node["const"], str) else str(node["const"])
    if "enum" in node:
        return " or ".join(f"`{v}`" for v in node["enum"])
    if "oneOf" in node:
        return " or ".join(_type(branch) for branch in node["oneOf"])
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[-1]
    kind = node.get("type", "any")
    if kind == "array" and isinstance(node.get("items"), dict) and "$ref" in node["items"]:
        return f"array of {_type(node['items'])}"
    return str(kind)


def _fields(node: Json, path: str, defs: Json) -> Iterator[tuple[str, str, str]]:
    for name, child in node.get("properties", {}).items():
        at = f"{path}.{name}" if path else name
        yield at, _type(child), child.get("description", "")
        if name == "rounds":  # the items: the table of checks
            continue
        target = child
        if child.get("type") == "array" and isinstance(child.get("items"), dict):
            target, at = child["items"], f"{at}[]"
        if "$ref" in target:
            target = defs[target["$ref"].rsplit("/", 1)[-1]]
        if "properties" in target:
            yield from _fields(target, at, defs)


def fields_table() -> str:
    """Every field of the export but a round's items, with its type and meaning."""
    doc = schema("export")
    rows = ["| field | type | meaning |", "| --- | --- | --- |"]
    rows += [f"| `{path}` | {_cell(kind)} | {_cell(text)} |" for path, kind, text in _fields(doc, "", doc["$defs"])]
    return "\n".join(rows)


def _items() -> list[Json]:
    doc = schema("export")
    found: list[Json] = doc["$defs"]["scenario"]["properties"]["rounds"]["items"]["items"]["oneOf"]
    return found


def checks_table() -> str:
    """Each kind of item of a round: the request it sends, and what its reply must be."""
    rows = ["| `check` | request | the reply |", "| --- | --- | --- |"]
    for item in _items():
        props = item["properties"]
        request = f"`{props['request']['properties']['cmd']['const']}`" if "request" in props else "none"
        extra = [f"`{k}`" for k in props if k not in ("check", "group", "request")]
        more = f" (with {', '.join(extra)})" if extra else ""
        rows.append(f"| `{props['check']['const']}`{more} | {request} | {_cell(props['check']['description'])} |")
    return "\n".join(rows)


def expectation_table() -> str:
    """The expectation keys, by the check that compares them."""
    rows = ["| key | check | compares |", "| --- | --- | --- |"]
    for item in _items():
        props = item["properties"]
        for key, node in props.get("expect", {}).get("properties", {}).items():
            rows.append(f"| `{key}` | `{props['check']['const']}` | {_cell(node.get('description', ''))} |")
    return "\n".join(rows)
