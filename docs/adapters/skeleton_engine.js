#!/usr/bin/env node
// SKELETON of a Go-Stop engine adapter for gostop-conformance (protocol version 1), for Node.js.
//
// This is a starting point to fill in, not an engine. It answers the handshake, keeps an explicit
// deal as the state (no deal-time rules yet), and answers `legal`, `act` and `score` with the error
// `unsupported`. Search for TODO. Try it with
//
//     gostop-conformance smoke --engine "node skeleton_engine.js"
//
// The protocol: one JSON object per line on stdin, exactly one JSON reply per line on stdout echoing
// the request's `seq`; stdout carries nothing else (log with console.error). Schema:
// spec/protocol/protocol.schema.json.
"use strict";

const readline = require("readline");

const ENGINE = { name: "my-engine", version: "0.0.1", language: "javascript" };
// TODO: the named rulesets your engine plays with every one of their option values.
const RULESETS = ["matgo-2p"];
// TODO: add "seeded_deal" once your engine deals from a seed as R-SHUFFLE specifies.
const FEATURES = [];

function unsupported(what) {
  return { error: { code: "unsupported", message: `${what} is not implemented yet (skeleton adapter)` } };
}

// One round. TODO: the rules (spec/rules/, the rules pages of the documentation).
class Game {
  constructor(ruleset, deal) {
    this.ruleset = ruleset; // {id, options: {every option of spec/options.yaml, resolved}}
    const players = deal.hands.length;
    const dealer = deal.dealer ?? 0;
    // TODO R-DEAL-BONUS, R-TABLE-TRIPLE, R-TABLE-FOUR, R-CHONGTONG: the deal-time checks.
    // TODO R-TURN-ORDER: the ruleset's `first_player` option says who plays first.
    this.state = {
      decision: "turn",
      to_act: deal.first_player ?? dealer,
      dealer,
      hands: deal.hands.map((hand) => [...hand]),
      table: [...(deal.table ?? [])],
      stacks: [],
      stock: [...(deal.stock ?? [])], // top first
      captured: (deal.captured ?? Array.from({ length: players }, () => [])).map((pile) => [...pile]),
    };
    this.events = [{ kind: "deal", dealer, first_player: this.state.to_act }];
  }
}

let game = null;

const handlers = {
  hello() {
    return { protocol: "1", engine: ENGINE, rulesets: RULESETS, features: FEATURES };
  },
  new_game(request) {
    const { ruleset, deal } = request;
    if (!RULESETS.includes(ruleset.id)) {
      return { error: { code: "unsupported", message: `ruleset ${ruleset.id} is not supported` } };
    }
    if ("seed" in deal) return unsupported("dealing from a seed");
    game = new Game(ruleset, deal);
    return { events: game.events, state: game.state };
  },
  legal() {
    // TODO: {player: seat or null, decision: "turn" | "choose_hand_match" | ..., actions: [...]}
    return unsupported("legal");
  },
  act() {
    // TODO: apply request.action; reply {events: [...], state: {...}}, or refuse it with
    // {error: {code: <a rejection code of spec/vocabulary.yaml>, message}} and change nothing.
    return unsupported("act");
  },
  score() {
    // TODO: {scores: [per seat], settlement: null until the round is over, then {kind, net, ...},
    //        next: {dealer, nagari_streak, counts_as_round} once it is over}
    return unsupported("score");
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
    reply = handler ? handler(request) : { error: { code: "bad_request", message: `unknown cmd ${request.cmd}` } };
  } catch (err) {
    // never die on one bad message: report it and go on
    console.error(err && err.stack ? err.stack : err);
    reply = { error: { code: "internal", message: String(err) } };
  }
  process.stdout.write(JSON.stringify({ seq, ...reply }) + "\n");
});
