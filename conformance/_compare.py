"""Comparing expectations with what an engine reported. Card piles compare as multisets;
presentation order is never normative. Only the fields an expectation names are compared.

Outcomes over conventions (docs/scenario-format.md, "What fails an engine"):
- equivalent cards (same month, kind, units and roles: the two single junk of a month, the 2-unit
  bonus cards; R-CARD-IDS) compare as the same card, unless the scenario sets `exact_cards`; in
  captured piles, single junk of any month are one card, and so are the two double junk (R-STEAL:
  which the giver hands over is the giver's choice), except where the ruleset scores months;
- event expectations fail an engine only in a scenario about the event log (`event_log: true`);
  elsewhere a difference in the events is reported as a note, and the scenario is judged on what a
  player notices: cards held, captured and on the table, legal choices, who acts, scores, payments.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from gostop_conformance.spec import Options, counted, deck

Json = dict[str, Any]

_SCALARS = frozenset({str, int, bool, type(None)})
CARD_LIST_KEYS = frozenset({"cards", "bonus", "table", "hands", "captured", "dual_junk", "replacement", "dual_as_junk"})
#: lists whose order means nothing (docs/scenario-format.md): compared as multisets
MULTISET_KEYS: Final = frozenset({"dans", "baks", "shaken_months", "bombs"})
#: fields that hold one card id (in events and actions)
CARD_KEYS: Final = frozenset({"card", "take", "replacement"})


@dataclass(frozen=True, slots=True)
class Mismatch:
    where: str
    path: str
    expected: Any
    actual: Any
    note: str = ""
    #: False for a difference that is reported but fails nothing (the events of a scenario that is
    #: not about the event log)
    binding: bool = True

    def text(self) -> str:
        diff = self.cards()
        note = f" ({self.note})" if self.note and diff != self.note else ""
        head = "" if self.binding else "note, not a failure: "
        lines = [f"{head}{self.where}: {self.path}{note}"]
        if diff is not None and max(len(self.expected), len(self.actual)) > _SHORT_PILE:
            lines.append(f"    {diff}")  # a one-card difference in a 20-card pile: the difference, not two lists
        else:
            lines += [f"    expected: {show(self.expected)}", f"    actual:   {show(self.actual)}"]
            if diff is not None:
                lines.append(f"    ({diff})")
        return "\n".join(lines)

    def cards(self) -> str | None:
        """The difference of two card lists as they were compared: a captured pile's is its note
        (check_seen: single and double junk by units, pile_difference), any other's by card id;
        None when the values are not card lists."""
        if self.note and self.path.startswith(PILE_PATH):
            return self.note
        return card_difference(self.expected, self.actual)

    def brief(self) -> str:
        """The mismatch in one line (summary.md's first problem)."""
        diff = self.cards()
        if diff is not None:
            return diff
        if self.note and self.path.startswith(("events.", "legal.")):
            return self.note  # where two lists part, which their first 100 characters rarely show
        return f"expected {_clip(show(self.expected))}, got {_clip(show(self.actual))}"


#: card lists up to this long are shown whole, with their difference
_SHORT_PILE: Final = 6
#: the path of a captured pile's mismatch (check_seen), whose note is the difference as compared
PILE_PATH: Final = "captured["


def _is_cards(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and v in deck().by_id for v in value)


def card_difference(expected: Any, actual: Any) -> str | None:
    """`missing ...; extra ...` between two card lists (as multisets), or None if either is not one."""
    if not (_is_cards(expected) and _is_cards(actual)) or (not expected and not actual):
        return None
    want, got = Counter(expected), Counter(actual)
    missing, extra = sorted((want - got).elements(), key=_index), sorted((got - want).elements(), key=_index)
    parts = [f"{counted(len(expected), 'card')} expected, {len(actual)} reported"]
    if missing:
        parts.append("missing " + " ".join(missing))
    if extra:
        parts.append("extra " + " ".join(extra))
    return "; ".join(parts)


def _index(card: str) -> int:
    return deck().by_id[card].index


def show(value: Any) -> str:
    """A value as JSON (what engine authors in any language read), card lists in deck order."""
    if _is_cards(value) and value:
        value = sorted(value, key=_index)
    if isinstance(value, _Missing):
        return "(missing)"
    return json.dumps(value, ensure_ascii=False, default=repr)


def _clip(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _equivalence() -> dict[str, str]:
    """Each card id to the first id of its equivalence class (R-CARD-IDS): the same month, kind,
    units and roles. Only the two single junk of a month and the 2-unit bonus cards share one."""
    first: dict[tuple[Any, ...], str] = {}
    out: dict[str, str] = {}
    for card in deck().cards:
        key = (card.month, card.kind, card.units, card.ribbon_class, card.roles)
        out[card.id] = first.setdefault(key, card.id)
    return out


#: each card id of the deck, bonus cards included, to the representative of its equivalence class
CARD_CLASSES: Final = _equivalence()


def _hashable(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else value


def card_class(card: Any) -> Any:
    """The representative of `card`'s equivalence class (anything that is not a card id: itself)."""
    return CARD_CLASSES.get(card, card) if isinstance(card, str) else card


#: the December ribbon, a plain junk card under dec_ribbon = junk (R-DEC-RIBBON)
_DEC_RIBBON: Final = "m12-ribbon"
#: the months whose single junk a scoring rule tells apart in a captured pile (R-EXTRA-YAKU palssari)
_PALSSARI_MONTHS: Final = frozenset({4, 7})
#: the classes of captured junk compared by units (pile_class): what a mismatch names instead of ids
SINGLE_JUNK: Final = "single junk"
DOUBLE_JUNK: Final = "double junk"


def pile_class(card: Any, rules: Options) -> Any:
    """A captured card as the scoring sees it (R-STEAL, R-CARD-IDS): single junk cards of any
    month are one class, and so are the two double junk cards (`m11-double-junk`,
    `m12-double-junk`: same kind, 2 units, no role), since which the giver surrenders is the
    giver's choice and no rule of Go-Stop scoring tells them apart once captured (R-SCORE-JUNK
    counts units; R-EXTRA-YAKU's three_ssangpi needs both, and the deck has only the two), unless
    the ruleset scores months (the point-count sets of R-PC-SETS name both double junk, palssari
    its months' single junk); every other card as card_class."""
    found = deck().by_id.get(card) if isinstance(card, str) else None
    if found is None or rules.scoring_system == "point_count":
        return card_class(card)
    if found.kind == "double-junk":
        return DOUBLE_JUNK
    plain = (found.kind == "junk" and found.units == 1) or (card == _DEC_RIBBON and rules.dec_ribbon == "junk")
    if not plain or ("palssari" in rules.extra_yaku and found.month in _PALSSARI_MONTHS):
        return card_class(card)
    return SINGLE_JUNK


def pile_difference(expected: Any, actual: Any, rules: Options) -> str | None:
    """`missing ...; extra ...` between two captured piles as pile_class compares them: junk
    compared by units is counted (`missing 1 single junk`), never named by a card id the engine
    need not have surrendered; None if either is not a card list."""
    if not (_is_cards(expected) and _is_cards(actual)):
        return None
    want, got = Counter(pile_class(c, rules) for c in expected), Counter(pile_class(c, rules) for c in actual)

    def named(classes: Counter[Any], cards: Sequence[str]) -> list[str]:
        out: list[str] = []
        for cls, n in sorted(classes.items(), key=lambda item: min(_index(c) for c in cards if pile_class(c, rules) == item[0])):
            if cls in (SINGLE_JUNK, DOUBLE_JUNK):
                out.append(f"{n} {cls}")
            else:
                out += sorted((c for c in cards if pile_class(c, rules) == cls), key=_index)[:n]
        return out

    missing, extra = named(want - got, expected), named(got - want, actual)
    parts = [f"{counted(len(expected), 'card')} expected, {len(actual)} reported"]
    if missing:
        parts.append("missing " + " ".join(missing))
    if extra:
        parts.append("extra " + " ".join(extra))
    if any(cls in (want - got) or cls in (got - want) for cls in (SINGLE_JUNK, DOUBLE_JUNK)):
        parts.append("junk of any month compared by units (R-STEAL)")
    return "; ".join(parts)


def differing_cards(m: Mismatch, rules: Options | None, exact: bool = False) -> tuple[list[str], list[str]] | None:
    """The cards a card-list mismatch found missing from the engine's list and extra in it, counted
    as check_seen compared them (a captured pile by pile_class, any other list by card_class, each
    card as itself when `exact`); of equivalent cards, those the other list does not hold by id
    are named first. None when the values are not both card lists."""
    if not (_is_cards(m.expected) and _is_cards(m.actual)):
        return None
    if exact:
        key: Callable[[Any], Any] = lambda c: c  # noqa: E731 (one line, typed as the others)
    elif m.path.startswith(PILE_PATH) and rules is not None:
        key = lambda c: pile_class(c, rules)  # noqa: E731
    else:
        key = card_class
    want, got = Counter(key(c) for c in m.expected), Counter(key(c) for c in m.actual)

    def named(short: Counter[Any], cards: Sequence[str], other: Sequence[str]) -> list[str]:
        held = Counter(other)
        out: list[str] = []
        for cls, n in short.items():
            of_class = sorted((c for c in cards if key(c) == cls), key=lambda c: (held[c] > 0, _index(c)))
            out += of_class[:n]
        return sorted(out, key=_index)

    return named(want - got, m.expected, m.actual), named(got - want, m.actual, m.expected)


def cards_equal(expected: Sequence[str], actual: Any, exact: bool = False, key: Callable[[Any], Any] | None = None) -> bool:
    """The same cards as a multiset (presentation order is never normative), equivalent cards
    counting as the same unless `exact` (or as `key` says they are the same)."""
    if not isinstance(actual, list) or len(actual) != len(expected):
        return False
    if not exact:
        key = key or card_class
        expected, actual = [key(c) for c in expected], [key(c) for c in actual]
    try:
        return sorted(expected) == sorted(actual)
    except TypeError:  # not all strings: the multiset comparison still answers
        return Counter(expected) == Counter(actual)


def partial(expected: Any, actual: Any, path: str, key: str = "", exact: bool = False) -> list[tuple[str, Any, Any]]:
    """Differences between `expected` (a partial description) and `actual`: (path, expected, actual)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [(path, expected, actual)]
        out: list[tuple[str, Any, Any]] = []
        for k, v in expected.items():
            got = actual.get(k, _MISSING)
            if type(v) in _SCALARS and type(got) is type(v) and v == got:
                continue  # the usual answer, without building the path
            out += partial(v, got, f"{path}.{k}", k, exact)
        return out
    if isinstance(expected, list):
        if key in CARD_LIST_KEYS and all(isinstance(v, str) for v in expected):
            return [] if cards_equal(expected, actual, exact) else [(path, expected, actual)]
        if expected and all(isinstance(v, dict) and "seat" in v for v in expected) and isinstance(actual, list):
            by_seat = {a.get("seat"): a for a in actual if isinstance(a, dict)}
            out = []
            for v in expected:
                out += partial(v, by_seat.get(v["seat"], _MISSING), f"{path}[seat {v['seat']}]", "", exact)
            return out
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [(path, expected, actual)]
        if key in MULTISET_KEYS:
            return [] if Counter(map(_hashable, expected)) == Counter(map(_hashable, actual)) else [(path, expected, actual)]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out += partial(e, a, f"{path}[{i}]", key, exact)
        return out
    if not exact and key in CARD_KEYS and isinstance(expected, str) and card_class(expected) == card_class(actual):
        return []
    return [] if (expected == actual and type(expected) is type(actual)) or _num_eq(expected, actual) else [(path, expected, actual)]


def _num_eq(a: Any, b: Any) -> bool:
    return isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and not isinstance(b, bool) and a == b


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()


def event_matches(expected: Json, actual: Json, exact: bool = False) -> bool:
    return not partial(expected, actual, "", "", exact)


def check_events(spec: Json, events: list[Json], where: str, exact: bool = False) -> list[Mismatch]:
    """`events.exact`, `contains`, `in_order` and `absent` against the reported events."""

    def event_matches(expected: Json, actual: Json) -> bool:
        return not partial(expected, actual, "", "", exact)

    out: list[Mismatch] = []
    kinds = [e.get("kind") for e in events]
    if "exact" in spec:
        exp = spec["exact"]
        ok = len(exp) == len(events) and all(event_matches(e, a) for e, a in zip(exp, events, strict=False))
        if not ok:
            out.append(Mismatch(where, "events.exact", exp, events, first_event_difference(exp, events, exact)))
    for e in spec.get("contains", ()):
        if not any(event_matches(e, a) for a in events):
            out.append(Mismatch(where, "events.contains", e, events, closest_event(e, events, exact)))
    if "in_order" in spec:
        pos = 0
        for e in spec["in_order"]:
            while pos < len(events) and not event_matches(e, events[pos]):
                pos += 1
            if pos == len(events):
                out.append(Mismatch(where, "events.in_order", spec["in_order"], events, f"{e} not found in order"))
                break
            pos += 1
    for kind in spec.get("absent", ()):
        if kind in kinds:
            out.append(Mismatch(where, "events.absent", f"no {kind!r} event", events))
    return out


def _kind(event: Any) -> str:
    return str(event.get("kind")) if isinstance(event, dict) else "not an object"


def _field_differences(expected: Json, actual: Any, exact: bool) -> str:
    """The fields of one event that differ: `requested: missing (expected 1)`, `cards: missing ...`."""
    parts = []
    for path, want, got in partial(expected, actual, "", "", exact):
        name = path.lstrip(".") or "the event"
        if isinstance(got, _Missing):
            parts.append(f"{name}: missing (expected {_clip(show(want), 60)})")
            continue
        cards = card_difference(want, got)
        parts.append(f"{name}: {cards}" if cards is not None else f"{name}: expected {_clip(show(want), 60)}, got {_clip(show(got), 60)}")
    return "; ".join(parts)


def first_event_difference(expected: Sequence[Json], actual: Sequence[Any], exact: bool = False) -> str:
    """Where two event lists first part: the event's number and kind, and what differs in it (a
    field, the kind, an event missing, reordered or extra)."""
    for i, want in enumerate(expected):
        if i >= len(actual):
            rest = ", ".join(_kind(e) for e in expected[i:])
            return f"event {i + 1} ({_kind(want)}) and after are missing: {rest}"
        got = actual[i]
        if event_matches(want, got, exact):
            continue
        if _kind(want) == _kind(got):
            return f"event {i + 1} ({_kind(want)}): {_field_differences(want, got, exact)}"
        later = next((j for j in range(i + 1, len(actual)) if event_matches(want, actual[j], exact)), None)
        if later is not None:
            return f"event {i + 1}: expected {_kind(want)}, got {_kind(got)} (the {_kind(want)} comes as event {later + 1})"
        return f"event {i + 1}: expected {_kind(want)}, got {_kind(got)}"
    extra = ", ".join(_kind(e) for e in actual[len(expected) :])
    return f"{counted(len(actual) - len(expected), 'more event')} than expected, from event {len(expected) + 1}: {extra}"


def closest_event(expected: Json, actual: Sequence[Any], exact: bool = False) -> str:
    """Why no reported event matches: what differs in the reported event of the same kind (and
    player) closest to it, or that none of that kind was reported."""
    same = [a for a in actual if _kind(a) == _kind(expected)]
    if not same:
        return f"no {_kind(expected)} event reported"
    by_player = [a for a in same if a.get("player") == expected.get("player")] or same
    best = min(by_player, key=lambda a: len(partial(expected, a, "", "", exact)))
    return f"the {_kind(expected)} event reported differs: {_field_differences(expected, best, exact)}"


def _action_text(a: Any) -> str:
    if not isinstance(a, dict):
        return show(a)
    return " ".join([str(a.get("type")), f"P{a.get('player')}", *(f"{k}={a[k]}" for k in ("card", "take", "month", "shake") if k in a)])


def action_difference(expected: Sequence[Json], actual: Sequence[Any], exact: bool = False) -> str:
    """`missing ...; extra ...` between two sets of legal actions."""
    want = {_action_key(a, exact): a for a in expected}
    got = {_action_key(a, exact): a for a in actual if isinstance(a, dict)}
    parts = []
    missing = [_action_text(a) for k, a in want.items() if k not in got]
    extra = [_action_text(a) for k, a in got.items() if k not in want]
    if missing:
        parts.append("missing: " + ", ".join(missing))
    if extra:
        parts.append("extra: " + ", ".join(extra))
    return "; ".join(parts) or "the same actions"


def _action_key(a: Json, exact: bool = False) -> tuple[Any, ...]:
    card, take = a.get("card"), a.get("take")
    if not exact:
        card, take = card_class(card), card_class(take)
    return (a.get("type"), a.get("player"), card, take, a.get("month"), bool(a.get("shake", False)))


def check_legal(spec: Json, legal: Json, where: str, exact: bool = False) -> list[Mismatch]:
    """The legal actions as a set (playing either of two equivalent cards is one choice unless `exact`)."""
    actual = legal.get("actions", [])
    keys = {_action_key(a, exact) for a in actual if isinstance(a, dict)}
    out: list[Mismatch] = []
    if "exact" in spec and {_action_key(a, exact) for a in spec["exact"]} != keys:
        out.append(
            Mismatch(where, "legal.exact", spec["exact"], actual, "as a set of actions: " + action_difference(spec["exact"], actual, exact))
        )
    for a in spec.get("contains", ()):
        if _action_key(a, exact) not in keys:
            out.append(Mismatch(where, "legal.contains", a, actual, f"not offered: {_action_text(a)}"))
    for a in spec.get("absent", ()):
        if _action_key(a, exact) in keys:
            out.append(Mismatch(where, "legal.absent", a, actual, "listed as legal"))
    return out


#: the keys of an expectation checked against the reply to a query of their own, by query; every
#: other key is checked against the state and events of the last new_game or act reply
REPLY_KEYS: Final[dict[str, tuple[str, ...]]] = {"legal": ("decision", "legal"), "score": ("scores", "settlement")}


def queries(spec: Json | None) -> list[str]:
    """The replies an expectation needs besides the one to the request before it, in the order
    they are asked for: the legal actions (for `decision`, `legal`), the scores (for `scores`,
    `settlement`). A round's steps are compiled from it (conformance._steps)."""
    if not spec:
        return []
    return [query for query, keys in REPLY_KEYS.items() if any(k in spec for k in keys)]


def check_seen(
    spec: Json,
    events: list[Json],
    state: Json,
    where: str,
    *,
    exact: bool = False,
    event_log: bool = False,
    rules: Options | None = None,
) -> list[Mismatch]:
    """The parts of an expectation about the reply's events and state. Equivalent cards compare
    as one unless `exact`, and, given the scenario's `rules`, captured single and double junk as
    pile_class says (a pile's mismatch then says its difference so: pile_difference); event
    differences bind only when the scenario is about the `event_log`."""
    out: list[Mismatch] = []
    if "events" in spec:
        found = check_events(spec["events"], events, where, exact)
        out += found if event_log else [replace(m, binding=False) for m in found]
    for key in ("hands", "captured"):
        if key in spec:
            actual = state.get(key, [])
            for seat, cards in enumerate(spec[key]):
                if cards is None:
                    continue
                got = actual[seat] if isinstance(actual, list) and seat < len(actual) else _MISSING
                by = (lambda c: pile_class(c, rules)) if key == "captured" and rules is not None and not exact else None
                if not cards_equal(cards, got, exact, by):
                    # a pile compared by units says what differs by units (the note, Mismatch.cards)
                    note = (pile_difference(cards, got, rules) or "") if by is not None and rules is not None else ""
                    out.append(Mismatch(where, f"{key}[{seat}]", cards, got, note))
    if "table" in spec and not cards_equal(spec["table"], state.get("table"), exact):
        out.append(Mismatch(where, "table", spec["table"], state.get("table")))
    if "stacks" in spec:
        out += [Mismatch(where, p, e, a) for p, e, a in _stacks(spec["stacks"], state.get("stacks"), exact)]
    if "stock_count" in spec and spec["stock_count"] != len(state.get("stock", [])):
        out.append(Mismatch(where, "stock_count", spec["stock_count"], len(state.get("stock", []))))
    if "players" in spec:
        for seat, exp in enumerate(spec["players"]):
            if exp is not None:
                got = (state.get("players") or [])[seat] if seat < len(state.get("players") or []) else _MISSING
                out += [Mismatch(where, p, e, a) for p, e, a in partial(exp, got, f"players[{seat}]", "", exact)]
    if "over" in spec and spec["over"] != (state.get("decision") == "none"):
        out.append(Mismatch(where, "over", spec["over"], state.get("decision") == "none"))
    return out


def check_legal_reply(spec: Json, lg: Json, where: str, exact: bool = False) -> list[Mismatch]:
    """`decision` and `legal` of an expectation against the engine's legal reply."""
    out: list[Mismatch] = []
    if "decision" in spec:
        got = {"kind": lg.get("decision"), "player": lg.get("player")}
        out += [Mismatch(where, p, e, a) for p, e, a in partial(spec["decision"], got, "decision")]
    if "legal" in spec:
        out += check_legal(spec["legal"], lg, where, exact)
    return out


def check_score_reply(spec: Json, sc: Json, where: str) -> list[Mismatch]:
    """`scores` and `settlement` of an expectation against the engine's score reply."""
    out: list[Mismatch] = []
    for seat, exp in enumerate(spec.get("scores", ())):
        if exp is not None:
            scores = sc.get("scores") or []
            got = scores[seat] if seat < len(scores) else _MISSING
            out += [Mismatch(where, p, e, a) for p, e, a in partial(exp, got, f"scores[{seat}]")]
    if "settlement" in spec:
        out += [Mismatch(where, p, e, a) for p, e, a in partial(spec["settlement"], sc.get("settlement"), "settlement")]
    return out


def _stacks(expected: list[Json], actual: Any, exact: bool = False) -> list[tuple[str, Any, Any]]:
    if not isinstance(actual, list):
        return [("stacks", expected, actual)]
    by_month = {s.get("month"): s for s in actual if isinstance(s, dict)}
    out: list[tuple[str, Any, Any]] = []
    if {s["month"] for s in expected} != set(by_month):
        out.append(("stacks (months)", sorted(s["month"] for s in expected), sorted(by_month)))
    for s in expected:
        out += partial(s, by_month.get(s["month"], _MISSING), f"stacks[month {s['month']}]", "", exact)
    return out
