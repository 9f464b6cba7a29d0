import assert from "node:assert/strict";
import { test } from "node:test";
import { Rejected, checkAction } from "../index.js";
import { MATGO } from "../tools/fixtures.js";

// seat 0 to play: January and February pair with the table, March matches nothing; two different
// cards of February lie on the table, one of January
const STATE = {
  decision: "turn",
  to_act: 0,
  hands: [["m01-junk-1", "m02-junk-1", "m03-bright", "m04-animal"], ["m05-animal"]],
  table: ["m01-bright", "m02-animal", "m02-ribbon", "m06-junk-1"],
  stacks: [],
  stock: ["m07-junk-1"],
  captured: [[], []],
  players: [{ skip_credits: 0 }, {}],
};
// what the engine lists: every hand card, February only with a take
const LEGAL = [
  { type: "play", player: 0, card: "m01-junk-1" },
  { type: "play", player: 0, card: "m02-junk-1", take: "m02-animal" },
  { type: "play", player: 0, card: "m02-junk-1", take: "m02-ribbon" },
  { type: "play", player: 0, card: "m03-bright" },
  { type: "play", player: 0, card: "m04-animal" },
];

function check(action, { options = MATGO, decision = "turn", player = 0, state = STATE, forced = null, actions = LEGAL } = {}) {
  try {
    return checkAction(action, { player, decision, actions, state, options, forced });
  } catch (error) {
    if (error instanceof Rejected) return error.code;
    throw error;
  }
}

test("an action the engine lists is accepted as it is, its needless fields dropped", () => {
  assert.deepEqual(check({ type: "play", player: 0, card: "m03-bright" }), { type: "play", player: 0, card: "m03-bright" });
  assert.deepEqual(check({ type: "play", player: 0, card: "m03-bright", shake: false, month: 3 }), {
    type: "play",
    player: 0,
    card: "m03-bright",
  });
});

test("a take the rules do not need changes nothing (protocol: action.take)", () => {
  assert.deepEqual(check({ type: "play", player: 0, card: "m01-junk-1", take: "m01-bright" }), {
    type: "play",
    player: 0,
    card: "m01-junk-1",
  });
  assert.equal(check({ type: "play", player: 0, card: "m01-junk-1", take: "m02-animal" }), "wrong_month");
});

test("each mistake gets the rejection code spec/vocabulary.yaml gives it (R-TURN)", () => {
  const cases = [
    [{ type: "play", player: 1, card: "m05-animal" }, {}, "not_your_turn"],
    [{ type: "go", player: 0 }, {}, "wrong_decision"],
    [{ type: "play", player: 0, card: "m05-animal" }, {}, "card_not_in_hand"],
    [{ type: "play", player: 0, card: "m13-junk" }, {}, "unknown_card"],
    [{ type: "play", player: 0, card: "bonus-3" }, {}, "unknown_card"],
    [{ type: "play", player: 0, card: "m02-junk-1" }, {}, "take_required"],
    [
      { type: "play", player: 0, card: "m02-junk-1", take: "m02-animal" },
      { options: { ...MATGO, two_match_choice_timing: "after_flip" }, actions: [] },
      "wrong_decision",
    ],
    [{ type: "play", player: 0, card: "m03-bright" }, { options: { ...MATGO, must_match_if_possible: true }, actions: [] }, "must_match"],
    [{ type: "play", player: 0, card: "m03-bright", shake: true }, {}, "shake_not_allowed"],
    [{ type: "skip", player: 0 }, {}, "no_skip_credit"],
    [{ type: "bomb", player: 0, month: 1 }, {}, "bomb_not_allowed"],
    [{ type: "bonus", player: 0, card: "m03-bright" }, {}, "bonus_not_allowed"],
    [{ type: "dual_to_junk", player: 0, card: "m09-animal" }, {}, "dual_not_allowed"],
    [{ type: "chongtong", player: 0, month: 1 }, {}, "chongtong_not_allowed"],
    [{ type: "play", player: 0, card: "m03-bright" }, { decision: "none", player: null, actions: [] }, "round_over"],
    [{ type: "take", player: 0, card: "m01-bright" }, { decision: "choose_flip_match", actions: [] }, "wrong_month"],
    [{ type: "play", player: 0, card: "m03-bright" }, { forced: "m04-animal", actions: [] }, "must_play_replacement"],
  ];
  for (const [action, context, code] of cases) assert.equal(check(action, context), code, JSON.stringify(action));
});

test("only bonus cards in hand: one must be played (R-BONUS-HAND)", () => {
  const state = { ...STATE, hands: [["bonus-3"], []], players: [{ skip_credits: 1 }, {}] };
  const options = { ...MATGO, bonus_cards: [3] };
  assert.equal(
    check({ type: "skip", player: 0 }, { state, options, actions: [{ type: "bonus", player: 0, card: "bonus-3" }] }),
    "must_play_bonus",
  );
  assert.equal(check({ type: "play", player: 0, card: "bonus-3" }, { state, options, actions: [] }), "bonus_not_allowed");
});
