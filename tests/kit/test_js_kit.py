"""The JavaScript kit (kit-js/, issue 40) against the Python side.

- kit-js/spec-data.json is what kit-js/generate.py makes from spec/ now (regenerated in memory), and
  package.json carries the Python package's version: the drift test of the kit's tables
  (ACTION_FIELDS, EVENT_FIELDS, the card table, the options registry).
- The property, as tests/kit/test_derive.py and tests/kit/test_check.py state it for the Python kit:
  over random rounds of every named ruleset (and of the variants that reach the option values no
  named ruleset plays), every `new_game` and `act` reply's events, `clauses` left out, are those the
  JS kit derives from the deal or the states (kit-js/tools/replay.mjs), and every candidate action
  is accepted or refused by the JS kit's checkAction exactly as the reference engine does. Seeded
  deals are kit/_seeded.py's card for card, and the hello builder suggests what difflib suggests.
- The reference engine behind the JS kit (kit-js/examples/reference_proxy.mjs, the reference engine
  as a child process, its events and rejections thrown away) passes every scenario of the corpus.

Skipped, with the reason, where Node.js is not installed.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import random
import re
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Final

import pytest

from gostop_conformance import kit, spec
from gostop_conformance.kit._server import _forced_after
from gostop_conformance.reference import Action, JsonEngine, SplitMix64, seeded_deal
from tests.kit.test_check import _candidates
from tests.kit.test_derive import CONFIGS, STATELESS

Json = dict[str, Any]

REPO: Final = Path(__file__).resolve().parents[2]
KIT_JS: Final = REPO / "kit-js"
NODE: Final = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript kit (kit-js/) cannot run")

#: random rounds per configuration whose events are compared, and per ruleset whose candidate actions are
EVENT_SEEDS: Final = range(8)
STATELESS_SEEDS: Final = range(3)
CHECK_SEEDS: Final = range(2)
#: seeds of the seeded deals: small ones, and the two ends of SplitMix64's state a JS number cannot hold
DEAL_SEEDS: Final = [*range(6), 2**53 + 1, 2**64 - 1, 0x9E3779B97F4A7C15]
#: misspelt option ids for the hello builder's suggestions
TYPOS: Final = ["jjok_stael", "bomb_stela", "player", "go_treshold", "ppeok", "sweep", "dual_role", "xyz", "first_dealr", "meong"]


@cache
def _generator() -> ModuleType:
    """kit-js/generate.py, imported by path: kit-js/ is no package."""
    found = importlib.util.spec_from_file_location("kit_js_generate", KIT_JS / "generate.py")
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


def _strip(events: list[Json]) -> list[Json]:
    return [{k: v for k, v in e.items() if k != "clauses"} for e in events]


# ------------------------------------------------------------------------------------ the generated data


def test_the_committed_spec_data_is_what_the_generator_makes_now() -> None:
    committed = (KIT_JS / "spec-data.json").read_text(encoding="utf-8")
    assert committed == _generator().render(), "kit-js/spec-data.json is stale: run python kit-js/generate.py"


def test_the_tables_are_the_vocabulary_s() -> None:
    data = json.loads((KIT_JS / "spec-data.json").read_text(encoding="utf-8"))
    assert {k: tuple(v) for k, v in data["action_fields"].items()} == kit.ACTION_FIELDS
    assert {k: frozenset(v) for k, v in data["event_fields"].items()} == kit.EVENT_FIELDS
    assert data["rejections"] == list(spec.vocabulary()["rejections"])
    assert data["protocol"] == kit.PROTOCOL
    assert [c["id"] for c in data["cards"]] == [c.id for c in spec.deck().cards]


def test_the_package_is_versioned_with_the_python_package() -> None:
    package = json.loads((KIT_JS / "package.json").read_text(encoding="utf-8"))
    version = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert package["version"] == version, "run python kit-js/generate.py"
    assert package["name"] == "@gostop-conformance/kit" and package["type"] == "module"
    assert not package.get("dependencies") and package["engines"] == {"node": ">=18"}
    assert package["scripts"]["test"] == "node --test"
    assert (KIT_JS / package["types"]).is_file() and (KIT_JS / package["exports"]["."]["default"]).is_file()


def _union(name: str) -> list[str]:
    """The names of a union of string literals in kit-js/index.d.ts."""
    found = re.search(rf"export type {name} =([^;]+);", (KIT_JS / "index.d.ts").read_text(encoding="utf-8"))
    assert found is not None, name
    return re.findall(r'"([^"]+)"', found.group(1))


def _fields(interface: str) -> set[str]:
    """The field names of an interface of kit-js/index.d.ts."""
    found = re.search(rf"export interface {interface} \{{\n(.*?)\n\}}", (KIT_JS / "index.d.ts").read_text(encoding="utf-8"), re.DOTALL)
    assert found is not None, interface
    return set(re.findall(r"^  (\w+)\??:", found.group(1), re.MULTILINE))


def test_the_type_declarations_name_the_vocabulary_s_sets_and_the_schema_s_fields() -> None:
    """kit-js/index.d.ts is written by hand: its closed sets are spec/vocabulary.yaml's, its
    interfaces' fields the protocol schema's."""
    vocabulary = spec.vocabulary()
    for union, names in [
        ("Decision", vocabulary["decisions"]),
        ("ActionType", vocabulary["actions"]),
        ("EventKind", vocabulary["events"]),
        ("RejectionCode", vocabulary["rejections"]),
        ("ErrorCode", vocabulary["errors"]),
        ("Feature", vocabulary["features"]),
        ("Positions", vocabulary["positions"]),
        ("EventReports", vocabulary["event_reports"]),
        ("SettlementKind", vocabulary["settlements"]),
        ("CardKind", dict.fromkeys(c.kind for c in spec.deck().cards)),
    ]:
        assert sorted(_union(union)) == sorted(names), union
    defs = spec.protocol_schema()["$defs"]
    for interface, definition in [
        ("Action", "action"),
        ("PlayerState", "player_state"),
        ("State", "state"),
        ("Event", "event"),
        ("Score", "score"),
        ("Settlement", "settlement"),
        ("NextRound", "next_round"),
    ]:
        assert _fields(interface) == set(defs[definition]["properties"]), interface
    assert _fields("StackState") == set(defs["state"]["properties"]["stacks"]["items"]["properties"])


@needs_node
def test_the_js_kit_exports_the_python_kit_s_tables() -> None:
    """What the JS kit hands out (not only what it reads) is the Python kit's."""
    assert NODE is not None
    script = (
        "const k = await import(process.argv[1]);"
        "console.log(JSON.stringify({a: k.ACTION_FIELDS, e: k.EVENT_FIELDS, p: k.PROTOCOL, d: k.deckIds([2, 2, 3])}))"
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script, (KIT_JS / "index.js").as_uri()], capture_output=True, text=True, timeout=60, check=True
    )
    found = json.loads(done.stdout)
    assert {k: tuple(v) for k, v in found["a"].items()} == kit.ACTION_FIELDS
    assert {k: frozenset(v) for k, v in found["e"].items()} == kit.EVENT_FIELDS
    assert found["p"] == kit.PROTOCOL and tuple(found["d"]) == kit.deck_ids((2, 2, 3))


