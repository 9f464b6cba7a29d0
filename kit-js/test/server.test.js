import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { test } from "node:test";
import { Legal, PROTOCOL, Scores, Session, Unsupported, hello, player, score, serve, state } from "../index.js";
import { encode } from "../src/server.js";
import { MATGO, orderedDeal } from "../tools/fixtures.js";

const RULESET = { id: "matgo-2p", options: MATGO };

/**
 * A tiny engine: seat 0 plays any hand card onto the table and that is all (no flip, no capture), its
 * own events reported; the deal's events left to the kit. `wait` makes every method a Promise.
 */
class Tiny {
  constructor({ events, wait = false, deriveActs = false } = {}) {
    this.declared = events;
    this.wait = wait;
    this.deriveActs = deriveActs;
    this.played = [];
    this.current = null;
  }

  later(value) {
    return this.wait ? new Promise((resolve) => setTimeout(() => resolve(value), 1)) : value;
  }

  hello() {
    return this.later({ ...hello("tiny", "1", { rulesets: ["matgo-2p"], events: this.declared }), seq: 99, protocol: "9" });
  }

  newGame(ruleset, deal) {
    if (deal.seed !== null) throw new Unsupported("explicit deals only");
    this.current = state({
      decision: "turn",
      toAct: 0,
      hands: deal.hands,
      table: deal.table,
      stock: deal.stock,
      captured: deal.captured,
      players: [player(), player()],
      turn: 0,
      dealer: deal.dealer,
    });
    return this.later(null);
  }

  state() {
    return this.later(this.current);
  }

  legal() {
    return this.later(
      new Legal(
        0,
        "turn",
        this.current.hands[0].map((c) => ({ type: "play", player: 0, card: c })),
      ),
    );
  }

  act(action) {
    this.played.push(action);
    // in place, as an engine's own objects change: the kit keeps its own copies of the states
    this.current.hands[0].splice(this.current.hands[0].indexOf(action.card), 1);
    this.current.table.push(action.card);
    return this.later(this.deriveActs ? null : [{ kind: "play", player: 0, cards: [action.card] }]);
  }

  score() {
    return this.later(new Scores([score({ base: 0 }), score({ base: 0 })], null));
  }
}

/** A writer that keeps each write apart. */
function sink() {
  const writes = [];
  return {
    writes,
    write(text, callback) {
      writes.push(text);
      callback?.();
      return true;
    },
    replies() {
      return writes
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    },
  };
}

async function run(engine, requests, { chunks = null, debug = false } = {}) {
  const lines = requests.map((r) => (typeof r === "string" ? r : `${JSON.stringify(r)}\n`));
  const out = sink();
  const status = await serve(engine, { stdin: Readable.from(chunks ?? [Buffer.from(lines.join(""))]), stdout: out, debug });
  assert.equal(status, 0);
  return out;
}

test("requests sent ahead are each answered with their seq, in one write, until bye", async () => {
  const out = await run(new Tiny(), [
    { seq: 1, cmd: "hello", protocol: "1" },
    { seq: 2, cmd: "new_game", ruleset: RULESET, deal: orderedDeal() },
    { seq: 3, cmd: "legal" },
    { seq: 4, cmd: "score" },
    { seq: 5, cmd: "bye" },
    { seq: 6, cmd: "legal" }, // after bye: never answered
  ]);
  assert.equal(out.writes.length, 1);
  const replies = out.replies();
  assert.deepEqual(
    replies.map((r) => r.seq),
    [1, 2, 3, 4, 5],
  );
  assert.equal(replies[0].protocol, PROTOCOL); // the kit's seq and protocol, whatever the engine says
  assert.equal(replies[1].state.decision, "turn");
  assert.deepEqual(replies[1].events, [{ kind: "deal", dealer: 0, first_player: 0 }]); // derived from the deal
  assert.equal(replies[2].actions.length, 10);
  assert.equal(replies[3].settlement, null);
});

