"""gostop-reference on the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_output_into_a_closed_pipe_is_not_an_error() -> None:
    """`gostop-reference rulesets | head -0`: the reader has gone before the first line."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gostop_conformance.reference", "rulesets"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err


def _play(ruleset: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "gostop_conformance.reference", "play", "--ruleset", ruleset, "--seed", "1", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def test_play_shows_card_points_in_the_point_count_variant() -> None:
    """R-PC-CARD-POINTS: a family round counts card values; Go-Stop points mean nothing there."""
    out = _play("family-3p")
    assert " card points): " in out and " pts): " not in out


def test_play_shows_go_stop_points_in_go_stop() -> None:
    out = _play("matgo-2p")
    assert " pts): " in out and " card points): " not in out


def test_play_takes_a_ruleset_file_that_inherits_from_a_named_ruleset_or_another_file(tmp_path: Path) -> None:
    """`play --ruleset-file` (issue 41): the round is played under the file's resolved options (its
    two bonus cards are dealt, R-BONUS-DECK; its child plays with two players), named with its hash."""
    from gostop_conformance.spec import load_ruleset_file

    (tmp_path / "ours-3p.yaml").write_text(
        "id: ours-3p\ntitle: Ours\nparent: standard-3p\ndescription: d\nsources: [seed-003]\noptions:\n  bonus_cards: [2, 2]\n",
        encoding="utf-8",
    )
    (tmp_path / "ours-2p.yaml").write_text(
        "id: ours-2p\ntitle: Ours for two\nparent: ./ours-3p.yaml\ndescription: d\nsources: [seed-003]\n"
        'options:\n  players: 2\n  deal_layout: "10-8"\n',
        encoding="utf-8",
    )
    for name, seats in (("ours-3p.yaml", 3), ("ours-2p.yaml", 2)):
        rules = load_ruleset_file(tmp_path / name, name)
        out = _run(["play", "--ruleset-file", name, "--seed", "2", "--rounds", "1"], tmp_path).stdout
        assert out.startswith(f"ruleset {rules.ruleset.id} from {name} ({rules.ruleset.title}, {rules.hash}), seed 2")
        assert "bonus-2a" in out and "bonus-2b" in out
        assert f"P{seats - 1} hand:" in out and f"P{seats} hand:" not in out


def test_play_reports_a_mistake_in_a_ruleset_file_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(
        "id: bad\ntitle: t\nparent: standard-3p\ndescription: d\nsources: [seed-003]\noptions:\n  jjok_steal: 9\n", encoding="utf-8"
    )
    done = _run(["play", "--ruleset-file", "bad.yaml"], tmp_path, check=False)
    assert done.returncode == 2 and "bad.yaml:7 at options.jjok_steal: expected an integer from 0 to 5, got 9" in done.stderr
    both = _run(["play", "--ruleset-file", "bad.yaml", "--ruleset", "matgo-2p"], tmp_path, check=False)
    assert both.returncode == 2 and "not allowed with argument" in both.stderr


def _run(args: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gostop_conformance.reference", *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=check
    )
