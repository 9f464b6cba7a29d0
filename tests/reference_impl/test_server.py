"""`gostop-reference --stdio`: a scripted conversation, every reply checked against the protocol schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from gostop_conformance.reference import SplitMix64, seeded_deal
from gostop_conformance.spec import load_ruleset, spec_dir

SCHEMA = json.loads((spec_dir() / "protocol" / "protocol.schema.json").read_text(encoding="utf-8"))


def reply_ok(kind: str, reply: dict) -> None:
    jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/reply_{kind}"}).validate(reply)


def converse(lines: list[str]) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "gostop_conformance.reference", "--stdio"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
        check=True,
    )
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_a_whole_round_over_stdio() -> None:
    rs = load_ruleset("matgo-2p")
    deal = seeded_deal(rs.options, SplitMix64(3), dealer=0).to_json()
    requests = [
        {"seq": 1, "cmd": "hello", "protocol": "1"},
        {"seq": 2, "cmd": "new_game", "ruleset": {"id": rs.id, "options": rs.options.as_json()}, "deal": deal},
        {"seq": 3, "cmd": "legal"},
    ]
    replies = converse([json.dumps(r) for r in requests])
    assert [r["seq"] for r in replies] == [1, 2, 3]
    reply_ok("hello", replies[0])
    reply_ok("new_game", replies[1])
    reply_ok("legal", replies[2])
    assert replies[0]["engine"]["name"] == "gostop-reference"
    # a whole round in one conversation: always the last legal action, until the round ends
    proc = subprocess.Popen(
        [sys.executable, "-m", "gostop_conformance.reference", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.stdin is not None and proc.stdout is not None

    def ask(req: dict) -> dict:
        proc.stdin.write(json.dumps(req) + "\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        return json.loads(proc.stdout.readline())  # type: ignore[union-attr]

    seq = 10
    ask({"seq": seq, "cmd": "new_game", "ruleset": {"id": rs.id, "options": rs.options.as_json()}, "deal": deal})
    while True:
        seq += 1
        legal = ask({"seq": seq, "cmd": "legal"})
        reply_ok("legal", legal)
        if legal["decision"] == "none":
            break
        seq += 1
        act = ask({"seq": seq, "cmd": "act", "action": legal["actions"][-1]})
        reply_ok("act", act)
        assert act["seq"] == seq and "error" not in act
    seq += 1
    score = ask({"seq": seq, "cmd": "score"})
    reply_ok("score", score)
    assert sum(score["settlement"]["net"]) == 0
    assert ask({"seq": seq + 1, "cmd": "bye"}) == {"seq": seq + 1}
    assert proc.wait(timeout=10) == 0


def test_bad_messages_get_error_replies_and_the_server_keeps_serving() -> None:
    replies = converse(
        [
            "not json",
            json.dumps({"seq": 1, "cmd": "dance"}),
            json.dumps({"seq": 2, "cmd": "act", "action": {"type": "play"}}),
            json.dumps({"seq": 3, "cmd": "legal"}),
            json.dumps(
                {
                    "seq": 4,
                    "cmd": "new_game",
                    "ruleset": {"id": "nope", "options": {}},
                    "deal": {"dealer": 0, "hands": [[], []], "table": [], "stock": []},
                }
            ),
            json.dumps({"seq": 5, "cmd": "hello", "protocol": "1"}),
        ]
    )
    codes = [r.get("error", {}).get("code") for r in replies]
    assert codes == ["bad_request", "bad_request", "bad_request", "no_game", "unsupported", None]
    assert "invalid JSON" in replies[0]["error"]["message"]
    assert "cmd: expected one of" in replies[1]["error"]["message"]
    assert replies[2]["error"]["message"] == "action: 'player' is a required property"
    for reply in replies[:5]:
        reply_ok("error", reply)


def test_rejection_is_an_error_reply_with_the_vocabulary_code() -> None:
    rs = load_ruleset("matgo-2p")
    deal = seeded_deal(rs.options, SplitMix64(3), dealer=0).to_json()
    replies = converse(
        [
            json.dumps({"seq": 1, "cmd": "new_game", "ruleset": {"id": rs.id, "options": rs.options.as_json()}, "deal": deal}),
            json.dumps({"seq": 2, "cmd": "act", "action": {"type": "stop", "player": 0}}),
            json.dumps({"seq": 3, "cmd": "act", "action": {"type": "play", "player": 1, "card": deal["hands"][1][0]}}),
        ]
    )
    assert replies[1]["error"]["code"] == "wrong_decision"
    assert replies[2]["error"]["code"] == "not_your_turn"


def test_where_the_fast_check_and_the_full_validator_disagree_the_full_one_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the compiled check ever refuse what the full validator accepts, the request is served."""
    from gostop_conformance.reference import _server

    monkeypatch.setattr(_server, "protocol_check", lambda *_: lambda _message: False)
    assert _server.check_request({"seq": 10**30, "cmd": "legal"}) is None
    assert "seq" in (_server.check_request({"seq": -1, "cmd": "legal"}) or "")
