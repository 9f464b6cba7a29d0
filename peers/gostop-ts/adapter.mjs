#!/usr/bin/env node
// gostop-conformance adapter for bipark/gostop-ts (a TypeScript port of civilian7's Delphi
// "루미 고스톱"), protocol version 1.
//
// The engine is NOT part of this repository (its licence is non-commercial): this file only loads
// a checkout of it, given by the environment variable GOSTOP_TS or the first argument, and drives
// its own API (GameState, TurnEngine, Scorer from src/). It translates, and nothing more: card
// objects to our card ids, the protocol's actions to the engine's calls, the engine's state and
// events back to the protocol. Every rule decision (what captures, what steals, who may Go, what a
// loser pays) is the engine's. Where the engine cannot do what a request asks, the reply is the
// documented error, never a rule made up here.
//
//     GOSTOP_TS=/path/to/gostop-ts node peers/gostop-ts/adapter.mjs
//
// The checkout needs `npm install` (its devDependency vite brings esbuild, with which this file
// compiles src/index.ts in memory at start-up). peers/README.md has the commands.
//
// Seats. The engine's web app (web/main.ts dealAndStart) always seats the dealer (선) at engine
// index 0 and lets index 0 play first; engine index i is protocol seat (dealer + i) % n. Turn
// order is +1 in both.

import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";

const ROOT = process.env.GOSTOP_TS || process.argv[2];
if (!ROOT) {
  console.error("gostop-ts adapter: set GOSTOP_TS (or pass the path) to a checkout of bipark/gostop-ts");
  process.exit(2);
}

// ---------------------------------------------------------------------------- loading the engine

