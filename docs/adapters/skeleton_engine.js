#!/usr/bin/env node
// SKELETON of a Go-Stop engine adapter for gostop-conformance (protocol version 1), for Node.js.
//
// This is a starting point to fill in, not an engine. It answers the handshake, keeps an explicit
// deal (a fresh one or a game in progress) as the state, and answers `legal`, `act` and `score` with
// the error `unsupported` until you write them. Search for TODO. Try it with
//
//     gostop-conformance smoke --engine "node skeleton_engine.js"
//
// The protocol: one JSON object per line on stdin, exactly one JSON reply per line on stdout echoing
// the request's `seq`; stdout carries nothing else (log with console.error). Every field of every
// message is in the protocol reference (docs/protocol.md; schema: spec/protocol/protocol.schema.json,
// names: spec/vocabulary.yaml); whole recorded sessions are in docs/protocol-examples/.
"use strict";

const readline = require("readline");

const ENGINE = { name: "my-engine", version: "0.0.1", language: "javascript" };

// What your engine plays ("The declaration" in the protocol reference). A named ruleset, with every
// option value spec/rulesets resolves for it, except for the options you list here: per option id,
// "all" (any value), a list of the values you play instead of the ruleset's, or "unsupported" (you do
// not implement that option's rule reliably: the scenarios whose outcome depends on it are
// UNSUPPORTED). With exceptions the declaration is {id, options}; without, the id.
// TODO: the ruleset you play, and where your engine differs from it, e.g.
//   const EXCEPTIONS = { two_card_bomb: ["off"], jjok_steal: "all", extra_yaku: "unsupported" };
const RULESET = "matgo-2p";
const EXCEPTIONS = {};
const RULESETS = [Object.keys(EXCEPTIONS).length ? { id: RULESET, options: EXCEPTIONS } : RULESET];
// Option id -> "all" or the values you support in any configuration (optional with a ruleset).
const OPTIONS = {};
// The alternative: claim no ruleset and describe your engine by its options alone. An option you do
// not list is unknown, and only the scenarios whose outcome depends on an unknown option are
// UNSUPPORTED; new_game then names the scenario's own ruleset and you play by ruleset.options.
//   const RULESETS = [];
//   const OPTIONS = { players: [2], scoring_system: ["gostop"], go_threshold: [7], jjok_steal: [1] };
// TODO: add "seeded_deal" once your engine deals from a seed as R-SHUFFLE specifies.
const FEATURES = [];
const CLAIMED = new Set(RULESETS.map((item) => (typeof item === "string" ? item : item.id)));

class NotImplemented extends Error {}
class NoGame extends Error {}

// An error reply: a rejection code of spec/vocabulary.yaml for an illegal act, else an error code.
function error(code, message) {
  return { error: { code, message } };
}

// An event of spec/vocabulary.yaml (`events`): what `player` and `cards` mean, and which other fields
// each kind carries, are listed there per kind (a steal's `player` is the giver, `to` the taker).
function event(kind, player = null, cards = null, fields = {}) {
  const out = { kind };
  if (player !== null) out.player = player;
  if (cards && cards.length) out.cards = cards;
  return Object.assign(out, fields);
}

// A player's round state besides the cards; a deal may leave any field out (a fresh round).
function playerState(given) {
  return {
    gos: given.gos ?? 0,
    go_base: given.go_base ?? 0,
    shaken_months: [...(given.shaken_months ?? [])],
    bombs: [...(given.bombs ?? [])],
    skip_credits: given.skip_credits ?? 0,
    ppeoks: given.ppeoks ?? 0,
    dual_junk: [...(given.dual_junk ?? [])],
  };
}

// One round. TODO: the rules (docs/rules/index.md, spec/rules/).
class Game {
  constructor(ruleset, deal) {
    this.ruleset = ruleset; // {id, options: {every option of spec/options.yaml, resolved}}: play by the options
    const players = deal.hands.length;
    const dealer = deal.dealer ?? 0;
    // The table's deal-time rules apply to every deal, a game in progress included (a deal with
    // captured piles or a turn count); only the chongtong check is for a fresh round alone (no
    // captured, turn 0): the protocol's `deal` (docs/protocol.md) states it once for every page.
    // TODO R-DEAL-BONUS, R-TABLE-FOUR, R-TABLE-TRIPLE, and for a fresh round R-CHONGTONG: the deal-time rules,
    // each with its events (event_order new_game: table_bonus* deal table_four... table_triple* chongtong*).
    // TODO R-TURN-ORDER: without deal.first_player, the option first_player says who plays first.
    const table = [...(deal.table ?? [])];
    this.state = {
      decision: "turn",
      to_act: deal.first_player ?? dealer,
      hands: deal.hands.map((hand) => [...hand]),
      table, // the cards of stacks too; a stack's buried bonus cards are in stacks[].bonus only
      stacks: (deal.stacks ?? []).map((stack) => ({
        month: stack.month,
        owner: stack.owner, // the ppeok's creator, or null for a dealt triple
        cards: table.filter((card) => card.startsWith(`m${String(stack.month).padStart(2, "0")}-`)),
        bonus: [],
      })),
      stock: [...(deal.stock ?? [])], // top first
      captured: (deal.captured ?? Array.from({ length: players }, () => [])).map((pile) => [...pile]),
      in_play: [], // the cards of a turn paused at choose_hand_match / choose_flip_match
      turn: deal.turn ?? 0,
      dealer,
      players: (deal.players ?? Array.from({ length: players }, () => ({}))).map(playerState),
      nagari_streak: deal.nagari_streak ?? 0,
      awards: [], // first-turn awards paid so far, [payer, payee, points] (R-FIRST-TURN-AWARD)
    };
    this.carriedMultiplier = deal.carried_multiplier ?? 1;
    this.events = [event("deal", null, null, { dealer, first_player: this.state.to_act })];
  }

