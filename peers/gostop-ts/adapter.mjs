#!/usr/bin/env node
// gostop-conformance adapter for bipark/gostop-ts (a TypeScript port of civilian7's Delphi "루미 고스톱") on the JavaScript
// adapter kit (kit-js/, docs/kits.md): `node peers/gostop-ts/adapter.mjs CHECKOUT` (or GOSTOP_TS=CHECKOUT). The engine is not
// in this repository (PolyForm Noncommercial): the checkout's src/index.ts is compiled in memory with the checkout's own
// esbuild (`npm install` brings it) and driven through its API (GameState, TurnEngine, Scorer). This file maps the cards, the
// deal, the legal actions, the actions, the state, the scores and the settlement; the kit does the protocol, refuses what the
// engine does not list as legal and derives the events from the states. No rule is decided here. Seats: the engine's 선 (the
// dealer, who plays first) is engine index 0 (web/main.ts dealAndStart); engine index i is protocol seat (dealer + i) % n.
import { createRequire } from "node:module";
import path from "node:path";
import { ALL, UNSUPPORTED, Legal, Scores, Unsupported, deckIds, equivalent, hello, kind, month } from "../../kit-js/index.js";
import { player, ruleset, score, serve, settlement, sortIds, stack, state, units } from "../../kit-js/index.js";

const ROOT = process.env.GOSTOP_TS || process.argv[2];
if (!ROOT) {
  console.error("gostop-ts adapter: set GOSTOP_TS (or pass the path) to a checkout of bipark/gostop-ts");
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(ROOT), "package.json"));
const built = await require("esbuild").build({
  entryPoints: [path.join(path.resolve(ROOT), "src", "index.ts")],
  bundle: true, format: "esm", platform: "node", write: false, logLevel: "silent",
});
const E = await import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString("base64")}`);
const { HwatuCatalog, HwatuKind, GameState, TurnEngine, GamePhase, RuleSet, ScoreOptions, Scorer } = E;

// ---------------------------------------------------------------------------- cards

// Each catalogue card (src/cards.ts HwatuCatalog.standard() and .bonus()) is the card of spec/deck.yaml of its month, kind
// and junk units, the n-th of them in catalogue order: junkValue 2 is the double junk (the 11th month's kasu_3, the 12th's
// kasu), 쌍피 1 and 2 are bonus-2a and bonus-2b, 3피 is bonus-3. Checked at start-up to be a bijection.
const BONUS = HwatuKind.Bonus;
const engineKey = (c) => `${c.month} ${c.kind} ${c.junkValue}`;
const idKey = (id) => `${month(id)} ${kind(id).replace("double-", "")} ${units(id)}`;
const ID_OF = new Map(); // assetId -> card id
const TEMPLATE = new Map(); // card id -> catalogue card
{
  const pool = new Map();
  for (const id of deckIds([2, 2, 3])) pool.set(idKey(id), [...(pool.get(idKey(id)) ?? []), id]);
  for (const c of [...HwatuCatalog.standard(), ...HwatuCatalog.bonus()]) {
    const id = pool.get(engineKey(c))?.shift();
    if (id === undefined) throw new Error(`gostop-ts adapter: the engine's card ${c.assetId} is no card of spec/deck.yaml`);
    ID_OF.set(c.assetId, id);
    TEMPLATE.set(id, c);
  }
  if (TEMPLATE.size !== 51) throw new Error(`gostop-ts adapter: the engine has no card ${[...pool.values()].flat().join(", ")}`);
}
const idOf = (c) => ID_OF.get(c.assetId);
const ids = (cards) => sortIds(cards.map(idOf));

// ---------------------------------------------------------------------------- the declaration

