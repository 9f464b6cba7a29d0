#!/usr/bin/env node
// A complete adapter on the JavaScript kit: the suite's own reference engine behind it, seen as a
// third-party engine would be. The reference engine is Python, so it runs as a child process
// (`gostop-reference --stdio`) spoken to over its pipes, which makes every engine method here a
// Promise: the kit awaits them. The engine's events and rejections are thrown away: the kit refuses
// actions from the engine's legal list alone (checkAction) and derives every event from the states
// (deriveEvents), as docs/adapters/kit_reference.py does on the Python kit. It passes the whole
// corpus (tests/kit/test_js_kit.py):
//
//     gostop-conformance run --engine "node kit-js/examples/reference_proxy.mjs .venv/bin/gostop-reference"
//
// Your adapter has the same six methods, each a call into your engine and a mapping of its values
// onto the protocol's (docs/kits.md).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { BadDeal, Legal, Scores, Unsupported, serve } from "../index.js";
import { encodeJson, parseJson } from "../src/json.js";

/** The reference engine's stdio server as a child process: one request at a time, its reply awaited. */
class Child {
  constructor(command, args) {
    this.process = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.seq = 0;
    this.waiting = [];
    this.failed = null;
    createInterface({ input: this.process.stdout, crlfDelay: Infinity }).on("line", (line) =>
      this.waiting.shift()?.resolve(parseJson(line)),
    );
    // a child that cannot start or ends early fails every request waiting and every one after
    const fail = (why) => {
      this.failed = new Error(`${command}: ${why}`);
      for (const w of this.waiting.splice(0)) w.reject(this.failed);
    };
    this.process.on("error", (error) => fail(error.message));
    this.process.stdin.on("error", (error) => fail(error.message));
    this.process.on("exit", (code, signal) => fail(`exited (${signal ?? code})`));
  }

  request(cmd, fields = {}) {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.process.stdin.write(`${encodeJson({ seq: ++this.seq, cmd, ...fields })}\n`);
    });
  }

  close() {
    this.process.stdin.end();
  }
}

/** The kit's Engine over the reference engine's protocol server, its events and rejections thrown away. */
class ReferenceProxy {
  constructor(command, args) {
    this.child = new Child(command, args);
    this.current = null;
    this.memo = new Map(); // legal and score replies until the next act: the kit asks for each twice
  }

  async hello() {
    const { seq, protocol, features = [], ...declared } = await this.child.request("hello", { protocol: "1" });
    // no rule_trace (derived events carry no clauses) and no perft (not served through the kit)
    return { ...declared, features: features.filter((f) => f !== "rule_trace" && f !== "perft") };
  }

  async newGame(ruleset, deal) {
    this.memo.clear();
    const reply = await this.child.request("new_game", { ruleset: { id: ruleset.id, options: ruleset.options }, deal: deal.raw });
    if (reply.error) throw new (reply.error.code === "bad_deal" ? BadDeal : Unsupported)(reply.error.message);
    this.current = reply.state;
    return null;
  }

  state() {
    return this.current;
  }

  async legal() {
    const reply = await this.remembered("legal");
    return new Legal(reply.player, reply.decision, reply.actions);
  }

  async act(action) {
    this.memo.clear();
    const reply = await this.child.request("act", { action });
    // the kit passes on only what the engine listed as legal
    if (reply.error) throw new Error(`the kit passed on an action the engine refuses: ${encodeJson(action)}: ${reply.error.code}`);
    this.current = reply.state;
    return null;
  }

  async score() {
    const reply = await this.remembered("score");
    return new Scores(reply.scores, reply.settlement, reply.next ?? null);
  }

  remembered(cmd) {
    if (!this.memo.has(cmd)) this.memo.set(cmd, this.child.request(cmd));
    return this.memo.get(cmd);
  }
}

const [command = "gostop-reference", ...args] = process.argv.slice(2);
const engine = new ReferenceProxy(command, args.length ? args : ["--stdio"]);
process.exitCode = await serve(engine);
engine.child.close();
