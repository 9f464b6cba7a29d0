"""The protocol server against hostile lines: each case of a campaign of mutated requests that
killed the server or had it answer `internal`, and the neighbouring cases. Every line gets one
reply valid against the protocol's error reply (or its command's reply), the server goes on, and
`internal` is never the answer to a bad request.

Most cases run the server's loop in process (`serve` on byte streams); the first ones also talk
to a real `gostop-reference --stdio` over pipes, as the harness does."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import orjson
import pytest

from gostop_conformance.reference import SplitMix64, complete_deal, seeded_deal
from gostop_conformance.reference import _server as server
from gostop_conformance.reference._jsonapi import EXPONENT_LIMIT, JsonEngine
from gostop_conformance.spec import json_deeper_than, load_ruleset, protocol_check, protocol_validator
from tests.reference_impl.server_fuzz import ROOT

Json = dict[str, Any]
RS = load_ruleset("matgo-2p")
RULESET: Json = {"id": RS.id, "options": RS.options.as_json()}
#: one card each: the round ends after two plays (R-ROUND-END)
SHORT_DEAL: Json = complete_deal(
    RS.options, [["m01-bright"], ["m02-junk-1"]], ["m01-junk-1"], ["m03-junk-1", "m04-junk-1"], first_player=0
).to_json()
HELLO = b'{"seq":99,"cmd":"hello","protocol":"1"}'
#: the minimal case of the campaign that killed the server: a seq 300 arrays deep, and a cmd that is an array
NESTED_SEQ = b'{"seq":' + b"[" * 300 + b"]" * 300 + b',"cmd":[]}'


def request(message: Json) -> bytes:
    return orjson.dumps(message)


def valid(reply: Json, cmd: str | None = None) -> None:
    """`reply` is valid against the error reply (or, without an error, the reply to `cmd`)."""
    definition = "reply_error" if "error" in reply or cmd is None else f"reply_{cmd}"
    if not protocol_check(definition)(reply):
        raise AssertionError(f"{reply} breaks {definition}: {[e.message for e in protocol_validator(definition).iter_errors(reply)]}")


def converse(lines: Sequence[bytes]) -> list[Json]:
    """Serve the lines in process; the replies, one line each."""
    out = io.BytesIO()
    assert server.serve(io.BytesIO(b"".join(line + b"\n" for line in lines)), out) == 0
    raw = out.getvalue().splitlines(keepends=True)
    assert all(r.endswith(b"\n") for r in raw)
    return [orjson.loads(r) for r in raw]


def error(reply: Json) -> tuple[Any, str, str]:
    return reply["seq"], reply["error"]["code"], reply["error"]["message"]


def refused(line: bytes) -> tuple[Any, str, str]:
    """The error reply to `line`, checked to be one valid error reply followed by a served hello."""
    replies = converse([line, HELLO])
    assert len(replies) == 2, replies
    valid(replies[0])
    assert replies[1]["seq"] == 99 and replies[1]["engine"]["name"] == "gostop-reference"
    return error(replies[0])


# --- deep nesting ------------------------------------------------------------------------------------------


def test_a_seq_nested_300_deep_is_a_located_bad_request() -> None:
    """It killed the server: cmd [] raised TypeError (unhashable), and writing the internal error
    with the nested seq in it hit orjson's recursion limit inside the error handler."""
    assert refused(NESTED_SEQ) == (None, "bad_request", "the line nests deeper than 64 levels (level 65 opens at column 71)")


@pytest.mark.parametrize("depth", [server.MAX_DEPTH + 1, 300, 1025, 10_000])
def test_any_nesting_deeper_than_the_limit_is_refused_before_parsing(depth: int) -> None:
    line = b'{"seq":1,"cmd":"hello","protocol":' + b'{"a":' * (depth - 1) + b"1" + b"}" * (depth - 1) + b"}"
    seq, code, message = refused(line)
    assert (seq, code) == (None, "bad_request") and f"deeper than {server.MAX_DEPTH} levels" in message


