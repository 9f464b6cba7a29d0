"""The site, built once for every test of tests/docs that reads it (mkdocs build --strict)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
#: the path of the site's address (mkdocs.yml site_url), where the 404 page's absolute links start
SITE_PATH = urllib.parse.urlsplit(yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))["site_url"]).path


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """Built once per test session: under xdist the workers share one build (the first to take
    the lock builds it; the others wait and read it), since each build costs half a minute."""
    pytest.importorskip("mkdocs", reason="the docs extra (mkdocs-material) is not installed")
    pytest.importorskip("material", reason="the docs extra (mkdocs-material) is not installed")
    if worker_id == "master":
        return _build(tmp_path_factory.mktemp("site"))
    shared = tmp_path_factory.getbasetemp().parent  # the session's folder, above each worker's own
    out = shared / "site"
    with (shared / "site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "site.built").exists():
            shutil.rmtree(out, ignore_errors=True)
            _build(out)
            (shared / "site.built").touch()
    return out


def _build(out: Path) -> Path:
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(REPO / "mkdocs.yml"), "-d", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env=ENV,
        check=False,
    )
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
    return out
