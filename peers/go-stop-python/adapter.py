#!/usr/bin/env python3
"""gostop-conformance adapter for go-stop-python (github.com/cs470-2020f-team36/go-stop-python) on the
Python adapter kit (docs/kits.md): `.venv/bin/python peers/go-stop-python/adapter.py CHECKOUT` (or GO_STOP_PYTHON).
It drives the engine's own API (go_stop.models.game.Game: actions(), play(action), board, state,
flags), translating cards, actions, states and scores; the kit does the protocol, refuses what the
engine does not list as legal and derives the events from the states. No rule is decided here."""

from __future__ import annotations

import copy
import importlib
import os
import subprocess
import sys
from typing import Any

from gostop_conformance import kit

Json = dict[str, Any]
SINGLE_ROUNDS = ["nagari_carry_growth", "nagari_carry_cap", "nagari_carry_prior_multipliers", "match_rounds", "match_target_points"]
SINGLE_ROUNDS += ["nagari_counts_as_round"]
# Where the engine plays otherwise than matgo-2p: option -> (what it plays, where its source shows
# it, under the checkout's go_stop/). `support` prints each reason beside the scenarios it leaves out.
DECLARED: dict[str, tuple[Any, str]] = {
    "bonus_cards": ([[], [2], [3], [2, 3]], "constants/card.py: one double and one triple bonus card, each handled as it comes"),
    "bonus_steal": (kit.UNSUPPORTED, "models/game.py: a bonus card from the hand steals at once; one buried in a ppeok gives it back"),
    "shake_declaration": (["with_triple_card_play"], "models/game.py Game.actions: ActionShakable(card), shaken with a card's play"),
    "shake_requires_month_absent": ([True], "models/game.py Game.actions: shakable months have no card on the table"),
    "two_card_bomb": (["full_bomb"], "models/game.py Game.actions: bomb_months, four in hand and table, at least two in hand"),
    "shake_then_bomb_stacks": ([True], "models/game.py calculate_scores: 2 ** len(shaking_histories), a bomb an entry like a shake"),
    "pi_bak_zero_exempt": ([True], "models/game.py calculate_scores: `1 <= opponent_junk_count <= 7`"),
    "final_turn_scope": (["each_player_last_hand_card"], "models/game.py _check_after_flip: jjok, sweep steals only with a hand card left"),
    "final_turn_exempt": ([["jjok", "sweep"]], "models/game.py _check_after_flip: ttadak and stack-capture steals always granted"),
    "final_turn_ppeok": (["capture_pair_leave_drawn"], "models/game.py _check_after_flip: 'stacking except the last turn', own last card"),
    "three_ppeok_win": ([10], "models/setting.py score_of_three_stackings = 10"),
    "chongtong_points": ([10], "models/setting.py score_of_four_of_a_month = 10"),
    "chongtong_multipliers": (["none"], "models/score_factor.py: a four of a month is multiplied by nothing"),
    "hand_chongtong": (kit.UNSUPPORTED, "models/game.py Game.__init__: a dealt four's holder is asked once, before the first turn"),
    "empty_capture_exempt": ([False], "models/game.py calculate_scores: no exemption for a loser without captures"),
    "steal_cup_eligible": ([True], "models/game.py _take_junk_from_opponent: a moved September animal is among the doubles given"),
    "dual_role_mode": (kit.UNSUPPORTED, "models/game.py flags.move_animal_9: one global choice per round, asked after the capture"),
    **{o: (kit.UNSUPPORTED, "single rounds only: no nagari carry, no match") for o in SINGLE_ROUNDS},
}  # fmt: skip
ENGINE_KINDS = {"bright", "animal", "ribbon"}


class Engine:
    """The engine's modules, imported from the checkout at `path`."""

    def __init__(self, path: str) -> None:
        if not os.path.isdir(os.path.join(path, "go_stop")):
            raise SystemExit(f"go-stop-python adapter: {path!r} is not a checkout of go-stop-python (no go_stop/ in it)")
        sys.path.insert(0, os.path.abspath(path))
        for name in ("game", "board", "action", "card", "card_list", "state", "flags", "logger", "setting", "score_factor"):
            setattr(self, name, importlib.import_module(f"go_stop.models.{name}"))
        self.cards = list(importlib.import_module("go_stop.constants.card").go_stop_cards)
        self.by_id: dict[str, Any] = {card_id(c): c for c in self.cards}

    def cl(self, cards: list[Any]) -> Any:
        return self.card_list.CardList(cards)


