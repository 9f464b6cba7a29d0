"""The mutational fuzz of the protocol server (tests/reference_impl/server_fuzz.py) at a size for
every test run: a few thousand lines, in process and over pipes to one real server process.
`make fuzz-server` runs it at full size (12,000 mutants by default; FUZZ_MUTANTS, FUZZ_SEED)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from gostop_conformance.reference import _server as server
from gostop_conformance.reference._jsonapi import JsonEngine
from tests.reference_impl import server_fuzz as fuzz

#: mutants of the test runs (the full run: make fuzz-server)
IN_PROCESS = 2000
OVER_PIPES = 1500


def test_the_server_over_pipes_answers_every_mutated_line_and_serves_on() -> None:
    """One `gostop-reference --stdio` process for the whole run: it never dies, answers every line
    with one valid reply (never `internal`), then a fresh hello, then bye, and exits 0."""
    result = fuzz.run(seed=1, mutants=OVER_PIPES)
    assert result.failures == [], result.summary()
    assert result.mutants == OVER_PIPES and result.lines > 2 * OVER_PIPES
    assert result.codes["bad_request"] > OVER_PIPES // 3 and result.codes["ok"] > OVER_PIPES


def test_the_server_in_process_answers_every_mutated_line() -> None:
    result = fuzz.run(seed=2, mutants=IN_PROCESS, server_=fuzz.InProcess())
    assert result.failures == [], result.summary()
    # the stream reaches every kind of answer: refused lines, refused deals, rejected moves, moves played
    for code in ("ok", "bad_request", "bad_deal", "no_game", "not_your_turn", "card_not_in_hand", "unsupported"):
        assert result.codes[code] > 0, (code, result.summary())


def test_the_stream_follows_from_its_seed() -> None:
    corpus = fuzz.record(3)
    first = [line.data for line in fuzz.lines(3, 300, corpus)]
    assert first == [line.data for line in fuzz.lines(3, 300, corpus)]
    assert first != [line.data for line in fuzz.lines(4, 300, corpus)]
    assert sum(line.mutant for line in fuzz.lines(3, 300, corpus)) == 300


def test_the_recorded_traffic_is_a_whole_session_of_every_command() -> None:
    corpus = fuzz.record(0)
    assert corpus[0]["cmd"] == "hello" and corpus[-1]["cmd"] == "bye"
    assert {r["cmd"] for r in corpus} == {"hello", "new_game", "legal", "act", "score", "perft", "bye"}
    deals = [r["deal"] for r in corpus if r["cmd"] == "new_game"]
    assert (
        any("seed" in d for d in deals) and any("players" in d for d in deals) and any("hands" in d and "players" not in d for d in deals)
    )
    assert {r["ruleset"]["id"] for r in corpus if r["cmd"] == "new_game"} == {*fuzz.RULESETS}
    # replayed on a fresh server, every recorded request is taken
    srv = fuzz.InProcess()
    for seq, message in enumerate(corpus[:-1]):
        [raw] = srv.send(orjson.dumps({"seq": seq, **message}))
        assert "error" not in orjson.loads(raw), (message, raw)


def test_the_mutants_hold_what_the_campaign_sent() -> None:
    """Among the mutants: deep nesting, huge and non-finite numbers, bytes that are not UTF-8, keys
    twice, lines too long, line breaks, blank lines."""
    data = [line.data for line in fuzz.lines(5, 3000) if line.mutant]
    deep = b"[" * (server.MAX_DEPTH + 1)
    assert any(deep in d or b'{"a":' * (server.MAX_DEPTH + 1) in d for d in data)
    assert any(b"9" * 400 in d or b"e400" in d or b"E400" in d for d in data)
    assert any(b"NaN" in d or b"Infinity" in d for d in data)
    assert any(b"\\ud800" in d for d in data)
    assert sum(1 for d in data if not _utf8(d)) > 50
    assert any(len(d) > server.LINE_LIMIT for d in data)
    assert any(b"\n" in d for d in data) and any(not d.strip() for d in data)
    assert any(_twice(d) for d in data)


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _twice(data: bytes) -> bool:
    answered = server.answer(JsonEngine(), data)
    return answered is not None and b"appears twice" in answered[0]


def test_the_checks_catch_what_the_campaign_found() -> None:
    """The oracle itself: an internal error, a reply that breaks the schema, a seq not echoed, a
    non-JSON or overlong reply, an unlocated bad_request are each reported."""
    request = b'{"seq":5,"cmd":"legal"}'
    assert fuzz.reply_problem(request, b'{"seq":5,"player":0,"decision":"turn","actions":[]}\n') is None
    assert "internal" in str(fuzz.reply_problem(request, b'{"seq":5,"error":{"code":"internal","message":"TypeError"}}\n'))
    assert "breaks reply_error" in str(fuzz.reply_problem(request, b'{"seq":5,"error":{"code":"no_such_code","message":"x: y"}}\n'))
    assert "seq" in str(fuzz.reply_problem(request, b'{"seq":6,"player":0,"decision":"turn","actions":[]}\n'))
    assert "not JSON" in str(fuzz.reply_problem(request, b"{\n"))
    assert "more than the harness reads" in str(fuzz.reply_problem(request, b'{"seq":5,"x":"' + b"x" * fuzz.REPLY_LIMIT + b'"}\n'))
    assert "names no place" in str(fuzz.reply_problem(request, b'{"seq":5,"error":{"code":"bad_request","message":"wrong"}}\n'))
    assert "breaks reply_legal" in str(fuzz.reply_problem(request, b'{"seq":5,"player":0}\n'))


def test_the_command_line_prints_a_summary_and_fails_on_a_failure(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert fuzz.main(["--mutants", "50", "--seed", "7", "--in-process"]) == 0
    assert "server fuzz, seed 7:" in capsys.readouterr().out

    def broken(message: Any) -> str | None:
        raise RuntimeError("boom")

    monkeypatch.setattr(server, "check_request", broken)
    assert fuzz.main(["--mutants", "50", "--seed", "7", "--in-process"]) == 1
    out = capsys.readouterr().out
    assert "an internal error: RuntimeError: boom" in out and "... and " in out
