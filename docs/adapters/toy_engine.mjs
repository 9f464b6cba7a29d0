// A toy Matgo engine (two players), the worked example of docs/tutorial.md in JavaScript: toy_engine.py's
// rules, written as a JavaScript engine is before anyone adapts it, with its own cards and its own API.
// It knows nothing of gostop-conformance; toy_adapter.mjs maps it onto the protocol.
//
// It plays matching and flipping, the choice between two different table cards, ppeok stacks and
// their capture, jjok, ttadak and sweeps with their steals (none on the final turn), the base score,
// Go and Stop from 7 points, and a Stop's settlement (gwang-bak, pi-bak, go-bak, seven animals, the
// carry of void rounds). No bonus cards, shakes, bombs or chongtong; the cup is always an animal.

// A card is {month, kind, n}: kind gwang, yeol (animal), tti (ribbon), pi or ssangpi (double pi); n
// tells a month's two plain pi apart. DECK holds the only card objects there are, so cards compare with ===.
const newCard = (month, kind, n = 1) => Object.freeze({ month, kind, n });
// each month's cards but its plain pi, January first; with two plain pi a month, but none in December
const KINDS = ["gwang tti", "yeol tti", "gwang tti", "yeol tti", "yeol tti", "yeol tti", "yeol tti", "gwang yeol", "yeol tti", "yeol tti"];
KINDS.push("gwang ssangpi", "gwang yeol tti ssangpi"); // November's and December's
export const DECK = Object.freeze([
  ...KINDS.flatMap((kinds, m) => kinds.split(" ").map((kind) => newCard(m + 1, kind))),
  ...Array.from({ length: 22 }, (_, i) => newCard(1 + Math.floor(i / 2), "pi", 1 + (i % 2))),
]);
const PI = { pi: 1, ssangpi: 2 };
const DANS = { hong: [1, 2, 3], cheong: [6, 9, 10], cho: [4, 5, 7] };
const worth = (junk) => junk.reduce((units, c) => units + PI[c.kind], 0);

// the k-card subsets of `cards` in itertools.combinations' order, so that among sets of equal worth a
// steal gives the pi toy_engine.py gives
function* combinations(cards, k, from = 0) {
  if (k === 0) yield [];
  else for (let i = from; i <= cards.length - k; i++) for (const rest of combinations(cards, k - 1, i + 1)) yield [cards[i], ...rest];
}

export class ToyGame {
  // `stock` top first. Three cards of a month on the table are a stack; `owners` (month -> seat) names
  // who made each ppeok stack (nobody made a dealt one).
  deal({ hands, table, stock, first, piles = [[], []], owners = new Map(), streak = 0, carried = 1 }) {
    [this.hands, this.table, this.stock, this.toAct] = [hands.map((h) => [...h]), [...table], [...stock], first];
    [this.piles, this.owners] = [piles.map((p) => [...p]), new Map()];
    for (let m = 1; m <= 12; m++) if (this.on(m).length === 3) this.owners.set(m, owners.get(m) ?? null);
    [this.gos, this.goBase, this.ppeoks, this.turns] = [[0, 0], [0, 0], [0, 0], 0];
    [this.carry, this.phase, this.pending, this.result] = [carried * Math.min(2 ** streak, 4), "play", null, null];
  }

  on(month) {
    return this.table.filter((c) => c.month === month);
  }

  // The table cards a card of `month` (the flip's by default) chooses from: two different ones.
  choices(month = this.pending.flip.month) {
    const on = this.on(month);
    return on.length === 2 && on[0].kind !== on[1].kind ? on : []; // two pi of a month are the same
  }

  moves() {
    return this.hands[this.toAct].flatMap((card) => {
      const takes = this.choices(card.month);
      return takes.length ? takes.map((take) => ({ card, take })) : [{ card, take: null }];
    });
  }

  canGo() {
    return this.stock.length > 0 && this.hands[this.toAct].length > 0; // a Go needs a turn to follow
  }

  // While the flip's choice waits: what the turn took, the card played (unless laid down) and the flip.
  inPlay() {
    const { card, flip, met } = this.pending ?? {};
    return this.phase === "choose" ? [...this.got, ...(met === 1 || met === 2 ? [card] : []), flip] : [];
  }

  play({ card, take = null }) {
    const [on, hand] = [this.on(card.month), this.hands[this.toAct]];
    if (!hand.includes(card)) throw new RangeError("the card is not in the hand"); // else splice(-1) would take another
    hand.splice(hand.indexOf(card), 1);
    [this.got, this.steals] = [[], 0];
    // laid on the table, or takes the stack at once; a pair waits for the flip
    if (on.length === 0 || on.length === 3) this.#meet(card, null);
    const flip = this.stock.shift() ?? null;
    this.pending = { card, take, flip, met: on.length };
    this.phase = flip && flip.month !== card.month && this.choices().length ? "choose" : "play";
    if (this.phase === "play") this.choose(null);
  }

