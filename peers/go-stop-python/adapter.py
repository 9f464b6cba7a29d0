#!/usr/bin/env python3
"""gostop-conformance adapter (protocol 1) for go-stop-python, the Matgo engine of the KAIST
CS470 2020 fall team 36 project (https://github.com/cs470-2020f-team36/go-stop-python).

The engine is not part of this repository: the adapter imports it from a checkout whose path is
the environment variable GO_STOP_PYTHON (or the first command-line argument), and drives its own
API (go_stop.models.game.Game: actions(), play(action), its board, state, flags and logger).
It only translates: card ids, actions, the engine's log into protocol events, its state and
scores into the protocol's state, scores and settlement. Where the engine cannot do what the
protocol asks, the reply is the documented error (`unsupported`, or a rejection code); no rule is
decided here. The engine's own checks decide what is legal; the rejection code only names why.

    GO_STOP_PYTHON=/path/to/go-stop-python python3 peers/go-stop-python/adapter.py

Log to stderr only; stdout carries exactly one JSON reply per request line.
"""

from __future__ import annotations

import copy
import importlib
import json
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

Json = dict[str, Any]
PROTOCOL = "1"

# ---------------------------------------------------------------------------------------------
# What the engine plays: matgo-2p, except the options below. Each exception names the engine
# file and function that shows its value (paths are relative to the checkout's go_stop/).
# ---------------------------------------------------------------------------------------------
EXCEPTIONS: Json = {
    # constants/card.py (go_stop_cards, bonus_cards = {BonusCard(2), BonusCard(3)}): the engine's
    # own deck has one double and one triple bonus card (50 cards). Its rules never assume the
    # deck's composition (models/board.py and models/game.py handle each card as it comes), so
    # an explicit deal of the 48 month cards, or with only one of its two bonus cards, is played
    # by the same code. Two double bonus cards cannot be represented (the engine has one "+2").
    "bonus_cards": [[], [2], [3], [2, 3]],
    # models/setting.py (junk_card_from_bonus_card = 1): one junk from the opponent per bonus card,
    # but not as R-BONUS-STEAL plays bonus_steal = 1: a bonus card thrown from the hand takes its
    # junk at once (_play_action_of_kind_throw_throwbomb_bomb_selectmatch calls
    # _take_junk_from_opponent before the turn's hand action), and the steal of a flipped bonus
    # card buried in a ppeok stack is taken back (_check_after_flip, "stacking":
    # junk_count -= junk_card_from_bonus_card * len(bonus_captures)). No value describes that.
    "bonus_steal": "unsupported",
    # models/game.py Game.actions(): a month with three or more cards in hand and none on the
    # table is offered only as ActionShakable(card), answered by ActionShaking(True/False) and
    # then thrown (Game.play, kinds "shakable" and "shaking"): the shake is declared together
    # with playing one of the cards, and only when no card of the month is on the table.
    "shake_declaration": ["with_triple_card_play"],
    "shake_requires_month_absent": [True],
    # models/game.py Game.actions() (bomb_months: four cards of the month in hand and table
    # together, at least two of them in hand) and the "bomb" branch of
    # _play_action_of_kind_throw_throwbomb_bomb_selectmatch: two cards onto the two on the table
    # is a bomb like any other (junk_card_from_bomb steal, a shaking_histories entry, hence x2,
    # and len(cards) - 1 = one bomb card, i.e. one skip credit).
    "two_card_bomb": ["full_bomb"],
    # models/game.py calculate_scores ("shaking": 2 ** len(shaking_histories)): a shake and a bomb
    # are each an entry of shaking_histories, so bombing a month already shaken doubles twice.
    "shake_then_bomb_stacks": [True],
    # models/game.py calculate_scores ("junk penalty": `1 <= opponent_junk_count <= 7`): a loser
    # with no junk at all is never pi-bak.
    "pi_bak_zero_exempt": [True],
    # models/game.py _check_after_flip: the jjok steal ("discard and match") and the sweep steal
    # ("clear") are granted only `if board.hands[state.player] != []`, i.e. not on the actor's own
    # last hand card (bomb cards, the engine's skip credits, are hand cards); the ttadak and the
    # stack-capture (_throw_card, "triple matches") steals are always granted.
    "final_turn_scope": ["each_player_last_hand_card"],
    "final_turn_exempt": [["jjok", "sweep"]],
    # models/game.py _check_after_flip ("stacking except the last turn"): with the actor's hand
    # empty the pair (and flipped bonus cards) is captured and the flipped card stays on the
    # table. Caveat: the engine does this on each player's own last hand card, not only on the
    # round's last turn, which no value of final_turn_ppeok describes (R-FINAL-PPEOK).
    "final_turn_ppeok": ["capture_pair_leave_drawn"],
    # models/game.py _check_after_flip (three stackings: len(stacking_histories) >= 3 ends the
    # game with ScoreFactor("three stackings")) and models/score_factor.py ScoreFactor.score with
    # models/setting.py score_of_three_stackings = 10: the third ppeok wins 10 points at once.
    # (The engine also adds the month of a ttadak to stacking_histories; see README.md.)
    "three_ppeok_win": [10],
    # models/setting.py score_of_four_of_a_month = 10 (models/score_factor.py, "four of a month"):
    # a four of a month in a dealt hand that is declared wins 10 points, multiplied by nothing
    # (the engine has no nagari carry at all).
    "chongtong_points": [10],
    "chongtong_multipliers": ["none"],
    # models/game.py Game.__init__ and Game.play (kind "four of a month"): the holder of a dealt
    # four is asked once, before the first turn (even when the holder is not the first player),
    # whether to end the game; declining is final. That is none of the values of hand_chongtong
    # (instant_win_or_continue lets the holder declare at any later own turn start).
    "hand_chongtong": "unsupported",
    # models/game.py calculate_scores (no exemption: a loser with no captured card pays like any
    # other, gwang-bak included).
    "empty_capture_exempt": [False],
    # models/game.py _take_junk_from_opponent: the opponent's moved September animal
    # (state.animal_9_moved) is in the `doubles` it may surrender.
    "steal_cup_eligible": [True],
    # models/game.py _play_action_of_kind_throw_throwbomb_bomb_selectmatch (flags.move_animal_9,
    # asked once, right after the capture, only when moving the cup would reach 7 points) and
    # _stop (an undecided cup of the loser is moved when that lowers the winner's score): one
    # global choice per round, none of the values of dual_role_mode.
    "dual_role_mode": "unsupported",
    # The engine plays single rounds: no nagari carry, no match, no next dealer (models/game.py
    # has no such state). A deal with a nagari streak is refused with `unsupported`.
    "nagari_carry_growth": "unsupported",
    "nagari_carry_cap": "unsupported",
    "nagari_carry_prior_multipliers": "unsupported",
    "match_rounds": "unsupported",
    "match_target_points": "unsupported",
    "nagari_counts_as_round": "unsupported",
}