async function loadEngine(root) {
  const require = createRequire(path.join(path.resolve(root), "package.json"));
  const esbuild = require("esbuild"); // the checkout's own (a dependency of its vite)
  const built = await esbuild.build({
    entryPoints: [path.join(path.resolve(root), "src", "index.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
  });
  const code = built.outputFiles[0].text;
  const version = require("./package.json").version ?? "unknown";
  return { E: await import("data:text/javascript;base64," + Buffer.from(code).toString("base64")), version };
}

const { E, version: ENGINE_VERSION } = await loadEngine(ROOT);
const { HwatuCatalog, HwatuKind, GameState, TurnEngine, GamePhase, PlayEventKind, RuleSet, ScoreOptions, Scorer } = E;

// Instrumentation, not a rule: the engine reports a steal only for a card moved (PiSteal), so an
// opponent with nothing to give leaves no trace. Counting its calls of stealPiFromOthers (each asks
// every opponent for piStealPerEvent cards) lets a steal event say what was owed (`requested`).
const stealPiFromOthers = TurnEngine.prototype.stealPiFromOthers;
TurnEngine.prototype.stealPiFromOthers = function (winner) {
  this.stealRequests = (this.stealRequests ?? 0) + 1;
  return stealPiFromOthers.call(this, winner);
};

// ---------------------------------------------------------------------------- cards

/** Two card ids the rules cannot tell apart (R-CARD-IDS): the same month, kind and value, i.e. the
 * same id but for the ordinal of two single junk (or two 2-unit bonus cards). */
function sameCard(a, b) {
  return a.replace(/-\d$/, "").replace(/^bonus-2[ab]$/, "bonus-2") === b.replace(/-\d$/, "").replace(/^bonus-2[ab]$/, "bonus-2");
}

// Our card id of an engine card, from its catalogue fields (src/cards.ts HwatuCatalog): month and
// kind, junk by ordinal (the 11th month's third junk and the 12th month's junk are the double junk,
// junkValue 2), bonus cards by value and ordinal. Checked against spec/deck.yaml's ids below.
function idFromCatalog(card) {
  const mm = `m${String(card.month).padStart(2, "0")}`;
  switch (card.kind) {
    case HwatuKind.Bright: return `${mm}-bright`;
    case HwatuKind.Animal: return `${mm}-animal`;
    case HwatuKind.Ribbon: return `${mm}-ribbon`;
    case HwatuKind.Junk: return card.junkValue === 2 ? `${mm}-double-junk` : `${mm}-junk-${card.ordinal}`;
    case HwatuKind.Bonus:
      // bonus(): 쌍피 1, 쌍피 2, 3피 -> bonus-2a, bonus-2b, bonus-3 (the n-th card of its units)
      return card.junkValue === 3 ? "bonus-3" : card.ordinal === 1 ? "bonus-2a" : "bonus-2b";
    default: throw new Error(`unknown engine card ${JSON.stringify(card)}`);
  }
}

const CATALOG = [...HwatuCatalog.standard(), ...HwatuCatalog.bonus()];
const ID_OF_ASSET = new Map(CATALOG.map((c) => [c.assetId, idFromCatalog(c)]));
const TEMPLATE = new Map(CATALOG.map((c) => [idFromCatalog(c), c]));
const MONTHS = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"];
const STANDARD_IDS = MONTHS.flatMap((m) =>
  ({
    "02": ["animal", "ribbon", "junk-1", "junk-2"], "04": ["animal", "ribbon", "junk-1", "junk-2"],
    "05": ["animal", "ribbon", "junk-1", "junk-2"], "06": ["animal", "ribbon", "junk-1", "junk-2"],
    "07": ["animal", "ribbon", "junk-1", "junk-2"], "09": ["animal", "ribbon", "junk-1", "junk-2"],
    "10": ["animal", "ribbon", "junk-1", "junk-2"], "08": ["bright", "animal", "junk-1", "junk-2"],
    "11": ["bright", "double-junk", "junk-1", "junk-2"], "12": ["bright", "animal", "ribbon", "double-junk"],
  }[m] ?? ["bright", "ribbon", "junk-1", "junk-2"]).map((k) => `m${m}-${k}`),
);
// The translation must be a bijection onto spec/deck.yaml: 48 cards plus the engine's 3 bonus cards.
{
  const ours = new Set([...STANDARD_IDS, "bonus-2a", "bonus-2b", "bonus-3"]);
  const mapped = new Set(ID_OF_ASSET.values());
  if (mapped.size !== 51 || [...ours].some((id) => !mapped.has(id))) {
    throw new Error("gostop-ts adapter: the engine's catalogue no longer maps onto our card ids");
  }
}
// canonical order of spec/deck.yaml (month-major, then kind), for listing choices in a stable order
const INDEX = new Map([...STANDARD_IDS, "bonus-2a", "bonus-2b", "bonus-3", "bonus-2c"].map((id, k) => [id, k]));
const byIndex = (a, b) => INDEX.get(a) - INDEX.get(b);
const ALL_IDS = new Set([...STANDARD_IDS, "bonus-2a", "bonus-2b", "bonus-3", "bonus-2c"]);
const idOf = (card) => ID_OF_ASSET.get(card.assetId);
const freshCard = (id) => ({ ...TEMPLATE.get(id) });
const isBonusId = (id) => id.startsWith("bonus-");
const monthOfId = (id) => (isBonusId(id) ? 0 : Number(id.slice(1, 3)));
const UNITS = { "bonus-2a": 2, "bonus-2b": 2, "bonus-3": 3, "m11-double-junk": 2, "m12-double-junk": 2 };
const unitsOf = (id) => UNITS[id] ?? 1;

/** The bonus card ids of a ruleset's bonus_cards (R-BONUS-DECK: the n-th card of each value). */
function bonusIds(values) {
  const pools = { 2: ["bonus-2a", "bonus-2b", "bonus-2c"], 3: ["bonus-3"] };
  const used = { 2: 0, 3: 0 };
  return values.map((v) => pools[v]?.[used[v]++]);
}

// ---------------------------------------------------------------------------- the declaration

// What the engine plays, read from its code (src/play.ts, src/score.ts) and from how its own app
// drives it (web/main.ts). Each exception names where the engine shows it.
const COMMON_EXCEPTIONS = {
  // play.ts TurnEngine.applyFloorChongtong: four of a month on the table after the deal ends the
  // round at once as the dealer's (index 0, 선) win, paid the fixed instant-win amount of
  // finalSettlement (2 players 7, 3 players 3 = go_threshold); web/main.ts dealAndStart calls it.
  table_four_of_month: ["dealer_wins_fixed"],
  // play.ts applyHandChongtong: holders are looked for from engine index 0 (the dealer) on and the
  // first one found wins at once.
  multiple_chongtong: ["dealer_first_in_turn_order"],
  // play.ts finalSettlement: chongtong and three-ppeok wins pay the fixed amount, no multiplier.
  // The game does carry void rounds, but outside the engine's API: web/main.ts multiplies every
  // payment, these included, by its stakes (x2 per nagari, no cap). The adapter cannot reproduce
  // that and refuses deals with a carry, so whatever depends on the carry is unsupported here.
  chongtong_multipliers: "unsupported",
  // play.ts playHandCard (ppeok branch): buryBonus = pendingBonus (bonus cards played from the
  // hand this turn) + flipBonus, all moved from the captured pile into the ppeok stack.
  bonus_joins_ppeok: ["all_bonus_this_turn"],
  // play.ts playHandCard: bbeokCount >= 3 -> threeBbeok, instant win; finalSettlement pays the
  // fixed 7 (2 players) / 3 (3 players), which is go_threshold.
  three_ppeok_win: ["threshold"],
  // play.ts playHandCard / resolveFlipChoice / flipStockAndResolve: jjok, ttadak and sweep are
  // withheld when the actor's hand is empty after the play (`notLast = player.hand.length > 0`),
  // i.e. on each player's own last hand card; the steal for capturing a stack
  // (resolveThreePileSteal) is never withheld.
  final_turn_scope: ["each_player_last_hand_card"],
  final_turn_exempt: [["jjok", "ttadak", "sweep"]],
  // play.ts stealOnePi: one card per requested unit, the lowest junkValue first (a double only when
  // no single is left), repeated per request (own ppeok: twice) -- the taker takes the lowest cards.
  steal_selection: ["taker_lowest_first"],
  // play.ts declareShake + RuleSet.enforceShakeMonth (default true) + playHandCard: a shake is
  // shown and then a card of that month must be played at once; web/main.ts renderSpecials offers
  // it as a button before the play. That is a shake declared with the triple-card play.
  shake_declaration: ["with_triple_card_play"],
  // play.ts declareShake and playBomb each add one to shakeCount (x2 each in Scorer.settle): a
  // month shaken and then bombed counts twice (the app shows the bomb button after a shake).
  shake_then_bomb_stacks: [true],
  // play.ts scoreAndFinish / declareGo: Go or Stop is offered whenever the score reaches the
  // threshold and rose, also on the actor's (or the round's) last turn; Go is never refused.
  go_on_last_turn: ["allowed"],
  // score.ts Scorer.settle: meongbak = winner has animal points, at least meongbakMinAnimal (7)
  // animals, and the loser has no animal; no seven-animal doubling otherwise. Off when
  // ScoreOptions.meongbakEnabled is false (a settings toggle of the app, web/main.ts).
  meong_mode: ["meongbak_7_and_loser_zero", "off"],
  // score.ts Scorer.settle: a loser with no captured card at all still pays (and is gwang-bak).
  empty_capture_exempt: [false],
  // Options the engine takes as ScoreOptions (score.ts), set from the ruleset at new_game; the
  // app's settings expose the pibak/gwangbak toggles (web/main.ts buildScoreOptions).
  bright_3: "all",
  bright_3_rain: "all",
  bright_5: "all",
  // score.ts Scorer.settle grants meongbak only with animal points (animalPoints > 0): with an
  // animal threshold above 7 seven animals score nothing and there is no meongbak, which our
  // meongbak_7_and_loser_zero would still give, so only thresholds up to 7 are claimed.
  animal_threshold: [1, 2, 3, 4, 5, 6, 7],
  ribbon_threshold: "all",
  junk_threshold: "all",
  godori_points: "all",
  dan_points: "all",
  pi_bak: [true, false],
  // score.ts Scorer (the pi-bak test): a loser whose junk value is 0 is never pi-bak.
  pi_bak_zero_exempt: [true],
  gwang_bak: [true, false],
  // The engine has no nagari carry, no next-round hand-over and no match: web/main.ts keeps the
  // stakes and the next dealer, outside the engine's API. A deal with a carry is refused.
  nagari_carry_growth: "unsupported",
  nagari_carry_cap: "unsupported",
  nagari_carry_prior_multipliers: "unsupported",
  match_rounds: "unsupported",
  match_target_points: "unsupported",
  nagari_counts_as_round: "unsupported",
};

const DECLARATION = {
  rulesets: [
    {
      id: "matgo-2p",
      options: {
        ...COMMON_EXCEPTIONS,
        // play.ts finalSettlement: a loser who called Go pays the whole total times
        // ScoreOptions.gobakMultiplier (2; 1 when the app's gobak setting is off): with one
        // loser that is double_own, or no penalty at 1.
        go_bak_mode: ["double_own", "off"],
      },
    },
    {
      id: "standard-3p",
      options: {
        ...COMMON_EXCEPTIONS,
        // play.ts finalSettlement: the losing Go-caller pays every loser's amount times
        // gobakMultiplier (2), the others nothing; 1 when the app's gobak setting is off.
        go_bak_mode: ["pay_for_all_doubled", "pay_for_all"],
      },
    },
  ],
  // cards.ts HwatuCatalog.bonus: 쌍피, 쌍피, 3피 (deck.ts DeckOptions.withBonus(count) takes the
  // first `count`); an explicit deal may hold any of the three.
  options: { bonus_cards: [[], [2], [3], [2, 2], [2, 3], [3, 2], [2, 2, 3]] },
};

// ---------------------------------------------------------------------------- engine configuration

/**
 * The engine's RuleSet for a protocol ruleset: the options the engine has a setting for
 * (ScoreOptions, score.ts) are set from it. Every other rule is the engine's own whatever the
 * ruleset says: the hello declaration tells the harness which values those are, and the harness
 * sends only scenarios whose outcome they keep. A value the engine has no setting for is not
 * refused (smoke sends plain matgo-2p), it is noted on stderr; only what the engine cannot play at
 * all (another scoring system, another number of players) is refused.
 */
function engineRules(options) {
  if (options.scoring_system !== "gostop") return { error: `gostop-ts plays Go-Stop scoring only, not ${options.scoring_system}` };
  if (options.players !== 2 && options.players !== 3) return { error: `gostop-ts plays 2 or 3 players (here: ${options.players})` };
  const own = [];
  const note = (key, ok) => { if (!ok) own.push(`${key} = ${JSON.stringify(options[key])}`); };
  note("bright_4_dry", options.bright_4_dry === 4);
  note("bright_4_wet", options.bright_4_wet === 4);
  note("meong_mode", ["meongbak_7_and_loser_zero", "off"].includes(options.meong_mode));
  const goBak = options.players === 2 ? { double_own: 2, off: 1 } : { pay_for_all_doubled: 2, pay_for_all: 1 };
  note("go_bak_mode", options.go_bak_mode in goBak);
  if (own.length) console.error(`gostop-ts has no setting for ${own.join(", ")}: it plays its own rule there`);
  const score = ScoreOptions.default();
  score.bright3 = options.bright_3;
  score.bright3WithBi = options.bright_3_rain;
  score.bright5 = options.bright_5;
  score.animalThreshold = options.animal_threshold;
  score.ribbonThreshold = options.ribbon_threshold;
  score.junkThreshold = options.junk_threshold;
  score.godoriPoints = options.godori_points;
  score.danPoints = options.dan_points;
  score.pibakEnabled = options.pi_bak;
  score.gwangbakEnabled = options.gwang_bak;
  score.meongbakEnabled = options.meong_mode !== "off";
  score.gobakMultiplier = goBak[options.go_bak_mode] ?? score.gobakMultiplier;
  // 역고 (reverse Go): the engine's optional x4 for a Go called after an opponent's Go. Our rules
  // have no reverse Go (spec/not-adopted.yaml), and the engine's app has it as a setting
  // (web/main.ts buildScoreOptions, settings.reverseGo): it is switched off, as a player of our
  // rules would set it.
  score.reverseGoEnabled = false;
  return { rules: { ...RuleSet.default(), score } };
}

// ---------------------------------------------------------------------------- one round

const err = (code, message) => ({ error: { code, message } });

/** Multiset difference of id lists: the ids of `a` not matched in `b`. */
function minus(a, b) {
  const left = [...b];
  const out = [];
  for (const x of a) {
    const k = left.indexOf(x);
    if (k >= 0) left.splice(k, 1);
    else out.push(x);
  }
  return out;
}

class Round {
  constructor(ruleset, deal, rules) {
    const o = ruleset.options;
    this.o = o;
    this.n = deal.hands.length;
    this.dealer = deal.dealer ?? 0;
    this.deckIds = new Set([...STANDARD_IDS, ...bonusIds(o.bonus_cards)]);
    const n = this.n;
    const state = new GameState(Array.from({ length: n }, (_, i) => `P${(i + this.dealer) % n}`));
    const cards = (ids) => ids.map(freshCard);
    for (let s = 0; s < n; s++) {
      const p = state.players[this.eng(s)];
      p.hand = cards(deal.hands[s]);
      p.captured = cards(deal.captured?.[s] ?? []);
      const ps = deal.players?.[s];
      if (ps) {
        p.goCount = ps.gos ?? 0;
        p.lastGoScore = ps.go_base ?? 0;
        // the engine keeps one count for shakes and bombs (each doubles: Scorer.settle)
        p.shakeCount = (ps.shaken_months ?? []).length + (ps.bombs ?? []).length;
        p.cardDebt = ps.skip_credits ?? 0;
        p.bbeokCount = ps.ppeoks ?? 0;
      }
    }
    state.floor = cards(deal.table);
    state.stock = cards([...deal.stock].reverse()); // the engine draws from the end of the array
    state.current = this.eng(deal.first_player ?? this.dealer);
    // what the engine does not record but the protocol's state shows: bookkeeping of its events
    this.shaken = Array.from({ length: n }, (_, s) => [...(deal.players?.[s]?.shaken_months ?? [])]);
    this.bombs = Array.from({ length: n }, (_, s) => [...(deal.players?.[s]?.bombs ?? [])]);
    this.turnNo = deal.turn ?? 0;
    this.pending = null; // a turn paused at choose_flip_match: {actor, captured so far}
    this.engine = new TurnEngine(state, rules);
    // the choices a human gets in the app (web/main.ts onHumanCard): the flip choice between two
    // table cards of different kinds, and the replacement of a hand bonus card taken from the
    // top of the stock (bonusDrawEnabled false: the app's AI path; the human path lets the
    // player pick any face-down stock card, which is the same under a shuffled stock)
    this.engine.flipChoiceEnabled = true;
    this.engine.bonusDrawEnabled = false;
    this.engine.collectEvents = true;

    const fresh = (deal.turn ?? 0) === 0 && !deal.captured;
    const before = this.snap();
    const stackOwner = new Map((deal.stacks ?? []).map((s) => [s.month, s.owner]));
    const log = this.record(() => {
      // web/main.ts dealAndStart, in its order; a chongtong (hand or table four) only ends a fresh
      // round, as the protocol says
      if (!fresh || (!this.engine.applyHandChongtong() && !this.engine.applyFloorChongtong())) {
        this.engine.applyFloorBbeok(); // three of a month on the table: a stack of nobody (-1)
        // a mid-game deal names the owner of a stack made by a ppeok (the engine's bbeokCreator)
        for (const [month, owner] of stackOwner) {
          if (owner !== null && owner !== undefined && state.bbeokCreator.has(month)) state.bbeokCreator.set(month, this.eng(owner));
        }
        this.engine.applyFloorBonus();
      }
    });
    if (!fresh) state.playCount = Math.max(1, this.turnNo); // hand plays so far (첫뻑 looks at it)
    const first = this.seat(state.current);
    // spec/vocabulary.yaml event_order: the table's bonus cards are replaced before the deal event
    const dealt = this.translate(log, before, { type: "deal" });
    const dealEvent = { kind: "deal", cards: [], dealer: this.dealer, first_player: first };
    this.dealEvents = [...dealt.filter((ev) => ev.kind === "table_bonus"), dealEvent, ...dealt.filter((ev) => ev.kind !== "table_bonus")];
  }

  eng(seat) { return (seat - this.dealer + this.n) % this.n; }
  seat(e) { return (e + this.dealer) % this.n; }
  get st() { return this.engine.state; }
  get over() { return this.st.phase === GamePhase.Finished; }

  /** Run `fn`, returning the engine's events with the state right after each. */
  record(fn) {
    const log = [];
    this.engine.stealRequests = 0;
    this.engine.onEvent = (e) => log.push({ e, snap: this.snap() });
    try {
      fn();
    } finally {
      this.engine.onEvent = null;
    }
    return log;
  }

  snap() {
    const st = this.st;
    return {
      hands: st.players.map((p) => p.hand.map(idOf)),
      captured: st.players.map((p) => p.captured.map(idOf)),
      floor: st.floor.map(idOf),
      floorCards: st.floor.map((c) => ({ id: idOf(c), month: c.month })),
      stock: st.stock.map(idOf), // end = top
      creators: new Map(st.bbeokCreator),
    };
  }

  // ------------------------------------------------------------------ state

  decision() {
    switch (this.st.phase) {
      case GamePhase.Playing: return "turn";
      case GamePhase.AwaitingGoStop: return "go_stop";
      case GamePhase.AwaitingFlipChoice: return "choose_flip_match";
      case GamePhase.Finished: return "none";
      default: return "turn";
    }
  }

  state() {
    const st = this.st;
    const bySeat = (f) => Array.from({ length: this.n }, (_, s) => f(st.players[this.eng(s)], s));
    // the flipped card the engine lays face up on the table while the choice is pending
    // (playHandCard: "뒤집은 패 노출") is not placed yet: in_play, as the protocol says
    const paused = st.phase === GamePhase.AwaitingFlipChoice ? idOf(this.engine.flipDrawnCard()) : null;
    const table = [];
    const stacks = [];
    for (const c of st.floor) {
      const id = idOf(c);
      // a bonus card buried in a ppeok stack carries the stack's month (playHandCard): stacks[].bonus
      if (id === paused || (isBonusId(id) && st.bbeokCreator.has(c.month))) continue;
      table.push(id);
    }
    // A stack is three cards of a month on the table: the engine registers who made it
    // (bbeokCreator; -1 for a dealt triple), and captureInto takes three of a month whole (with
    // resolveThreePileSteal's steal) even when it was never registered, as happens to a triple
    // completed by a table bonus replacement (web/main.ts calls applyFloorBbeok before
    // applyFloorBonus).
    for (let month = 1; month <= 12; month++) {
      const here = st.floor.filter((c) => c.month === month).map(idOf);
      const cards = here.filter((id) => !isBonusId(id) && id !== paused);
      if (cards.length !== 3) continue; // four of a month dealt to the table are no stack (R-TABLE-FOUR)
      const creator = st.bbeokCreator.get(month);
      stacks.push({ month, owner: creator === undefined || creator < 0 ? null : this.seat(creator), cards, bonus: here.filter(isBonusId) });
    }
    // The engine captures the played card's pair before it waits for the flip choice; the protocol's
    // paused turn (spec/protocol: state.in_play) has not placed it yet: the played card, a stack it
    // took and flipped bonus cards are in play, the table card it pairs stays on the table.
    const inPlay = paused ? [paused] : [];
    const held = new Set();
    if (paused && this.pending) {
      const month = this.pendingHand ? monthOfId(this.pendingHand) : null;
      const mine = this.pending.filter((id) => !isBonusId(id) && monthOfId(id) === month);
      const pair = mine.length === 2 ? mine.filter((id) => id !== this.pendingHand) : [];
      table.push(...pair);
      inPlay.push(...mine.filter((id) => !pair.includes(id)), ...this.pending.filter(isBonusId), ...(this.pendingBonus ?? []));
      for (const id of [...this.pending, ...(this.pendingBonus ?? [])]) held.add(id);
    }
    return {
      decision: this.decision(),
      to_act: this.over ? null : this.seat(st.current),
      dealer: this.dealer,
      turn: this.turnNo,
      hands: bySeat((p) => p.hand.map(idOf)),
      table,
      stacks,
      stock: [...st.stock].reverse().map(idOf),
      captured: bySeat((p) => p.captured.map(idOf).filter((id) => !held.has(id))),
      in_play: inPlay,
      players: bySeat((p, s) => ({
        gos: p.goCount,
        go_base: p.lastGoScore,
        shaken_months: [...this.shaken[s]].sort((a, b) => a - b),
        bombs: [...this.bombs[s]],
        skip_credits: p.cardDebt,
        ppeoks: p.bbeokCount,
        dual_junk: [],
      })),
    };
  }

  // ------------------------------------------------------------------ legal actions

  /** The actions the engine accepts now, as its app offers them (web/main.ts renderSpecials,
   * handFloorChoice, drive). */
  legal() {
    const st = this.st;
    if (this.over) return [];
    const player = this.seat(st.current);
    const p = st.currentPlayer();
    if (st.phase === GamePhase.AwaitingGoStop) return [{ type: "go", player }, { type: "stop", player }];
    if (st.phase === GamePhase.AwaitingFlipChoice) {
      return this.engine.flipChoiceOptions().map(idOf).sort(byIndex).map((card) => ({ type: "take", player, card }));
    }
    const out = [];
    const held = new Map();
    for (const c of p.hand) if (c.month) held.set(c.month, (held.get(c.month) ?? 0) + 1);
    const shakeMonths = new Set(
      p.pendingShakeMonth === 0 ? [...held.keys()].filter((m) => this.engine.canShake(m)) : [],
    );
    for (const c of p.hand) {
      const id = idOf(c);
      if (c.kind === HwatuKind.Bonus) {
        out.push({ type: "bonus", player, card: id });
        continue;
      }
      const choices = this.floorChoices(c.month);
      const variants = choices ? choices.map((t) => ({ take: t })) : [{}];
      for (const v of variants) {
        out.push({ type: "play", player, card: id, ...v });
        if (shakeMonths.has(c.month)) out.push({ type: "play", player, card: id, ...v, shake: true });
      }
    }
    for (const m of [...held.keys()].sort((a, b) => a - b)) {
      if (this.engine.canBomb(m)) out.push({ type: "bomb", player, month: m });
    }
    // the card debt of a bomb (cardDebt) is paid with a flip-only turn: the engine's flipOnly takes
    // one whenever canFlipOnly says so, cards in hand or not (its web app offers it only with an
    // empty hand; the adapter translates the engine, not the app)
    if (this.engine.canFlipOnly()) out.push({ type: "skip", player });
    return out;
  }

  /** The two table cards a play of `month` may choose between: two cards that are not the same
   * card to the rules (R-CARD-IDS), not a stack. playHandCard's floorChoice takes either (its web
   * app asks only between two kinds, web/main.ts handFloorChoice); otherwise null. */
  floorChoices(month) {
    const st = this.st;
    const on = st.floor.filter((c) => c.month === month);
    if (on.length !== 2 || st.bbeokCreator.has(month)) return null;
    const ids = on.map(idOf).sort(byIndex);
    return sameCard(ids[0], ids[1]) ? null : ids;
  }

  // ------------------------------------------------------------------ actions

  act(a) {
    const st = this.st;
    if (this.over) return err("round_over", "the round is over");
    if (typeof a !== "object" || a === null || typeof a.type !== "string" || !Number.isInteger(a.player)) {
      return err("malformed_action", "an action needs a type and a player");
    }
    const actor = st.current;
    if (a.player !== this.seat(actor)) return err("not_your_turn", `seat ${this.seat(actor)} is to act`);
    const phase = st.phase;
    const allowed = {
      [GamePhase.Playing]: ["play", "bomb", "skip", "shake", "bonus", "dual_to_junk", "chongtong"],
      [GamePhase.AwaitingGoStop]: ["go", "stop", "dual_to_junk"],
      [GamePhase.AwaitingFlipChoice]: ["take"],
    }[phase] ?? [];
    if (!allowed.includes(a.type)) return err("wrong_decision", `a ${a.type} does not answer the pending ${this.decision()}`);
    for (const key of ["card", "take"]) {
      if (a[key] !== undefined && !(ALL_IDS.has(a[key]) && this.deckIds.has(a[key]))) {
        return err("unknown_card", `${a[key]} is not a card of this game's deck`);
      }
    }
    const p = st.players[actor];
    const handIndex = (id) => p.hand.findIndex((c) => idOf(c) === id);
    const before = this.snap();
    let pausedCaptures = null;
    let run;
    switch (a.type) {
      case "play": {
        if (a.card === undefined) return err("malformed_action", "play needs a card");
        const k = handIndex(a.card);
        if (k < 0) return err("card_not_in_hand", `${a.card} is not in seat ${a.player}'s hand`);
        const card = p.hand[k];
        if (card.kind === HwatuKind.Bonus) return err("bonus_not_allowed", `${a.card} is a bonus card: play it with a bonus action`);
        const on = st.floor.filter((c) => c.month === card.month);
        let choice = -1; // the engine's "choose the better card" (captureRank), as the app passes it
        if (a.take !== undefined) {
          const t = on.findIndex((c) => idOf(c) === a.take);
          if (t < 0) return err("wrong_month", `${a.take} is not a table card of month ${card.month}`);
          // playHandCard's floorChoice where the two table cards differ; for two equivalent cards
          // the engine's own pick (-1: captureInto/captureRank) is the same card to the rules
          if (this.floorChoices(card.month)) choice = t;
        } else if (this.floorChoices(card.month)) {
          return err("take_required", `two different table cards of month ${card.month}: name one with take`);
        }
        if (a.shake) {
          if (p.pendingShakeMonth !== 0 || !this.engine.canShake(card.month)) {
            return err("shake_not_allowed", `no shake of month ${card.month} can be declared with this play`);
          }
        }
        run = () => {
          if (a.shake) this.engine.declareShake(card.month);
          this.engine.playHandCard(p.hand.indexOf(card), choice);
        };
        break;
      }
      case "bonus": {
        const k = a.card === undefined ? -1 : handIndex(a.card);
        if (a.card === undefined) return err("malformed_action", "bonus needs a card");
        if (k < 0) return err("card_not_in_hand", `${a.card} is not in seat ${a.player}'s hand`);
        if (p.hand[k].kind !== HwatuKind.Bonus) return err("bonus_not_allowed", `${a.card} is not a bonus card`);
        run = () => this.engine.playHandCard(k, -1);
        break;
      }
      case "bomb": {
        if (!Number.isInteger(a.month)) return err("malformed_action", "bomb needs a month");
        if (!this.engine.canBomb(a.month)) return err("bomb_not_allowed", `no bomb of month ${a.month} now`);
        run = () => this.engine.playBomb(a.month);
        break;
      }
      case "skip":
        if (!this.engine.canFlipOnly()) return err("no_skip_credit", `seat ${a.player} holds no usable skip credit`);
        run = () => this.engine.flipOnly();
        break;
      case "shake":
        // the engine's shake is shown and then a card of that month must be played at once
        // (declareShake + enforceShakeMonth): it is declared with the play (play + shake: true)
        return err("shake_not_allowed", "gostop-ts declares a shake together with the play of one of the cards (play with shake: true)");
      case "chongtong":
        // hand chongtong ends the round at the deal (applyHandChongtong); the app never offers
        // declareChongtong during play
        return err("chongtong_not_allowed", "gostop-ts settles a chongtong at the deal; it is not declared later");
      case "dual_to_junk":
        return err("dual_not_allowed", "gostop-ts allocates the dual card itself (score.ts Scorer.evaluate)");
      case "take": {
        if (a.card === undefined) return err("malformed_action", "take needs a card");
        const options = this.engine.flipChoiceOptions().map(idOf);
        const k = options.indexOf(a.card);
        if (k < 0) return err("wrong_month", `${a.card} is not one of the table cards the flipped card may take`);
        pausedCaptures = this.pending;
        run = () => this.engine.resolveFlipChoice(k);
        break;
      }
      case "go":
        run = () => this.engine.declareGo();
        break;
      case "stop":
        run = () => this.engine.declareStop();
        break;
      default:
        return err("malformed_action", `unknown action type ${a.type}`);
    }
    let log;
    try {
      log = this.record(run);
    } catch (e) {
      // every check the engine makes is made above first, so this is an engine error mid-action
      return err("internal", `gostop-ts threw: ${e && e.message}`);
    }
    // a turn ends with its hand action, or with the choice it paused for
    if (["play", "bomb", "skip", "take"].includes(a.type) && st.phase !== GamePhase.AwaitingFlipChoice) this.turnNo += 1;
    const events = this.translate(log, before, a, pausedCaptures);
    return { events, state: this.state() };
  }

  // ------------------------------------------------------------------ events

  /**
   * The protocol's events for what the engine did. The engine's PlayEvents carry a kind, a player
   * and a month, no cards: the cards come from the state before the action and the state the
   * engine left after each of its events. The order is the protocol's (shake, play, bonus, flip,
   * ppeok / jjok / ttadak / stack_capture, capture, sweep, steal, then go_stop_offered or
   * round_end).
   */
  translate(log, before, a, pausedCaptures = null) {
    const st = this.st;
    const actorE = a.type === "deal" ? 0 : this.eng(a.player);
    const actor = a.type === "deal" ? null : a.player;
    const after = this.snap();
    const head = [];
    const special = [];
    const tail = [];
    let flipCard = null;
    // stock cards turned up by this action, top first
    const drawn = before.stock.slice(after.stock.length).reverse();
    const handPlayed = a.type === "play" ? a.card : null;
    const prevSnap = (i) => (i === 0 ? before : log[i - 1].snap);
    log.forEach(({ e, snap }, i) => {
      const prev = prevSnap(i);
      const who = e.playerIndex >= 0 ? this.seat(e.playerIndex) : null;
      switch (e.kind) {
        case PlayEventKind.Shake: {
          const cards = before.hands[e.playerIndex].filter((id) => monthOfId(id) === e.month);
          head.push({ kind: "shake", player: who, cards, month: e.month });
          this.shaken[who].push(e.month);
          break;
        }
        case PlayEventKind.Bomb: {
          const cards = minus(before.hands[e.playerIndex], snap.hands[e.playerIndex]).filter((id) => monthOfId(id) === e.month);
          head.push({ kind: "bomb", player: who, cards, month: e.month, skip_credits: st.players[e.playerIndex].cardDebt });
          this.bombs[who].push(e.month);
          break;
        }
        case PlayEventKind.BonusCapture: {
          const got = minus(snap.captured[e.playerIndex], prev.captured[e.playerIndex]).filter(isBonusId);
          if (a.type === "deal") {
            // applyFloorBonus: the bonus goes to the dealer, the table gets the next ordinary card
            // applyFloorBonus: the next ordinary card to reach the table after this event
            const later = [...log.slice(i + 1).map((x) => x.snap), after];
            const next = later.find((x) => minus(x.floor, snap.floor).some((id) => !isBonusId(id))) ?? after;
            const replacement = minus(next.floor, snap.floor).filter((id) => !isBonusId(id));
            head.push({ kind: "table_bonus", player: who, cards: [...got, ...replacement.slice(0, 1)] });
          } else if (a.type === "bonus" && got.includes(a.card)) {
            const replacement = minus(after.hands[e.playerIndex], before.hands[e.playerIndex]);
            head.push({ kind: "bonus", player: who, cards: got, source: "hand", replacement });
          } else {
            head.push({ kind: "bonus", player: who, cards: got, source: "flip" });
          }
          break;
        }
        case PlayEventKind.Bbeok: {
          const here = snap.floorCards.filter((c) => c.month === e.month).map((c) => c.id);
          if (e.playerIndex < 0) {
            special.push({ kind: "table_triple", player: null, cards: here, month: e.month });
          } else {
            // a bonus card buried in the stack is listed separately, as the protocol's stacks do; the
            // engine buries this turn's bonus cards after its Bbeok event (playHandCard): read them
            // from the state the action left
            const cards = here.filter((id) => !isBonusId(id));
            const bonus = after.floorCards.filter((c) => c.month === e.month && isBonusId(c.id)).map((c) => c.id);
            special.push({ kind: "ppeok", player: who, cards, month: e.month, bonus, count: st.players[e.playerIndex].bbeokCount });
          }
          break;
        }
        case PlayEventKind.Jabbeok:
        case PlayEventKind.PiSteal: {
          if (e.kind === PlayEventKind.PiSteal && e.month === 0) break; // one junk moved: gathered below
          // resolveThreePileSteal: the fourth card took a stack of `month`
          const stack = before.floorCards.filter((c) => c.month === e.month).map((c) => c.id);
          const taker = handPlayed && monthOfId(handPlayed) === e.month ? handPlayed : drawn.find((id) => monthOfId(id) === e.month);
          const creator = before.creators.get(e.month);
          special.push({
            kind: "stack_capture",
            player: who,
            cards: taker ? [...stack, taker] : stack,
            month: e.month,
            owner: creator === undefined || creator < 0 ? null : this.seat(creator),
          });
          break;
        }
        case PlayEventKind.Jjok:
          special.push({ kind: "jjok", player: who, cards: [handPlayed ?? this.pendingHand, this.flipOf(drawn) ?? this.pendingFlip].filter(Boolean) });
          break;
        case PlayEventKind.Ttadak: {
          const month = e.month;
          const cards = [...(handPlayed ? [handPlayed] : []), ...before.floor.filter((id) => monthOfId(id) === month), this.flipOf(drawn)];
          special.push({ kind: "ttadak", player: who, cards: cards.filter(Boolean) });
          break;
        }
        case PlayEventKind.Sseul:
          // the engine's sweep: the table empty after a turn that captured (play.ts, 싹쓸이)
          tail.push({ kind: "sweep", player: who, definition: "table_empty_at_turn_end" });
          break;
        case PlayEventKind.Chongtong: {
          // applyFloorChongtong (four of the month on the table) or applyHandChongtong
          if (before.floor.filter((id) => monthOfId(id) === e.month).length === 4) {
            const cards = before.floor.filter((id) => monthOfId(id) === e.month);
            head.push({ kind: "table_four", player: who, cards, month: e.month, handling: "dealer_wins_fixed" });
            this.tableFour = true;
          } else {
            const cards = before.hands[e.playerIndex].filter((id) => monthOfId(id) === e.month);
            head.push({ kind: "chongtong", player: who, cards, month: e.month });
          }
          break;
        }
        case PlayEventKind.Sambbeok:
          tail.push({ kind: "three_ppeok", player: who, cards: [] });
          break;
        case PlayEventKind.GoStop:
          tail.push({ kind: "go_stop_offered", player: who, cards: [], base: this.engine.scoreOf(e.playerIndex).total });
          break;
        case PlayEventKind.Go:
        case PlayEventKind.ReverseGo:
          tail.push({ kind: "go", player: who, cards: [], gos: st.players[e.playerIndex].goCount, base: st.players[e.playerIndex].lastGoScore });
          break;
        case PlayEventKind.Stop:
          tail.push({ kind: "stop", player: who, cards: [], base: this.engine.scoreOf(e.playerIndex).total });
          break;
        default:
          break; // Place, Capture (gathered below), TurnPass, Cheotbbeok, Yeonbbeok, Finished (round_end below)
      }
    });

    const out = [];
    if (a.type === "play" || a.type === "bomb" || a.type === "skip") {
      // shake (declared or the engine's own) comes first, then the play, then a stack the hand card
      // took (at once, spec/vocabulary.yaml event_order), then the flips
      out.push(...head.filter((ev) => ev.kind === "shake" || ev.kind === "bomb"));
      if (a.type === "play") out.push({ kind: "play", player: actor, cards: [a.card] });
      const byHand = special.filter((ev) => ev.kind === "stack_capture" && handPlayed && ev.cards.includes(handPlayed));
      out.push(...byHand);
      special.splice(0, special.length, ...special.filter((ev) => !byHand.includes(ev)));
      if (a.type === "skip") out.push({ kind: "skip", player: actor, cards: [], skip_credits: st.players[actorE].cardDebt });
      out.push(...head.filter((ev) => ev.kind === "bonus"));
      flipCard = this.flipOf(drawn);
      if (flipCard) out.push({ kind: "flip", player: actor, cards: [flipCard] });
    } else {
      out.push(...head);
    }
    out.push(...special);
    if (a.type !== "deal") {
      // capture: what the actor gained from the table, the hand and the stock (not from opponents'
      // piles; not a bonus card played from the hand, reported by its own event)
      // steals: one event per giver, in the order the engine took from them (stealPiFromOthers
      // walks engine indices from 0, the dealer)
      const stolen = new Map();
      const givers = log.filter(({ e }) => e.kind === PlayEventKind.PiSteal && e.month === 0).map(({ e }) => e.victimIndex);
      // every opponent the engine asked (stealPiFromOthers asks each one `piStealPerEvent` cards
      // per call), whether or not it had a junk card to give
      const asked = this.engine.stealRequests ?? 0;
      for (const o of [...new Set(givers), ...Array.from({ length: this.n }, (_, k) => k)]) {
        if (o === actorE || stolen.has(o)) continue;
        const lost = minus(before.captured[o], after.captured[o]);
        if (lost.length || asked) stolen.set(o, lost);
      }
      const fromOthers = [...stolen.values()].flat();
      let gained = minus(minus(after.captured[actorE], before.captured[actorE]), fromOthers);
      if (a.type === "bonus") gained = minus(gained, [a.card]);
      if (pausedCaptures) gained = [...pausedCaptures, ...gained];
      const paused = st.phase === GamePhase.AwaitingFlipChoice;
      if (paused) {
        // the turn goes on after the choice: report its captures with the rest of the turn
        this.pending = gained.filter((id) => !isBonusId(id) || !head.some((ev) => ev.kind === "bonus" && ev.cards.includes(id)));
        this.pendingHand = handPlayed;
        this.pendingFlip = this.flipOf(drawn);
        this.pendingBonus = head.filter((ev) => ev.kind === "bonus" && ev.source === "flip").flatMap((ev) => ev.cards);
      } else if (gained.length && a.type !== "go" && a.type !== "stop") {
        out.push({ kind: "capture", player: actor, cards: gained });
      }
      out.push(...tail.filter((ev) => ev.kind === "sweep"));
      const requested = asked * this.engine.rules.piStealPerEvent;
      for (const [o, cards] of stolen) {
        const steal = { kind: "steal", player: this.seat(o), to: actor, units: cards.reduce((t, id) => t + unitsOf(id), 0), requested };
        out.push(cards.length ? { ...steal, cards } : steal);
      }
      if (!paused) this.pending = null;
    }
    out.push(...tail.filter((ev) => ev.kind !== "sweep"));
    if (this.over) out.push(this.roundEnd());
    // the protocol's events name a player only when there is one
    return out.map((ev) => (ev.player === null || ev.player === undefined ? (({ player, ...rest }) => rest)(ev) : ev));
  }

  /** The ordinary card this action flipped: the last card it turned up from the stock. */
  flipOf(drawn) {
    const ordinary = drawn.filter((id) => !isBonusId(id));
    return ordinary.length ? ordinary[ordinary.length - 1] : null;
  }

  // ------------------------------------------------------------------ settlement

  kind() {
    const st = this.st;
    if (st.winner < 0) return "nagari";
    if (st.threeBbeok) return "three_ppeok";
    const ct = st.events.find((e) => e.kind === PlayEventKind.Chongtong);
    if (ct) return this.tableFour ? "dealer_wins_fixed" : "chongtong";
    return "stop";
  }

  settlement() {
    const st = this.st;
    const results = this.engine.finalSettlement(); // the engine's own, by engine index
    const net = Array.from({ length: this.n }, (_, s) => results[this.eng(s)].net);
    const kind = this.kind();
    const winner = st.winner < 0 ? null : this.seat(st.winner);
    const out = { kind, winner, net };
    out.payments = [];
    if (kind === "nagari") return out;
    for (let s = 0; s < this.n; s++) if (s !== winner && net[s] < 0) out.payments.push({ from: s, to: winner, amount: -net[s] });
    if (kind !== "stop") {
      // fixed instant wins (finalSettlement): the amount each opponent pays
      out.points = out.payments.length ? out.payments[0].amount : 0;
      out.carry = 1;
      return out;
    }
    // The breakdown of a Stop, from the engine's own Scorer.settle called exactly as
    // finalSettlement calls it (winner: evaluate; each loser: evaluateAsLoser; pibakMaxJunk 7 for
    // two players, 5 for three), so that base, Go points and multipliers can be reported.
    const w = st.players[st.winner];
    const opts = { ...this.engine.rules.score, pibakMaxJunk: this.n >= 3 ? 5 : 7 };
    const win = Scorer.evaluate(w.captured, this.engine.rules.score);
    out.base = win.total;
    out.go_count = w.goCount;
    out.losers = [];
    let first = null;
    for (let s = 0; s < this.n; s++) {
      if (s === winner) continue;
      const e = this.eng(s);
      const lose = Scorer.evaluateAsLoser(st.players[e].captured, opts);
      const settle = Scorer.settle(win, lose, w.goCount, w.shakeCount, opts, w.reverseGo);
      first ??= settle;
      const baks = [];
      if (settle.gwangbak) baks.push("gwang_bak");
      if (settle.pibak) baks.push("pi_bak");
      if (settle.meongbak) baks.push("meong_bak");
      // finalSettlement marks the Go-caller gobak even at gobakMultiplier 1, where two players pay
      // nothing extra (go_bak_mode off) and three players pay for all (pay_for_all)
      if (results[e].gobak && (this.n > 2 || this.engine.rules.score.gobakMultiplier > 1)) baks.push("go_bak");
      // amount: what this loser owes on their own account; with one loser the go-bak doubling
      // (finalSettlement: total x gobakMultiplier) is their own, with two it is the pay-for-all
      const amount = this.n === 2 ? -net[s] : settle.points;
      out.losers.push({ seat: s, baks, amount, pays: -net[s], exempt: false });
    }
    if (first) {
      const bakFactor = (first.gwangbak ? 2 : 1) * (first.pibak ? 2 : 1) * (first.meongbak ? 2 : 1);
      out.go_points = first.goBonus;
      out.go_multiplier = first.goMultiplier;
      out.shake_bomb_factor = first.multiplier / first.goMultiplier / bakFactor;
      out.meongtta = 1;
      out.carry = 1;
      out.points = (win.total + first.goBonus) * first.multiplier / bakFactor;
    }
    out.winner_breakdown = this.breakdown(st.winner);
    return out;
  }

  roundEnd() {
    const s = this.settlement();
    return { kind: "round_end", player: s.winner, cards: [], outcome: s.kind, net: s.net };
  }

  /** A seat's score as the engine counts it (TurnEngine.scoreOf = Scorer.evaluate). */
  breakdown(e) {
    const b = this.engine.scoreOf(e);
    const pile = this.st.players[e].captured;
    const junkCards = pile.filter((c) => c.kind === HwatuKind.Junk || c.kind === HwatuKind.Bonus).length + (b.gukjinAsPi ? 1 : 0);
    const dans = [];
    if (b.hongdanPoints) dans.push("hong");
    if (b.cheongdanPoints) dans.push("cheong");
    if (b.chodanPoints) dans.push("cho");
    return {
      brights: b.brightCount,
      bright_points: b.brightPoints,
      animals: b.animalCount,
      animal_points: b.animalPoints,
      godori_points: b.godoriPoints,
      ribbons: b.ribbonCount,
      ribbon_points: b.ribbonPoints,
      dans,
      dan_points: b.hongdanPoints + b.cheongdanPoints + b.chodanPoints,
      junk_units: b.junkValue,
      junk_cards: junkCards,
      junk_points: b.junkPoints,
      extra_points: 0,
      base: b.total,
      winner_bonus: 0,
      dual_as_junk: b.gukjinAsPi ? pile.filter((c) => c.isGukjin).map(idOf) : [],
    };
  }

  score() {
    const scores = Array.from({ length: this.n }, (_, s) => this.breakdown(this.eng(s)));
    // no `next`: the next dealer and the stakes are kept by the app (web/main.ts), not the engine
    return { scores, settlement: this.over ? this.settlement() : null };
  }
}

// ---------------------------------------------------------------------------- the protocol

/** An explicit deal the engine can take, or the error saying why not. */
function checkDeal(ruleset, deal) {
  if (!deal || "seed" in deal) return err("unsupported", "gostop-ts adapter: only explicit deals (no seeded_deal feature)");
  const n = deal.hands.length;
  if (n !== ruleset.options.players) return err("bad_deal", `${n} hands for players = ${ruleset.options.players}`);
  if ((deal.nagari_streak ?? 0) > 0 || (deal.carried_multiplier ?? 1) > 1) {
    return err("unsupported", "gostop-ts has no nagari carry (web/main.ts keeps the stakes outside the engine)");
  }
  if (deal.players?.some((p) => (p.dual_junk ?? []).length)) {
    return err("unsupported", "gostop-ts has no dual_junk state (the dual card is allocated by Scorer.evaluate)");
  }
  const deckIds = new Set([...STANDARD_IDS, ...bonusIds(ruleset.options.bonus_cards)]);
  const places = [...deal.hands.flat(), ...deal.table, ...deal.stock, ...(deal.captured ?? []).flat()];
  for (const id of places) {
    if (!deckIds.has(id)) return err("bad_deal", `${id} is not a card of this ruleset's deck`);
    if (!TEMPLATE.has(id)) return err("unsupported", `gostop-ts has no card ${id} (its bonus cards are 쌍피, 쌍피, 3피)`);
  }
  if (new Set(places).size !== places.length || places.length !== deckIds.size) {
    return err("bad_deal", "every card of the deck must be dealt exactly once");
  }
  return null;
}

let game = null;
const noGame = () => err("no_game", "no game in progress: send new_game first");

const handlers = {
  hello: () => ({
    protocol: "1",
    engine: { name: "gostop-ts", version: ENGINE_VERSION, language: "typescript (node, via peers/gostop-ts/adapter.mjs)", homepage: "https://github.com/bipark/gostop-ts" },
    ...DECLARATION,
    features: [],
    // The engine plays on when the stock runs dry with cards still in hand, where our rule ends the
    // round (R-ROUND-END); no real deal without bonus cards gets there, so it declines those positions.
    positions: "reachable",
  }),
  new_game: ({ ruleset, deal }) => {
    game = null;
    const problem = checkDeal(ruleset, deal);
    if (problem) return problem;
    const { rules, error } = engineRules(ruleset.options);
    if (error) return err("unsupported", error);
    game = new Round(ruleset, deal, rules);
    return { events: game.dealEvents, state: game.state() };
  },
  legal: () => {
    if (!game) return noGame();
    return { player: game.over ? null : game.seat(game.st.current), decision: game.decision(), actions: game.legal() };
  },
  act: ({ action }) => (game ? game.act(action) : noGame()),
  score: () => (game ? game.score() : noGame()),
};

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ seq: null, error: { code: "bad_request", message: `invalid JSON: ${e.message}` } }) + "\n");
    return;
  }
  const seq = Number.isInteger(msg?.seq) ? msg.seq : null;
  if (msg?.cmd === "bye") {
    process.stdout.write(JSON.stringify({ seq }) + "\n");
    rl.close();
    return;
  }
  const handler = handlers[msg?.cmd];
  let reply;
  try {
    reply = handler ? handler(msg) : err("bad_request", `unknown cmd ${JSON.stringify(msg?.cmd)}`);
  } catch (e) {
    console.error(e);
    reply = err("internal", `${e && e.name}: ${e && e.message}`);
  }
  process.stdout.write(JSON.stringify({ seq, ...reply }) + "\n");
});
