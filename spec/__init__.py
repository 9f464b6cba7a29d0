"""The Go-Stop specification: the data (deck, deal layouts, options, rulesets, rules prose with
clause ids, vocabulary, JSON Schemas, the engine protocol) and its model, the one layer that the
reference engine, the harness and the docs all read it through.

Public API (everything else is private):

- `deck()`, `Card`, `Deck`, `card_ids_with_role(role)`, the kinds `BRIGHT` ... `BONUS`, `NO_MONTH`:
  the cards of spec/deck.yaml (R-CARD-IDS).
- `load_ruleset(id)`, `ruleset_ids()`, `Ruleset`, `Options`, `OptionSpec`, `OptionValue`,
  `option_registry()`, `deal_layouts()`, `ruleset_from_json(raw)`, `show_value(value)`: options and
  named rulesets; `OptionSpec.plain(value)`: a value in plain words; `source_ids()`: the sources
  a ruleset may cite; `Toggle`, `toggle_registry()`, `expand_toggles(raw, where)`: the convenience
  toggles that set several options at once.
- `load_ruleset_file(path)`, `RulesetFile`, `is_ruleset_path(parent)`, `named_chain(id)`,
  `closest_named(values)`: a ruleset file outside the package (house rules of one's own), which
  inherits from a named ruleset or another file.
- `clauses()`, `Clause`: the rule clauses of spec/rules/.
- `traceability()`, `load_traceability(path)`, `Traceability`, `TraceStatement`, `TraceLink`,
  `SeedRecord`, `TRACE_STATUSES`, `traceability_problems(table)`, `seed_files(dir)`,
  `quote_problems(table, files)`, `uncovered_seeds(table)`: every seed statement and the clause or
  option value that implements it (spec/traceability.yaml).
- `glossary()`, `Glossary`, `GlossaryTerm`: the Korean terms of spec/glossary.yaml (hangul,
  romanisation, English, the clauses that specify each).
- `vocabulary()`, `protocol_schema()`, `protocol_check(name)`, `protocol_validator(name)`,
  `schema(name)`, `validate(located, name)`, `load_spec_file(path, name)`, `spec_dir()`: the spec
  files and their schemas.
- `load_yaml(path)`, `load_yaml_text(text, path)`, `Located`, `format_path(path)`, `InputError`:
  YAML that knows where each value came from, and the one error for every bad input;
  `parse_json(text)`, `json_deeper_than(text)`, `MAX_JSON_DEPTH`: JSON text from outside, refused
  (ValueError) when it nests past what any message or report holds.
- `EXIT_OK`, `EXIT_FAIL`, `EXIT_USAGE`, `run_guarded(main, argv)`: what the command lines share.
- `reset_caches()`, `memo(container)`: forget every memoised value (an edited spec file is read
  again); a module's dict or list cache registers itself with `memo`.
- `Decision`, `ActionType`, `EventKind`, `Outcome`, `Bak`, `RejectionCode`, `ErrorCode`: the
  vocabulary's closed sets as `Literal` types; each option's symbolic values are the `Literal`
  type of its `Options` field.

The layers import one way: spec, then reference_impl, then conformance, then the docs
(tests/test_layers.py). The names are imported on first use (PEP 562), so that importing the
package (to find its data through importlib.resources) loads nothing.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from gostop_conformance.spec._caches import memo, reset_caches
    from gostop_conformance.spec._cards import (
        ANIMAL,
        BONUS,
        BRIGHT,
        DOUBLE_JUNK,
        JUNK,
        NO_MONTH,
        RIBBON,
        Card,
        Deck,
        card_ids_with_role,
        deck,
    )
    from gostop_conformance.spec._clauses import Clause, clauses
    from gostop_conformance.spec._commands import EXIT_FAIL, EXIT_OK, EXIT_USAGE, run_guarded
    from gostop_conformance.spec._glossary import Glossary, GlossaryTerm, glossary
    from gostop_conformance.spec._jsontext import MAX_JSON_DEPTH, json_deeper_than, parse_json
    from gostop_conformance.spec._names import ActionType, Bak, Decision, ErrorCode, EventKind, Outcome, RejectionCode
    from gostop_conformance.spec._rulesetfile import RulesetFile, closest_named, is_ruleset_path, load_ruleset_file, named_chain
    from gostop_conformance.spec._rulesets import (
        Options,
        OptionSpec,
        OptionValue,
        Ruleset,
        Toggle,
        deal_layouts,
        expand_toggles,
        load_ruleset,
        option_registry,
        ruleset_from_json,
        ruleset_ids,
        show_value,
        source_ids,
        toggle_registry,
    )
    from gostop_conformance.spec._schemas import (
        load_spec_file,
        protocol_check,
        protocol_schema,
        protocol_validator,
        schema,
        spec_dir,
        validate,
        vocabulary,
    )
    from gostop_conformance.spec._traceability import (
        TRACE_STATUSES,
        SeedRecord,
        Traceability,
        TraceLink,
        TraceStatement,
        load_traceability,
        quote_problems,
        seed_files,
        traceability,
        traceability_problems,
        uncovered_seeds,
    )
    from gostop_conformance.spec._words import counted
    from gostop_conformance.spec._yamlio import InputError, Located, format_path, load_yaml, load_yaml_text

_HOME: Final = {
    "memo": "_caches",
    "reset_caches": "_caches",
    "ActionType": "_names",
    "Bak": "_names",
    "Decision": "_names",
    "ErrorCode": "_names",
    "EventKind": "_names",
    "Outcome": "_names",
    "RejectionCode": "_names",
    "ANIMAL": "_cards",
    "BONUS": "_cards",
    "BRIGHT": "_cards",
    "DOUBLE_JUNK": "_cards",
    "JUNK": "_cards",
    "NO_MONTH": "_cards",
    "RIBBON": "_cards",
    "Card": "_cards",
    "Deck": "_cards",
    "card_ids_with_role": "_cards",
    "deck": "_cards",
    "Clause": "_clauses",
    "clauses": "_clauses",
    "Glossary": "_glossary",
    "GlossaryTerm": "_glossary",
    "glossary": "_glossary",
    "EXIT_FAIL": "_commands",
    "EXIT_OK": "_commands",
    "EXIT_USAGE": "_commands",
    "run_guarded": "_commands",
    "MAX_JSON_DEPTH": "_jsontext",
    "json_deeper_than": "_jsontext",
    "parse_json": "_jsontext",
    "Options": "_rulesets",
    "OptionSpec": "_rulesets",
    "OptionValue": "_rulesets",
    "Ruleset": "_rulesets",
    "deal_layouts": "_rulesets",
    "load_ruleset": "_rulesets",
    "option_registry": "_rulesets",
    "ruleset_from_json": "_rulesets",
    "ruleset_ids": "_rulesets",
    "show_value": "_rulesets",
    "source_ids": "_rulesets",
    "RulesetFile": "_rulesetfile",
    "closest_named": "_rulesetfile",
    "is_ruleset_path": "_rulesetfile",
    "load_ruleset_file": "_rulesetfile",
    "named_chain": "_rulesetfile",
    "Toggle": "_rulesets",
    "expand_toggles": "_rulesets",
    "toggle_registry": "_rulesets",
    "load_spec_file": "_schemas",
    "protocol_check": "_schemas",
    "protocol_schema": "_schemas",
    "protocol_validator": "_schemas",
    "schema": "_schemas",
    "spec_dir": "_schemas",
    "validate": "_schemas",
    "vocabulary": "_schemas",
    "SeedRecord": "_traceability",
    "TRACE_STATUSES": "_traceability",
    "TraceLink": "_traceability",
    "TraceStatement": "_traceability",
    "Traceability": "_traceability",
    "load_traceability": "_traceability",
    "quote_problems": "_traceability",
    "seed_files": "_traceability",
    "traceability": "_traceability",
    "traceability_problems": "_traceability",
    "uncovered_seeds": "_traceability",
    "InputError": "_yamlio",
    "Located": "_yamlio",
    "format_path": "_yamlio",
    "load_yaml": "_yamlio",
    "load_yaml_text": "_yamlio",
    "counted": "_words",
}

__all__ = [
    "ANIMAL",
    "BONUS",
    "BRIGHT",
    "DOUBLE_JUNK",
    "EXIT_FAIL",
    "EXIT_OK",
    "EXIT_USAGE",
    "JUNK",
    "MAX_JSON_DEPTH",
    "NO_MONTH",
    "RIBBON",
    "TRACE_STATUSES",
    "ActionType",
    "Bak",
    "Card",
    "Clause",
    "Decision",
    "Deck",
    "ErrorCode",
    "EventKind",
    "Glossary",
    "GlossaryTerm",
    "InputError",
    "Located",
    "OptionSpec",
    "OptionValue",
    "Options",
    "Outcome",
    "RejectionCode",
    "Ruleset",
    "RulesetFile",
    "SeedRecord",
    "Toggle",
    "TraceLink",
    "TraceStatement",
    "Traceability",
    "card_ids_with_role",
    "clauses",
    "closest_named",
    "counted",
    "deal_layouts",
    "deck",
    "expand_toggles",
    "format_path",
    "glossary",
    "is_ruleset_path",
    "json_deeper_than",
    "load_ruleset",
    "load_ruleset_file",
    "load_spec_file",
    "load_traceability",
    "load_yaml",
    "load_yaml_text",
    "memo",
    "named_chain",
    "option_registry",
    "parse_json",
    "protocol_check",
    "protocol_schema",
    "protocol_validator",
    "quote_problems",
    "reset_caches",
    "ruleset_from_json",
    "ruleset_ids",
    "run_guarded",
    "schema",
    "seed_files",
    "show_value",
    "source_ids",
    "spec_dir",
    "toggle_registry",
    "traceability",
    "traceability_problems",
    "uncovered_seeds",
    "validate",
    "vocabulary",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
