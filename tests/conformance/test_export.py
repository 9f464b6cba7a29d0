"""The corpus export (conformance/_export.py, `gostop-conformance export`) and its reference checker
(tools/check_export.py): the export holds the harness's own requests and checks, follows its
schema, is the same bytes under any hash seed; the checker, on the standard library alone, passes
the reference engine on the whole export and fails a mutant on the very scenarios `run` fails it
on (each a few seconds of checking on an idle machine: in `make test`)."""

from __future__ import annotations

import ast
import copy
import json
import os
import runpy
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from gostop_conformance.harness import (
    Scenario,
    corpus_digest,
    engine_factory,
    export_corpus,
    load_corpus,
    run_suite,
)
from gostop_conformance.harness._compare import CARD_KEYS, CARD_LIST_KEYS, MULTISET_KEYS
from gostop_conformance.harness._steps import scenario_plan
from gostop_conformance.reference import PROTOCOL_VERSION, engine_version
from gostop_conformance.spec import protocol_check, schema

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "tools" / "check_export.py"
REFERENCE = [sys.executable, "-m", "gostop_conformance.reference", "--stdio"]
#: a mutant the checker must catch (a jjok surrenders no junk: 76 scenarios of the corpus fail it)
MUTANT = "jjok-no-steal"

Json = dict[str, Any]


@pytest.fixture(scope="module")
def text() -> str:
    return export_corpus().text


@pytest.fixture(scope="module")
def corpus() -> dict[str, Scenario]:
    return {sc.id: sc for sc in load_corpus()}


@pytest.fixture(scope="module")
def document(text: str) -> Json:
    found: Json = json.loads(text)
    return found


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "gostop_conformance.harness", *args], capture_output=True, timeout=600, check=False, env=env
    )


def _check(export: Path, engine: Sequence[str]) -> tuple[int, dict[str, str]]:
    """The checker's exit code and each scenario's outcome (PASS, FAIL or SKIP)."""
    done = subprocess.run([sys.executable, str(CHECKER), str(export), *engine], capture_output=True, text=True, timeout=600, check=False)
    outcomes = {
        line.split()[1].rstrip(":"): line.split()[0] for line in done.stdout.splitlines() if line.startswith(("PASS", "FAIL", "SKIP"))
    }
    return done.returncode, outcomes


def _subset(document: Json, tmp_path: Path, every: int = 9) -> tuple[Path, list[str]]:
    """An export of every `every`-th scenario and of every scenario of several rounds (a match)."""
    kept = [sc for k, sc in enumerate(document["scenarios"]) if k % every == 0 or len(sc["rounds"]) > 1]
    part = dict(document, scenarios=kept, header=dict(document["header"], scenario_count=len(kept)))
    path = tmp_path / "part.json"
    path.write_text(json.dumps(part), encoding="utf-8")
    return path, [sc["id"] for sc in kept]


# ---------------------------------------------------------------- the export


def test_the_export_follows_its_schema(document: Json) -> None:
    validator = jsonschema_rs.Draft202012Validator(schema("export"))
    errors = list(validator.iter_errors(document))
    assert not errors, [f"{list(e.instance_path)}: {e.message}" for e in errors[:3]]
    broken = copy.deepcopy(document)
    del broken["scenarios"][0]["rounds"][0][0]["check"]
    broken["scenarios"][1]["requires"]["events"] = "yes"
    assert len(list(validator.iter_errors(broken))) == 2  # the schema holds the export to something


def test_the_header_names_the_suite_the_protocol_and_the_corpus(document: Json, corpus: dict[str, Scenario]) -> None:
    header = document["header"]
    assert header["suite_version"] == engine_version() and header["protocol"] == PROTOCOL_VERSION
    assert header["corpus_digest"] == corpus_digest()
    assert header["scenario_count"] == len(document["scenarios"]) == len(corpus)
    assert [sc["id"] for sc in document["scenarios"]] == list(corpus)
    assert header["hello"] == {"cmd": "hello", "protocol": PROTOCOL_VERSION, "suite_version": engine_version()}