def test_nesting_up_to_the_limit_is_parsed_and_the_schema_says_what_is_wrong() -> None:
    """The message object is the first level: its protocol may hold 63 more."""
    line = b'{"seq":1,"cmd":"hello","protocol":' + b"[" * (server.MAX_DEPTH - 1) + b"]" * (server.MAX_DEPTH - 1) + b"}"
    nested = "[" * (server.MAX_DEPTH - 1) + "]" * (server.MAX_DEPTH - 1)
    assert refused(line) == (1, "bad_request", f"protocol: {nested} is not of type 'string'")


def test_brackets_inside_strings_are_no_nesting() -> None:
    line = request({"seq": 1, "cmd": "hello", "protocol": "[" * 500 + '\\"{' * 100})
    assert json_deeper_than(line) is None
    [hello] = converse([line])
    valid(hello, "hello")


# --- cmd and seq of the wrong type ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cmd", "shown"),
    [
        (["legal"], "an array"),
        ({"legal": 1}, "an object"),
        (5, "5"),
        (None, "None"),
        ("x" * 5000, "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (5000 characters)"),
    ],
)
def test_a_cmd_of_the_wrong_type_is_a_bad_request_not_an_internal_error(cmd: Any, shown: str) -> None:
    """{"seq":5,"cmd":["legal"]} was `internal`: TypeError: unhashable type (cmd looked up in a dict)."""
    expected = f"cmd: expected one of hello, new_game, legal, score, bye, act, perft, got {shown}"
    assert refused(request({"seq": 5, "cmd": cmd})) == (5, "bad_request", expected)


@pytest.mark.parametrize(
    ("seq", "message"),
    [
        ("7", "seq: '7' is not of type 'integer'"),
        (True, "seq: True is not of type 'integer'"),
        (-1, "seq: -1 is less than the minimum of 0"),
        (1.5, "seq: 1.5 is not of type 'integer'"),
        (1.0, "seq: expected an integer of at most 64 bits written without a fraction or exponent, got 1.0"),
    ],
)
def test_a_seq_that_is_no_seq_is_answered_with_a_null_seq(seq: Any, message: str) -> None:
    """The reply's seq is the request's only when that is a seq: a negative or boolean one echoed
    broke the reply schema (seq is an integer from 0, or null)."""
    assert refused(request({"seq": seq, "cmd": "legal"})) == (None, "bad_request", message)


def test_a_seq_up_to_64_bits_is_echoed() -> None:
    [reply] = converse([b'{"seq":18446744073709551615,"cmd":"legal"}'])
    assert error(reply) == ((1 << 64) - 1, "no_game", "no game in progress: send new_game first")


# --- huge and non-finite numbers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # orjson reads an integer past 64 bits as a float: its digits are lost, so it is refused
        (
            b'{"seq":18446744073709551616,"cmd":"legal"}',
            "seq: expected an integer of at most 64 bits written without a fraction or exponent, got 1.8446744073709552e+19",
        ),
        # the schema's problem first, when there is one: it says more
        (
            b'{"seq":1,"cmd":"perft","depth":123456789012345678901234567890}',
            "depth: 1.2345678901234568e+29 is greater than the maximum of 12",
        ),
        (b'{"seq":' + b"9" * 5000 + b',"cmd":"legal"}', "invalid JSON at column 8: number is infinity when parsed as double"),
        (b'{"seq":1e400,"cmd":"legal"}', "invalid JSON at column 8: number is infinity when parsed as double"),
        (b'{"seq":NaN,"cmd":"legal"}', "invalid JSON at column 8: unexpected character, expected a JSON value"),
        (b'{"seq":-Infinity,"cmd":"legal"}', "invalid JSON at column 9: no digit after sign"),
    ],
)
def test_numbers_beyond_64_bits_or_not_finite_are_bad_requests(line: bytes, message: str) -> None:
    seq, code, text = refused(line)
    assert (code, text) == ("bad_request", message)
    assert seq in (None, 1)


def test_an_integral_float_is_refused_where_the_engine_wants_an_integer() -> None:
    """JSON Schema counts 2.0 as an integer: perft got it and raised TypeError (range(2.0))."""
    replies = converse(
        [request({"seq": 1, "cmd": "new_game", "ruleset": RULESET, "deal": SHORT_DEAL}), b'{"seq":2,"cmd":"perft","depth":2.0}']
    )
    assert error(replies[1]) == (
        2,
        "bad_request",
        "depth: expected an integer of at most 64 bits written without a fraction or exponent, got 2.0",
    )


