"""Which options the engine reads while it plays: the evidence behind a scenario's option
dependencies (conformance derives them; docs/dependencies in the site says how).

An option the engine never reads during a run cannot change that run: the engine is
deterministic and consults the rules only through `Options`. Recording the reads therefore tells
which options are worth replaying under other values. Only the interpreted engine can be traced:
compiled code reads the fields of its native classes directly, past any hook.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, Final

from gostop_conformance.reference._build import engine_build
from gostop_conformance.spec import InputError, Options, Ruleset, memo

_FIELDS: Final = frozenset(f.name for f in fields(Options))
_traced_class: Final[list[type[Options]]] = memo([])


def can_trace() -> bool:
    """Whether option reads can be recorded (the interpreted build)."""
    return engine_build() == "interpreted"


def traced(ruleset: Ruleset, reads: set[str]) -> Ruleset:
    """The same ruleset, whose options add the name of every option the engine reads to `reads`."""
    return replace(ruleset, options=traced_options(ruleset.options, reads))


def traced_options(options: Options, reads: set[str]) -> Options:
    """The same options, adding the name of every option read to `reads` (whoever reads them:
    the engine, or the harness's own checks of scores and matches)."""
    if not can_trace():
        raise InputError("option tracing", "the engine is compiled with mypyc; option reads can only be recorded on the interpreted engine")
    cls = _class()
    traced = cls(**{name: getattr(options, name) for name in _FIELDS})
    object.__setattr__(traced, "_reads", reads)
    return traced


def _class() -> type[Options]:
    # built on first use: on the compiled build, Options is a native class that Python code may not subclass
    if not _traced_class:

        class TracedOptions(Options):
            __slots__ = ("_reads",)

            def __getattribute__(self, name: str) -> Any:
                if name in _FIELDS:
                    object.__getattribute__(self, "_reads").add(name)
                return object.__getattribute__(self, name)

        _traced_class.append(TracedOptions)
    return _traced_class[0]
