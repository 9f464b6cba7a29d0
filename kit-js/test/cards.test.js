import assert from "node:assert/strict";
import { test } from "node:test";
import { card, deckIds, equivalent, isBonus, isCard, kind, month, ofMonth, sortIds, units } from "../index.js";

test("a card carries its month, kind, units, roles and index (R-CARD-IDS)", () => {
  const crane = card("m01-bright");
  assert.equal(crane.index, 0);
  assert.equal(crane.month, 1);
  assert.equal(crane.kind, "bright");
  assert.equal(crane.units, 0);
  assert.equal(card("m01-ribbon").ribbonClass, "hong");
  assert.deepEqual(card("m02-animal").roles, ["godori"]);
  assert.equal(units("m11-double-junk"), 2);
  assert.equal(kind("bonus-3"), "bonus");
  assert.equal(month("bonus-3"), 0);
  assert.ok(isBonus("bonus-2a") && !isBonus("m12-bright"));
  assert.ok(card("bonus-3").isJunk && !card("m09-animal").isJunk);
  assert.ok(Object.isFrozen(crane) && Object.isFrozen(crane.roles));
});

test("an unknown id is named", () => {
  assert.throws(() => card("m13-junk"), { name: "RangeError", message: /"m13-junk" is not a card id of spec\/deck.yaml/ });
  assert.ok(!isCard("m13-junk") && !isCard(5) && isCard("m12-bright"));
});

test("a ruleset's deck has its bonus cards, the n-th of a unit value taking the n-th card (R-BONUS-DECK)", () => {
  assert.equal(deckIds().length, 48);
  assert.deepEqual(deckIds([2, 3]).slice(-2), ["bonus-2a", "bonus-3"]);
  assert.deepEqual(deckIds([2, 2, 2]).slice(-3), ["bonus-2a", "bonus-2b", "bonus-2c"]);
  assert.equal(deckIds([2, 3]), deckIds([2, 3])); // kept: every new_game asks for it
  assert.throws(() => deckIds([3, 3]), /no further bonus card of 3 units/);
});

test("equivalent cards, and the helpers over card lists", () => {
  assert.ok(equivalent("m01-junk-1", "m01-junk-2"));
  assert.ok(equivalent("bonus-2a", "bonus-2b"));
  assert.ok(!equivalent("m01-junk-1", "m02-junk-1"));
  assert.ok(!equivalent("m11-double-junk", "m11-junk-1") && !equivalent("m09-animal", "m10-animal"));
  assert.deepEqual(ofMonth(["m03-bright", "bonus-3", "m01-junk-1", "m03-junk-2"], 3), ["m03-bright", "m03-junk-2"]);
  assert.deepEqual(ofMonth(["bonus-3"], 0), []);
  assert.deepEqual(sortIds(["m12-bright", "bonus-3", "m01-junk-2", "m01-bright"]), ["m01-bright", "m01-junk-2", "m12-bright", "bonus-3"]);
});