# ------------------------------------------------------------------------------------ the property


def _options_record(key: str, options: Mapping[str, Any]) -> Json:
    return {"type": "options", "key": key, "options": dict(options)}


def _event_records(seeds: range = EVENT_SEEDS, stateless_seeds: range = STATELESS_SEEDS) -> Iterator[Json]:
    """Random rounds of every configuration (tests/kit/test_derive.py), each new_game and act with the
    reference engine's events; the stateless rulesets again without the earlier acts."""
    for name, rid, overrides in CONFIGS:
        rs = spec.load_ruleset(rid)
        rs = rs.with_overrides(dict(overrides), "test") if overrides else rs
        options = rs.options.as_json()
        yield _options_record(name, options)
        stateless = name in STATELESS and not overrides
        for seed, without_earlier in [*((s, False) for s in seeds), *((s, True) for s in (stateless_seeds if stateless else ()))]:
            engine = JsonEngine()
            deal = seeded_deal(rs.options, SplitMix64(seed), dealer=seed % rs.options.players).to_json()
            reply = engine.new_game({"id": rid, "options": options}, deal)
            where = f"{name} seed {seed}" + (" without the earlier acts" if without_earlier else "")
            settlement = engine.score()["settlement"]
            yield {
                "type": "deal",
                "where": f"{where}: new_game",
                "options": name,
                "deal": deal,
                "state": reply["state"],
                "settlement": settlement,
                "events": _strip(reply["events"]),
            }
            rng = random.Random(seed)
            before = reply["state"]
            step = 0
            while before["decision"] != "none":
                action = rng.choice(engine.legal()["actions"])
                reply = engine.act(action)
                score = engine.score()
                yield {
                    "type": "act",
                    "where": f"{where}, act {step}: {json.dumps(action)}",
                    "options": name,
                    "before": before,
                    "after": reply["state"],
                    "action": action,
                    "scores": score["scores"],
                    "settlement": score["settlement"],
                    "legal": engine.legal()["actions"],
                    "stateless": without_earlier,
                    "events": _strip(reply["events"]),
                }
                before, step = reply["state"], step + 1


