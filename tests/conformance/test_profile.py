"""`profile`: the option values an engine plays, learnt from its behaviour on the scenarios."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gostop_conformance.harness import ReferenceEngine, default_root, load_corpus
from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness._probes import probe_values
from gostop_conformance.harness._profile import HARNESS_ONLY, PER_OPTION, STRUCTURAL, _option, declaration, profile, table
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.spec import option_registry
from tests.conftest import needs_interpreted

CORPUS = load_corpus()
STORED = dependencies.load(default_root())
BY_ID = {sc.id: sc for sc in CORPUS}


class Forced(ReferenceEngine):
    """An engine with a house rule: whatever it is sent, it plays `option` = `value`."""

    def __init__(self, option: str, value: Any) -> None:
        super().__init__()
        self.option, self.value = option, value

    def new_game(self, ruleset: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any]:
        return super().new_game({**ruleset, "options": {**ruleset["options"], self.option: self.value}}, deal)


def forced_value(option: str) -> Any | None:
    """A value of `option` that changes the outcome of the scenario that separates its values best."""
    candidates = sorted((sid for sid, d in STORED.items() if d.depends_on(option)), key=lambda s: len(STORED[s].passes[option]))
    if not candidates:
        return None
    sc = BY_ID[candidates[0]]
    spec = option_registry()[option]
    return next((v for v in probe_values(spec, sc.resolved_options[option]) if v not in STORED[sc.id].passes[option]), None)


SEPARATED = [o for o in option_registry() if o not in STRUCTURAL and forced_value(o) is not None]


@pytest.mark.slow
@pytest.mark.parametrize("option", SEPARATED)
def test_profile_recovers_a_house_rule_value(option: str) -> None:
    """For every option the corpus can separate: an engine that hard-codes another value of it is
    found to play that value."""
    value = forced_value(option)
    [found] = profile(Forced(option, value), CORPUS, STORED, [option])
    if option in HARNESS_ONLY:  # what depends on them is the harness's own count of a match, not a reply
        assert found.values is None and found.inconclusive
        return
    assert found.values is not None and value in found.values, (found.verdict, found.scenarios, found.inconclusive)
    assert not found.follows


def test_an_engine_that_plays_what_it_is_sent_follows_the_option() -> None:
    [found] = profile(ReferenceEngine(), CORPUS, STORED, ["jjok_steal"])
    assert found.follows and declaration([found], "matgo-2p") == {"rulesets": [{"id": "matgo-2p", "options": {"jjok_steal": "all"}}]}
    # plays fitting the different values they were sent are what following is, not a disagreement
    assert found.followed and not found.inconsistent and found.declarable, found.confidence
    assert "told apart and played as sent" in found.confidence


def test_a_value_fixed_per_player_count_is_not_the_value_it_is_sent() -> None:
    """gostop-ts hard-codes pi_bak_max_units 7 with two players and 5 with three: every play fit the
    value it was sent, but no play of two players told 7 from 8 or 9, and across player counts a
    fixed value per count explains the rest. `follows` needs two values sent with one player count,
    told apart by plays that each fit the value sent; otherwise the finding is the values that fit."""
    engine = ForcedByPlayers("pi_bak_max_units", {2: 7, 3: 5})
    [found] = profile(engine, CORPUS, STORED, ["pi_bak_max_units"])
    assert not found.follows and not found.followed, found.confidence
    assert found.by_players == {2: (7, 8, 9), 3: (5,)} and found.verdict == "2 players: 7 or 8 or 9; 3 players: 5"
    assert found.declarable and declaration([found], ["matgo-2p", "standard-3p"]) == {"rulesets": ["matgo-2p", "standard-3p"]}


def test_following_needs_two_values_told_apart_within_one_player_count() -> None:
    from gostop_conformance.harness._profile import _followed

    per_count = [(2, "7", {"7", "8", "9"}), (3, "5", {"5"})]  # each fits its own value, but 7 and 5 never meet
    assert _followed(per_count) == {}
    not_apart = [(2, "7", {"7", "8"}), (2, "8", {"8"})]  # the play sent 7 fits 8 as well: a fixed 8 explains both
    assert _followed(not_apart) == {}
    apart = [(2, "7", {"7", "9"}), (2, "8", {"8"}), (3, "5", {"5"})]
    assert _followed(apart) == {2: {"7", "8"}}


def test_an_inconsistent_finding_is_never_confident() -> None:
    """A play that fits no value where the option's values differ contradicts following the value
    sent as much as it contradicts a value: the finding says so, is not declarable, and a
    declaration keeps the engine's own claim rather than "all"."""
    from gostop_conformance.harness._profile import OptionProfile, findings

    split = OptionProfile(
        "jjok_steal", (1,), scenarios=["a", "b"], unexplained=["c"], follows=True, followed={2: (0, 1)}, inconsistent=True, players=(2,)
    )
    split.fits = {2: ((1,), (0,))}
    assert split.verdict == "inconsistent: mostly the value it is sent" and not split.declarable
    [data] = findings([split])
    assert data["inconsistent"] and not data["declarable"] and data["followed"] == {"2": [0, 1]}
    assert declaration([split], "matgo-2p", {"rulesets": ["matgo-2p"]}) == {
        "rulesets": [{"id": "matgo-2p", "options": {"jjok_steal": "unsupported"}}]
    }
    assert table([split], "matgo-2p")[1].startswith("jjok_steal")  # listed, not counted as following


