"""The corpus as plain JSON (issue 43): every scenario's protocol requests, exactly as the harness
sends them (deals completed, rulesets resolved: the harness's own step compiler,
conformance._steps, writes them), each with the check of its reply as data, what the scenario
requires of an engine, and the tables of card equivalence the checks compare by. A test runner in
any language loads it, as JSON-Schema-Test-Suite's are loaded, and needs neither Python nor YAML;
docs/export.md states the matching rules, spec/schemas/export.schema.json the format.

The text is canonical (sorted keys, fixed separators, UTF-8, one scenario a line so that two
releases diff scenario by scenario): the same corpus gives the same bytes on every machine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from gostop_conformance.harness._compare import CARD_CLASSES, pile_class
from gostop_conformance.harness._dependencies import Dependencies, stored_or_derived
from gostop_conformance.harness._dependencies import load as load_dependencies
from gostop_conformance.harness._scenarios import Scenario, corpus_digest, default_root, load_corpus
from gostop_conformance.harness._stdio import hello_request
from gostop_conformance.harness._steps import Step, compile_scenario
from gostop_conformance.reference import PROTOCOL_VERSION, deck_indices, engine_version
from gostop_conformance.spec import Options, deck

Json = dict[str, Any]

#: what the document is, and the version of its format (raised when a reader must change)
FORMAT: Final = "gostop-conformance corpus export"
FORMAT_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class Export:
    """The export of one corpus: its canonical text, and what the text holds."""

    text: str
    scenarios: int
    corpus_digest: str


def export_corpus(root: Path | None = None) -> Export:
    """The corpus at `root` (default: the bundled one) as the export's canonical JSON text."""
    root = root or default_root()
    corpus = load_corpus(root)
    digest = corpus_digest(root)
    return Export(_text(_document(corpus, digest, load_dependencies(root))), len(corpus), digest)


def _document(corpus: Sequence[Scenario], digest: str, stored: Mapping[str, Dependencies]) -> Json:
    decks: dict[str, list[str]] = {}
    piles: dict[str, dict[str, str]] = {}
    scenarios = []
    for sc in corpus:
        deck_name = _deck_name(sc.rules)
        if deck_name not in decks:
            decks[deck_name] = sorted(deck().cards[i].id for i in deck_indices(sc.rules))
        piles_name = _piles_name(sc.rules)
        if piles_name not in piles:
            piles[piles_name] = {card.id: str(pile_class(card.id, sc.rules)) for card in deck().cards}
        scenarios.append(_scenario(sc, stored_or_derived(sc, stored), deck_name, piles_name))
    return {
        "header": {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "suite_version": engine_version(),
            "protocol": PROTOCOL_VERSION,
            "corpus_digest": digest,
            "scenario_count": len(scenarios),
            "hello": {"cmd": "hello", **hello_request()},
        },
        "card_classes": dict(CARD_CLASSES),
        "decks": decks,
        "pile_classes": piles,
        "scenarios": scenarios,
    }


def _deck_name(rules: Options) -> str:
    """A deck by what it holds: `48`, or `48+bonus-2a+bonus-3` (R-BONUS-DECK)."""
    bonus = [deck().cards[i].id for i in deck_indices(rules) if deck().cards[i].is_bonus]
    return "+".join(["48", *bonus])


def _piles_name(rules: Options) -> str:
    """The options that decide how captured cards compare (pile_class), as a name."""
    palssari = ",palssari" if "palssari" in rules.extra_yaku else ""
    return f"{rules.scoring_system},dec_ribbon={rules.dec_ribbon}{palssari}"


def _scenario(sc: Scenario, deps: Dependencies, deck_name: str, piles_name: str) -> Json:
    return {
        "id": sc.id,
        "title": sc.title,
        "area": sc.area,
        "file": sc.file,
        "line": sc.line,
        "clauses": list(sc.clauses),
        "polarity": sc.polarity,
        "ambiguities": list(sc.ambiguities),
        "tags": list(sc.tags),
        "ruleset": sc.ruleset_json(),
        "overrides": dict(sc.options),
        "requires": {
            "features": list(sc.requires),
            "events": sc.event_log,
            "constructed": deps.constructed,
            "options": {name: list(values) for name, values in deps.passes.items()},
        },
        "event_log": sc.event_log,
        "exact_cards": sc.exact_cards,
        "deck": deck_name,
        "pile_classes": piles_name,
        "rounds": [[_item(step) for step in compiled.steps] for compiled in compile_scenario(sc)],
        "match": sc.match,
    }


def _item(step: Step) -> Json:
    out: Json = {"group": step.group, **step.spec}
    if step.cmd is not None:
        out["request"] = {"cmd": step.cmd, **step.payload}
    return out


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _text(document: Json) -> str:
    """The document as one JSON text: sorted keys, no blanks, each scenario on a line of its own."""
    assert max(document) == "scenarios"  # written last, as sorted keys put it
    head = ",".join(f"{_dump(key)}:{_dump(document[key])}" for key in sorted(document) if key != "scenarios")
    rows = ",\n".join(_dump(sc) for sc in document["scenarios"])
    return "{" + head + ',"scenarios":[\n' + rows + "\n]}\n"
