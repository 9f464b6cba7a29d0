"""The harness against mutated engine replies (tests/conformance/reply_fuzz.py): a thousand here,
10,000 in `make fuzz-harness`; then each cause of a harness crash the fuzz found, pinned where
it was fixed (the fault modes error_beside_result, deep_error_detail and deep_declaration of
test_faults.py run the first two end to end, non_ascii the third here), and the mutating
engine's own determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gostop_conformance.harness._engine import reply_problem
from gostop_conformance.harness._reporters import _report_line
from gostop_conformance.harness._saved import read
from gostop_conformance.reference import JsonEngine
from gostop_conformance.reference import handle_request as handle
from gostop_conformance.spec import MAX_JSON_DEPTH, json_deeper_than, parse_json
from tests.conformance.reply_fuzz import ENGINE, fuzz
from tests.conformance.test_stdio_harness import CORPUS, FAKE

#: mutated replies the test suite serves (about 40 s on two cores)
REPLIES = 1000
#: a share of replies mutated above the default: fewer runs (each loads the corpus) for as many mutations
RATE = 0.05
EXAMPLE = Path(__file__).parents[2] / "docs" / "protocol-examples" / "02-go-then-stop.jsonl"


@pytest.mark.slow
def test_the_harness_survives_a_thousand_mutated_replies(tmp_path: Path) -> None:
    start = time.monotonic()
    summary = fuzz(REPLIES, seed=1, jobs=2, rate=RATE, folder=tmp_path, shrink=False)
    text = "\n".join(summary.lines())
    print(f"{text}\n({time.monotonic() - start:.0f} s)")
    assert summary.mutated >= REPLIES
    hint = f"minimise with: python -m tests.conformance.reply_fuzz --replies {REPLIES} --seed 1 --rate {RATE}"
    assert not summary.crashes, f"{text}\n{hint}"


def _reply(cmd: str) -> dict[str, object]:
    """The reference engine's whole, valid reply to `cmd` (with its seq), a round dealt."""
    engine = JsonEngine()
    requests = [json.loads(line) for line in EXAMPLE.read_text(encoding="utf-8").splitlines()]
    dealt, _ = handle(engine, next(r for r in requests if r.get("cmd") == "new_game"))
    return dealt if cmd == "new_game" else handle(engine, {"seq": 2, "cmd": cmd})[0]


@pytest.mark.parametrize("cmd", ["legal", "score", "new_game"])
@pytest.mark.parametrize("error", [["no"], "no", 0, False, {}, {"code": 7, "message": "no"}])
def test_a_reply_holding_an_error_is_held_to_the_error_shape_even_beside_a_whole_result(cmd: str, error: object) -> None:
    # the success shapes allow other members, so the full schema took a whole result with a
    # non-object `error` beside it; the harness reads any reply holding `error` as a refusal, and
    # then took that error for an object (AttributeError: 'list' object has no attribute 'get')
    reply = _reply(cmd)
    assert "error" not in reply and reply_problem(cmd, reply) is None
    problem = reply_problem(cmd, {**reply, "error": error})
    assert problem is not None and "error" in problem


def test_an_error_reply_and_a_result_still_follow_the_schema() -> None:
    assert reply_problem("score", {"seq": 1, "error": {"code": "no_game", "message": "send new_game first"}}) is None
    # an error object with extra members is still an error (the schema allows them)
    assert reply_problem("legal", {"seq": 1, "error": {"code": "no_game", "message": "m", "detail": [1]}}) is None


def test_a_report_line_never_nests_deeper_than_its_readers_take() -> None:
    # an engine's reply may nest MAX_JSON_DEPTH deep, and a record quotes it a few levels further in
    deep = json.loads("[" * 62 + "]" * 62)
    record = {"record": "scenario", "id": "x", "mismatches": [{"where": "w", "path": "act", "actual": {"code": "c", "detail": deep}}]}
    text = _report_line(record)
    assert json_deeper_than(text) is None
    back = parse_json(text)
    assert back["mismatches"][0]["actual"]["code"] == "c"  # only what is too deep is written as text
    assert isinstance(json.dumps(back), str) and json_deeper_than(json.dumps(record)) is not None
    shallow = {"record": "scenario", "id": "x", "mismatches": [{"where": "w", "path": "p", "actual": [[1]]}]}
    assert _report_line(shallow) == _report_line(json.loads(json.dumps(shallow)))  # what fits is written as it is
    assert parse_json(_report_line(shallow)) == shallow
    assert MAX_JSON_DEPTH == 64


def test_an_engine_text_the_console_cannot_encode_is_shown_escaped(tmp_path: Path) -> None:
    # stdout in ASCII (a Latin-1 locale, a redirected Windows console): the engine's message printed
    # with the failure raised UnicodeEncodeError, and the run ended before writing its reports
    (tmp_path / "scenarios" / "harness").mkdir(parents=True)
    (tmp_path / "scenarios" / "harness" / "h.yaml").write_text(CORPUS, encoding="utf-8")
    engine = f"{sys.executable} {FAKE} non_ascii"
    args = ["run", "--scenarios", str(tmp_path / "scenarios"), "--engine", engine, "--report-dir", str(tmp_path / "r"), "--timeout", "5"]
    proc = subprocess.run(
        [sys.executable, "-m", "gostop_conformance.harness", *args],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        timeout=120,
        check=False,
    )
    stdout, stderr = proc.stdout.decode("ascii"), proc.stderr.decode("ascii", "replace")
    assert "Traceback" not in stderr, stderr[-3000:]
    assert proc.returncode == 1
    assert "\\uc2e4\\ud328 \\U0001f0a1 \\xe9chec" in stdout  # the message, escaped
    saved = read(tmp_path / "r" / "report.jsonl")
    assert {r["id"]: r["outcome"] for r in saved.records}["harness-trigger"] == "ERROR"
    assert "실패 🂡 échec" in (tmp_path / "r" / "summary.md").read_text(encoding="utf-8")  # the files keep it as it is


def _serve(seed: str, *flags: str) -> tuple[bytes, str]:
    requests = b"".join(line.encode() + b"\n" for line in EXAMPLE.read_text(encoding="utf-8").splitlines() if '"cmd"' in line)
    proc = subprocess.run([sys.executable, str(ENGINE), seed, "0.5", *flags], input=requests, capture_output=True, timeout=60, check=False)
    return proc.stdout, proc.stderr.decode(errors="replace")


def test_the_mutating_engine_is_deterministic_and_replays_one_mutation() -> None:
    out, log = _serve("7")
    again, log_again = _serve("7")
    assert (out, log) == (again, log_again)
    assert _serve("8")[0] != out
    mutations = [line for line in log.splitlines() if line.startswith("mutating-engine: seed=7 key=")]
    assert len(mutations) > 3
    key = mutations[1].split(" key=", 1)[1].split()[0]
    _, alone = _serve("7", "--only", key)
    assert [line.split(" seq=")[1] for line in alone.splitlines()] == [mutations[1].split(" seq=")[1]]
