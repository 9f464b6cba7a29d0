"""Run-level features: ledger (XFAIL / XPASS / stale, --strict), shards, parallel jobs, reports
and reproducer folders, exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gostop_conformance.harness._cli import main
from tests.conformance.test_faults import RUNNER
from tests.conformance.test_stdio_harness import CORPUS, FAKE


def cli(*args: str) -> int:
    return main(["run", "-q", *args])


def test_reports_are_written_and_deterministic(root: Path, tmp_path: Path) -> None:
    out1, out2 = tmp_path / "r1", tmp_path / "r2"
    assert cli("--scenarios", str(root), "--report-dir", str(out1)) == 0
    assert cli("--scenarios", str(root), "--report-dir", str(out2)) == 0
    for name in ("report.jsonl", "junit.xml", "summary.md"):
        assert (out1 / name).read_bytes() == (out2 / name).read_bytes()
    lines = [json.loads(x) for x in (out1 / "report.jsonl").read_text().splitlines()]
    assert lines[0]["record"] == "header" and lines[-1]["record"] == "footer"
    assert lines[-1]["counts"] == {"PASS": 3} and lines[-1]["complete"] is True
    assert set(lines[0]["ruleset_hashes"]) == {"matgo-2p", "standard-3p"}


def test_failure_writes_a_reproducer(root: Path, tmp_path: Path) -> None:
    engine = f"{sys.executable} {FAKE} one_rule_wrong"
    out = tmp_path / "r"
    assert cli("--scenarios", str(root), "--engine", engine, "--report-dir", str(out)) == 1
    repro = out / "repro" / "harness-jjok"
    assert sorted(p.name for p in repro.iterdir()) == [
        "replay.html",
        "replay.sh",
        "result.txt",
        "scenario.yaml",
        "stderr.txt",
        "transcript.jsonl",
    ]
    lines = [json.loads(line) for line in (repro / "transcript.jsonl").read_text().splitlines()]  # JSON Lines
    assert lines[0]["to"] == "engine" and lines[0]["message"]["cmd"] == "new_game"
    assert lines[1]["to"] == "harness" and "state" in lines[1]["message"]
    assert all(set(line) == {"to", "message"} for line in lines)
    assert '--scenarios "$here"' in (repro / "replay.sh").read_text()  # the scenario.yaml beside it
    junit = (out / "junit.xml").read_text()
    assert 'failures="1"' in junit and "<failure" in junit
    summary = (out / "summary.md").read_text()
    # the steal's junk is named by units: any single junk would do (R-STEAL, docs/scenario-format.md)
    problem = (
        "step 1 (P0 play card=m09-junk-1): captured[0]: 3 cards expected, 2 reported; missing 1 single junk; "
        "junk of any month compared by units (R-STEAL) (+1 more)"
    )
    assert f"| `harness-jjok`: jjok | FAIL | R-JJOK (Jjok (kiss)) | {problem} |" in summary
    assert "| R-JJOK | Jjok (kiss) | 1 | 1 |" in summary


def test_the_replay_script_works_from_any_directory(root: Path, tmp_path: Path) -> None:
    engine = f"{sys.executable} {FAKE} one_rule_wrong"
    out = tmp_path / "r"
    assert cli("--scenarios", str(root), "--engine", engine, "--report-dir", str(out)) == 1
    script = out / "repro" / "harness-jjok" / "replay.sh"
    proc = subprocess.run([str(script)], check=False, cwd="/", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert re.search(r"^FAIL harness-jjok$", proc.stdout, re.M) and "0 passed, 1 failed" in proc.stdout


def test_a_run_leaves_no_earlier_report_behind(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert cli("--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} one_rule_wrong", "--report-dir", str(out)) == 1
    (out / "mine.txt").write_text("not the harness's")
    assert (out / "repro" / "harness-jjok").is_dir()
    assert cli("--scenarios", str(root), "--report-dir", str(out)) == 0
    assert not (out / "repro").exists() and (out / "mine.txt").exists()


def test_a_handshake_failure_writes_failing_reports(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An earlier run's green junit.xml must not be what CI publishes after a handshake failure."""
    out = tmp_path / "r"
    assert cli("--scenarios", str(root), "--report-dir", str(out)) == 0
    assert cli("--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} crash_at_start", "--report-dir", str(out)) == 1
    captured = capsys.readouterr()
    assert "the engine failed its handshake" in captured.err and "refusing to start" in captured.out
    junit = (out / "junit.xml").read_text()
    # the handshake is an error of its own, and each of the 3 selected scenarios has an outcome too
    assert 'name="handshake"' in junit and 'errors="4"' in junit and 'tests="4"' in junit and "refusing to start" in junit
    records = [json.loads(line) for line in (out / "report.jsonl").read_text().splitlines()]
    assert [r["outcome"] for r in records if r["record"] == "scenario"] == ["CRASH"] * 3
    assert records[-1]["ok"] is False and "handshake" in records[-1]["aborted"]
    assert not (out / "repro").exists()
    assert "Not green" in (out / "summary.md").read_text()