def _check_records(seeds: range = CHECK_SEEDS) -> Iterator[Json]:
    """Random rounds of every named ruleset; per state, every candidate action (tests/kit/test_check.py)
    with the reference engine's own check of it (Round.check)."""
    for rid in spec.ruleset_ids():
        options = spec.load_ruleset(rid).options.as_json()
        yield _options_record(f"check {rid}", options)
        for seed in seeds:
            rng = random.Random(seed)
            engine = JsonEngine()
            reply = engine.new_game({"id": rid, "options": options}, {"seed": seed, "dealer": seed % options["players"]})
            state, forced, step = reply["state"], None, 0
            while True:
                legal = engine.legal()
                rnd = engine.round
                assert rnd is not None
                candidates = []
                for raw in _candidates(state, legal, rng):
                    rejection = rnd.check(Action.from_json(raw))
                    candidates.append([raw, None if rejection is None else rejection.to_json()["code"]])
                yield {
                    "type": "check",
                    "where": f"{rid} seed {seed} step {step}",
                    "options": f"check {rid}",
                    "state": state,
                    "legal": legal,
                    "forced": forced,
                    "candidates": candidates,
                }
                if state["decision"] == "none":
                    break
                chosen = rng.choice(legal["actions"])
                after = engine.act(chosen)["state"]
                forced = _forced_after(chosen, state, after, options)  # the bonus replacement the server tracks
                state, step = after, step + 1


def _seeded_records() -> Iterator[Json]:
    """Seeded deals of every named ruleset, dealer drawn or given, as kit/_seeded.py spells them out."""
    for rid in spec.ruleset_ids():
        options = spec.load_ruleset(rid).options.as_json()
        yield _options_record(f"seeded {rid}", options)
        rules = kit.Ruleset(rid, options)
        for seed in DEAL_SEEDS:
            for dealer in (None, seed % rules.players):
                raw: Json = {"seed": seed} if dealer is None else {"seed": seed, "dealer": dealer}
                ours = kit.Deal.from_json(raw, rules).explicit(rules)
                expected = {
                    "dealer": ours.dealer,
                    "hands": [list(h) for h in ours.hands],
                    "table": list(ours.table),
                    "stock": list(ours.stock),
                }
                yield {"type": "seeded", "where": f"{rid} {json.dumps(raw)}", "options": f"seeded {rid}", "raw": raw, "expected": expected}


def _close_records() -> Iterator[Json]:
    registry = list(spec.option_registry())
    for word in TYPOS:
        yield {"type": "close", "where": word, "word": word, "expected": difflib.get_close_matches(word, registry, n=3)}


