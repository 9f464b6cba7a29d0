"""The Korean terms of spec/glossary.yaml: hangul, romanisation, English, meaning, clauses.

The schema checks the shape; this module checks what a schema cannot: every group, clause, card
and month a term names exists, ids and hangul are unique, and a month's name is the one of
spec/deck.yaml, where it is taken from (one source for the months' Korean and English names).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gostop_conformance.spec._cards import deck
from gostop_conformance.spec._clauses import clauses
from gostop_conformance.spec._schemas import load_spec_file
from gostop_conformance.spec._yamlio import InputError, Located


@dataclass(frozen=True, slots=True)
class GlossaryTerm:
    id: str
    group: str
    hangul: str
    romanisation: str
    english: str
    meaning: str
    clauses: tuple[str, ...]
    also: tuple[str, ...]
    cards: tuple[str, ...]
    month: int | None


@dataclass(frozen=True, slots=True)
class Glossary:
    groups: tuple[tuple[str, str], ...]  # (id, title) in reading order
    terms: tuple[GlossaryTerm, ...]

    def in_group(self, group: str) -> tuple[GlossaryTerm, ...]:
        return tuple(t for t in self.terms if t.group == group)


@cache
def glossary() -> Glossary:
    return from_located(load_spec_file("glossary.yaml", "glossary"))


def from_located(located: Located) -> Glossary:
    """A glossary file already validated against its schema, checked against the spec."""
    data = located.data
    groups = tuple((str(k), str(v)) for k, v in data["groups"].items())
    months = {int(m["month"]): m for m in load_spec_file("deck.yaml", "deck").data["months"]}
    known_clauses = clauses()
    cards = deck().by_id
    terms: list[GlossaryTerm] = []
    seen_ids: set[str] = set()
    seen_hangul: dict[str, str] = {}
    for i, item in enumerate(data["terms"]):

        def fail(field: str, message: str, *more: int, at: int = i) -> InputError:
            return InputError(located.where(["terms", at, field, *more]), message)

        if item["id"] in seen_ids:
            raise fail("id", f"duplicate term id {item['id']!r}")
        seen_ids.add(item["id"])
        if item["group"] not in data["groups"]:
            raise fail("group", f"unknown group {item['group']!r}; the groups are {', '.join(data['groups'])}")
        for k, cid in enumerate(item["clauses"]):
            if cid not in known_clauses:
                raise fail("clauses", f"unknown clause id {cid!r}", k)
        for k, card in enumerate(item.get("cards", [])):
            if card not in cards:
                raise fail("cards", f"unknown card id {card!r}", k)
        month = item.get("month")
        if month is not None:
            for field in ("hangul", "english"):
                if field in item:
                    raise fail(field, f"a month's term takes its {field} from spec/deck.yaml: remove {field!r} or 'month'")
            hangul, english = str(months[month]["korean"]), str(months[month]["name"])
        else:
            for field in ("hangul", "english"):
                if field not in item:
                    raise InputError(located.where(["terms", i]), f"the term {item['id']!r} needs {field!r} (or 'month', for a month)")
            hangul, english = str(item["hangul"]), str(item["english"])
        if hangul in seen_hangul:
            raise fail("hangul" if month is None else "month", f"{hangul} is already the term {seen_hangul[hangul]!r}")
        seen_hangul[hangul] = item["id"]
        terms.append(
            GlossaryTerm(
                id=item["id"],
                group=item["group"],
                hangul=hangul,
                romanisation=item["romanisation"],
                english=english,
                meaning=" ".join(str(item["meaning"]).split()),
                clauses=tuple(item["clauses"]),
                also=tuple(item.get("also", ())),
                cards=tuple(item.get("cards", ())),
                month=month,
            )
        )
    used = {t.group for t in terms}
    for gid, _ in groups:
        if gid not in used:
            raise InputError(located.where(["groups", gid]), f"group {gid!r} has no term")
    return Glossary(groups, tuple(terms))
