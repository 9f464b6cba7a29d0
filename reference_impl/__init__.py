"""The Go-Stop reference engine: a pure-Python, deterministic implementation of every named ruleset.

Public API (everything else is private):

- `load_ruleset(id)`, `ruleset_ids()`, `Ruleset`, `Options`: named rulesets from spec/rulesets/.
- `Deal`, `seeded_deal(options, rng, dealer)`, `SplitMix64`: explicit and seeded deals (R-SHUFFLE).
- `Round`: one round as a state machine (`legal_actions()`, `apply(action)`, `snapshot()`, `score(seat)`).
- `Action`, `Event`, `Rejection`: the shared vocabulary of spec/vocabulary.yaml.
- `Match`, `RandomPlayer`: multi-round matches and a seeded random player.
- `InputError`: every user error (file, line or field, and what was expected).
"""

from reference_impl._cards import Card, deck
from reference_impl._deal import Deal, PlayerState, SplitMix64, complete_deal, seeded_deal
from reference_impl._events import Action, Event, Rejection
from reference_impl._match import Match, RandomPlayer
from reference_impl._round import Round
from reference_impl._rulesets import Options, Ruleset, load_ruleset, option_registry, ruleset_ids
from reference_impl._scoring import Breakdown
from reference_impl._settlement import Settlement
from reference_impl._yamlio import InputError

__all__ = [
    "Action",
    "Breakdown",
    "Card",
    "Deal",
    "Event",
    "InputError",
    "Match",
    "Options",
    "PlayerState",
    "RandomPlayer",
    "Rejection",
    "Round",
    "Ruleset",
    "Settlement",
    "SplitMix64",
    "complete_deal",
    "deck",
    "load_ruleset",
    "option_registry",
    "ruleset_ids",
    "seeded_deal",
]
