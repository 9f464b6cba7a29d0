// The card table an adapter maps its engine's cards onto (R-CARD-IDS, R-BONUS-DECK), generated from
// spec/deck.yaml: ids, months, kinds, junk units, roles, and which cards are equivalent. Nothing here
// is a rule of play.
import { DATA, frozen } from "./data.js";

/** The month of a bonus card, which matches nothing (R-BONUS-DECK). */
export const NO_MONTH = DATA.no_month;

const CARDS = DATA.cards.map((c) =>
  frozen({
    id: c.id,
    index: c.index,
    month: c.month,
    kind: c.kind,
    units: c.units,
    ribbonClass: c.ribbon_class,
    roles: c.roles,
    isBonus: c.kind === "bonus",
    // the junk class: single, double and bonus junk (not the dual-role animals)
    isJunk: c.kind === "junk" || c.kind === "double-junk" || c.kind === "bonus",
  }),
);
const BY_ID = new Map(CARDS.map((c) => [c.id, c]));
const DECKS = new Map();

/** The card of spec/deck.yaml with this id (RangeError names an unknown id). */
export function card(cardId) {
  const found = typeof cardId === "string" ? BY_ID.get(cardId) : undefined;
  if (found === undefined) throw new RangeError(`${JSON.stringify(cardId)} is not a card id of spec/deck.yaml`);
  return found;
}

/** Whether the value is a card id of spec/deck.yaml (any deck, bonus cards included). */
export function isCard(cardId) {
  return typeof cardId === "string" && BY_ID.has(cardId);
}

/** The card's month, 1 to 12; 0 for a bonus card. */
export function month(cardId) {
  return card(cardId).month;
}

/**
 * The junk units the card counts for (R-SCORE-JUNK): 1 a junk, 2 a double junk or a 2-unit bonus
 * card, 3 the 3-unit bonus card, 0 a bright, animal or ribbon (a dual-role card counted as junk
 * counts 2: R-DUAL-ROLE, which the scoring decides, not the card).
 */
export function units(cardId) {
  return card(cardId).units;
}

/** bright, animal, ribbon, double-junk, junk or bonus. */
export function kind(cardId) {
  return card(cardId).kind;
}

export function isBonus(cardId) {
  return card(cardId).isBonus;
}

/**
 * The ids of a ruleset's deck in the deck's order: the 48 month cards, then one extra card per entry
 * of `bonusCards` (the option's unit values), the n-th entry of a unit value taking the n-th extra
 * card of those units in index order (R-BONUS-DECK). RangeError when the deck has too few extra
 * cards of a unit value.
 */
export function deckIds(bonusCards = []) {
  const values = [...bonusCards];
  const key = values.join(",");
  let ids = DECKS.get(key);
  if (ids === undefined) {
    ids = CARDS.filter((c) => !c.isBonus).map((c) => c.id);
    const extras = CARDS.filter((c) => c.isBonus);
    const used = new Set();
    for (const value of values) {
      const pick = extras.find((c) => c.units === value && !used.has(c.id));
      if (pick === undefined) {
        throw new RangeError(`bonus_cards ${JSON.stringify(values)}: the deck has no further bonus card of ${value} units`);
      }
      used.add(pick.id);
      ids.push(pick.id);
    }
    DECKS.set(key, (ids = Object.freeze(ids)));
  }
  return ids;
}

/**
 * Whether two cards are interchangeable (R-CARD-IDS): the same month, kind, units and roles, such as
 * the two single junk of a month or two 2-unit bonus cards. Playing either is one choice, and the
 * harness compares them as one unless a scenario asks for exact ids.
 */
export function equivalent(a, b) {
  const x = card(a);
  const y = card(b);
  return (
    x.month === y.month &&
    x.kind === y.kind &&
    x.units === y.units &&
    x.ribbonClass === y.ribbonClass &&
    x.roles.length === y.roles.length &&
    x.roles.every((r, i) => r === y.roles[i])
  );
}

/** The cards of a month among `cards`, in their order (bonus cards have none). */
export function ofMonth(cards, month_) {
  return [...cards].filter((c) => month_ !== NO_MONTH && card(c).month === month_);
}

/** Card ids in the deck's order (a stable presentation; the protocol compares lists as multisets). */
export function sortIds(cards) {
  return [...cards].sort((a, b) => card(a).index - card(b).index);
}
