"""The reference engine behind the JSON vocabulary of the protocol (spec/protocol/): the same
objects whether it is driven in process by the harness or over stdio by `gostop-reference --stdio`."""

from __future__ import annotations

from typing import Any, Final

from gostop_conformance.reference._build import engine_build, engine_version
from gostop_conformance.reference._deal import Deal, deal_from_json
from gostop_conformance.reference._events import Action, Rejection
from gostop_conformance.reference._round import Round
from gostop_conformance.spec import InputError, Ruleset, option_registry, ruleset_from_json, ruleset_ids

Json = dict[str, Any]
PROTOCOL_VERSION = "1"
_LANGUAGE = {"interpreted": "python", "compiled": "python (compiled with mypyc)"}
#: the largest nagari streak and Go count a deal may carry. Each is an exponent (R-NAGARI-CARRY
#: doubles the carry per void round, exp2_from_3 the payment per Go) and the schema bounds neither:
#: 2^(2^63) is a MemoryError, 2^(10^9) a 125 MB integer built on every settlement. No match comes
#: near 64 void rounds in a row, nor a player near 64 Gos.
EXPONENT_LIMIT: Final = 64


def _deal_problem(deal: Any, players: int) -> str | None:
    """What the engine's own deal check (reference._deal.check_deal) lets through and the round
    cannot play, or None: a nagari streak or Go count beyond EXPONENT_LIMIT, or a first player who
    is no seat of the ruleset (the schema allows seats up to 3; the round then indexed its seats
    past the end, an IndexError on every legal and act)."""
    if not isinstance(deal, dict):
        return None
    first = deal.get("first_player")
    if isinstance(first, int) and not 0 <= first < players:
        return f"deal.first_player: expected a seat from 0 to {players - 1}, got {first}"
    places: list[tuple[str, Any]] = [("deal.nagari_streak", deal.get("nagari_streak"))]
    states = deal.get("players")
    if isinstance(states, list):
        places += [(f"deal.players[{i}].gos", p.get("gos")) for i, p in enumerate(states) if isinstance(p, dict)]
    for where, value in places:
        if isinstance(value, int) and value > EXPONENT_LIMIT:
            limit = "the reference engine's limit: the payments may double with each"
            return f"{where}: expected at most {EXPONENT_LIMIT} ({limit}), got {value}"
    return None


class JsonEngine:
    """One game at a time; every method takes and returns JSON-ready objects."""

    def __init__(self, option_reads: set[str] | None = None) -> None:
        """With `option_reads`, every option the engine reads is added to that set (interpreted
        build only: reference_impl._tracing)."""
        self.round: Round | None = None
        self.option_reads = option_reads
        #: how the round in progress started, and the actions taken since (`take_back` replays them)
        self._start: tuple[Ruleset, Deal] | None = None
        self._actions: list[Action] = []

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
        self.close()
        problem = _deal_problem(deal, rs.options.players)
        if problem is not None:
            return {"error": {"code": "bad_deal", "message": problem}}
        try:
            dealt = deal_from_json(deal, rs.options)
            self.round = Round(rs, dealt, check=False)  # deal_from_json has checked it
        except InputError as exc:
            return {"error": {"code": "bad_deal", "message": str(exc)}}
        self._start = (rs, dealt)
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
            parsed = Action.from_json(action)
            events = rnd.apply(parsed)
        except Rejection as rej:
            return {"error": rej.to_json()}
        self._actions.append(parsed)
        return {"events": [e.to_json() for e in events], "state": rnd.snapshot()}

    def take_back(self) -> None:
        """Undo the last act, as if it had been refused: the round is played again from its deal
        without it (the engine is deterministic). For the server, when the act's reply cannot be
        written; costs nothing until then (no copy of the round is kept)."""
        if self._start is None or not self._actions:
            return
        rs, dealt = self._start
        del self._actions[-1]
        rnd = Round(rs, dealt, check=False)
        for action in self._actions:
            rnd.apply(action)
        self.round = rnd

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
        self._start = None
        self._actions = []
