"""The protocol reference is complete and tells the truth.

- spec/vocabulary.yaml holds every closed set of names; the enums of the protocol schema (and of
  the scenario schema) are copies of its sets, in its order, and the schema has no other enum.
- Every definition and every field of the protocol schema has a description.
- Every reply the reference engine sends over the whole corpus, many random rounds of every
  ruleset and the errors outside a game validates against the schema, and every field in it is
  described by the schema: no undocumented field. Every event carries only the fields the
  vocabulary lists for its kind and every settlement those listed for its kind, and every listed
  field, kind, bak and code does occur (the vocabulary describes nothing the engine never says).
- The events of every reply come in the order of spec/vocabulary.yaml (event_order).
"""

from __future__ import annotations

import functools
import io
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import jsonschema
import jsonschema_rs
import orjson
import pytest

from gostop_conformance.harness import ReferenceEngine, load_corpus, run_scenario
from gostop_conformance.reference import JsonEngine, RandomPlayer, SplitMix64, seeded_deal, serve
from gostop_conformance.reference import handle_request as handle
from gostop_conformance.spec import deck, load_ruleset, ruleset_ids
from gostop_conformance.spec._schemas import protocol_schema, schema, vocabulary

Json = dict[str, Any]
SCHEMA = protocol_schema()
DEFS = SCHEMA["$defs"]
VOC = vocabulary()
RANDOM_ROUNDS = 25  # per ruleset, on top of the corpus

#: fields every settlement may carry whatever its kind (awards: only after a first-turn award)
SETTLEMENT_COMMON = frozenset({"kind", "winner", "net", "payments", "clauses", "awards"})


# ------------------------------------------------------------------------------------ closed sets


