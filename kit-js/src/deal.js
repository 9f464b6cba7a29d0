// `new_game` as values: the ruleset the harness sends and the explicit deal, parsed and checked the
// way the protocol's `bad_deal` asks (spec/protocol: explicit_deal), so that an adapter only maps
// places onto its engine.
import { card, deckIds, isCard, month } from "./cards.js";
import { BadDeal, Unsupported } from "./errors.js";
import { seededDeal } from "./seeded.js";
import { show } from "./shape.js";

/**
 * The rules of a round: the named ruleset it is based on and every option value, resolved
 * (spec/options.yaml). Play by `options`, never by the name: a scenario may override any of them.
 */
export class Ruleset {
  constructor(id, options) {
    this.id = id;
    this.options = Object.freeze({ ...options });
    Object.freeze(this);
  }

  get players() {
    return Number(this.options.players);
  }

  get bonusCards() {
    return [...(this.options.bonus_cards ?? [])];
  }

  /** The ids of this configuration's deck (R-BONUS-DECK). */
  get deck() {
    return deckIds(this.bonusCards);
  }

  /** One option's value. */
  get(option) {
    if (!Object.hasOwn(this.options, option)) throw new RangeError(`the ruleset has no option ${JSON.stringify(option)}`);
    return this.options[option];
  }

  static fromJson(raw) {
    return new Ruleset(String(raw.id), raw.options);
  }
}

/**
 * Three cards of a month on the table, taken only by the fourth (R-STACK-CAPTURE); `owner` is the
 * ppeok's creator, null for a dealt triple (R-TABLE-TRIPLE).
 */
export class Stack {
  constructor(month_, owner, cards = []) {
    this.month = month_;
    this.owner = owner;
    this.cards = Object.freeze([...cards]);
    Object.freeze(this);
  }
}

function seat(where, value, n) {
  if (value !== undefined && value !== null && !(value >= 0 && value < n)) {
    throw new BadDeal(`${where}: expected a seat from 0 to ${n - 1}, got ${show(value)}`);
  }
}

function checkCards(ruleset, places) {
  const seen = new Map();
  for (const c of places) {
    if (!isCard(c)) throw new BadDeal(`deal: ${show(c)} is not a card id of spec/deck.yaml`);
    seen.set(c, (seen.get(c) ?? 0) + 1);
  }
  const deck = new Set(ruleset.deck);
  const byIndex = (a, b) => card(a).index - card(b).index;
  const twice = [...seen]
    .filter(([, k]) => k > 1)
    .map(([c]) => c)
    .sort();
  const foreign = [...seen.keys()].filter((c) => !deck.has(c)).sort(byIndex);
  const missing = [...deck].filter((c) => !seen.has(c)).sort(byIndex);
  for (const [problem, cards] of [
    ["twice", twice],
    ["not of this ruleset's deck", foreign],
    ["missing", missing],
  ]) {
    if (cards.length) throw new BadDeal(`deal: cards ${problem}: ${cards.join(", ")}`);
  }
}

/**
 * An explicit deal (every card's place) or a seeded one (`seed` set, the places empty): the engine
 * deals from the seed only if it declared the feature seeded_deal.
 *
 * A fresh round has no captured piles and turn 0; any other deal is a game in progress, which the
 * table's deal-time rules still apply to and the chongtong check does not (explicit_deal).
 */
export class Deal {
  constructor({
    dealer,
    hands = [],
    table = [],
    stock = [],
    captured = [],
    stacks = [],
    players = [],
    firstPlayer = null,
    turn = 0,
    nagariStreak = 0,
    carriedMultiplier = 1,
    seed = null,
    raw = {},
  }) {
    this.dealer = dealer;
    this.hands = Object.freeze(hands.map((h) => Object.freeze([...h])));
    this.table = Object.freeze([...table]);
    this.stock = Object.freeze([...stock]);
    this.captured = Object.freeze(captured.map((p) => Object.freeze([...p])));
    this.stacks = Object.freeze([...stacks]);
    this.players = Object.freeze(players.map((p) => Object.freeze({ ...p })));
    this.firstPlayer = firstPlayer;
    this.turn = turn;
    this.nagariStreak = nagariStreak;
    this.carriedMultiplier = carriedMultiplier;
    this.seed = seed === null || seed === undefined ? null : BigInt(seed);
    this.raw = raw;
    Object.freeze(this);
  }

