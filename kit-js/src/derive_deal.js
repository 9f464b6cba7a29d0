// The events of a `new_game` reply derived from the deal and the state after it (event_order new_game:
// R-DEAL-BONUS, R-TABLE-FOUR, R-TABLE-TRIPLE, R-CHONGTONG, R-REDEAL, R-ROUND-END), and the pieces
// derive.js shares with it: the event builder, the round_end event and the multiset arithmetic on
// card lists. A port of kit/_derive_deal.py, kept line for line so that both kits derive alike
// (tests/kit/test_js_kit.py).
//
// A deal fixes every card's place, so the deal-time events follow from it and the options alone; the
// settlement (the score reply's) says how a round that ends at the deal ends.
import { card, isBonus, month, sortIds } from "./cards.js";

/**
 * The table_four_of_month values that end the round at the first four (R-TABLE-FOUR); the other one,
 * dealer_captures_four, lets the dealer take each four and the deal go on.
 */
const FOUR_ENDS = new Set(["redeal", "nagari", "dealer_wins_fixed"]);
/**
 * hand_chongtong values under which no chongtong is looked for at the deal: `ignore`, and
 * `instant_win_or_continue`, where the holder shows it with an action instead (R-CHONGTONG).
 */
const NO_DEALT_CHONGTONG = new Set(["ignore", "instant_win_or_continue"]);

/**
 * An event as the reference engine writes it: `player` left out when no player is concerned,
 * `cards` when there are none (spec/vocabulary.yaml, events), never `clauses`.
 */
export function makeEvent(kind, player = null, cards = [], data = {}) {
  const out = { kind };
  if (player !== null && player !== undefined) out.player = player;
  const listed = [...cards];
  if (listed.length) out.cards = listed;
  return Object.assign(out, data);
}

/**
 * R-ROUND-END: the winner, the outcome and the nets are the settlement's, which only the score reply
 * after the action carries.
 */
export function roundEnd(settlement) {
  if (settlement === null || settlement === undefined) {
    throw new RangeError("the round is over: round_end needs the settlement of the score reply after it (settlement: ...)");
  }
  return makeEvent("round_end", settlement.winner ?? null, [], { outcome: settlement.kind, net: [...settlement.net] });
}

/** `cards` without `taken`, as multisets (a card list's order carries no meaning), in the deck's order. */
export function minus(cards, taken) {
  const left = new Map();
  for (const c of cards) left.set(c, (left.get(c) ?? 0) + 1);
  for (const c of taken) left.set(c, (left.get(c) ?? 0) - 1);
  const out = [];
  for (const [c, k] of left) for (let i = 0; i < k; i++) out.push(c);
  return sortIds(out);
}

/**
 * The month cards among `cards` grouped by month, each group in the deck's order: a Map, whose
 * order (months as first met in the deck's order) is the Python dict's.
 */
export function byMonth(cards) {
  const out = new Map();
  for (const c of sortIds(cards)) {
    const m = month(c);
    if (m) {
      if (!out.has(m)) out.set(m, []);
      out.get(m).push(c);
    }
  }
  return out;
}

/** R-TURN-ORDER: the deal's `first_player`, else the dealer or the seat after it (option first_player). */
export function firstPlayer(deal, options, players) {
  const named = deal.first_player;
  if (Number.isInteger(named)) return named;
  const dealer = Number(deal.dealer);
  return options.first_player === "dealer" ? dealer : (dealer + 1) % players;
}

/**
 * The events of a `new_game` reply (event_order new_game) from the deal and the state after it.
 *
 * `deal` must be explicit (every card's place, the table in dealing order and the stock top first):
 * a `{seed}` deal does not say which card was dealt where, so pass the deal written out
 * (`Deal.explicit(ruleset).raw`; RangeError otherwise). `options` is the request's
 * `ruleset.options`; `settlement` the score reply's, needed only when the round ends at the deal (a
 * redeal, a void round, a fixed win), since its round_end carries the settlement's winner, outcome
 * and nets.
 *
 * In order: each bonus card dealt to the table goes to the dealer and is replaced in place by the
 * top stock card, which may be one again (table_bonus, R-DEAL-BONUS); the deal; each month with four
 * table cards (table_four, R-TABLE-FOUR), the dealer's capture of it under dealer_captures_four, the
 * first one ending the round under any other handling; the dealt triples with no owner in
 * `deal.stacks` (table_triple, R-TABLE-TRIPLE); on a fresh round (no captured piles, turn 0) each
 * chongtong holder in turn order from the first player, month by month (chongtong, R-CHONGTONG); a
 * redeal and the round_end when the round is over (R-REDEAL, R-ROUND-END).
 */
export function deriveDealEvents(deal, after, { options, settlement = null } = {}) {
  if (!("hands" in deal)) {
    throw new RangeError("deriveDealEvents needs an explicit deal (hands, table, stock): expand a seeded deal first");
  }
  const hands = deal.hands;
  const players = hands.length;
  const dealer = Number(deal.dealer);
  const out = [];
  const layout = [...(deal.table ?? [])];
  const stock = [...(deal.stock ?? [])];
  let pos = 0;
  while (pos < layout.length) {
    // a replacement may be a bonus card itself: the same place is looked at again
    if (!isBonus(layout[pos])) {
      pos += 1;
      continue;
    }
    const bonus = layout[pos];
    if (stock.length) {
      layout[pos] = stock.shift();
      out.push(makeEvent("table_bonus", dealer, [bonus, layout[pos]]));
    } else {
      layout.splice(pos, 1);
      out.push(makeEvent("table_bonus", dealer, [bonus]));
    }
  }
  const first = firstPlayer(deal, options, players);
  out.push(makeEvent("deal", null, [], { dealer, first_player: first }));
  const table = byMonth(layout);
  let ended = false;
  const handling = options.table_four_of_month;
  for (let m = 1; m <= 12; m++) {
    const four = table.get(m) ?? [];
    if (four.length !== 4) continue;
    out.push(makeEvent("table_four", dealer, four, { month: m, handling }));
    if (FOUR_ENDS.has(handling)) {
      ended = true;
      break;
    }
    table.delete(m);
    out.push(makeEvent("capture", dealer, four));
  }
  if (!ended) {
    const owners = new Map((deal.stacks ?? []).map((s) => [Number(s.month), s.owner ?? null]));
    for (const [m, cs] of [...table].sort((x, y) => x[0] - y[0])) {
      if (cs.length === 3 && (owners.get(m) ?? null) === null) out.push(makeEvent("table_triple", null, cs, { month: m }));
    }
    const fresh = (deal.captured === undefined || deal.captured === null) && !deal.turn;
    if (fresh && !NO_DEALT_CHONGTONG.has(options.hand_chongtong)) {
      for (let k = 0; k < players; k++) {
        const seat = (first + k) % players;
        for (const [m, cs] of [...byMonth(hands[seat])].sort((x, y) => x[0] - y[0])) {
          if (cs.length === 4) out.push(makeEvent("chongtong", seat, cs, { month: m }));
        }
      }
    }
  }
  if (after.decision === "none") {
    // the round ended at the deal
    if (settlement !== null && settlement !== undefined && settlement.kind === "redeal")
      out.push(makeEvent("redeal", dealer, [], { dealer }));
    out.push(roundEnd(settlement));
  }
  return out;
}

/** A card's own junk units (R-SCORE-JUNK): those of junk, double junk and bonus cards, 0 otherwise. */
export function junkUnitsOf(cardId) {
  const c = card(cardId);
  return c.isJunk ? c.units : 0;
}