// Where the engine plays otherwise than matgo-2p and standard-3p: [values, why], from its source (src/play.ts,
// src/score.ts) and how its app drives it (web/main.ts). `support` prints each reason beside what it leaves out.
const SETTING = "src/score.ts ScoreOptions: a setting, set from the ruleset at new_game";
const SINGLE = "no nagari carry, next dealer or match in the engine's API (web/main.ts keeps the stakes and the dealer)";
const each = (options, values, why) => Object.fromEntries(options.map((o) => [o, [values, why]]));
const DECLARED = {
  table_four_of_month: [["dealer_wins_fixed"], "src/play.ts applyFloorChongtong: the dealer (선) wins at once, fixed 7 / 3"],
  multiple_chongtong: [["dealer_first_in_turn_order"], "src/play.ts applyHandChongtong: the first holder from the dealer wins"],
  chongtong_multipliers: [UNSUPPORTED, "src/play.ts finalSettlement: unmultiplied; web/main.ts multiplies by its stakes"],
  bonus_joins_ppeok: [["all_bonus_this_turn"], "src/play.ts playHandCard (뻑): buries pendingBonus and flipBonus"],
  three_ppeok_win: [["threshold"], "src/play.ts playHandCard: bbeokCount >= 3 wins; finalSettlement pays the fixed 7 / 3"],
  final_turn_scope: [["each_player_last_hand_card"], "src/play.ts playHandCard: jjok, ttadak, sweep need `player.hand.length > 0`"],
  final_turn_exempt: [[["jjok", "ttadak", "sweep"]], "src/play.ts resolveThreePileSteal: a stack's steal is never withheld"],
  steal_selection: [["taker_lowest_first"], "src/play.ts stealOnePi: one card per unit, the lowest junkValue first"],
  shake_declaration: [["with_triple_card_play"], "src/play.ts declareShake + enforceShakeMonth: the month is played at once"],
  shake_then_bomb_stacks: [[true], "src/play.ts declareShake and playBomb each add one to shakeCount (x2 each)"],
  go_on_last_turn: [["allowed"], "src/play.ts scoreAndFinish offers Go/Stop on any turn; declareGo never refuses"],
  meong_mode: [["meongbak_7_and_loser_zero", "off"], "src/score.ts Scorer.settle: 7+ animals with points, loser none"],
  empty_capture_exempt: [[false], "src/score.ts Scorer.settle charges a loser with an empty pile"],
  animal_threshold: [[1, 2, 3, 4, 5, 6, 7], "src/score.ts animalThreshold; above 7 Scorer.settle's meongbak is not ours"],
  pi_bak_zero_exempt: [[true], "src/score.ts Scorer.settle: a loser with a junk value of 0 is never pi-bak"],
  dual_role_mode: [UNSUPPORTED, "src/play.ts stealOnePi locks the cup as an animal (no junk to give); finalSettlement reads it by base"],
  ...each(["pi_bak", "gwang_bak"], [true, false], SETTING),
  ...each(["bright_3", "bright_3_rain", "bright_5", "ribbon_threshold", "junk_threshold", "godori_points", "dan_points"], ALL, SETTING),
  ...each(["nagari_carry_growth", "nagari_carry_cap", "nagari_carry_prior_multipliers", "match_rounds"], UNSUPPORTED, SINGLE),
  ...each(["match_target_points", "nagari_counts_as_round"], UNSUPPORTED, SINGLE),
};
const EXCEPTIONS = Object.fromEntries(Object.entries(DECLARED).map(([o, [values]]) => [o, values]));
const HELLO = hello("gostop-ts", require("./package.json").version ?? "unknown", {
  language: "typescript (node, via peers/gostop-ts/adapter.mjs)",
  homepage: "https://github.com/bipark/gostop-ts",
  rulesets: [
    ruleset("matgo-2p", { ...EXCEPTIONS, go_bak_mode: ["double_own", "off"] }),
    ruleset("standard-3p", { ...EXCEPTIONS, go_bak_mode: ["pay_for_all_doubled", "pay_for_all"] }),
  ],
  options: { bonus_cards: [[], [2], [3], [2, 2], [2, 3], [3, 2], [2, 2, 3]] },
  // the engine plays on when the stock runs dry with cards still in hand, where our rules end the round (R-ROUND-END):
  // no real deal gets there, so constructed positions are declined
  positions: "reachable",
  reasons: {
    ...Object.fromEntries(Object.entries(DECLARED).map(([o, [, why]]) => [o, why])),
    go_bak_mode: "src/play.ts finalSettlement: the losing Go-caller pays the whole total x gobakMultiplier (2, or 1)",
    bonus_cards: "src/cards.ts HwatuCatalog.bonus: 쌍피, 쌍피, 3피 (no third 2-unit card)",
  },
});

