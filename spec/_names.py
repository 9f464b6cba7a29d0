"""The closed sets of names of spec/vocabulary.yaml as types: a decision, an action, an event, a
round's outcome, a bak, a rejection code and an error code. Written out because a type checker
cannot read YAML; tests/spec/test_names.py fails when one differs from the vocabulary, so a
misspelt name in the engine or the harness is a type error (mypy's strict equality), not a
scenario that silently never matches.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

#: vocabulary.yaml `decisions` (R-TURN, R-TWO-MATCH-CHOICE, R-GO-WHEN, R-ROUND-END)
Decision: TypeAlias = Literal["turn", "choose_hand_match", "choose_flip_match", "go_stop", "none"]

#: vocabulary.yaml `actions`
ActionType: TypeAlias = Literal["play", "bomb", "skip", "shake", "bonus", "dual_to_junk", "take", "go", "stop", "chongtong"]

#: vocabulary.yaml `events`
EventKind: TypeAlias = Literal[
    "deal",
    "table_bonus",
    "table_four",
    "table_triple",
    "chongtong",
    "redeal",
    "shake",
    "bonus",
    "play",
    "bomb",
    "skip",
    "flip",
    "capture",
    "ppeok",
    "stack_capture",
    "jjok",
    "ttadak",
    "sweep",
    "steal_exempt",
    "steal",
    "three_ppeok",
    "award",
    "dual_to_junk",
    "go_stop_offered",
    "go",
    "stop",
    "leftover",
    "round_end",
]

#: vocabulary.yaml `settlements`: how a round ended (R-ROUND-END)
Outcome: TypeAlias = Literal[
    "stop", "last_go_caller_wins", "chongtong", "three_ppeok", "dealer_wins_fixed", "nagari", "redeal", "point_count"
]

#: vocabulary.yaml `baks` (R-GWANG-BAK, R-PI-BAK, R-RIBBON-BAK, R-MEONG, R-GO-BAK)
Bak: TypeAlias = Literal["gwang_bak", "pi_bak", "ribbon_bak", "meong_bak", "go_bak"]

#: vocabulary.yaml `rejections`: why an action was refused
RejectionCode: TypeAlias = Literal[
    "malformed_action",
    "round_over",
    "not_your_turn",
    "wrong_decision",
    "card_not_in_hand",
    "unknown_card",
    "wrong_month",
    "take_required",
    "must_match",
    "shake_not_allowed",
    "bomb_not_allowed",
    "no_skip_credit",
    "bonus_not_allowed",
    "must_play_bonus",
    "go_not_allowed",
    "dual_not_allowed",
    "must_play_replacement",
    "chongtong_not_allowed",
]

#: vocabulary.yaml `errors`: why a protocol request failed
ErrorCode: TypeAlias = Literal["bad_request", "no_game", "unsupported", "bad_deal", "internal"]
