"""The pytest plugin's guards: a corpus that checked nothing is never green, a bad option is a usage
error (never a traceback), an engine that fails its handshake is started once, and nothing the
engine says reaches the terminal raw. Each runs pytest in a subprocess, as a CI job would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from tests.conformance.test_stdio_harness import CORPUS, FAKE

HOSTILE = Path(__file__).parent / "fakes" / "hostile_engine.py"
REFERENCE = f"{sys.executable} -m gostop_conformance.reference --stdio"
#: the fake engine declaring nothing at all: every scenario of the corpus is unsupported
DECLARES_NOTHING = f"{sys.executable} {FAKE} declares " + json.dumps(json.dumps({"rulesets": []}))
#: the fake engine declaring the 2-player ruleset alone: the 3-player scenario is unsupported, the others run
DECLARES_MATGO = f"{sys.executable} {FAKE} declares " + json.dumps(json.dumps({"rulesets": ["matgo-2p"]}))


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest on the three-scenario corpus (and the project's own tests in tmp_path), colours off."""
    root = tmp_path / "scenarios" / "harness"
    root.mkdir(parents=True, exist_ok=True)
    (root / "h.yaml").write_text(CORPUS, encoding="utf-8")
    env = {**os.environ, "PY_COLORS": "0"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-ra", "-p", "no:cacheprovider", "--gostop-scenarios", str(tmp_path / "scenarios"), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


def _project_test(tmp_path: Path) -> None:
    (tmp_path / "test_mine.py").write_text("def test_mine():\n    pass\n", encoding="utf-8")


# ---------------------------------------------------------------- a run that checked nothing


@pytest.mark.parametrize(
    ("args", "summary", "why"),
    [
        (["--gostop-engine", DECLARES_NOTHING], "1 passed, 3 skipped", "3 unsupported: the engine's hello declares none of what they need"),
        (["--gostop-engine", DECLARES_NOTHING, "--gostop-only"], "3 skipped, 1 deselected", "3 unsupported"),
        (["--gostop-engine", REFERENCE, "-k", "mine"], "1 passed, 3 deselected", "3 deselected"),
        (["--gostop-engine", DECLARES_NOTHING, "-n", "2"], "1 passed, 3 skipped", "3 unsupported"),  # judged by xdist's controller
    ],
    ids=["project-tests-pass", "gostop-only", "corpus-deselected", "xdist"],
)
def test_a_corpus_that_checked_nothing_fails_the_session(tmp_path: Path, args: list[str], summary: str, why: str) -> None:
    """An engine whose hello declares nothing once made pytest exit 0 with every scenario skipped:
    a false green for CI. The project's own tests passing does not make the corpus green."""
    _project_test(tmp_path)
    proc = _pytest(tmp_path, *args)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert summary in proc.stdout and "NOT GREEN: nothing was checked" in proc.stdout and why in proc.stdout, out
    assert "a run that checked nothing is never green" in proc.stdout


def test_a_corpus_checked_in_part_or_only_collected_is_not_failed(tmp_path: Path) -> None:
    """One scenario the engine does not declare among others it runs is a green run; so is a
    session that only collects."""
    _project_test(tmp_path)
    proc = _pytest(tmp_path, "--gostop-engine", DECLARES_MATGO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 passed, 1 skipped" in proc.stdout and "2 checked, 1 unsupported" in proc.stdout and "NOT GREEN" not in proc.stdout
    proc = _pytest(tmp_path, "--gostop-engine", DECLARES_NOTHING, "--collect-only")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "NOT GREEN" not in proc.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--gostop-id", "no-such-scenario"], "--gostop-engine: no scenario matches the selection"),
        (["--gostop-scenarios", "no/such/folder"], "no/such/folder: expected a directory of scenario files, but it does not exist"),
        (["--gostop-known-failures", "known.yaml"], "known.yaml:1: expected a mapping with a `known_failures` list"),
    ],
    ids=["no-scenario", "no-folder", "bad-ledger"],
)
def test_a_bad_selection_or_ledger_is_a_usage_error(tmp_path: Path, args: list[str], message: str) -> None:
    """A selection of nothing was a green run of the project's tests alone; a bad ledger was an INTERNALERROR."""
    (tmp_path / "known.yaml").write_text("known_failures: 3\n", encoding="utf-8")
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, *args)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 4, out
    assert message in proc.stderr and "INTERNALERROR" not in out, out


