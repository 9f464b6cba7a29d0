"""Options and named rulesets (spec/options.yaml, spec/rulesets/): loading, validation, inheritance.

`Options` has one field per option of the registry; a test checks the two agree, so the registry
stays the single source of truth and no option can be silently ignored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Final, Literal

from gostop_conformance.spec._caches import memo
from gostop_conformance.spec._schemas import load_spec_file, spec_dir
from gostop_conformance.spec._yamlio import InputError, Located, load_yaml

OptionValue = bool | int | str | frozenset[str] | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Options:
    """Fully resolved option values of a ruleset (field names are the option ids)."""

    scoring_system: Literal["gostop", "point_count"]
    players: int
    deal_layout: Literal["10-8", "8-10", "8-8", "7-6", "5-8"]
    deal_packet_order: Literal["wp", "family", "enha", "sloperama"]
    first_dealer: Literal["seeded_random", "draw_day_high", "draw_night_low"]
    first_player: Literal["dealer", "non_dealer"]
    table_triple_capture_steal: int
    table_four_of_month: Literal["redeal", "nagari", "dealer_wins_fixed", "dealer_captures_four"]
    hand_chongtong: Literal["instant_win", "instant_win_or_continue", "redeal", "ignore"]
    chongtong_points: int | Literal["threshold"]
    chongtong_multipliers: Literal["none", "nagari_carry_only"]
    multiple_chongtong: Literal["redeal", "dealer_first_in_turn_order", "higher_month", "nagari"]
    bonus_cards: tuple[int, ...]
    bonus_replacement_use: Literal["to_hand", "must_play_replacement"]
    bonus_joins_ppeok: Literal["flipped_this_turn", "all_bonus_this_turn"]
    bonus_steal: int
    must_match_if_possible: bool
    two_match_choice_timing: Literal["at_play", "after_flip"]
    ppeok_enabled: bool
    ppeok_capture_steal: int
    own_ppeok_capture_steal: int
    ppeok_steal_payers: Literal["all_opponents", "creator_only"]
    jjok_steal: int
    ttadak_steal: int
    sweep_steal: int
    sweep_definition: Literal["table_empty_at_turn_end", "two_cards_cleared"]
    final_turn_scope: Literal["round_final_turn", "each_player_last_hand_card"]
    final_turn_exempt: frozenset[str]
    final_turn_ppeok: Literal["leave_stack", "capture_three", "capture_pair_leave_drawn"]
    first_ppeok_award: int | Literal["threshold"]
    first_ttadak_award: int | Literal["threshold"]
    three_ppeok_win: int | Literal["off", "threshold"]
    steal_selection: Literal["giver_min_units", "taker_lowest_first"]
    steal_multi_when_no_single: Literal["give_multi", "give_nothing"]
    steal_cup_eligible: bool
    shake_enabled: bool
    shake_declaration: Literal["any_own_turn_start", "with_triple_card_play"]
    shake_requires_month_absent: bool
    shake_beneficiary: Literal["shaker_if_winner", "any_winner"]
    shake_x4_months: tuple[int, ...]
    four_in_hand_later: Literal["shake_once", "four_card_shake_x4"]
    bomb_enabled: bool
    bomb_steal: int
    bomb_multiplier: int
    shake_then_bomb_stacks: bool
    bomb_compensation: Literal["skip_credits_2", "none"]
    two_card_bomb: Literal["off", "capture_only", "steal_no_multiplier", "full_bomb"]
    bright_3: int
    bright_3_rain: int
    bright_4_dry: int
    bright_4_wet: int
    bright_5: int
    animal_threshold: int
    godori_points: int
    ribbon_threshold: int
    dan_points: int
    dec_ribbon: Literal["ribbon_no_set", "not_counted", "in_cho_set", "junk", "four_red_bonus"]
    junk_threshold: int
    dual_role_cards: frozenset[str]
    dual_role_mode: Literal["auto_best", "fixed_animal", "fixed_double_junk", "owner_one_way_to_junk"]
    extra_yaku: frozenset[str]
    go_threshold: int
    go_bonus: Literal["plus_one_per_go", "plus_first_two_only", "none_from_third"]
    go_multiplier: Literal["exp2_from_3", "linear_from_3", "count_from_2"]
    go_on_last_turn: Literal["forced_stop", "allowed"]
    gwang_bak: bool
    gwang_bak_rain_protects: bool
    pi_bak: bool
    pi_bak_max_units: int
    pi_bak_measure: Literal["units", "cards"]
    pi_bak_zero_exempt: bool
    meong_mode: Literal["meongtta_7_global", "meongbak_loser_zero", "meongbak_7_and_loser_zero", "meongtta_and_meongbak", "off"]
    go_bak_mode: Literal["pay_for_all", "double_own", "pay_for_all_doubled", "off"]
    ribbon_bak: bool
    empty_capture_exempt: bool
    deck_exhausted_after_go: Literal["nagari", "last_go_caller_wins"]
    nagari_carry_growth: Literal["doubling", "fixed_x2", "off"]
    nagari_carry_cap: int | Literal["none"]
    nagari_carry_prior_multipliers: bool
    match_rounds: int
    match_target_points: int | Literal["none"]
    nagari_counts_as_round: bool
    pc_set_table: Literal["wikipedia", "minhwatu"]

    def as_json(self) -> dict[str, Any]:
        """JSON-ready mapping in registry order (sets sorted), as sent over the protocol."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, frozenset):
                out[f.name] = sorted(value)
            elif isinstance(value, tuple):
                out[f.name] = list(value)
            else:
                out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class OptionSpec:
    id: str
    type: str
    values: tuple[Any, ...]
    symbols: tuple[str, ...]
    minimum: int | None
    maximum: int | None
    max_items: int | None
    default: OptionValue
    clauses: tuple[str, ...]
    sources: tuple[str, ...]
    description: str
    value_docs: Mapping[str, str]
    #: values two players cannot tell from another, each with why (issue 39: coverage asks no two-player scenario of them)
    same_with_two_players: Mapping[str, str] = field(default_factory=dict)
    #: plain words for the values `value_docs` does not say (spec/options.yaml `words`): a value as
    #: the spec writes it, `n` (any other integer, `{n}` in the text), `one` and `many` (a list of
    #: one or several items, `{item}`, `{items}`, `{count}`)
    words: Mapping[str, str] = field(default_factory=dict)

    def expected(self) -> str:
        if self.type == "bool":
            return "true or false"
        if self.type == "int":
            return f"an integer from {self.minimum} to {self.maximum}"
        if self.type == "enum":
            return "one of " + ", ".join(map(str, self.values))
        if self.type == "int_or_enum":
            return f"an integer from {self.minimum} to {self.maximum} or one of " + ", ".join(self.symbols)
        if self.type == "subset":
            return "a list of distinct values from " + ", ".join(map(str, self.values))
        if self.type == "int_list":
            return f"a list of at most {self.max_items} integers from " + ", ".join(map(str, self.values))
        return "a list of distinct card ids from " + ", ".join(map(str, self.values))

    def coerce(self, raw: Any) -> OptionValue | None:
        """The typed value, or None if `raw` is not a valid value of this option."""
        t = self.type
        if t == "bool":
            return raw if isinstance(raw, bool) else None
        if t == "int":
            return raw if _is_int(raw) and self._in_range(raw) else None
        if t == "enum":
            return raw if isinstance(raw, str) and raw in self.values else None
        if t == "int_or_enum":
            if isinstance(raw, str):
                return raw if raw in self.symbols else None
            return raw if _is_int(raw) and self._in_range(raw) else None
        if not isinstance(raw, list):
            return None
        if t == "int_list":
            ok = all(_is_int(v) and v in self.values for v in raw) and len(raw) <= (self.max_items or 0)
            return tuple(raw) if ok else None
        ok = all(isinstance(v, str) and v in self.values for v in raw) and len(set(raw)) == len(raw)
        return frozenset(raw) if ok else None

    def plain(self, value: Any) -> str:
        """The value in plain words, as the ruleset pages and the comparison matrix say what it
        decides: its `words`, else an enum value's or a symbol's own text, a subset's members'
        texts, an integer or a list through the `n`, `one` and `many` templates (KeyError for a
        value the registry has no words for: option_registry checks there is none)."""
        value = _json_value(value)
        found = self.words.get(show_value(value))
        if found is not None:
            return found
        if isinstance(value, str) and value in self.value_docs:
            return self.value_docs[value]
        if isinstance(value, list) and self.type == "subset" and value:
            return " ".join(self.value_docs[str(member)] for member in value)
        if _is_int(value) and "n" in self.words:
            return self.words["n"].replace("{n}", str(value))
        if isinstance(value, list) and len(value) == 1 and "one" in self.words:
            return self.words["one"].replace("{item}", str(value[0]))
        if isinstance(value, list) and len(value) > 1 and "many" in self.words:
            items = [str(v) for v in value]
            joined = ", ".join(items[:-1]) + " and " + items[-1]
            return self.words["many"].replace("{items}", joined).replace("{count}", str(len(items)))
        raise KeyError(f"{self.id}: no plain words for {show_value(value)}")

    def _in_range(self, value: int) -> bool:
        return (self.minimum is None or value >= self.minimum) and (self.maximum is None or value <= self.maximum)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A named ruleset with its options resolved through its parents."""

    id: str
    title: str
    description: str
    parent: str | None
    sources: tuple[str, ...]
    own: Mapping[str, OptionValue]
    options: Options
    file: str

    @property
    def hash(self) -> str:
        """Content hash of the resolved options: reports record which rules a result was run under."""
        text = json.dumps(self.options.as_json(), sort_keys=True, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(text.encode()).hexdigest()[:16]

    def with_overrides(self, overrides: Mapping[str, Any], where: str) -> Ruleset:
        """The same ruleset with option overrides (from a scenario); invalid ones raise InputError."""
        if not overrides:
            return self
        registry = option_registry()
        typed: dict[str, OptionValue] = {}
        for key, raw in expand_toggles(overrides, where).items():
            spec = registry.get(key)
            if spec is None:
                raise InputError(f"{where}.{key}", f"unknown option {key!r}; expected one of the options in spec/options.yaml")
            value = spec.coerce(raw)
            if value is None:
                raise InputError(f"{where}.{key}", f"expected {spec.expected()}, got {raw!r}")
            typed[key] = value
        # the values as they are (already typed), not through as_json and back: a profile resolves
        # thousands of variants, and the round trip was most of each
        current: dict[str, OptionValue] = {f.name: getattr(self.options, f.name) for f in fields(self.options)}
        options = _make_options(current | typed)
        check_consistency(options, where)
        own = dict(self.own) | typed
        return Ruleset(self.id, self.title, self.description, self.parent, self.sources, own, options, self.file)


def ruleset_from_json(raw: Mapping[str, Any]) -> Ruleset:
    """The ruleset a protocol `{id, options}` object names: the named ruleset with every option
    value that differs from it applied as an override (InputError when unknown or invalid)."""
    rs = load_ruleset(raw["id"])
    resolved = _named_json(rs.id)
    overrides = {k: v for k, v in raw.get("options", {}).items() if resolved.get(k) != v}
    if not overrides:
        return rs
    # every new_game of a scenario with overrides resolves the same few: keep them
    key = (rs.id, json.dumps(overrides, sort_keys=True))
    found = _OVERRIDDEN.get(key)
    if found is None:
        if len(_OVERRIDDEN) >= _OVERRIDDEN_MAX:
            _OVERRIDDEN.clear()
        found = _OVERRIDDEN[key] = rs.with_overrides(overrides, "ruleset.options")
    return found


_OVERRIDDEN: Final[dict[tuple[str, str], Ruleset]] = memo({})
_OVERRIDDEN_MAX: Final = 1024


@cache
def _named_json(ruleset_id: str) -> dict[str, Any]:
    """A named ruleset's resolved options as JSON (read only: shared between calls)."""
    return load_ruleset(ruleset_id).options.as_json()


