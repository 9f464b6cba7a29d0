#!/usr/bin/env node
// The toy engine (toy_engine.mjs) on the JavaScript adapter kit, the worked example of docs/tutorial.md
// beside toy_adapter.py: the six methods of the kit's Engine, each a call into the toy and a mapping of
// its values. The kit does the protocol, refuses whatever the toy's legal moves do not list, and derives
// every event from the states before and after each action (the toy keeps no event log).
//
//     gostop-conformance smoke --engine "node docs/adapters/toy_adapter.mjs"
//     gostop-conformance run --engine "node docs/adapters/toy_adapter.mjs"
//
// The kit is imported from this repository's kit-js/; outside a checkout, import it from yours.
import * as kit from "../../kit-js/index.js";
import { DECK, ToyGame } from "./toy_engine.mjs";

// The toy's cards onto the suite's ids, once: the kit's card table gives each id its month and kind;
// the two plain junk of a month are numbered in the table's order.
const KINDS = { bright: "gwang", animal: "yeol", ribbon: "tti", junk: "pi", "double-junk": "ssangpi" };
const TO_TOY = new Map();
for (const id of kit.deckIds()) {
  const same = (c) => c.month === kit.month(id) && c.kind === KINDS[kit.kind(id)];
  const n = 1 + [...TO_TOY.values()].filter(same).length;
  const card = DECK.find((c) => same(c) && c.n === n);
  TO_TOY.set(id, card);
}
const TO_ID = new Map([...TO_TOY].map(([id, card]) => [card, id]));
// the toy tells cards apart by identity, so every id must be one of its deck's own objects, each once
if (TO_ID.size !== DECK.length || !DECK.every((c) => TO_ID.has(c))) throw new Error("the mapping must cover the toy's deck exactly");
const DECISIONS = { play: "turn", choose: "choose_flip_match", go_stop: "go_stop", over: "none" };

const ids = (cards) => cards.map((c) => TO_ID.get(c));
const toy = (cardIds) => cardIds.map((id) => TO_TOY.get(id));

class ToyAdapter {
  hello() {
    // prettier-ignore
    const plays = kit.ruleset("matgo-2p", { shake_enabled: [false], bomb_enabled: [false], hand_chongtong: ["ignore"],
      dual_role_mode: ["fixed_animal"], table_four_of_month: kit.UNSUPPORTED });
    // prettier-ignore
    return kit.hello("toy-engine", "1.0", { language: "javascript", rulesets: [plays], reasons: {
      shake_enabled: "no shake: ToyGame#moves lists plays only",
      bomb_enabled: "no bomb: ToyGame#moves lists plays only",
      hand_chongtong: "the toy plays on whatever a hand holds",
      dual_role_mode: "the cup is an animal (yeol) in the toy's deck, always",
      table_four_of_month: "the toy has no rule for four cards of a month on the table",
    } });
  }

  newGame(ruleset, deal) {
    // the toy plays one set of rules; `run` sends no other, `profile` may
    if (ruleset.players !== 2 || ruleset.bonusCards.length) throw new kit.Unsupported("the toy plays two players and no bonus cards");
    const seats = [0, 1].map((s) => deal.player(s));
    // an empty list is no bomb, shake or dual-role card (and, unlike in Python, true in a condition)
    if (seats.some((p) => p.skip_credits || p.bombs?.length || p.shaken_months?.length || p.dual_junk?.length))
      throw new kit.Unsupported("the toy knows no skip credit, bomb, shake or dual-role card moved to junk");
    const g = (this.game = new ToyGame());
    [this.dealer, this.streak] = [deal.dealer, deal.nagariStreak];
    // prettier-ignore
    g.deal({ hands: deal.hands.map(toy), table: toy(deal.table), stock: toy(deal.stock), first: deal.firstPlayer ?? deal.dealer,
      piles: deal.captured.map(toy), owners: new Map(deal.stacks.map((s) => [s.month, s.owner])), streak: deal.nagariStreak,
      carried: deal.carriedMultiplier });
    g.turns = deal.turn; // a game in progress: the turns played, and what each seat has called and made so far
    seats.forEach((p, s) => ([g.gos[s], g.goBase[s], g.ppeoks[s]] = [p.gos ?? 0, p.go_base ?? 0, p.ppeoks ?? 0]));
    return null; // the kit derives the deal's events from the state
  }