def test_a_huge_integer_passed_in_process_is_refused_without_printing_it() -> None:
    """Only a caller in process can pass one (orjson reads a float); repr refuses 5,000 digits."""
    reply, stop = server.handle(JsonEngine(), {"seq": 1, "cmd": "legal", "x": -(10**5000)})
    assert not stop and error(reply) == (
        1,
        "bad_request",
        "x: expected an integer of at most 64 bits written without a fraction or exponent, got an integer of 16610 bits",
    )


@pytest.mark.parametrize("field", ["nagari_streak", "players"])
def test_a_deal_whose_exponents_are_beyond_the_engine_limit_is_a_bad_deal(field: str) -> None:
    """A nagari streak of 2^64 - 1 doubled the carry that many times: MemoryError, `internal`, at
    the act that settled the round (and a streak of 10^9 builds a 125 MB integer)."""
    deal = dict(SHORT_DEAL)
    if field == "nagari_streak":
        deal["nagari_streak"], where, value = (1 << 64) - 1, "deal.nagari_streak", (1 << 64) - 1
    else:
        deal["players"], where, value = [{"gos": EXPONENT_LIMIT + 1}, {}], "deal.players[0].gos", EXPONENT_LIMIT + 1
    [reply] = converse([request({"seq": 1, "cmd": "new_game", "ruleset": RULESET, "deal": deal})])
    expected = f"{where}: expected at most {EXPONENT_LIMIT} (the reference engine's limit: the payments may double with each), got {value}"
    assert error(reply) == (1, "bad_deal", expected)
    ok = {**SHORT_DEAL, "nagari_streak": EXPONENT_LIMIT, "players": [{"gos": EXPONENT_LIMIT}, {}]}
    assert "error" not in JsonEngine().new_game(RULESET, ok)


def test_an_act_whose_payments_would_pass_64_bits_is_unsupported_and_not_applied() -> None:
    """A carried multiplier of 2^64 - 1 (the schema sets no maximum) made payments orjson cannot
    write: `internal`, the round over all the same. Now the act is refused and taken back."""
    deal = seeded_deal(RS.options, SplitMix64(3), dealer=0).to_json() | {"carried_multiplier": (1 << 64) - 1}
    engine = JsonEngine()

    def ask(message: Json) -> Json:
        answered = server.answer(engine, request(message))
        assert answered is not None
        reply: Json = orjson.loads(answered[0])
        valid(reply, str(message["cmd"]))
        return reply

    assert "error" not in ask({"seq": 1, "cmd": "new_game", "ruleset": RULESET, "deal": deal})
    for seq in range(2, 200, 2):  # always the last legal action (stop when offered) until one cannot be written
        legal = ask({"seq": seq, "cmd": "legal"})
        assert legal["decision"] != "none", "the round ended without a payment beyond 64 bits"
        before = engine.round.snapshot() if engine.round else None
        act = ask({"seq": seq + 1, "cmd": "act", "action": legal["actions"][-1]})
        if "error" in act:
            break
    assert act["error"]["code"] == "unsupported"
    assert (
        "beyond the 64-bit integers of the protocol" in act["error"]["message"]
        and "(the action was not applied)" in act["error"]["message"]
    )
    assert engine.round is not None and engine.round.snapshot() == before
    assert ask({"seq": 1000, "cmd": "legal"}) == {**legal, "seq": 1000}


def test_a_turn_number_at_the_top_of_64_bits_cannot_go_on() -> None:
    deal = {**SHORT_DEAL, "turn": (1 << 64) - 1}
    replies = converse(
        [
            request({"seq": 1, "cmd": "new_game", "ruleset": RULESET, "deal": deal}),
            request({"seq": 2, "cmd": "act", "action": {"type": "play", "player": 0, "card": "m01-bright"}}),
            b'{"seq":3,"cmd":"legal"}',
        ]
    )
    assert replies[0]["state"]["turn"] == (1 << 64) - 1
    assert error(replies[1]) == (
        2,
        "unsupported",
        "state.turn would be an integer of 65 bits, beyond the 64-bit integers of the protocol: "
        "the engine does not play that far (the action was not applied)",
    )
    assert replies[2]["player"] == 0 and replies[2]["decision"] == "turn"