def test_the_requests_are_the_harness_plan_and_the_protocol_requests(document: Json, corpus: dict[str, Scenario]) -> None:
    """What the harness's step compiler plans for each round, deals completed and rulesets
    resolved, request for request; each a valid protocol request once numbered."""
    request, by_id = protocol_check("request"), corpus
    for sc in document["scenarios"]:
        sent = [[item["request"] for item in items if "request" in item] for items in sc["rounds"]]
        assert sent == [[{"cmd": cmd, **payload} for cmd, payload in plan] for plan in scenario_plan(by_id[sc["id"]])], sc["id"]
        for items in sc["rounds"]:
            for item in items:
                if "request" in item:
                    assert request({"seq": 1, **item["request"]}), (sc["id"], item["request"]["cmd"])


def test_the_checks_hold_every_expectation_of_the_scenario(document: Json, corpus: dict[str, Scenario]) -> None:
    """The checks of a scenario step, put together again, are its expectation: nothing is lost."""
    by_id = corpus
    for exported in document["scenarios"]:
        sc = by_id[exported["id"]]
        assert exported["ruleset"] == sc.ruleset_json() and exported["event_log"] == sc.event_log
        for rnd, items in zip(sc.rounds, exported["rounds"], strict=True):
            written = [rnd.after_deal, *(None if s.reject else s.expect for s in rnd.steps), rnd.final]
            rejects = [None, *(s.reject for s in rnd.steps), None]
            for group, (expect, reject) in enumerate(zip(written, rejects, strict=True)):
                mine = [item for item in items if item["group"] == group]
                joined: Json = {}
                for item in mine:
                    joined |= item.get("expect", {})
                assert joined == (expect or {}), (sc.id, group)
                assert [item["code"] for item in mine if item["check"] == "rejected"] == ([reject] if reject else [])