  // Resolves the turn, the flip taking `flipTake` when it had two different cards to choose from.
  choose(flipTake) {
    const [{ card, take, flip, met }, me] = [this.pending, this.toAct];
    if (flip?.month === card.month && met === 1) {
      this.table.push(card, flip); // ppeok: the three stay on the table as a stack
      this.owners.set(card.month, me);
      this.ppeoks[me] += 1;
    } else if (flip?.month === card.month) {
      this.got.push(flip, ...this.on(card.month), ...(met === 2 ? [card] : [])); // jjok (the card laid down) or ttadak (all four)
      this.table = this.table.filter((c) => !this.got.includes(c));
      this.steals += 1;
    } else {
      if (met === 1 || met === 2) this.#meet(card, take);
      if (flip) this.#meet(flip, flipTake);
    }
    if (this.got.length && !this.table.length) this.steals += 1; // sweep
    this.piles[me].push(...this.got);
    if (this.stock.length && this.hands.some((h) => h.length)) this.#steal(me, this.steals); // no steal on the final turn
    [this.turns, this.pending] = [this.turns + 1, null];
    const base = this.score(me).total;
    this.phase = base >= 7 && base > this.goBase[me] ? "go_stop" : this.#next();
  }

  // The card played or flipped meets the table; a stack earns a steal, more when one made it.
  #meet(card, take) {
    const on = this.on(card.month);
    const taken = on.length === 2 ? [take ?? on[0]] : on;
    this.table = this.table.filter((c) => !taken.includes(c));
    if (on.length) this.got.push(card, ...taken);
    else this.table.push(card);
    if (on.length === 3) this.steals += this.owners.get(card.month) === this.toAct ? 2 : 1;
    if (on.length === 3) this.owners.delete(card.month);
  }

  // The opponent gives the pi worth `units` with the least surplus, then the fewest cards (the sets come
  // smallest first); among equals the first, in the order of the pi sorted by month, kind and n.
  #steal(me, units) {
    const pile = this.piles[1 - me];
    const junk = pile.filter((c) => PI[c.kind]).sort((a, b) => a.month - b.month || a.kind.localeCompare(b.kind) || a.n - b.n);
    let best = null;
    for (let k = 1; k <= units; k++) {
      for (const set of combinations(junk, k)) if (worth(set) >= units && (best === null || worth(set) < worth(best))) best = set;
    }
    for (const c of units ? (best ?? junk) : []) this.piles[me].push(...pile.splice(pile.indexOf(c), 1));
  }

  // The other seat plays next, or this one if the other has no card; no card or stock left: void.
  #next() {
    if (!this.stock.length || !this.hands.some((h) => h.length)) return "over";
    if (this.hands[1 - this.toAct].length) this.toAct = 1 - this.toAct;
    return "play";
  }

  go() {
    this.gos[this.toAct] += 1;
    this.goBase[this.toAct] = this.score(this.toAct).total;
    this.phase = this.#next();
  }

  stop() {
    const [winner, loser, gos] = [this.toAct, 1 - this.toAct, this.gos[this.toAct]];
    const [win, lose, paying] = [this.score(winner), this.score(loser), this.piles[loser].length > 0]; // who took nothing pays nothing
    const [multiplier, meong] = [gos > 2 ? 2 ** (gos - 2) : 1, win.yeol >= 7 ? 2 : 1];
    const points = (win.total + gos) * multiplier * meong * this.carry;
    const hits = { gwang_bak: win.gwangPts > 0 && lose.gwang === 0, pi_bak: win.piPts > 0 && lose.pi <= 7, go_bak: this.gos[loser] > 0 };
    const baks = Object.keys(hits).filter((bak) => hits[bak] && paying);
    const pays = paying ? points * 2 ** baks.length : 0;
    this.result = { winner, loser, score: win, gos, multiplier, meong, carry: this.carry, points, baks, pays };
    this.phase = "over";
  }

  score(seat) {
    const pile = this.piles[seat];
    const [gwang, yeol, tti, junk] = [["gwang"], ["yeol"], ["tti"], ["pi", "ssangpi"]].map((ks) => pile.filter((c) => ks.includes(c.kind)));
    const months = (cards) => new Set(cards.map((c) => c.month));
    const dans = Object.keys(DANS).filter((dan) => DANS[dan].every((m) => months(tti).has(m)));
    const gwangPts = { 3: gwang.some((c) => c.month === 12) ? 2 : 3, 4: 4, 5: 15 }[gwang.length] ?? 0; // December's is the rain gwang
    const godori = [2, 4, 8].every((m) => months(yeol).has(m)) ? 5 : 0; // the three birds
    const [pi, piCards] = [worth(junk), junk.length];
    const [yeolPts, ttiPts, piPts] = [Math.max(0, yeol.length - 4), Math.max(0, tti.length - 4), Math.max(0, pi - 9)];
    const total = gwangPts + yeolPts + godori + ttiPts + 3 * dans.length + piPts;
    return { gwang: gwang.length, gwangPts, yeol: yeol.length, yeolPts, godori, tti: tti.length, ttiPts, dans, pi, piCards, piPts, total };
  }
}
