#!/usr/bin/env node
// The peer side of benchmarks/peer.py: random full rounds of bipark/gostop-ts, driven in process.
//
//     node benchmarks/peer_driver.mjs /path/to/gostop-ts
//
// The peer is NOT part of this repository (its licence is non-commercial): this file loads a
// checkout of it given on the command line, compiling its src/index.ts in memory with the
// checkout's own esbuild (as peers/gostop-ts/adapter.mjs does), and calls its public API. It
// reads commands on stdin, one a line, and answers each with one JSON line on stdout:
//
//     run <bonus off|on> <rounds>  ->  {"seconds": s, "rounds": n, "actions": a}
//
// The workload is benchmarks/rounds.py's: round k is dealt from a deck shuffled with seed k, and
// at every decision a seeded random player picks uniformly among the actions the engine accepts
// now (the ones its app offers: a hand card, with the table card to take where the app asks and
// with a shake where one may be shown, a bomb, a flip-only turn with an empty hand, Go or Stop,
// and the flip's choice between two table cards). Two players; bonus cards off (48 cards) or on
// (the engine's three: two double junk and a triple junk).
//
// The shuffle and the random player use xorshift32 here rather than the engine's BigInt LCG
// (Deck.shuffleSeeded): the cheapest generator we could write, so that the driver never slows
// the peer's figure down.

import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";

const ROOT = process.argv[2];
if (!ROOT) {
  console.error("peer_driver: pass the path of a gostop-ts checkout");
  process.exit(2);
}

