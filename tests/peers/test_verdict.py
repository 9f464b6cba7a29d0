"""peers/verdict.py: a peer's README verdict is generated from a run, and every failure must be
classified with its evidence (the peers themselves are not run here: their checkouts are not part
of the project; peers/README.md says how to run them)."""

from __future__ import annotations

import importlib.util
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
