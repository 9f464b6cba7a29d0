"""Releases (CHANGELOG.md): the newest entry names the suite's version, the protocol's and the
digest of the corpus as it is now, so that a corpus change without a changelog entry fails here;
`--version` and every report header carry the same digest."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gostop_conformance.harness._cli import main
from gostop_conformance.harness._scenarios import corpus_digest, default_root, load_corpus
from gostop_conformance.reference import PROTOCOL_VERSION, engine_version

ROOT = Path(__file__).resolve().parents[2]
CLI = str(Path(sys.executable).with_name("gostop-conformance"))
ENTRY = re.compile(r"^## (\S+).*?\n\nProtocol (\S+)\. Corpus: ([\d,]+) scenarios, digest `(sha256:[0-9a-f]{16})`\.", re.MULTILINE)


def test_the_newest_changelog_entry_is_the_corpus_as_it_is() -> None:
    found = ENTRY.search((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    assert found is not None, (
        "CHANGELOG.md: the newest entry must begin '## <version> ...' then 'Protocol N. Corpus: N scenarios, digest `sha256:...`.'"
    )
    version, protocol, count, digest = found.groups()
    assert version == engine_version()
    assert protocol == PROTOCOL_VERSION
    assert int(count.replace(",", "")) == len(load_corpus())
    assert digest == corpus_digest(), (
        f"the corpus changed (digest now {corpus_digest()}): say in CHANGELOG.md's newest entry what changed for engines, with the digest"
    )


def test_the_digest_changes_with_any_scenario_file(tmp_path: Path) -> None:
    copy = tmp_path / "corpus"
    subprocess.run(["cp", "-r", str(default_root()), str(copy)], check=True)
    before = corpus_digest(copy)
    assert before == corpus_digest()
    some = sorted(copy.rglob("*.yaml"))[5]
    some.write_text(some.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert corpus_digest(copy) != before


def test_version_and_report_header_carry_the_digest(tmp_path: Path) -> None:
    shown = subprocess.run([CLI, "--version"], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == f"gostop-conformance {engine_version()} (protocol {PROTOCOL_VERSION}, corpus {corpus_digest()})"
    engine = f"{Path(sys.executable).with_name('gostop-reference')} --stdio"
    subprocess.run(
        [CLI, "run", "--engine", engine, "--area", "rejections", "-q", "--report-dir", str(tmp_path)], check=True, capture_output=True
    )
    header = json.loads((tmp_path / "report.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["corpus_digest"] == corpus_digest()


# ------------------------------------------------------------------ reports of different corpora


def _corpus(at: Path, note: str = "") -> Path:
    """A corpus of three scenarios (tests/conformance/test_stdio_harness.py's), its digest
    changed by `note` (a comment: the scenarios stay the same, the files do not)."""
    from tests.conformance.test_stdio_harness import CORPUS

    folder = at / "scenarios" / "harness"
    folder.mkdir(parents=True)
    (folder / "h.yaml").write_text(CORPUS + (f"# {note}\n" if note else ""), encoding="utf-8")
    return at / "scenarios"


def _run(root: Path, out: Path, *extra: str) -> int:
    from tests.conformance.test_stdio_harness import FAKE

    return main(
        ["run", "-q", "--scenarios", str(root), "--engine", f"{sys.executable} {FAKE} one_rule_wrong", "--report-dir", str(out), *extra]
    )


def test_summary_and_the_report_page_say_what_the_run_was_judged_by(tmp_path: Path) -> None:
    root = _corpus(tmp_path)
    _run(root, tmp_path / "r")
    digest = corpus_digest(root)
    assert digest != corpus_digest()  # the run's corpus is named, not the bundled one
    summary = (tmp_path / "r" / "summary.md").read_text(encoding="utf-8")
    assert f"Suite {engine_version()}, protocol {PROTOCOL_VERSION}, corpus `{digest}`." in summary.splitlines()[2]
    assert main(["report", str(tmp_path / "r" / "report.jsonl"), "--out", str(tmp_path / "c")]) == 0
    page = (tmp_path / "c" / "index.html").read_text(encoding="utf-8")
    assert f"Judged by gostop-conformance {engine_version()}, protocol {PROTOCOL_VERSION}, corpus <code>{digest}</code>." in page
    assert "different corpora" not in page


def test_report_warns_when_the_runs_read_different_corpora(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _corpus(tmp_path / "old"), _corpus(tmp_path / "new", "a later corpus")
    _run(old, tmp_path / "a")
    _run(new, tmp_path / "b")
    a, b = tmp_path / "a" / "report.jsonl", tmp_path / "b" / "report.jsonl"
    capsys.readouterr()
    assert main(["report", str(a), str(a), "--out", str(tmp_path / "same")]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["report", str(a), str(b), "--out", str(tmp_path / "c")]) == 0
    err = capsys.readouterr().err
    expected = f"these runs read different corpora ({corpus_digest(old)}: {a}; {corpus_digest(new)}: {b})"
    assert err.startswith(f"gostop-conformance: warning: {expected}: their scenarios and counts are not comparable")
    page = (tmp_path / "c" / "index.html").read_text(encoding="utf-8")
    warning = page.index('<p class="warning">')
    assert warning < page.index('id="overview"') and expected in page[warning:]
    assert f"<td><code>{corpus_digest(new)}</code></td>" in page  # each run's corpus beside its counts


def test_summary_refuses_shards_of_different_corpora_and_warns_of_another_corpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = _corpus(tmp_path / "old"), _corpus(tmp_path / "new", "a later corpus")
    _run(old, tmp_path / "s1", "--shard", "1/2")
    _run(new, tmp_path / "s2", "--shard", "2/2")
    s1, s2 = tmp_path / "s1" / "report.jsonl", tmp_path / "s2" / "report.jsonl"
    capsys.readouterr()
    assert main(["summary", str(s1), str(s2), "--scenarios", str(new)]) == 2
    err = capsys.readouterr().err
    assert f"{s2}: these runs read different corpora ({corpus_digest(old)}: {s1}; {corpus_digest(new)}: {s2})" in err
    assert "shards of one run read one corpus" in err
    _run(old, tmp_path / "t2", "--shard", "2/2")
    assert main(["summary", str(s1), str(tmp_path / "t2" / "report.jsonl"), "--scenarios", str(old)]) == 1  # the fake fails one
    assert "warning" not in capsys.readouterr().err
    assert main(["summary", str(s1), str(tmp_path / "t2" / "report.jsonl"), "--scenarios", str(new)]) == 1
    assert (
        f"gostop-conformance: warning: these runs read different corpora ({corpus_digest(old)}: the reports given; "
        f"{corpus_digest(new)}: the corpus they are read against ({new}))"
    ) in capsys.readouterr().err


def test_a_ledger_names_its_corpus_and_run_warns_when_it_reads_another(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _corpus(tmp_path / "old"), _corpus(tmp_path / "new", "a later corpus")
    _run(old, tmp_path / "r")
    ledger = tmp_path / "known.yaml"
    assert main(["ledger", str(tmp_path / "r" / "report.jsonl"), "--out", str(ledger)]) == 0
    text = ledger.read_text(encoding="utf-8")
    assert f"\ncorpus_digest: {corpus_digest(old)}\nknown_failures:\n" in text
    ledger.write_text(text.replace("TODO: say why this scenario fails", "no jjok steal yet"), encoding="utf-8")
    capsys.readouterr()
    assert _run(old, tmp_path / "again", "--known-failures", str(ledger)) == 0
    assert "warning" not in capsys.readouterr().err
    assert _run(new, tmp_path / "later", "--known-failures", str(ledger)) == 0
    assert (
        f"gostop-conformance: warning: these runs read different corpora ({corpus_digest(old)}: the ledger {ledger}; "
        f"{corpus_digest(new)}: this run ({new}))"
    ) in capsys.readouterr().err
    ledger.write_text(ledger.read_text(encoding="utf-8").replace(corpus_digest(old), "sha256:xyz"), encoding="utf-8")
    assert _run(new, tmp_path / "bad", "--known-failures", str(ledger)) == 2
    assert f"{ledger}:4 at corpus_digest: expected a corpus digest such as sha256:0123456789abcdef, got 'sha256:xyz'" in (
        capsys.readouterr().err
    )


def test_the_version_schemes_are_written_down_alike_in_the_changelog_and_the_tutorial() -> None:
    """The suite's MAJOR.MINOR.PATCH (a MINOR per corpus change) and the protocol's whole number,
    in CHANGELOG.md's header and in the tutorial's section on reports."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
    tutorial = " ".join((ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8").split())
    for text in (" ".join(changelog.split()), tutorial):
        for rule in ("MAJOR.MINOR.PATCH", "whenever the corpus changes (scenarios added, changed or removed)", "a whole number"):
            assert rule in text, rule
        assert re.search(r"a new MAJOR\s+with a new protocol", text)
