"""Fixtures shared by the harness's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.test_stdio_harness import CORPUS


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A corpus of the three harness scenarios of test_stdio_harness.py, in a folder of its own."""
    folder = tmp_path / "scenarios" / "harness"
    folder.mkdir(parents=True)
    (folder / "h.yaml").write_text(CORPUS, encoding="utf-8")
    return tmp_path / "scenarios"
