#!/usr/bin/env python3
"""SKELETON of a Go-Stop engine adapter for gostop-conformance (protocol version 1).

This is a starting point to fill in, not an engine. It answers the handshake, keeps an explicit
deal as the state (no deal-time rules yet), and answers `legal`, `act` and `score` with the error
`unsupported`. Search for TODO. Try it with

    gostop-conformance smoke --engine "python3 skeleton_engine.py"

The protocol: one JSON object per line on stdin, exactly one JSON reply per line on stdout echoing
the request's `seq`; stdout carries nothing else (log to stderr). Schema:
spec/protocol/protocol.schema.json.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

ENGINE = {"name": "my-engine", "version": "0.0.1", "language": "python"}
# TODO: the named rulesets your engine plays with every one of their option values.
RULESETS = ["matgo-2p"]
# TODO: add "seeded_deal" once your engine deals from a seed as R-SHUFFLE specifies.
FEATURES: list[str] = []


def unsupported(what: str) -> dict[str, Any]:
    return {"error": {"code": "unsupported", "message": f"{what} is not implemented yet (skeleton adapter)"}}


class Game:
    """One round. TODO: the rules (spec/rules/, the rules pages of the documentation)."""

    def __init__(self, ruleset: dict[str, Any], deal: dict[str, Any]) -> None:
        self.ruleset = ruleset  # {"id": ..., "options": {every option of spec/options.yaml, resolved}}
        players = len(deal["hands"])
        dealer = deal.get("dealer", 0)
        # TODO R-DEAL-BONUS, R-TABLE-TRIPLE, R-TABLE-FOUR, R-CHONGTONG: the deal-time checks.
        # TODO R-TURN-ORDER: the ruleset's `first_player` option says who plays first.
        self.state: dict[str, Any] = {
            "decision": "turn",
            "to_act": deal.get("first_player", dealer),
            "dealer": dealer,
            "hands": [list(hand) for hand in deal["hands"]],
            "table": list(deal.get("table", [])),
            "stacks": [],
            "stock": list(deal.get("stock", [])),  # top first
            "captured": [list(pile) for pile in deal.get("captured") or [[] for _ in range(players)]],
        }
        self.events = [{"kind": "deal", "dealer": dealer, "first_player": self.state["to_act"]}]


class Adapter:
    def __init__(self) -> None:
        self.game: Game | None = None

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"protocol": "1", "engine": ENGINE, "rulesets": RULESETS, "features": FEATURES}

    def new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        ruleset, deal = request["ruleset"], request["deal"]
        if ruleset["id"] not in RULESETS:
            return {"error": {"code": "unsupported", "message": f"ruleset {ruleset['id']} is not supported"}}
        if "seed" in deal:
            return unsupported("dealing from a seed")
        self.game = Game(ruleset, deal)
        return {"events": self.game.events, "state": self.game.state}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        # TODO: {"player": seat or None, "decision": "turn" | "choose_hand_match" | ..., "actions": [...]}
        return unsupported("legal")

    def act(self, request: dict[str, Any]) -> dict[str, Any]:
        # TODO: apply request["action"]; reply {"events": [...], "state": {...}}, or refuse it with
        # {"error": {"code": <a rejection code of spec/vocabulary.yaml>, "message": ...}} and change nothing.
        return unsupported("act")

    def score(self, request: dict[str, Any]) -> dict[str, Any]:
        # TODO: {"scores": [per seat], "settlement": None until the round is over, then {"kind", "net", ...},
        #        "next": {"dealer", "nagari_streak", "counts_as_round"} once it is over}
        return unsupported("score")


def main() -> int:
    adapter = Adapter()
    handlers = {
        "hello": adapter.hello,
        "new_game": adapter.new_game,
        "legal": adapter.legal,
        "act": adapter.act,
        "score": adapter.score,
    }
    for line in sys.stdin:
        if not line.strip():
            continue
        seq = None
        try:
            request = json.loads(line)
            seq = request.get("seq")
            cmd = request.get("cmd")
            if cmd == "bye":
                print(json.dumps({"seq": seq}), flush=True)
                return 0
            handler = handlers.get(cmd)
            reply = handler(request) if handler else {"error": {"code": "bad_request", "message": f"unknown cmd {cmd!r}"}}
        except Exception as exc:  # never die on one bad message: report it and go on
            traceback.print_exc(file=sys.stderr)
            reply = {"error": {"code": "internal", "message": f"{type(exc).__name__}: {exc}"}}
        print(json.dumps({"seq": seq, **reply}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