def _replay(records: Iterable[Json]) -> tuple[Counter[str], list[Json]]:
    """The records replayed by the JS kit in one node process: the counts per record type (and of
    candidate actions), and the mismatches it reports."""
    assert NODE is not None
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    done = subprocess.run(
        [NODE, str(KIT_JS / "tools" / "replay.mjs")], input=text, capture_output=True, text=True, timeout=1200, check=False
    )
    assert done.returncode == 0, done.stderr[-4000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    summary = lines[-1]
    assert "summary" in summary, done.stdout[-4000:]
    return Counter(summary["summary"]), lines[:-1]


@pytest.fixture(scope="module")
def replayed() -> tuple[Counter[str], list[Json]]:
    if NODE is None:
        pytest.skip("node is not installed: the JavaScript kit (kit-js/) cannot run")
    return _replay([*_event_records(), *_check_records(), *_seeded_records(), *_close_records()])


def _none_of(kinds: set[str], mismatches: list[Json]) -> None:
    found = [m for m in mismatches if m["type"] in kinds]
    shown = "\n".join(f"{m['where']}\n  reference: {json.dumps(m['expected'])}\n  JS kit:    {json.dumps(m['got'])}" for m in found[:5])
    assert not found, f"{len(found)} shown of the JS kit's mismatches:\n{shown}"


@needs_node
def test_the_js_kit_derives_the_reference_engine_s_events(replayed: tuple[Counter[str], list[Json]]) -> None:
    counts, mismatches = replayed
    _none_of({"deal", "act"}, mismatches)
    assert counts["deal"] >= len(CONFIGS) * len(EVENT_SEEDS) and counts["act"] > 2000, counts


@needs_node
def test_the_js_kit_refuses_as_the_reference_engine_does(replayed: tuple[Counter[str], list[Json]]) -> None:
    counts, mismatches = replayed
    _none_of({"check"}, mismatches)
    assert counts["candidate"] > 20000, counts


@needs_node
def test_the_js_kit_deals_a_seed_as_the_python_kit(replayed: tuple[Counter[str], list[Json]]) -> None:
    counts, mismatches = replayed
    _none_of({"seeded"}, mismatches)
    assert counts["seeded"] == len(spec.ruleset_ids()) * len(DEAL_SEEDS) * 2, counts


@needs_node
def test_the_hello_builder_suggests_what_difflib_suggests(replayed: tuple[Counter[str], list[Json]]) -> None:
    counts, mismatches = replayed
    _none_of({"close"}, mismatches)
    assert counts["close"] == len(TYPOS)


@pytest.mark.slow
@needs_node
def test_the_js_kit_agrees_over_many_rounds() -> None:
    """The same property over many more rounds (make test-slow)."""
    counts, mismatches = _replay([*_event_records(range(8, 60), range(3, 20)), *_check_records(range(2, 12))])
    _none_of({"deal", "act", "check"}, mismatches)
    print(f"JS kit: {dict(counts)} compared")
    assert counts["act"] > 20000 and counts["candidate"] > 100000, counts


# ------------------------------------------------------------------------------------ the corpus


@needs_node
def test_the_reference_engine_behind_the_js_kit_passes_every_scenario() -> None:
    """As tests/kit/test_corpus.py for the Python kit: every rejection from checkAction, every event
    from deriveEvents, the engine a child process behind Promises."""
    cli = Path(sys.executable).with_name("gostop-conformance")
    reference = Path(sys.executable).with_name("gostop-reference")
    engine = f"{NODE} {KIT_JS / 'examples' / 'reference_proxy.mjs'} {reference}"
    done = subprocess.run(
        [str(cli), "run", "--engine", engine, "--no-reports", "-q"], capture_output=True, text=True, timeout=600, check=False
    )
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    found = re.fullmatch(r"(\d+) passed, 0 failed \((\d+) of (\d+) checked\)", summary)
    assert found is not None, summary
    passed, checked, total = map(int, found.groups())
    assert passed == checked == total > 1000, summary
