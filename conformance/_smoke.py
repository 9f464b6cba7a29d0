"""`gostop-conformance smoke`: a handful of checks of an engine adapter, with messages written
for someone building one (handshake, card ids, one capture, one rejection)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from gostop_conformance.harness._declaration import Declaration, DeclarationError, parse
from gostop_conformance.harness._engine import Engine, EngineError
from gostop_conformance.reference import complete_deal
from gostop_conformance.spec import InputError, load_ruleset

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    message: str


#: the smoke round: seat 0 plays m06-junk-1 onto m06-ribbon, flips m05-junk-1 (no May on the table)
_HANDS: Final = [["m06-junk-1", "m01-junk-1"], ["m02-junk-1", "m03-junk-1"], ["m07-junk-1", "m08-junk-1"]]
_TABLE: Final = ["m06-ribbon", "m04-junk-1"]
_STOCK: Final = ["m05-junk-1"]


def setup(declaration: Declaration) -> tuple[Json, Json] | None:
    """A ruleset the engine declares and a deal for it where seat 0 acts first: the ruleset and the
    options it plays (its first declared value where the ruleset's is not declared), or None."""
    for cfg in declaration.configurations:
        base = cfg.base or ("matgo-2p" if _admits(cfg.of("players"), 2) else "standard-3p")
        named = load_ruleset(base)
        values = named.options.as_json()
        for name, support in cfg.support.items():
            if isinstance(support, tuple) and values[name] not in support:
                values[name] = support[0]
        try:
            options = named.with_overrides({k: v for k, v in values.items() if named.options.as_json()[k] != v}, "options").options
        except InputError:
            continue
        if options.players not in (2, 3) or options.scoring_system != "gostop":
            continue
        n = options.players
        dealer = 0 if options.first_player == "dealer" else n - 1  # seat 0 plays first either way
        deal = complete_deal(options, _HANDS[:n], _TABLE, _STOCK, dealer=dealer).to_json()
        return {"id": base, "options": options.as_json()}, deal
    return None


def _admits(support: Any, value: Any) -> bool:
    return support == "all" or (isinstance(support, tuple) and value in support)


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
    chosen: list[tuple[Json, Json]] = []

    def handshake() -> str | None:
        hello.update(engine.hello())
        if hello.get("protocol") != "1":
            return f'the hello reply says protocol {hello.get("protocol")!r}; this suite speaks protocol "1"'
        try:
            found = setup(parse(hello))
        except DeclarationError as exc:
            return f"the declaration is not valid: {exc}"
        if found is None:
            return "the hello reply declares no Go-Stop ruleset of two or three players (a ruleset id, or options with players: [2] or [3])"
        chosen.append(found)
        return None

    if not check(
        "handshake",
        handshake,
        "read one JSON object per line on stdin and answer each with one line on stdout, echoing "
        '`seq`; answer `hello` with {seq, protocol: "1", engine: {name, version}, rulesets: [...]}; flush after each line',
    ):
        return checks
    ruleset, deal = chosen[0]
    state: Json = {}

    def card_ids() -> str | None:
        reply = engine.new_game(ruleset, deal)
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
        reply = engine.act({"type": "play", "player": before.get("player", 1), "card": "m01-junk-1"})
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
