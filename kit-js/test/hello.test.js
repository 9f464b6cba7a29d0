import assert from "node:assert/strict";
import { test } from "node:test";
import { ALL, KitError, UNSUPPORTED, hello, ruleset } from "../index.js";
import { closeMatches } from "../src/hello.js";

function refused(run, message) {
  assert.throws(run, (error) => error instanceof KitError && message.test(error.message));
}

test("the hello builder names a mistake where it is made", () => {
  refused(
    () => hello("x", "1", { options: { jjok_stael: [1] } }),
    /^hello.options.jjok_stael: unknown option .*did you mean jjok_steal, bomb_steal\?\)$/,
  );
  refused(
    () => hello("x", "1", { options: { jjok_steal: [9] } }),
    /^hello.options.jjok_steal: 9 is not a value of the option: expected an integer from 0 to 5$/,
  );
  refused(() => hello("x", "1", { options: { jjok_steal: [] } }), /expected 'all', 'unsupported', a non-empty list/);
  refused(() => hello("x", "1", { options: { go_bak_mode: ["sometimes"] } }), /expected one of pay_for_all, double_own/);
  refused(() => hello("x", "1", { options: { final_turn_exempt: [["jjok", "jjok"]] } }), /a list of distinct values/);
  refused(() => ruleset("matgo-9p"), /^hello.rulesets: "matgo-9p" is not a ruleset of spec\/rulesets\//);
  refused(() => hello("x", "1", { rulesets: ["matgo-9p"] }), /^hello.rulesets\[0\]/);
  refused(
    () => hello("x", "1", { features: ["seeded_deal", "teleport"] }),
    /^hello.features: teleport not among match, perft, rule_trace, seeded_deal$/,
  );
  refused(() => hello("x", "1", { reasons: { meong: "why" } }), /^hello.reasons: meong: unknown options/);
  refused(() => hello("x", "1", { events: "some" }), /^hello.events: "some" is not one of all, none$/);
  refused(() => hello("x", "1", { positions: "anywhere" }), /^hello.positions/);
  refused(() => hello("x", "1", { options: { go_threshold: { by_players: { 5: [3] } } } }), /by_players: "5" is not a player count/);
  refused(
    () => ruleset("matgo-2p", { go_threshold: { by_players: { 2: [7] } } }),
    /hello.rulesets\[matgo-2p\].options.go_threshold: expected/,
  );
  // the top-level options take no "unsupported" (spec/protocol: reply_hello): the schema says so
  refused(() => hello("x", "1", { options: { jjok_steal: UNSUPPORTED } }), /^hello.options.jjok_steal: /);
});

test("a declaration is built as the protocol writes it", () => {
  const declared = hello("x", "1", {
    rulesets: [ruleset("matgo-2p", { meong_mode: ["off"], jjok_steal: ALL, extra_yaku: UNSUPPORTED }), ruleset("standard-3p")],
    options: { go_threshold: { by_players: { 2: [7], 3: [3] } }, bonus_cards: [[], [2, 3]] },
    language: "javascript",
    features: new Set(["seeded_deal"]),
    positions: "reachable",
    events: "none",
    reasons: { meong_mode: "the engine's source plays no meong" },
  });
  assert.deepEqual(declared, {
    engine: { name: "x", version: "1", language: "javascript" },
    rulesets: [{ id: "matgo-2p", options: { meong_mode: ["off"], jjok_steal: "all", extra_yaku: "unsupported" } }, "standard-3p"],
    options: { go_threshold: { by_players: { 2: [7], 3: [3] } }, bonus_cards: [[], [2, 3]] },
    positions: "reachable",
    features: ["seeded_deal"],
    events: "none",
    reasons: { meong_mode: "the engine's source plays no meong" },
  });
  assert.deepEqual(hello("y", "2"), { engine: { name: "y", version: "2" }, rulesets: [] });
});

test("suggestions are difflib's: best first, at most three, ratio 0.6 or more", () => {
  assert.deepEqual(closeMatches("appel", ["ape", "apple", "peach", "puppy"]), ["apple", "ape"]);
  assert.deepEqual(closeMatches("xyz", ["jjok_steal"]), []);
});