def _make_options(values: Mapping[str, OptionValue]) -> Options:
    untyped: dict[str, Any] = dict(values)  # values were coerced per the registry's declared types
    return Options(**untyped)


def _typed_options(values: Mapping[str, Any]) -> dict[str, OptionValue]:
    registry = option_registry()
    out: dict[str, OptionValue] = {}
    for key, raw in values.items():
        value = registry[key].coerce(raw)
        assert value is not None, key
        out[key] = value
    return out


def _json_value(value: Any) -> Any:
    """An option value in its JSON form (a set sorted, a tuple a list), as `Options.as_json` gives it."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def show_value(value: Any) -> str:
    """An option value as the spec writes it (R-CARD-IDS ids, `true`/`false`, lists in brackets):
    how reports, declarations and the traceability name a value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    return str(value)


@cache
def option_registry() -> dict[str, OptionSpec]:
    located = load_spec_file("options.yaml", "options")
    registry: dict[str, OptionSpec] = {}
    for i, item in enumerate(located.data["options"]):
        raw_values = item.get("values", ())
        docs: dict[str, str] = dict(raw_values) if isinstance(raw_values, dict) else {}
        docs |= dict(item.get("symbols", {}))
        spec = OptionSpec(
            id=item["id"],
            type=item["type"],
            values=tuple(raw_values),
            symbols=tuple(item.get("symbols", ())),
            minimum=item.get("min"),
            maximum=item.get("max"),
            max_items=item.get("max_items"),
            default=False,
            clauses=tuple(item["clauses"]),
            sources=tuple(item["sources"]),
            description=item["description"],
            value_docs=docs,
            same_with_two_players=dict(item.get("same_with_two_players", {})),
            words=dict(item.get("words", {})),
        )
        _check_words(spec, located, i)
        default = spec.coerce(item["default"])
        if default is None:
            raise InputError(located.where(["options", i, "default"]), f"expected {spec.expected()}, got {item['default']!r}")
        if spec.id in registry:
            raise InputError(located.where(["options", i, "id"]), f"duplicate option id {spec.id!r}")
        registry[spec.id] = OptionSpec(**{f.name: getattr(spec, f.name) for f in fields(spec)} | {"default": default})
    return registry


