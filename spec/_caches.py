"""Every memoised value of the project, forgotten at once by `reset_caches()`: what a long-lived
process (`mkdocs serve`, a test that edits spec files) calls so that an edited deck, option,
ruleset or clause is read again instead of served from a cache.

Two kinds of cache exist. Loaders decorated with `functools.cache` are found by walking the
project's loaded modules; the hot paths keep plain dicts and lists instead (compiled code looks
a dict up directly, where a `functools.cache` call goes through the wrapper), and those register
themselves here with `memo()` when their module is imported, so that none escapes a reset.
"""

from __future__ import annotations

import importlib
import sys
from typing import Final, TypeVar

_Container = TypeVar("_Container", dict, list)  # type: ignore[type-arg]  # any dict or list

_MEMOS: Final[list[dict | list]] = []  # type: ignore[type-arg]
#: the packages whose `functools.cache` loaders reset_caches clears (read from sys.modules, so that
#: the spec layer imports nothing of the layers above it)
_PACKAGES: Final = ("gostop_conformance", "docsgen")


def memo(container: _Container) -> _Container:
    """Register an (empty) dict or list that a module uses as a cache; returns it."""
    _MEMOS.append(container)
    return container


def reset_caches() -> None:
    """Forget every memoised value: the registered containers and every `functools.cache`."""
    for container in _MEMOS:
        container.clear()
    for name in sorted(sys.modules):
        if name.split(".", 1)[0] not in _PACKAGES:
            continue
        module = sys.modules[name]
        for attr in sorted(vars(module)):
            fn = getattr(module, attr)
            if callable(fn) and hasattr(fn, "cache_clear") and getattr(fn, "__module__", None) == name:
                fn.cache_clear()
    importlib.invalidate_caches()


def memos() -> tuple[dict | list, ...]:  # type: ignore[type-arg]
    """The registered containers (tests/spec/test_caches.py)."""
    return tuple(_MEMOS)
