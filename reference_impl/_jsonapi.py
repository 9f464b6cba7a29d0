"""The reference engine behind the JSON vocabulary of the protocol (spec/protocol/): the same
objects whether it is driven in process by the harness or over stdio by `gostop-reference --stdio`."""

from __future__ import annotations

from typing import Any

from gostop_conformance.reference._build import engine_build, engine_version
from gostop_conformance.reference._deal import deal_from_json
from gostop_conformance.reference._events import Action, Rejection
from gostop_conformance.reference._round import Round
from gostop_conformance.spec import InputError, option_registry, ruleset_from_json, ruleset_ids

Json = dict[str, Any]
PROTOCOL_VERSION = "1"
_LANGUAGE = {"interpreted": "python", "compiled": "python (compiled with mypyc)"}


class JsonEngine:
    """One game at a time; every method takes and returns JSON-ready objects."""

    def __init__(self, option_reads: set[str] | None = None) -> None:
        """With `option_reads`, every option the engine reads is added to that set (interpreted
        build only: reference_impl._tracing)."""
        self.round: Round | None = None
        self.option_reads = option_reads

    def hello(self) -> Json:
        return {
            "protocol": PROTOCOL_VERSION,
            "engine": {"name": "gostop-reference", "version": engine_version(), "language": _LANGUAGE[engine_build()]},
            "rulesets": ruleset_ids(),
            "options": {key: "all" for key in option_registry()},
            "features": ["rule_trace", "seeded_deal", "perft", "match"],
        }

    def new_game(self, ruleset: Json, deal: Json) -> Json:
        """Start a round; an unknown ruleset, option value or bad deal is an `unsupported` or
        `bad_deal` error naming the field."""
        try:
            rs = ruleset_from_json(ruleset)
        except InputError as exc:
            return {"error": {"code": "unsupported", "message": str(exc)}}
        if self.option_reads is not None:
            from gostop_conformance.reference._tracing import traced

            rs = traced(rs, self.option_reads)
        try:
            self.round = Round(rs, deal_from_json(deal, rs.options), check=False)  # deal_from_json has checked it
        except InputError as exc:
            self.round = None
            return {"error": {"code": "bad_deal", "message": str(exc)}}
        return {"events": [e.to_json() for e in self.round.deal_events], "state": self.round.snapshot()}

    def legal(self) -> Json:
        rnd = self.round
        if rnd is None:
            return {"error": {"code": "no_game", "message": "no game in progress: send new_game first"}}
        return {
            "player": None if rnd.over else rnd.to_act,
            "decision": rnd.decision,
            "actions": [a.to_json() for a in rnd.legal_actions()],
        }

    def act(self, action: Json) -> Json:
        rnd = self.round
        if rnd is None:
            return {"error": {"code": "no_game", "message": "no game in progress: send new_game first"}}
        try:
            events = rnd.apply(Action.from_json(action))
        except Rejection as rej:
            return {"error": rej.to_json()}
        return {"events": [e.to_json() for e in events], "state": rnd.snapshot()}

    def score(self) -> Json:
        rnd = self.round
        if rnd is None:
            return {"error": {"code": "no_game", "message": "no game in progress: send new_game first"}}
        scores = [rnd.score(seat).to_json() for seat in range(rnd.n)]
        if rnd.settlement is None:
            return {"scores": scores, "settlement": None}
        return {"scores": scores, "settlement": rnd.settlement.to_json(), "next": rnd.next_round()}

    def perft(self, depth: int) -> Json:
        """spec/perft.yaml from the current state (the game itself is left untouched)."""
        from gostop_conformance.reference._perft import perft

        if self.round is None:
            return {"error": {"code": "no_game", "message": "no game in progress: send new_game first"}}
        return {"plies": perft(self.round, depth)}

    def close(self) -> None:
        self.round = None
