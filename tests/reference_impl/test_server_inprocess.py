"""The protocol server (`gostop-reference --stdio`) and the JSON engine behind it, driven in process.

tests/reference_impl/test_server.py talks to a real subprocess; these tests call `serve` on byte
streams and `JsonEngine` directly, so that a mutation tool, which only sees code run in the pytest
process, can tell whether the server's code is tested. Every reply is checked against the protocol
schema, and the deals are explicit and small, so that what each reply must say follows from the rules.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from typing import Any, Final

import jsonschema
import orjson
import pytest

from gostop_conformance.reference import _server as server
from gostop_conformance.reference import complete_deal
from gostop_conformance.reference._build import engine_version
from gostop_conformance.reference._jsonapi import PROTOCOL_VERSION, JsonEngine
from gostop_conformance.spec import load_ruleset, option_registry, protocol_schema, ruleset_ids, vocabulary
from tests.conftest import BUILD, needs_interpreted

Json = dict[str, Any]
DEFS = protocol_schema()["$defs"]
RS = load_ruleset("matgo-2p")
RULESET: Json = {"id": RS.id, "options": RS.options.as_json()}
#: P0 holds the pine bright and the only pine on the table is a junk: playing the bright must take it;
#: the flip (m03-junk-1) matches nothing on the table. The iris and peony cards match nothing either.
DEAL: Json = complete_deal(
    RS.options,
    [["m01-bright", "m05-junk-1"], ["m02-junk-1", "m06-junk-1"]],
    ["m01-junk-1"],
    ["m03-junk-1", "m01-ribbon"],
    first_player=0,
).to_json()
#: one card each: the round ends after two plays, no one having scored (R-ROUND-END)
SHORT_DEAL: Json = complete_deal(
    RS.options, [["m01-bright"], ["m02-junk-1"]], ["m01-junk-1"], ["m03-junk-1", "m04-junk-1"], first_player=0
).to_json()


def valid_reply(kind: str, reply: Json) -> None:
    """`kind`: a command (its reply definition is reply_<command>) or error."""
    jsonschema.Draft202012Validator({"$defs": DEFS, "$ref": f"#/$defs/reply_{kind}"}).validate(reply)


def line(request: Json | bytes) -> bytes:
    return request if isinstance(request, bytes) else orjson.dumps(request) + b"\n"


def converse(requests: Sequence[Json | bytes]) -> list[Json]:
    """Serve the requests (dicts, or raw lines as bytes) in process; the parsed replies, each checked
    to be one compact line valid against the reply schema of its command (or the error reply)."""
    out = io.BytesIO()
    assert server.serve(io.BytesIO(b"".join(line(r) for r in requests)), out) == 0
    raw = out.getvalue()
    assert raw == b"" or raw.endswith(b"\n")
    replies = [orjson.loads(text) for text in raw.splitlines()]
    for text, reply in zip(raw.splitlines(), replies, strict=True):
        assert text == orjson.dumps(reply)  # compact: exactly what orjson writes
    answered = [r for r in requests if isinstance(r, dict)]
    for reply in replies:
        request = next((r for r in answered if r.get("seq") == reply["seq"]), None)
        valid_reply("error" if "error" in reply or request is None else request["cmd"], reply)
    return replies


def new_game(seq: int, deal: Json = DEAL) -> Json:
    return {"seq": seq, "cmd": "new_game", "ruleset": RULESET, "deal": deal}


def play(seq: int, player: int, card: str) -> Json:
    return {"seq": seq, "cmd": "act", "action": {"type": "play", "player": player, "card": card}}


def test_a_session_answers_every_command_with_what_the_rules_determine() -> None:
    requests: list[Json | bytes] = [
        {"seq": 1, "cmd": "hello", "protocol": "1"},
        new_game(2),
        {"seq": 3, "cmd": "legal"},
        {"seq": 4, "cmd": "perft", "depth": 2},
        b"   \n",  # a blank line is no request: ignored, not answered
        play(5, 0, "m01-bright"),
        play(6, 0, "m05-junk-1"),  # P1 is to act now
        {"seq": 7, "cmd": "legal"},
        {"seq": 8, "cmd": "score"},
    ]
    replies = converse(requests)
    assert [r["seq"] for r in replies] == [1, 2, 3, 4, 5, 6, 7, 8]
    hello, started, legal, perft, played, refused, legal_after, score = replies
    assert hello["protocol"] == PROTOCOL_VERSION and hello["engine"]["name"] == "gostop-reference"
    assert started["state"]["hands"] == [["m01-bright", "m05-junk-1"], ["m02-junk-1", "m06-junk-1"]]
    assert started["state"]["table"] == ["m01-junk-1"] and started["state"]["to_act"] == 0
    assert [e["kind"] for e in started["events"]] == ["deal"]
    assert legal == {
        "seq": 3,
        "player": 0,
        "decision": "turn",
        "actions": [{"type": "play", "player": 0, "card": "m01-bright"}, {"type": "play", "player": 0, "card": "m05-junk-1"}],
    }
    # two plays for P0, then two for P1 after either (no flip matches anything: no choice, no end)
    assert [p["nodes"] for p in perft["plies"]] == [2, 4]
    # R-MATCH: the bright takes the one pine junk; the flipped cherry junk stays on the table
    assert [(e["kind"], e["cards"]) for e in played["events"]] == [
        ("play", ["m01-bright"]),
        ("flip", ["m03-junk-1"]),
        ("capture", ["m01-bright", "m01-junk-1"]),
    ]
    assert played["state"]["captured"] == [["m01-bright", "m01-junk-1"], []]
    assert played["state"]["table"] == ["m03-junk-1"] and played["state"]["to_act"] == 1
    # R-TURN: P0 playing out of turn is refused with the vocabulary's code, and changes nothing
    assert refused["error"]["code"] == "not_your_turn" and "not_your_turn" in vocabulary()["rejections"]
    assert refused["error"]["message"] == "seat 1 is to act, not seat 0"
    assert legal_after["player"] == 1 and [a["card"] for a in legal_after["actions"]] == ["m02-junk-1", "m06-junk-1"]
    assert score["settlement"] is None and "next" not in score
    assert (score["scores"][0]["brights"], score["scores"][0]["junk_cards"]) == (1, 1)
    assert (score["scores"][1]["brights"], score["scores"][1]["junk_cards"]) == (0, 0)


def test_a_finished_round_has_no_player_to_act_a_settlement_and_refuses_actions() -> None:
    replies = converse(
        [
            new_game(1, SHORT_DEAL),
            play(2, 0, "m01-bright"),
            play(3, 1, "m02-junk-1"),
            {"seq": 4, "cmd": "legal"},
            {"seq": 5, "cmd": "score"},
            play(6, 0, "m03-junk-1"),
        ]
    )
    assert replies[2]["state"]["decision"] == "none" and replies[2]["state"]["to_act"] is None
    assert replies[3] == {"seq": 4, "player": None, "decision": "none", "actions": []}
    score = replies[4]
    assert score["settlement"]["kind"] == "nagari" and score["settlement"]["net"] == [0, 0]  # nobody reached the threshold
    assert score["next"]["nagari_streak"] == 1
    assert replies[5]["error"]["code"] == "round_over"


def test_bad_requests_are_answered_with_bad_request_naming_the_place_and_the_server_keeps_serving() -> None:
    replies = converse(
        [
            b"{bad\n",
            b"[1, 2]\n",
            {"seq": 1, "cmd": "dance"},
            {"cmd": "legal"},
            {"seq": "x", "cmd": "legal"},
            {"seq": 2, "cmd": "act", "action": {"type": "play", "player": "0"}},
            {"seq": 3, "cmd": "new_game", "ruleset": RULESET, "deal": {**DEAL, "hands": [["m01-bright", 5], []]}},
            {"seq": 4, "cmd": "perft", "depth": 0},
            {"seq": 5, "cmd": "hello"},
            {"seq": 6, "cmd": "hello", "protocol": "1"},
        ]
    )
    errors = [(r["seq"], r.get("error", {}).get("code"), r.get("error", {}).get("message")) for r in replies]
    assert errors == [
        (None, "bad_request", "invalid JSON at column 2: unexpected character, expected a string key"),
        (None, "bad_request", "a request must be a JSON object, got an array"),
        (1, "bad_request", "cmd: expected one of hello, new_game, legal, score, bye, act, perft, got 'dance'"),
        (None, "bad_request", "(message): 'seq' is a required property"),
        (None, "bad_request", "seq: 'x' is not of type 'integer'"),
        (2, "bad_request", "action.player: '0' is not of type 'integer'"),
        (3, "bad_request", "deal.hands[0][1]: 5 is not of type 'string'"),
        (4, "bad_request", "depth: 0 is less than the minimum of 1"),
        (5, "bad_request", "(message): 'protocol' is a required property"),
        (6, None, None),
    ]


def test_a_request_of_each_command_is_accepted_by_its_own_schema_branch() -> None:
    """check_request tells the commands apart before validating: each one against its own branch."""
    good: list[Json] = [
        {"seq": 1, "cmd": "hello", "protocol": "1"},
        new_game(2),
        {"seq": 3, "cmd": "legal"},
        {"seq": 4, "cmd": "score"},
        {"seq": 5, "cmd": "bye"},
        play(6, 0, "m01-bright"),
        {"seq": 7, "cmd": "perft", "depth": 1},
    ]
    assert [server.check_request(m) for m in good] == [None] * len(good)
    assert (
        server.check_request({"seq": 1, "cmd": "legal", "depth": 1})
        == "(message): Additional properties are not allowed ('depth' was unexpected)"
    )


def test_an_engine_exception_is_an_internal_error_reply_and_the_server_keeps_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: JsonEngine) -> Json:
        raise RuntimeError("boom")

    monkeypatch.setattr(JsonEngine, "legal", broken)
    replies = converse([new_game(1), {"seq": 2, "cmd": "legal"}, {"seq": 3, "cmd": "score"}])
    assert replies[1] == {"seq": 2, "error": {"code": "internal", "message": "RuntimeError: boom"}}
    assert replies[2]["seq"] == 3 and replies[2]["settlement"] is None


def test_an_exception_on_a_message_that_is_not_an_object_has_a_null_seq(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(message: Any) -> str | None:
        raise ValueError("no")

    monkeypatch.setattr(server, "check_request", broken)
    replies = converse([b"[1]\n", {"seq": 7, "cmd": "legal"}])
    assert replies == [
        {"seq": None, "error": {"code": "internal", "message": "ValueError: no"}},
        {"seq": 7, "error": {"code": "internal", "message": "ValueError: no"}},
    ]


def test_an_unserialisable_reply_is_an_internal_error_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(JsonEngine, "score", lambda self: {"scores": {1, 2}})
    replies = converse([new_game(1), {"seq": 2, "cmd": "score"}, {"seq": 3, "cmd": "legal"}])
    assert replies[1] == {"seq": 2, "error": {"code": "internal", "message": "unserialisable reply: Type is not JSON serializable: set"}}
    assert replies[2]["seq"] == 3 and replies[2]["player"] == 0


def test_bye_ends_the_session_and_what_follows_is_not_answered() -> None:
    replies = converse([{"seq": 1, "cmd": "hello", "protocol": "1"}, {"seq": 2, "cmd": "bye"}, {"seq": 3, "cmd": "hello", "protocol": "1"}])
    assert replies[1:] == [{"seq": 2}]


def test_the_end_of_input_ends_the_session() -> None:
    assert converse([]) == []
    assert [r["seq"] for r in converse([{"seq": 1, "cmd": "legal"}])] == [1]


def test_without_streams_the_server_serves_the_process_own(monkeypatch: pytest.MonkeyPatch) -> None:
    class Std:
        def __init__(self, data: bytes) -> None:
            self.buffer = io.BytesIO(data)

    stdout = Std(b"")
    monkeypatch.setattr(sys, "stdin", Std(line({"seq": 1, "cmd": "bye"})))
    monkeypatch.setattr(sys, "stdout", stdout)
    assert server.serve() == 0
    assert stdout.buffer.getvalue() == b'{"seq":1}\n'


class Recorder(io.BytesIO):
    """An output stream that logs its writes and flushes, and an input stream that logs its reads
    into the same log, handing out `chunks` one per read."""

    def __init__(self, chunks: list[bytes] | None = None) -> None:
        super().__init__()
        self.log: list[str] = []
        self.chunks = list(chunks or [])

    def write(self, data: Any) -> int:
        self.log.append("write")
        return super().write(data)

    def flush(self) -> None:
        self.log.append("flush")

    def read1(self, size: int = -1) -> bytes:
        self.log.append("read")
        return self.chunks.pop(0) if self.chunks else b""


REQUESTS: Final = [{"seq": 1, "cmd": "hello", "protocol": "1"}, {"seq": 2, "cmd": "legal"}, {"seq": 3, "cmd": "bye"}]


def _unflushed_at_each_read(log: list[str]) -> list[int]:
    """The positions of reads made while a reply was written and not flushed, and the end if one is left."""
    pending, out = False, []
    for k, entry in enumerate([*log, "read"]):
        if entry == "write":
            pending = True
        elif entry == "flush":
            pending = False
        elif pending:
            out.append(k)
    return out


def test_every_reply_is_flushed_before_the_server_waits_for_a_request() -> None:
    """A harness that waits for each reply before it sends the next request gets each at once."""
    stream = Recorder([line(r) for r in REQUESTS])
    server.serve(stream, stream)
    assert stream.log.count("write") == 3
    assert _unflushed_at_each_read(stream.log) == []


def test_requests_sent_ahead_are_answered_with_one_flush() -> None:
    """A harness that sends requests ahead (its pipeline) gets their replies in one write to the
    pipe, not one per reply; none waits for a request that is not coming."""
    stream = Recorder([b"".join(line(r) for r in REQUESTS[:2]), line(REQUESTS[2])])
    server.serve(stream, stream)
    assert stream.log == ["flush", "read", "write", "write", "flush", "read", "write", "flush"]


@pytest.mark.parametrize("size", [1, 7, 4096])
def test_lines_are_the_same_however_the_input_arrives(size: int) -> None:
    """Lines split across reads, several in one read, the last without its newline, one over the
    limit (dropped as None): the same lines as the input holds."""
    long = b"x" * (server.LINE_LIMIT + 5) + b"\n"
    exact = b"y" * server.LINE_LIMIT + b"\n"
    data = b'{"a": 1}\n' + long + b"\n" + exact + b"last"
    chunks = [data[k : k + size] for k in range(0, len(data), size)]
    assert list(server.request_lines(Recorder(chunks))) == [b'{"a": 1}\n', None, b"\n", exact, b"last"]


def test_every_ruleset_is_loaded_before_the_first_request(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []
    monkeypatch.setattr(server, "load_ruleset", loaded.append)
    assert server.serve(io.BytesIO(b""), io.BytesIO()) == 0
    assert loaded == ruleset_ids()


# --- JsonEngine, called directly: what the server passes through -------------------------------------------


@pytest.mark.parametrize("command", ["legal", "score", "act", "perft"])
def test_a_command_before_new_game_is_a_no_game_error(command: str) -> None:
    engine = JsonEngine()
    args: dict[str, tuple[Any, ...]] = {"legal": (), "score": (), "act": ({"type": "stop", "player": 0},), "perft": (1,)}
    reply = getattr(engine, command)(*args[command])
    assert reply == {"error": {"code": "no_game", "message": "no game in progress: send new_game first"}}
    valid_reply("error", {"seq": 0, **reply})


def test_hello_declares_the_protocol_the_build_every_ruleset_and_every_option() -> None:
    hello = JsonEngine().hello()
    assert hello == {
        "protocol": "1",
        "engine": {
            "name": "gostop-reference",
            "version": engine_version(),
            "language": "python" if BUILD == "interpreted" else "python (compiled with mypyc)",
        },
        "rulesets": ruleset_ids(),
        "options": dict.fromkeys(option_registry(), "all"),
        "features": ["rule_trace", "seeded_deal", "perft", "match"],
    }


def test_an_unknown_ruleset_is_unsupported() -> None:
    reply = JsonEngine().new_game({"id": "nope", "options": {}}, DEAL)
    assert reply["error"]["code"] == "unsupported" and "'nope'" in reply["error"]["message"]


def test_a_bad_deal_is_refused_and_drops_the_round_in_progress() -> None:
    engine = JsonEngine()
    assert "error" not in engine.new_game(RULESET, DEAL)
    twice = {**DEAL, "table": ["m01-junk-1", "m01-bright"]}  # the bright is in P0's hand too
    reply = engine.new_game(RULESET, twice)
    assert reply["error"]["code"] == "bad_deal" and "m01-bright" in reply["error"]["message"]
    assert engine.round is None
    assert engine.legal()["error"]["code"] == "no_game"


def test_a_seeded_deal_is_dealt_by_the_engine() -> None:
    reply = JsonEngine().new_game(RULESET, {"seed": 3, "dealer": 0})
    assert "error" not in reply and [len(h) for h in reply["state"]["hands"]] == [10, 10]  # R-DEAL-SIZE, two players


def test_an_illegal_action_is_the_rejection_and_changes_nothing() -> None:
    engine = JsonEngine()
    engine.new_game(RULESET, DEAL)
    before = engine.round.snapshot() if engine.round else None
    reply = engine.act({"type": "play", "player": 0, "card": "m02-junk-1"})
    assert reply["error"]["code"] == "card_not_in_hand"
    assert engine.round is not None and engine.round.snapshot() == before


def test_perft_leaves_the_game_untouched() -> None:
    engine = JsonEngine()
    engine.new_game(RULESET, DEAL)
    before = engine.legal()
    assert [p["nodes"] for p in engine.perft(1)["plies"]] == [2]
    assert engine.legal() == before


def test_close_ends_the_game() -> None:
    engine = JsonEngine()
    engine.new_game(RULESET, DEAL)
    engine.close()
    assert engine.round is None and engine.score()["error"]["code"] == "no_game"


@needs_interpreted
def test_option_reads_collects_the_options_the_engine_read() -> None:
    reads: set[str] = set()
    engine = JsonEngine(option_reads=reads)
    engine.new_game(RULESET, DEAL)
    engine.act({"type": "play", "player": 0, "card": "m01-bright"})
    assert reads and reads <= set(option_registry())
    assert JsonEngine().option_reads is None