#: the keys of `words` that are templates rather than values
WORD_TEMPLATES: Final = {"int": ("n",), "int_or_enum": ("n",), "int_list": ("one", "many"), "card_set": ("one", "many")}


def _check_words(spec: OptionSpec, located: Located, i: int) -> None:
    """Every value of the option has plain words (a value of each shape: both booleans, every enum
    value and symbol, the least and greatest integer, an empty, a one-item and a longer list), and
    every key of `words` is a value of the option or one of its type's templates."""
    where = located.where(["options", i, "words"])
    templates = WORD_TEMPLATES.get(spec.type, ())
    for key in spec.words:
        if key in templates or (key == "[]" and spec.type in ("subset", "int_list", "card_set")):
            continue
        typed = spec.coerce({"true": True, "false": False}.get(key, key))
        if typed is None and key.lstrip("-").isdigit():
            typed = spec.coerce(int(key))
        if typed is None:
            known = ", ".join(templates) or "none for its type"
            raise InputError(where, f"{key!r} is neither a value of {spec.id} nor a template ({known})")
    samples: list[Any] = []
    if spec.type == "bool":
        samples = [False, True]
    elif spec.type in ("enum", "int_or_enum"):
        samples = [*spec.values, *spec.symbols]
    if spec.type in ("int", "int_or_enum"):
        samples += [spec.minimum, spec.maximum]
    if spec.type in ("subset", "int_list", "card_set"):
        samples = [[], *([v] for v in spec.values), list(spec.values[:2])]
    for value in samples:
        try:
            spec.plain(value)
        except KeyError:
            raise InputError(where, f"no plain words for {spec.id} = {show_value(value)}: add them to `words`") from None


