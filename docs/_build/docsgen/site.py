"""The whole generated site: which pages exist (with their content), and the navigation."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any

from docsgen import compat, export, glossary, learn, pages, protocol, sessions, traceability
from docsgen.cards import back_svg, svg
from docsgen.model import Model


def generated_files(m: Model) -> dict[str, str]:
    """src path under docs/ -> content, for every generated page and asset, in a fixed order."""
    out: dict[str, str] = {}
    for card in m.cards:
        out[f"cards/{card.id}.svg"] = svg(card, m.deck.month_names)
    out["cards/back.svg"] = back_svg()
    out["learn.md"] = learn.learn_page(m)
    out["glossary.md"] = glossary.glossary_page(m)
    out["rules/index.md"] = pages.rules_index(m)
    for area in m.areas:
        out[f"rules/{area.id}.md"] = pages.rules_area(m, area)
    out[traceability.SRC] = traceability.traceability_page(m)
    out["cards.md"] = pages.cards_page(m)
    out["options.md"] = pages.options_page(m)
    out["rulesets/index.md"] = pages.rulesets_index(m)
    out["rulesets/compare.md"] = pages.rulesets_compare(m)
    for rid in m.ruleset_ids:
        out[f"rulesets/{rid}.md"] = pages.ruleset_page(m, rid)
    out["scenarios/index.md"] = pages.scenario_index(m)
    out["scenarios/interactions.md"] = pages.interactions_page(m)
    for file in m.scenario_files:
        out[m.page_of_file(file)] = pages.scenario_file_page(m, file)
    out["protocol.md"] = protocol.protocol_page(m)
    out["conformance.md"] = pages.conformance_page(m)
    report = compat.run_reports()
    out[compat.SRC] = compat.compat_page(m, report)
    out.update(report)
    return out


#: folders under docs/ holding only generated files (a file there that the generator no longer makes is stale)
GENERATED_FOLDERS = ((sessions.FOLDER, "*"), ("rules", "*"), ("scenarios", "**/*"))


def repository_files(m: Model) -> dict[str, str]:
    """src path under docs/ -> content, for every generated file committed to the repository so that
    the repository reads without a build (docs/_build/generate.py writes them, a test checks they are
    fresh): the recorded protocol sessions, and the portable rendering of the pages the tutorial and
    README link to (protocol, cards, rules, scenario catalogue). The site takes the sessions from here
    and renders those pages its own way at the same paths, never from the committed copies."""
    out = sessions.files()
    out["protocol.md"] = protocol.protocol_page(m, portable=True)
    out["cards.md"] = pages.cards_page(m, portable=True)
    out["rules/index.md"] = pages.rules_index(m, portable=True)
    for area in m.areas:
        out[f"rules/{area.id}.md"] = pages.rules_area(m, area, portable=True)
    out["scenarios/index.md"] = pages.scenario_index_portable(m)
    return out


def nav(m: Model) -> list[Any]:
    """The navigation; hand-written pages (index, tutorial, scenario format) sit among generated ones."""
    scenario_sections: list[Any] = []
    by_area: dict[str, list[str]] = {}
    for file in m.scenario_files:
        by_area.setdefault(m.scenario_files[file][0].area, []).append(file)
    for area in m.scenario_areas:
        files = sorted(by_area.get(area, []))
        scenario_sections.append({area: [{posixpath.splitext(posixpath.basename(f))[0]: m.page_of_file(f)} for f in files]})
    return [
        {"Home": "index.md"},
        {"Learn to play in five minutes": "learn.md"},
        {"Glossary": "glossary.md"},
        {"Rules": ["rules/index.md", *({a.title: f"rules/{a.id}.md"} for a in m.areas), {"Seed traceability": traceability.SRC}]},
        {"Cards": "cards.md"},
        {"Options": "options.md"},
        {
            "Rulesets": [
                "rulesets/index.md",
                {"Compared": "rulesets/compare.md"},
                {"Write down your house rules": "house-rules.md"},
                *({rid: f"rulesets/{rid}.md"} for rid in m.ruleset_ids),
            ]
        },
        {
            "Scenarios": [
                "scenarios/index.md",
                {"Scenario format": "scenario-format.md"},
                {"Interactions": "scenarios/interactions.md"},
                *scenario_sections,
            ]
        },
        {
            "Engines": [
                {"Validate your engine in an afternoon": "tutorial.md"},
                {"What your engine declares, and what runs": "declarations.md"},
                {"Adapter kits": "kits.md"},
                {"The corpus as plain JSON": "export.md"},
                {"Protocol reference": "protocol.md"},
                {"Conformance of the reference engine": "conformance.md"},
                {"Compatibility report: real engines": "compatibility.md"},
            ]
        },
    ]


#: the tables of docs/export.md, from the export's schema (`<!-- gostop:export_fields -->` ...)
EXPORT_TABLES = {"export_fields": export.fields_table, "export_checks": export.checks_table, "export_expect": export.expectation_table}
MARKER = re.compile(r"^([ \t]*)<!--\s*gostop:(\w+)\s*([^>]*?)\s*-->[ \t]*$", re.MULTILINE)
LANGUAGES = {".py": "python", ".js": "javascript", ".mjs": "javascript", ".yaml": "yaml", ".sh": "sh"}


def expand_markers(markdown: str, src: str, m: Model, docs_dir: Path) -> str:
    """Hand-written pages may ask for generated snippets: `<!-- gostop:stats -->` (the counts of the
    spec and corpus), `<!-- gostop:include path -->` (a file under docs/, as a code block) and the
    export's tables from its schema (EXPORT_TABLES)."""

    def repl(match: re.Match[str]) -> str:
        pad, what, arg = match.group(1), match.group(2), match.group(3)
        if what == "stats":
            text = pages.home_stats(m, src)
        elif what in EXPORT_TABLES:
            text = EXPORT_TABLES[what]()
        elif what == "include":
            path = (docs_dir / arg).resolve()
            if not path.is_relative_to(docs_dir.resolve()) or not path.is_file():
                raise ValueError(f"{src}: gostop:include {arg!r} is not a file under docs/")
            lang = LANGUAGES.get(path.suffix, "text")
            text = f'```{lang} title="{arg}"\n{path.read_text(encoding="utf-8").rstrip()}\n```'
        else:
            raise ValueError(f"{src}: unknown marker gostop:{what}")
        return "\n".join(pad + line if line else line for line in text.split("\n"))

    return MARKER.sub(repl, markdown)


#: the stepper's assets as the package carries them (repository path), for the replay.html of a
#: run's reproducer folder (conformance/_replay.py): an installed wheel has no docs/ to read them from
STEPPER_ASSETS = "conformance/_stepper_assets.json"


def package_files(m: Model, docs_dir: Path) -> dict[str, str]:
    """Repository path -> content, for the generated files the package carries: the site's stepper
    script and stylesheet (docs/assets/) and the card pictures (docsgen.cards), the same sources
    the site is built from, so that a failure drawn by the harness looks as the site draws a play."""
    cards = {card.id: svg(card, m.deck.month_names) for card in m.cards}
    bundle = {
        "about": "generated by docs/_build/generate.py from docs/assets/gostop.css, docs/assets/gostop.js and "
        "docs/_build/docsgen/cards.py (make docs-generated); do not edit",
        "css": (docs_dir / "assets" / "gostop.css").read_text(encoding="utf-8"),
        "js": (docs_dir / "assets" / "gostop.js").read_text(encoding="utf-8"),
        "cards": cards,
    }
    return {STEPPER_ASSETS: json.dumps(bundle, ensure_ascii=False, indent=1) + "\n"}