// The engine's RuleSet: the options it has a setting for (ScoreOptions) set from the ruleset; every other rule is its own, as
// declared. A value it has no setting for is noted on stderr, not refused (smoke sends plain matgo-2p).
function engineRules(o) {
  const goBak = o.players === 2 ? { double_own: 2, off: 1 } : { pay_for_all_doubled: 2, pay_for_all: 1 };
  const own = ["bright_4_dry", "bright_4_wet"].filter((k) => o[k] !== 4);
  if (!["meongbak_7_and_loser_zero", "off"].includes(o.meong_mode)) own.push("meong_mode");
  if (!(o.go_bak_mode in goBak)) own.push("go_bak_mode");
  if (own.length) console.error(`gostop-ts: no setting for ${own.map((k) => `${k} = ${JSON.stringify(o[k])}`).join(", ")}: its own rule`);
  const score = { ...ScoreOptions.default(), bright3: o.bright_3, bright3WithBi: o.bright_3_rain, bright5: o.bright_5 };
  Object.assign(score, { animalThreshold: o.animal_threshold, ribbonThreshold: o.ribbon_threshold, junkThreshold: o.junk_threshold });
  Object.assign(score, { godoriPoints: o.godori_points, danPoints: o.dan_points, pibakEnabled: o.pi_bak, gwangbakEnabled: o.gwang_bak });
  Object.assign(score, { meongbakEnabled: o.meong_mode !== "off", gobakMultiplier: goBak[o.go_bak_mode] ?? score.gobakMultiplier });
  // 역고 (x4 for a Go after an opponent's Go) is a setting of the app (web/main.ts settings.reverseGo); our rules have
  // none (spec/not-adopted.yaml), so it is off, as a player of our rules would set it
  score.reverseGoEnabled = false;
  return { ...RuleSet.default(), score };
}

// ---------------------------------------------------------------------------- one round

class GostopTs {
  hello() { return HELLO; }

  newGame(rules, deal) {
    const o = rules.options;
    const n = (this.n = rules.players);
    if (o.scoring_system !== "gostop") throw new Unsupported(`gostop-ts plays Go-Stop scoring only, not ${o.scoring_system}`);
    if (n !== 2 && n !== 3) throw new Unsupported(`gostop-ts plays 2 or 3 players (here: ${n})`);
    if (deal.seed !== null) throw new Unsupported("gostop-ts adapter: explicit deals only (no seeded_deal feature)");
    if (deal.nagariStreak > 0 || deal.carriedMultiplier > 1) throw new Unsupported("gostop-ts has no nagari carry (the app keeps it)");
    if (deal.players.some((p) => p.dual_junk?.length)) throw new Unsupported("gostop-ts has no dual_junk (Scorer.evaluate allocates)");
    const missing = rules.deck.filter((id) => !TEMPLATE.has(id));
    if (missing.length) throw new Unsupported(`gostop-ts has no card ${missing.join(", ")} (its bonus cards: 쌍피, 쌍피, 3피)`);
    this.dealer = deal.dealer ?? 0;
    const st = new GameState(Array.from({ length: n }, (_, e) => `P${this.seat(e)}`));
    const cards = (list) => list.map((id) => ({ ...TEMPLATE.get(id) }));
    // the engine counts shakes and bombs together (shakeCount, each x2 in Scorer.settle); the protocol shows their months,
    // which the adapter books as they happen
    [this.shaken, this.bombs] = [[], []];
    for (let s = 0; s < n; s++) {
      const [p, ps] = [st.players[this.eng(s)], deal.player(s)];
      [p.hand, p.captured] = [cards(deal.hands[s]), cards(deal.captured[s])];
      [p.goCount, p.lastGoScore, p.cardDebt, p.bbeokCount] = [ps.gos ?? 0, ps.go_base ?? 0, ps.skip_credits ?? 0, ps.ppeoks ?? 0];
      [this.shaken[s], this.bombs[s]] = [[...(ps.shaken_months ?? [])], [...(ps.bombs ?? [])]];
      p.shakeCount = this.shaken[s].length + this.bombs[s].length;
    }
    st.floor = cards(deal.table);
    st.stock = cards([...deal.stock].reverse()); // the engine draws from the end of the array
    const engine = (this.engine = new TurnEngine(st, engineRules(o)));
    // the choices the app gives its human player (web/main.ts onHumanCard): a flipped card meeting two table cards of
    // different kinds waits for a take; a hand bonus card is replaced by the stock's top (the app's AI path; its human
    // path lets the player pick any face-down stock card, the same under a shuffled stock). collectEvents stays on (the
    // default), though no event is read here: finalSettlement reads the engine's own log to tell a chongtong's win.
    [engine.flipChoiceEnabled, engine.bonusDrawEnabled] = [true, false];
    // The deal-time steps are four calls of the engine's API, none ordering the others (each returns early once the round
    // is over, the table's once a hand card was played). The table's bonus cards first: applyFloorBonus lays their
    // replacements on the table the two table checks read, and src/four-game.ts, the engine's own driver of a round,
    // calls it first. Then the table (a four: the dealer's win; a triple: a stack), then on a fresh round the hands: the
    // protocol's order, where the app (web/main.ts dealAndStart) checks the hands first and the table's bonus last.
    engine.applyFloorBonus();
    this.instant = engine.applyFloorChongtong() ? "dealer_wins_fixed" : null;
    engine.applyFloorBbeok();
    for (const s of deal.stacks) if (s.owner !== null && st.bbeokCreator.has(s.month)) st.bbeokCreator.set(s.month, this.eng(s.owner));
    if (deal.fresh && !this.instant && engine.applyHandChongtong()) this.instant = "chongtong";
    if (!deal.fresh) st.playCount = Math.max(1, deal.turn); // hand plays so far (첫뻑 and the deal-time steps read it)
    // the steps above pay the current player, 선: the dealer, engine index 0 (a GameState's first current); then the first
    st.current = this.eng(deal.firstPlayer ?? this.dealer);
    [this.turnNo, this.start] = [deal.turn, null];
    return null;
  }