@dataclass(frozen=True)
class Toggle:
    """A convenience switch of a house-rules table (spec/options.yaml `toggles`): one boolean that
    sets each of its options to its own value, expanded where people write options."""

    id: str
    title: str
    sets: tuple[str, ...]
    sources: tuple[str, ...]
    quote: str
    description: str


@cache
def toggle_registry() -> dict[str, Toggle]:
    located = load_spec_file("options.yaml", "options")
    options = option_registry()
    toggles: dict[str, Toggle] = {}
    for i, item in enumerate(located.data.get("toggles", ())):
        toggle = Toggle(
            id=item["id"],
            title=item["title"],
            sets=tuple(item["sets"]),
            sources=tuple(item["sources"]),
            quote=" ".join(str(item["quote"]).split()),
            description=" ".join(str(item["description"]).split()),
        )
        if toggle.id in toggles or toggle.id in options:
            raise InputError(located.where(["toggles", i, "id"]), f"toggle id {toggle.id!r} is already an option or a toggle")
        for j, name in enumerate(toggle.sets):
            spec = options.get(name)
            if spec is None or spec.type != "bool":
                raise InputError(located.where(["toggles", i, "sets", j]), f"expected a boolean option of spec/options.yaml, got {name!r}")
        toggles[toggle.id] = toggle
    return toggles


