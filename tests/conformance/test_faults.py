"""Fault injection: the harness under every engine fault and bad input we know of.

Each fault runs `gostop-conformance run` in a process of its own against a fake engine
(fakes/fake_engine.py) and must end in bounded time and memory, with the right exit code, an
outcome for every selected scenario, reports that parse, no traceback and no process left.
`pytest tests/conformance/test_faults.py -s` prints one measured line per fault.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gostop_conformance.harness._saved import read
from tests.conformance.test_stdio_harness import CORPUS, FAKE

#: every fault must be decided within this (the run's --timeout is 2 s, --startup-timeout 3 s)
SECONDS: float = 30.0
#: peak resident memory of the harness process, in MB
MEMORY_MB: float = 150.0
#: the harness process, reporting its own peak memory when it ends. Linux carries ru_maxrss across
#: fork and exec, so getrusage would report pytest's own size (CI saw 153 MB for a 50 MB harness);
#: VmHWM in /proc/self/status is the high-water mark of the memory the harness itself mapped.
RUNNER = (
    "import resource, sys\n"
    "from gostop_conformance.harness._entry import main\n"
    "def peak_kb():\n"
    "    try:\n"
    "        with open('/proc/self/status', encoding='ascii') as f:\n"
    "            return next(int(l.split()[1]) for l in f if l.startswith('VmHWM:'))\n"
    "    except (OSError, StopIteration):\n"
    "        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "try:\n"
    "    status = main(sys.argv[1:])\n"
    "finally:\n"
    "    print('peak-kb', peak_kb(), file=sys.stderr)\n"
    "sys.exit(status)\n"
)
IDS = ["harness-jjok", "harness-trigger", "harness-plain"]


@pytest.fixture(scope="module")
def corpus_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("faults") / "scenarios"
    (root / "harness").mkdir(parents=True)
    (root / "harness" / "h.yaml").write_text(CORPUS, encoding="utf-8")
    return root


def harness(args: list[str], tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], float, float]:
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", RUNNER, *args], capture_output=True, text=True, timeout=120, check=False)
    seconds = time.monotonic() - start
    peak = float(proc.stderr.rsplit("peak-kb", 1)[-1].split()[0]) / 1024 if "peak-kb" in proc.stderr else 0.0
    return proc, seconds, peak


def no_process_left(marker: str) -> list[str]:
    found = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False).stdout.split()
    return [pid for pid in found if pid.isdigit()]


#: (fake mode, exit code, outcome of each scenario): the two others pass, or share the fault when it is the whole engine's
FAULTS = [
    ("crash_at_start", 1, {"*": "CRASH"}),
    ("chatty_start", 1, {"*": "PROTOCOL"}),
    ("garbage_start", 1, {"*": "PROTOCOL"}),
    ("crash_mid_game", 1, {"harness-trigger": "CRASH"}),
    ("hang", 1, {"harness-trigger": "TIMEOUT"}),
    ("stubborn", 1, {"harness-trigger": "TIMEOUT"}),
    ("half_line", 1, {"harness-trigger": "TIMEOUT"}),
    ("closes_stdout", 1, {"harness-trigger": "CRASH"}),
    ("double_reply", 1, {"harness-trigger": "PROTOCOL"}),
    ("invalid_json", 1, {"harness-trigger": "PROTOCOL"}),
    ("wrong_seq", 1, {"harness-trigger": "PROTOCOL"}),
    ("huge_line", 1, {"harness-trigger": "PROTOCOL"}),
    ("schema_invalid", 1, {"harness-trigger": "PROTOCOL"}),
    ("surrogate", 1, {"harness-trigger": "PROTOCOL"}),
    ("nasty", 1, {"harness-trigger": "ERROR"}),
    ("liar", 1, {"harness-trigger": "ERROR"}),
    ("refuses", 0, {"harness-trigger": "UNSUPPORTED"}),
    ("lose_card", 1, {"harness-trigger": "FAIL"}),
    ("wrong_score", 1, {"harness-trigger": "FAIL"}),
    ("bloat", 1, {"harness-trigger": "FAIL"}),
    ("orphan", 1, {"harness-trigger": "CRASH"}),
    ("stderr_flood", 0, {}),
    ("segfault_once", 1, {"harness-trigger": "CRASH"}),
    ("error_null", 0, {}),
    ("error_beside_result", 1, {"harness-trigger": "PROTOCOL"}),
    ("deep_error_detail", 1, {"harness-trigger": "FAIL"}),
    ("deep_declaration", 1, {"*": "PROTOCOL"}),
    ("deep_seq", 1, {"harness-trigger": "PROTOCOL"}),
    ("deep_value", 1, {"harness-trigger": "PROTOCOL"}),
    ("setsid_helper", 0, {}),
    ("crash_mid_reply", 1, {"harness-trigger": "CRASH"}),
    ("no_read", 1, {"*": "TIMEOUT"}),
]


@pytest.mark.parametrize(("mode", "code", "outcomes"), FAULTS, ids=[f[0] for f in FAULTS])
def test_a_fault_is_decided_in_bounded_time_and_memory_with_every_report(
    mode: str, code: int, outcomes: dict[str, str], corpus_root: Path, tmp_path: Path
) -> None:
    out = tmp_path / "r"
    marker = f"{FAKE} {mode}"
    extra = [str(tmp_path / "grandchild.pid")] if mode in ("orphan", "setsid_helper", "segfault_once") else []
    engine = " ".join([sys.executable, str(FAKE), mode, *extra])
    args = ["run", "-q", "--scenarios", str(corpus_root), "--engine", engine, "--report-dir", str(out), "--timeout", "2"]
    proc, seconds, peak = harness([*args, "--startup-timeout", "3"], tmp_path)
    print(f"fault {mode}: exit {proc.returncode}, {seconds:.1f} s, {peak:.0f} MB")
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert proc.returncode == code, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert seconds < SECONDS and peak < MEMORY_MB
    # read back as `summary` and `ledger` read it: the schema, and no line nesting past what they take
    saved = read(out / "report.jsonl")
    got = {r["id"]: r["outcome"] for r in saved.records}
    expected = {sid: outcomes.get("*", outcomes.get(sid, "PASS")) for sid in IDS}
    assert got == expected
    ET.parse(out / "junit.xml")
    assert (out / "summary.md").read_text(encoding="utf-8").startswith("## gostop-conformance")
    deadline = time.monotonic() + 5
    while no_process_left(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not no_process_left(marker), f"an engine process survived the run of fault {mode}"
    if mode in ("orphan", "setsid_helper"):  # what the engine started, in its group or a session of its own
        helper = int((tmp_path / "grandchild.pid").read_text())
        while _running(helper) and time.monotonic() < deadline + 5:
            time.sleep(0.1)
        assert not _running(helper), f"the engine's helper {helper} survived the run of fault {mode}"


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie is gone already, waiting for its parent to read its status


#: (file name, text, what the error must say): inputs a user may get wrong; each is exit code 2
BAD_SCENARIOS = [
    ("not-yaml.yaml", "scenarios: [\n", "invalid YAML"),
    ("duplicate-key.yaml", "schema_version: 1\nschema_version: 1\nscenarios: []\n", "duplicate key 'schema_version'"),
    ("no-list.yaml", "schema_version: 1\nscenarios: 3\n", "scenarios"),
    ("unknown-card.yaml", CORPUS.replace("m09-junk-2]", "m09-junk-9]", 1), "is not a card id"),
    ("card-twice.yaml", CORPUS.replace("table: [m03-junk-1]", "table: [m09-junk-1]", 1), "appears twice"),
    ("unknown-field.yaml", CORPUS.replace('title: "jjok"', 'titel: "jjok"', 1), "'titel' was unexpected"),
    ("unknown-ruleset.yaml", CORPUS.replace("ruleset: matgo-2p", "ruleset: matgo-5p", 1), "unknown ruleset 'matgo-5p'"),
    ("bad-option.yaml", CORPUS.replace("ruleset: matgo-2p", "ruleset: matgo-2p\n    options: {jjok_steal: 9}", 1), "jjok_steal"),
    ("duplicate-id.yaml", CORPUS.replace("id: harness-plain", "id: harness-jjok", 1), "duplicate scenario id"),
    ("binary.yaml", "\udcff", "not UTF-8"),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD_SCENARIOS, ids=[b[0] for b in BAD_SCENARIOS])
def test_a_bad_scenario_file_is_a_usage_error_naming_it(name: str, text: str, message: str, tmp_path: Path) -> None:
    root = tmp_path / "scenarios" / "harness"
    root.mkdir(parents=True)
    path = root / name
    if text == "\udcff":
        path.write_bytes(b"\xff\xfe\x00scenarios")
    else:
        path.write_text(text, encoding="utf-8")
    proc, seconds, _ = harness(["run", "--scenarios", str(tmp_path / "scenarios"), "--no-reports"], tmp_path)
    print(f"bad input {name}: exit {proc.returncode}, {seconds:.1f} s: {proc.stderr.splitlines()[0] if proc.stderr else ''}")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert name in proc.stderr and message in proc.stderr


def test_a_bad_hello_declaration_writes_failing_reports(corpus_root: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    declaration = json.dumps(json.dumps({"rulesets": ["matgo-3p"]}))
    args = ["run", "--scenarios", str(corpus_root), "--engine", f"{sys.executable} {FAKE} declares {declaration}", "--report-dir", str(out)]
    proc, _, _ = harness(args, tmp_path)
    assert proc.returncode == 1 and "unknown ruleset 'matgo-3p'" in proc.stderr
    assert '"outcome":"PROTOCOL"' in (out / "report.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("attempt", range(3))
def test_a_crash_in_the_determinism_replay_is_that_scenarios_crash(attempt: int, corpus_root: Path, tmp_path: Path) -> None:
    """The replay of --check-determinism dies: never a PASS, whatever the timing (a restart at the
    next scenario must not hide it)."""
    out = tmp_path / "r"
    engine = f"{sys.executable} {FAKE} crash_in_replay"
    args = ["run", "-q", "--scenarios", str(corpus_root), "--engine", engine, "--report-dir", str(out), "--check-determinism"]
    proc, _, _ = harness([*args, "--timeout", "5"], tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert proc.returncode == 1, proc.stdout[-2000:]
    records = [json.loads(line) for line in (out / "report.jsonl").read_text(encoding="utf-8").splitlines()]
    got = {r["id"]: r["outcome"] for r in records if r["record"] == "scenario"}
    assert got == {"harness-jjok": "PASS", "harness-trigger": "CRASH", "harness-plain": "PASS"}
    trigger = next(r for r in records if r.get("id") == "harness-trigger")
    assert "second run" in trigger["error"] and "139" in trigger["error"]


@pytest.mark.slow
def test_an_engine_crashing_mid_reply_gives_the_same_reports_every_run(tmp_path: Path) -> None:
    """Crashes decided by what the engine was sent (every 37th act of a process, mid-reply) land on
    the same scenarios in every run, pipelined requests and restarts notwithstanding: the
    reports are byte-identical."""
    engine = f"{sys.executable} {FAKE} crash_every 37"
    reports = []
    for attempt in range(2):
        out = tmp_path / f"r{attempt}"
        proc, _, _ = harness(["run", "-q", "--area", "capture", "--engine", engine, "--report-dir", str(out), "--timeout", "5"], tmp_path)
        assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
        assert proc.returncode == 1
        reports.append((out / "report.jsonl").read_bytes())
    assert reports[0] == reports[1]
    records = [json.loads(line) for line in reports[0].decode().splitlines()]
    crashed = [r for r in records if r["record"] == "scenario" and r["outcome"] == "CRASH"]
    assert crashed and all("139" in r["error"] for r in crashed)
