"""A fuzz run's results file and the merge of shards (conformance/_fuzzsave.py, `fuzz --shard`,
`fuzz-merge`): the shards of a run, merged, are the run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gostop_conformance.harness._fuzzsave import FILE_NAME, load, shard_range
from gostop_conformance.spec import InputError
from tests.conformance.test_fuzz import _fuzz_cli
from tests.conftest import needs_interpreted

REFERENCE = f"{sys.executable} -m gostop_conformance.reference --stdio"


@pytest.mark.parametrize("games", [1, 7, 40, 1000, 1_000_003])
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_the_shards_partition_the_run(games: int, n: int) -> None:
    ranges = [shard_range(games, (k, n)) for k in range(1, n + 1)]
    assert [g for r in ranges for g in r] == list(range(games))
    assert shard_range(games, None) == range(games)


def harness(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gostop_conformance.harness", *args], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )


@needs_interpreted
def test_the_merged_shards_are_the_whole_run(tmp_path: Path) -> None:
    """Three shards, merged: the same divergence classes, counts, scenario files (byte for byte)
    and results file as the run played whole (its header and timing aside)."""
    whole = _fuzz_cli(tmp_path / "whole", "--games", "40", "--seed", "3")
    for k in (1, 2, 3):
        shard = _fuzz_cli(tmp_path / f"s{k}", "--games", "40", "--seed", "3", "--shard", f"{k}/3")
        assert f"shard {k}/3: rounds" in shard[0]
    merge = harness(tmp_path, "fuzz-merge", "s3/found", "s1/found", "s2/found/fuzz.json", "--out", "merged")
    assert merge.returncode == 1, merge.stderr  # the mutant diverges
    merged = {p.name: p.read_bytes() for p in sorted((tmp_path / "merged").iterdir())}
    assert whole[1].keys() - {FILE_NAME}, "the run wrote no scenario: nothing was compared"
    assert merged == whole[1]
    body = [line for line in whole[0].splitlines() if not line.startswith(("fuzzed within", "<timing>"))]
    shown = merge.stdout.replace("merged/", "found/")
    merged_body = [line for line in shown.splitlines() if not line.startswith(("fuzzed within", "merged ", "40 rounds, "))]
    assert merged_body == body
    assert "NOT GREEN" not in merge.stdout


@needs_interpreted
def test_a_merge_without_every_shard_is_never_green(tmp_path: Path) -> None:
    """The reference engine finds nothing; one of two shards merged alone still fails, naming the
    rounds no file holds; both pass."""
    for k in (1, 2):
        proc = harness(tmp_path, "fuzz", "--engine", REFERENCE, "--games", "10", "--shard", f"{k}/2", "--out", f"s{k}")
        assert proc.returncode == 0, proc.stdout + proc.stderr
    alone = harness(tmp_path, "fuzz-merge", "s2", "--out", "m1")
    assert alone.returncode == 1
    assert "NOT GREEN: no results for rounds 1-5 of the run's 10" in alone.stdout
    assert json.loads((tmp_path / "m1" / FILE_NAME).read_text())["rounds"] == [[5, 10]]
    both = harness(tmp_path, "fuzz-merge", "s1", "s2", "--out", "m2")
    assert both.returncode == 0, both.stdout
    assert json.loads((tmp_path / "m2" / FILE_NAME).read_text())["rounds"] == [[0, 10]]


@needs_interpreted
def test_results_of_other_runs_or_twice_the_same_are_refused(tmp_path: Path) -> None:
    for name, seed in (("a", "1"), ("b", "2")):
        proc = harness(tmp_path, "fuzz", "--engine", REFERENCE, "--games", "4", "--seed", seed, "--out", name)
        assert proc.returncode == 0, proc.stderr
    other = harness(tmp_path, "fuzz-merge", "a", "b", "--out", "m")
    assert other.returncode == 2
    assert "b/fuzz.json: not the run of a/fuzz.json: its seed is 2, not 1" in other.stderr
    twice = harness(tmp_path, "fuzz-merge", "a", "a/fuzz.json", "--out", "m")
    assert twice.returncode == 2
    assert "its rounds 1-4 are in a/fuzz.json too: the shards overlap" in twice.stderr
    assert "Traceback" not in other.stderr + twice.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not a fuzz results file (invalid JSON"),
        ('{"format": "other"}', "not a fuzz results file: expected an object with format"),
        (
            '{"format": "gostop-conformance-fuzz/1", "run": {}}',
            "a fuzz results file with a missing or malformed field (KeyError: 'rounds')",
        ),
    ],
)
def test_a_malformed_results_file_names_the_file_and_what_is_wrong(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_text(text)
    with pytest.raises(InputError) as raised:
        load(path)
    assert str(path) in str(raised.value) and message in str(raised.value)