def test_known_failures_ledger(root: Path, tmp_path: Path) -> None:
    engine = f"{sys.executable} {FAKE} one_rule_wrong"
    ledger = tmp_path / "known.yaml"
    ledger.write_text("known_failures:\n  - {id: harness-jjok, reason: 'no jjok steal yet', link: 'https://example.invalid/1'}\n")
    assert cli("--scenarios", str(root), "--engine", engine, "--known-failures", str(ledger), "--no-reports") == 0
    # the reference engine passes it: an unexpected pass, which fails only under --strict
    assert cli("--scenarios", str(root), "--known-failures", str(ledger), "--no-reports") == 0
    assert cli("--scenarios", str(root), "--known-failures", str(ledger), "--no-reports", "--strict") == 1
    # an unexpected pass gets a reproducer with the whole exchange, in process and over stdio
    reference = f"{sys.executable} -m gostop_conformance.reference --stdio"
    for name, extra in (("xpass-in-process", ()), ("xpass-stdio", ("--engine", reference))):
        out = tmp_path / name
        assert cli("--scenarios", str(root), *extra, "--known-failures", str(ledger), "--report-dir", str(out)) == 0
        lines = (out / "repro" / "harness-jjok" / "transcript.jsonl").read_text().splitlines()
        assert [json.loads(line)["to"] for line in lines[:2]] == ["engine", "harness"] and '"new_game"' in lines[0]
    stale = tmp_path / "stale.yaml"
    stale.write_text("known_failures:\n  - {id: no-such-scenario, reason: gone}\n")
    assert cli("--scenarios", str(root), "--known-failures", str(stale), "--no-reports") == 0
    assert cli("--scenarios", str(root), "--known-failures", str(stale), "--no-reports", "--strict") == 1


