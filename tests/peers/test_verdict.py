"""peers/verdict.py: a peer's README verdict is generated from a run, and every failure must be
classified with its evidence (the peers themselves are not run here: their checkouts are not part
of the project; peers/README.md says how to run them)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gostop_conformance.harness import load_corpus

ROOT = Path(__file__).resolve().parents[2]


def _verdict() -> ModuleType:
    spec = importlib.util.spec_from_file_location("peer_verdict", ROOT / "peers" / "verdict.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


verdict = _verdict()
HEADER = {"record": "header", "suite_version": "0.1.0"}


def _records(**outcomes: str) -> list[dict[str, str]]:
    return [HEADER, *({"id": sid.replace("_", "-"), "outcome": outcome} for sid, outcome in outcomes.items())]


def test_every_failure_is_listed_with_its_class_and_evidence() -> None:
    deviations = [verdict.Deviation(("a-b",), "engine", "R-X: why", "src/x.ts f")]
    text, problems = verdict.section("gostop-ts", "abc1234", _records(a_b="FAIL", c_d="PASS", e_f="UNSUPPORTED"), deviations)
    assert problems == []
    assert "**1 pass, 1 fail, 1 unsupported** (2 checked)" in text and "commit `abc1234`" in text
    assert "| `a-b` | engine | R-X: why | src/x.ts f |" in text


def test_an_unclassified_failure_and_a_stale_entry_are_problems() -> None:
    deviations = [verdict.Deviation(("gone",), "house-rule", "w", "e")]
    text, problems = verdict.section("gostop-ts", "abc", _records(new_fail="FAIL"), deviations)
    assert problems == [
        "new-fail: fails (FAIL) but deviations.yaml does not classify it",
        "gone: classified in deviations.yaml but it does not fail",
    ]
    assert "| `new-fail` | **unclassified** |" in text and "gone" not in text


def test_only_the_marked_section_of_the_readme_is_rewritten(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# Peer\n\nintro\n\n{verdict.BEGIN}\nold verdict\n{verdict.END}\n\n## Later\n", encoding="utf-8")
    assert (
        verdict.rewrite(readme, f"{verdict.BEGIN}\nnew\n{verdict.END}")
        == f"# Peer\n\nintro\n\n{verdict.BEGIN}\nnew\n{verdict.END}\n\n## Later\n"
    )
    readme.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no verdict markers"):
        verdict.rewrite(readme, "x")


@pytest.mark.parametrize("peer", ["gostop-ts", "go-stop-python"])
def test_each_peers_deviations_name_scenarios_of_the_corpus_and_the_readme_carries_the_markers(peer: str) -> None:
    ids = {sc.id for sc in load_corpus()}
    deviations = verdict.load_deviations(ROOT / "peers" / peer / "deviations.yaml")
    named = [sid for d in deviations for sid in d.scenarios]
    assert named and len(named) == len(set(named))
    assert sorted(set(named) - ids) == []
    assert all(d.evidence and d.why for d in deviations)
    text = (ROOT / "peers" / peer / "README.md").read_text(encoding="utf-8")
    assert text.count(verdict.BEGIN) == 1 and text.count(verdict.END) == 1
    assert all(f"`{sid}`" in text.split(verdict.BEGIN)[1].split(verdict.END)[0] for sid in named)


def test_a_malformed_entry_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "deviations.yaml"
    path.write_text("- {scenarios: [x], class: bug, why: w, evidence: e}\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"deviations.yaml\[0\].class: expected one of engine, house-rule"):
        verdict.load_deviations(path)


def test_a_confident_profile_finding_the_declaration_contradicts_is_a_problem() -> None:
    """The profile is checked against the adapter's declaration, for the player counts it played;
    inconsistent findings and leads are counted, not checked."""
    hello = {"rulesets": [{"id": "matgo-2p", "options": {"meong_mode": ["off"]}}, "standard-3p"]}

    def finding(option: str, values: list[Any], players: list[int], **extra: Any) -> dict[str, Any]:
        return {
            "option": option,
            "verdict": " or ".join(map(str, values)),
            "values": values,
            "by_players": {},
            "players": players,
            "follows": False,
            "declarable": True,
            "inconsistent": False,
            "conclusive": ["a", "b"],
        } | extra

    found = [
        finding("meong_mode", ["off"], [2]),
        finding("go_threshold", [7], [2]),  # played with two players only: says nothing of standard-3p's 3
        finding("jjok_steal", [2], [2, 3]),
        finding("pi_bak", [True], [2], declarable=False, inconsistent=True),
    ]
    text, problems = verdict.profile_section(found, hello)
    assert problems == [
        "jjok_steal: the profile says 2 with 2 players, the adapter declares 1",
        "jjok_steal: the profile says 2 with 3 players, the adapter declares 1",
    ]
    assert "3 options found with confidence, 1 inconsistent" in text and "| `meong_mode` | off | 2 | 2 players: off | yes |" in text


def _finding(option: str, values: list[Any], players: list[int], **extra: Any) -> dict[str, Any]:
    return {
        "option": option,
        "verdict": " or ".join(map(str, values)),
        "values": values,
        "by_players": {},
        "players": players,
        "follows": False,
        "followed": {},
        "declarable": True,
        "inconsistent": False,
        "conclusive": ["a", "b"],
    } | extra


def test_an_inconsistent_finding_is_never_counted_confident() -> None:
    """Evidence that disagrees is reported, not checked as a confident value, whatever else the
    finding says (gostop-ts had nine 'the value it is sent' findings marked inconsistent)."""
    hello = {"rulesets": ["matgo-2p"]}
    found = [
        _finding("jjok_steal", [2], [2], verdict="the value it is sent", follows=True, inconsistent=True, followed={"2": [1, 2]}),
        _finding("pi_bak", [True], [2]),
    ]
    text, problems = verdict.profile_section(found, hello)
    assert problems == [] and "1 option found with confidence, 1 inconsistent" in text and "jjok_steal" not in text


def test_the_value_it_is_sent_is_checked_against_the_values_the_plays_told_apart() -> None:
    """A finding that the engine plays the value it is sent agrees with a declaration of "all", or
    of values that hold every value the plays told apart with that player count; not with any
    declaration at all (it once did, and pi_bak_max_units, hard-coded, agreed with anything)."""
    declared = {"go_threshold": [7], "junk_threshold": [7, 10], "pi_bak": "unsupported", "jjok_steal": "all"}
    hello = {"rulesets": [{"id": "matgo-2p", "options": declared}]}
    sent = {"verdict": "the value it is sent", "follows": True}
    found = [
        _finding("go_threshold", [7], [2, 3], followed={"2": [5, 7]}, **sent),
        _finding("junk_threshold", [10], [2], followed={"2": [7, 10]}, **sent),
        _finding("pi_bak", [True], [2], followed={"2": [False, True]}, **sent),
        _finding("jjok_steal", [1], [2], followed={"2": [0, 1], "3": [0, 1]}, **sent),  # standard-3p is not claimed
    ]
    text, problems = verdict.profile_section(found, hello)
    assert problems == [
        "go_threshold: the profile says the value it is sent (5, 7 played as sent) with 2 players, the adapter declares 7",
        "pi_bak: the profile says the value it is sent (false, true played as sent) with 2 players, the adapter declares unsupported",
    ]
    assert "| `junk_threshold` | the value it is sent (2 players: 7 and 10 told apart) | 2 | 2 players: 7 or 10 | yes |" in text
    assert (
        "| `jjok_steal` | the value it is sent (2 players: 0 and 1 told apart; 3 players: 0 and 1 told apart) | 2 | 2 players: all | yes |"
        in text
    )


# ------------------------------------------------------------------ the saved runs (peers/<peer>/report/)


def _compat() -> ModuleType:
    """docs/_build/docsgen/compat.py, which reads the saved runs for the site."""
    build = str(ROOT / "docs" / "_build")
    if build not in sys.path:
        sys.path.insert(0, build)
    import docsgen.compat

    return docsgen.compat


@pytest.mark.parametrize("peer", sorted(verdict.PEERS))
def test_each_peers_saved_run_is_what_verdict_writes_and_names_its_engine_checkout(peer: str) -> None:
    """The saved report is a whole run of the corpus read back as `report` reads it, labelled with
    the peer, with the portable engine command; the declaration saved is the one the run used; the
    engine is named by its full commit and that commit's date; nothing else (no engine code)."""
    import jsonschema

    from gostop_conformance.spec import schema

    folder = ROOT / "peers" / peer / verdict.REPORT_FOLDER
    assert sorted(p.name for p in folder.iterdir()) == ["engine.json", "hello.json", "report.jsonl"]
    lines = [json.loads(line) for line in (folder / "report.jsonl").read_text(encoding="utf-8").splitlines()]
    validator = jsonschema.Draft202012Validator(schema("report"))  # as `report` reads it back
    assert all(validator.is_valid(line) for line in lines)
    header, records, footer = lines[0], lines[1:-1], lines[-1]
    assert [header["record"], footer["record"]] == ["header", "footer"] and {r["record"] for r in records} == {"scenario"}
    assert header["label"] == peer and header["engine_command"] == list(verdict.PEERS[peer].command)
    assert footer["complete"] is True and len(records) == header["scenarios"]
    hello = json.loads((folder / "hello.json").read_text(encoding="utf-8"))
    assert {k: hello.get(k, header["support"][k]) for k in header["support"]} == header["support"]
    engine = json.loads((folder / "engine.json").read_text(encoding="utf-8"))
    assert re.fullmatch(r"[0-9a-f]{40}", engine["commit"])
    assert f"commit `{engine['commit'][:7]}`" in (ROOT / "peers" / peer / "README.md").read_text(encoding="utf-8")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", engine["commit_date"])
    assert engine["repository"] == verdict.PEERS[peer].repository and engine["repository"] in (ROOT / "peers" / "README.md").read_text()
    # the README's verdict is this run's: its counts
    counts = footer["counts"]
    failed = sum(counts.get(o, 0) for o in verdict.FAILING)
    readme = (ROOT / "peers" / peer / "README.md").read_text(encoding="utf-8")
    assert f"**{counts.get('PASS', 0)} pass, {failed} fail, {counts.get('UNSUPPORTED', 0)} unsupported**" in readme