def expand_toggles(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Option values with every convenience toggle replaced by the options it sets. A toggle that
    is not a boolean, or one given beside one of its options with another value, raises InputError
    (`where` names the mapping)."""
    toggles = toggle_registry()
    if not any(key in toggles for key in raw):
        return dict(raw)
    out = {key: value for key, value in raw.items() if key not in toggles}
    for key, value in raw.items():
        toggle = toggles.get(key)
        if toggle is None:
            continue
        if not isinstance(value, bool):
            raise InputError(f"{where}.{key}", f"expected true or false (the toggle {toggle.title!r}), got {value!r}")
        for name in toggle.sets:
            if name in out and out[name] != value:
                raise InputError(
                    f"{where}.{name}",
                    f"{name} = {show_value(out[name])} contradicts {key} = {show_value(value)}, which sets {', '.join(toggle.sets)}",
                )
            out[name] = value
    return out


@cache
def deal_layouts() -> dict[str, dict[str, Any]]:
    located = load_spec_file("deal.yaml", "deal")
    return {str(item["id"]): item for item in located.data["layouts"]}


def check_consistency(options: Options, where: str) -> None:
    """Cross-option constraints (R-PLAYERS, R-PC-SETUP, R-DEAL-SIZE, R-DEAL-ORDER, R-BONUS-DECK)."""
    layouts = deal_layouts()
    layout = layouts.get(options.deal_layout)
    if layout is None:
        raise InputError(where, f"deal_layout {options.deal_layout!r} is not defined in spec/deal.yaml")
    if layout["players"] != options.players:
        fitting = sorted(k for k, v in layouts.items() if v["players"] == options.players)
        raise InputError(
            where,
            f"deal_layout {options.deal_layout!r} is for {layout['players']} players, but players is {options.players}; "
            f"expected one of {', '.join(fitting) or 'none'}",
        )
    if options.deal_packet_order not in layout["orders"]:
        raise InputError(
            where,
            f"deal_layout {options.deal_layout!r} has no packet order {options.deal_packet_order!r}; "
            f"expected one of {', '.join(layout['orders'])}",
        )
    if options.scoring_system == "gostop" and options.players not in (2, 3):
        raise InputError(where, f"Go-Stop scoring is for 2 or 3 players, got players = {options.players}")
    twos = sum(1 for v in options.bonus_cards if v == 2)
    threes = sum(1 for v in options.bonus_cards if v == 3)
    if twos > 3 or threes > 1:
        raise InputError(where, f"bonus_cards {list(options.bonus_cards)}: the deck has three 2-unit and one 3-unit bonus cards")


RULESET_DIR: Final = "rulesets"


@cache
def _ruleset_files() -> dict[str, Located]:
    out: dict[str, Located] = {}
    for path in sorted((spec_dir() / RULESET_DIR).glob("*.yaml")):
        located = load_spec_file(f"{RULESET_DIR}/{path.name}", "ruleset")
        rid = located.data["id"]
        if rid != path.stem:
            raise InputError(located.where(["id"]), f"ruleset id {rid!r} must equal the file name {path.stem!r}")
        out[rid] = located
    return out


def ruleset_ids() -> list[str]:
    return sorted(_ruleset_files())


@cache
def load_ruleset(ruleset_id: str) -> Ruleset:
    files = _ruleset_files()
    if ruleset_id not in files:
        raise InputError("ruleset", f"unknown ruleset {ruleset_id!r}; expected one of {', '.join(sorted(files))}")
    return _resolve(ruleset_id, files, ())


def _resolve(ruleset_id: str, files: Mapping[str, Located], chain: tuple[str, ...]) -> Ruleset:
    located = files[ruleset_id]
    data = located.data
    if ruleset_id in chain:
        cycle = " -> ".join((*chain, ruleset_id))
        raise InputError(located.where(["parent"]), f"ruleset inheritance cycle: {cycle}")
    parent_id = data.get("parent")
    base: dict[str, Any] | None = None
    if parent_id is not None:
        if parent_id not in files:
            raise InputError(located.where(["parent"]), f"unknown parent ruleset {parent_id!r}; expected one of {', '.join(sorted(files))}")
        base = _resolve(parent_id, files, (*chain, ruleset_id)).options.as_json()
    return ruleset_of(located, ruleset_id, parent_id, base)


def ruleset_of(located: Located, ruleset_id: str, parent: str | None, base: Mapping[str, Any] | None) -> Ruleset:
    """The ruleset a validated ruleset document (spec/schemas/ruleset.schema.json) says: its own
    option values over `base` (its parent's resolved options as JSON; None: every option at its
    registry default), each error located at the file's line (an unknown source, option or value,
    a toggle contradicting an option beside it, values that do not go together)."""
    data = located.data
    registry = option_registry()
    known = source_ids()
    for i, source in enumerate(data["sources"]):
        if source not in known:
            expected = ", ".join(known)
            raise InputError(located.where(["sources", i]), f"unknown source {source!r}; expected a key of spec/sources.yaml ({expected})")
    values = _typed_options(base) if base is not None else {key: spec.default for key, spec in registry.items()}
    own: dict[str, OptionValue] = {}
    try:
        written = expand_toggles(data["options"], "options")
    except InputError as exc:
        raise InputError(located.where(["options", exc.where.rsplit(".", 1)[-1]]), exc.detail) from None
    for key, raw in written.items():
        spec = registry.get(key)
        if spec is None:
            raise InputError(located.where(["options", key]), f"unknown option {key!r}; expected an option of spec/options.yaml")
        value = spec.coerce(raw)
        if value is None:
            raise InputError(located.where(["options", key]), f"expected {spec.expected()}, got {raw!r}")
        own[key] = value
    options = _make_options(values | own)
    check_consistency(options, located.where(["options"]))
    return Ruleset(
        id=ruleset_id,
        title=data["title"],
        description=" ".join(str(data["description"]).split()),
        parent=parent,
        sources=tuple(data["sources"]),
        own=own,
        options=options,
        file=located.path,
    )


@cache
def source_ids() -> list[str]:
    """The keys of spec/sources.yaml: every source a clause, an option or a ruleset may cite."""
    located = load_yaml(spec_dir() / "sources.yaml", "spec/sources.yaml")
    sources = located.data.get("sources") if isinstance(located.data, dict) else None
    if not isinstance(sources, dict):
        raise InputError(located.where(), "expected `sources:` mapping each source key to {title, locator, kind}")
    return [str(key) for key in sources]
