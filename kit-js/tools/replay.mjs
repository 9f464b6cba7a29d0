#!/usr/bin/env node
// The JavaScript kit replayed on what the Python side recorded (tests/kit/test_js_kit.py): JSON lines
// on stdin, each a case the reference engine (or the Python kit) answered, and the kit's answer
// compared with it. One JSON line per mismatch on stdout, then {"summary": {case type: count}}.
//
//   {"type": "options", "key": K, "options": {...}}             the options of the cases that name K
//   {"type": "deal", "where", "options": K, "deal", "state", "settlement", "events"}
//       a new_game: deriveDealEvents, and a fresh EventDeriver for the round's acts
//   {"type": "act", "where", "options": K, "before", "after", "action", "scores", "settlement",
//    "legal", "stateless"?, "events"}
//       an act: the round's EventDeriver, or deriveEvents without earlier acts when stateless
//   {"type": "check", "where", "options": K, "state", "legal", "forced", "candidates": [[action, code]]}
//       checkAction on each candidate: the rejection code, or null for an accepted action
//   {"type": "seeded", "where", "options": K, "raw", "expected": {dealer, hands, table, stock}}
//   {"type": "close", "where", "word", "expected": [...]}        the hello builder's suggestions
import { createInterface } from "node:readline";
import { Deal, EventDeriver, Rejected, Ruleset, checkAction, deriveDealEvents, deriveEvents } from "../index.js";
import { closeMatches } from "../src/hello.js";
import { encodeJson, parseJson } from "../src/json.js";
import { DATA } from "../src/data.js";

const MAX_SHOWN = 20;
const options = new Map();
const counts = {};
let shown = 0;
let deriver = null;

// JSON with sorted keys: the events are compared as the Python test compares dicts
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  }
  return value;
}

function same(a, b) {
  return encodeJson(canonical(a)) === encodeJson(canonical(b));
}

function mismatch(record, expected, got) {
  if (shown++ >= MAX_SHOWN) return;
  process.stdout.write(`${encodeJson({ type: record.type, where: record.where, expected, got })}\n`);
}

function outcome(run) {
  try {
    return run();
  } catch (error) {
    return { thrown: `${error.name}: ${error.message}`, stack: String(error.stack).split("\n").slice(1, 4) };
  }
}

const CASES = {
  options(record) {
    options.set(record.key, record.options);
  },
  deal(record) {
    const o = options.get(record.options);
    deriver = new EventDeriver();
    const got = outcome(() => deriver.newGame(record.deal, record.state, { options: o, settlement: record.settlement }));
    if (!same(got, record.events)) mismatch(record, record.events, got);
  },
  act(record) {
    const o = options.get(record.options);
    const given = { scores: record.scores, settlement: record.settlement, legal: record.legal };
    const got = outcome(() =>
      record.stateless
        ? deriveEvents(record.before, record.after, record.action, { options: o, ...given })
        : deriver.act(record.before, record.after, record.action, given),
    );
    if (!same(got, record.events)) mismatch(record, record.events, got);
  },
  check(record) {
    const o = options.get(record.options);
    const { player, decision, actions } = record.legal;
    for (const [candidate, code] of record.candidates) {
      const got = outcome(() => {
        try {
          checkAction(candidate, { player, decision, actions, state: record.state, options: o, forced: record.forced });
          return null;
        } catch (error) {
          if (error instanceof Rejected) return error.code;
          throw error;
        }
      });
      counts.candidate = (counts.candidate ?? 0) + 1;
      if (!same(got, code)) mismatch({ ...record, where: `${record.where}: ${encodeJson(candidate)}` }, code, got);
    }
  },
  seeded(record) {
    const o = options.get(record.options);
    const ruleset = new Ruleset("seeded", o);
    const got = outcome(() => {
      const deal = Deal.fromJson(record.raw, ruleset).explicit(ruleset);
      return { dealer: deal.dealer, hands: deal.hands, table: deal.table, stock: deal.stock };
    });
    if (!same(got, record.expected)) mismatch(record, record.expected, got);
  },
  close(record) {
    const got = closeMatches(record.word, Object.keys(DATA.options));
    if (!same(got, record.expected)) mismatch(record, record.expected, got);
  },
};

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const record = parseJson(line);
  CASES[record.type](record);
  counts[record.type] = (counts[record.type] ?? 0) + 1;
}
process.stdout.write(`${encodeJson({ summary: counts, mismatches: shown })}\n`);
