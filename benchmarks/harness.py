"""Harness throughput: the corpus in process and over stdio against the reference engine, the
harness's cost per message, and the bare protocol round trip against a trivial echo engine.

    python benchmarks/harness.py [--repeat R]

- `scenarios_per_second_in_process`, `scenarios_per_second_over_stdio`: the whole corpus, the
  engine already started (its start-up is not a scenario's cost);
- `stdio_to_in_process`: the two measured back to back, their ratio taken per pair (machine noise
  hits both runs of a pair alike);
- `echo_round_trip_us`: one request and its reply through the harness's stdio client against an
  engine that answers at once with a fixed tiny reply: the floor of any stdio harness that waits
  for each reply; `echo_raw_round_trip_us` the same with no harness at all (a line written, a
  line read); `echo_pipelined_message_us` the same client and engine with the requests planned,
  so they go out ahead as a scenario's do (the floor of the pipelined harness, per message);
- `harness_message_us`: the whole corpus run against an engine that replays the reference
  engine's recorded replies (so it costs about what the echo engine costs, yet the harness gets
  replies of real size and does its full work: decoding, schema checks, the invariant oracle,
  the expectations), per message;
- `harness_to_echo`: the two, per pair; `harness_to_echo_pipelined`, the harness's cost per
  message against the pipelined echo's.

Each figure is the median of R runs (pairs) after one warm-up run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson
from _common import BUILD, line

from gostop_conformance.harness import (
    Engine,
    Record,
    ReferenceEngine,
    Scenario,
    StdioEngine,
    Verdicts,
    default_root,
    load_corpus,
    load_dependencies,
    run_one,
)
from gostop_conformance.harness import parse_declaration as parse

HERE = Path(__file__).resolve().parent
#: the corpus's stored option dependencies (an engine declaring everything needs none, but they are read as a run reads them)
STORED = load_dependencies(default_root())
REFERENCE = [sys.executable, "-m", "gostop_conformance.reference", "--stdio"]
ECHO_MESSAGES = 5000


def in_process(corpus: list[Scenario]) -> float:
    engine = ReferenceEngine()
    start = time.perf_counter()
    records = run_corpus(engine, corpus)
    seconds = time.perf_counter() - start
    _all_passed(records, "in process")
    return len(corpus) / seconds


def over_stdio(argv: list[str], corpus: list[Scenario], keep: bool = False) -> tuple[float, int, list[tuple[str, str]]]:
    """Scenarios per second, messages sent, and (with `keep`) the transcript, hello included."""
    engine = StdioEngine(argv)
    engine.start()
    try:
        transcript = engine.take_transcript()
        first = engine.seq
        start = time.perf_counter()
        records = run_corpus(engine, corpus, keep)
        seconds = time.perf_counter() - start
        _all_passed(records, argv[-1])
        if argv is REFERENCE:
            ENGINE_PEAK_MB.append(_peak_rss_mb(engine))
        transcript += [line for record in records for line in record.engine_transcript]
        return len(corpus) / seconds, engine.seq - first, transcript
    finally:
        engine.close()


def run_corpus(engine: Engine, corpus: list[Scenario], keep: bool = False) -> list[Record]:
    """The corpus as `gostop-conformance run` runs it on one engine (conformance.run_one:
    each scenario's rounds pipelined, and the next scenario's sent ahead), without the thread
    pool, so that the engine stays open to be measured; `keep` keeps every exchange."""
    verdicts = Verdicts(parse(engine.hello()), STORED)
    upcoming = [*corpus[1:], None]
    return [run_one(engine, sc, verdicts, {}, False, after, keep) for sc, after in zip(corpus, upcoming, strict=True)]


def _all_passed(records: list[Record], label: str) -> None:
    failed = [r for r in records if r.outcome != "PASS"]
    if failed:
        sys.exit(
            f"{label}: {failed[0].scenario.id} {failed[0].outcome}: {failed[0].result.text() if failed[0].result else failed[0].reason}"
        )


ENGINE_PEAK_MB: list[float] = []


def _peak_rss_mb(engine: StdioEngine) -> float:
    """The engine process's peak resident memory so far (Linux: VmHWM), or nan elsewhere."""
    assert engine.proc is not None
    try:
        status = Path(f"/proc/{engine.proc.pid}/status").read_text()
    except OSError:
        return float("nan")
    kb = next((int(row.split()[1]) for row in status.splitlines() if row.startswith("VmHWM:")), None)
    return kb / 1024 if kb is not None else float("nan")


