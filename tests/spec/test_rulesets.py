"""Ruleset loading: inheritance, validation and the errors a user sees (file, line, path)."""

from __future__ import annotations

import pytest

from gostop_conformance.spec import InputError, load_ruleset, load_yaml_text, option_registry, ruleset_ids, toggle_registry
from gostop_conformance.spec._rulesets import _resolve

REQUIRED = {
    "standard-3p",
    "matgo-2p",
    "wikipedia-2p",
    "wikipedia-3p",
    "site-default-2p",
    "site-default-3p",
    "beginner-blog-2p",
    "beginner-blog-3p",
    "family-2p",
    "family-3p",
    "family-4p",
    "matgo-online",
}


def test_every_required_ruleset_loads() -> None:
    assert set(ruleset_ids()) >= REQUIRED
    for rid in ruleset_ids():
        assert load_ruleset(rid).id == rid


def test_inheritance() -> None:
    online = load_ruleset("matgo-online")
    assert online.parent == "matgo-2p"
    assert online.options.go_threshold == 7  # from matgo-2p
    assert online.options.bonus_cards == (2, 3)  # its own
    assert load_ruleset("site-default-2p").options.dual_role_mode == "fixed_animal"  # from site-default-3p


def test_root_uses_registry_defaults() -> None:
    rs = load_ruleset("standard-3p")
    for key, spec in option_registry().items():
        assert getattr(rs.options, key) == spec.default


def _files(**texts: str):
    return {rid: load_yaml_text(text, f"spec/rulesets/{rid}.yaml") for rid, text in texts.items()}


BASE = "id: {id}\ntitle: t\ndescription: d\nsources: [spec]\n"


def test_cycle_is_an_error_naming_the_chain() -> None:
    files = _files(a=BASE.format(id="a") + "parent: b\noptions: {}\n", b=BASE.format(id="b") + "parent: a\noptions: {}\n")
    with pytest.raises(InputError, match=r"a\.yaml:5 at parent: ruleset inheritance cycle: a -> b -> a"):
        _resolve("a", files, ())


def test_unknown_parent() -> None:
    files = _files(a=BASE.format(id="a") + "parent: nope\noptions: {}\n")
    with pytest.raises(InputError, match="unknown parent ruleset 'nope'"):
        _resolve("a", files, ())


def test_unknown_option_names_the_line() -> None:
    files = _files(a=BASE.format(id="a") + "options:\n  players: 3\n  jjok_stael: 1\n")
    with pytest.raises(InputError, match=r"a\.yaml:7 at options\.jjok_stael: unknown option 'jjok_stael'"):
        _resolve("a", files, ())


def test_bad_value_says_what_was_expected() -> None:
    files = _files(a=BASE.format(id="a") + "options:\n  go_bak_mode: sometimes\n")
    with pytest.raises(InputError, match="expected one of pay_for_all, double_own, pay_for_all_doubled, off, got 'sometimes'"):
        _resolve("a", files, ())


def test_layout_must_fit_the_player_count() -> None:
    files = _files(a=BASE.format(id="a") + "options:\n  players: 2\n")
    with pytest.raises(InputError, match=r"deal_layout '7-6' is for 3 players, but players is 2; expected one of 10-8, 8-10, 8-8"):
        _resolve("a", files, ())


def test_scenario_overrides_are_validated() -> None:
    rs = load_ruleset("matgo-2p")
    assert rs.with_overrides({"jjok_steal": 0}, "s").options.jjok_steal == 0
    with pytest.raises(InputError, match=r"s\.jjok_steal: expected an integer from 0 to 5, got 9"):
        rs.with_overrides({"jjok_steal": 9}, "s")
    with pytest.raises(InputError, match="unknown option 'nope'"):
        rs.with_overrides({"nope": 1}, "s")


def test_hash_is_stable_and_distinguishes_rulesets() -> None:
    assert load_ruleset("matgo-2p").hash == load_ruleset("matgo-2p").hash
    assert len({load_ruleset(r).hash for r in ruleset_ids()}) == len(ruleset_ids())


# ------------------------------------------------------------------ convenience toggles


def test_a_toggle_sets_each_of_its_options_to_its_value() -> None:
    """Seed 002's 'Show 3 and Bomb': 'Turning this off removes both moves' (R-SHAKE, R-BOMB)."""
    rs = load_ruleset("site-default-3p")
    off = rs.with_overrides({"show3_and_bomb": False}, "s").options
    assert (off.shake_enabled, off.bomb_enabled) == (False, False)
    on = load_ruleset("family-3p").with_overrides({"show3_and_bomb": True}, "s").options
    assert (on.shake_enabled, on.bomb_enabled) == (True, True)
    assert set(toggle_registry()["show3_and_bomb"].sets) == {"shake_enabled", "bomb_enabled"}


def test_a_toggle_beside_a_contradicting_option_is_an_error() -> None:
    rs = load_ruleset("site-default-3p")
    with pytest.raises(InputError, match=r"s\.bomb_enabled: bomb_enabled = true contradicts show3_and_bomb = false"):
        rs.with_overrides({"show3_and_bomb": False, "bomb_enabled": True}, "s")
    # the same value twice says the same thing: no contradiction
    assert not rs.with_overrides({"show3_and_bomb": False, "bomb_enabled": False}, "s").options.bomb_enabled


def test_a_toggle_is_a_boolean() -> None:
    with pytest.raises(InputError, match=r"s\.show3_and_bomb: expected true or false \(the toggle 'Show 3 and Bomb'\), got 'off'"):
        load_ruleset("site-default-3p").with_overrides({"show3_and_bomb": "off"}, "s")


def test_a_ruleset_file_may_use_a_toggle_and_its_errors_name_the_line() -> None:
    files = _files(a=BASE.format(id="a") + "options:\n  show3_and_bomb: false\n")
    rs = _resolve("a", files, ())
    assert (rs.options.shake_enabled, rs.options.bomb_enabled) == (False, False)
    files = _files(a=BASE.format(id="a") + "options:\n  show3_and_bomb: false\n  shake_enabled: true\n")
    with pytest.raises(InputError, match=r"a\.yaml:\d+ at options\.shake_enabled: shake_enabled = true contradicts"):
        _resolve("a", files, ())


def test_every_toggle_sets_boolean_options_only() -> None:
    registry = option_registry()
    for toggle in toggle_registry().values():
        assert toggle.id not in registry
        assert all(registry[name].type == "bool" for name in toggle.sets)