# --- bytes that are not UTF-8, escapes that are no character ---------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"seq":1,"cmd":"hello","protocol":"\xff"}', "the line is not UTF-8: byte 36 (0xff): invalid start byte"),
        (b'{"seq":1,"cmd":"hello","protocol":"\xed\xa0\x80"}', "the line is not UTF-8: byte 36 (0xed): invalid continuation byte"),
        (b'{"seq":1,"cmd":"hello","protocol":"\xc3"}', "the line is not UTF-8: byte 36 (0xc3): invalid continuation byte"),
        (b'{"seq":1,"cmd":"hello","protocol":"\\ud800"}', "invalid JSON at column 36: no low surrogate in string"),
        (b'{"seq":1,"cmd":"hello","protocol":"\\udc00"}', "invalid JSON at column 36: invalid high surrogate in string"),
        (b"\xef\xbb\xbf" + HELLO, "invalid JSON at column 1: UTF-8 byte order mark (BOM) is not supported"),
    ],
)
def test_bytes_that_are_not_utf8_or_lone_surrogates_are_located_bad_requests(line: bytes, message: str) -> None:
    """orjson named no place for bytes that are not UTF-8 (column 1, whatever the byte)."""
    assert refused(line) == (None, "bad_request", message)


# --- lines: blank, long, with keys twice ------------------------------------------------------------------


def test_a_blank_line_gets_no_reply_and_other_control_characters_are_no_blank() -> None:
    replies = converse([b"", b" \t\r", b"\x0b", HELLO])
    assert [r["seq"] for r in replies] == [None, 99]
    assert error(replies[0])[1:] == ("bad_request", "invalid JSON at column 1: unexpected character, expected a JSON value")


def test_a_line_longer_than_the_limit_is_refused_unread_and_the_next_is_served() -> None:
    long = request({"seq": 1, "cmd": "hello", "protocol": "x" * server.LINE_LIMIT})
    replies = converse([long, HELLO, long + b" " * 100_000, HELLO])
    assert [error(r) if "error" in r else r["seq"] for r in replies] == [
        (None, "bad_request", f"the line is longer than {server.LINE_LIMIT} bytes: it was not read"),
        99,
        (None, "bad_request", f"the line is longer than {server.LINE_LIMIT} bytes: it was not read"),
        99,
    ]
    just = request({"seq": 1, "cmd": "hello", "protocol": ""})
    just = just[:-1] + b" " * (server.LINE_LIMIT - len(just)) + b"}"
    assert len(just) == server.LINE_LIMIT and converse([just])[0]["seq"] == 1  # the limit itself is read


def test_a_long_value_is_quoted_short() -> None:
    """A 60 KiB card id made a 60 KiB error message (the harness reads lines of 64 KiB)."""
    replies = converse(
        [
            request({"seq": 1, "cmd": "new_game", "ruleset": RULESET, "deal": SHORT_DEAL}),
            request({"seq": 2, "cmd": "act", "action": {"type": "play", "player": 0, "card": "m" * 60_000}}),
        ]
    )
    seq, code, message = error(replies[1])
    assert (seq, code) == (2, "unknown_card") and len(message) <= server.MESSAGE_LIMIT + 100 and "characters left out" in message


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"seq":1,"cmd":"legal","cmd":"bye"}', "(message): the key 'cmd' appears twice in one object"),
        (b'{"seq":1,"cmd":"act","action":{"type":"stop","player":0,"player":1}}', "action: the key 'player' appears twice in one object"),
        (b'{"seq":1,"cmd":"legal","x":[{"a":1},{"b":2,"b":2}]}', "x[1]: the key 'b' appears twice in one object"),
    ],
)
def test_a_key_given_twice_is_a_bad_request(line: bytes, message: str) -> None:
    """orjson keeps the last of two keys, another parser the first: the request is ambiguous."""
    assert refused(line) == (1, "bad_request", message)


