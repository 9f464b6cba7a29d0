"""The kit's derivation with engines that are not the reference: the states are the engine's
truth, so an engine that plays a rule otherwise, or reports a paused turn in another allowed way,
gets its replies (for the harness to judge), never an `internal` error of the kit. The toy engine of
the tutorial (docs/adapters/toy_adapter.py) stands in for such an engine."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from gostop_conformance import kit, spec

ADAPTERS = Path(__file__).resolve().parents[2] / "docs" / "adapters"
sys.path.insert(0, str(ADAPTERS))
from toy_adapter import TO_ID, ToyAdapter  # noqa: E402


def test_an_engine_that_plays_on_after_a_third_ppeok_gets_the_events_of_what_it_played() -> None:
    """Sent three_ppeok_win = threshold, the toy plays on after a third ppeok (it does not model the
    option): the act's reply says so (a ppeok, no round end) for the harness to judge."""
    hands, table, top = [["m01-junk-2", "m05-junk-1"], ["m06-junk-1", "m07-junk-1"]], ["m01-junk-1", "m10-animal"], ["m01-ribbon"]
    captured = [["m02-junk-1"], ["m03-junk-1"]]
    used = {c for place in (*hands, table, top, *captured) for c in place}
    stock = top + [c for c in kit.deck_ids() if c not in used]
    deal = {"dealer": 0, "hands": hands, "table": table, "stock": stock, "captured": captured, "players": [{"ppeoks": 2}, {}], "turn": 4}
    options = spec.load_ruleset("matgo-2p").options.as_json() | {"three_ppeok_win": "threshold"}
    session = kit.Session(ToyAdapter())
    session.answer({"seq": 0, "cmd": "hello", "protocol": "1"})
    assert "error" not in session.answer({"seq": 1, "cmd": "new_game", "ruleset": {"id": "matgo-2p", "options": options}, "deal": deal})
    reply = session.answer({"seq": 2, "cmd": "act", "action": {"type": "play", "player": 0, "card": "m01-junk-2"}})
    assert "error" not in reply, reply
    assert [e["kind"] for e in reply["events"]] == ["play", "flip", "ppeok"]
    assert reply["state"]["decision"] == "turn"


class _DiscardInPlay(ToyAdapter):
    """The toy, its paused turn's unmatched hand card shown in play rather than on the table."""

    def state(self) -> Any:
        shown = dict(super().state())
        game = self.game
        if game.phase == "choose" and game.pending[3] == 0:
            card = TO_ID[game.pending[0]]
            shown["table"] = [c for c in shown["table"] if c != card]
            shown["in_play"] = [*shown["in_play"], card]
        return shown


def test_a_paused_turn_whose_hand_card_is_shown_in_play_resumes() -> None:
    session = kit.Session(_DiscardInPlay())
    session.answer({"seq": 0, "cmd": "hello", "protocol": "1"})
    options = spec.load_ruleset("matgo-2p").options.as_json()
    hands, table, top = [["m05-junk-1", "m06-junk-1"], ["m07-junk-1", "m08-junk-1"]], ["m11-junk-1", "m11-double-junk"], ["m11-bright"]
    used = {c for place in (*hands, table, top) for c in place}
    deal = {"dealer": 0, "hands": hands, "table": table, "stock": top + [c for c in kit.deck_ids() if c not in used]}
    assert "error" not in session.answer({"seq": 1, "cmd": "new_game", "ruleset": {"id": "matgo-2p", "options": options}, "deal": deal})
    paused = session.answer({"seq": 2, "cmd": "act", "action": {"type": "play", "player": 0, "card": "m05-junk-1"}})
    assert paused["state"]["decision"] == "choose_flip_match" and "m05-junk-1" in paused["state"]["in_play"], paused
    resumed = session.answer({"seq": 3, "cmd": "act", "action": {"type": "take", "player": 0, "card": "m11-junk-1"}})
    assert "error" not in resumed, resumed
    assert [e["kind"] for e in resumed["events"]] == ["capture"]


def test_a_ppeok_the_engine_did_not_count_is_still_a_ppeok_of_the_schema() -> None:
    """go-stop-python counts a month once (a ttadak's month then a ppeok in it): its counter stays,
    which its state shows for the harness to compare; the derived event still counts this ppeok
    (R-THREE-PPEOK: this one included), never 0, which the schema refuses."""
    import random

    from gostop_conformance.reference import JsonEngine

    options = spec.load_ruleset("matgo-2p").options.as_json()
    for seed in range(200):
        engine, rng = JsonEngine(), random.Random(seed)
        state = engine.new_game({"id": "matgo-2p", "options": options}, {"seed": seed, "dealer": 0})["state"]
        while state["decision"] != "none":
            action = rng.choice(engine.legal()["actions"])
            reply = engine.act(action)
            if any(e["kind"] == "ppeok" for e in reply["events"]) and action["type"] != "take":
                actor = action["player"]
                after = {**reply["state"], "players": [dict(p) for p in reply["state"]["players"]]}
                after["players"][actor]["ppeoks"] = state["players"][actor]["ppeoks"]  # the counter did not move
                score = engine.score()
                events = kit.derive_events(state, after, action, options=options, scores=score["scores"], settlement=score["settlement"])
                (ppeok,) = [e for e in events if e["kind"] == "ppeok"]
                assert ppeok["count"] == state["players"][actor]["ppeoks"] + 1
                kit.event("ppeok", **{k: v for k, v in ppeok.items() if k != "kind"})  # valid under the schema
                return
            state = reply["state"]
    raise AssertionError("no ppeok in 200 random rounds")
