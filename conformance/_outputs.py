"""Where the commands write: checked before any work is done (a folder that cannot be written must
not cost a fuzzing session or a whole run), a report folder claimed by one run at a time and
emptied of an earlier run's reports before anything else happens."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Final

from gostop_conformance.spec import InputError

#: the report files of a run, in the report folder
REPORT_FILES: Final = ("report.jsonl", "junit.xml", "summary.md")
#: the lock a run holds on its report folder (a second run into the same folder is refused)
LOCK_NAME: Final = ".gostop-run.lock"
_PROBE: Final = ".gostop-write-check"


def clean_report_dir(out: Path) -> None:
    """Remove what an earlier run wrote here (its reports and reproducer folders), so that nothing
    stale is published with this run's results; nothing else in the folder is touched."""
    for name in REPORT_FILES:
        (out / name).unlink(missing_ok=True)
    repro = out / "repro"
    if repro.is_dir():
        for folder in repro.iterdir():
            if folder.is_dir() and (folder / "replay.sh").exists():
                shutil.rmtree(folder)
        with contextlib.suppress(OSError):
            repro.rmdir()  # only when empty


def writable_dir(option: str, folder: Path) -> Path:
    """`folder` exists (created if need be) and a file can be written in it."""
    if folder.exists() and not folder.is_dir():
        raise InputError(option, f"{folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / _PROBE
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise InputError(option, f"cannot write into {folder}: {exc.strerror or exc}") from None
    return folder


def writable_file(option: str, path: Path) -> Path:
    """`path` can be written (its folder created if need be), without creating it yet."""
    if path.is_dir():
        raise InputError(option, f"{path} is a folder, not a file")
    if path.exists() and not os.access(path, os.W_OK):
        raise InputError(option, f"cannot write {path}: permission denied")
    writable_dir(option, path.parent)
    return path


@contextlib.contextmanager
def claimed_report_dir(option: str, folder: Path) -> Iterator[Path]:
    """The report folder, for this run alone: writable, locked against a second run writing into it
    at the same time, and emptied of an earlier run's reports first (no stale green report looks
    current while this run is under way, or after it was killed)."""
    writable_dir(option, folder)
    try:
        lock = (folder / LOCK_NAME).open("a+", encoding="utf-8")
    except OSError as exc:
        raise InputError(option, f"cannot write into {folder}: {exc.strerror or exc}") from None
    with lock:
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.seek(0)
            holder = lock.read().strip() or "?"
            raise InputError(
                option, f"another run (process {holder}) is writing its reports into {folder}; give another --report-dir"
            ) from None
        lock.seek(0)
        lock.truncate()
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        try:
            clean_report_dir(folder)
        except OSError as exc:
            raise InputError(option, f"cannot remove the earlier reports in {folder}: {exc.strerror or exc}") from None
        try:
            yield folder
        finally:
            with contextlib.suppress(OSError):  # left empty: the folder's files depend on the inputs alone
                lock.truncate(0)


@contextlib.contextmanager
def written_whole(path: Path) -> Iterator[IO[str]]:
    """A report file written whole or not at all: into a temporary file beside it, renamed over it
    once complete, so a report is never half-written (an interrupt, a full disk)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    try:
        with partial.open("w", encoding="utf-8") as out:
            yield out
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
