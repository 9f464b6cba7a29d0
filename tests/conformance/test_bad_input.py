"""Bad input and a hostile environment, command by command: every case ends in a located error
(exit 2) or an honest verdict, never a traceback, a false green, a stale report or a lost one.

Each case here once misbehaved (issue 38): a run that should fail passed, a report was lost or
looked current when it was not, or a bad file or number gave a traceback. The YAML readers are
all fed the same hostile files; saved reports are mutated at random (seeded) and read back by
every command that reads them.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gostop_conformance.harness._cli import main
from gostop_conformance.harness._outputs import claimed_report_dir
from tests.conformance.test_faults import RUNNER
from tests.conformance.test_stdio_harness import CORPUS, FAKE

PYTHON = sys.executable


def engine(mode: str, *extra: str) -> str:
    return " ".join([PYTHON, str(FAKE), mode, *extra])


def usage_error(capsys: pytest.CaptureFixture[str], args: list[str], *expected: str) -> str:
    """`args` end in exit 2, with every `expected` text in the one error line."""
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    for text in expected:
        assert text in err, err
    return err


def subprocess_harness(args: list[str], **kw: object) -> subprocess.Popen[str]:
    return subprocess.Popen([PYTHON, "-c", RUNNER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)  # type: ignore[call-overload]


# ------------------------------------------------------------------ false greens


@pytest.mark.parametrize("command", ["run", "smoke", "support", "fuzz", "profile", "perft"])
def test_an_empty_engine_variable_is_an_error_not_the_bundled_engine(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """GOSTOP_ENGINE="" (a CI secret that did not expand) once ran the reference engine, exit 0."""
    monkeypatch.setenv("GOSTOP_ENGINE", "")
    extra = {"run": ["--no-reports"], "perft": ["--deal", "scenarios/perft/tables.yaml"], "profile": ["--out", str(tmp_path / "p")]}
    usage_error(capsys, [command, *extra.get(command, [])], "$GOSTOP_ENGINE: empty command")


def test_a_closed_stdout_keeps_the_verdict_and_the_reports(root: Path, tmp_path: Path) -> None:
    """`run ... | head -2` under pipefail once exited 0 and wrote no report."""
    out = tmp_path / "r"
    args = ["run", "--scenarios", str(root), "--engine", engine("one_rule_wrong"), "--report-dir", str(out)]
    proc = subprocess.Popen([PYTHON, "-c", RUNNER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # the reader has gone after one line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1, err
    assert "Traceback" not in err and "BrokenPipe" not in err
    footer = json.loads((out / "report.jsonl").read_text().splitlines()[-1])
    assert footer["failed"] == 1 and footer["ok"] is False


def test_summary_of_some_shards_is_not_green(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """2 of 3 shards once said "2 passed", exit 0."""
    for k in (1, 2):
        assert main(["run", "-q", "--scenarios", str(root), "--shard", f"{k}/3", "--report-dir", str(tmp_path / f"s{k}")]) == 0
    capsys.readouterr()
    merged = tmp_path / "merged"
    shards = [str(tmp_path / f"s{k}" / "report.jsonl") for k in (1, 2)]
    assert main(["summary", *shards, "--scenarios", str(root), "--report-dir", str(merged)]) == 1
    out = capsys.readouterr().out
    assert "NOT GREEN: no report for shard 3/3" in out
    lines = [json.loads(line) for line in (merged / "report.jsonl").read_text().splitlines()]
    assert {r["id"]: r["outcome"] for r in lines if r["record"] == "scenario"}["harness-plain"] == "NOT_RUN"
    assert lines[-1]["complete"] is False and lines[-1]["ok"] is False
    # all three: green again; one shard twice, or a shard beside an unsharded run: refused
    assert main(["run", "-q", "--scenarios", str(root), "--shard", "3/3", "--report-dir", str(tmp_path / "s3")]) == 0
    assert main(["summary", *shards, str(tmp_path / "s3" / "report.jsonl"), "--scenarios", str(root)]) == 0
    capsys.readouterr()
    usage_error(capsys, ["summary", shards[0], shards[0], "--scenarios", str(root)], "shard 1/3 is also")
    assert main(["run", "-q", "--scenarios", str(root), "--report-dir", str(tmp_path / "all")]) == 0
    usage_error(capsys, ["summary", shards[0], str(tmp_path / "all" / "report.jsonl"), "--scenarios", str(root)], "it is not a shard")


def test_an_interrupted_run_never_gets_a_green_badge(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "-q", "--scenarios", str(root), "--report-dir", str(tmp_path / "r")]) == 0
    report = tmp_path / "r" / "report.jsonl"
    lines = report.read_text().splitlines()
    footer = json.loads(lines[-1])
    footer.update(ok=False, complete=False)
    report.write_text("\n".join([*lines[:-1], json.dumps(footer)]) + "\n")
    assert main(["report", str(report), "--out", str(tmp_path / "c")]) == 0
    badge = next((tmp_path / "c" / "badges").glob("*.svg")).read_text()
    assert "#4c1" not in badge and "interrupted" in badge
    assert "interrupted" in (tmp_path / "c" / "index.html").read_text()


# ------------------------------------------------------------------ the report folder


def test_the_report_folder_is_emptied_before_the_corpus_loads(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    assert main(["run", "-q", "--scenarios", str(root), "--report-dir", str(out)]) == 0
    assert (out / "report.jsonl").exists()
    (root / "harness" / "broken.yaml").write_text("scenarios: [\n")
    usage_error(capsys, ["run", "--scenarios", str(root), "--report-dir", str(out)], "broken.yaml")
    assert not (out / "report.jsonl").exists(), "the previous run's green report looks current"


def test_a_second_run_into_a_busy_report_folder_is_refused(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    with claimed_report_dir("--report-dir", out):
        usage_error(capsys, ["run", "--scenarios", str(root), "--report-dir", str(out)], "another run", "is writing its reports")
    assert main(["run", "-q", "--scenarios", str(root), "--report-dir", str(out)]) == 0


def test_a_full_disk_prints_the_verdict_and_fails(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The junit report lands on /dev/full (ENOSPC): the verdict is printed, the run fails, and
    the reports written whole stay whole."""
    out = tmp_path / "r"
    out.mkdir()
    (out / ".junit.xml.partial").symlink_to("/dev/full")
    assert main(["run", "-q", "--scenarios", str(root), "--report-dir", str(out)]) == 1
    captured = capsys.readouterr()
    assert "3 passed, 0 failed" in captured.out
    assert "the reports could not all be written" in captured.err and "No space left on device" in captured.err
    assert "Traceback" not in captured.err
    assert json.loads((out / "report.jsonl").read_text().splitlines()[-1])["ok"] is True
    assert not (out / "junit.xml").exists()