def schema_enums(node: Any, path: str = "") -> dict[str, list[Any]]:
    """Every enum of a schema, by the JSON path of the subschema that holds it."""
    out: dict[str, list[Any]] = {}
    if isinstance(node, dict):
        if "enum" in node:
            out[path] = node["enum"]
        for key, value in node.items():
            out.update(schema_enums(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.update(schema_enums(value, f"{path}/{i}"))
    return out


def test_the_vocabulary_is_valid() -> None:
    # vocabulary() validates spec/vocabulary.yaml against spec/schemas/vocabulary.schema.json
    assert VOC["schema_version"] == 1
    assert set(VOC["event_order"]) == {"new_game", *VOC["actions"]}, "event_order needs new_game and every action type"
    assert set(VOC["event_order_notes"]) <= set(VOC["event_order"]) | set(VOC["event_fragments"])
    assert not set(VOC["rejections"]) & set(VOC["errors"]), "a code is either a rejection of act or an error"


def test_every_enum_of_the_protocol_schema_is_a_vocabulary_set() -> None:
    expected = {
        "/$defs/action/properties/type": list(VOC["actions"]),
        "/$defs/decision": list(VOC["decisions"]),
        "/$defs/event/properties/kind": list(VOC["events"]),
        "/$defs/error/properties/code": [*VOC["rejections"], *VOC["errors"]],
        "/$defs/settlement_kind": list(VOC["settlements"]),
        "/$defs/bak": list(VOC["baks"]),
        "/$defs/dan": list(VOC["dans"]),
        "/$defs/point_count_set": list(VOC["point_count_sets"]),
        "/$defs/reply_hello/properties/positions": list(VOC["positions"]),
        "/$defs/reply_hello/properties/events": list(VOC["event_reports"]),
        # the commands are the schema's own: each request branch is one (or, here, three without fields)
        "/$defs/request/oneOf/2/properties/cmd": ["legal", "score", "bye"],
    }
    assert schema_enums(SCHEMA) == expected


def test_the_scenario_schema_copies_the_vocabulary_too() -> None:
    expected = {
        "/$defs/action/properties/type": list(VOC["actions"]),
        "/$defs/expectation/properties/decision/properties/kind": list(VOC["decisions"]),
    }
    found = {path: values for path, values in schema_enums(schema("scenario")).items() if path in expected}
    assert found == expected


def test_the_vocabulary_sets_agree_with_the_spec_and_the_engine() -> None:
    classes = {c.ribbon_class for c in deck().cards if c.ribbon_class not in (None, "none")}
    assert set(VOC["dans"]) == classes, "dans are the ribbon classes of spec/deck.yaml"
    assert JsonEngine().hello()["features"] == list(VOC["features"])
    assert {f for sc in load_corpus() for f in sc.requires} <= set(VOC["features"]), "a scenario requires an unknown feature"


def test_every_definition_and_field_of_the_schema_is_described() -> None:
    missing = [f"$defs/{name}" for name, sub in DEFS.items() if not sub.get("description")]
    missing += [f"$defs/request/oneOf/{i}" for i, sub in enumerate(DEFS["request"]["oneOf"]) if not sub.get("description")]

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if not sub.get("description"):
                    missing.append(f"{path}/properties/{name}")
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}/{i}")

    walk(DEFS, "$defs")
    assert not missing, "undescribed: " + ", ".join(missing)


def test_the_event_and_settlement_fields_of_the_vocabulary_are_the_schema_fields() -> None:
    event_fields = {"kind", "clauses"} | {f for e in VOC["events"].values() for f in e["fields"]}
    assert set(DEFS["event"]["properties"]) == event_fields
    settlement_fields = SETTLEMENT_COMMON | {f for s in VOC["settlements"].values() for f in s["fields"]}
    assert set(DEFS["settlement"]["properties"]) == settlement_fields


# ------------------------------------------------------------------------------------ event order

_TOKEN = re.compile(r"\s*(@[a-z_]+|[a-z_]+|[()|?*+])")


def order_regex(name: str) -> re.Pattern[str]:
    """The event_order pattern of a reply as a regular expression over 'kind kind ... ' strings."""

    def expand(pattern: str) -> str:
        return re.sub(r"@([a-z_]+)", lambda m: f"({expand(VOC['event_fragments'][m.group(1)])})", pattern)

    text = expand(VOC["event_order"][name])
    assert "".join(_TOKEN.findall(text)) == text.replace(" ", ""), f"event_order {name}: unreadable pattern {text!r}"
    out = []
    for token in _TOKEN.findall(text):
        if token == "(":
            out.append("(?:")
        elif token in ")|?*+":
            out.append(token)
        else:
            assert token in VOC["events"], f"event_order {name}: {token!r} is not an event kind"
            out.append(f"(?:{token} )")
    return re.compile("".join(out))


def test_event_order_patterns_read() -> None:
    for name in VOC["event_order"]:
        order_regex(name)
    assert order_regex("stop").fullmatch("stop round_end ")
    assert not order_regex("stop").fullmatch("round_end stop ")
    assert order_regex("play").fullmatch("play flip capture steal steal go_stop_offered ")
    assert not order_regex("play").fullmatch("play flip steal capture ")


# ------------------------------------------------------------------------------------ the reference engine's replies


def _sessions() -> Iterator[tuple[str, str | None, Json]]:
    """(command, event_order name, reply) for every reply: the corpus, random rounds of every
    ruleset, and the protocol server's answers outside a game."""
    for sc in load_corpus():
        for cmd, request, reply in run_scenario(ReferenceEngine(), sc).transcript:
            yield cmd, (request.get("type") if cmd == "act" else cmd), {"seq": 0, **reply}
    for rid in ruleset_ids():
        rs = load_ruleset(rid)
        ruleset = {"id": rid, "options": rs.options.as_json()}
        for seed in range(RANDOM_ROUNDS):
            engine = JsonEngine()
            deal = seeded_deal(rs.options, SplitMix64(seed), dealer=seed % rs.options.players).to_json()
            yield "new_game", "new_game", {"seq": 0, **engine.new_game(ruleset, deal)}
            player = RandomPlayer(seed)
            assert engine.round is not None
            while not engine.round.over:
                yield "legal", None, {"seq": 0, **engine.legal()}
                action = player.choose(engine.round).to_json()
                yield "act", action["type"], {"seq": 0, **engine.act(action)}
                yield "score", None, {"seq": 0, **engine.score()}
    yield from _outside_a_game()


def _outside_a_game() -> Iterator[tuple[str, str | None, Json]]:
    rs = load_ruleset("matgo-2p")
    ruleset = {"id": rs.id, "options": rs.options.as_json()}
    deal = seeded_deal(rs.options, SplitMix64(5), dealer=0).to_json()
    engine = JsonEngine()
    requests: list[Json] = [
        {"cmd": "hello", "protocol": "1"},
        {"cmd": "legal"},
        {"cmd": "act", "action": {"type": "go", "player": 0}},
        {"cmd": "score"},
        {"cmd": "perft", "depth": 1},
        {"cmd": "dance"},
        {"cmd": "new_game", "ruleset": {"id": "nope", "options": {}}, "deal": deal},
        {"cmd": "new_game", "ruleset": ruleset, "deal": {**deal, "stock": deal["stock"][1:]}},
        {"cmd": "new_game", "ruleset": ruleset, "deal": deal},
        {"cmd": "perft", "depth": 2},
    ]
    for seq, request in enumerate(requests):
        reply, _ = handle(engine, {"seq": seq, **request})
        yield str(request["cmd"]) if f"reply_{request['cmd']}" in DEFS else "error", None, reply
    assert engine.round is not None
    seat = engine.round.to_act
    card = engine.round.snapshot()["hands"][seat][0]
    # a well-typed action without its card (the request schema lets it through), and a card that is no bonus card
    for action in ({"type": "play", "player": seat}, {"type": "bonus", "player": seat, "card": card}):
        reply, _ = handle(engine, {"seq": 20, "cmd": "act", "action": action})
        yield "act", str(action["type"]), reply
    out = io.BytesIO()
    with mock.patch.object(JsonEngine, "legal", side_effect=RuntimeError("boom")):
        serve(io.BytesIO(b'not json\n{"seq": 1, "cmd": "legal"}\n'), out)
    for line in out.getvalue().splitlines():
        yield "error", None, orjson.loads(line)


def _resolve(node: Json) -> Json:
    while "$ref" in node:
        node = DEFS[node["$ref"].rsplit("/", 1)[1]]
    return node


@functools.cache
def _check(definition: str) -> Callable[[Any], bool]:
    check: Callable[[Any], bool] = jsonschema_rs.Draft202012Validator({"$defs": DEFS, "$ref": f"#/$defs/{definition}"}).is_valid
    return check


_ALT_CHECKS: dict[int, Callable[[Any], bool]] = {}


def _alt_ok(alt: Json, instance: Any) -> bool:
    check = _ALT_CHECKS.get(id(alt))
    if check is None:
        check = _ALT_CHECKS[id(alt)] = jsonschema_rs.Draft202012Validator({"$defs": DEFS, **alt}).is_valid
    return check(instance)


def undocumented(instance: Any, node: Json, path: str, out: set[str]) -> None:
    """Collect the paths of the fields of `instance` that `node` does not describe."""
    node = _resolve(node)
    if "oneOf" in node:
        alt = next((a for a in node["oneOf"] if _alt_ok(a, instance)), None)
        if alt is None:
            out.add(f"{path} (matches no alternative)")
        else:
            undocumented(instance, alt, path, out)
        return
    if isinstance(instance, dict):
        props, extra = node.get("properties", {}), node.get("additionalProperties")
        for key, value in instance.items():
            if key in props:
                undocumented(value, props[key], f"{path}.{key}", out)
            elif isinstance(extra, dict):
                undocumented(value, extra, f"{path}.<{key}>", out)
            else:
                out.add(f"{path}.{key}")
    elif isinstance(instance, list) and isinstance(node.get("items"), dict):
        for value in instance:
            undocumented(value, node["items"], f"{path}[]", out)


class Seen:
    """What the reference engine said, gathered once for the tests below."""

    def __init__(self) -> None:
        self.invalid: list[str] = []
        self.undocumented: set[str] = set()
        self.event_fields: dict[str, set[str]] = defaultdict(set)
        self.wrong_event_fields: set[str] = set()
        self.settlement_fields: dict[str, set[str]] = defaultdict(set)
        self.out_of_order: dict[str, list[str]] = {}
        self.codes: set[str] = set()
        self.baks: set[str] = set()
        self.dans: set[str] = set()
        self.replies = 0

    def add(self, cmd: str, order: str | None, reply: Json) -> None:
        self.replies += 1
        definition = f"reply_{cmd}"
        if not _check(definition)(reply):
            error = jsonschema.exceptions.best_match(
                jsonschema.Draft202012Validator({"$defs": DEFS, "$ref": f"#/$defs/{definition}"}).iter_errors(reply)
            )
            self.invalid.append(f"{definition}: {error.message if error else '?'} in {str(reply)[:300]}")
            return
        undocumented(reply, DEFS[definition], cmd, self.undocumented)
        if "error" in reply:
            self.codes.add(reply["error"]["code"])
        events = reply.get("events")
        if isinstance(events, list) and order is not None:
            kinds = "".join(f"{e['kind']} " for e in events)
            if not order_regex(order).fullmatch(kinds) and order not in self.out_of_order:
                self.out_of_order[order] = [e["kind"] for e in events]
            for e in events:
                fields = set(e) - {"kind", "clauses"}
                self.event_fields[e["kind"]] |= fields
                if not fields <= set(VOC["events"][e["kind"]]["fields"]):
                    self.wrong_event_fields.add(f"{e['kind']}: {sorted(fields - set(VOC['events'][e['kind']]['fields']))}")
        settlement = reply.get("settlement")
        if isinstance(settlement, dict):
            self.settlement_fields[settlement["kind"]] |= set(settlement) - SETTLEMENT_COMMON
            for line in settlement.get("losers", []):
                self.baks.update(line["baks"])
            self.dans.update((settlement.get("winner_breakdown") or {}).get("dans", []))
        for score in reply.get("scores", []):
            self.dans.update(score.get("dans", []))


@pytest.fixture(scope="module")
def seen() -> Seen:
    out = Seen()
    for cmd, order, reply in _sessions():
        out.add(cmd, order, reply)
    assert out.replies > 5000
    return out


def test_every_reply_of_the_reference_engine_validates(seen: Seen) -> None:
    assert not seen.invalid, "\n".join(seen.invalid[:10])


def test_the_reference_engine_emits_no_undocumented_field(seen: Seen) -> None:
    assert not seen.undocumented, "fields the schema does not describe: " + ", ".join(sorted(seen.undocumented))


def test_events_carry_the_fields_the_vocabulary_lists_for_their_kind(seen: Seen) -> None:
    assert not seen.wrong_event_fields, seen.wrong_event_fields
    assert set(seen.event_fields) == set(VOC["events"]), "event kinds never emitted or not in the vocabulary"
    for kind, spec in VOC["events"].items():
        assert seen.event_fields[kind] == set(spec["fields"]), f"{kind}: fields listed but never emitted"


def test_settlements_carry_the_fields_the_vocabulary_lists_for_their_kind(seen: Seen) -> None:
    assert set(seen.settlement_fields) == set(VOC["settlements"])
    for kind, spec in VOC["settlements"].items():
        assert seen.settlement_fields[kind] == set(spec["fields"]), kind


def test_every_code_bak_and_dan_of_the_vocabulary_occurs(seen: Seen) -> None:
    # `internal` is an engine bug by definition: the test makes the engine fail once to see it
    assert seen.codes == set(VOC["rejections"]) | set(VOC["errors"])
    assert seen.baks == set(VOC["baks"])
    assert seen.dans == set(VOC["dans"])


def test_events_come_in_the_order_of_the_vocabulary(seen: Seen) -> None:
    assert not seen.out_of_order, "\n".join(f"{name}: {' '.join(kinds)}" for name, kinds in seen.out_of_order.items())


# ------------------------------------------------------------------------------------ the hello declaration


@pytest.mark.parametrize(
    ("rulesets", "options", "valid"),
    [
        (["matgo-2p"], None, True),
        (
            [{"id": "matgo-2p", "options": {"two_card_bomb": ["off", "capture_only"], "extra_yaku": "unsupported", "jjok_steal": "all"}}],
            None,
            True,
        ),
        (["matgo-2p", {"id": "standard-3p", "options": {}}], {"go_threshold": [3, 7]}, True),
        ([], {"players": [2], "scoring_system": "all"}, True),
        ([{"id": "matgo-2p"}], None, False),  # the object form lists exceptions
        ([{"id": "matgo-2p", "options": {}, "note": "x"}], None, False),
        ([{"id": "matgo-2p", "options": {"jjok_steal": "some"}}], None, False),
        ([], {"jjok_steal": "unsupported"}, False),  # unsupported is an exception of a claimed ruleset only
        ([3], None, False),
    ],
)
def test_the_hello_declaration(rulesets: list[Any], options: Json | None, valid: bool) -> None:
    reply: Json = {"seq": 0, "protocol": "1", "engine": {"name": "e", "version": "1"}, "rulesets": rulesets}
    if options is not None:
        reply["options"] = options
    assert _check("reply_hello")(reply) is valid
