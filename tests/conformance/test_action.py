"""action.yml, the suite as a GitHub Action: its steps call options of `gostop-conformance` that
exist, and its scripts, run here as the runner runs them (bash -eo pipefail, the inputs in the
step's environment), judge the reference engine, write the job summary and leave the reports where
the upload step takes them."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from gostop_conformance.harness._cli import _parser

ROOT = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS: list[dict[str, Any]] = ACTION["runs"]["steps"]
EXPRESSION = re.compile(r"\$\{\{\s*([a-z_.-]+)\s*\}\}")
#: how a GitHub runner runs a step of `shell: bash`
BASH = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]


def _subcommand(name: str) -> argparse.ArgumentParser:
    parser = _parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices[name]


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    return set(parser._option_string_actions)


def _step(name: str) -> dict[str, Any]:
    [found] = [s for s in STEPS if s.get("name") == name]
    return found


def test_the_action_is_composite_and_installs_only_the_package_from_its_own_checkout() -> None:
    assert ACTION["runs"]["using"] == "composite"
    uses = [s["uses"].split("@")[0] for s in STEPS if "uses" in s]
    assert uses == ["actions/setup-python", "actions/upload-artifact"]
    assert _step("Set up Python")["with"]["python-version"] == "${{ inputs.python-version }}"
    install = _step("Install gostop-conformance from the action's checkout")
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert install["run"].strip() == 'python -m pip install --disable-pip-version-check "$ACTION_PATH"'  # no extras, no make
    upload = _step("Upload the reports")
    assert upload["if"] == "always()" and upload["with"]["path"] == "${{ inputs.report-dir }}"
    assert _step("Write the summary")["if"] == "always()"


def test_every_input_is_used_and_every_expression_names_an_input() -> None:
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    named = {m.removeprefix("inputs.") for m in EXPRESSION.findall(text) if m.startswith("inputs.")}
    assert named == set(ACTION["inputs"])
    assert {m for m in EXPRESSION.findall(text) if not m.startswith("inputs.")} == {"github.action_path"}
    assert ACTION["inputs"]["engine"]["required"] is True
    for step in STEPS:  # inputs reach scripts through the environment only, never pasted into them
        assert "${{" not in step.get("run", "")


def test_every_gostop_conformance_call_uses_options_that_exist() -> None:
    calls = 0
    for step in STEPS:
        script = step.get("run", "")
        for match in re.finditer(r"^\s*gostop-conformance\s+([a-z-]+)", script, re.M):  # a command, not a message naming it
            calls += 1
            known = _flags(_subcommand(match.group(1)))
            used = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", script))
            assert used and used <= known, f"{step['name']}: options gostop-conformance {match.group(1)} does not know: {used - known}"
    assert calls == 1


def _run_step(name: str, inputs: dict[str, str], workspace: Path, summary: Path) -> subprocess.CompletedProcess[str]:
    """One step's script as the runner runs it: its environment with the inputs (their defaults
    where not given) substituted, from the workspace."""
    values = {k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()} | inputs
    step = _step(name)

    def expand(text: str) -> str:
        return EXPRESSION.sub(lambda m: values[m.group(1).removeprefix("inputs.")] if m.group(1).startswith("inputs.") else str(ROOT), text)

    env = {
        **os.environ,
        **{k: expand(str(v)) for k, v in step.get("env", {}).items()},
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",  # the installed suite
        "GITHUB_STEP_SUMMARY": str(summary),
    }
    return subprocess.run([*BASH, "-c", step["run"]], cwd=workspace, env=env, capture_output=True, text=True, timeout=600, check=False)


def test_the_actions_scripts_judge_the_reference_engine_and_write_the_summary(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    some = "rejections-card-not-in-hand-captured"
    (workspace / "known.yaml").write_text(f"known_failures:\n  - {{id: {some}, reason: listed to see the ledger read}}\n", encoding="utf-8")
    summary = tmp_path / "step-summary.md"
    summary.write_text("## an earlier step\n", encoding="utf-8")
    inputs = {
        "engine": f"{Path(sys.executable).with_name('gostop-reference')} --stdio",
        "rulesets": "matgo-2p standard-3p",
        "known-failures": "known.yaml",
        "args": "--area rejections -q",
    }
    ran = _run_step("Run the conformance suite", inputs, workspace, summary)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    reports = workspace / "gostop-reports"  # the default report-dir, which the upload step takes
    lines = [json.loads(line) for line in (reports / "report.jsonl").read_text(encoding="utf-8").splitlines()]
    selection = lines[0]["selection"]
    assert selection["rulesets"] == ["matgo-2p", "standard-3p"] and selection["areas"] == ["rejections"]
    records = {r["id"]: r for r in lines[1:-1]}
    assert records and {r["ruleset"] for r in records.values()} <= {"matgo-2p", "standard-3p"}
    assert records[some]["outcome"] == "XPASS"  # the ledger was read: listed, and it passes
    assert lines[-1]["ok"] is True and (reports / "junit.xml").is_file()
    wrote = _run_step("Write the summary", {}, workspace, summary)
    assert wrote.returncode == 0, wrote.stderr
    assert summary.read_text(encoding="utf-8") == "## an earlier step\n" + (reports / "summary.md").read_text(encoding="utf-8")


def test_a_failing_run_fails_the_step_and_a_missing_summary_is_said(tmp_path: Path) -> None:
    summary = tmp_path / "step-summary.md"
    mutant = f"{Path(sys.executable).with_name('gostop-mutant')} jjok-no-steal"
    ran = _run_step("Run the conformance suite", {"engine": mutant, "args": "--clause R-JJOK -q"}, tmp_path, summary)
    assert ran.returncode == 1 and "FAIL" in ran.stdout, ran.stdout + ran.stderr
    _run_step("Write the summary", {}, tmp_path, summary)  # if: always(): the failures are in the job's summary
    assert summary.read_text(encoding="utf-8") == (tmp_path / "gostop-reports" / "summary.md").read_text(encoding="utf-8")
    assert " | FAIL | " in summary.read_text(encoding="utf-8")
    summary.unlink()
    missing = _run_step("Run the conformance suite", {"engine": "no-such-engine-xyz"}, tmp_path, summary)
    assert missing.returncode == 2 and "no-such-engine-xyz" in missing.stderr
    bad = _run_step("Run the conformance suite", {"engine": "x", "args": "--no-such-flag"}, tmp_path, summary)
    assert bad.returncode == 2 and "--no-such-flag" in bad.stderr
    _run_step("Write the summary", {"report-dir": "nowhere"}, tmp_path, summary)
    assert summary.read_text(encoding="utf-8") == "gostop-conformance wrote no nowhere/summary.md: see the log of the step above\n"