  eng(seat) { return (seat - this.dealer + this.n) % this.n; }
  seat(e) { return (e + this.dealer) % this.n; }
  get st() { return this.engine.state; }
  get paused() { return this.st.phase === GamePhase.AwaitingFlipChoice; }

  decision() {
    const p = this.st.phase;
    return p === GamePhase.Finished ? "none" : p === GamePhase.AwaitingGoStop ? "go_stop" : this.paused ? "choose_flip_match" : "turn";
  }

  /** The captured piles the state shows, engine cards by engine index. A turn paused for the flip choice has already put into
   * the actor's pile what the hand card took (with the steal for a stack) and the flipped bonus cards, which the protocol
   * captures and steals at the turn's end and holds in play until then (state.in_play): while paused, the piles are the
   * turn's start, and so is the score. */
  piles() {
    return this.paused ? this.start : this.st.players.map((p) => p.captured);
  }

  state() {
    const { st, n } = this;
    const flip = this.paused ? this.engine.flipDrawnCard() : null; // laid face up on the table by playHandCard
    const piles = this.piles();
    // a bonus card buried in a ppeok stack takes the stack's month (playHandCard): stacks[].bonus
    let table = st.floor.filter((c) => c !== flip && !(c.kind === BONUS && st.bbeokCreator.has(c.month)));
    let inPlay = [];
    if (flip) {
      const stolen = new Set(piles.flatMap((pile, e) => pile.filter((c) => !st.players[e].captured.includes(c))));
      const took = st.currentPlayer().captured.filter((c) => !piles[st.current].includes(c) && !stolen.has(c));
      // the table card the hand card paired (or chose) stays on the table until the turn ends; a stack the hand card
      // took is in play, with the hand card and the flipped bonus cards
      const mine = took.filter((c) => c.kind !== BONUS && c.month === this.played.month);
      const pair = mine.length === 2 ? mine.filter((c) => c !== this.played) : [];
      [table, inPlay] = [[...table, ...pair], [flip, ...took.filter((c) => !pair.includes(c))]];
    }
    // a stack is what the engine registers as one (bbeokCreator: a ppeok's maker, -1 for a dealt triple), its three
    // cards on the table; four of a month dealt to the table are none (R-TABLE-FOUR)
    const stacks = [];
    for (const [m, owner] of [...st.bbeokCreator].sort(([a], [b]) => a - b)) {
      const cards = table.filter((c) => c.month === m);
      const bonus = st.floor.filter((c) => c.month === m && c.kind === BONUS);
      if (cards.length === 3) stacks.push(stack(m, owner < 0 ? null : this.seat(owner), ids(cards), ids(bonus)));
    }
    const bySeat = (f) => Array.from({ length: n }, (_, s) => f(st.players[this.eng(s)], s));
    const players = bySeat((p, s) =>
      player({ gos: p.goCount, goBase: p.lastGoScore, shakenMonths: [...this.shaken[s]].sort((a, b) => a - b), bombs: this.bombs[s],
        skipCredits: p.cardDebt, ppeoks: p.bbeokCount }),
    );
    const decision = this.decision();
    return state({
      decision, toAct: decision === "none" ? null : this.seat(st.current), hands: bySeat((p) => ids(p.hand)), table: ids(table), stacks,
      stock: [...st.stock].reverse().map(idOf), captured: bySeat((_, s) => ids(piles[this.eng(s)])), inPlay: ids(inPlay),
      turn: this.turnNo, dealer: this.dealer, nagariStreak: 0, players,
    });
  }

