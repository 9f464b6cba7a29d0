"""Option dependencies (conformance._dependencies): derived soundly, stored faithfully."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gostop_conformance.harness import ReferenceEngine, default_root, load_corpus, run_scenario
from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness._dependencies import Dependencies
from gostop_conformance.harness._probes import probe_values
from gostop_conformance.reference import RandomPlayer, SplitMix64, seeded_round
from gostop_conformance.spec import InputError, load_ruleset, option_registry, ruleset_ids
from tests.conftest import needs_interpreted

CORPUS = load_corpus()
STORED = dependencies.load(default_root())
#: a fixed sample across areas: the whole corpus is checked by `gostop-conformance lint` (CI)
SAMPLE = random.Random(7).sample(CORPUS, 24)


def test_every_scenario_of_the_corpus_has_a_current_entry() -> None:
    """Digests only (cheap); lint derives the whole file again."""
    assert [sc.id for sc in CORPUS] == list(STORED)
    assert all(STORED[sc.id].digest == dependencies.scenario_digest(sc) for sc in CORPUS)


@needs_interpreted
@pytest.mark.parametrize("sc", SAMPLE[:6], ids=lambda sc: sc.id)
def test_the_stored_entry_is_what_deriving_gives(sc) -> None:
    assert dependencies.derive(sc) == STORED[sc.id]


@pytest.mark.parametrize("sc", SAMPLE[:6], ids=lambda sc: sc.id)
def test_deriving_without_the_trace_is_conservative(sc) -> None:
    """The compiled engine cannot be traced: probing every option finds every stored dependency
    with the same passing values, and perhaps more (never fewer: an engine is then asked for more)."""
    untraced = dependencies.derive(sc, trace=False)
    assert set(STORED[sc.id].passes) <= set(untraced.passes)
    assert all(untraced.passes[name] == values for name, values in STORED[sc.id].passes.items())


@needs_interpreted
@pytest.mark.slow
@pytest.mark.parametrize("sc", SAMPLE, ids=lambda sc: sc.id)
def test_an_option_that_is_no_dependency_changes_nothing(sc) -> None:
    """The soundness of the read trace: every option that is not a dependency (most of them never
    probed, because the engine never read them) passes under every probe value, all else equal."""
    dep = STORED[sc.id]
    for name, spec in option_registry().items():
        if dep.depends_on(name):
            continue
        for value in probe_values(spec, sc.resolved_options[name]):
            try:
                other = sc.reconfigured(sc.ruleset, {name: value})
            except InputError:
                continue  # no valid ruleset with the scenario's other values (deal_layout 8-10 for three players): never sent so
            assert run_scenario(ReferenceEngine(), other).outcome == "PASS", f"{sc.id} fails with {name} = {value!r}"


@pytest.mark.parametrize("sc", SAMPLE[:8], ids=lambda sc: sc.id)
def test_a_dependency_fails_under_some_probe_and_passes_under_the_stored_values(sc) -> None:
    dep = STORED[sc.id]
    for name, passes in dep.passes.items():
        spec = option_registry()[name]
        current = sc.resolved_options[name]
        assert current in passes
        failing = [v for v in probe_values(spec, current) if v not in passes]
        assert failing, f"{name} is listed but every probe passes"
        value = failing[0]
        try:
            outcome = run_scenario(ReferenceEngine(), sc.reconfigured(sc.ruleset, {name: value})).outcome
        except InputError:
            continue  # no valid ruleset: a dependency by construction
        assert outcome != "PASS", f"{sc.id} passes with {name} = {value!r}, which is stored as failing"


def test_probe_domains() -> None:
    reg = option_registry()
    assert probe_values(reg["pi_bak"], True) == [False, True]
    assert probe_values(reg["meong_mode"], "off") == list(reg["meong_mode"].values)
    assert probe_values(reg["jjok_steal"], 1) == [0, 1, 2, 3, 4, 5]
    wide = probe_values(reg["match_target_points"], 300)
    assert wide[0] == "none" and 1 in wide and 10000 in wide and 297 in wide and 303 in wide and 5000 not in wide
    assert probe_values(reg["dual_role_cards"], ["m09-animal"]) == [[], ["m05-animal"], ["m09-animal"], ["m05-animal", "m09-animal"]]
    months = probe_values(reg["shake_x4_months"], [11, 12])
    assert [] in months and [11] in months and [1, 11, 12] in months and list(range(1, 13)) in months


def test_the_file_round_trips(tmp_path: Path) -> None:
    deps = {
        "a": Dependencies("0123", {"players": (2,), "junk_threshold": (1, 2, 3, 4, 7, 9, 10, 11), "extra_yaku": ([], ["yukdori"])}),
        "b": Dependencies("4567", {}, constructed=True),
    }
    dependencies.write(tmp_path / "dependencies.yaml", deps)
    text = (tmp_path / "dependencies.yaml").read_text()
    assert 'junk_threshold: ["1..4", 7, "9..11"]' in text and "constructed: true" in text
    assert dependencies.load(tmp_path) == deps


def test_a_malformed_file_names_the_entry(tmp_path: Path) -> None:
    (tmp_path / "dependencies.yaml").write_text("schema_version: 1\nscenarios:\n  a:\n    digest: 12\n    depends: [players]\n")
    with pytest.raises(InputError, match=r"dependencies.yaml:3 at scenarios.a: expected \{digest"):
        dependencies.load(tmp_path)


def test_a_scenario_that_fails_on_the_reference_has_no_dependencies() -> None:
    sc = CORPUS[0]
    other = {"players": 3, "deal_layout": "7-6"} if sc.rules.players == 2 else {"players": 2, "deal_layout": "10-8"}
    broken = sc.reconfigured(sc.ruleset, other)
    with pytest.raises(InputError, match="fails on the reference engine"):
        dependencies.derive(broken)


def test_a_constructed_position_is_recognised_from_the_states_of_a_run() -> None:
    """R-ROUND-END: an empty stock while a hand holds cards is constructed, in a deck with bonus
    cards too (the next test shows why)."""
    sc = next(sc for sc in CORPUS if sc.id == "capture-flip-empty-stock-pair")
    assert dependencies.is_constructed(run_scenario(ReferenceEngine(), sc).transcript)
    with_bonus = next(sc for sc in CORPUS if sc.id == "bonus-hand-empty-stock-ordinary-card-left")
    assert with_bonus.rules.bonus_cards and dependencies.is_constructed(run_scenario(ReferenceEngine(), with_bonus).transcript)
    assert STORED[with_bonus.id].constructed
    ordinary = next(sc for sc in CORPUS if sc.id not in {s for s, d in STORED.items() if d.constructed} and not sc.rules.bonus_cards)
    assert not dependencies.is_constructed(run_scenario(ReferenceEngine(), ordinary).transcript)


@pytest.mark.parametrize("rid", [rid for rid in ruleset_ids() if load_ruleset(rid).options.bonus_cards])
def test_bonus_cards_never_empty_the_stock_before_the_hands(rid: str) -> None:
    """Why is_constructed holds for bonus decks too: in random rounds, whenever the stock is
    empty, every hand is empty and every skip credit spent (R-DEAL-BONUS, R-BONUS-HAND, R-BONUS-FLIP)."""
    rs = load_ruleset(rid)
    positions = 0
    for seed in range(150):
        rnd = seeded_round(rs, SplitMix64(seed), seed % rs.options.players)
        player = RandomPlayer(seed)
        while not rnd.over:
            rnd.apply(player.choose(rnd))
            state = rnd.snapshot()
            positions += 1
            if not state["stock"]:
                assert not any(state["hands"]) and not any(p["skip_credits"] for p in state["players"]), (seed, state)
    assert positions > 1000