# ---------------------------------------------------------------- options checked up front


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (f"{sys.executable} 'x", "--gostop-engine: cannot split"),
        ("", "--gostop-engine: empty command"),
        ("   ", "--gostop-engine: empty command"),
        ("./no/such/engine --stdio", "--gostop-engine: ./no/such/engine does not exist"),
        (f"{__file__} --stdio", f"--gostop-engine: {__file__} is not an executable file"),
        (str(Path(__file__).parent), "is not an executable file"),
        ("no-such-engine-anywhere --stdio", "--gostop-engine: cannot find 'no-such-engine-anywhere': it is not on PATH"),
    ],
    ids=["unbalanced-quote", "empty", "blank", "missing", "not-executable", "directory", "not-on-path"],
)
def test_an_engine_command_that_cannot_run_is_a_usage_error(tmp_path: Path, command: str, message: str) -> None:
    """An unbalanced quote was an INTERNALERROR traceback; an empty command left the plugin off."""
    proc = _pytest(tmp_path, f"--gostop-engine={command}")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 4, out
    assert message in proc.stderr and "INTERNALERROR" not in out and "Traceback" not in out


SECONDS = "expected a number of seconds above 0 and at most 86400"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        *(
            ("--gostop-timeout", v, f"--gostop-timeout: {SECONDS}, got {v}")
            for v in ("nan", "inf", "-inf", "0.0", "-1.0", "86401.0", "1e+300")
        ),
        ("--gostop-startup-timeout", "nan", f"--gostop-startup-timeout: {SECONDS}, got nan"),
        ("--gostop-startup-timeout", "0.0", f"--gostop-startup-timeout: {SECONDS}, got 0.0"),
        ("--gostop-pipeline", "-1", "--gostop-pipeline: expected 0 to 4096 requests in flight, got -1"),
        ("--gostop-pipeline", "4097", "--gostop-pipeline: expected 0 to 4096 requests in flight, got 4097"),
    ],
)
def test_a_number_out_of_range_is_a_usage_error(tmp_path: Path, option: str, value: str, message: str) -> None:
    """`--gostop-timeout nan` failed every test with a traceback; now it is refused once, with the range."""
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, f"{option}={value}")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 4, out
    assert message in proc.stderr and "Traceback" not in out


def test_the_bounds_themselves_are_accepted(tmp_path: Path) -> None:
    proc = _pytest(
        tmp_path,
        "--gostop-engine",
        REFERENCE,
        "--gostop-timeout=86400",
        "--gostop-startup-timeout=0.001e6",
        "--gostop-pipeline=4096",
        "--gostop-id=harness-jjok",
    )
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--gostop-pipeline=0", "--gostop-id=harness-jjok")
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr


# ---------------------------------------------------------------- a failed handshake, once


def test_an_engine_that_never_says_hello_costs_one_startup_timeout(tmp_path: Path) -> None:
    """Each test used to start the engine again and wait 20 s for its hello; now the first failure
    is recorded and every other scenario fails at once with it."""
    starts = tmp_path / "starts.txt"
    began = time.monotonic()
    proc = _pytest(tmp_path, "--gostop-engine", f"{sys.executable} {HOSTILE} hang {starts}", "--gostop-startup-timeout=0.5")
    took = time.monotonic() - began
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert starts.read_text(encoding="utf-8").count("started") == 1, out
    assert "3 failed" in proc.stdout and proc.stdout.count("the engine failed its handshake: timeout:") >= 3, out
    assert proc.stdout.count("the engine is not started again") >= 3  # each failure says so (the -ra summary may repeat it)
    assert "NOT GREEN: the engine failed its handshake: timeout" in proc.stdout
    assert took < 30, f"{took:.1f} s"


