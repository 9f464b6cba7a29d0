#!/usr/bin/env python3
"""The toy engine (toy_engine.py) on the Python adapter kit, the worked example of docs/tutorial.md:
the six methods of kit.Engine, each a call into the toy and a mapping of its values. The kit does
the protocol, refuses whatever the toy's legal moves do not list, and derives every event from the
states before and after each action (the toy keeps no event log).

    gostop-conformance smoke --engine "python3 docs/adapters/toy_adapter.py"
    gostop-conformance run --engine "python3 docs/adapters/toy_adapter.py"
"""

import sys
from pathlib import Path

from gostop_conformance import kit

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the toy is a file beside this one, not a package
from toy_engine import DECK, Card, Move, ToyGame

# The toy's cards onto the suite's ids, once: the kit's card table gives each id its month and kind;
# the two plain junk of a month are numbered in the table's order.
KINDS = {"bright": "gwang", "animal": "yeol", "ribbon": "tti", "junk": "pi", "double-junk": "ssangpi"}
TO_TOY: dict[str, Card] = {}
for cid in kit.deck_ids():
    month, kind = kit.month(cid), KINDS[kit.kind(cid)]
    TO_TOY[cid] = Card(month, kind, 1 + sum(c[:2] == (month, kind) for c in TO_TOY.values()))
TO_ID = {card: cid for cid, card in TO_TOY.items()}
assert sorted(TO_ID) == sorted(DECK), "the mapping must cover the toy's deck exactly"
DECISIONS = {"play": "turn", "choose": "choose_flip_match", "go_stop": "go_stop", "over": "none"}


def ids(cards):
    return [TO_ID[c] for c in cards]


def toy(card_ids):
    return [TO_TOY[c] for c in card_ids]


class ToyAdapter:
    def hello(self):
        plays = kit.ruleset("matgo-2p", shake_enabled=[False], bomb_enabled=[False], hand_chongtong=["ignore"],
                            dual_role_mode=["fixed_animal"], table_four_of_month=kit.UNSUPPORTED)  # fmt: skip
        return kit.hello("toy-engine", "1.0", language="python", rulesets=[plays], reasons={
            "shake_enabled": "no shake: ToyGame.moves lists plays only",
            "bomb_enabled": "no bomb: ToyGame.moves lists plays only",
            "hand_chongtong": "the toy plays on whatever a hand holds",
            "dual_role_mode": "the cup is an animal (yeol) in the toy's deck, always",
            "table_four_of_month": "the toy has no rule for four cards of a month on the table",
        })  # fmt: skip

    def new_game(self, ruleset, deal):  # the toy plays one set of rules; `run` sends no other, `profile` may
        if ruleset.players != 2 or ruleset.bonus_cards:
            raise kit.Unsupported("the toy plays two players and no bonus cards")
        seats = [deal.player(s) for s in (0, 1)]
        if any(p.get(k) for p in seats for k in ("skip_credits", "bombs", "shaken_months", "dual_junk")):
            raise kit.Unsupported("the toy knows no skip credit, bomb, shake or dual-role card moved to junk")
        self.game, self.streak = ToyGame(), deal.nagari_streak
        first = deal.dealer if deal.first_player is None else deal.first_player
        self.game.deal([toy(h) for h in deal.hands], toy(deal.table), toy(deal.stock), first, [toy(p) for p in deal.captured],
                       {s.month: s.owner for s in deal.stacks}, deal.nagari_streak, deal.carried_multiplier)  # fmt: skip
        self.game.dealer, self.game.turns = deal.dealer, deal.turn
        for s, p in enumerate(seats):  # a game in progress: what each seat has called and made so far
            self.game.gos[s], self.game.go_base[s], self.game.ppeoks[s] = p.get("gos", 0), p.get("go_base", 0), p.get("ppeoks", 0)

    def state(self):
        g = self.game
        return kit.state(
            decision=DECISIONS[g.phase], to_act=None if g.phase == "over" else g.to_act, hands=[ids(h) for h in g.hands],
            table=ids(g.table), stock=ids(g.stock), captured=[ids(p) for p in g.piles], in_play=ids(g.in_play()),
            stacks=[kit.stack(m, owner, ids(g.on(m))) for m, owner in g.owners.items()], turn=g.turns, dealer=g.dealer,
            players=[kit.player(gos=g.gos[s], go_base=g.go_base[s], ppeoks=g.ppeoks[s]) for s in (0, 1)], nagari_streak=self.streak,
        )  # fmt: skip

    def legal(self):
        g, seat = self.game, self.game.to_act
        if g.phase == "play":  # a play names the table card it takes only where the toy asks which
            actions = [{"type": "play", "card": TO_ID[m.card]} | ({"take": TO_ID[m.take]} if m.take else {}) for m in g.moves()]
        elif g.phase == "choose":
            actions = [{"type": "take", "card": TO_ID[c]} for c in g.choices()]
        else:
            actions = [{"type": t} for t in ("go",) * g.can_go() + ("stop",)] if g.phase == "go_stop" else []
        return kit.Legal(None if g.phase == "over" else seat, DECISIONS[g.phase], [{**a, "player": seat} for a in actions])

    def act(self, action):  # only ever an action legal() listed: the kit refuses the rest
        card = TO_TOY.get(action.get("card"))
        if action["type"] == "play":
            self.game.play(Move(card, TO_TOY.get(action.get("take"))))
        elif action["type"] == "take":
            self.game.choose(card)
        else:
            getattr(self.game, action["type"])()  # go or stop

    def score(self):
        g, r = self.game, self.game.result
        scores = [self._score(g.score(s)) for s in (0, 1)]
        if g.phase != "over":
            return kit.Scores(scores)
        if r is None:  # nobody stopped: a void round
            return kit.Scores(scores, kit.settlement(kind="nagari", winner=None, net=[0, 0], payments=[], void_multiplier=1))
        loser = {"seat": r.loser, "baks": list(r.baks), "amount": r.pays, "pays": r.pays, "exempt": not g.piles[r.loser]}
        return kit.Scores(scores, kit.settlement(
            kind="stop", winner=r.winner, net=[r.pays if s == r.winner else -r.pays for s in (0, 1)], losers=[loser],
            payments=[{"from": r.loser, "to": r.winner, "amount": r.pays}] if r.pays else [], base=r.score.total, go_count=r.gos,
            go_points=r.gos, go_multiplier=r.multiplier, shake_bomb_factor=1, meongtta=r.meong, carry=r.carry, points=r.points,
            winner_breakdown=self._score(r.score),
        ))  # fmt: skip

    @staticmethod
    def _score(s):
        return kit.score(
            brights=s.gwang, bright_points=s.gwang_pts, animals=s.yeol, animal_points=s.yeol_pts, godori_points=s.godori,
            ribbons=s.tti, ribbon_points=s.tti_pts, dans=list(s.dans), dan_points=3 * len(s.dans), junk_units=s.pi,
            junk_cards=s.pi_cards, junk_points=s.pi_pts, extra_points=0, winner_bonus=0, dual_as_junk=[], base=s.total,
        )  # fmt: skip


if __name__ == "__main__":
    sys.exit(kit.serve(ToyAdapter()))