def test_bad_ledger_is_a_usage_error(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ledger = tmp_path / "known.yaml"
    ledger.write_text("known_failures:\n  - {id: harness-jjok}\n")
    assert cli("--scenarios", str(root), "--known-failures", str(ledger), "--no-reports") == 2
    assert "known.yaml:2 at known_failures[0]: expected {id:" in capsys.readouterr().err


def test_shards_partition_the_selection(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen = []
    for k in (1, 2):
        assert main(["run", "--scenarios", str(root), "--shard", f"{k}/2", "--no-reports"]) == 0
        seen += [line.split()[1] for line in capsys.readouterr().out.splitlines() if line.startswith("PASS ")]
    assert sorted(seen) == ["harness-jjok", "harness-plain", "harness-trigger"]
    assert main(["run", "--scenarios", str(root), "--shard", "3/2"]) == 2


def test_parallel_jobs_give_the_same_report(root: Path, tmp_path: Path) -> None:
    engine = f"{sys.executable} -m gostop_conformance.reference --stdio"
    assert cli("--scenarios", str(root), "--engine", engine, "--report-dir", str(tmp_path / "a")) == 0
    assert cli("--scenarios", str(root), "--engine", engine, "--jobs", "2", "--report-dir", str(tmp_path / "b")) == 0
    assert (tmp_path / "a" / "report.jsonl").read_bytes() == (tmp_path / "b" / "report.jsonl").read_bytes()


def test_unsupported_is_not_a_failure(root: Path, tmp_path: Path) -> None:
    # this fake claims every ruleset whole and no other option value: a scenario whose outcome
    # needs jjok_steal = 2 (two junk surrendered for the jjok) is UNSUPPORTED, and says why
    text = CORPUS.replace(
        "    ruleset: matgo-2p\n    deal:\n      hands: [[m09-junk-1, m01-bright], [m02-junk-1]]",
        "    ruleset: matgo-2p\n    options: {jjok_steal: 2}\n    deal:\n      hands: [[m09-junk-1, m01-bright], [m02-junk-1]]",
    ).replace(
        "      captured: [[], [m04-junk-1]]\n    steps:\n      - act: {type: play, player: 0, card: m09-junk-1}\n        expect:\n"
        "          captured: [[m09-junk-1, m09-junk-2, m04-junk-1], []]",
        "      captured: [[], [m04-junk-1, m04-junk-2]]\n    steps:\n"
        "      - act: {type: play, player: 0, card: m09-junk-1}\n        expect:\n"
        "          captured: [[m09-junk-1, m09-junk-2, m04-junk-1, m04-junk-2], []]",
    )
    assert text.count("jjok_steal: 2") == 1 and text.count("m04-junk-2") == 2
    (root / "harness" / "h.yaml").write_text(text)
    engine = f"{sys.executable} {FAKE} undeclared_options"
    assert cli("--scenarios", str(root), "--engine", engine, "--report-dir", str(tmp_path / "r")) == 0
    records = [json.loads(x) for x in (tmp_path / "r" / "report.jsonl").read_text().splitlines()]
    assert records[-1]["counts"] == {"PASS": 2, "UNSUPPORTED": 1}
    [unsupported] = [r for r in records if r.get("outcome") == "UNSUPPORTED"]
    assert unsupported["id"] == "harness-jjok" and "jjok_steal = 2" in unsupported["reason"]
    assert unsupported["needs"][0]["option"] == "jjok_steal" and unsupported["needs"][0]["declared"] == [1]


def test_handshake_failure_exit_code(root: Path) -> None:
    assert cli("--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} crash_at_start", "--no-reports") == 1


def test_usage_errors(root: Path) -> None:
    assert cli("--scenarios", str(root), "--id", "nothing-like-this") == 2
    assert cli("--scenarios", str(root), "--engine", "   ") == 2


def test_determinism_check(root: Path) -> None:
    assert cli("--scenarios", str(root), "--check-determinism", "--no-reports") == 0
    engine = f"{sys.executable} {FAKE} nondeterministic"
    assert cli("--scenarios", str(root), "--engine", engine, "--check-determinism", "--no-reports") == 1


def test_interrupted_run_still_writes_its_report(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gostop_conformance.harness._harness as harness

    real = harness.run_one
    calls = {"n": 0}

    def interrupt_on_second(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(harness, "run_one", interrupt_on_second)
    out = tmp_path / "r"
    assert cli("--scenarios", str(root), "--report-dir", str(out)) == 130  # an interrupt: 128 + SIGINT, not a failure
    footer = json.loads((out / "report.jsonl").read_text().splitlines()[-1])
    assert footer["complete"] is False and footer["counts"].get("NOT_RUN", 0) >= 1


def test_any_pipeline_depth_gives_the_same_report(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--pipeline changes when requests are written, never the outcomes (a reproducer's transcript
    may show requests sent ahead of a failure)."""
    engine = f"{sys.executable} -m gostop_conformance.reference --stdio"
    for depth in ("0", "1", "32"):
        assert cli("--scenarios", str(root), "--engine", engine, "--pipeline", depth, "--report-dir", str(tmp_path / depth)) == 0
    assert (tmp_path / "0" / "report.jsonl").read_bytes() == (tmp_path / "1" / "report.jsonl").read_bytes()
    assert (tmp_path / "0" / "report.jsonl").read_bytes() == (tmp_path / "32" / "report.jsonl").read_bytes()
    wrong = f"{sys.executable} {FAKE} one_rule_wrong"  # a failure in the middle of what went out ahead
    for depth in ("0", "32"):
        assert cli("--scenarios", str(root), "--engine", wrong, "--pipeline", depth, "--report-dir", str(tmp_path / f"w{depth}")) == 1
    assert (tmp_path / "w0" / "report.jsonl").read_bytes() == (tmp_path / "w32" / "report.jsonl").read_bytes()
    # and the reproducer's transcript is the same exchange, whatever went out ahead
    failing = sorted(p.name for p in (tmp_path / "w0" / "repro").iterdir())
    assert failing == ["harness-jjok"]
    for name in ("transcript.jsonl", "scenario.yaml"):
        assert (tmp_path / "w0" / "repro" / "harness-jjok" / name).read_bytes() == (
            tmp_path / "w32" / "repro" / "harness-jjok" / name
        ).read_bytes()
    capsys.readouterr()
    assert cli("--scenarios", str(root), "--engine", engine, "--pipeline", "-1", "--no-reports") == 2
    assert "--pipeline: expected 0 to 4096 requests in flight, got -1" in capsys.readouterr().err


def test_a_deal_refused_as_unsupported_is_unsupported_with_the_engines_reason(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert cli("--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} refuses", "--report-dir", str(out)) == 0
    records = [json.loads(x) for x in (out / "report.jsonl").read_text().splitlines()]
    [refused] = [r for r in records if r.get("outcome") == "UNSUPPORTED"]
    assert refused["id"] == "harness-trigger"
    assert refused["reason"] == "the engine refused the deal as unsupported: no bright captures"
    assert records[-1]["checked"] == 2


def test_an_engines_text_never_reaches_a_report_raw(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Escape sequences, NUL, invalid UTF-8, markup and newlines from an engine: junit.xml parses,
    summary.md keeps its table, the console shows the controls instead of obeying them."""
    import xml.etree.ElementTree as ET

    out = tmp_path / "r"
    assert cli("--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} nasty", "--report-dir", str(out)) == 1
    console = capsys.readouterr().out
    assert "\x1b" not in console and "\x00" not in console and "\\x1b" in console
    suite = ET.parse(out / "junit.xml").getroot()
    [error] = suite.iter("error")
    assert "\\x1b" in (error.text or "") and "\\x1b" in error.get("message", "")
    assert "screen cleared" in (next(suite.iter("system-err")).text or "")
    rows = [line for line in (out / "summary.md").read_text().splitlines() if "harness-trigger" in line]
    assert len(rows) == 1 and "<script>" not in rows[0] and rows[0].count(" | ") == 3
    json.loads((out / "report.jsonl").read_text().splitlines()[-1])
    # a lone surrogate is not JSON the harness accepts (PROTOCOL), and its transcript is still written
    out2 = tmp_path / "r2"
    assert cli("--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} surrogate", "--report-dir", str(out2)) == 1
    lines = [json.loads(line) for line in (out2 / "repro" / "harness-trigger" / "transcript.jsonl").read_text().splitlines()]
    assert lines and '"outcome":"PROTOCOL"' in (out2 / "report.jsonl").read_text()


@pytest.mark.parametrize(("signum", "code"), [(15, 143), (2, 130)])
def test_an_interrupted_run_ends_its_engines_and_writes_what_was_decided(root: Path, tmp_path: Path, signum: int, code: int) -> None:
    """SIGTERM (a cancelled CI job) or SIGINT while the engine hangs: the engine is ended at once,
    the reports are written, the scenarios not decided are NOT_RUN (not failures), and the exit
    code is 128 + the signal."""
    import os
    import signal
    import time

    out = tmp_path / "r"
    engine = f"{sys.executable} {FAKE} hang"
    cmd = [
        sys.executable,
        "-m",
        "gostop_conformance.harness",
        "run",
        "--scenarios",
        str(root),
        "--engine",
        engine,
        "--report-dir",
        str(out),
    ]
    proc = subprocess.Popen([*cmd, "--timeout", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = "-"
    while line and "progress: 1/" not in line:  # the first scenario has passed; the second one's engine hangs
        line = proc.stderr.readline()
    assert line, "the run ended before its engine hung"
    start = time.monotonic()
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == code, stderr
    assert time.monotonic() - start < 10 and "Traceback" not in stderr
    records = [json.loads(line) for line in (out / "report.jsonl").read_text().splitlines()]
    outcomes = {r["id"]: r["outcome"] for r in records if r["record"] == "scenario"}
    assert outcomes["harness-jjok"] == "PASS" and outcomes["harness-trigger"] == "NOT_RUN"
    assert records[-1]["complete"] is False and records[-1]["failed"] == 0
    assert "INCOMPLETE" in stdout and not (out / "repro").exists()
    assert 'errors="0"' in (out / "junit.xml").read_text()
    leftover = subprocess.run(["pgrep", "-f", f"{FAKE} hang"], capture_output=True, text=True, check=False).stdout.split()
    assert not [pid for pid in leftover if int(pid) != os.getpid()], "an engine survived the run"
    del signal


@pytest.mark.slow
def test_memory_stays_flat_however_large_the_failing_replies(tmp_path: Path) -> None:
    """Failing scenarios whose every reply carries 2 MB: the harness keeps a bounded part of each
    (the reproducer's transcript lines, the mismatch values), so its peak memory does not grow
    with their number (once: 1.9 GB for 143 such scenarios). What is in flight at once (the
    pipeline) costs the same however many scenarios follow, so 20 and 80 of them are compared."""
    import yaml

    trigger = yaml.safe_load(CORPUS)["scenarios"][1]
    engine = f"{sys.executable} {FAKE} bloat"

    def peak_mb(count: int) -> float:
        root = tmp_path / f"c{count}" / "scenarios"
        (root / "harness").mkdir(parents=True)
        copies = [{**trigger, "id": f"bloat-{i:03d}"} for i in range(count)]
        (root / "harness" / "h.yaml").write_text(yaml.safe_dump({"schema_version": 1, "scenarios": copies}), encoding="utf-8")
        out = tmp_path / f"c{count}" / "r"
        argv = ["run", "-q", "--scenarios", str(root), "--engine", engine, "--report-dir", str(out)]
        proc = subprocess.run([sys.executable, "-c", RUNNER, *argv], capture_output=True, text=True, timeout=600, check=False)
        assert proc.returncode == 1, proc.stderr[-2000:]
        records = [json.loads(line) for line in (out / "report.jsonl").read_text().splitlines()]
        assert sum(r.get("outcome") == "FAIL" for r in records) == count
        assert max(p.stat().st_size for p in out.rglob("transcript.jsonl")) < 1 << 20
        return int(proc.stderr.rsplit("peak-kb", 1)[-1].split()[0]) / 1024

    few, many = peak_mb(20), peak_mb(80)
    # kept bounded: a few MB more for 60 more scenarios; kept whole: about 2 MB more per scenario
    assert many - few < 40, f"the harness grew from {few:.0f} MB to {many:.0f} MB for 60 more failing scenarios"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "known_failures:\n  - {id: a, reason: r}\n  - {id: a, reason: s}\n",
            r"known.yaml:3 at known_failures\[1\]\.id: scenario 'a' is listed twice",
        ),
        ("known_failures:\n  - {id: a, reason: r, linq: x}\n", r"known.yaml:2 at known_failures\[0\]\.linq: unexpected field"),
        ("known_failures:\n  - {id: a, reason: r, link: [x, y]}\n", r"known_failures\[0\]\.link: expected one link \(a string\), got list"),
        ("known_failures: []\nextra: 1\n", "and nothing else"),
        ("known_failures:\n  - {id: a, reason: r}\nknown_failures: []\n", "duplicate key 'known_failures'"),
    ],
)
def test_a_malformed_ledger_names_the_entry(text: str, message: str, tmp_path: Path) -> None:
    from gostop_conformance.harness._harness import load_ledger
    from gostop_conformance.spec import InputError

    path = tmp_path / "known.yaml"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        load_ledger(path)


def test_a_crash_in_the_determinism_replay_is_a_crash_with_its_message(root: Path, tmp_path: Path) -> None:
    """Once reported as a determinism FAIL, the crash message lost."""
    out = tmp_path / "r"
    engine = f"{sys.executable} {FAKE} crash_second_game"
    assert (
        cli("--scenarios", str(root), "--id", "harness-trigger", "--engine", engine, "--check-determinism", "--report-dir", str(out)) == 1
    )
    [record] = [json.loads(line) for line in (out / "report.jsonl").read_text().splitlines() if '"record":"scenario"' in line]
    assert record["outcome"] == "CRASH" and "second run" in record["error"] and "exited" in record["error"]


def test_a_sharded_run_with_a_ledger_is_green_exactly_when_the_whole_run_is(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Entries for scenarios outside a shard or a filter are not stale; an entry for no scenario is,
    and --strict names it."""
    engine = f"{sys.executable} {FAKE} one_rule_wrong"
    ledger = tmp_path / "known.yaml"
    ledger.write_text("known_failures:\n  - {id: harness-jjok, reason: 'no jjok steal yet'}\n")
    common = ["--scenarios", str(root), "--engine", engine, "--known-failures", str(ledger), "--strict", "--no-reports"]
    assert cli(*common) == 0
    assert [cli(*common, "--shard", f"{k}/3") for k in (1, 2, 3)] == [0, 0, 0]
    assert cli(*common, "--id", "harness-plain") == 0
    ledger.write_text(ledger.read_text() + "  - {id: harness-gone, reason: 'renamed'}\n")
    capsys.readouterr()
    assert cli(*common) == 1
    assert [cli(*common, "--shard", f"{k}/3") for k in (1, 2, 3)] == [1, 1, 1]
    out = capsys.readouterr().out
    assert "STALE known failures (1, failing the run (--strict))" in out and "\n  harness-gone\n" in out


def test_the_engine_command_may_come_from_the_environment(root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GOSTOP_ENGINE", f"{sys.executable} {FAKE} one_rule_wrong")
    assert cli("--scenarios", str(root), "--report-dir", str(tmp_path)) == 1  # the fake, not the bundled engine
    header = json.loads((tmp_path / "report.jsonl").read_text().splitlines()[0])
    assert header["engine_command"][-1] == "one_rule_wrong"


def test_shards_merge_into_the_report_of_the_whole_run(root: Path, tmp_path: Path) -> None:
    engine = f"{sys.executable} {FAKE} one_rule_wrong"
    whole = tmp_path / "whole"
    assert cli("--scenarios", str(root), "--engine", engine, "--report-dir", str(whole)) == 1
    shards = []
    for k in (1, 2, 3):
        folder = tmp_path / f"shard{k}"
        cli("--scenarios", str(root), "--engine", engine, "--shard", f"{k}/3", "--report-dir", str(folder))
        shards.append(str(folder / "report.jsonl"))
    merged = tmp_path / "merged"
    assert main(["summary", *shards, "--scenarios", str(root), "--report-dir", str(merged)]) == 1
    mine = [json.loads(line) for line in (merged / "report.jsonl").read_text().splitlines()]
    theirs = [json.loads(line) for line in (whole / "report.jsonl").read_text().splitlines()]
    assert [(r["id"], r["outcome"]) for r in mine[1:-1]] == [(r["id"], r["outcome"]) for r in theirs[1:-1]]
    assert {k: mine[-1][k] for k in ("counts", "failed", "checked", "ok")} == {
        k: theirs[-1][k] for k in ("counts", "failed", "checked", "ok")
    }
    assert main(["summary", shards[0], shards[0], "--scenarios", str(root)]) == 2  # a scenario twice: not shards of one run


def test_a_ledger_written_from_a_run_must_be_filled_in(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = f"{sys.executable} {FAKE} one_rule_wrong"
    assert cli("--scenarios", str(root), "--engine", engine, "--report-dir", str(tmp_path / "r")) == 1
    ledger = tmp_path / "known.yaml"
    assert main(["ledger", str(tmp_path / "r" / "report.jsonl"), "--out", str(ledger)]) == 0
    assert cli("--scenarios", str(root), "--engine", engine, "--known-failures", str(ledger), "--no-reports") == 2
    assert "replace the TODO placeholder" in capsys.readouterr().err
    ledger.write_text(ledger.read_text().replace("TODO: say why this scenario fails", "no jjok steal yet (issue 7)"))
    assert cli("--scenarios", str(root), "--engine", engine, "--known-failures", str(ledger), "--no-reports") == 0


def test_a_saved_report_with_an_unknown_outcome_is_a_usage_error_naming_it(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "saved"
    cli("--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} one_rule_wrong", "--report-dir", str(folder))
    report = folder / "report.jsonl"
    lines = report.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[1])
    record["outcome"] = "PASSED"
    report.write_text("\n".join([lines[0], json.dumps(record), *lines[2:]]) + "\n", encoding="utf-8")
    assert main(["summary", str(report), "--scenarios", str(root)]) == 2
    err = capsys.readouterr().err
    assert f"{report}:2: scenario record, outcome: 'PASSED' is not one of ['PASS', 'FAIL'" in err


def test_a_reproducers_transcript_holds_only_its_own_scenarios_exchanges(tmp_path: Path) -> None:
    """Rounds of the next scenario sent ahead, then read and dropped when a failing multi-round
    scenario left the plan, once opened another scenario's transcript (15 of 1,015 reproducers
    against this mutant): each transcript's first deal must be one its own scenario sends."""
    from gostop_conformance.harness import load_corpus
    from gostop_conformance.harness._steps import scenario_plan

    engine = f"{sys.executable} -m gostop_conformance.mutants first-player-non-dealer"
    out = tmp_path / "r"
    assert cli("--area", "match", "--engine", engine, "--report-dir", str(out)) == 1
    corpus = {sc.id: sc for sc in load_corpus()}
    folders = sorted((out / "repro").iterdir())
    assert len(folders) >= 5
    for folder in folders:
        sent = [json.loads(line)["message"] for line in (folder / "transcript.jsonl").read_text().splitlines()]
        deals = [m["deal"] for m in sent if m.get("cmd") == "new_game"]
        own = [plan[0][1]["deal"] for plan in scenario_plan(corpus[folder.name]) if plan and plan[0][0] == "new_game"]
        assert deals and deals[0] in own, folder.name