@pytest.mark.parametrize("trial", range(4))
def test_a_signal_at_a_random_time_leaves_no_stale_report(trial: int, root: Path, tmp_path: Path) -> None:
    """SIGTERM or SIGINT at a random moment of a run (seeded): the previous run's report never
    survives as if current; what is there is this run's, marked incomplete unless it finished."""
    out = tmp_path / "r"
    assert main(["run", "-q", "--scenarios", str(root), "--report-dir", str(out)]) == 0
    rng = random.Random(trial)
    delay, signum = rng.uniform(0.0, 1.5), rng.choice([signal.SIGTERM, signal.SIGINT])
    stale = (out / "report.jsonl").read_text()
    proc = subprocess_harness(["run", "-q", "--scenarios", str(root), "--engine", engine("slow_start", "0.5"), "--report-dir", str(out)])
    # the interpreter's own start (before any of the harness runs) is the one moment a signal
    # kills it outright; from its first import on, the earlier reports are gone
    deadline = time.monotonic() + 10
    while (out / "report.jsonl").exists() and (out / "report.jsonl").read_text() == stale and time.monotonic() < deadline:
        time.sleep(0.005)
    assert not (out / "report.jsonl").exists() or (out / "report.jsonl").read_text() != stale
    time.sleep(delay)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert proc.returncode in (0, 1, 128 + signum), err
    report = out / "report.jsonl"
    if report.exists():
        assert report.read_text() != stale
        footer = json.loads(report.read_text().splitlines()[-1])
        assert footer["complete"] == (proc.returncode in (0, 1))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_before_the_earlier_reports_are_gone_is_held_until_they_are(signum: int, root: Path, tmp_path: Path) -> None:
    """The first moment of the command (issue 38): a signal that lands before the report folder is
    emptied is taken only once it is, so the last run's green reports never outlive a stopped run."""
    out = tmp_path / "r"
    assert main(["run", "-q", "--scenarios", str(root), "--report-dir", str(out)]) == 0
    program = f"""
import os, signal, sys
from gostop_conformance.harness import _entry
emptied = _entry._invalidate_reports
def signalled_first(argv):
    os.kill(os.getpid(), {int(signum)})  # lands now, before the folder is emptied
    emptied(argv)
_entry._invalidate_reports = signalled_first
sys.exit(_entry.main(["run", "-q", "--scenarios", {str(root)!r}, "--report-dir", {str(out)!r}]))
"""
    done = subprocess.run([PYTHON, "-c", program], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 128 + signum, done.stderr
    assert "interrupted" in done.stderr and "Traceback" not in done.stderr
    assert not (out / "report.jsonl").exists()


def test_ctrl_c_during_the_handshake_ends_the_run_at_once(root: Path, tmp_path: Path) -> None:
    """SIGINT while waiting for a hello that never comes was ignored until the startup timeout."""
    out = tmp_path / "r"
    args = ["run", "-q", "--scenarios", str(root), "--engine", engine("slow_start", "60"), "--report-dir", str(out)]
    proc = subprocess_harness([*args, "--startup-timeout", "50"])
    deadline = time.monotonic() + 30
    while (
        not _running(f"^{re.escape(PYTHON)} {re.escape(str(FAKE))} slow_start 60") and time.monotonic() < deadline
    ):  # waiting for its hello
        time.sleep(0.05)
    time.sleep(0.2)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - start < 10
    assert proc.returncode == 130 and "Traceback" not in err, err
    records = [json.loads(line) for line in (out / "report.jsonl").read_text().splitlines()]
    assert {r["outcome"] for r in records if r["record"] == "scenario"} == {"NOT_RUN"}


def _running(marker: str) -> bool:
    return bool(subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False).stdout.split())


