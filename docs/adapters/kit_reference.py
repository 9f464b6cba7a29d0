#!/usr/bin/env python3
"""A complete adapter on the Python kit (gostop_conformance.kit): the suite's own reference engine
behind it, seen as a third-party engine would be. The engine's events and rejections are thrown
away: the kit refuses actions from the engine's legal list alone (kit.check_action) and derives
every event from the states (kit.derive_events). It passes the whole corpus (tests/kit/test_corpus.py):

    gostop-conformance run --engine "python3 docs/adapters/kit_reference.py"

Your adapter has the same six methods, each a call into your engine and a mapping of its values
onto the protocol's (docs/kits.md)."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from gostop_conformance import kit
from gostop_conformance.reference import JsonEngine

Json = dict[str, Any]


class ReferenceBehindKit:
    """kit.Engine over the reference engine's JSON API, its events and rejections thrown away."""

    def __init__(self) -> None:
        self.engine = JsonEngine()

    def hello(self) -> Mapping[str, Any]:
        declared = self.engine.hello()
        # no rule_trace (derived events carry no clauses) and no perft (not served through the kit)
        features = [f for f in declared.get("features", []) if f not in ("rule_trace", "perft")]
        return {**{k: v for k, v in declared.items() if k not in ("seq", "protocol", "features")}, "features": features}

    def new_game(self, ruleset: kit.Ruleset, deal: kit.Deal) -> Sequence[Mapping[str, Any]] | None:
        reply = self.engine.new_game({"id": ruleset.id, "options": dict(ruleset.options)}, dict(deal.raw))
        if "error" in reply:
            error = reply["error"]
            raise (kit.BadDeal if error["code"] == "bad_deal" else kit.Unsupported)(error["message"])
        return None

    def state(self) -> Mapping[str, Any]:
        assert self.engine.round is not None
        return self.engine.round.snapshot()

    def legal(self) -> kit.Legal:
        reply = self.engine.legal()
        return kit.Legal(reply["player"], reply["decision"], reply["actions"])

    def act(self, action: Json) -> Sequence[Mapping[str, Any]] | None:
        reply = self.engine.act(action)
        if "error" in reply:  # the kit passes on only what the engine listed as legal
            raise AssertionError(f"the kit passed on an action the engine refuses: {action}: {reply['error']}")
        return None

    def score(self) -> kit.Scores:
        reply = self.engine.score()
        return kit.Scores(reply["scores"], reply["settlement"], reply.get("next"))


if __name__ == "__main__":
    sys.exit(kit.serve(ReferenceBehindKit()))
