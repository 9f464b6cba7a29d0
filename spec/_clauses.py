"""The rule clauses of spec/rules/*.yaml: ids, prose, sources and the options that change them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gostop_conformance.spec._schemas import load_spec_file, spec_dir
from gostop_conformance.spec._yamlio import InputError


@dataclass(frozen=True, slots=True)
class Clause:
    id: str
    title: str
    area: str
    area_title: str
    control: str
    options: tuple[str, ...]
    sources: tuple[str, ...]
    text: str
    decision: str | None


@cache
def clauses() -> dict[str, Clause]:
    """Every clause by id, in reading order (areas by `order`, then file order)."""
    areas = []
    for path in sorted((spec_dir() / "rules").glob("*.yaml")):
        located = load_spec_file(f"rules/{path.name}", "rules")
        if located.data["area"] != path.stem:
            raise InputError(located.where(["area"]), f"area {located.data['area']!r} must equal the file name {path.stem!r}")
        areas.append(located)
    out: dict[str, Clause] = {}
    for located in sorted(areas, key=lambda loc: loc.data["order"]):
        data = located.data
        for i, item in enumerate(data["clauses"]):
            if item["id"] in out:
                raise InputError(located.where(["clauses", i, "id"]), f"duplicate clause id {item['id']!r}")
            out[item["id"]] = Clause(
                id=item["id"],
                title=item["title"],
                area=data["area"],
                area_title=data["title"],
                control=item["control"],
                options=tuple(item["options"]),
                sources=tuple(item["sources"]),
                text=str(item["text"]).strip(),
                decision=str(item["decision"]).strip() if item.get("decision") else None,
            )
    return out