def echo_message_us(pipelined: bool) -> float:
    """Per request and reply against the echo engine: each sent when the caller asks (the round
    trip), or all planned, so that they go out ahead as a scenario's do."""
    engine = StdioEngine([sys.executable, str(HERE / "echo_engine.py")])
    engine.start()
    try:
        start = time.perf_counter()
        if pipelined:
            engine.plan([("legal", {})] * ECHO_MESSAGES)
        for _ in range(ECHO_MESSAGES):
            engine.legal()
        return (time.perf_counter() - start) / ECHO_MESSAGES * 1e6
    finally:
        engine.close()


def echo_raw_round_trip_us() -> float:
    """The same round trip with no harness at all: write a line, block until a line comes back."""
    proc = subprocess.Popen([sys.executable, str(HERE / "echo_engine.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        out = proc.stdout.fileno()
        start = time.perf_counter()
        for seq in range(ECHO_MESSAGES):
            proc.stdin.write(b'{"seq":%d,"cmd":"legal"}\n' % seq)
            reply = os.read(out, 4096)
            while not reply.endswith(b"\n"):
                reply += os.read(out, 4096)
        return (time.perf_counter() - start) / ECHO_MESSAGES * 1e6
    finally:
        proc.stdin.close()
        proc.wait()


def record_replies(transcript: list[tuple[str, str]], path: Path) -> None:
    replies = []
    for direction, text in transcript:
        if direction == "<":
            reply = orjson.loads(text)
            del reply["seq"]
            replies.append(orjson.dumps(reply).decode())
    path.write_text("\n".join(replies) + "\n", encoding="utf-8")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    corpus = load_corpus()
    _, _, transcript = over_stdio(REFERENCE, corpus, keep=True)  # warm-up, and the replies to replay
    in_process(corpus)
    with tempfile.TemporaryDirectory() as tmp:
        replies = Path(tmp) / "replies.jsonl"
        record_replies(transcript, replies)
        replay = [sys.executable, str(HERE / "replay_engine.py"), str(replies)]
        inproc, stdio, ratio, echo, raw, piped, message, per_echo, per_piped = [], [], [], [], [], [], [], [], []
        for _ in range(args.repeat):
            a = in_process(corpus)
            b = over_stdio(REFERENCE, corpus)[0]
            inproc.append(a)
            stdio.append(b)
            ratio.append(b / a)
            e = echo_message_us(pipelined=False)
            raw.append(echo_raw_round_trip_us())
            p = echo_message_us(pipelined=True)
            piped.append(p)
            r, messages, _ = over_stdio(replay, corpus)
            m = len(corpus) / r / messages * 1e6
            echo.append(e)
            message.append(m)
            per_echo.append(m / e)
            per_piped.append(m / p)
    print(line("scenarios_per_second_in_process", inproc, scenarios=len(corpus), build=BUILD))
    print(line("scenarios_per_second_over_stdio", stdio, scenarios=len(corpus), build=BUILD))
    print(line("stdio_to_in_process", ratio, 2, build=BUILD))
    print(line("echo_round_trip_us", echo, 1))
    print(line("echo_raw_round_trip_us", raw, 1))
    print(line("echo_pipelined_message_us", piped, 1))
    print(line("harness_message_us", message, 1, messages=messages))
    print(line("harness_to_echo", per_echo, 2))
    print(line("harness_to_echo_pipelined", per_piped, 2))
    print(line("peak_rss_mb", ENGINE_PEAK_MB, 1, benchmark="reference-engine-over-stdio", build=BUILD))


if __name__ == "__main__":
    main()
