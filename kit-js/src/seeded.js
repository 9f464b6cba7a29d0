// A seeded deal spelled out (R-SHUFFLE, R-DEAL-ORDER, R-FIRST-DEALER), so that an engine that takes
// explicit deals only can still declare the feature seeded_deal, and so that the kit can derive a
// seeded deal's events. Written from the clauses' text, as kit/_seeded.py: SplitMix64 (in BigInt,
// since its state is 64 bits), its draws taken modulo the bound, a Fisher-Yates shuffle from the last
// card down, packets dealt as spec/deal.yaml orders them.
import { card, deckIds } from "./cards.js";
import { DATA } from "./data.js";

const MASK = (1n << 64n) - 1n;
/** R-FIRST-DEALER's order of kinds when two drawn cards share a month. */
const KIND_RANK = { bright: 5, animal: 4, ribbon: 3, "double-junk": 2, junk: 1 };

/** R-SHUFFLE's generator: identical in every language. */
export class SplitMix64 {
  constructor(seed) {
    this.state = BigInt(seed) & MASK;
  }

  next() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }

  /** next() mod bound: the bias is part of the definition. */
  below(bound) {
    return Number(this.next() % BigInt(bound));
  }

  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
  }
}

/** R-FIRST-DEALER: drawn from the same generator before the shuffle of the deal. */
function firstDealer(options, rng) {
  const n = Number(options.players);
  if (options.first_dealer === "seeded_random") return rng.below(n);
  const monthCards = deckIds();
  const sign = options.first_dealer === "draw_day_high" ? 1 : -1;
  let seats = Array.from({ length: n }, (_, k) => k);
  for (;;) {
    // a full tie: the tied players draw again from a fresh shuffle
    const order = [...monthCards];
    rng.shuffle(order);
    const keys = seats.map((_, k) => [sign * card(order[k]).month, sign * KIND_RANK[card(order[k]).kind]]);
    const best = keys.reduce((m, key) => (key[0] > m[0] || (key[0] === m[0] && key[1] > m[1]) ? key : m));
    seats = seats.filter((_, k) => keys[k][0] === best[0] && keys[k][1] === best[1]);
    if (seats.length === 1) return seats[0];
  }
}

/**
 * The explicit deal (explicit_deal of spec/protocol) of a seeded one ({seed, dealer?, ...}): hands
 * in deck order, the table in dealing order, the stock top first.
 */
export function seededDeal(raw, options) {
  const rng = new SplitMix64(raw.seed);
  const n = Number(options.players);
  let dealer = raw.dealer;
  if (dealer === undefined || dealer === null) dealer = firstDealer(options, rng);
  const cards = [...deckIds(options.bonus_cards ?? [])];
  rng.shuffle(cards);
  const packets = DATA.deal_layouts[options.deal_layout].orders[options.deal_packet_order];
  const hands = Array.from({ length: n }, () => []);
  let table = [];
  let pos = 0;
  for (const packet of packets) {
    if ("table" in packet) {
      table = table.concat(cards.slice(pos, pos + packet.table));
      pos += packet.table;
      continue;
    }
    for (let k = 1; k <= n; k++) {
      // from the seat after the dealer, the dealer last
      hands[(dealer + k) % n].push(...cards.slice(pos, pos + packet.hands));
      pos += packet.hands;
    }
  }
  const deal = {
    dealer,
    hands: hands.map((h) => h.sort((a, b) => card(a).index - card(b).index)),
    table,
    stock: cards.slice(pos),
  };
  for (const name of ["nagari_streak", "carried_multiplier"]) if (name in raw) deal[name] = raw[name];
  return deal;
}