@pytest.mark.parametrize("peer", sorted(verdict.PEERS))
def test_the_site_says_plainly_which_corpus_a_peers_saved_run_read(peer: str) -> None:
    """A saved run of another corpus than the site's is said to be of an older corpus, with both
    digests; one of the site's corpus is said to be so. (The committed runs are not required to be
    current: only the peers' checkouts can make them again, and `verdict.py --check` fails on a stale one.)"""
    from gostop_conformance.harness import corpus_digest

    compat = _compat()
    [run] = [r for r in compat.peer_runs() if r.name == peer]
    current = corpus_digest()
    note = compat.corpus_note(run, current)
    saved = run.header["corpus_digest"]
    if saved == current:
        assert note == f"this site's corpus (<code>{current}</code>)"
    else:
        assert note.startswith(f"<strong>an older corpus</strong> (<code>{saved}</code>; this site's is <code>{current}</code>)")
    older = compat.corpus_note(run, "sha256:0000000000000000")
    assert f"an older corpus</strong> (<code>{saved}</code>; this site's is <code>sha256:0000000000000000</code>)" in older


def test_verdict_check_names_the_saved_files_a_run_differs_from(tmp_path: Path) -> None:
    (tmp_path / "report.jsonl").write_text("a\n", encoding="utf-8")
    (tmp_path / "hello.json").write_text("{}\n", encoding="utf-8")
    assert verdict.stale_saved(tmp_path, {"report.jsonl": "a\n", "hello.json": "{}\n", "engine.json": "{}\n"}) == ["engine.json"]
    assert verdict.stale_saved(tmp_path, {"report.jsonl": "b\n", "hello.json": "{}\n"}) == ["report.jsonl"]