# ------------------------------------------------------------------ saved reports, mutated


def _mutations(lines: list[str], rng: random.Random) -> list[str]:
    """One report with one mutation: a value replaced by another JSON type, a field removed, a
    line dropped, doubled or cut, a value nested deep, or a line that is not JSON."""
    out = list(lines)
    k = rng.randrange(len(out))
    kind = rng.randrange(7)
    if kind == 0:
        del out[k]
    elif kind == 1:
        out.insert(k, out[k])
    elif kind == 2:
        out[k] = out[k][: rng.randrange(len(out[k]))]
    elif kind == 3:
        out[k] = "[" * 5000 + "]" * 5000
    elif kind == 4:
        out[k] = rng.choice(["NaN", "1e999", "\x00", "{}", "[]", '"x"', "9" * 5000])
    else:
        item = json.loads(out[k])
        key = rng.choice(sorted(item))
        if kind == 5:
            del item[key]
        else:
            item[key] = rng.choice([None, 7, -1, 1.5, "x", [], {}, [[[]]], {"a": {"b": []}}, True])
        out[k] = json.dumps(item)
    return out


def test_mutated_saved_reports_are_located_errors_for_every_reader(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "-q", "--scenarios", str(root), "--engine", engine("one_rule_wrong"), "--report-dir", str(tmp_path / "r")]) == 1
    lines = (tmp_path / "r" / "report.jsonl").read_text().splitlines()
    capsys.readouterr()
    rng = random.Random(38)
    path = tmp_path / "m" / "report.jsonl"
    path.parent.mkdir()
    for trial in range(60):
        path.write_text("\n".join(_mutations(lines, rng)) + "\n")
        for args in (
            ["summary", str(path), "--scenarios", str(root)],
            ["report", str(path), "--out", str(tmp_path / "c")],
            ["ledger", str(path)],
        ):
            code = main(args)  # an exception here fails the test
            err = capsys.readouterr().err
            assert code in (0, 1, 2), (trial, args)
            if code == 2:
                assert str(path) in err, (trial, err)


# ------------------------------------------------------------------ every YAML reader, one set of hostile files

HOSTILE_YAML = {
    "cycle": "x: &a [*a]\n",
    "binary": "x: !!binary aGVsbG8=\n",
    "set": "x: !!set {a, b}\n",
    "timestamp": "x: 2001-12-14t21:59:43.10-05:00\n",
    "integer-key": "1: a\n",
    "huge-integer": "x: " + "9" * 5000 + "\n",
    "deep": "x: " + "[" * 5000 + "]" * 5000 + "\n",
    "not-utf8": b"x: \xff\xfe\n",
    "python-object": "x: !!python/object:os.system {}\n",
}


def _hostile(folder: Path, name: str, kind: str) -> Path:
    path = folder / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    else:
        text = HOSTILE_YAML[kind]
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