def test_a_failed_handshake_is_never_green_and_its_stderr_is_shown(tmp_path: Path) -> None:
    """Even with every scenario a known failure (xfail), an engine that cannot start fails the session."""
    ledger = tmp_path / "known.yaml"
    ids = ("harness-jjok", "harness-trigger", "harness-plain")
    ledger.write_text("known_failures:\n" + "".join(f"  - {{id: {i}, reason: not yet}}\n" for i in ids), encoding="utf-8")
    proc = _pytest(tmp_path, "--gostop-engine", f"{sys.executable} {FAKE} crash_at_start", "--gostop-known-failures", str(ledger), "-rA")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "3 xfailed" in proc.stdout and "NOT GREEN: the engine failed its handshake: crash" in proc.stdout, out
    assert proc.stdout.count("refusing to start") == 1, out  # its stderr, in the summary (an xfail shows no report)


# ---------------------------------------------------------------- the engine's words, escaped


def _raw_controls(text: str) -> list[str]:
    """The control characters in `text` but newline (what a terminal would act on)."""
    return sorted({f"U+{ord(c):04X}" for c in text if unicodedata.category(c) == "Cc" and c != "\n"})


@pytest.mark.parametrize(
    ("mode", "summary", "shown"),
    [
        ("plays", "1 failed, 1 passed, 1 skipped", ["UNSUPPORTED: the engine refused the deal as unsupported: no 3 players \\x1b[2J"]),
        ("bad_declaration", "3 failed", ["hello.options.jjok_steal\\x1b[2J", "NOT GREEN: the engine failed its handshake: protocol"]),
    ],
)
def test_nothing_the_engine_says_reaches_the_terminal_raw(tmp_path: Path, mode: str, summary: str, shown: list[str]) -> None:
    """An engine's hello name, version and language, its error messages and its stderr hold escape
    sequences (clear screen, window title, OSC 52 clipboard, hyperlink), CR, BEL, the one-byte CSI
    and NEL, and a line of their own forging "874 passed": the report shows them all escaped, each
    field on its line."""
    proc = _pytest(tmp_path, "--gostop-engine", f"{sys.executable} {HOSTILE} {mode}", "-rA")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1 and summary in proc.stdout, out
    assert _raw_controls(out) == [], out
    forged = [line for line in out.splitlines() if line.startswith("=") and "874 passed" in line]
    assert forged == [], forged
    assert "engine evil\\x1b[2J\\x1b[H\\x1b]0;pwned title\\x07\\x1b]52;c;cHduZWQ=\\x07" in proc.stdout, out  # its hello's name
    assert "\\x0dover\\x07written\\x9b31mred\\x85\\x00\\n====" in proc.stdout  # CR, BEL, CSI, NEL, NUL and the newline
    assert "engine stderr:" in proc.stdout and "  stderr: \\x1b[2J" in proc.stdout
    for text in shown:
        assert text in proc.stdout, out


# ---------------------------------------------------------------- the corpus collected as pytest collects


def _second_area(tmp_path: Path) -> None:
    """A second area, `other`, of the three-scenario corpus under other ids."""
    root = tmp_path / "scenarios" / "other"
    root.mkdir(parents=True, exist_ok=True)
    (root / "o.yaml").write_text(CORPUS.replace("id: harness-", "id: other-"), encoding="utf-8")


def _node_ids(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("gostop::")]