@needs_interpreted
def test_a_bug_no_option_models_is_never_a_confident_value() -> None:
    """steal-next-player-only makes only the next player pay a ppeok capture: neither value of
    ppeok_steal_payers (all opponents, the creator only) explains most scenarios. Where some plays
    happen to fit a value (the creator is the next player), the profile says the evidence is
    inconsistent, with its counts, and declares the option unsupported."""
    engine = StdioEngine([sys.executable, "-m", "gostop_conformance.mutants", "steal-next-player-only"])
    engine.start()
    try:
        [found] = profile(engine, CORPUS, STORED, ["ppeok_steal_payers"])
    finally:
        engine.close()
    assert len(found.unexplained) > len(found.scenarios)
    assert found.values == () or (found.inconsistent and found.verdict.startswith("inconsistent: mostly ")), found.verdict
    assert not found.declarable
    # doubted (unsupported) for the player counts it was played with, left to the ruleset for the others
    for claim, players in zip(declaration([found], ["matgo-2p", "standard-3p"])["rulesets"], (2, 3), strict=True):
        doubted = isinstance(claim, dict) and claim["options"].get("ppeok_steal_payers") == "unsupported"
        assert doubted == (players in found.players), (claim, found.players)
    assert found.players


def test_the_declaration_names_the_values_found() -> None:
    [found] = profile(Forced("meong_mode", "off"), CORPUS, STORED, ["meong_mode"])
    assert found.values == ("off",)
    assert declaration([found], "matgo-2p") == {"rulesets": [{"id": "matgo-2p", "options": {"meong_mode": ["off"]}}]}


def test_an_option_no_scenario_decides_is_played_in_random_rounds() -> None:
    """With none of jjok_steal's scenarios (an engine declining them all), targeted random rounds
    still find the value it plays."""
    corpus = [sc for sc in CORPUS if not STORED[sc.id].depends_on("jjok_steal")]
    [found] = profile(Forced("jjok_steal", 0), corpus, STORED, ["jjok_steal"], base="matgo-2p")
    assert found.plays == "random rounds" and found.scenarios and all(s.startswith("random round") for s in found.scenarios)
    assert found.values == (0,), found.confidence


def test_no_random_rounds_without_a_base() -> None:
    corpus = [sc for sc in CORPUS if not STORED[sc.id].depends_on("jjok_steal")]
    [found] = profile(Forced("jjok_steal", 0), corpus, STORED, ["jjok_steal"])
    assert found.values is None and found.verdict.startswith("undecided")


class ForcedMany(ReferenceEngine):
    """An engine with several house rules, whatever it is sent."""

    def __init__(self, values: dict[str, Any]) -> None:
        super().__init__()
        self.values = values

    def new_game(self, ruleset: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any]:
        return super().new_game({**ruleset, "options": {**ruleset["options"], **self.values}}, deal)


def test_a_difference_elsewhere_says_nothing_of_an_option() -> None:
    """An engine with two house rules: in some scenarios of pi_bak_max_units a jjok steals (or
    not) before pi bak is counted. No value of pi_bak_max_units fits them, but the engine differs
    first where that option plays no part: they are set aside (elsewhere), not counted against
    every value; the second pass, with jjok_steal's value found, makes them conclusive."""
    engine = ForcedMany({"jjok_steal": 0, "pi_bak_max_units": 0})
    alone = _option(engine, "pi_bak_max_units", BY_ID, STORED, None, 0, {}, {})
    assert alone.elsewhere and not alone.unexplained and alone.values is not None and 0 in alone.values, alone.confidence
    found = {p.option: p for p in profile(engine, CORPUS, STORED, ["jjok_steal", "pi_bak_max_units"])}
    assert found["jjok_steal"].values == (0,)
    both = found["pi_bak_max_units"]
    # the plays set aside alone are conclusive once jjok_steal is known
    assert both.values is not None and 0 in both.values and len(both.elsewhere) < len(alone.elsewhere), both.confidence