KINDS = [*HOSTILE_YAML, "fifo", "dev-zero"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("reader", ["scenarios", "ledger", "dependencies", "perft"])
def test_every_yaml_reader_refuses_hostile_files_naming_them(
    reader: str, kind: str, root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = time.monotonic()
    if reader == "scenarios":
        path = _hostile(root / "harness", "hostile.yaml", kind)
        args = ["run", "--scenarios", str(root), "--no-reports"]
    elif reader == "ledger":
        path = _hostile(tmp_path, "ledger.yaml", kind)
        args = ["run", "--scenarios", str(root), "--no-reports", "--known-failures", str(path)]
    elif reader == "dependencies":
        path = _hostile(root, "dependencies.yaml", kind)
        args = ["run", "--scenarios", str(root), "--no-reports"]
    else:
        path = _hostile(tmp_path, "perft.yaml", kind)
        args = ["perft", "--deal", str(path), "--depth", "1"]
    usage_error(capsys, args, path.name)
    assert time.monotonic() - start < 20


# ------------------------------------------------------------------ numbers, names and files on the command line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["lint", "--jobs", "-1"], "--jobs: expected 0 (every core) or 1 to"),
        (["dependencies", "--jobs", "1000000"], "--jobs: expected 0 (every core) or 1 to"),
        (["fuzz", "--engine", "true", "--jobs", "1000"], "--jobs: expected 0 (every core) or 1 to"),
        (["support", "--top", "-5"], "--top: expected a number of lines from 1 to"),
        (["mutants", "--min-kill-rate", "nan"], "--min-kill-rate: expected a fraction from 0 to 1, got nan"),
        (["mutants", "--min-kill-rate", "2"], "--min-kill-rate: expected a fraction from 0 to 1"),
        (["perft", "--deal", "scenarios/perft/tables.yaml", "--depth", "1000000"], "--depth: expected a number of plies from 1 to"),
        (["run", "--no-reports", "--ruleset", "matgo-9p"], "--ruleset: unknown value 'matgo-9p'; expected one of beginner-blog-2p"),
        (["fuzz", "--engine", "true", "--ruleset", "matgo-9p"], "--ruleset: unknown ruleset 'matgo-9p'"),
        (["run", "--no-reports", "--area", "capturing"], "--area: unknown value 'capturing'"),
        (["run", "--no-reports", "--clause", "R-NOPE"], "--clause: unknown value 'R-NOPE'"),
        (["support", "--ruleset", "matgo-9p", "--hello", "x.json"], "--ruleset: unknown value 'matgo-9p'"),
        (["profile", "--engine", "true", "--base", "matgo-9p"], "--base: unknown ruleset 'matgo-9p'"),
        (["fuzz", "--engine", "true", "--games", str(2**63)], "--games: expected a number of rounds from 1 to"),
    ],
)
def test_bad_numbers_and_names_are_usage_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    usage_error(capsys, args, message)


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["fuzz", "--engine", "true", "--out"], "--out"),
        (["profile", "--engine", "true", "--out"], "--out"),
        (["coverage", "--markdown"], "--markdown"),
        (["mutants", "--mutant", "ppeok-never", "--markdown"], "--markdown"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_the_work(
    command: list[str], option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """fuzz once fuzzed for minutes and then lost every divergence to an unwritable --out."""
    (tmp_path / "file").write_text("a file, not a folder")
    start = time.monotonic()
    err = usage_error(capsys, [*command, str(tmp_path / "file" / "inner")], f"{option}: ")
    assert "cannot write into" in err or "is a file, not a folder" in err
    assert time.monotonic() - start < 10


def test_unwritable_report_and_ledger_outputs_are_usage_errors(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "-q", "--scenarios", str(root), "--engine", engine("one_rule_wrong"), "--report-dir", str(tmp_path / "r")]) == 1
    (tmp_path / "file").write_text("")
    saved = str(tmp_path / "r" / "report.jsonl")
    usage_error(capsys, ["report", saved, "--out", str(tmp_path / "file")], "--out: ", "is a file, not a folder")
    usage_error(capsys, ["ledger", saved, "--out", str(tmp_path / "file" / "l.yaml")], "--out: ", "is a file, not a folder")


def test_a_deeply_nested_hello_file_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hello = tmp_path / "hello.json"
    hello.write_text('{"engine": ' + "[" * 100_000 + "]" * 100_000 + "}")
    usage_error(capsys, ["support", "--hello", str(hello)], str(hello), "nests deeper than")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"jjok_stael": [1]}, "unknown option 'jjok_stael'"),
        ({"jjok_steal": [[1, 2]]}, "[1, 2] is not a value of jjok_steal"),
        ({"jjok_steal": [{"a": 1}]}, "is not a value of jjok_steal"),
        ({"bonus_cards": [[9, 9]]}, "is not a value of bonus_cards"),
    ],
)
def test_a_bad_option_or_value_in_dependencies_yaml_is_located(
    entry: dict[str, object], message: str, root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps({"schema_version": 1, "scenarios": {"harness-jjok": {"digest": "0", "depends": entry}}})
    (root / "dependencies.yaml").write_text(text)
    usage_error(capsys, ["run", "--scenarios", str(root), "--no-reports"], "dependencies.yaml:1", "harness-jjok", message)


def test_an_error_in_a_ruleset_file_is_blamed_on_that_file(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken spec ruleset was once blamed on the first scenario that used it."""
    from gostop_conformance.harness import _scenarios
    from gostop_conformance.spec import InputError

    def broken(ruleset_id: str) -> object:
        raise InputError("spec/rulesets/matgo-2p.yaml:7", "invalid YAML: did not find expected node content")

    monkeypatch.setattr(_scenarios, "load_ruleset", broken)
    err = usage_error(capsys, ["run", "--scenarios", str(root), "--no-reports"], "spec/rulesets/matgo-2p.yaml:7: invalid YAML")
    assert "h.yaml" not in err


# ------------------------------------------------------------------ what an engine says, on a terminal

HOSTILE_TEXT = "X\x1b[2J\x1b]0;owned\x07\x1b]52;c;cHduZWQ=\x07\x1b]8;;http://x\x07link\x1b]8;;\x07\r\x9b31m\u202e\n874 passed, 0 failed"


def test_engine_text_reaches_the_terminal_escaped(root: Path, tmp_path: Path) -> None:
    """The engine's name, version and language, and its error messages, once reached the terminal
    raw: a screen clear, a window title, an OSC 52 clipboard write, a hyperlink, and a forged
    "874 passed" line."""
    declaration = json.dumps({"engine": {"name": HOSTILE_TEXT, "version": HOSTILE_TEXT, "language": HOSTILE_TEXT}})
    for fake in (engine("declares", f"'{declaration}'"), engine("nasty")):
        args = ["run", "--scenarios", str(root), "--engine", fake, "--report-dir", str(tmp_path / "r")]
        proc = subprocess.run([PYTHON, "-c", RUNNER, *args], capture_output=True, text=True, timeout=120, check=False)
        for stream in (proc.stdout, proc.stderr):
            assert not any(c in stream for c in "\x1b\x07\r\x9b\u202e\x00"), stream
            assert not any(line.startswith("874 passed") for line in stream.splitlines()), stream
        summary = (tmp_path / "r" / "summary.md").read_text()
        assert "\x1b" not in summary and "\x07" not in summary


def test_area_folder_names_are_escaped_in_summary_md(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    area = tmp_path / "scenarios" / "a|b<script>"
    area.mkdir(parents=True)
    (area / "h.yaml").write_text(CORPUS)
    assert main(["run", "-q", "--scenarios", str(tmp_path / "scenarios"), "--report-dir", str(tmp_path / "r")]) == 0
    summary = (tmp_path / "r" / "summary.md").read_text()
    assert "| a\\|b&lt;script&gt; |" in summary and "<script>" not in summary


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_disk_under_an_output_is_said_and_fails(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """/dev/full takes nothing: each command says which output could not be written, exits 1,
    and leaves the device as it was (issue 38: ledger, coverage, mutants wrote with a traceback)."""
    out = tmp_path / "r"
    assert main(["run", "-q", "--scenarios", str(root), "--report-dir", str(out)]) == 0
    for args, flag in [
        (["ledger", str(out / "report.jsonl"), "--out", "/dev/full"], "--out"),
        (["coverage", "--markdown", "/dev/full"], "--markdown"),
        (["mutants", "--mutant", "ppeok-never", "--markdown", "/dev/full"], "--markdown"),
    ]:
        capsys.readouterr()
        assert main(args) == 1, args
        err = capsys.readouterr().err
        assert f"{flag} /dev/full could not be written: No space left on device" in err, err
        assert Path("/dev/full").is_char_device()


def test_smoke_shows_the_engine_s_stderr_escaped_and_indented(tmp_path: Path) -> None:
    """A screen clear, a window title and a forged verdict line on the engine's stderr reach the
    terminal as text, each line indented (issue 38: smoke printed them raw)."""
    start = tmp_path / "evil.sh"
    start.write_text('#!/bin/sh\nprintf "\\033[2J\\033]0;TITLE\\007\\n874 passed, 0 failed\\n" >&2\nexit 3\n', encoding="utf-8")
    start.chmod(0o755)
    done = subprocess.run(
        [str(Path(PYTHON).with_name("gostop-conformance")), "smoke", "--engine", str(start)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout, done.stdout
    assert "\\x1b[2J" in done.stdout
    assert not any(line.startswith("874 passed") for line in done.stdout.splitlines()), done.stdout
