"""The hello reply's declaration (docs/declarations.md): what the engine plays, built from named
rulesets and options and checked against spec/options.yaml and spec/rulesets/ when it is built, so
that a typo in an option id or value stops the adapter at its start, naming the mistake, rather
than silently leaving scenarios unsupported."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from difflib import get_close_matches
from typing import Any, Final

from gostop_conformance import spec
from gostop_conformance.kit._errors import KitError
from gostop_conformance.kit._replies import checked

Json = dict[str, Any]

#: an option's rule is not implemented reliably: the scenarios that depend on it are UNSUPPORTED
UNSUPPORTED: Final = "unsupported"
#: every value of the option
ALL: Final = "all"


def _check_support(where: str, option: str, support: Any, *, top: bool, counts: bool = False) -> Any:
    """One option's support: 'all', a list of values, 'unsupported' (a ruleset's exception, or
    one player count's), or at the top level {'by_players': ...} (docs/declarations.md)."""
    if counts and support == UNSUPPORTED:
        return support
    registry = spec.option_registry()
    known = registry.get(option)
    if known is None:
        close = get_close_matches(option, list(registry), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise KitError(f"{where}.{option}: unknown option of spec/options.yaml{hint}")
    if support == ALL or (support == UNSUPPORTED and not top):
        return support
    if support == UNSUPPORTED:
        raise KitError(f"{where}.{option}: 'unsupported' is for a ruleset's exceptions (kit.ruleset); leave the option out here")
    if isinstance(support, Mapping) and set(support) == {"by_players"} and top:
        per_count = support["by_players"]
        stray = sorted(str(n) for n in per_count if str(n) not in ("2", "3", "4"))
        if stray or not per_count:
            raise KitError(f"{where}.{option}.by_players: expected player counts '2', '3' or '4' as keys, got {stray or 'none'}")
        inner = f"{where}.{option}.by_players"
        return {"by_players": {str(n): _check_support(inner, option, v, top=False, counts=True) for n, v in per_count.items()}}
    values = list(support) if isinstance(support, (list, tuple)) else None
    if not values:
        raise KitError(
            f"{where}.{option}: expected 'all', 'unsupported', a non-empty list of values or {{'by_players': ...}}, got {support!r}"
        )
    for v in values:
        if known.coerce(list(v) if isinstance(v, tuple) else v) is None:
            raise KitError(f"{where}.{option}: {v!r} is not a value of the option: expected {known.expected()}")
    return [list(v) if isinstance(v, tuple) else v for v in values]


def ruleset(ruleset_id: str, **exceptions: Any) -> str | Json:
    """A named ruleset the engine plays, except for the options given (each 'all', 'unsupported',
    or the list of values played instead): `ruleset("matgo-2p", meong_mode=["off"])`."""
    if ruleset_id not in spec.ruleset_ids():
        raise KitError(f"hello.rulesets: {ruleset_id!r} is not a ruleset of spec/rulesets/ ({', '.join(spec.ruleset_ids())})")
    if not exceptions:
        return ruleset_id
    where = f"hello.rulesets[{ruleset_id}].options"
    return {"id": ruleset_id, "options": {o: _check_support(where, o, s, top=False) for o, s in exceptions.items()}}


def hello(
    name: str,
    version: str,
    *,
    rulesets: Sequence[str | Json] = (),
    options: Mapping[str, Any] | None = None,
    language: str | None = None,
    homepage: str | None = None,
    positions: str | None = None,
    features: Iterable[str] = (),
    reasons: Mapping[str, str] | None = None,
    events: str | None = None,
) -> Json:
    """The hello reply (without seq and protocol, which the kit adds). `reasons` says, per option
    the declaration names, why (the engine's source, a house rule): `gostop-conformance support`
    shows them beside the scenarios they leave out."""
    engine: Json = {"name": name, "version": version}
    if language:
        engine["language"] = language
    if homepage:
        engine["homepage"] = homepage
    for item in rulesets:  # one given by id alone, not through kit.ruleset
        if isinstance(item, str) and item not in spec.ruleset_ids():
            raise KitError(f"hello.rulesets: {item!r} is not a ruleset of spec/rulesets/ ({', '.join(spec.ruleset_ids())})")
    found: Json = {"engine": engine, "rulesets": list(rulesets)}
    if options:
        found["options"] = {o: _check_support("hello.options", o, s, top=True) for o, s in options.items()}
    if positions is not None:
        found["positions"] = positions
    if events is not None:  # "none": the engine reports no events (spec/vocabulary.yaml, event_reports)
        if events not in spec.vocabulary()["event_reports"]:
            raise KitError(f"hello.events: expected one of {', '.join(spec.vocabulary()['event_reports'])}, got {events!r}")
        found["events"] = events
    features = list(features)
    if features:
        unknown = sorted(set(features) - set(spec.vocabulary()["features"]))
        if unknown:
            raise KitError(f"hello.features: {', '.join(unknown)} not among {', '.join(sorted(spec.vocabulary()['features']))}")
        found["features"] = features
    if reasons:
        registry = spec.option_registry()
        stray = sorted(o for o in reasons if o not in registry)
        if stray:
            raise KitError(f"hello.reasons: {', '.join(stray)}: unknown options of spec/options.yaml")
        found["reasons"] = dict(reasons)
    checked({"seq": 0, "protocol": "1", **found}, "reply_hello", "hello")
    return found
