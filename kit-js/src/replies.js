// Builders of what an adapter reports: a state, a player's round state, a stack, a score, a
// settlement, an event. Each checks what it built against its definition of the protocol schema
// (kit-js/src/shape.js: the names, kinds and basic types, with the JSON path of the first mistake), so
// that an adapter's bug shows where it is made rather than as a harness failure later; the harness's
// full check of every reply stays the judge.
import { DATA, frozen } from "./data.js";
import { KitError } from "./errors.js";
import { checked, show } from "./shape.js";

/** The fields each event kind carries besides kind (spec/vocabulary.yaml, events). */
export const EVENT_FIELDS = frozen(structuredClone(DATA.event_fields));
/** The fields each action type takes besides type and player (spec/vocabulary.yaml, actions). */
export const ACTION_FIELDS = frozen(structuredClone(DATA.action_fields));

const STACK = DATA.schema.state.properties.stacks.items;

// a list of what was given; anything else as it is, for the schema check to name
function list(items) {
  return items !== null && typeof items === "object" && typeof items[Symbol.iterator] === "function" ? [...items] : items;
}

function lists(items) {
  const outer = list(items);
  return Array.isArray(outer) ? outer.map(list) : outer;
}

/**
 * A player's round state besides the cards (player_state). Every field is reported, as the protocol
 * asks of every field an engine knows: a scenario that names one compares it.
 */
export function player({
  gos = 0,
  goBase = 0,
  shakenMonths = [],
  bombs = [],
  skipCredits = 0,
  ppeoks = 0,
  dualJunk = [],
  firstGoTurn,
} = {}) {
  const found = {
    gos,
    go_base: goBase,
    shaken_months: list(shakenMonths),
    bombs: list(bombs),
    skip_credits: skipCredits,
    ppeoks,
    dual_junk: list(dualJunk),
  };
  if (firstGoTurn !== undefined && firstGoTurn !== null) found.first_go_turn = firstGoTurn;
  return checked(found, "player_state", "player");
}

/** A stack on the table (R-PPEOK, R-TABLE-TRIPLE): its three cards are in the table too. */
export function stack(month, owner, cards, bonus = []) {
  return checked({ month, owner, cards: list(cards), bonus: list(bonus) }, STACK, "stack", "state.stacks[]");
}

/**
 * The whole observable state of a reply (state). `stock` is top first; `table` holds every table
 * card, the stacks' three included; `inPlay` the cards of a turn paused at a choose_hand_match or
 * choose_flip_match decision. A field left undefined is not reported: report every one the engine
 * knows (the harness compares a field whenever a scenario names it).
 */
export function state({
  decision,
  toAct,
  hands,
  table,
  stock,
  captured,
  stacks = [],
  inPlay = [],
  turn,
  dealer,
  players,
  nagariStreak,
  awards,
} = {}) {
  const found = {
    decision,
    to_act: toAct,
    hands: lists(hands),
    table: list(table),
    stacks: list(stacks),
    stock: list(stock),
    captured: lists(captured),
    in_play: list(inPlay),
  };
  for (const [name, number] of [
    ["turn", turn],
    ["dealer", dealer],
    ["nagari_streak", nagariStreak],
  ]) {
    if (number !== undefined && number !== null) found[name] = number;
  }
  if (players !== undefined && players !== null) found.players = list(players);
  // the first-turn awards paid so far, [payer, payee, points]: the award events are derived from them
  if (awards !== undefined && awards !== null) found.awards = Array.from(awards, (a) => [...a]);
  return checked(found, "state", "state");
}

/** A player's base score by category (score), the fields named as the protocol names them: brights, bright_points, ..., base. */
export function score(categories = {}) {
  return checked({ ...categories }, "score", "score");
}

/**
 * The result of a finished round (settlement): kind, winner, net, payments and what its kind
 * carries (spec/vocabulary.yaml, settlements), named as the protocol names them.
 */
export function settlement(fields) {
  return checked({ ...fields }, "settlement", "settlement");
}

/** One event (event): its kind first, then the fields spec/vocabulary.yaml lists for it. */
export function event(kind, fields = {}) {
  const allowed = EVENT_FIELDS[kind];
  if (typeof kind !== "string" || !Object.hasOwn(EVENT_FIELDS, kind)) {
    throw new KitError(`event.kind: ${show(kind)} is not an event kind of spec/vocabulary.yaml`);
  }
  const extra = Object.keys(fields)
    .filter((f) => !allowed.includes(f) && f !== "clauses")
    .sort();
  if (extra.length) throw new KitError(`event ${kind}: ${extra.join(", ")} not among its fields (${[...allowed].sort().join(", ")})`);
  return checked({ kind, ...fields }, "event", "event");
}

/**
 * A protocol action as a plain object with only the fields its type takes (an absent shake is false,
 * and is left out).
 */
export function plainAction(raw) {
  const type = raw.type;
  const found = { type, player: raw.player };
  for (const name of Object.hasOwn(ACTION_FIELDS, type) ? ACTION_FIELDS[type] : []) {
    const value = raw[name];
    if (value !== undefined && value !== null && !(name === "shake" && value === false)) found[name] = value;
  }
  return found;
}