test("requests in separate reads are answered read by read; a last line without its newline too", async () => {
  const chunks = [
    `${JSON.stringify({ seq: 1, cmd: "hello", protocol: "1" })}\n{"seq": 2, "cmd"`,
    ': "score"}\n\n   \n{"seq": 3, "cmd": "bye"}',
  ];
  const out = await run(new Tiny(), [], { chunks });
  assert.deepEqual(
    out.replies().map((r) => r.seq),
    [1, 2, 3],
  );
  assert.equal(out.replies()[1].error.code, "no_game");
  assert.equal(out.writes.length, 3); // before each read that may block, and at the end
});

test("a malformed request gets a located bad_request, and the loop goes on", async () => {
  const out = await run(new Tiny(), [
    "not json\n",
    { seq: 1, cmd: "new_game", ruleset: RULESET, deal: { dealer: 0, hands: "x", table: [], stock: [] } },
    { seq: 2, cmd: "legal" },
    { seq: 3, cmd: "teleport" },
    { seq: 4, cmd: "act", action: { type: "play", player: 0, card: "m01-bright", extra: 1 } },
    { seq: -1, cmd: "legal" },
    { seq: 5, cmd: "new_game", ruleset: RULESET, deal: { seed: 1, hands: [] } },
  ]);
  const [notJson, badDeal, noGame, unknown, extra, negative, seedAndHands] = out.replies();
  assert.deepEqual(notJson, { seq: null, error: { code: "bad_request", message: notJson.error.message } });
  assert.match(notJson.error.message, /^the line is not JSON/);
  assert.equal(badDeal.seq, 1);
  assert.equal(badDeal.error.code, "bad_request");
  assert.match(badDeal.error.message, /^request.deal.hands: "x" is not of type 'array' \(spec\/protocol: request\)$/);
  assert.equal(noGame.error.code, "no_game");
  assert.match(unknown.error.message, /^request.cmd: "teleport" is not one of hello, new_game, legal, score, bye, act, perft/);
  assert.match(extra.error.message, /^request.action.extra: additional properties are not allowed/);
  assert.equal(negative.seq, null);
  assert.match(negative.error.message, /^request.seq: -1 is less than the minimum of 0/);
  assert.match(seedAndHands.error.message, /^request.deal/);
});

test("an illegal action is refused by the kit before the engine sees it; a needless take is dropped", async () => {
  const engine = new Tiny();
  const deal = orderedDeal();
  const out = await run(engine, [
    { seq: 1, cmd: "new_game", ruleset: RULESET, deal },
    { seq: 2, cmd: "act", action: { type: "play", player: 1, card: deal.hands[1][0] } },
    { seq: 3, cmd: "act", action: { type: "play", player: 0, card: deal.hands[1][0] } },
    { seq: 4, cmd: "act", action: { type: "play", player: 0, card: "m01-bright", take: "m01-junk-1" } },
    { seq: 5, cmd: "act", action: { type: "play", player: 0, card: "m02-animal" } },
  ]);
  const replies = out.replies();
  assert.equal(replies[1].error.code, "not_your_turn");
  assert.equal(replies[2].error.code, "card_not_in_hand");
  assert.deepEqual(replies[3].events, [{ kind: "play", player: 0, cards: ["m01-bright"] }]);
  assert.ok(replies[4].state.table.includes("m02-animal"));
  assert.deepEqual(engine.played, [
    { type: "play", player: 0, card: "m01-bright" },
    { type: "play", player: 0, card: "m02-animal" },
  ]);
});

test("an engine whose methods are Promises is served the same", async () => {
  const out = await run(new Tiny({ wait: true }), [
    { seq: 1, cmd: "hello", protocol: "1" },
    { seq: 2, cmd: "new_game", ruleset: RULESET, deal: orderedDeal() },
    { seq: 3, cmd: "act", action: { type: "play", player: 0, card: "m01-bright" } },
    { seq: 4, cmd: "legal" },
  ]);
  const replies = out.replies();
  assert.deepEqual(
    replies.map((r) => r.seq),
    [1, 2, 3, 4],
  );
  assert.equal(replies[3].actions.length, 9);
});

