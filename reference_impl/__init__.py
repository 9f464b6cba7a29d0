"""The Go-Stop reference engine: a pure-Python, deterministic implementation of every named ruleset
of the spec (`gostop_conformance.spec`: deck, options, rulesets, clauses; the engine reads them there).

Public API (everything else is private):

- `Round`: one round as a state machine (`legal_actions()`, `apply(action)`, `snapshot()`, `score(seat)`);
  `seeded_round(ruleset, rng, dealer)`: a round of a seeded deal, dealt without the card ids.
- `Deal`, `PlayerState`, `seeded_deal(options, rng, dealer)`, `complete_deal(...)`, `SplitMix64`:
  explicit and seeded deals (R-SHUFFLE); `deal_from_json`, `complete_deal_json`,
  `normalized_deal_json`, `deck_indices`: deals as the protocol and the scenarios write them.
- `Action`, `Event`, `Rejection`: the shared vocabulary of spec/vocabulary.yaml.
- `Breakdown`, `best_base(...)`, `best_breakdown(...)`, `Settlement`: scores and payments.
- `Match`, `RandomPlayer`: multi-round matches and a seeded random player.
- `JsonEngine`, `handle_request`, `serve()`, `PROTOCOL_VERSION`, `engine_version()`,
  `engine_build()`: the engine behind the stdio protocol (spec/protocol/).
- `perft`, `perft_divide`, `PERFT_EVENT_STATS`, `perft_statistic_names`: move-path enumeration
  (spec/perft.yaml).
- `can_trace()`, `traced_options(options, reads)`: which options a round reads (option dependencies).

The names are imported on first use (PEP 562): `gostop-reference --stdio` loads only what serving
needs, and importing the package loads nothing.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from gostop_conformance.reference._build import engine_build, engine_version
    from gostop_conformance.reference._deal import (
        Deal,
        PlayerState,
        complete_deal,
        complete_deal_json,
        deal_from_json,
        deck_indices,
        normalized_deal_json,
        seeded_deal,
    )
    from gostop_conformance.reference._events import Action, Event, Rejection
    from gostop_conformance.reference._jsonapi import PROTOCOL_VERSION, JsonEngine
    from gostop_conformance.reference._match import Match, RandomPlayer
    from gostop_conformance.reference._perft import (
        EVENT_STATS as PERFT_EVENT_STATS,
    )
    from gostop_conformance.reference._perft import (
        divide as perft_divide,
    )
    from gostop_conformance.reference._perft import (
        perft,
    )
    from gostop_conformance.reference._perft import (
        statistic_names as perft_statistic_names,
    )
    from gostop_conformance.reference._rng import SplitMix64
    from gostop_conformance.reference._round import Round, seeded_round
    from gostop_conformance.reference._scoring import Breakdown, best_base, best_breakdown
    from gostop_conformance.reference._server import handle as handle_request
    from gostop_conformance.reference._server import serve
    from gostop_conformance.reference._settlement import Settlement
    from gostop_conformance.reference._tracing import can_trace, traced_options

_HOME: Final[dict[str, tuple[str, str]]] = {
    "Action": ("_events", "Action"),
    "Breakdown": ("_scoring", "Breakdown"),
    "Deal": ("_deal", "Deal"),
    "Event": ("_events", "Event"),
    "JsonEngine": ("_jsonapi", "JsonEngine"),
    "Match": ("_match", "Match"),
    "PERFT_EVENT_STATS": ("_perft", "EVENT_STATS"),
    "PROTOCOL_VERSION": ("_jsonapi", "PROTOCOL_VERSION"),
    "PlayerState": ("_deal", "PlayerState"),
    "RandomPlayer": ("_match", "RandomPlayer"),
    "Rejection": ("_events", "Rejection"),
    "Round": ("_round", "Round"),
    "Settlement": ("_settlement", "Settlement"),
    "SplitMix64": ("_rng", "SplitMix64"),
    "best_base": ("_scoring", "best_base"),
    "best_breakdown": ("_scoring", "best_breakdown"),
    "can_trace": ("_tracing", "can_trace"),
    "complete_deal": ("_deal", "complete_deal"),
    "complete_deal_json": ("_deal", "complete_deal_json"),
    "deal_from_json": ("_deal", "deal_from_json"),
    "deck_indices": ("_deal", "deck_indices"),
    "engine_build": ("_build", "engine_build"),
    "engine_version": ("_build", "engine_version"),
    "handle_request": ("_server", "handle"),
    "normalized_deal_json": ("_deal", "normalized_deal_json"),
    "perft": ("_perft", "perft"),
    "perft_divide": ("_perft", "divide"),
    "perft_statistic_names": ("_perft", "statistic_names"),
    "seeded_deal": ("_deal", "seeded_deal"),
    "seeded_round": ("_round", "seeded_round"),
    "serve": ("_server", "serve"),
    "traced_options": ("_tracing", "traced_options"),
}

__all__ = [
    "PERFT_EVENT_STATS",
    "PROTOCOL_VERSION",
    "Action",
    "Breakdown",
    "Deal",
    "Event",
    "JsonEngine",
    "Match",
    "PlayerState",
    "RandomPlayer",
    "Rejection",
    "Round",
    "Settlement",
    "SplitMix64",
    "best_base",
    "best_breakdown",
    "can_trace",
    "complete_deal",
    "complete_deal_json",
    "deal_from_json",
    "deck_indices",
    "engine_build",
    "engine_version",
    "handle_request",
    "normalized_deal_json",
    "perft",
    "perft_divide",
    "perft_statistic_names",
    "seeded_deal",
    "seeded_round",
    "serve",
    "traced_options",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home[0]}"), home[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
