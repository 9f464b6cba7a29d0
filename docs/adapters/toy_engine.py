"""A toy Matgo engine (two players), the worked example of docs/tutorial.md: a small but correct part
of the game, written as an engine is before anyone adapts it, with its own cards and its own API.
It knows nothing of gostop-conformance; toy_adapter.py maps it onto the protocol.

It plays matching and flipping, the choice between two different table cards, ppeok stacks and
their capture, jjok, ttadak and sweeps with their steals (none on the final turn), the base score,
Go and Stop from 7 points, and a Stop's settlement (gwang-bak, pi-bak, go-bak, seven animals, the
carry of void rounds). No bonus cards, shakes, bombs or chongtong; the cup is always an animal."""

from collections import namedtuple
from itertools import combinations

Card = namedtuple("Card", "month kind n", defaults=[1])  # kind: gwang, yeol (animal), tti (ribbon), pi, ssangpi (double pi)
Move = namedtuple("Move", "card take", defaults=[None])  # take: which of two different table cards the card takes
Score = namedtuple("Score", "gwang gwang_pts yeol yeol_pts godori tti tti_pts dans pi pi_cards pi_pts total")
Result = namedtuple("Result", "winner loser score gos multiplier meong carry points baks pays")

_SPECIAL = ["gwang tti", "yeol tti", "gwang tti", "yeol tti", "yeol tti", "yeol tti", "yeol tti", "gwang yeol", "yeol tti", "yeol tti"]
_SPECIAL += ["gwang ssangpi", "gwang yeol tti ssangpi"]  # with two plain pi a month, but none in December
DECK = [Card(m, k) for m, ks in enumerate(_SPECIAL, 1) for k in ks.split()] + [Card(m, "pi", n) for m in range(1, 12) for n in (1, 2)]
RAIN, PI = Card(12, "gwang"), {"pi": 1, "ssangpi": 2}
DANS = {"hong": {1, 2, 3}, "cheong": {6, 9, 10}, "cho": {4, 5, 7}}