def test_keys_are_counted_outside_strings_only() -> None:
    line = request({"seq": 1, "cmd": "hello", "protocol": '"a": "b", "seq": 1', "suite_version": '\\":'})
    [hello] = converse([line])
    valid(hello, "hello")


# --- requests valid for the schema, out of sequence or against the rules --------------------------------


def test_requests_out_of_sequence_get_the_protocol_errors() -> None:
    """Valid for the schema, wrong for the game: each gets the code spec/vocabulary.yaml gives it
    (the protocol has no code of its own for a request out of sequence: no_game before any
    new_game, the rejections of the rules for an act, round_over after the round)."""
    play0: Json = {"type": "play", "player": 0, "card": "m01-bright"}
    messages: list[Json] = [
        {"seq": 1, "cmd": "act", "action": play0},  # before any new_game
        {"seq": 2, "cmd": "score"},
        {"seq": 3, "cmd": "perft", "depth": 1},
        {"seq": 4, "cmd": "new_game", "ruleset": RULESET, "deal": SHORT_DEAL},
        {"seq": 5, "cmd": "act", "action": {"type": "play", "player": 0, "card": "m02-junk-1"}},  # P1's card
        {"seq": 6, "cmd": "act", "action": {"type": "play", "player": 0, "card": "bonus-1"}},  # not of this deck
        {"seq": 7, "cmd": "act", "action": {"type": "play", "player": 1, "card": "m02-junk-1"}},  # P0 is to act
        {"seq": 8, "cmd": "act", "action": {"type": "go", "player": 0}},  # no Go decision pending
        {"seq": 9, "cmd": "act", "action": play0},
        {"seq": 10, "cmd": "act", "action": {"type": "play", "player": 1, "card": "m02-junk-1"}},
        {"seq": 11, "cmd": "legal"},  # the round is over: no player, no action
        {"seq": 12, "cmd": "act", "action": play0},
        {"seq": 13, "cmd": "hello", "protocol": "1"},
    ]
    replies = converse([request(m) for m in messages])
    for message, reply in zip(messages, replies, strict=True):
        valid(reply, message["cmd"])
    codes = [r["error"]["code"] if "error" in r else None for r in replies]
    assert codes == [
        "no_game",
        "no_game",
        "no_game",
        None,
        "card_not_in_hand",
        "unknown_card",
        "not_your_turn",
        "wrong_decision",
        None,
        None,
        None,
        "round_over",
        None,
    ]
    assert replies[10] == {"seq": 11, "player": None, "decision": "none", "actions": []}


def test_a_first_player_who_is_no_seat_is_a_bad_deal() -> None:
    """The schema allows seats up to 3 and the engine's deal check did not look: a two-player round
    with first_player 2 was started, and every legal or act after it was an IndexError, `internal`."""
    replies = converse(
        [request({"seq": 1, "cmd": "new_game", "ruleset": RULESET, "deal": {**SHORT_DEAL, "first_player": 2}}), b'{"seq":2,"cmd":"legal"}']
    )
    assert error(replies[0]) == (1, "bad_deal", "deal.first_player: expected a seat from 0 to 1, got 2")
    assert error(replies[1])[1] == "no_game"


# --- over pipes ---------------------------------------------------------------------------------------------


def test_the_server_process_survives_the_campaign_s_killers_and_serves_on() -> None:
    lines = [
        NESTED_SEQ,
        b'{"seq":5,"cmd":["legal"]}',
        b'{"seq":' + b"9" * 5000 + b',"cmd":"legal"}',
        b'{"seq":18446744073709551616,"cmd":"legal"}',
        b'{"seq":1,"cmd":"hello","protocol":"\xff\xfe"}',
        b'{"seq":1,"cmd":"hello","protocol":"\\ud800"}',
        b'{"seq":2,"cmd":"legal","cmd":"legal"}',
        b"[" * 100_000,
        HELLO,
        b'{"seq":100,"cmd":"bye"}',
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "gostop_conformance.reference", "--stdio"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    replies = [orjson.loads(r) for r in proc.stdout.splitlines()]
    assert [r["seq"] for r in replies] == [None, 5, None, None, None, None, 2, None, 99, 100]
    for reply in replies[:8]:
        valid(reply)
        assert reply["error"]["code"] == "bad_request"
    valid(replies[8], "hello")
