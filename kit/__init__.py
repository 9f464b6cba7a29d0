"""The adapter kit for Python: the protocol done (spec/protocol), so that an adapter is the engine's
mapping and little else. Versioned with the protocol, shipped in the wheel; the JavaScript kit
(kit-js/) offers the same pieces under the same names.

Public API (everything else is private):

- `serve(engine)`: the stdio loop (seq, requests sent ahead answered in one write, every request and
  reply checked against the schema, a located `bad_request`, an engine's exception an `internal`
  reply; `GOSTOP_KIT_DEBUG=1` logs each message on stderr). `Engine`: the six methods an adapter
  writes (`hello`, `new_game`, `state`, `legal`, `act`, `score`); `Legal`, `Scores`: what two of
  them return; `Session`: one engine served, request by request (for tests).
- `hello(...)`, `ruleset(id, **exceptions)`, `ALL`, `UNSUPPORTED`: the declaration
  (docs/declarations.md), checked against spec/options.yaml as it is built, with reasons.
- `Ruleset`, `Deal`, `Stack`: new_game's ruleset and deal, parsed and checked (`bad_deal`).
- `state(...)`, `player(...)`, `stack(...)`, `score(...)`, `settlement(...)`, `event(kind, ...)`:
  replies built and checked against the schema (KitError names the JSON path of a mistake).
- `check_action(...)`: an action checked apart from applying it, against the engine's own legal
  actions; the rejection code its mistake earns (R-TURN).
- `derive_events(...)`, `derive_deal_events(...)`, `EventDeriver`: the events of a reply from the
  states before and after it, for an engine that keeps no event log (the deriver keeps the round's
  earlier acts, which a few events need).
- `card(id)`, `is_card`, `month`, `units`, `kind`, `is_bonus`, `deck_ids(bonus_cards)`, `equivalent(a, b)`,
  `of_month`, `sort_ids`: the card table of spec/deck.yaml (R-CARD-IDS, R-BONUS-DECK).
- `Rejected`, `Unsupported`, `BadDeal`, `ProtocolError`, `KitError`: the errors an adapter raises.
- `ACTION_FIELDS`, `EVENT_FIELDS`, `PROTOCOL`: the vocabulary's fields per action type and event kind,
  read from spec/vocabulary.yaml, and the protocol version.
"""

from __future__ import annotations

from gostop_conformance.kit._cards import card, deck_ids, equivalent, is_bonus, is_card, kind, month, of_month, sort_ids, units
from gostop_conformance.kit._check import check_action
from gostop_conformance.kit._deal import Deal, Ruleset, Stack
from gostop_conformance.kit._derive import EventDeriver, derive_deal_events, derive_events
from gostop_conformance.kit._errors import BadDeal, KitError, ProtocolError, Rejected, Unsupported
from gostop_conformance.kit._hello import ALL, UNSUPPORTED, hello, ruleset
from gostop_conformance.kit._replies import ACTION_FIELDS, EVENT_FIELDS, event, player, score, settlement, stack, state
from gostop_conformance.kit._server import PROTOCOL, Engine, Legal, Scores, Session, serve

__all__ = [
    "ACTION_FIELDS",
    "ALL",
    "EVENT_FIELDS",
    "PROTOCOL",
    "UNSUPPORTED",
    "BadDeal",
    "Deal",
    "Engine",
    "EventDeriver",
    "KitError",
    "Legal",
    "ProtocolError",
    "Rejected",
    "Ruleset",
    "Scores",
    "Session",
    "Stack",
    "Unsupported",
    "card",
    "check_action",
    "deck_ids",
    "derive_deal_events",
    "derive_events",
    "equivalent",
    "event",
    "hello",
    "is_bonus",
    "is_card",
    "kind",
    "month",
    "of_month",
    "player",
    "ruleset",
    "score",
    "serve",
    "settlement",
    "sort_ids",
    "stack",
    "state",
    "units",
]