class ToyGame:
    def deal(self, hands, table, stock, first, piles=None, owners=None, streak=0, carried=1):
        """`stock` top first. Three cards of a month on the table are a stack; `owners` names who
        made each ppeok stack (nobody made a dealt one)."""
        self.hands, self.table, self.stock, self.to_act = [list(h) for h in hands], list(table), list(stock), first
        self.piles, months = [list(p) for p in piles or ([], [])], [c.month for c in table]
        self.owners = {m: (owners or {}).get(m) for m in set(months) if months.count(m) == 3}
        self.gos, self.go_base, self.ppeoks, self.turns = [0, 0], [0, 0], [0, 0], 0
        self.carry, self.phase, self.pending, self.result = carried * min(2**streak, 4), "play", None, None

    def on(self, month):
        return [c for c in self.table if c.month == month]

    def choices(self, month=None):
        """The table cards a card of `month` (the flip's by default) chooses from: two different ones."""
        on = self.on(month or self.pending[2].month)
        return on if len(on) == 2 and on[0].kind != on[1].kind else []  # two pi of a month are the same

    def moves(self):
        return [Move(c, t) for c in self.hands[self.to_act] for t in self.choices(c.month) or [None]]

    def can_go(self):
        return bool(self.stock and self.hands[self.to_act])  # a Go needs a turn to follow

    def in_play(self):
        """While the flip's choice waits: what the turn took, the card played (unless laid down) and the flip."""
        if self.phase != "choose":
            return []
        card, _, flip, t = self.pending
        return [*self.got, *[card] * (t in (1, 2)), flip]

    def play(self, move):
        card, on = move.card, self.on(move.card.month)
        self.hands[self.to_act].remove(card)
        self.got, self.steal = [], 0
        if len(on) in (0, 3):  # laid on the table, or takes the stack at once; a pair waits for the flip
            self._meet(card, None)
        flip = self.stock.pop(0) if self.stock else None
        self.pending = (card, move.take, flip, len(on))
        self.phase = "choose" if flip and flip.month != card.month and self.choices() else "play"
        if self.phase == "play":
            self.choose(None)

    def choose(self, flip_take):
        """Resolves the turn, the flip taking `flip_take` when it had two different cards to choose from."""
        (card, take, flip, t), me = self.pending, self.to_act
        if flip and flip.month == card.month and t == 1:  # ppeok: the three stay on the table as a stack
            self.table += [card, flip]
            self.owners[card.month], self.ppeoks[me] = me, self.ppeoks[me] + 1
        elif flip and flip.month == card.month:  # jjok (the flip takes the card laid down) or ttadak (all four)
            self.got += [flip, *self.on(card.month), *[card] * (t == 2)]
            self.table, self.steal = [c for c in self.table if c not in self.got], self.steal + 1
        else:
            if t in (1, 2):
                self._meet(card, take)
            if flip:
                self._meet(flip, flip_take)
        self.steal += bool(self.got and not self.table)  # sweep
        self.piles[me] += self.got
        if self.stock and any(self.hands):  # no steal on the final turn
            self._steal(me, self.steal)
        self.turns, self.pending = self.turns + 1, None
        base = self.score(me).total
        self.phase = "go_stop" if base >= 7 and base > self.go_base[me] else self._next()

    def _meet(self, card, take):
        """The card played or flipped meets the table; a stack earns a steal, more when one made it."""
        on = self.on(card.month)
        taken = [take or on[0]] if len(on) == 2 else on
        self.table = [c for c in self.table if c not in taken] + [card] * (not on)
        self.got += [card, *taken] if on else []
        if len(on) == 3:
            self.steal += 2 if self.owners.pop(card.month) == self.to_act else 1

    def _steal(self, me, units):
        """The opponent gives the pi worth `units` with the least surplus, then the fewest cards."""
        pile = self.piles[1 - me]
        junk, worth = sorted(c for c in pile if c.kind in PI), lambda cs: sum(PI[c.kind] for c in cs)
        sets = (s for k in range(1, units + 1) for s in combinations(junk, k) if worth(s) >= units)
        for c in min(sets, key=lambda s: (worth(s), len(s)), default=junk) if units else ():
            pile.remove(c)
            self.piles[me].append(c)

    def _next(self):
        """The other seat plays next, or this one if the other has no card; no card or stock left: void."""
        if not (self.stock and any(self.hands)):
            return "over"
        self.to_act = 1 - self.to_act if self.hands[1 - self.to_act] else self.to_act
        return "play"

    def go(self):
        self.gos[self.to_act] += 1
        self.go_base[self.to_act] = self.score(self.to_act).total
        self.phase = self._next()

    def stop(self):
        w, lo = self.to_act, 1 - self.to_act
        win, lose, gos, paying = self.score(w), self.score(lo), self.gos[w], bool(self.piles[lo])  # who took nothing pays nothing
        multiplier, meong = 2 ** (gos - 2) if gos > 2 else 1, 2 if win.yeol >= 7 else 1
        points = (win.total + gos) * multiplier * meong * self.carry
        baks = (("gwang_bak", win.gwang_pts and not lose.gwang), ("pi_bak", win.pi_pts and lose.pi <= 7), ("go_bak", self.gos[lo]))
        baks = tuple(b for b, hit in baks if hit and paying)
        self.result = Result(w, lo, win, gos, multiplier, meong, self.carry, points, baks, points * 2 ** len(baks) * paying)
        self.phase = "over"

    def score(self, seat):
        pile = self.piles[seat]
        gwang, yeol, tti, junk = ([c for c in pile if c.kind in k] for k in (["gwang"], ["yeol"], ["tti"], PI))
        pi = sum(PI[c.kind] for c in junk)
        dans = tuple(d for d, months in DANS.items() if months <= {c.month for c in tti})
        gwang_pts = {3: 2 if RAIN in gwang else 3, 4: 4, 5: 15}.get(len(gwang), 0)
        godori = 5 if {2, 4, 8} <= {c.month for c in yeol} else 0  # the three birds
        pts = gwang_pts, max(0, len(yeol) - 4), godori, max(0, len(tti) - 4), 3 * len(dans), max(0, pi - 9)
        return Score(len(gwang), pts[0], len(yeol), pts[1], godori, len(tti), pts[3], dans, pi, len(junk), pts[5], sum(pts))