def test_collect_only_counts_the_bundled_corpus(tmp_path: Path) -> None:
    """`--collect-only` listed the scenarios and then said "no tests collected" ("collected 0 items"
    without -q): the items were added after collection, where no collect report counted them."""
    from gostop_conformance.harness._scenarios import load_corpus

    corpus = load_corpus()
    env = {**os.environ, "PY_COLORS": "0"}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gostop-engine", REFERENCE, "--collect-only"]
    quiet = subprocess.run([*command, "-q"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert quiet.returncode == 0, quiet.stdout + quiet.stderr
    assert sorted(_node_ids(quiet.stdout)) == sorted(f"gostop::{sc.area}::{sc.id}" for sc in corpus)
    assert quiet.stdout.rstrip().splitlines()[-1].startswith(f"{len(corpus)} tests collected in "), quiet.stdout[-500:]
    loud = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert loud.returncode == 0 and f"\ncollected {len(corpus)} items\n" in loud.stdout, loud.stdout[:2000] + loud.stderr


@pytest.mark.parametrize(
    ("args", "count"),
    [
        ([], "4 tests collected"),
        (["-k", "plain"], "1/4 tests collected (3 deselected)"),
        (["-k", "not harness"], "1/4 tests collected (3 deselected)"),
        (["--deselect", "gostop::harness::harness-jjok"], "3/4 tests collected (1 deselected)"),
        (["--deselect", "gostop::harness"], "1/4 tests collected (3 deselected)"),
        (["-m", "xfail", "--gostop-known-failures", "known.yaml"], "1/4 tests collected (3 deselected)"),
        (["--gostop-only"], "3/4 tests collected (1 deselected)"),
        (["--gostop-only", "-k", "jjok or mine"], "1/4 tests collected (3 deselected)"),
        (["--gostop-id", "harness-plain"], "2 tests collected"),
    ],
    ids=[
        "all",
        "k-scenario",
        "k-project",
        "deselect-scenario",
        "deselect-area",
        "m-known-failure",
        "gostop-only",
        "only-and-k",
        "gostop-id",
    ],
)
def test_collect_only_counts_the_corpus_and_the_project_tests_as_pytest_does(tmp_path: Path, args: list[str], count: str) -> None:
    """The project's one test and the three scenarios, counted and deselected by pytest's own options."""
    _project_test(tmp_path)
    (tmp_path / "known.yaml").write_text("known_failures:\n  - {id: harness-trigger, reason: not yet}\n", encoding="utf-8")
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--collect-only", *args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.rstrip().splitlines()[-1].startswith(f"{count} in "), proc.stdout


def test_a_node_id_given_back_selects_exactly_that_scenario_or_area(tmp_path: Path) -> None:
    """`pytest gostop::harness::harness-jjok` was "file or directory not found"."""
    _second_area(tmp_path)
    listed = _node_ids(_pytest(tmp_path, "--gostop-engine", REFERENCE, "--collect-only").stdout)
    assert len(listed) == 6 and {i.split("::")[1] for i in listed} == {"harness", "other"}, listed
    for node_id in (listed[0], listed[-1]):  # the first of one area, the last of the other
        proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--collect-only", node_id)
        assert proc.returncode == 0 and _node_ids(proc.stdout) == [node_id], proc.stdout + proc.stderr
        assert "\n1 test collected in " in proc.stdout, proc.stdout
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "-rA", "gostop::other::other-plain")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout and "PASSED gostop::other::other-plain" in proc.stdout and "1 scenario run, 1 checked" in proc.stdout
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--collect-only", "gostop::other", "gostop::harness::harness-jjok")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _node_ids(proc.stdout) == [
        "gostop::harness::harness-jjok",
        "gostop::other::other-jjok",
        "gostop::other::other-trigger",
        "gostop::other::other-plain",
    ]


