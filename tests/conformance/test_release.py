"""Releases (CHANGELOG.md): the newest entry names the suite's version, the protocol's and the
digest of the corpus as it is now, so that a corpus change without a changelog entry fails here;
`--version` and every report header carry the same digest."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

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
