import assert from "node:assert/strict";
import { test } from "node:test";
import { BadDeal, Deal, Ruleset, deckIds } from "../index.js";
import { SplitMix64 } from "../src/seeded.js";
import { MATGO, STANDARD } from "../tools/fixtures.js";

const ids = [...deckIds()];
const good = { dealer: 0, hands: [ids.slice(0, 10), ids.slice(10, 20)], table: ids.slice(20, 28), stock: ids.slice(28) };
const matgo = new Ruleset("matgo-2p", MATGO);

test("a good deal is read, fresh, with its places", () => {
  const deal = Deal.fromJson(good, matgo);
  assert.ok(deal.fresh);
  assert.equal(deal.dealer, 0);
  assert.equal(deal.firstPlayer, null);
  assert.deepEqual(deal.hands[1], ids.slice(10, 20));
  assert.deepEqual(deal.captured, [[], []]);
  assert.equal(deal.seed, null);
  assert.equal(deal.explicit(matgo), deal);
  assert.ok(Object.isFrozen(deal) && Object.isFrozen(deal.hands[0]));
});

test("a bad deal says what is wrong (bad_deal)", () => {
  for (const [change, message] of [
    [{ hands: [ids.slice(0, 10)] }, "deal.hands: 1 hands for 2 players"],
    [{ stock: ids.slice(28, -1) }, "deal: cards missing: m12-double-junk"],
    [{ stock: [...ids.slice(28), "bonus-3"] }, "deal: cards not of this ruleset's deck: bonus-3"],
    [{ stock: [...ids.slice(28), "m13-x"] }, 'deal: "m13-x" is not a card id of spec/deck.yaml'],
    [{ stock: [...ids.slice(28), "m01-bright"] }, "deal: cards twice: m01-bright"],
    [{ dealer: 2 }, "deal.dealer: expected a seat from 0 to 1, got 2"],
    [{ first_player: 5 }, "deal.first_player: expected a seat from 0 to 1, got 5"],
    [{ captured: [[]] }, "deal.captured: 1 piles for 2 players"],
    [{ players: [{}, {}, {}] }, "deal.players: 3 entries for 2 players"],
    [{ stacks: [{ month: 12, owner: null }] }, "deal.stacks[0]: the table holds 0 cards of month 12, a stack is three"],
  ]) {
    assert.throws(
      () => Deal.fromJson({ ...good, ...change }, matgo),
      (error) => error instanceof BadDeal && error.code === "bad_deal" && error.message === message,
    );
  }
});

test("a game in progress: captured piles or turns played, the players' round state, its stacks", () => {
  const inProgress = Deal.fromJson({ ...good, turn: 3, players: [{ gos: 1 }, {}] }, matgo);
  assert.ok(!inProgress.fresh);
  assert.equal(inProgress.player(0).gos, 1);
  assert.deepEqual(inProgress.player(1), {});
  // as the reference engine reads a deal: captured piles named, even empty, make a game in progress
  assert.ok(!Deal.fromJson({ ...good, captured: [[], []] }, matgo).fresh);
  const table = [...good.table.slice(0, 5), "m01-bright", "m01-ribbon", "m01-junk-1"];
  const rest = ids.filter((c) => !table.includes(c));
  const stacked = Deal.fromJson(
    { dealer: 1, hands: [rest.slice(0, 10), rest.slice(10, 20)], table, stock: rest.slice(20), stacks: [{ month: 1, owner: 1 }] },
    matgo,
  );
  assert.deepEqual(stacked.stackOf(1).cards, ["m01-bright", "m01-ribbon", "m01-junk-1"]);
  assert.equal(stacked.stackOf(1).owner, 1);
  assert.equal(stacked.stackOf(2), null);
});

test("SplitMix64 is R-SHUFFLE's generator, over the whole 64-bit seed", () => {
  const zero = new SplitMix64(0);
  assert.deepEqual([zero.next(), zero.next(), zero.next()], [0xe220a8397b1dcdafn, 0x6e789e6aa1b965f4n, 0x6c45d188009454fn]);
  const top = new SplitMix64(2n ** 64n - 1n);
  assert.deepEqual([top.next(), top.next()], [0xe4d971771b652c20n, 0xe99ff867dbf682c9n]);
});

// vectors of kit/_seeded.py (tests/kit/test_js_kit.py compares every named ruleset over many seeds)
test("a seeded deal is dealt as R-SHUFFLE, R-DEAL-ORDER and R-FIRST-DEALER say", () => {
  const given = Deal.fromJson({ seed: 7, dealer: 1 }, matgo);
  assert.equal(given.seed, 7n);
  const deal = given.explicit(matgo);
  assert.equal(deal.dealer, 1);
  assert.deepEqual(deal.hands[0].slice(0, 3), ["m01-bright", "m01-junk-2", "m02-animal"]);
  assert.deepEqual(deal.table.slice(0, 3), ["m02-ribbon", "m06-ribbon", "m05-animal"]);
  assert.deepEqual(deal.stock.slice(0, 3), ["m08-bright", "m05-ribbon", "m05-junk-2"]);
  assert.equal(deal.stock.length, 20);
  assert.ok(deal.fresh);

  const standard = new Ruleset("standard-3p", STANDARD);
  const drawn = Deal.fromJson({ seed: 18446744073709551615n }, standard).explicit(standard);
  assert.equal(drawn.dealer, 2);
  assert.deepEqual(drawn.hands[0].slice(0, 3), ["m01-junk-2", "m02-ribbon", "m02-junk-2"]);
  assert.deepEqual(drawn.table.slice(0, 3), ["m02-animal", "m12-double-junk", "m07-junk-2"]);
  assert.equal(drawn.stock.length, 21);

  const online = new Ruleset("matgo-online", { ...MATGO, bonus_cards: [2, 3] });
  const bonus = Deal.fromJson({ seed: 5, nagari_streak: 2 }, online).explicit(online);
  assert.equal(bonus.dealer, 0);
  assert.deepEqual(bonus.stock.slice(0, 3), ["m10-junk-2", "m03-junk-2", "m01-ribbon"]);
  assert.equal(bonus.stock.length, 22);
  assert.equal(bonus.nagariStreak, 2);

  for (const [firstDealer, dealers] of [
    ["draw_day_high", [2, 1, 0, 2, 0, 0, 1, 1]],
    ["draw_night_low", [0, 2, 1, 0, 2, 1, 0, 0]],
  ]) {
    const rules = new Ruleset("standard-3p", { ...STANDARD, first_dealer: firstDealer });
    assert.deepEqual(
      dealers.map((_, seed) => Deal.fromJson({ seed }, rules).explicit(rules).dealer),
      dealers,
    );
  }
});

test("a ruleset plays by its options", () => {
  const online = new Ruleset("matgo-online", { ...MATGO, bonus_cards: [2, 3] });
  assert.equal(online.players, 2);
  assert.deepEqual(online.bonusCards, [2, 3]);
  assert.equal(online.deck.length, 50);
  assert.equal(online.get("deal_layout"), "10-8");
  assert.throws(() => online.get("nothing"), RangeError);
  assert.ok(Object.isFrozen(online.options));
  assert.deepEqual(Ruleset.fromJson({ id: "x", options: MATGO }).options, MATGO);
});