  /** The two table cards a play of month `m` chooses between (playHandCard's floorChoice), or null: one, a stack, or two
   * that are the same card to the rules (R-CARD-IDS). */
  choices(m) {
    const on = this.st.floor.filter((c) => c.month === m);
    return on.length !== 2 || this.st.bbeokCreator.has(m) || equivalent(idOf(on[0]), idOf(on[1])) ? null : ids(on);
  }

  /** The actions the engine's API takes now (the calls act makes), as the protocol names them. */
  legal() {
    const { st, engine } = this;
    const decision = this.decision();
    if (decision === "none") return new Legal(null, decision);
    const seat = this.seat(st.current);
    if (decision === "go_stop") return new Legal(seat, decision, [{ type: "go", player: seat }, { type: "stop", player: seat }]);
    const answer = (c) => ({ type: "take", player: seat, card: idOf(c) });
    if (this.paused) return new Legal(seat, decision, engine.flipChoiceOptions().map(answer));
    const out = [];
    const hand = st.currentPlayer().hand;
    for (const c of hand.filter((h) => h.kind === BONUS)) out.push({ type: "bonus", player: seat, card: idOf(c) });
    for (const c of hand.filter((h) => h.kind !== BONUS)) {
      for (const take of this.choices(c.month) ?? [null]) {
        const play = { type: "play", player: seat, card: idOf(c), ...(take ? { take } : {}) };
        // declareShake takes any month of three held cards, its cards on the table or not
        out.push(play, ...(engine.canShake(c.month) ? [{ ...play, shake: true }] : []));
      }
    }
    const months = [...new Set(hand.map((c) => c.month))].sort((a, b) => a - b);
    for (const m of months) if (m && engine.canBomb(m)) out.push({ type: "bomb", player: seat, month: m });
    // flipOnly pays a bomb's card debt whenever canFlipOnly allows it, cards in hand or not (the app offers it only with an
    // empty hand; this is the engine's API, not its app)
    if (engine.canFlipOnly()) out.push({ type: "skip", player: seat });
    return new Legal(seat, decision, out);
  }

  act(a) {
    const { st, engine } = this;
    const p = st.currentPlayer();
    const at = (id) => p.hand.findIndex((c) => idOf(c) === id);
    if (a.type !== "take") this.start = st.players.map((q) => [...q.captured]);
    const shakes = p.shakeCount;
    if (a.type === "play") {
      const c = (this.played = p.hand[at(a.card)]);
      // floorChoice: the table card named where the two differ; otherwise -1, the engine's own pick (captureInto by
      // captureRank), the same card to the rules
      const on = st.floor.filter((f) => f.month === c.month);
      if (a.shake) engine.declareShake(c.month);
      engine.playHandCard(p.hand.indexOf(c), this.choices(c.month) ? on.findIndex((f) => idOf(f) === a.take) : -1);
      // declared, or the engine's own (playHandCard, 자동 흔들기: shakeCount rises without a declaration)
      if (p.shakeCount > shakes) this.shaken[a.player].push(c.month);
    } else {
      const calls = {
        bonus: () => engine.playHandCard(at(a.card), -1),
        bomb: () => engine.playBomb(a.month),
        skip: () => engine.flipOnly(),
        take: () => engine.resolveFlipChoice(engine.flipChoiceOptions().findIndex((c) => idOf(c) === a.card)),
        go: () => engine.declareGo(),
        stop: () => engine.declareStop(),
      };
      calls[a.type]();
      if (a.type === "bomb") this.bombs[a.player].push(a.month);
    }
    // a turn ends with its hand action, or with the choice it paused for
    if (["play", "bomb", "skip", "take"].includes(a.type) && !this.paused) this.turnNo += 1;
    return null;
  }

