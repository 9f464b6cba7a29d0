"""`gostop-conformance smoke`: a handful of checks of an engine adapter, with messages written
for someone building one (handshake, card ids, one capture, one rejection)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance._engine import Engine, EngineError
from reference_impl import complete_deal, load_ruleset

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    message: str


def _ruleset() -> Json:
    rs = load_ruleset("matgo-2p")
    return {"id": rs.id, "options": rs.options.as_json()}


def _deal() -> Json:
    o = load_ruleset("matgo-2p").options
    return complete_deal(
        o, [["m06-junk-1", "m01-junk-1"], ["m02-junk-1", "m03-junk-1"]], ["m06-ribbon", "m04-junk-1"], ["m05-junk-1"]
    ).to_json()


def run_smoke(engine: Engine) -> list[Check]:
    checks: list[Check] = []

    def check(name: str, fn: Callable[[], str | None], hint: str) -> bool:
        try:
            problem = fn()
        except EngineError as exc:
            problem = f"{exc.kind}: {exc.message}"
        checks.append(Check(name, problem is None, "ok" if problem is None else f"{problem}\n      hint: {hint}"))
        return problem is None

    hello: Json = {}

    def handshake() -> str | None:
        hello.update(engine.hello())
        if hello.get("protocol") != "1":
            return f'the hello reply says protocol {hello.get("protocol")!r}; this suite speaks protocol "1"'
        if "matgo-2p" not in hello.get("rulesets", []) and not hello.get("options"):
            return "the hello reply declares neither the ruleset matgo-2p nor any option values"
        return None

    if not check(
        "handshake",
        handshake,
        "read one JSON object per line on stdin and answer each with one line on stdout, echoing "
        '`seq`; answer `hello` with {seq, protocol: "1", engine: {name, version}, rulesets: [...]}; flush after each line',
    ):
        return checks
    deal = _deal()
    state: Json = {}

    def card_ids() -> str | None:
        reply = engine.new_game(_ruleset(), deal)
        if "error" in reply:
            return f"new_game was refused: {reply['error']}"
        state.update(reply.get("state", {}))
        for seat, hand in enumerate(deal["hands"]):
            got = state.get("hands", [])[seat] if seat < len(state.get("hands", [])) else None
            if got is None or Counter(got) != Counter(hand):
                return f"hands[{seat}] should be {sorted(hand)}, the engine reports {got}"
        if Counter(state.get("table", [])) != Counter(deal["table"]):
            return f"the table should be {sorted(deal['table'])}, the engine reports {state.get('table')}"
        if list(state.get("stock", [])) != list(deal["stock"]):
            return "the stock should be the dealt stock in the same order (top first)"
        return None

    if not check(
        "card ids",
        card_ids,
        "use the card ids of spec/deck.yaml (m01-bright ... m12-double-junk, bonus-2a ...), "
        "keep the deal exactly as sent: hands, table, and the stock top first",
    ):
        return checks

    def capture() -> str | None:
        reply = engine.act({"type": "play", "player": 0, "card": "m06-junk-1"})
        if "error" in reply:
            return f"a legal play was rejected: {reply['error']}"
        got = reply.get("state", {}).get("captured", [[]])[0]
        if Counter(got) != Counter(["m06-junk-1", "m06-ribbon"]):
            return (
                f"playing m06-junk-1 onto m06-ribbon (flip m05-junk-1, no May on the table) should capture the pair; captured[0] is {got}"
            )
        return None

    check(
        "one capture",
        capture,
        "resolve the hand card against the table, then flip the top stock card (R-MATCH); the reply to act carries {events, state}",
    )

    def rejection() -> str | None:
        before = engine.legal()
        reply = engine.act({"type": "play", "player": 1, "card": "m01-junk-1"})
        err = reply.get("error")
        if not isinstance(err, dict):
            return "playing a card that is not in the player's hand was accepted"
        if err.get("code") != "card_not_in_hand":
            return f"the rejection code is {err.get('code')!r}, expected 'card_not_in_hand' (spec/vocabulary.yaml)"
        if engine.legal() != before:
            return "the legal actions changed after a rejected action"
        return None

    check(
        "one rejection",
        rejection,
        "answer an illegal action with {seq, error: {code, message}} using the codes of "
        "spec/vocabulary.yaml, and leave the state unchanged",
    )
    return checks