HELLO: Json = {
    "protocol": PROTOCOL,
    "engine": {
        "name": "go-stop-python",
        "version": "unknown",  # the checkout's commit, set in main()
        "language": "python",
        "homepage": "https://github.com/cs470-2020f-team36/go-stop-python",
    },
    "rulesets": [{"id": "matgo-2p", "options": EXCEPTIONS}],
    "features": [],
    # the engine fails on a flip from an empty stock, a position no real deal reaches (R-ROUND-END)
    "positions": "reachable",
}

ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("card", "take", "shake"),
    "bomb": ("month",),
    "skip": (),
    "shake": ("month",),
    "bonus": ("card",),
    "dual_to_junk": ("card",),
    "take": ("card",),
    "go": (),
    "stop": (),
    "chongtong": ("month",),
}
NEEDS = {"play": "card", "bonus": "card", "dual_to_junk": "card", "take": "card", "bomb": "month", "shake": "month", "chongtong": "month"}


class Rejected(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Unsupported(Exception):
    """The engine cannot do what was asked: replied as the error `unsupported` (or `bad_deal`)."""

    def __init__(self, message: str, code: str = "unsupported") -> None:
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------------------------------------
# The engine, imported from its checkout
# ---------------------------------------------------------------------------------------------


def _count_steal_requests(game_class: Any) -> None:
    """Instrumentation, not a rule: the engine logs a steal only per card taken ("take junk from
    opponent"), so what it asked for (`junk_count` of Game._take_junk_from_opponent) is recorded on
    the game, beside the position in its log, for the steal event's `requested`."""
    original = game_class._take_junk_from_opponent
    if getattr(original, "counted", False):
        return

    def counted(self: Any, junk_count: int) -> None:
        self.__dict__.setdefault("steal_requests", []).append((len(self.logger.logs), junk_count))
        original(self, junk_count)

    counted.counted = True  # type: ignore[attr-defined]
    game_class._take_junk_from_opponent = counted


class Engine:
    """The engine's modules, imported from the checkout at `path`."""

    def __init__(self, path: str) -> None:
        if not os.path.isdir(os.path.join(path, "go_stop")):
            raise SystemExit(f"go-stop-python adapter: {path!r} is not a checkout of go-stop-python (no go_stop/ in it)")
        sys.path.insert(0, os.path.abspath(path))
        self.game: Any = importlib.import_module("go_stop.models.game")
        self.board: Any = importlib.import_module("go_stop.models.board")
        self.action: Any = importlib.import_module("go_stop.models.action")
        self.card: Any = importlib.import_module("go_stop.models.card")
        self.card_list: Any = importlib.import_module("go_stop.models.card_list")
        self.state: Any = importlib.import_module("go_stop.models.state")
        self.flags: Any = importlib.import_module("go_stop.models.flags")
        self.logger: Any = importlib.import_module("go_stop.models.logger")
        self.setting: Any = importlib.import_module("go_stop.models.setting")
        self.score_factor: Any = importlib.import_module("go_stop.models.score_factor")
        self.scorer: Any = importlib.import_module("go_stop.models.scorer")
        self.cards = list(importlib.import_module("go_stop.constants.card").go_stop_cards)
        self.by_id: dict[str, Any] = {card_id(c): c for c in self.cards}
        _count_steal_requests(self.game.Game)

    def cl(self, cards: list[Any]) -> Any:
        return self.card_list.CardList(cards)


def card_id(card: Any) -> str:
    """The suite's id of an engine card (spec/deck.yaml): B01 -> m01-bright, J030 -> m03-junk-1,
    J031 -> m03-junk-2, J112 -> m11-double-junk, J120 -> m12-double-junk, +2 -> bonus-2a, +3 -> bonus-3."""
    kind = card.kind
    if kind == "bonus":
        return "bonus-2a" if card.multiple == 2 else "bonus-3"
    month = f"m{card.month:02d}"
    if kind in ("bright", "animal", "ribbon"):
        return f"{month}-{kind}"
    if kind == "junk":
        return f"{month}-double-junk" if card.multiple == 2 else f"{month}-junk-{card.index + 1}"
    raise ValueError(f"no card id for the engine card {card.serialize()}")


def ids(cards: Any) -> list[str]:
    return [card_id(c) for c in cards if c.kind != "bomb"]


def month_cards(cards: Any, month: int) -> list[Any]:
    return [c for c in cards if c.month == month]


# ---------------------------------------------------------------------------------------------
# One round
# ---------------------------------------------------------------------------------------------


class Round:
    """One round of the engine plus what the protocol shows of it and the engine does not keep:
    the deal's dealer, which months were bombed (the engine books bombs as shakes)."""

    def __init__(self, eng: Engine, ruleset: Json, deal: Json) -> None:
        self.eng = eng
        options = ruleset.get("options", {})
        if options.get("players", 2) != 2 or len(deal.get("hands", [])) != 2:
            raise Unsupported("the engine plays two players only")
        if options.get("scoring_system", "gostop") != "gostop":
            raise Unsupported("the engine plays Go-Stop scoring only")
        if "seed" in deal:
            raise Unsupported("the engine does not deal from the suite's seed (R-SHUFFLE); send an explicit deal")
        if deal.get("nagari_streak", 0) or deal.get("carried_multiplier", 1) != 1:
            raise Unsupported("the engine plays single rounds: it has no nagari carry")
        self.dealer: int = int(deal.get("dealer", 0))
        first = int(deal.get("first_player", self.dealer))
        self.bombs: list[list[int]] = [[], []]
        self.shaken: list[list[int]] = [[], []]
        self.outcome: str | None = None  # "redeal" when the engine would deal again
        seen: set[str] = set()

        def cards(raw: list[str], where: str) -> Any:
            out = []
            for cid in raw:
                card = eng.by_id.get(cid)
                if card is None:
                    raise Unsupported(f"{where}: the engine has no card {cid!r} (its deck: the 48 cards, bonus-2a and bonus-3)")
                if cid in seen:
                    raise Unsupported(f"{where}: {cid} is dealt twice", "bad_deal")
                seen.add(cid)
                out.append(copy.copy(card))
            return eng.cl(out)

        hands = [cards(h, f"hands[{i}]") for i, h in enumerate(deal["hands"])]
        table = cards(deal.get("table", []), "table")
        stock = cards(deal.get("stock", []), "stock")
        captured_raw = deal.get("captured")
        captured = [cards(p, f"captured[{i}]") for i, p in enumerate(captured_raw)] if captured_raw else [eng.cl([]), eng.cl([])]
        players = deal.get("players") or [{}, {}]
        fresh = captured_raw is None and not deal.get("turn", 0)
        credits = [int(p.get("skip_credits", 0)) for p in players]
        # The engine's "starting player" is the one whose empty hand ends the round when the turn
        # comes back to them (Game.play: "Check for the push back"); it moves first in each pair of
        # turns. With equal hands that is the player to act; when the player to act holds one card
        # more, it is the other (the player to act is then second in the pair).
        sizes = [len(hands[s]) + credits[s] for s in (0, 1)]
        starting = first if sizes[first] != sizes[1 - first] + 1 else 1 - first

        # models/board.py Board.__init__ without its shuffle: the explicit deal takes the place
        # of the shuffled pile, then the engine's own deal-time steps run in the same order.
        board = eng.board.Board.__new__(eng.board.Board)
        eng.setting.Setting.__init__(board)
        board.drawing_pile = stock
        board.hands = hands
        board.capture_fields = captured
        table_before, stock_before = [card_id(c) for c in table], [card_id(c) for c in stock]
        temp = board._move_cards_at_beginning(self.dealer, table)
        reset = board._is_reset_necessary(temp)
        temp.sort()
        board.center_field = {month: temp.of_month(month) for month in range(1, 13)}
        board.sort()
        consumed = stock_before[: len(stock_before) - len(board.drawing_pile)]
        moved = [c for c in table_before + consumed if c.startswith("bonus")]
        # Board._move_cards_at_beginning: each bonus card on the table goes to the dealer's
        # captured pile and the top stock card takes its place, in that order
        self.deal_events: list[Json] = [
            {"kind": "table_bonus", "player": self.dealer, "cards": [bonus, *consumed[i : i + 1]]} for i, bonus in enumerate(moved)
        ]

        if fresh:
            saved = eng.game.Board
            eng.game.Board = lambda starting_player=0: board
            try:
                game = eng.game.Game(starting)  # Game.__init__: the dealt four of a month
            finally:
                eng.game.Board = saved
            if not game.flags.four_of_a_month:
                game.state.player = first
        else:  # a mid-game position: Game.deserialize's way, with the state of the deal
            game = eng.game.Game.__new__(eng.game.Game)
            eng.setting.Setting.__init__(game)
            game.board = board
            game.state = eng.state.State(starting)
            game.state.player = first
            game.flags = eng.flags.Flags()
            game.logger = eng.logger.Logger()
        self.game = game
        self._player_state(players, deal.get("stacks") or [])
        self.deal_events.append({"kind": "deal", "dealer": self.dealer, "first_player": first})
        if reset:
            self.outcome = "redeal"
            for month in range(1, 13):
                if len(board.center_field[month]) == 4:
                    self.deal_events.append(
                        {
                            "kind": "table_four",
                            "player": self.dealer,
                            "month": month,
                            "cards": ids(board.center_field[month]),
                            "handling": "redeal",
                        }
                    )
            fours = board.four_of_a_month()
            if all(fours):
                for seat in (0, 1):
                    for month in sorted(fours[seat]):
                        self.deal_events.append(
                            {"kind": "chongtong", "player": seat, "month": month, "cards": ids(month_cards(board.hands[seat], month))}
                        )
            self.deal_events.append({"kind": "redeal", "player": self.dealer, "dealer": self.dealer})
            self.deal_events.append({"kind": "round_end", "outcome": "redeal", "net": [0, 0]})
            return
        for month in range(1, 13):
            on = [c for c in board.center_field[month] if c.kind != "bonus"]
            if len(on) == 3 and not any(month in h for h in game.state.stacking_histories):
                self.deal_events.append({"kind": "table_triple", "month": month, "cards": ids(on)})

    def _player_state(self, players: list[Json], stacks: list[Json]) -> None:
        """A mid-game deal's player state, in the engine's own representation (models/state.py)."""
        eng, state, board = self.eng, self.game.state, self.game.board
        for item in stacks:
            month, owner = item["month"], item.get("owner")
            if len([c for c in board.center_field[month] if c.kind != "bonus"]) != 3:
                raise Unsupported(f"stacks: month {month} does not hold three cards on the table", "bad_deal")
            if owner is not None:
                state.stacking_histories[owner].add(month)
        for seat, p in enumerate(players):
            extra = set(p) - {"gos", "go_base", "first_go_turn", "shaken_months", "bombs", "skip_credits", "ppeoks", "dual_junk"}
            if extra:
                raise Unsupported(f"players[{seat}]: the engine keeps no {sorted(extra)[0]}")
            gos = int(p.get("gos", 0))
            if gos:
                # state.go_histories: one entry per Go, each the score after that Go with the Go
                # factor applied (State docstring); only the last one is ever read.
                last = eng.score_factor.ScoreFactor("go", gos).score(int(p.get("go_base", 0)))
                state.go_histories[seat] = [0] * (gos - 1) + [last]
            for month in p.get("shaken_months", []):
                state.shaking_histories[seat].append(eng.cl(month_cards(eng.cards, month)[:3]))
                self.shaken[seat].append(month)
            for month in p.get("bombs", []):
                state.shaking_histories[seat].append(eng.cl(month_cards(eng.cards, month)[:3]))
                self.bombs[seat].append(month)
            for _ in range(int(p.get("skip_credits", 0))):
                board.hands[seat].append(eng.card.SpecialCard("bomb", state.bomb_increment))
                state.bomb_increment += 1
            ppeoks = int(p.get("ppeoks", 0))
            # stacking_histories is a set of months; a ppeok whose month is not known (its stack
            # was captured since) is kept as a number that is no month, so only the count matters
            k = 100
            while len(state.stacking_histories[seat]) < ppeoks:
                state.stacking_histories[seat].add(k)
                k += 1
            for cid in p.get("dual_junk", []):
                if cid != "m09-animal":
                    raise Unsupported(f"players[{seat}].dual_junk: only the September animal is a dual-role card in the engine")
                state.animal_9_moved = True
        if any(p.get("gos") or p.get("ppeoks") or p.get("dual_junk") for p in players):
            self.game.calculate_scores(without_multiples=True)

    # ------------------------------------------------------------------------- pending choices

    def view(self) -> Any:
        """The engine asks two questions the protocol has no decision for: whether the holder of
        a dealt four of a month ends the game (flags.four_of_a_month) and whether a captured
        September animal moves to junk (flags.move_animal_9). The protocol's answers are the
        actions `chongtong` and `dual_to_junk`; any other action declines. What is shown is the
        game as it stands once declined (answered with False on a copy); the accepting action is
        listed with it when it belongs to the player to act."""
        game = self.game
        if not (game.flags.four_of_a_month or game.flags.move_animal_9):
            return game
        shown = copy.deepcopy(game)
        A = self.eng.action
        while not shown.state.ended and (shown.flags.four_of_a_month or shown.flags.move_animal_9):
            if shown.flags.four_of_a_month:
                shown.play(A.ActionFourOfAMonth(False))
            else:
                shown.play(A.ActionMoveAnimal9(False))
        return shown

    def accepting(self, shown: Any) -> list[Json]:
        """The action that answers the engine's pending question with yes, if the player to act asks it."""
        game = self.game
        if shown.state.ended:
            return []
        seat = shown.state.player
        if game.flags.four_of_a_month and game.state.player == seat:
            months = sorted(game.board.four_of_a_month()[seat])
            return [{"type": "chongtong", "player": seat, "month": m} for m in months]
        if game.flags.move_animal_9 and game.state.player == seat:
            return [{"type": "dual_to_junk", "player": seat, "card": "m09-animal"}]
        return []

    # ------------------------------------------------------------------------- queries

    def decision(self, g: Any) -> str:
        if self.outcome or g.state.ended:
            return "none"
        if g.flags.go:
            return "go_stop"
        if g.flags.select_match:
            return "choose_flip_match" if g.state.select_match[2] is not None else "choose_hand_match"
        return "turn"

    def snapshot(self) -> Json:
        g = self.view()
        board, state = g.board, g.state
        stacks = []
        table: list[str] = []
        for month in range(1, 13):
            cards = [c for c in board.center_field[month] if c.kind != "bonus"]
            table += ids(cards)
            if len(cards) == 3:  # four of a month dealt to the table are no stack (R-TABLE-FOUR)
                owner = next((s for s in (0, 1) if month in state.stacking_histories[s]), None)
                stacks.append(
                    {
                        "month": month,
                        "owner": owner,
                        "cards": ids(cards),
                        "bonus": ids([c for c in board.center_field[month] if c.kind == "bonus"]),
                    }
                )
        in_play: list[str] = []
        if g.flags.select_match and state.select_match is not None:
            thrown, _, after = state.select_match
            if after is None:
                in_play = ids([thrown])
            else:
                # the protocol's paused turn (spec/protocol: state.in_play): the played card, the
                # flipped card and flipped bonus cards are in play; the table card the played card
                # pairs stays on the table until the turn resolves (a stack it took is in play whole)
                before, flipped, bonus, _ = after
                paired = [c for c in before if c is not thrown] if len(before) == 2 else []
                in_play = ids([*(c for c in before if c not in paired), flipped, *bonus])
                table += ids(paired)
        decision = self.decision(g)
        return {
            "decision": decision,
            "to_act": None if decision == "none" else state.player,
            "dealer": self.dealer,
            "hands": [ids(board.hands[s]) for s in (0, 1)],
            "table": table,
            "stacks": stacks,
            "stock": ids(board.drawing_pile),
            "captured": [ids(board.capture_fields[s]) for s in (0, 1)],
            "in_play": in_play,
            "players": [self._player(g, s) for s in (0, 1)],
        }

    def _player(self, g: Any, seat: int) -> Json:
        state = g.state
        gos = len(state.go_histories[seat])
        out: Json = {
            "gos": gos,
            "shaken_months": sorted(self.shaken[seat]),
            "bombs": list(self.bombs[seat]),
            "skip_credits": sum(1 for c in g.board.hands[seat] if c.kind == "bomb"),
            "ppeoks": len(state.stacking_histories[seat]),  # the engine's count (ttadak months included)
            "dual_junk": ["m09-animal"]
            if state.animal_9_moved and any(c.kind == "animal" and c.month == 9 for c in g.board.capture_fields[seat])
            else [],
        }
        if gos:
            # state.go_histories[-1] = (base + gos) * 2 ** max(gos - 2, 0) (ScoreFactor "go")
            out["go_base"] = state.go_histories[seat][-1] // 2 ** max(gos - 2, 0) - gos
        return out

    def legal(self) -> Json:
        g = self.view()
        decision = self.decision(g)
        if decision == "none":
            return {"player": None, "decision": "none", "actions": []}
        seat = g.state.player
        out: list[Json] = []
        if decision == "go_stop":
            out = [{"type": "go", "player": seat}, {"type": "stop", "player": seat}]
        elif decision in ("choose_flip_match", "choose_hand_match"):
            out = [{"type": "take", "player": seat, "card": cid} for cid in ids(g.state.select_match[1])]
        else:
            for a in g.actions():
                out += self._protocol_actions(g, seat, a)
        out += self.accepting(g)
        return {"player": seat, "decision": decision, "actions": out}

    def _protocol_actions(self, g: Any, seat: int, a: Any) -> list[Json]:
        kind = a.kind
        if kind == "throw":
            if a.card.kind == "bonus":
                return [{"type": "bonus", "player": seat, "card": card_id(a.card)}]
            on = g.board.center_field[a.card.month]
            if len(on) == 2 and not asks_no_choice(on):
                return [{"type": "play", "player": seat, "card": card_id(a.card), "take": card_id(t)} for t in on]
            return [{"type": "play", "player": seat, "card": card_id(a.card)}]
        if kind == "throw bomb":
            return [{"type": "skip", "player": seat}]
        if kind == "shakable":
            cid = card_id(a.card)
            return [{"type": "play", "player": seat, "card": cid, "shake": True}, {"type": "play", "player": seat, "card": cid}]
        if kind == "bomb":
            return [{"type": "bomb", "player": seat, "month": a.month}]
        return []

    # ------------------------------------------------------------------------- scores

    def breakdown(self, g: Any, seat: int) -> Json:
        """A seat's score by category, from the engine's own score factors (calculate_scores
        without the multiples, on a copy; the instant-win factors are set aside)."""
        copy_ = copy.deepcopy(g)
        copy_.state.score_factors = [[], []]
        copy_.calculate_scores(without_multiples=True)
        factors = {f.kind: f for f in copy_.state.score_factors[seat]}
        pile = g.board.capture_fields[seat]
        base = 0
        for f in copy_.state.score_factors[seat]:
            if f.kind != "go":
                base = f.score(base)
        animal = factors["animal"].arg
        ribbon = factors["ribbon"].arg
        junk = factors["junk"].arg
        dans = [name for name, kind in (("hong", "red ribbons"), ("cheong", "blue ribbons"), ("cho", "plant ribbons")) if kind in factors]
        moved = bool(g.state.animal_9_moved) and any(c.kind == "animal" and c.month == 9 for c in pile)
        return {
            "brights": sum(1 for c in pile if c.kind == "bright"),
            "bright_points": factors["bright"].score(0),
            "animals": animal,
            "animal_points": factors["animal"].score(0),
            "godori_points": factors["five birds"].score(0) if "five birds" in factors else 0,
            "ribbons": ribbon,
            "ribbon_points": factors["ribbon"].score(0),
            "dans": dans,
            "dan_points": 3 * len(dans),
            "junk_units": junk,
            "junk_cards": sum(1 for c in pile if c.kind in ("junk", "bonus")) + (1 if moved else 0),
            "junk_points": factors["junk"].score(0),
            "extra_points": 0,
            "base": base,
            "winner_bonus": 0,
            "dual_as_junk": ["m09-animal"] if moved else [],
        }

    def settlement(self, g: Any) -> Json | None:
        if self.outcome == "redeal":
            return {"kind": "redeal", "winner": None, "net": [0, 0], "payments": []}
        state = g.state
        if not state.ended:
            return None
        winner = state.winner
        if winner is None:
            return {"kind": "nagari", "winner": None, "net": [0, 0], "payments": [], "void_multiplier": 1}
        loser = 1 - winner
        points = state.scores[winner]
        net = [points if s == winner else -points for s in (0, 1)]
        out: Json = {"kind": "", "winner": winner, "net": net, "payments": [{"from": loser, "to": winner, "amount": points}]}
        kinds = [f.kind for f in state.score_factors[winner]]
        if "four of a month" in kinds:
            out.update(kind="chongtong", points=points, carry=1)
            return out
        if "three stackings" in kinds:
            out.update(kind="three_ppeok", points=points, carry=1)
            return out
        win = self.breakdown(g, winner)
        gos = len(state.go_histories[winner])
        shakes = len(state.shaking_histories[winner])
        meongtta = 2 if "animal penalty" in kinds else 1
        go_multiplier = 2 ** max(gos - 2, 0)
        baks = [
            name for name, kind in (("gwang_bak", "bright penalty"), ("pi_bak", "junk penalty"), ("go_bak", "go penalty")) if kind in kinds
        ]
        out.update(
            kind="stop",
            base=win["base"],
            go_count=gos,
            go_points=gos,
            go_multiplier=go_multiplier,
            shake_bomb_factor=2**shakes,
            meongtta=meongtta,
            carry=1,
            points=(win["base"] + gos) * go_multiplier * 2**shakes * meongtta,
            losers=[{"seat": loser, "baks": baks, "amount": points, "pays": points, "exempt": False}],
            winner_breakdown=win,
        )
        return out

    def score(self) -> Json:
        g = self.view()
        return {"scores": [self.breakdown(g, s) for s in (0, 1)], "settlement": self.settlement(g)}

    # ------------------------------------------------------------------------- actions

    def act(self, raw: Any) -> Json:
        parsed = parse_action(raw)
        if self.outcome or self.view().state.ended:
            raise Rejected("round_over", "the round is over")
        saved = (copy.deepcopy(self.game), copy.deepcopy(self.bombs), copy.deepcopy(self.shaken))
        try:
            start, actor, go_before = self._apply(parsed)
        except Rejected:
            self.game, self.bombs, self.shaken = saved
            raise
        except IndexError as exc:  # models/game.py _flip_card: pop(0) from an empty drawing pile
            self.game, self.bombs, self.shaken = saved
            raise Unsupported(f"the engine flipped from an empty stock ({exc}); it needs a stock card for every turn") from None
        shown = self.view()
        events = self.events(shown, start, actor)
        events += self._pending_offer(go_before, shown)
        return {"events": events, "state": self.snapshot()}

    def _apply(self, a: Json) -> tuple[int, int, bool]:
        """Apply a protocol action through the engine; returns where this action's log starts,
        the player acting there, and whether a Go or Stop was pending before."""
        A = self.eng.action
        game = self.game
        kind, seat = a["type"], a["player"]
        if game.flags.four_of_a_month or game.flags.move_animal_9:
            asked = self.accepting(self.view())
            if any(
                x["type"] == kind and x.get("month") == a.get("month") and x.get("card") == a.get("card")
                for x in asked
                if x["player"] == seat
            ):
                go_before = bool(game.flags.go)
                start, actor = len(game.logger.logs), game.state.player
                self._play(A.ActionFourOfAMonth(True) if kind == "chongtong" else A.ActionMoveAnimal9(True))
                return start, actor, go_before
            self.game = game = self.view()  # declined: the game goes on as shown
        go_before = bool(game.flags.go)
        start, actor = len(game.logger.logs), game.state.player
        state = game.state
        if seat != state.player:
            raise Rejected("not_your_turn", f"seat {state.player} is to act, not seat {seat}")
        decision = self.decision(game)
        if decision == "go_stop":
            if kind not in ("go", "stop"):
                raise Rejected(
                    "dual_not_allowed" if kind == "dual_to_junk" else "wrong_decision", f"a Go or Stop is pending, not a {kind!r}"
                )
            self._play(A.ActionGo(kind == "go"))
            return start, actor, go_before
        if decision in ("choose_flip_match", "choose_hand_match"):
            if kind != "take":
                raise Rejected("wrong_decision", f"the pending decision is {decision!r}; a {kind!r} action does not answer it")
            card = self._card(a["card"])
            if card not in state.select_match[1]:
                raise Rejected("wrong_month", f"{a['card']} is not one of the table cards to choose from")
            self._play(A.ActionSelectMatch(card))
            return start, actor, go_before
        actions = game.actions()
        if kind == "play":
            self._play_card(a, actions)
        elif kind == "bonus":
            card = self._hand_card(a["card"])
            if card.kind != "bonus":
                raise Rejected("bonus_not_allowed", f"{a['card']} is not a bonus card")
            self._play(A.ActionThrow(card))
        elif kind == "bomb":
            if A.ActionBomb(a["month"]) not in actions:
                raise Rejected("bomb_not_allowed", f"the engine offers no bomb of month {a['month']}")
            cards = month_cards(game.board.hands[seat], a["month"])
            self._play(A.ActionBomb(a["month"]))
            if cards:
                self.bombs[seat].append(a["month"])
        elif kind == "skip":
            if A.ActionThrowBomb() not in actions:
                raise Rejected("no_skip_credit", f"seat {seat} holds no bomb card (skip credit)")
            self._play(A.ActionThrowBomb())
        elif kind == "shake":
            raise Rejected("shake_not_allowed", "the engine shakes only together with playing one of the cards (play with shake: true)")
        elif kind == "chongtong":
            raise Rejected("chongtong_not_allowed", "the engine asks about a dealt four of a month only before the first turn")
        elif kind == "dual_to_junk":
            raise Rejected("dual_not_allowed", "the engine asks about the September animal only right after its capture")
        else:
            raise Rejected("wrong_decision", f"the pending decision is 'turn'; a {kind!r} action does not answer it")
        return start, actor, go_before

    def _play_card(self, a: Json, actions: list[Any]) -> None:
        A = self.eng.action
        game = self.game
        card = self._hand_card(a["card"])
        if card.kind == "bonus":
            raise Rejected("bonus_not_allowed", f"{a['card']} is a bonus card: it is played with a 'bonus' action")
        on = game.board.center_field[card.month]
        take = None
        if a.get("take") is not None:
            take = self._card(a["take"])
            if take not in on:
                raise Rejected("wrong_month", f"{a['take']} is not a table card of month {card.month}")
        if a.get("shake") and A.ActionShakable(card) not in actions:
            raise Rejected("shake_not_allowed", f"the engine offers no shake of month {card.month} with this play")
        if A.ActionShakable(card) in actions:
            self._play(A.ActionShakable(card))
            self._play(A.ActionShaking(bool(a.get("shake"))))
        elif A.ActionThrow(card) in actions:
            self._play(A.ActionThrow(card))
        else:
            bomb = A.ActionBomb(card.month) in actions
            raise Rejected(
                "wrong_decision",
                f"the engine does not let {a['card']} be played alone"
                + (f": it offers month {card.month} only as a bomb (Game.actions, bomb_months)" if bomb else ""),
            )
        state = game.state
        if game.flags.select_match and state.select_match is not None and state.select_match[2] is None:
            # the engine asks the hand card's table card before the flip (two_match_choice_timing at_play)
            if take is None:
                names = ", ".join(ids(state.select_match[1]))
                raise Rejected("take_required", f"two different table cards of month {card.month} ({names}): name one with 'take'")
            self._play(A.ActionSelectMatch(take))

    def _play(self, action: Any) -> None:
        if not self.game.play(action):
            raise Rejected("wrong_decision", f"the engine refused {action}")

    def _card(self, cid: str) -> Any:
        card = self.eng.by_id.get(cid)
        if card is None:
            raise Rejected("unknown_card", f"{cid!r} is not a card of the engine's deck")
        return card

    def _hand_card(self, cid: str) -> Any:
        card = self._card(cid)
        seat = self.game.state.player
        if card not in self.game.board.hands[seat]:
            if not self._in_game(card):
                raise Rejected("unknown_card", f"{cid} is not a card of this game's deck")
            raise Rejected("card_not_in_hand", f"{cid} is not in seat {seat}'s hand")
        return card

    def _in_game(self, card: Any) -> bool:
        b = self.game.board
        places = [*b.hands, *b.capture_fields, b.drawing_pile, *b.center_field.values()]
        return any(card in p for p in places)

    # ------------------------------------------------------------------------- events

    def _pending_offer(self, go_before: bool | None, shown: Any = None) -> list[Json]:
        g = shown if shown is not None else self.view()
        if self.outcome or g.state.ended or not g.flags.go or go_before:
            return []
        seat = g.state.player
        return [{"kind": "go_stop_offered", "player": seat, "base": self.breakdown(g, seat)["base"], "stop_only": False}]

    def events(self, g: Any, start: int, actor: int) -> list[Json]:
        """The engine's log (models/logger.py) from `start`, as protocol events."""
        logs = g.logger.logs[start:]
        out: list[Json] = []
        sweeps: list[Json] = []
        requested = sum(n for at, n in g.__dict__.get("steal_requests", ()) if at >= start)
        steals: dict[int, list[str]] = {1 - actor: []} if requested else {}
        captured: dict[int, list[str]] = {}
        bonus_throw: Json | None = None
        for i, item in enumerate(logs):
            kind, arg = item.kind, item.arg
            if kind == "turn change":
                actor = arg[1]
                continue
            if kind == "throw":
                card = arg
                if card.kind == "bonus":
                    bonus_throw = {"kind": "bonus", "player": actor, "cards": [card_id(card)], "source": "hand", "replacement": []}
                    out.append(bonus_throw)
                elif card.kind == "bomb":
                    left = sum(1 for c in g.board.hands[actor] if c.kind == "bomb")
                    out.append({"kind": "skip", "player": actor, "skip_credits": left})
                else:
                    out.append({"kind": "play", "player": actor, "cards": [card_id(card)]})
            elif kind == "flip":
                if bonus_throw is not None:  # the replacement drawn for a bonus card from the hand
                    bonus_throw["replacement"] = [card_id(arg)]
                    bonus_throw = None
                elif arg.kind == "bonus":
                    out.append({"kind": "bonus", "player": actor, "cards": [card_id(arg)], "source": "flip"})
                else:
                    out.append({"kind": "flip", "player": actor, "cards": [card_id(arg)]})
            elif kind == "shaking":
                cards = list(arg)
                out.append({"kind": "shake", "player": actor, "cards": ids(cards), "month": cards[0].month})
                if cards[0].month not in self.shaken[actor]:
                    self.shaken[actor].append(cards[0].month)
            elif kind == "bomb":
                played = [c for c in (g.state.shaking_histories[actor][-1] if g.state.shaking_histories[actor] else [])]
                credits = max(len(played) - 1, 0)
                out.append({"kind": "bomb", "player": actor, "cards": ids(played), "month": arg, "skip_credits": credits})
            elif kind == "triple matches":
                card, stack = arg
                month = card.month
                owner = next((s for s in (0, 1) if month in g.state.stacking_histories[s]), None)
                out.append({"kind": "stack_capture", "player": actor, "cards": ids([card, *stack]), "month": month, "owner": owner})
            elif kind == "discard and match":
                out.append({"kind": "jjok", "player": actor, "cards": ids(list(arg))})
            elif kind == "stacking":
                cards = list(arg)
                three = [c for c in cards if c.kind != "bonus"]
                out.append(
                    {
                        "kind": "ppeok",
                        "player": actor,
                        "cards": ids(three),
                        "month": three[0].month,
                        "bonus": ids([c for c in cards if c.kind == "bonus"]),
                        "count": len(g.state.stacking_histories[actor]),
                    }
                )
            elif kind == "ttadak":
                month = arg
                nxt = next((x for x in logs[i + 1 :] if x.kind == "append to capture field"), None)
                cards = [c for c in nxt.arg[1] if c.month == month] if nxt is not None else []
                out.append({"kind": "ttadak", "player": actor, "cards": ids(cards)})
            elif kind == "clear":
                # the engine's sweep: the table cleared by the turn (models/game.py "clear"); it
                # follows the turn's capture (spec/vocabulary.yaml event_order)
                sweeps.append({"kind": "sweep", "player": actor, "definition": "table_empty_at_turn_end"})
            elif kind == "append to capture field":
                seat, cards = arg
                if cards and not (len(cards) == 1 and cards[0].kind == "bonus" and out and out[-1].get("source") == "hand"):
                    captured.setdefault(seat, []).extend(ids(cards))
            elif kind == "take junk from opponent":
                steals.setdefault(1 - actor, []).extend(ids([arg]))
            elif kind == "move animal 9" and arg:
                out.append({"kind": "dual_to_junk", "player": actor, "cards": ["m09-animal"]})
            elif kind == "go":
                if captured or steals:
                    out += self._flush(captured, steals, sweeps, requested)
                base = self.breakdown(g, actor)["base"]
                if arg:
                    out.append({"kind": "go", "player": actor, "gos": len(g.state.go_histories[actor]), "base": base})
                    actor = 1 - actor  # Game._go changes the player without logging it
                else:
                    out.append({"kind": "stop", "player": actor, "base": base})
            elif kind == "four of a month":
                out.append({"kind": "chongtong", "player": actor, "cards": ids(list(arg)), "month": next(iter(arg)).month})
        out += self._flush(captured, steals, sweeps, requested)
        if g.state.ended:
            kinds = [f.kind for f in g.state.score_factors[g.state.winner]] if g.state.winner is not None else []
            if "three stackings" in kinds:
                out.append({"kind": "three_ppeok", "player": g.state.winner})
            settlement = self.settlement(g) or {}
            end: Json = {"kind": "round_end", "outcome": settlement.get("kind"), "net": settlement.get("net")}
            if g.state.winner is not None:
                end["player"] = g.state.winner
            out.append(end)
        return out

    def _flush(self, captured: dict[int, list[str]], steals: dict[int, list[str]], sweeps: list[Json], requested: int) -> list[Json]:
        """The turn's capture, its sweep, then its steal: the giver's cards, the junk units they
        are worth, and what the engine asked for (`requested`)."""
        out: list[Json] = []
        for seat, cards in captured.items():
            out.append({"kind": "capture", "player": seat, "cards": cards})
        out += sweeps
        for giver, cards in steals.items():
            units = sum(self.eng.by_id[c].multiple for c in cards)
            steal: Json = {"kind": "steal", "player": giver, "to": 1 - giver, "requested": requested, "units": units}
            out.append({**steal, "cards": cards} if cards else steal)
        captured.clear()
        steals.clear()
        sweeps.clear()
        return out


def asks_no_choice(on: Any) -> bool:
    """models/game.py _throw_card: two table cards of the month are taken without asking when both
    are junk of the same multiple."""
    return bool(on[0].kind == on[1].kind == "junk" and on[0].multiple == on[1].multiple)


def parse_action(raw: Any) -> Json:
    """The protocol's malformed_action checks (the shape of an action, not its legality)."""
    if not isinstance(raw, dict):
        raise Rejected("malformed_action", "action: expected an object")
    kind = raw.get("type")
    if kind not in ACTION_FIELDS:
        raise Rejected("malformed_action", f"action.type: expected one of {', '.join(ACTION_FIELDS)}, got {kind!r}")
    player = raw.get("player")
    if not isinstance(player, int) or isinstance(player, bool):
        raise Rejected("malformed_action", f"action.player: expected a seat number, got {player!r}")
    extra = sorted(set(raw) - set(ACTION_FIELDS[kind]) - {"type", "player"})
    if extra:
        raise Rejected("malformed_action", f"action: unexpected field {extra[0]!r} for a {kind!r} action")
    for key in ("card", "take"):
        if key in raw and not isinstance(raw[key], str):
            raise Rejected("malformed_action", f"action.{key}: expected a card id string")
    if kind in NEEDS and NEEDS[kind] not in raw:
        raise Rejected("malformed_action", f"action: a {kind!r} action needs the field {NEEDS[kind]!r}")
    month = raw.get("month")
    if month is not None and (not isinstance(month, int) or isinstance(month, bool) or not 1 <= month <= 12):
        raise Rejected("malformed_action", f"action.month: expected a month from 1 to 12, got {month!r}")
    if not isinstance(raw.get("shake", False), bool):
        raise Rejected("malformed_action", "action.shake: expected true or false")
    return dict(raw)


# ---------------------------------------------------------------------------------------------
# The protocol loop
# ---------------------------------------------------------------------------------------------


class Adapter:
    def __init__(self, eng: Engine) -> None:
        self.eng = eng
        self.round: Round | None = None

    def handle(self, request: Json) -> Json:
        cmd = request.get("cmd")
        if cmd == "hello":
            return dict(HELLO)
        if cmd == "new_game":
            self.round = None
            try:
                self.round = Round(self.eng, request["ruleset"], request["deal"])
            except Unsupported as exc:
                return {"error": {"code": exc.code, "message": str(exc)}}
            return {"events": self.round.deal_events, "state": self.round.snapshot()}
        if cmd in ("legal", "act", "score"):
            rnd = self.round
            if rnd is None:
                return {"error": {"code": "no_game", "message": "no game in progress: send new_game first"}}
            if cmd == "legal":
                return rnd.legal()
            if cmd == "score":
                return rnd.score()
            try:
                return rnd.act(request.get("action"))
            except Rejected as rej:
                return {"error": {"code": rej.code, "message": rej.message}}
            except Unsupported as exc:
                return {"error": {"code": exc.code, "message": str(exc)}}
        return {"error": {"code": "bad_request", "message": f"unknown cmd {cmd!r}"}}


def checkout_version(path: str) -> str:
    """The checkout's commit (the engine has no version number of its own)."""
    try:
        done = subprocess.run(["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() or "unknown"


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """The engine prints nothing in play, but stdout must carry replies only."""
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout = saved


def main(argv: list[str]) -> int:
    path = argv[1] if len(argv) > 1 else os.environ.get("GO_STOP_PYTHON", "")
    if not path:
        print("usage: adapter.py CHECKOUT (or set GO_STOP_PYTHON to a checkout of go-stop-python)", file=sys.stderr)
        return 2
    out = sys.stdout
    HELLO["engine"]["version"] = checkout_version(path)
    with _stdout_to_stderr():
        adapter = Adapter(Engine(path))
        for line in sys.stdin:
            if not line.strip():
                continue
            seq = None
            try:
                request = json.loads(line)
                seq = request.get("seq")
                if request.get("cmd") == "bye":
                    out.write(json.dumps({"seq": seq}) + "\n")
                    out.flush()
                    return 0
                reply = adapter.handle(request)
            except Exception as exc:  # one bad message must not end the session: report it and go on
                traceback.print_exc(file=sys.stderr)
                reply = {"error": {"code": "internal", "message": f"{type(exc).__name__}: {exc}"}}
            out.write(json.dumps({"seq": seq, **reply}, ensure_ascii=False) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
