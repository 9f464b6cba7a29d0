import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";
import { DATA } from "../src/data.js";
import { problem, valid } from "../src/shape.js";

// The recorded protocol sessions of docs/protocol-examples: every request and reply a reference
// engine exchanged, as the values the fast check and the explaining walk are held equal over.
const EXAMPLES = new URL("../../docs/protocol-examples/", import.meta.url);
const MESSAGES = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith(".jsonl"))
  .flatMap((name) => readFileSync(new URL(name, EXAMPLES), "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line)));

// a deterministic generator (SplitMix-like over 32 bits) so that a failure names its seed
function rng(seed) {
  let x = seed >>> 0;
  return () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

const ODD_VALUES = [null, true, 0, -1, 1.5, 99, "", "x", "m01-bright", [], {}, [1], { a: 1 }, undefined, 2n ** 64n];

// one random change somewhere inside `value`: a field dropped, added or replaced, an item replaced
function mutated(value, random) {
  const copy = structuredClone(value);
  const paths = [];
  (function walk(node, path) {
    paths.push(path);
    if (node !== null && typeof node === "object") for (const key of Object.keys(node)) walk(node[key], [...path, key]);
  })(copy, []);
  const path = paths[Math.floor(random() * paths.length)];
  const odd = ODD_VALUES[Math.floor(random() * ODD_VALUES.length)];
  if (path.length === 0) return random() < 0.5 ? odd : copy;
  const parent = path.slice(0, -1).reduce((node, key) => node[key], copy);
  const key = path[path.length - 1];
  const roll = random();
  if (roll < 0.25 && !Array.isArray(parent)) delete parent[key];
  else if (roll < 0.4 && !Array.isArray(parent)) parent[`extra${Math.floor(random() * 3)}`] = odd;
  else parent[key] = odd;
  return copy;
}

const DEFINITIONS = Object.keys(DATA.schema);

test("the compiled check and the explaining walk agree on every recorded message and its mutations", () => {
  assert.ok(MESSAGES.length > 50, "the recorded sessions are there");
  const random = rng(42);
  let failing = 0;
  let checked = 0;
  for (const message of MESSAGES) {
    for (const candidate of [message, ...Array.from({ length: 20 }, () => mutated(message, random))]) {
      for (const definition of DEFINITIONS) {
        const slow = problem(candidate, definition) === null;
        assert.equal(valid(candidate, definition), slow, `${definition} on ${JSON.stringify(candidate, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))}`);
        checked++;
        if (!slow) failing++;
      }
    }
  }
  // both outcomes were exercised many times over: the agreement is not on one side only
  assert.ok(failing > 1000 && checked - failing > 1000, `${checked} checks, ${failing} failing`);
});

test("a reply the schema refuses is refused by the compiled check, with the walk's reason", () => {
  const state = MESSAGES.find((m) => m.state !== undefined).state;
  assert.equal(valid(state, "state"), true);
  const broken = { ...state, hands: [["m13-bright"]] };
  assert.equal(valid(broken, "state"), false);
  assert.match(problem(broken, "state", ["state"]).message, /m13-bright/);
});
