"""What the harness needs from an engine: the `Engine` protocol, satisfied by the in-process
reference engine here and by the stdio client. Every method speaks the JSON vocabulary of
spec/vocabulary.yaml (the same objects the stdio protocol carries)."""

from __future__ import annotations

from typing import Any, Protocol

from reference_impl import Action, Rejection, Round, load_ruleset
from reference_impl._deal import deal_from_json

Json = dict[str, Any]


class EngineError(Exception):
    """The engine failed to answer a request properly (crash, hang, garbage, internal error)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class Engine(Protocol):
    """An engine under test. Replies are JSON objects; `act` may reply `{"error": {code, message}}`."""

    def hello(self) -> Json: ...

    def new_game(self, ruleset: Json, deal: Json) -> Json: ...

    def legal(self) -> Json: ...

    def act(self, action: Json) -> Json: ...

    def score(self) -> Json: ...

    def close(self) -> None: ...


class ReferenceEngine:
    """The bundled reference engine, in process."""

    def __init__(self) -> None:
        self.round: Round | None = None

    def hello(self) -> Json:
        from reference_impl import option_registry, ruleset_ids

        return {
            "name": "gostop-reference",
            "language": "python",
            "rulesets": ruleset_ids(),
            "options": {key: "all" for key in option_registry()},
        }

    def new_game(self, ruleset: Json, deal: Json) -> Json:
        rs = load_ruleset(ruleset["id"])
        resolved = rs.options.as_json()
        overrides = {k: v for k, v in ruleset.get("options", {}).items() if resolved.get(k) != v}
        rs = rs.with_overrides(overrides, "ruleset.options")
        self.round = Round(rs, deal_from_json(deal, rs.options))
        return {"events": [e.to_json() for e in self.round.deal_events], "state": self.round.snapshot()}

    def _round(self) -> Round:
        if self.round is None:
            raise EngineError("protocol", "no game in progress")
        return self.round

    def legal(self) -> Json:
        rnd = self._round()
        return {
            "player": None if rnd.over else rnd.to_act,
            "decision": rnd.decision,
            "actions": [a.to_json() for a in rnd.legal_actions()],
        }

    def act(self, action: Json) -> Json:
        rnd = self._round()
        try:
            events = rnd.apply(Action.from_json(action))
        except Rejection as rej:
            return {"error": rej.to_json()}
        return {"events": [e.to_json() for e in events], "state": rnd.snapshot()}

    def score(self) -> Json:
        rnd = self._round()
        scores = [rnd.score(seat).to_json() for seat in range(rnd.n)]
        return {"scores": scores, "settlement": rnd.settlement.to_json() if rnd.settlement else None}

    def close(self) -> None:
        self.round = None
