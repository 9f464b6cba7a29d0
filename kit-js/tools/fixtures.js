// Shared by the tests: small options objects (the few options each piece reads; a real new_game sends
// every option of spec/options.yaml) and a deal with no chongtong, bonus card or four of a month.
import { deckIds } from "../index.js";

export const MATGO = Object.freeze({
  players: 2,
  deal_layout: "10-8",
  deal_packet_order: "wp",
  first_dealer: "seeded_random",
  first_player: "dealer",
  bonus_cards: [],
  bonus_replacement_use: "to_hand",
  table_four_of_month: "redeal",
  hand_chongtong: "instant_win",
  must_match_if_possible: false,
  two_match_choice_timing: "at_play",
});

export const STANDARD = Object.freeze({ ...MATGO, players: 3, deal_layout: "7-6" });

/**
 * A deal of matgo-2p that spreads every month: the first card of each month to seat 0 (January to
 * October), the second to seat 1, the third to the table (January to August), the rest to the
 * stock, so that no four and no chongtong is dealt.
 */
export function orderedDeal(changes = {}) {
  const ids = [...deckIds()];
  const byPlace = [[], [], [], []];
  ids.forEach((c, i) => byPlace[i % 4].push(c));
  const [a, b, c, d] = byPlace;
  return {
    dealer: 0,
    hands: [a.slice(0, 10), b.slice(0, 10)],
    table: [...c.slice(0, 8)],
    stock: [...a.slice(10), ...b.slice(10), ...c.slice(8), ...d],
    ...changes,
  };
}