def test_the_export_is_the_same_bytes_under_another_hash_seed_and_from_the_command_line(text: str, corpus: dict[str, Scenario]) -> None:
    done = _cli("export", "--format", "json", "--out", "-", env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == text.encode("utf-8")  # standard output holds the export and nothing else
    assert text.count("\n") == len(corpus) + 2  # a scenario a line: two releases diff scenario by scenario


def test_a_corpus_of_ones_own_is_exported_with_its_dependencies_derived(root: Path, tmp_path: Path) -> None:
    """A corpus without scenarios/dependencies.yaml: each scenario's dependencies are derived, as
    `run` derives them for its verdicts."""
    exported = export_corpus(root)
    document = json.loads(exported.text)
    assert exported.scenarios == len(document["scenarios"]) == len(load_corpus(root)) and exported.corpus_digest == corpus_digest(root)
    assert all(isinstance(sc["requires"]["options"], dict) for sc in document["scenarios"])
    assert jsonschema_rs.Draft202012Validator(schema("export")).is_valid(document)
    out = tmp_path / "mine.json"
    done = _cli("export", "--scenarios", str(root), "--out", str(out))
    assert done.returncode == 0 and out.read_text(encoding="utf-8") == exported.text
    assert (
        done.stdout.decode()
        == f"wrote {out}: {exported.scenarios} scenarios of corpus {exported.corpus_digest}, {out.stat().st_size:,} bytes\n"
    )


def test_a_bad_output_is_one_line_of_error(tmp_path: Path) -> None:
    done = _cli("export", "--out", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.decode().strip() == f"gostop-conformance: error: --out: {tmp_path} is a folder, not a file"
    done = _cli("export", "--format", "yaml", "--out", str(tmp_path / "x.json"))
    assert done.returncode == 2 and b"invalid choice: 'yaml'" in done.stderr and b"Traceback" not in done.stderr
    done = _cli("export", "--scenarios", str(tmp_path / "nowhere"), "--out", str(tmp_path / "x.json"))
    assert done.returncode == 2 and b"expected a directory of scenario files" in done.stderr and not (tmp_path / "x.json").exists()


def test_the_page_and_the_checker_name_every_key_the_harness_compares_specially() -> None:
    """docs/export.md states the matching rules, and the checker applies them, for the very keys
    conformance/_compare.py treats as card lists, multisets and card fields."""
    page = (ROOT / "docs" / "export.md").read_text(encoding="utf-8")
    checker = runpy.run_path(str(CHECKER))
    assert checker["CARD_LISTS"] == CARD_LIST_KEYS and checker["MULTISETS"] == MULTISET_KEYS and checker["CARD_FIELDS"] == CARD_KEYS
    for key in sorted(CARD_LIST_KEYS | MULTISET_KEYS | CARD_KEYS):
        assert f"`{key}`" in page, key


# ---------------------------------------------------------------- the reference checker


def test_the_checker_is_standard_library_only() -> None:
    tree = ast.parse(CHECKER.read_text(encoding="utf-8"))
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert modules and modules <= set(sys.stdlib_module_names) | {"__future__"}, modules - set(sys.stdlib_module_names)


def test_the_checker_skips_what_the_engine_does_not_declare(document: Json, tmp_path: Path) -> None:
    """An engine without seeded deals and with only matgo-2p's values: the scenarios that need
    more are SKIP, never sent."""
    hello = {"protocol": "1", "engine": {"name": "narrow", "version": "1", "language": "python"}, "rulesets": ["matgo-2p"]}
    engine = tmp_path / "narrow.py"
    engine.write_text(
        "import json, sys\n"
        "from gostop_conformance.reference import handle_request, JsonEngine\n"
        f"HELLO = {hello!r}\n"
        "engine = JsonEngine()\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    reply = dict(HELLO) if request['cmd'] == 'hello' else handle_request(engine, request)[0]\n"
        "    print(json.dumps({**reply, 'seq': request['seq']}), flush=True)\n",
        encoding="utf-8",
    )
    part, ids = _subset(document, tmp_path)
    code, outcomes = _check(part, [sys.executable, str(engine)])
    chosen = {sc["id"]: sc for sc in document["scenarios"] if sc["id"] in ids}
    seeded = {sid for sid, sc in chosen.items() if "seeded_deal" in sc["requires"]["features"]}
    assert seeded and all(outcomes[sid] == "SKIP" for sid in seeded)
    other = {sid for sid, sc in chosen.items() if sc["ruleset"]["id"] != "matgo-2p" and sc["requires"]["options"] and sid not in seeded}
    assert other and all(outcomes[sid] == "SKIP" for sid in other)
    ran = [sid for sid, outcome in outcomes.items() if outcome != "SKIP"]
    assert ran and all(outcomes[sid] == "PASS" for sid in ran) and code == 0


def test_the_checker_says_what_is_wrong_with_its_command_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    for args in ([], [str(bad), "true"], [str(tmp_path / "none.json"), "true"]):
        done = subprocess.run([sys.executable, str(CHECKER), *args], capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 2 and done.stderr.startswith(("usage: check_export.py", "check_export.py: ")), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_the_checker_passes_the_reference_engine_on_the_whole_export(text: str, corpus: dict[str, Scenario], tmp_path: Path) -> None:
    export = tmp_path / "corpus.json"
    export.write_text(text, encoding="utf-8")
    code, outcomes = _check(export, REFERENCE)
    assert code == 0 and outcomes == dict.fromkeys(corpus, "PASS")


def test_the_checker_and_run_fail_a_mutant_on_the_same_scenarios(text: str, corpus: dict[str, Scenario], tmp_path: Path) -> None:
    """The whole export against `gostop-mutant`, and the harness as `gostop-conformance run` runs it."""
    export = tmp_path / "corpus.json"
    export.write_text(text, encoding="utf-8")
    command = [sys.executable, "-m", "gostop_conformance.mutants", MUTANT]
    code, outcomes = _check(export, command)
    report = run_suite(list(corpus.values()), engine_factory(command, 60.0, 60.0))
    harness = {r.scenario.id for r in report.records if r.outcome != "PASS"}
    assert code == 1 and len(harness) > 10
    assert {sid for sid, outcome in outcomes.items() if outcome == "FAIL"} == harness
