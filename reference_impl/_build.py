"""Which engine this is: the package's version, and whether mypyc compiled its modules (the
compiled build computes the same rules; reports and benchmarks say which one ran)."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from importlib.metadata import PackageNotFoundError, version


def engine_build() -> str:
    """`compiled` when the engine's modules are C extensions built by mypyc from these same
    sources (`make compiled`), `interpreted` when they run as Python source."""
    import gostop_conformance.reference._round as round_module

    path = round_module.__file__ or ""
    return "compiled" if path.endswith(tuple(EXTENSION_SUFFIXES)) else "interpreted"


def engine_version() -> str:
    try:
        return version("gostop-conformance")
    except PackageNotFoundError:  # running from a source tree without installation
        return "0+unknown"