def card_id(card: Any) -> str:
    """B01 -> m01-bright, J030 -> m03-junk-1, J112 -> m11-double-junk, +2 -> bonus-2a, +3 -> bonus-3."""
    if card.kind == "bonus":
        return "bonus-2a" if card.multiple == 2 else "bonus-3"
    if card.kind in ENGINE_KINDS:
        return f"m{card.month:02d}-{card.kind}"
    return f"m{card.month:02d}-double-junk" if card.multiple == 2 else f"m{card.month:02d}-junk-{card.index + 1}"


def ids(cards: Any) -> list[str]:
    return [card_id(c) for c in cards if c.kind != "bomb"]  # the engine's bomb cards are skip credits


class Adapter:
    """kit.Engine over one game of the engine, plus what the protocol shows and the engine does not
    keep: the dealer, which months were bombed or shaken (the engine books both as shakes)."""

    def __init__(self, eng: Engine, version: str) -> None:
        self.eng, self.version, self.game = eng, version, None
        self.dealer, self.redeal, self.bombs, self.shaken = 0, False, [[], []], [[], []]

    def hello(self) -> Json:
        return kit.hello(
            "go-stop-python", self.version, language="python", homepage="https://github.com/cs470-2020f-team36/go-stop-python",
            rulesets=[kit.ruleset("matgo-2p", **{o: v for o, (v, _) in DECLARED.items()})], positions="reachable",
            reasons={o: why for o, (_, why) in DECLARED.items()},
        )  # fmt: skip

    def new_game(self, ruleset: kit.Ruleset, deal: kit.Deal) -> None:
        eng, o = self.eng, ruleset.options
        if o["players"] != 2 or o["scoring_system"] != "gostop":
            raise kit.Unsupported("the engine plays two-player Go-Stop only")
        if deal.seed is not None or deal.nagari_streak or deal.carried_multiplier != 1:
            raise kit.Unsupported("the engine takes explicit deals of single rounds only (no seed, no nagari carry)")
        missing = sorted(set(ruleset.deck) - set(eng.by_id))
        if missing:
            raise kit.Unsupported(f"the engine has no card {', '.join(missing)} (its deck: the 48 cards, bonus-2a and bonus-3)")
        self.dealer, self.redeal, self.bombs, self.shaken = deal.dealer, False, [[], []], [[], []]
        first = deal.first_player if deal.first_player is not None else deal.dealer
        cards = lambda place: eng.cl([copy.copy(eng.by_id[c]) for c in place])  # noqa: E731
        # the engine's "starting player" is first in each pair of turns: the player to act, unless one card ahead
        sizes = [len(deal.hands[s]) + int(deal.player(s).get("skip_credits", 0)) for s in (0, 1)]
        starting = first if sizes[first] != sizes[1 - first] + 1 else 1 - first
        # models/board.py Board.__init__ without its shuffle: the deal takes the shuffled pile's
        # place, then the engine's own deal-time steps run in its order
        board = eng.board.Board.__new__(eng.board.Board)
        eng.setting.Setting.__init__(board)
        board.drawing_pile, board.hands, board.capture_fields = cards(deal.stock), [*map(cards, deal.hands)], [*map(cards, deal.captured)]
        temp = board._move_cards_at_beginning(self.dealer, cards(deal.table))
        self.redeal = bool(board._is_reset_necessary(temp))
        temp.sort()
        board.center_field = {month: temp.of_month(month) for month in range(1, 13)}
        board.sort()
        if deal.fresh:
            saved = eng.game.Board
            eng.game.Board = lambda starting_player=0: board
            try:
                self.game = eng.game.Game(starting)  # Game.__init__: a dealt four of a month
            finally:
                eng.game.Board = saved
            if not self.game.flags.four_of_a_month:
                self.game.state.player = first
        else:  # a game in progress: Game.deserialize's way, with the deal's state
            game = self.game = eng.game.Game.__new__(eng.game.Game)
            eng.setting.Setting.__init__(game)
            game.board, game.state = board, eng.state.State(starting)
            game.state.player = first
            game.flags, game.logger = eng.flags.Flags(), eng.logger.Logger()
        self._player_state(deal)

    def _player_state(self, deal: kit.Deal) -> None:
        """A game in progress's player state, in the engine's own representation (models/state.py)."""
        eng, state, board = self.eng, self.game.state, self.game.board
        for s in deal.stacks:
            if s.owner is not None:
                state.stacking_histories[s.owner].add(s.month)
        for seat in (0, 1):
            p = deal.player(seat)
            gos = int(p.get("gos", 0))
            if gos:  # one entry per Go; only the last, the score after it with the Go factor, is read
                last = eng.score_factor.ScoreFactor("go", gos).score(int(p.get("go_base", 0)))
                state.go_histories[seat] = [0] * (gos - 1) + [last]
            for month, booked in [*((m, self.shaken) for m in p.get("shaken_months", [])), *((m, self.bombs) for m in p.get("bombs", []))]:
                state.shaking_histories[seat].append(eng.cl([c for c in eng.cards if c.month == month][:3]))
                booked[seat].append(month)
            for _ in range(int(p.get("skip_credits", 0))):
                board.hands[seat].append(eng.card.SpecialCard("bomb", state.bomb_increment))
                state.bomb_increment += 1
            # a ppeok whose stack is gone is kept as a number that is no month: only the count matters
            held = state.stacking_histories[seat]
            held |= set(range(100, 100 + int(p.get("ppeoks", 0)) - len(held)))
            if [c for c in p.get("dual_junk", []) if c != "m09-animal"]:
                raise kit.Unsupported(f"players[{seat}].dual_junk: only the September animal is a dual-role card in the engine")
            state.animal_9_moved = state.animal_9_moved or bool(p.get("dual_junk"))
        if any(deal.player(s).get(k) for s in (0, 1) for k in ("gos", "ppeoks", "dual_junk")):
            self.game.calculate_scores(without_multiples=True)

    def view(self) -> Any:
        """The game once declined (on a copy) the engine's two questions the protocol has no decision for,
        a dealt four's end and the September animal to junk, answered yes by `chongtong`, `dual_to_junk`."""
        game, A = self.game, self.eng.action
        if not (game.flags.four_of_a_month or game.flags.move_animal_9):
            return game
        shown = copy.deepcopy(game)
        while not shown.state.ended and (shown.flags.four_of_a_month or shown.flags.move_animal_9):
            shown.play(A.ActionFourOfAMonth(False) if shown.flags.four_of_a_month else A.ActionMoveAnimal9(False))
        return shown

    def accepting(self, shown: Any) -> list[Json]:
        """The action that answers the engine's pending question with yes, if the player to act asks it."""
        game = self.game
        if shown.state.ended or game.state.player != shown.state.player:
            return []
        seat = shown.state.player
        if game.flags.four_of_a_month:
            return [{"type": "chongtong", "player": seat, "month": m} for m in sorted(game.board.four_of_a_month()[seat])]
        if game.flags.move_animal_9:
            return [{"type": "dual_to_junk", "player": seat, "card": "m09-animal"}]
        return []

    def decision(self, g: Any) -> str:
        if self.redeal or g.state.ended:
            return "none"
        if g.flags.go:
            return "go_stop"
        if g.flags.select_match:
            return "choose_flip_match" if g.state.select_match[2] is not None else "choose_hand_match"
        return "turn"

    def state(self) -> Json:
        g = self.view()
        board, state = g.board, g.state
        stacks, table = [], []
        for month in range(1, 13):
            cards = [c for c in board.center_field[month] if c.kind != "bonus"]
            table += ids(cards)
            if len(cards) == 3:  # four dealt to the table are no stack (R-TABLE-FOUR)
                owner = next((s for s in (0, 1) if month in state.stacking_histories[s]), None)
                stacks.append(kit.stack(month, owner, ids(cards), ids(c for c in board.center_field[month] if c.kind == "bonus")))
        in_play: list[str] = []
        if g.flags.select_match and state.select_match is not None:
            thrown, _, after = state.select_match
            if after is None:
                in_play = ids([thrown])
            else:  # the played and flipped cards are in play; the table card the played one pairs stays on the table
                before, flipped, bonus, _ = after
                paired = [c for c in before if c is not thrown] if len(before) == 2 else []
                in_play = ids([*(c for c in before if c not in paired), flipped, *bonus])
                table += ids(paired)
        decision = self.decision(g)
        return kit.state(
            decision=decision, to_act=None if decision == "none" else state.player, dealer=self.dealer, hands=[ids(h) for h in board.hands],
            table=table, stacks=stacks, stock=ids(board.drawing_pile), captured=[ids(p) for p in board.capture_fields], in_play=in_play,
            players=[self._player(g, s) for s in (0, 1)],
        )  # fmt: skip

    def _player(self, g: Any, seat: int) -> Json:
        gos = len(g.state.go_histories[seat])
        return kit.player(
            # the last Go's history entry is (base + gos) * 2 ** (gos - 2)
            gos=gos, go_base=g.state.go_histories[seat][-1] // 2 ** max(gos - 2, 0) - gos if gos else 0,
            shaken_months=sorted(self.shaken[seat]), bombs=self.bombs[seat],
            skip_credits=sum(1 for c in g.board.hands[seat] if c.kind == "bomb"),
            ppeoks=len(g.state.stacking_histories[seat]), dual_junk=["m09-animal"] if self._moved(g, seat) else [],
        )  # fmt: skip

    def _moved(self, g: Any, seat: int) -> bool:
        return bool(g.state.animal_9_moved) and any(c.kind == "animal" and c.month == 9 for c in g.board.capture_fields[seat])

    def legal(self) -> kit.Legal:
        g = self.view()
        decision = self.decision(g)
        if decision == "none":
            return kit.Legal(None, "none")
        seat, out = g.state.player, []
        if decision == "go_stop":
            out = [{"type": "go", "player": seat}, {"type": "stop", "player": seat}]
        elif decision != "turn":
            out = [{"type": "take", "player": seat, "card": c} for c in ids(g.state.select_match[1])]
        for a in g.actions() if decision == "turn" else ():
            if a.kind == "throw" and a.card.kind == "bonus":
                out.append({"type": "bonus", "player": seat, "card": card_id(a.card)})
            elif a.kind in ("throw", "shakable"):
                on = g.board.center_field[a.card.month]
                # models/game.py _throw_card: two junk of one multiple are taken without asking
                ask = len(on) == 2 and not (on[0].kind == on[1].kind == "junk" and on[0].multiple == on[1].multiple)
                for shake in (True, False) if a.kind == "shakable" else (False,):
                    for take in ids(on) if ask else [None]:
                        extra = {**({"take": take} if take else {}), **({"shake": True} if shake else {})}
                        out.append({"type": "play", "player": seat, "card": card_id(a.card), **extra})
            elif a.kind == "throw bomb":
                out.append({"type": "skip", "player": seat})
            elif a.kind == "bomb":
                out.append({"type": "bomb", "player": seat, "month": a.month})
        return kit.Legal(seat, decision, out + self.accepting(g))

    def act(self, a: Json) -> None:
        A, game = self.eng.action, self.game
        kind, seat = a["type"], a["player"]
        if game.flags.four_of_a_month or game.flags.move_animal_9:
            if a in self.accepting(self.view()):
                return self._play(A.ActionFourOfAMonth(True) if kind == "chongtong" else A.ActionMoveAnimal9(True))
            self.game = game = self.view()  # declined: the game goes on as shown
        if kind in ("go", "stop"):
            return self._play(A.ActionGo(kind == "go"))
        if kind == "take":
            return self._play(A.ActionSelectMatch(self.eng.by_id[a["card"]]))
        if kind == "skip":
            return self._play(A.ActionThrowBomb())
        if kind == "bomb":
            self.bombs[seat].append(a["month"])
            return self._play(A.ActionBomb(a["month"]))
        card = self.eng.by_id[a["card"]]
        if A.ActionShakable(card) in game.actions():
            self._play(A.ActionShakable(card))
            self._play(A.ActionShaking(bool(a.get("shake"))))
            if a.get("shake"):
                self.shaken[seat].append(card.month)
        else:
            self._play(A.ActionThrow(card))
        if game.flags.select_match and game.state.select_match[2] is None:  # the hand card's choice, asked before the flip
            self._play(A.ActionSelectMatch(self.eng.by_id[a["take"]]))

    def _play(self, action: Any) -> None:
        if not self.game.play(action):
            raise RuntimeError(f"the engine refused {action}, which it listed as legal")

    def breakdown(self, g: Any, seat: int) -> Json:
        """A seat's score by category: the engine's score factors without multiples. Scoring writes
        only `state.score_factors` and `state.scores` (go_stop/models/game.py, calculate_scores), so
        those two are put back afterwards: a deep copy of the game cost most of the adapter's time."""
        state = g.state
        kept = state.score_factors, state.scores
        try:
            state.score_factors = [[], []]
            g.calculate_scores(without_multiples=True)
            mine = state.score_factors[seat]
        finally:
            state.score_factors, state.scores = kept
        factors = {f.kind: f for f in mine}
        base = 0
        for f in mine:
            base = base if f.kind == "go" else f.score(base)
        pile, moved = g.board.capture_fields[seat], self._moved(g, seat)
        dans = [name for name, k in (("hong", "red ribbons"), ("cheong", "blue ribbons"), ("cho", "plant ribbons")) if k in factors]
        return kit.score(
            brights=sum(1 for c in pile if c.kind == "bright"), bright_points=factors["bright"].score(0), animals=factors["animal"].arg,
            animal_points=factors["animal"].score(0), godori_points=factors["five birds"].score(0) if "five birds" in factors else 0,
            ribbons=factors["ribbon"].arg, ribbon_points=factors["ribbon"].score(0), dans=dans, dan_points=3 * len(dans),
            junk_units=factors["junk"].arg, junk_cards=sum(1 for c in pile if c.kind in ("junk", "bonus")) + moved,
            junk_points=factors["junk"].score(0), extra_points=0, base=base, winner_bonus=0, dual_as_junk=["m09-animal"] if moved else [],
        )  # fmt: skip

    def settlement(self, g: Any) -> Json | None:
        if self.redeal:
            return kit.settlement(kind="redeal", winner=None, net=[0, 0], payments=[])
        if not g.state.ended:
            return None
        winner = g.state.winner
        if winner is None:
            return kit.settlement(kind="nagari", winner=None, net=[0, 0], payments=[], void_multiplier=1)
        loser, points = 1 - winner, g.state.scores[winner]
        payments = [{"from": loser, "to": winner, "amount": points}]
        out: Json = {"winner": winner, "net": [points if s == winner else -points for s in (0, 1)], "payments": payments}
        kinds = [f.kind for f in g.state.score_factors[winner]]
        for factor, kind in (("four of a month", "chongtong"), ("three stackings", "three_ppeok")):
            if factor in kinds:
                return kit.settlement(kind=kind, points=points, carry=1, **out)
        win = self.breakdown(g, winner)
        gos, shakes = len(g.state.go_histories[winner]), len(g.state.shaking_histories[winner])
        baks = [name for name, k in (("gwang_bak", "bright penalty"), ("pi_bak", "junk penalty"), ("go_bak", "go penalty")) if k in kinds]
        meongtta, go_multiplier = 2 if "animal penalty" in kinds else 1, 2 ** max(gos - 2, 0)
        return kit.settlement(
            kind="stop", base=win["base"], go_count=gos, go_points=gos, go_multiplier=go_multiplier, shake_bomb_factor=2**shakes,
            meongtta=meongtta, carry=1, points=(win["base"] + gos) * go_multiplier * 2**shakes * meongtta, winner_breakdown=win,
            losers=[{"seat": loser, "baks": baks, "amount": points, "pays": points, "exempt": False}], **out,
        )  # fmt: skip

    def score(self) -> kit.Scores:
        g = self.view()
        return kit.Scores([self.breakdown(g, s) for s in (0, 1)], self.settlement(g))


def main(argv: list[str]) -> int:
    path = argv[1] if len(argv) > 1 else os.environ.get("GO_STOP_PYTHON", "")
    if not path:
        print("usage: adapter.py CHECKOUT (or set GO_STOP_PYTHON to a checkout of go-stop-python)", file=sys.stderr)
        return 2
    commit = subprocess.run(["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False).stdout.strip()
    out, sys.stdout = sys.stdout.buffer, sys.stderr  # the engine prints nothing in play, but stdout carries replies only
    return kit.serve(Adapter(Engine(path), commit or "unknown"), stdout=out)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
