"""The values of an option that a check is tried under: what option dependencies are derived from
(`_dependencies`), and how a check finds out whether its answer rests on an option the engine
does not declare (`depends_on`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Any, Final

from gostop_conformance.reference import can_trace, traced_options
from gostop_conformance.spec import Options, OptionSpec, option_registry

#: integer ranges up to this many values are probed whole
_WHOLE_RANGE: Final = 31
#: sets of up to this many members are probed as every subset
_WHOLE_SET: Final = 4


def probe_values(spec: OptionSpec, current: Any) -> list[Any]:
    """The values of an option a scenario is tried under (JSON form, deterministic order); the
    scenario's own value is included."""
    t = spec.type
    values: list[Any]
    if t == "bool":
        values = [False, True]
    elif t == "enum":
        values = list(spec.values)
    elif t in ("int", "int_or_enum"):
        assert spec.minimum is not None and spec.maximum is not None
        values = [*spec.symbols, *_int_probes(spec.minimum, spec.maximum, current if isinstance(current, int) else None)]
    else:  # subset, card_set, int_list: lists of members
        members = list(spec.values)
        if len(members) <= _WHOLE_SET:
            values = [sorted(combo) for size in range(len(members) + 1) for combo in combinations(members, size)]
        else:
            own = sorted(current) if isinstance(current, list) else []
            toggled = [sorted(set(own) ^ {m}) for m in members]
            values = [[], sorted(members), *toggled]
    if current not in values:
        values.append(current)
    out: list[Any] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def _int_probes(low: int, high: int, current: int | None) -> list[int]:
    if high - low < _WHOLE_RANGE:
        return list(range(low, high + 1))
    picks = set(range(low, low + 11)) | {high}
    if current is not None:
        picks |= set(range(current - 3, current + 4))
    picks |= {v for v in (20, 50, 100, 200, 500, 1000)}
    return sorted(v for v in picks if low <= v <= high)


def depends_on(compute: Callable[[Options], object], options: Options, names: Iterable[str]) -> str | None:
    """The first of `names` (options) whose other probed values change what `compute` answers
    under `options`, or None: a check whose answer rests on an option the engine does not declare
    cannot judge the engine. On the interpreted engine only the options `compute` reads are tried."""
    candidates = sorted(set(names))
    if not candidates:
        return None
    if can_trace():
        reads: set[str] = set()
        compute(traced_options(options, reads))
        candidates = [name for name in candidates if name in reads]
    answer = compute(options)
    current = options.as_json()
    registry = option_registry()
    for name in candidates:
        spec = registry[name]
        for value in probe_values(spec, current[name]):
            if value == current[name]:
                continue
            try:
                changed: dict[str, Any] = {name: spec.coerce(value)}
                other = dataclasses.replace(options, **changed)
                if compute(other) != answer:
                    return name
            except (TypeError, ValueError, KeyError, IndexError):  # a value the computation cannot take is a change too
                return name
    return None
