"""A cache of derived option dependencies (conformance._dependencies), so that `lint` of an unchanged
corpus answers in seconds (issue 42).

A derivation is a function of three things: the scenario (its digest, `scenario_digest`), the
spec, and the code that plays and compares it (the reference engine and the harness). The cache
is one file per state of the spec and the code, `dependencies-<context>.yaml` in the format of
`scenarios/dependencies.yaml`, where `<context>` hashes every file of the spec, reference and
harness packages (and whether the engine can trace its option reads, which changes what is
derived). An entry is used only when its scenario's digest matches; anything else, a changed file
of the engine included, is derived again. A cache file that cannot be read is ignored (it is
derived again, never trusted: conformance._dependencies reads it), and only the newest few are kept.

Where: `$GOSTOP_CACHE_DIR`, else `$XDG_CACHE_HOME/gostop-conformance`, else
`~/.cache/gostop-conformance`; `--no-cache` derives everything. A fresh machine (CI) has no cache,
so the stored file is always checked against a full derivation there.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Final

import gostop_conformance.harness as harness_pkg
import gostop_conformance.reference as reference_pkg
from gostop_conformance.reference import can_trace
from gostop_conformance.spec import spec_dir

#: cache files kept per folder (one per state of the code that was linted lately)
KEEP: Final = 4
#: the files whose content a derivation can depend on
_SUFFIXES: Final = (".py", ".yaml", ".json")


def default_dir() -> Path:
    explicit = os.environ.get("GOSTOP_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "gostop-conformance"


@cache
def context() -> str:
    """A digest of everything besides the scenario that a derivation depends on."""
    digest = hashlib.sha256(f"trace={can_trace()}".encode())
    for package in (Path(spec_dir()), Path(reference_pkg.__file__).parent, Path(harness_pkg.__file__).parent):
        root = package.resolve()
        for path in sorted(p for p in root.rglob("*") if p.suffix in _SUFFIXES and p.is_file() and "__pycache__" not in p.parts):
            digest.update(f"\0{root.name}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def path_in(folder: Path) -> Path:
    return folder / f"dependencies-{context()}.yaml"


def write(folder: Path, text: str) -> None:
    """Store the derivations (the text of a dependencies file) atomically, and drop old files. A
    cache that cannot be written is no error: the next run derives again."""
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".dependencies-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(tmp, path_in(folder))
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        old = sorted(folder.glob("dependencies-*.yaml"), key=lambda p: p.stat().st_mtime, reverse=True)[KEEP:]
        for path in old:
            with contextlib.suppress(OSError):
                path.unlink()
