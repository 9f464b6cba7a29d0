"""The worked sessions of docs/protocol-examples/: whole protocol sessions, hello to bye, recorded
from the reference engine's protocol server (`gostop_conformance.reference.handle_request`, exactly what
`gostop-reference --stdio` answers). Each file is JSON Lines as on the wire: a request, then its reply.

What each session sends is defined here; what the engine answers is recorded, never written by
hand. `python docs/_build/generate.py` writes the files; tests/docs/test_repository_docs.py
records them again and fails when a committed file differs, when a reply breaks the schema, or
when a session no longer shows what its description promises (`shows`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gostop_conformance.reference import JsonEngine, PlayerState, complete_deal
from gostop_conformance.reference import handle_request as handle
from gostop_conformance.spec import load_ruleset

Json = dict[str, Any]
FOLDER = "protocol-examples"


@dataclass(frozen=True)
class Session:
    name: str  # the file stem
    title: str
    about: str
    shows: tuple[str, ...]  # what the recording must contain: event:<kind>, bak:<name>, code:<code>, deal:<field>
    requests: tuple[Json, ...]

    @property
    def path(self) -> str:
        """Where the recording lives, under docs/."""
        return f"{FOLDER}/{self.name}.jsonl"


def _ruleset(rid: str) -> Json:
    return {"id": rid, "options": load_ruleset(rid).options.as_json()}


def _new_game(rid: str, hands: Sequence[Sequence[str]], table: Sequence[str], stock: Sequence[str], **extra: Any) -> Json:
    """An explicit deal naming the cards that matter; every other card goes to the bottom of the stock."""
    deal = complete_deal(load_ruleset(rid).options, hands, table, stock, **extra).to_json()
    return {"cmd": "new_game", "ruleset": _ruleset(rid), "deal": deal}


def _play(player: int, card: str, take: str | None = None) -> Json:
    action: Json = {"type": "play", "player": player, "card": card}
    if take is not None:
        action["take"] = take
    return {"cmd": "act", "action": action}


def _act(kind: str, player: int) -> Json:
    return {"cmd": "act", "action": {"type": kind, "player": player}}


HELLO: Json = {"cmd": "hello", "protocol": "1"}
LEGAL: Json = {"cmd": "legal"}
SCORE: Json = {"cmd": "score"}
BYE: Json = {"cmd": "bye"}

SESSIONS: tuple[Session, ...] = (
    Session(
        "01-captures-and-a-steal",
        "Captures and a steal",
        "matgo-2p from an explicit deal: seat 0 pairs and its flip pairs too (one capture event for the turn), seat 1 "
        "pairs junk, then seat 0's jjok makes seat 1 surrender a junk card: the steal's `player` is the giver, `to` "
        "the taker. The scores follow; the round goes on.",
        ("event:capture", "event:jjok", "event:steal"),
        (
            HELLO,
            _new_game(
                "matgo-2p",
                [["m01-junk-1", "m03-junk-1", "m06-junk-1"], ["m04-junk-1", "m07-junk-1", "m09-junk-1"]],
                ["m01-bright", "m02-ribbon", "m04-junk-2", "m10-animal"],
                ["m02-junk-1", "m05-junk-1", "m03-junk-2", "m11-junk-1"],
            ),
            LEGAL,
            _play(0, "m01-junk-1"),
            _play(1, "m04-junk-1"),
            _play(0, "m03-junk-1"),
            SCORE,
            BYE,
        ),
    ),
    Session(
        "02-go-then-stop",
        "Go, then Stop, and the settlement",
        "matgo-2p from a game in progress (captured piles in the deal): seat 0 reaches 8 points, is offered Go or Stop "
        "and calls Go; on its next turn it rises to 10, is offered the decision again and stops. The settlement: "
        "(base 10 + 1 for the Go) × multipliers = 11 points, doubled twice for seat 1's baks (gwang_bak, pi_bak).",
        ("event:go_stop_offered", "event:go", "event:stop", "event:round_end", "bak:gwang_bak", "bak:pi_bak"),
        (
            HELLO,
            _new_game(
                "matgo-2p",
                [["m08-junk-1", "m10-junk-1", "m06-animal"], ["m07-ribbon", "m09-animal"]],
                ["m08-bright", "m10-junk-2", "m02-animal"],
                ["m11-junk-1", "m05-ribbon", "m12-double-junk", "m06-ribbon"],
                captured=[
                    [
                        *("m01-bright", "m03-bright", "m01-ribbon", "m02-ribbon", "m03-ribbon"),
                        *("m04-junk-1", "m04-junk-2", "m05-junk-1", "m05-junk-2", "m06-junk-1"),
                        *("m06-junk-2", "m07-junk-1", "m07-junk-2", "m09-junk-1", "m09-junk-2"),
                    ],
                    ["m11-junk-2", "m01-junk-1"],
                ],
            ),
            _play(0, "m08-junk-1"),
            _act("go", 0),
            _play(1, "m07-ribbon"),
            _play(0, "m10-junk-1"),
            _act("stop", 0),
            SCORE,
            BYE,
        ),
    ),
    Session(
        "03-mid-game-deal",
        "A game in progress",
        "matgo-2p started in the middle of a round: captured piles, each player's state (seat 0 has shaken September, "
        "seat 1 has made a ppeok), seat 1's ppeok stack of June on the table, 8 turns played, one void round before. "
        "Seat 0 plays the fourth June card: it takes the stack at once (stack_capture, before the flip) and seat 1, the "
        "stack's creator, surrenders a junk card.",
        ("deal:captured", "deal:players", "deal:stacks", "deal:turn", "event:stack_capture", "event:steal"),
        (
            HELLO,
            _new_game(
                "matgo-2p",
                [["m06-ribbon", "m09-junk-1", "m09-junk-2", "m09-animal"], ["m10-animal", "m11-junk-1", "m12-animal"]],
                ["m06-animal", "m06-junk-1", "m06-junk-2", "m07-junk-1", "m10-junk-1"],
                ["m05-junk-1", "m08-junk-1"],
                captured=[
                    ["m01-bright", "m01-junk-1", "m02-junk-1", "m02-junk-2"],
                    ["m03-bright", "m03-junk-1", "m04-junk-1", "m04-junk-2", "m12-double-junk"],
                ],
                stacks={6: 1},
                player_state=(PlayerState(shaken_months=(9,)), PlayerState(ppeoks=1)),
                turn=8,
                nagari_streak=1,
            ),
            _play(0, "m06-ribbon"),
            SCORE,
            _play(1, "m10-animal"),
            LEGAL,
            BYE,
        ),
    ),
    Session(
        "04-rejections",
        "Rejected actions",
        "matgo-2p: an action by the wrong seat (not_your_turn), a card the player does not hold (card_not_in_hand), a "
        "play that must name its table card (take_required). Each is an error reply and changes nothing: `legal` "
        "still lists the same actions, and the play with `take` goes through.",
        ("code:not_your_turn", "code:card_not_in_hand", "code:take_required"),
        (
            HELLO,
            _new_game(
                "matgo-2p",
                [["m05-junk-2", "m07-junk-1"], ["m08-junk-1", "m09-junk-1"]],
                ["m05-ribbon", "m05-junk-1", "m10-animal"],
                ["m11-junk-1"],
            ),
            LEGAL,
            _play(1, "m08-junk-1"),
            _play(0, "m08-junk-1"),
            _play(0, "m05-junk-2"),
            LEGAL,
            _play(0, "m05-junk-2", take="m05-ribbon"),
            BYE,
        ),
    ),
    Session(
        "05-errors-outside-act",
        "Errors outside act",
        "Requests refused whatever the rules: `legal` before any game (no_game), a ruleset the engine does not play "
        "(unsupported), a deal that deals a card twice (bad_deal), a command that does not exist (bad_request).",
        ("code:no_game", "code:unsupported", "code:bad_deal", "code:bad_request"),
        (
            HELLO,
            LEGAL,
            {**_new_game("matgo-2p", [["m01-junk-1"], ["m02-junk-1"]], [], []), "ruleset": {"id": "no-such-ruleset", "options": {}}},
            _new_game("matgo-2p", [["m01-junk-1"], ["m01-junk-1"]], [], []),
            {"cmd": "deal_again"},
            BYE,
        ),
    ),
)


def record(session: Session) -> list[tuple[Json, Json]]:
    """Each request (with its seq) and the reference engine's reply."""
    engine = JsonEngine()
    out = []
    for seq, request in enumerate(session.requests):
        message = {"seq": seq, **request}
        reply, _ = handle(engine, message)
        out.append((message, reply))
    return out


def wire(obj: Json) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def jsonl(pairs: list[tuple[Json, Json]]) -> str:
    return "".join(f"{wire(request)}\n{wire(reply)}\n" for request, reply in pairs)


def missing(session: Session, pairs: list[tuple[Json, Json]]) -> list[str]:
    """What the session promises (`shows`) and the recording lacks."""
    seen: set[str] = set()
    for request, reply in pairs:
        seen.update(f"event:{e['kind']}" for e in reply.get("events", []))
        if "error" in reply:
            seen.add(f"code:{reply['error']['code']}")
        for line in (reply.get("settlement") or {}).get("losers", []):
            seen.update(f"bak:{b}" for b in line["baks"])
        if request["cmd"] == "new_game" and "error" not in reply:
            seen.update(f"deal:{key}" for key in request["deal"])
    return [s for s in session.shows if s not in seen]


def files() -> dict[str, str]:
    """Path under docs/ -> content, for every recording."""
    return {session.path: jsonl(record(session)) for session in SESSIONS}
