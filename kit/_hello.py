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


def _check_support(where: str, option: str, support: Any) -> Any:
    registry = spec.option_registry()
    known = registry.get(option)
    if known is None:
        close = get_close_matches(option, list(registry), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise KitError(f"{where}.{option}: unknown option of spec/options.yaml{hint}")
    if support in (ALL, UNSUPPORTED):
        return support
    if isinstance(support, Mapping) and set(support) == {"by_players"}:
        return {"by_players": {str(n): _check_support(f"{where}.{option}.by_players", option, v) for n, v in support["by_players"].items()}}
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
    return {"id": ruleset_id, "options": {o: _check_support(f"hello.rulesets[{ruleset_id}].options", o, s) for o, s in exceptions.items()}}


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
) -> Json:
    """The hello reply (without seq and protocol, which the kit adds). `reasons` says, per option
    the declaration names, why (the engine's source, a house rule): `gostop-conformance support`
    shows them beside the scenarios they leave out."""
    engine: Json = {"name": name, "version": version}
    if language:
        engine["language"] = language
    if homepage:
        engine["homepage"] = homepage
    found: Json = {"engine": engine, "rulesets": list(rulesets)}
    if options:
        found["options"] = {o: _check_support("hello.options", o, s) for o, s in options.items()}
    if positions is not None:
        found["positions"] = positions
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
