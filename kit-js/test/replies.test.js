import assert from "node:assert/strict";
import { test } from "node:test";
import { ACTION_FIELDS, EVENT_FIELDS, KitError, event, player, score, settlement, stack, state } from "../index.js";

function refused(run, message) {
  assert.throws(run, (error) => error instanceof KitError && message.test(error.message));
}

test("the builders check what they build and name the path of a mistake", () => {
  refused(() => event("capturee", { player: 0 }), /^event.kind: "capturee" is not an event kind/);
  refused(
    () => event("steal", { player: 0, units2: 1 }),
    /^event steal: units2 not among its fields \(cards, player, requested, to, units\)$/,
  );
  refused(() => event("steal", { player: 7 }), /^event.player: 7 is greater than the maximum of 3 \(spec\/protocol: event\)$/);
  refused(() => score({ base: -1 }), /^score.base: -1 is less than the minimum of 0/);
  refused(() => score({ dans: ["red"] }), /^score.dans\[0\]: "red" is not one of "hong", "cheong", "cho"/);
  refused(() => settlement({ kind: "win", net: [1, -1] }), /^settlement.kind: "win" is not one of/);
  refused(() => settlement({ kind: "nagari" }), /^settlement: 'net' is a required property/);
  refused(() => player({ gos: -1 }), /^player.gos: -1 is less than the minimum of 0/);
  refused(() => stack(13, null, []), /^stack.month: 13 is greater than the maximum of 12/);
  const base = { decision: "turn", toAct: 0, hands: [["m01-bright"], []], table: [], stock: [], captured: [[], []] };
  refused(() => state({ ...base, hands: "nothing" }), /^state.hands: "nothing" is not of type 'array'/);
  refused(() => state({ ...base, hands: [["m01-brite"], []] }), /^state.hands\[0\]\[0\]: "m01-brite" does not match/);
  refused(() => state({ ...base, decision: "wait" }), /^state.decision: "wait" is not one of/);
  refused(() => state({ ...base, toAct: undefined }), /^state: 'to_act' is a required property/);
});

test("the builders report every field, named as the protocol names them", () => {
  assert.deepEqual(player({ skipCredits: 2, dualJunk: new Set(["m09-animal"]) }), {
    gos: 0,
    go_base: 0,
    shaken_months: [],
    bombs: [],
    skip_credits: 2,
    ppeoks: 0,
    dual_junk: ["m09-animal"],
  });
  assert.equal(player({ firstGoTurn: 4 }).first_go_turn, 4);
  const built = state({
    decision: "choose_flip_match",
    toAct: 1,
    hands: [new Set(["m01-bright"]), []],
    table: ["m02-animal", "m02-ribbon", "m02-junk-1"],
    stacks: [stack(2, null, ["m02-animal", "m02-ribbon", "m02-junk-1"])],
    stock: ["m03-bright"],
    captured: [[], []],
    inPlay: ["m04-animal"],
    turn: 5,
    dealer: 0,
    players: [player(), player()],
    nagariStreak: 0,
  });
  assert.deepEqual(built.stacks, [{ month: 2, owner: null, cards: ["m02-animal", "m02-ribbon", "m02-junk-1"], bonus: [] }]);
  assert.deepEqual(built.hands, [["m01-bright"], []]);
  assert.equal(built.to_act, 1);
  assert.deepEqual(built.in_play, ["m04-animal"]);
  assert.equal(built.nagari_streak, 0);
  assert.ok(!("turn" in state({ decision: "none", toAct: null, hands: [], table: [], stock: [], captured: [] })));
  assert.deepEqual(event("steal", { player: 1, to: 0, requested: 1, units: 0, clauses: ["R-STEAL"] }).kind, "steal");
  assert.deepEqual(settlement({ kind: "nagari", winner: null, net: [0, 0], void_multiplier: 2 }).void_multiplier, 2);
});

test("the vocabulary's tables are frozen", () => {
  assert.deepEqual(ACTION_FIELDS.play, ["card", "take", "shake"]);
  assert.deepEqual(EVENT_FIELDS.deal, ["dealer", "first_player"]);
  assert.ok(Object.isFrozen(ACTION_FIELDS) && Object.isFrozen(ACTION_FIELDS.play) && Object.isFrozen(EVENT_FIELDS.steal));
});