  /** A seat's score by category: TurnEngine.scoreOf's Scorer.evaluate, on the pile the state shows. */
  breakdown(e) {
    const pile = this.piles()[e];
    const b = Scorer.evaluate(pile, this.engine.rules.score);
    const cup = b.gukjinAsPi ? pile.filter((c) => c.isGukjin).map(idOf) : [];
    const dans = [["hong", b.hongdanPoints], ["cheong", b.cheongdanPoints], ["cho", b.chodanPoints]].filter(([, v]) => v);
    return score({
      brights: b.brightCount, bright_points: b.brightPoints, animals: b.animalCount, animal_points: b.animalPoints,
      godori_points: b.godoriPoints, ribbons: b.ribbonCount, ribbon_points: b.ribbonPoints, dans: dans.map(([d]) => d),
      dan_points: b.hongdanPoints + b.cheongdanPoints + b.chodanPoints, junk_units: b.junkValue, junk_points: b.junkPoints,
      junk_cards: pile.filter((c) => c.kind === HwatuKind.Junk || c.kind === BONUS).length + cup.length,
      extra_points: 0, base: b.total, winner_bonus: 0, dual_as_junk: cup,
    });
  }

  /** The engine's finalSettlement; a Stop's breakdown from Scorer.settle, called as finalSettlement calls it. */
  settlement() {
    const { st, n, engine } = this;
    const results = engine.finalSettlement(); // by engine index
    const net = Array.from({ length: n }, (_, s) => results[this.eng(s)].net);
    const winner = st.winner < 0 ? null : this.seat(st.winner);
    const kind = winner === null ? "nagari" : st.threeBbeok ? "three_ppeok" : (this.instant ?? "stop");
    const payments = net.flatMap((v, s) => (s !== winner && v < 0 ? [{ from: s, to: winner, amount: -v }] : []));
    if (kind === "nagari") return settlement({ kind, winner, net, payments });
    // the fixed instant wins of finalSettlement: what each opponent pays
    if (kind !== "stop") return settlement({ kind, winner, net, payments, points: payments[0]?.amount ?? 0, carry: 1 });
    const w = st.players[st.winner];
    const opts = { ...engine.rules.score, pibakMaxJunk: n >= 3 ? 5 : 7 };
    const win = Scorer.evaluate(w.captured, engine.rules.score);
    const [losers, settles] = [[], []];
    for (let s = 0; s < n; s++) {
      if (s === winner) continue;
      const e = this.eng(s);
      const settle = Scorer.settle(win, Scorer.evaluateAsLoser(st.players[e].captured, opts), w.goCount, w.shakeCount, opts, w.reverseGo);
      settles.push(settle);
      // finalSettlement marks the Go-caller gobak even at gobakMultiplier 1, where two players pay nothing extra (go_bak_mode
      // off) and three pay for all (pay_for_all)
      const goBak = results[e].gobak && (n > 2 || engine.rules.score.gobakMultiplier > 1);
      const baks = Object.entries({ gwang_bak: settle.gwangbak, pi_bak: settle.pibak, meong_bak: settle.meongbak, go_bak: goBak });
      // amount: what this loser owes on their own account; with one loser finalSettlement's go-bak doubling is their own
      const amount = n === 2 ? -net[s] : settle.points;
      losers.push({ seat: s, baks: baks.filter(([, on]) => on).map(([b]) => b), amount, pays: -net[s], exempt: false });
    }
    const [first] = settles;
    const baks = (first.gwangbak ? 2 : 1) * (first.pibak ? 2 : 1) * (first.meongbak ? 2 : 1);
    return settlement({
      kind, winner, net, payments, base: win.total, go_count: w.goCount, go_points: first.goBonus, go_multiplier: first.goMultiplier,
      shake_bomb_factor: first.multiplier / first.goMultiplier / baks, meongtta: 1, carry: 1, losers,
      points: ((win.total + first.goBonus) * first.multiplier) / baks, winner_breakdown: this.breakdown(st.winner),
    });
  }

  score() {
    const scores = Array.from({ length: this.n }, (_, s) => this.breakdown(this.eng(s)));
    // no `next`: the next dealer and the stakes are the app's (web/main.ts), not the engine's
    return new Scores(scores, this.decision() === "none" ? this.settlement() : null);
  }
}

process.exitCode = await serve(new GostopTs());