  /**
   * Whether this is the start of a round: no captured piles in the deal and no turn played. Only
   * then is a dealt chongtong checked (R-CHONGTONG), as the reference engine does: a deal that
   * names its captured piles, even empty ones, is a game in progress.
   */
  get fresh() {
    return this.turn === 0 && (this.raw.captured === undefined || this.raw.captured === null);
  }

  /**
   * The round state of a seat besides its cards (gos, go_base, skip_credits, ...), empty for a fresh
   * round: an absent field has the value of a fresh round.
   */
  player(seat_) {
    return seat_ < this.players.length ? this.players[seat_] : {};
  }

  stackOf(month_) {
    return this.stacks.find((s) => s.month === month_) ?? null;
  }

  /**
   * This deal with every card's place: a seeded deal dealt as R-SHUFFLE and R-DEAL-ORDER say (the
   * dealer drawn first when the request names none, R-FIRST-DEALER), an explicit one as it is. An
   * engine that takes explicit deals only can so declare the feature seeded_deal.
   */
  explicit(ruleset) {
    if (this.seed === null) return this;
    return Deal.fromJson(seededDeal({ ...this.raw, seed: this.seed }, ruleset.options), ruleset);
  }

  /**
   * The deal of a new_game request, checked against the ruleset: BadDeal names what is wrong (a card
   * missing, twice, or not of the deck; the wrong number of hands or piles; a stack without three
   * cards of its month on the table; a seat out of range).
   */
  static fromJson(raw, ruleset) {
    const n = ruleset.players;
    if ("seed" in raw) {
      return new Deal({
        dealer: raw.dealer ?? -1,
        seed: raw.seed,
        raw,
        nagariStreak: Number(raw.nagari_streak ?? 0),
        carriedMultiplier: Number(raw.carried_multiplier ?? 1),
      });
    }
    const hands = raw.hands.map((h) => [...h]);
    if (hands.length !== n) throw new BadDeal(`deal.hands: ${hands.length} hands for ${n} players`);
    const captured = raw.captured?.length ? raw.captured.map((p) => [...p]) : Array.from({ length: n }, () => []);
    if (captured.length !== n) throw new BadDeal(`deal.captured: ${captured.length} piles for ${n} players`);
    const players = raw.players ?? [];
    if (players.length && players.length !== n) throw new BadDeal(`deal.players: ${players.length} entries for ${n} players`);
    seat("deal.dealer", raw.dealer, n);
    seat("deal.first_player", raw.first_player, n);
    const table = [...raw.table];
    const stock = [...raw.stock];
    checkCards(ruleset, [...hands.flat(), ...table, ...stock, ...captured.flat()]);
    const stacks = (raw.stacks ?? []).map((s, k) => {
      const of = table.filter((c) => month(c) === s.month);
      if (of.length !== 3) throw new BadDeal(`deal.stacks[${k}]: the table holds ${of.length} cards of month ${s.month}, a stack is three`);
      seat(`deal.stacks[${k}].owner`, s.owner, n);
      return new Stack(s.month, s.owner ?? null, of);
    });
    return new Deal({
      dealer: raw.dealer,
      hands,
      table,
      stock,
      captured,
      stacks,
      players,
      firstPlayer: raw.first_player ?? null,
      turn: Number(raw.turn ?? 0),
      nagariStreak: Number(raw.nagari_streak ?? 0),
      carriedMultiplier: Number(raw.carried_multiplier ?? 1),
      raw,
    });
  }
}

/**
 * The ruleset and the deal of a new_game request (its shape already checked); Unsupported for a
 * configuration whose deck cannot be made. Unsupported for a seeded deal is the engine's to throw,
 * when it does not declare seeded_deal.
 */
export function newGame(request) {
  const ruleset = Ruleset.fromJson(request.ruleset);
  try {
    void ruleset.deck; // an unknown bonus_cards value fails here, as the engine cannot play it
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw new Unsupported(error.message);
    throw error;
  }
  return [ruleset, Deal.fromJson(request.deal, ruleset)];
}
