#!/usr/bin/env python3
"""SKELETON of a Go-Stop engine adapter for gostop-conformance (protocol version 1).

This is a starting point to fill in, not an engine. It answers the handshake, keeps an explicit
deal (a fresh one or a game in progress) as the state, and answers `legal`, `act` and `score` with
the error `unsupported` until you write them. Search for TODO. Try it with

    gostop-conformance smoke --engine "python3 skeleton_engine.py"

The protocol: one JSON object per line on stdin, exactly one JSON reply per line on stdout echoing
the request's `seq`; stdout carries nothing else (log to stderr). Every field of every message is in
the protocol reference (docs/protocol.md; schema: spec/protocol/protocol.schema.json, names:
spec/vocabulary.yaml); whole recorded sessions are in docs/protocol-examples/.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

Json = dict[str, Any]

ENGINE = {"name": "my-engine", "version": "0.0.1", "language": "python"}

# What your engine plays ("The declaration" in the protocol reference). A named ruleset, with every
# option value spec/rulesets resolves for it, except for the options you list here: per option id,
# "all" (any value), a list of the values you play instead of the ruleset's, or "unsupported" (you do
# not implement that option's rule reliably: the scenarios whose outcome depends on it are
# UNSUPPORTED). With exceptions the declaration is {"id": ..., "options": {...}}; without, the id.
# TODO: the ruleset you play, and where your engine differs from it, e.g.
#   EXCEPTIONS = {"two_card_bomb": ["off"], "jjok_steal": "all", "extra_yaku": "unsupported"}
RULESET = "matgo-2p"
EXCEPTIONS: dict[str, Any] = {}
RULESETS: list[Any] = [{"id": RULESET, "options": EXCEPTIONS} if EXCEPTIONS else RULESET]
# Option id -> "all" or the values you support in any configuration (optional with a ruleset).
OPTIONS: dict[str, Any] = {}
# The alternative: claim no ruleset and describe your engine by its options alone. An option you do
# not list is unknown, and only the scenarios whose outcome depends on an unknown option are
# UNSUPPORTED; new_game then names the scenario's own ruleset and you play by ruleset.options.
#   RULESETS = []
#   OPTIONS = {"players": [2], "scoring_system": ["gostop"], "go_threshold": [7], "jjok_steal": [1]}
# TODO: add "seeded_deal" once your engine deals from a seed as R-SHUFFLE specifies.
FEATURES: list[str] = []
CLAIMED = {item if isinstance(item, str) else item["id"] for item in RULESETS}


class NoGame(Exception):
    """legal, act or score before any new_game."""


def error(code: str, message: str) -> Json:
    """An error reply: a rejection code of spec/vocabulary.yaml for an illegal act, else an error code."""
    return {"error": {"code": code, "message": message}}


def event(kind: str, player: int | None = None, cards: list[str] | None = None, **fields: Any) -> Json:
    """An event of spec/vocabulary.yaml (`events`): what `player` and `cards` mean, and which other
    fields each kind carries, are listed there per kind (a steal's `player` is the giver, `to` the taker)."""
    out: Json = {"kind": kind}
    if player is not None:
        out["player"] = player
    if cards:
        out["cards"] = cards
    out.update(fields)
    return out


class Game:
    """One round. TODO: the rules (docs/rules/index.md, spec/rules/)."""

    def __init__(self, ruleset: Json, deal: Json) -> None:
        self.ruleset = ruleset  # {"id": ..., "options": {every option of spec/options.yaml, resolved}}: play by the options
        players = len(deal["hands"])
        dealer = deal.get("dealer", 0)
        # The table's deal-time rules apply to every deal, a game in progress included (a deal with
        # captured piles or a turn count); only the chongtong check is for a fresh round alone (no
        # captured, turn 0): the protocol's `deal` (docs/protocol.md) states it once for every page.
        # TODO R-DEAL-BONUS, R-TABLE-FOUR, R-TABLE-TRIPLE, and for a fresh round R-CHONGTONG: the deal-time rules,
        # each with its events (event_order new_game: table_bonus* deal table_four... table_triple* chongtong*).
        # TODO R-TURN-ORDER: without deal["first_player"], the option first_player says who plays first.
        table = list(deal.get("table", []))
        self.state: Json = {
            "decision": "turn",
            "to_act": deal.get("first_player", dealer),
            "hands": [list(hand) for hand in deal["hands"]],
            "table": table,  # the cards of stacks too; a stack's buried bonus cards are in stacks[].bonus only
            "stacks": [
                {
                    "month": stack["month"],
                    "owner": stack["owner"],  # the ppeok's creator, or None for a dealt triple
                    "cards": [card for card in table if card.startswith(f"m{stack['month']:02d}-")],
                    "bonus": [],
                }
                for stack in deal.get("stacks", [])
            ],
            "stock": list(deal.get("stock", [])),  # top first
            "captured": [list(pile) for pile in deal.get("captured") or [[] for _ in range(players)]],
            "in_play": [],  # the cards of a turn paused at choose_hand_match / choose_flip_match
            "turn": deal.get("turn", 0),
            "dealer": dealer,
            "players": [self.player_state(p) for p in deal.get("players") or [{} for _ in range(players)]],
            "nagari_streak": deal.get("nagari_streak", 0),
            "awards": [],  # first-turn awards paid so far, [payer, payee, points] (R-FIRST-TURN-AWARD)
        }
        self.carried_multiplier = deal.get("carried_multiplier", 1)
        self.events = [event("deal", dealer=dealer, first_player=self.state["to_act"])]

    @staticmethod
    def player_state(given: Json) -> Json:
        """A player's round state besides the cards; a deal may leave any field out (a fresh round)."""
        return {
            "gos": given.get("gos", 0),
            "go_base": given.get("go_base", 0),
            "shaken_months": list(given.get("shaken_months", [])),
            "bombs": list(given.get("bombs", [])),
            "skip_credits": given.get("skip_credits", 0),
            "ppeoks": given.get("ppeoks", 0),
            "dual_junk": list(given.get("dual_junk", [])),
        }

    def legal(self) -> Json:
        # TODO: {"player": seat or None, "decision": "turn" | "choose_hand_match" | "choose_flip_match" |
        #        "go_stop" | "none", "actions": [every legal action]}
        raise NotImplementedError("legal")

    def act(self, action: Json) -> Json:
        # TODO: refuse an illegal action with error(<rejection code>, why) and change nothing. Otherwise
        # apply it and return {"events": events, "state": self.state}, the events in the order of
        # spec/vocabulary.yaml (event_order). For a play:
        #   [shake] play [stack_capture] bonus* flip                      (a choose_* decision pauses here)
        #   [jjok|ppeok|ttadak] [stack_capture] capture [sweep] award*    (one capture of all the turn took)
        #   steal_exempt* steal*                                          (one steal per paying opponent)
        #   [go_stop_offered | round_end]
        # e.g. event("play", seat, [card]), event("flip", seat, [flipped]), event("capture", seat, taken),
        #      event("steal", giver, surrendered, to=seat, requested=1, units=1)
        raise NotImplementedError("act")

    def scores(self) -> list[Json]:
        # TODO: per seat, the base score by category (R-SCORE-SUM): {"brights", "bright_points", "animals",
        # "animal_points", "godori_points", "ribbons", "ribbon_points", "dans", "dan_points", "junk_units",
        # "junk_cards", "junk_points", "base", ...}; the harness recomputes `base` from the captured pile.
        raise NotImplementedError("score")

    def settlement(self) -> Json | None:
        # TODO: None while the round goes on; then {"kind": "stop" | "nagari" | ..., "winner", "net": [per seat],
        # "payments": [{"from", "to", "amount"}], and for a stop "base", "go_count", "go_points",
        # "go_multiplier", "shake_bomb_factor", "meongtta", "carry", "points",
        # "losers": [{"seat", "baks": ["pi_bak", ...], "amount", "pays", "exempt"}]}.
        raise NotImplementedError("score")

    def next_round(self) -> Json:
        # TODO: once over: {"dealer", "nagari_streak", "carried_multiplier", "counts_as_round"} (R-NEXT-DEALER)
        raise NotImplementedError("score")


class Adapter:
    def __init__(self) -> None:
        self.game: Game | None = None

    def hello(self, request: Json) -> Json:
        reply: Json = {"protocol": "1", "engine": ENGINE, "rulesets": RULESETS, "features": FEATURES}
        if OPTIONS:
            reply["options"] = OPTIONS
        return reply

    def new_game(self, request: Json) -> Json:
        ruleset, deal = request["ruleset"], request["deal"]
        if CLAIMED and ruleset["id"] not in CLAIMED:
            return error("unsupported", f"ruleset {ruleset['id']} is not supported")
        # TODO: refuse option values you do not play: error("unsupported", ...); a deal that is not a deal
        # of the ruleset (a card missing or twice): error("bad_deal", ...).
        if "seed" in deal:
            return error("unsupported", "dealing from a seed is not implemented yet (skeleton adapter)")
        self.game = Game(ruleset, deal)
        return {"events": self.game.events, "state": self.game.state}

    def legal(self, request: Json) -> Json:
        return self.current().legal()

    def act(self, request: Json) -> Json:
        return self.current().act(request["action"])

    def score(self, request: Json) -> Json:
        game = self.current()
        settlement = game.settlement()
        reply: Json = {"scores": game.scores(), "settlement": settlement}
        if settlement is not None:
            reply["next"] = game.next_round()
        return reply

    def current(self) -> Game:
        if self.game is None:
            raise NoGame("no game in progress: send new_game first")
        return self.game


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
            reply = handler(request) if handler else error("bad_request", f"unknown cmd {cmd!r}")
        except NotImplementedError as exc:
            reply = error("unsupported", f"{exc} is not implemented yet (skeleton adapter)")
        except NoGame as exc:
            reply = error("no_game", str(exc))
        except Exception as exc:  # never die on one bad message: report it and go on
            traceback.print_exc(file=sys.stderr)
            reply = error("internal", f"{type(exc).__name__}: {exc}")
        print(json.dumps({"seq": seq, **reply}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