def test_the_reference_engine_plays_every_option_it_is_sent() -> None:
    """The reference engine, configured by the options it is sent: every option follows them or
    agrees with the base; none is undecided, without a fitting value, or a weak lead."""
    found = profile(ReferenceEngine(), CORPUS, STORED, base="matgo-2p")
    assert [line.split()[0] for line in table(found, "matgo-2p")[1:-2]] == []
    assert not {p.option for p in found} & HARNESS_ONLY


def test_a_finding_from_one_play_is_a_lead_not_a_declaration() -> None:
    [found] = profile(Forced("jjok_steal", 0), [BY_ID["events-jjok-steal-zero"]], STORED, ["jjok_steal"])
    assert found.values == (0,) and found.weak and "weak" in found.confidence
    assert declaration([found], "matgo-2p") == {"rulesets": ["matgo-2p"]}


@pytest.mark.slow
@needs_interpreted
def test_jobs_do_not_change_the_profile(tmp_path: Path) -> None:
    """profile --jobs 2 profiles the options in two worker processes, each with its own engine:
    the output, profile.json and profile.md are one job's, byte for byte."""
    engine = f"{sys.executable} -m gostop_conformance.mutants jjok-no-steal"
    options = ["--option", "jjok_steal", "--option", "pi_bak", "--option", "ttadak_steal"]
    made = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        proc = subprocess.run(
            [sys.executable, "-m", "gostop_conformance.harness", "profile", "--engine", engine, "--out", "found", *options, "--jobs", jobs],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        (tmp_path / "found").rename(out)
        made.append((proc.stdout, (out / "profile.json").read_bytes(), (out / "profile.md").read_bytes()))
    assert "jjok_steal" in made[0][0]
    assert made[0] == made[1]


def test_the_scenarios_tried_take_turns_across_the_values_they_send() -> None:
    """Eight sharp scenarios that all send one value would make an engine that follows its options
    look like one that always plays that value (go_multiplier, after a corpus grew in count_from_2)."""
    from gostop_conformance.harness._profile import _spread

    sent = {"a1": "a", "a2": "a", "a3": "a", "b1": "b", "c1": "c", "c2": "c"}
    assert _spread(["a1", "a2", "a3", "b1", "c1", "c2"], sent.__getitem__) == ["a1", "b1", "c1", "a2", "c2", "a3"]


class ForcedByPlayers(ReferenceEngine):
    """An engine that plays `option` one way with two players and another with three."""

    def __init__(self, option: str, values: dict[int, Any]) -> None:
        super().__init__()
        self.option, self.values = option, values

    def new_game(self, ruleset: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any]:
        forced = self.values.get(len(deal.get("hands", [])))
        options = {**ruleset["options"], self.option: forced} if forced is not None else ruleset["options"]
        return super().new_game({**ruleset, "options": options}, deal)


def test_a_value_that_depends_on_the_player_count_is_found_per_count_and_declared_so() -> None:
    """go_threshold 7 with two players and 3 with three is two findings, not one inconsistent one;
    the declaration gives each claimed ruleset its own count's value."""
    engine = ForcedByPlayers("go_threshold", {2: 5, 3: 2})
    [found] = profile(engine, CORPUS, STORED, ["go_threshold"])
    assert found.by_players == {2: (5,), 3: (2,)} and found.verdict == "2 players: 5; 3 players: 2", found.confidence
    assert not found.inconsistent and found.declarable
    declared = declaration([found], ["matgo-2p", "standard-3p"])
    assert declared == {
        "rulesets": [{"id": "matgo-2p", "options": {"go_threshold": [5]}}, {"id": "standard-3p", "options": {"go_threshold": [2]}}]
    }


class Refusing(ReferenceEngine):
    """An engine that refuses every deal as unsupported."""

    def new_game(self, ruleset: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any]:
        return {"error": {"code": "unsupported", "message": "no"}}


def test_a_refused_deal_is_no_evidence() -> None:
    [found] = profile(Refusing(), CORPUS, STORED, ["jjok_steal"])
    assert found.values is None and not found.unexplained and found.inconclusive


def test_the_declaration_keeps_what_playing_cannot_find_from_the_engines_hello() -> None:
    """The deck, the features and the positions come from the engine's own hello; a value found by
    playing replaces the hello's, an inconsistent one is declared unsupported."""
    hello = {
        "rulesets": [{"id": "matgo-2p", "options": {"bonus_cards": [[], [2]], "meong_mode": ["off"]}}],
        "features": ["match"],
        "positions": "reachable",
    }
    [found] = profile(Forced("meong_mode", "meongbak_loser_zero"), CORPUS, STORED, ["meong_mode"])
    assert found.values and "meongbak_loser_zero" in found.values and found.declarable
    declared = declaration([found], ["matgo-2p"], hello)
    [claim] = declared["rulesets"]
    assert claim["options"]["bonus_cards"] == [[], [2]] and "meongbak_loser_zero" in claim["options"]["meong_mode"]
    assert declared["features"] == ["match"] and declared["positions"] == "reachable"
    found.inconsistent = True
    assert declaration([found], ["matgo-2p"], hello)["rulesets"][0]["options"]["meong_mode"] == "unsupported"


def test_a_scenario_that_depends_on_an_undeclared_option_is_no_evidence() -> None:
    """The engine's own hello leaves go_threshold unknown: a jjok_steal scenario that depends on it
    too is set aside (inconclusive), since the engine may play that one anyhow."""
    both = {sid for sid, d in STORED.items() if d.depends_on("jjok_steal") and d.depends_on("go_threshold")}
    assert both, "no scenario depends on both: pick another pair"
    undeclared = {sid: frozenset({"go_threshold"}) for sid in STORED}
    [found] = profile(Forced("jjok_steal", 0), CORPUS, STORED, ["jjok_steal"], undeclared=undeclared)
    assert not (set(found.scenarios) | set(found.unexplained)) & both
    assert set(found.inconclusive) & both


def test_a_value_found_by_few_plays_is_checked_against_more() -> None:
    """The scenarios that separate an option's values best may say nothing of an engine (every value
    fits, or it cannot play them): the search goes on past the first PER_OPTION until as many plays
    conclude (go-stop-python's dual_role_mode was a confident fixed_animal from two plays of eight,
    where more showed a rule no value models)."""
    engine = Forced("dual_role_mode", "fixed_animal")
    found = _option(engine, "dual_role_mode", BY_ID, STORED, None, 0, {}, {})
    assert found.values == ("fixed_animal",) and len(found.scenarios) >= PER_OPTION, found.confidence
    assert len(found.scenarios) + len(found.inconclusive) > PER_OPTION


def test_inconsistent_evidence_keeps_a_claim_most_plays_fit() -> None:
    """The engine's own value stands where more than half of the plays fit it, even when another
    value fits more of them (an empty set of dual-role cards fits every play where the cup is never
    moved); it is doubted where most plays do not fit it. gostop-ts's profile declared
    dual_role_cards unsupported with three players, where two of three plays fit its own value."""
    from gostop_conformance.harness._profile import OptionProfile

    def found(cup_votes: int) -> OptionProfile:
        return OptionProfile(
            "dual_role_cards",
            ([],),
            scenarios=["a", "b", "c"],
            inconsistent=True,
            players=(3,),
            majority={3: ([],)},
            fits={3: tuple(([], ["m09-animal"]) if i < cup_votes else ([],) for i in range(3))},
        )

    hello = {"rulesets": ["standard-3p"]}
    assert declaration([found(2)], "standard-3p", hello) == {"rulesets": ["standard-3p"]}
    assert declaration([found(1)], "standard-3p", hello) == {
        "rulesets": [{"id": "standard-3p", "options": {"dual_role_cards": "unsupported"}}]
    }


def test_a_claim_of_several_values_counts_every_play_that_fits_one() -> None:
    """gostop-ts claims gwang_bak true and false (its option); two plays, one fitting each, confirm
    the claim."""
    from gostop_conformance.harness._profile import OptionProfile

    split = OptionProfile("gwang_bak", (True,), scenarios=["a", "b"], inconsistent=True, players=(2,), fits={2: ((False,), (True,))})
    hello = {"rulesets": [{"id": "matgo-2p", "options": {"gwang_bak": [True, False]}}]}
    assert declaration([split], "matgo-2p", hello) == hello


def test_an_option_declared_with_other_values_makes_a_scenario_no_evidence() -> None:
    """A scenario under dual_role_mode fixed_double_junk, for an engine that declares only auto_best:
    the engine plays another value of it there, so the scenario says nothing of dual_role_cards
    (gostop-ts's profile doubted its own dual_role_cards with three players from such plays)."""
    from gostop_conformance.harness._profile import undeclared

    hello = {"rulesets": [{"id": "standard-3p", "options": {"dual_role_mode": ["auto_best"]}}]}
    doubtful = undeclared(hello, CORPUS, STORED)
    assert "dual_role_mode" in doubtful["scoring-dual-fixed-double-junk"]
    assert not doubtful[next(sid for sid, sc in BY_ID.items() if sc.ruleset == "standard-3p" and not sc.options and sid in STORED)]