  legal() {
    // TODO: {player: seat or null, decision: "turn" | "choose_hand_match" | "choose_flip_match" |
    //        "go_stop" | "none", actions: [every legal action]}
    throw new NotImplemented("legal");
  }

  act(action) {
    // TODO: refuse an illegal action with error(<rejection code>, why) and change nothing. Otherwise
    // apply it and return {events, state: this.state}, the events in the order of
    // spec/vocabulary.yaml (event_order). For a play:
    //   [shake] play [stack_capture] bonus* flip                      (a choose_* decision pauses here)
    //   [jjok|ppeok|ttadak] [stack_capture] capture [sweep] award*    (one capture of all the turn took)
    //   steal_exempt* steal*                                          (one steal per paying opponent)
    //   [go_stop_offered | round_end]
    // e.g. event("play", seat, [card]), event("flip", seat, [flipped]), event("capture", seat, taken),
    //      event("steal", giver, surrendered, { to: seat, requested: 1, units: 1 })
    throw new NotImplemented("act");
  }

  scores() {
    // TODO: per seat, the base score by category (R-SCORE-SUM): {brights, bright_points, animals,
    // animal_points, godori_points, ribbons, ribbon_points, dans, dan_points, junk_units, junk_cards,
    // junk_points, base, ...}; the harness recomputes `base` from the captured pile.
    throw new NotImplemented("score");
  }

  settlement() {
    // TODO: null while the round goes on; then {kind: "stop" | "nagari" | ..., winner, net: [per seat],
    // payments: [{from, to, amount}], and for a stop base, go_count, go_points, go_multiplier,
    // shake_bomb_factor, meongtta, carry, points, losers: [{seat, baks: ["pi_bak", ...], amount, pays, exempt}]}.
    throw new NotImplemented("score");
  }

  nextRound() {
    // TODO: once over: {dealer, nagari_streak, carried_multiplier, counts_as_round} (R-NEXT-DEALER)
    throw new NotImplemented("score");
  }
}

let game = null;

function current() {
  if (game === null) throw new NoGame("no game in progress: send new_game first");
  return game;
}

const handlers = {
  hello() {
    const reply = { protocol: "1", engine: ENGINE, rulesets: RULESETS, features: FEATURES };
    if (Object.keys(OPTIONS).length) reply.options = OPTIONS;
    return reply;
  },
  new_game(request) {
    const { ruleset, deal } = request;
    if (CLAIMED.size && !CLAIMED.has(ruleset.id)) {
      return error("unsupported", `ruleset ${ruleset.id} is not supported`);
    }
    // TODO: refuse option values you do not play: error("unsupported", ...); a deal that is not a deal
    // of the ruleset (a card missing or twice): error("bad_deal", ...).
    if ("seed" in deal) return error("unsupported", "dealing from a seed is not implemented yet (skeleton adapter)");
    game = new Game(ruleset, deal);
    return { events: game.events, state: game.state };
  },
  legal() {
    return current().legal();
  },
  act(request) {
    return current().act(request.action);
  },
  score() {
    const g = current();
    const settlement = g.settlement();
    const reply = { scores: g.scores(), settlement };
    if (settlement !== null) reply.next = g.nextRound();
    return reply;
  },
};

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let seq = null;
  let reply;
  try {
    const request = JSON.parse(line);
    seq = request.seq ?? null;
    if (request.cmd === "bye") {
      process.stdout.write(JSON.stringify({ seq }) + "\n");
      rl.close();
      return;
    }
    const handler = handlers[request.cmd];
    reply = handler ? handler(request) : error("bad_request", `unknown cmd ${request.cmd}`);
  } catch (err) {
    if (err instanceof NotImplemented) {
      reply = error("unsupported", `${err.message} is not implemented yet (skeleton adapter)`);
    } else if (err instanceof NoGame) {
      reply = error("no_game", err.message);
    } else {
      // never die on one bad message: report it and go on
      console.error(err && err.stack ? err.stack : err);
      reply = error("internal", String(err));
    }
  }
  process.stdout.write(JSON.stringify({ seq, ...reply }) + "\n");
});