class Broken extends Tiny {
  state() {
    return { ...super.state(), hands: "nothing" };
  }

  score() {
    throw new TypeError("the engine's own bug");
  }
}

test("an engine's bug is an internal error naming the mistake, and the loop goes on", async () => {
  const replies = (
    await run(new Broken(), [
      { seq: 1, cmd: "new_game", ruleset: RULESET, deal: orderedDeal() },
      { seq: 2, cmd: "score" },
      { seq: 3, cmd: "perft", depth: 1 },
      { seq: 4, cmd: "new_game", ruleset: RULESET, deal: { seed: 3 } },
    ])
  ).replies();
  assert.equal(replies[0].error.code, "internal");
  assert.match(replies[0].error.message, /^KitError: new_game reply.state.hands: "nothing" is not of type 'array'/);
  assert.equal(replies[1].error.code, "internal");
  assert.match(replies[1].error.message, /^TypeError: the engine's own bug \(at server.test.js:\d+ in Broken.score\)$/);
  assert.equal(replies[2].error.code, "unsupported");
  assert.deepEqual(replies[3].error, { code: "unsupported", message: "explicit deals only" });
});

test("an engine that reports no events gets none derived", async () => {
  const replies = (
    await run(new Tiny({ events: "none", deriveActs: true }), [
      { seq: 1, cmd: "hello", protocol: "1" },
      { seq: 2, cmd: "new_game", ruleset: RULESET, deal: orderedDeal() },
      { seq: 3, cmd: "act", action: { type: "play", player: 0, card: "m01-bright" } },
    ])
  ).replies();
  assert.equal(replies[0].events, "none");
  assert.deepEqual(replies[1].events, []);
  assert.deepEqual(replies[2].events, []);
});

test("a line longer than LINE_LIMIT is dropped with a bad_request, and the next one read", async () => {
  const long = `{"seq": 1, "cmd": "legal", "x": "${"a".repeat((1 << 20) + 200000)}"}\n`;
  const chunks = [];
  for (let i = 0; i < long.length; i += 65536) chunks.push(long.slice(i, i + 65536));
  chunks.push('{"seq": 2, "cmd": "bye"}\n');
  const replies = (await run(new Tiny(), [], { chunks })).replies();
  assert.equal(replies[0].seq, null);
  assert.match(replies[0].error.message, /longer than 1048576 bytes/);
  assert.equal(replies[1].seq, 2);
});

test("debug logs every message on stderr", async () => {
  const logged = [];
  const write = process.stderr.write;
  process.stderr.write = (text) => logged.push(String(text));
  try {
    await run(new Tiny(), [{ seq: 1, cmd: "hello", protocol: "1" }], { debug: true });
  } finally {
    process.stderr.write = write;
  }
  assert.equal(logged[0], 'kit <- {"seq":1,"cmd":"hello","protocol":"1"}\n');
  assert.match(logged[1], /^kit -> \{"seq":1,"protocol":"1","engine":/);
});

test("a session answers one request at a time; an unserialisable reply is an internal error", async () => {
  const session = new Session(new Tiny());
  assert.deepEqual(await session.answer({ seq: 7, cmd: "legal" }), {
    seq: 7,
    error: { code: "no_game", message: "no game in progress: send new_game before legal" },
  });
  await session.answer({ seq: 8, cmd: "new_game", ruleset: RULESET, deal: orderedDeal() });
  assert.equal(session.ruleset.id, "matgo-2p");
  const cyclic = { seq: 9 };
  cyclic.self = cyclic;
  assert.match(encode(cyclic), /^\{"seq":9,"error":\{"code":"internal","message":"unserialisable reply: /);
  assert.equal(encode({ seq: 2n ** 64n - 1n }), '{"seq":18446744073709551615}\n');
});