async function loadEngine(root) {
  const base = path.resolve(root);
  const require = createRequire(path.join(base, "package.json"));
  const esbuild = require("esbuild"); // the checkout's own (a dependency of its vite)
  const built = await esbuild.build({
    entryPoints: [path.join(base, "src", "index.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
  });
  const version = require("./package.json").version ?? "unknown";
  const code = built.outputFiles[0].text;
  return { E: await import("data:text/javascript;base64," + Buffer.from(code).toString("base64")), version };
}

const { E, version } = await loadEngine(ROOT);
const { Deck, DeckOptions, Dealer, DealConfig, GameState, TurnEngine, GamePhase, HwatuKind, RuleSet } = E;

// ---------------------------------------------------------------------------- the random source

/** xorshift32 (Marsaglia), never zero: seed k gives stream k. */
function xorshift(seed) {
  let s = (seed * 2654435761 + 0x9e3779b9) >>> 0 || 1;
  return (bound) => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % bound;
  };
}

// ---------------------------------------------------------------------------- legal actions

// An action is one small integer: kind | hand index << 3 | (table choice + 1) << 9 | month << 11
const PLAY = 0;
const PLAY_SHAKE = 1;
const BOMB = 2;
const SKIP = 3;
const GO = 4;
const STOP = 5;
const FLIP_TAKE = 6;

const actions = new Int32Array(64);

/** The actions the engine accepts now, into `actions`; their count. */
function legal(engine, st) {
  let n = 0;
  if (st.phase === GamePhase.AwaitingGoStop) {
    actions[n++] = GO;
    actions[n++] = STOP;
    return n;
  }
  if (st.phase === GamePhase.AwaitingFlipChoice) {
    actions[n++] = FLIP_TAKE;
    actions[n++] = FLIP_TAKE | (1 << 9);
    return n;
  }
  const hand = st.players[st.current].hand;
  const floor = st.floor;
  const held = new Int8Array(13);
  for (const c of hand) held[c.month]++;
  for (let i = 0; i < hand.length; i++) {
    const c = hand[i];
    if (c.kind === HwatuKind.Bonus) {
      actions[n++] = PLAY | (i << 3);
      continue;
    }
    const m = c.month;
    // two table cards of different kinds (not a stack): the app asks which one (handFloorChoice)
    let first = null;
    let second = null;
    let on = 0;
    for (const t of floor) {
      if (t.month !== m) continue;
      if (on === 0) first = t;
      else second = t;
      on++;
    }
    const shake = held[m] >= 3;
    if (on === 2 && first.kind !== second.kind && !st.bbeokCreator.has(m)) {
      for (let k = 0; k < 2; k++) {
        actions[n++] = PLAY | (i << 3) | ((k + 1) << 9);
        if (shake) actions[n++] = PLAY_SHAKE | (i << 3) | ((k + 1) << 9) | (m << 11);
      }
    } else {
      actions[n++] = PLAY | (i << 3);
      if (shake) actions[n++] = PLAY_SHAKE | (i << 3) | (m << 11);
    }
  }
  for (let m = 1; m <= 12; m++) {
    if (held[m] >= 3 && engine.canBomb(m)) actions[n++] = BOMB | (m << 11);
  }
  if (hand.length === 0 && engine.canFlipOnly()) actions[n++] = SKIP;
  return n;
}

function apply(engine, a) {
  const kind = a & 7;
  const index = (a >> 3) & 63;
  const choice = ((a >> 9) & 3) - 1;
  const month = a >> 11;
  switch (kind) {
    case PLAY_SHAKE:
      engine.declareShake(month);
    // falls through: the shake is shown with the play
    case PLAY:
      engine.playHandCard(index, choice);
      break;
    case BOMB:
      engine.playBomb(month);
      break;
    case SKIP:
      engine.flipOnly();
      break;
    case GO:
      engine.declareGo();
      break;
    case STOP:
      engine.declareStop();
      break;
    case FLIP_TAKE:
      engine.resolveFlipChoice(choice + 1);
      break;
  }
}

// ---------------------------------------------------------------------------- rounds

/** `rounds` random rounds (seeds 0 .. rounds - 1); the actions played. */
function play(bonus, rounds) {
  const config = DealConfig.forPlayers(2);
  const deckOptions = bonus ? DeckOptions.withBonus(3) : DeckOptions.standard();
  let played = 0;
  for (let seed = 0; seed < rounds; seed++) {
    const deck = new Deck(deckOptions);
    const cards = deck.cards; // the deck's own array, end = top: shuffled in place (Fisher-Yates)
    const shuffle = xorshift(seed);
    for (let i = cards.length - 1; i >= 1; i--) {
      const j = shuffle(i + 1);
      const t = cards[i];
      cards[i] = cards[j];
      cards[j] = t;
    }
    const table = Dealer.deal(deck, config);
    const state = new GameState(["P0", "P1"]);
    state.players[0].hand = table.hand(0);
    state.players[1].hand = table.hand(1);
    state.floor = table.floor;
    state.stock = table.stock;
    const engine = new TurnEngine(state, RuleSet.default());
    engine.flipChoiceEnabled = true; // the flip's choice is the player's, as in our engine
    engine.bonusDrawEnabled = false;
    // web/main.ts dealAndStart, in its order
    if (!engine.applyHandChongtong() && !engine.applyFloorChongtong()) {
      engine.applyFloorBbeok();
      engine.applyFloorBonus();
    }
    const choose = xorshift(seed ^ 0x5deece66);
    while (state.phase !== GamePhase.Finished) {
      const n = legal(engine, state);
      if (n === 0) throw new Error(`seed ${seed}: no legal action in phase ${state.phase}`);
      apply(engine, actions[choose(n)]);
      played++;
    }
  }
  return played;
}

console.log(JSON.stringify({ ready: true, version }));
const input = readline.createInterface({ input: process.stdin });
for await (const text of input) {
  const [command, bonus, rounds] = text.trim().split(/\s+/);
  if (command !== "run") {
    console.log(JSON.stringify({ error: `unknown command ${JSON.stringify(text)}` }));
    continue;
  }
  const start = process.hrtime.bigint();
  const played = play(bonus === "on", Number(rounds));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(JSON.stringify({ seconds, rounds: Number(rounds), actions: played }));
}