def test_node_ids_and_paths_given_together(tmp_path: Path) -> None:
    """A path is pytest's, a node id of the corpus the plugin's; without a node id of the corpus the
    whole corpus runs beside the paths, as without arguments; a directory named `gostop` is a path."""
    _project_test(tmp_path)
    (tmp_path / "test_other.py").write_text("def test_other():\n    pass\n", encoding="utf-8")
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "test_mine.py", "gostop::harness::harness-plain")
    assert proc.returncode == 0 and "2 passed" in proc.stdout, proc.stdout + proc.stderr
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--collect-only", "test_mine.py")
    assert _node_ids(proc.stdout) == ["gostop::harness::harness-jjok", "gostop::harness::harness-trigger", "gostop::harness::harness-plain"]
    assert "test_mine.py::test_mine" in proc.stdout and "test_other" not in proc.stdout and "\n4 tests collected in " in proc.stdout
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--collect-only", "gostop")
    assert proc.returncode == 0 and len(_node_ids(proc.stdout)) == 3 and "\n3 tests collected in " in proc.stdout, proc.stdout
    (tmp_path / "gostop").mkdir()
    (tmp_path / "gostop" / "test_package.py").write_text("def test_package():\n    pass\n", encoding="utf-8")
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--collect-only", "gostop")
    assert "gostop/test_package.py::test_package" in proc.stdout and "\n4 tests collected in " in proc.stdout, proc.stdout
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--collect-only", "gostop::harness::harness-jjok")
    assert proc.returncode == 0 and "test_package" not in proc.stdout and "\n1 test collected in " in proc.stdout, proc.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gostop::nope"], "ERROR: gostop::nope: the corpus has no area 'nope' (its areas: harness, other)\n"),
        (["gostop::harness::nope"], "ERROR: gostop::harness::nope: the corpus has no scenario 'nope'\n"),
        (
            ["gostop::harness::other-jjok"],
            "ERROR: gostop::harness::other-jjok: scenario 'other-jjok' is in area 'other': its node id is gostop::other::other-jjok\n",
        ),
        (["gostop::harness::harness-jjok::x"], "gostop::<area>::<scenario id>\n"),
        (["gostop::"], "ERROR: gostop::: expected a node id of the corpus: gostop, gostop::<area> or"),
        (
            ["--gostop-area", "other", "gostop::harness"],
            "ERROR: gostop::harness: none of its scenarios is among those --gostop-ruleset, --gostop-area and --gostop-id select\n",
        ),
        (["-p", "xdist", "-n", "2", "gostop::nope"], "ERROR: gostop::nope: the corpus has no area 'nope'"),
    ],
    ids=["no-area", "no-scenario", "wrong-area", "too-long", "empty-area", "not-selected", "xdist"],
)
def test_a_node_id_that_names_nothing_is_a_usage_error(tmp_path: Path, args: list[str], message: str) -> None:
    _second_area(tmp_path)
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, *args)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 4, out
    assert message in proc.stderr and "Traceback" not in out and "INTERNALERROR" not in out, out


def test_node_ids_under_xdist_keep_the_session_verdict(tmp_path: Path) -> None:
    """The workers collect the named scenarios, the controller judges them: one that is unsupported
    among others checked is green; the same one alone checked nothing."""
    _second_area(tmp_path)
    xdist = ("-p", "xdist", "-n", "2")
    proc = _pytest(tmp_path, "--gostop-engine", DECLARES_MATGO, *xdist, "gostop::other", "gostop::harness::harness-plain")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed, 2 skipped" in proc.stdout and "4 scenarios run, 2 checked, 2 unsupported" in proc.stdout, proc.stdout
    assert "NOT GREEN" not in proc.stdout
    proc = _pytest(tmp_path, "--gostop-engine", DECLARES_MATGO, *xdist, "gostop::harness::harness-plain")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "1 skipped" in proc.stdout and "NOT GREEN: nothing was checked: none of the 1 scenario collected" in proc.stdout, proc.stdout


def test_a_session_that_collects_nothing_to_run_is_not_judged(tmp_path: Path) -> None:
    """`--fixtures` collects without pytest_collection and runs nothing: it printed "NOT GREEN: nothing
    was checked" for a corpus it never loaded."""
    proc = _pytest(tmp_path, "--gostop-engine", REFERENCE, "--fixtures")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "gostop conformance" not in proc.stdout and "NOT GREEN" not in proc.stdout, proc.stdout
