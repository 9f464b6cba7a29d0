"""gostop-conformance on the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def test_output_into_a_closed_pipe_is_not_an_error() -> None:
    """`gostop-conformance rulesets | head -0`: the reader has gone before the first line."""
    code = "import sys; from gostop_conformance.harness._cli import main; sys.exit(main(['rulesets']))"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err


def test_a_scenario_folder_that_holds_no_scenarios_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gostop_conformance.harness._cli import main

    assert main(["run", "--scenarios", str(tmp_path), "--no-reports"]) == 2
    assert "no scenario files here" in capsys.readouterr().err
    assert main(["run", "--scenarios", str(tmp_path / "missing"), "--no-reports"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_the_pytest_plugin_loads_nothing_of_the_suite_at_import() -> None:
    """pytest loads the plugin in every environment where the package is installed: importing it
    must not load the engine, the spec or the schema libraries (the harness loads on --gostop-engine)."""
    code = (
        "import sys, gostop_conformance.harness._pytest_plugin\n"
        "names = ('gostop_conformance.reference', 'gostop_conformance.spec._rulesets', 'yaml', 'jsonschema',"
        " 'gostop_conformance.harness._harness')\n"
        "print(sorted(m for m in names if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("command", "message"), [("", "empty command"), ("   ", "empty command"), ("node 'adapter.js", "cannot split")])
def test_an_empty_or_unsplittable_engine_command_is_a_usage_error(command: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--engine ""` once ran the bundled reference engine and exited 0."""
    from gostop_conformance.harness._cli import main

    for sub in (["run", "--no-reports"], ["smoke"], ["support"], ["fuzz"]):
        assert main([*sub, "--engine", command]) == 2
        err = capsys.readouterr().err
        assert f"--engine: {message}" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--engine", "no-such-engine-anywhere"], "--engine: cannot find 'no-such-engine-anywhere': it is not on PATH"),
        (["--engine", "./no/such/engine.js"], "--engine: ./no/such/engine.js does not exist"),
        (["--engine", __file__], f"--engine: {__file__} is not an executable file"),
        (["--timeout", "-1"], "--timeout: expected a number of seconds above 0"),
        (["--timeout", "0"], "--timeout: expected a number of seconds above 0"),
        (["--timeout", "nan"], "--timeout: expected a number of seconds above 0"),
        (["--startup-timeout", "inf"], "--startup-timeout: expected a number of seconds above 0"),
        (["--timeout", "1e308"], "--timeout: expected a number of seconds above 0"),
        (["--jobs", "1000000"], "--jobs: expected 0 (every core) or 1 to"),
        (["--jobs", "-1"], "--jobs: expected 0 (every core) or 1 to"),
        (["--jobs", "65", "--force-jobs"], "--jobs: expected 0 (every core) or 1 to 64 engine processes"),
        (["--pipeline", "100000000"], "--pipeline: expected 0 to 4096 requests in flight"),
    ],
)
def test_bad_numbers_and_engines_are_usage_errors_before_anything_runs(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from gostop_conformance.harness._cli import main

    assert main(["run", "--area", "capture", "--no-reports", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(("kind", "message"), [("file", "is a file, not a folder"), ("under-a-file", "cannot write into")])
def test_a_report_dir_that_cannot_take_reports_is_refused_before_the_run(
    kind: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Once, an unwritable --report-dir was a traceback after the whole run, every result lost."""
    from gostop_conformance.harness._cli import main

    (tmp_path / "reports").write_text("not a folder")
    target = tmp_path / "reports" if kind == "file" else tmp_path / "reports" / "inner"  # no folder can be made inside a file
    assert main(["run", "--area", "capture", "--report-dir", str(target)]) == 2
    err = capsys.readouterr().err
    assert "--report-dir: " in err and message in err and "Traceback" not in err


def test_every_command_of_every_family_is_on_the_parser_once() -> None:
    """The families' modules give the commands; the package's list gives --help its order: a
    command missing from the list would silently leave the parser."""
    from gostop_conformance.harness._cli import COMMANDS, ORDER, _parser

    assert sorted(ORDER) == sorted(COMMANDS) and len(set(ORDER)) == len(ORDER)
    actions = [a for a in _parser()._actions if a.dest == "command"]
    assert [list(a.choices or ()) for a in actions] == [list(ORDER)]