  state() {
    const g = this.game;
    // prettier-ignore
    return kit.state({
      decision: DECISIONS[g.phase], toAct: g.phase === "over" ? null : g.toAct, hands: g.hands.map(ids), table: ids(g.table),
      stock: ids(g.stock), captured: g.piles.map(ids), inPlay: ids(g.inPlay()),
      stacks: [...g.owners].map(([month, owner]) => kit.stack(month, owner, ids(g.on(month)))), turn: g.turns, dealer: this.dealer,
      players: [0, 1].map((s) => kit.player({ gos: g.gos[s], goBase: g.goBase[s], ppeoks: g.ppeoks[s] })), nagariStreak: this.streak,
    });
  }

  legal() {
    const [g, seat] = [this.game, this.game.toAct];
    let actions = [];
    if (g.phase === "play") {
      // a play names the table card it takes only where the toy asks which
      actions = g.moves().map(({ card, take }) => ({ type: "play", card: TO_ID.get(card), ...(take && { take: TO_ID.get(take) }) }));
    } else if (g.phase === "choose") {
      actions = g.choices().map((card) => ({ type: "take", card: TO_ID.get(card) }));
    } else if (g.phase === "go_stop") {
      actions = [...(g.canGo() ? [{ type: "go" }] : []), { type: "stop" }];
    }
    for (const a of actions) a.player = seat;
    return new kit.Legal(g.phase === "over" ? null : seat, DECISIONS[g.phase], actions);
  }

  act(action) {
    // only ever an action legal() listed: the kit refuses the rest
    const card = TO_TOY.get(action.card);
    if (action.type === "play") this.game.play({ card, take: TO_TOY.get(action.take) });
    else if (action.type === "take") this.game.choose(card);
    else this.game[action.type](); // go or stop
    return null; // the kit derives the events from the states before and after
  }

  score() {
    const [g, r] = [this.game, this.game.result];
    const scores = [0, 1].map((s) => protocolScore(g.score(s)));
    if (g.phase !== "over") return new kit.Scores(scores);
    const nagari = { kind: "nagari", winner: null, net: [0, 0], payments: [], void_multiplier: 1 }; // nobody stopped: a void round
    if (r === null) return new kit.Scores(scores, kit.settlement(nagari));
    const loser = { seat: r.loser, baks: r.baks, amount: r.pays, pays: r.pays, exempt: g.piles[r.loser].length === 0 };
    // prettier-ignore
    return new kit.Scores(scores, kit.settlement({
      kind: "stop", winner: r.winner, net: [0, 1].map((s) => (s === r.winner ? r.pays : -r.pays)), losers: [loser],
      payments: r.pays ? [{ from: r.loser, to: r.winner, amount: r.pays }] : [], base: r.score.total, go_count: r.gos,
      go_points: r.gos, go_multiplier: r.multiplier, shake_bomb_factor: 1, meongtta: r.meong, carry: r.carry, points: r.points,
      winner_breakdown: protocolScore(r.score),
    }));
  }
}

// The toy's score onto the protocol's categories, every one, zeros included.
function protocolScore(s) {
  // prettier-ignore
  return kit.score({
    brights: s.gwang, bright_points: s.gwangPts, animals: s.yeol, animal_points: s.yeolPts, godori_points: s.godori,
    ribbons: s.tti, ribbon_points: s.ttiPts, dans: s.dans, dan_points: 3 * s.dans.length, junk_units: s.pi,
    junk_cards: s.piCards, junk_points: s.piPts, extra_points: 0, winner_bonus: 0, dual_as_junk: [], base: s.total,
  });
}

process.exitCode = await kit.serve(new ToyAdapter());
