// Checking an action apart from applying it (R-TURN), from the engine's own legal actions: an action
// among them is accepted, and any other gets the rejection code spec/vocabulary.yaml gives its
// mistake, in the order the reference engine checks them (the decision, the card, the forced card,
// the month, the choice, the shake). The adapter never writes a rejection itself. A port of
// kit/_check.py, kept line for line so that both kits refuse alike (tests/kit/test_js_kit.py).
//
// The state read is the protocol state before the action (hands, table, stacks, players); the
// options are the new_game ruleset's.
import { deckIds, equivalent, isBonus, isCard, month } from "./cards.js";
import { Rejected } from "./errors.js";
import { plainAction } from "./replies.js";
import { show } from "./shape.js";

/** The action types that answer each decision (spec/vocabulary.yaml, decisions and actions). */
const ANSWERS = {
  turn: new Set(["play", "bomb", "skip", "shake", "bonus", "dual_to_junk", "chongtong"]),
  go_stop: new Set(["go", "stop", "dual_to_junk"]),
  choose_hand_match: new Set(["take"]),
  choose_flip_match: new Set(["take"]),
  none: new Set(),
};

function key(a) {
  return JSON.stringify([a.type, a.player, a.card ?? null, a.take ?? null, a.month ?? null, Boolean(a.shake)]);
}

/**
 * The action to apply (a `take` the rules do not need dropped: protocol, action.take), or throws
 * Rejected.
 *
 * `player`, `decision` and `actions` are the engine's legal reply now; `forced` the bonus
 * replacement that must be this turn's hand card (bonus_replacement_use = must_play_replacement;
 * the server tracks it).
 */
export function checkAction(raw, { player, decision, actions, state, options, forced = null }) {
  const a = plainAction(raw);
  const legal = new Map(actions.map((x) => [key(x), x]));
  if (legal.has(key(a))) return a;
  if (decision === "none") throw new Rejected("round_over", "the round is over");
  if (a.player !== player) throw new Rejected("not_your_turn", `seat ${player} is to act, not seat ${a.player}`);
  if (!Object.hasOwn(ANSWERS, decision)) throw new RangeError(`${show(decision)} is not a decision of spec/vocabulary.yaml`);
  if (!ANSWERS[decision].has(a.type)) {
    throw new Rejected("wrong_decision", `the pending decision is ${show(decision)}; a ${show(a.type)} action does not answer it`);
  }
  return new Checker(a, player, decision, legal, state, options, forced ?? null).check();
}

class Checker {
  constructor(a, seat, decision, legal, state, options, forced) {
    this.a = a;
    this.seat = seat;
    this.decision = decision;
    this.legal = legal;
    this.o = options;
    this.forced = forced;
    this.hand = [...state.hands[seat]];
    this.table = [...state.table];
    this.stacked = new Set((state.stacks ?? []).map((s) => s.month));
    const players = state.players ?? [];
    this.me = seat < players.length ? players[seat] : {};
    this.deck = new Set(deckIds(options.bonus_cards ?? []));
  }

  check() {
    const handler = Object.hasOwn(HANDLERS, this.a.type) ? HANDLERS[this.a.type] : undefined;
    const accepted = handler === undefined ? null : handler.call(this);
    if (accepted !== null && accepted !== undefined) return accepted;
    // the engine lists no such action, and no rule above names the mistake: the engine's own legal
    // actions are the authority (the adapter and the rules disagree: a bug to look at). A card it
    // lets be played only with a take asks for one, whatever the options say
    if (this.a.type === "play" && (this.a.take === undefined || this.a.take === null)) {
      const takes = [...this.legal.values()].filter((x) => x.type === "play" && x.card === this.a.card && x.take);
      if (takes.length) {
        throw new Rejected("take_required", `the engine lets ${this.a.card} be played only naming the table card it takes`);
      }
    }
    throw new Rejected(FALLBACK[this.a.type], `${describe(this.a)} is not among the engine's legal actions`);
  }

  card(cardId) {
    if (!isCard(cardId)) throw new Rejected("unknown_card", `${show(cardId)} is not a card id of spec/deck.yaml`);
    if (!this.deck.has(cardId)) {
      const bonus = JSON.stringify(this.o.bonus_cards ?? []);
      throw new Rejected("unknown_card", `${cardId} is not a card of this ruleset's deck (bonus_cards = ${bonus})`);
    }
    return cardId;
  }

  handCard(cardId) {
    const c = this.card(cardId);
    if (!this.hand.includes(c)) throw new Rejected("card_not_in_hand", `${c} is not in seat ${this.seat}'s hand`);
    return c;
  }

  checkForced(c) {
    if (this.forced !== null && c !== this.forced) {
      throw new Rejected(
        "must_play_replacement",
        `the replacement ${this.forced} must be this turn's hand card (bonus_replacement_use = must_play_replacement)`,
      );
    }
  }

  onTable(m) {
    return this.table.filter((c) => !isBonus(c) && month(c) === m);
  }
}

// one per action type, as kit/_check.py's `_<type>` methods: each throws the rejection a rule names,
// or returns the action to apply (a play whose take changes nothing), or nothing (the fallback)
const HANDLERS = {
  /** R-MATCH, R-FREE-PLAY, R-NO-BONUS-MATCH, R-TWO-MATCH-CHOICE, R-SHAKE. */
  play() {
    const { a, o } = this;
    const c = this.handCard(a.card);
    this.checkForced(c);
    if (isBonus(c)) throw new Rejected("bonus_not_allowed", `${c} is a bonus card: it is played with a 'bonus' action and never matches`);
    const m = month(c);
    const on = this.onTable(m);
    const matching = this.hand.some((h) => !isBonus(h) && this.onTable(month(h)).length > 0);
    if (o.must_match_if_possible && on.length === 0 && this.forced === null && matching) {
      throw new Rejected("must_match", `${c} matches nothing on the table, and this ruleset requires playing a matching card`);
    }
    const pair = on.length === 2 && !this.stacked.has(m);
    if (a.take !== undefined && a.take !== null) {
      const named = this.card(a.take);
      if (!on.includes(named)) throw new Rejected("wrong_month", `${named} is not a table card of month ${m}`);
      if (pair && o.two_match_choice_timing === "after_flip") {
        throw new Rejected("wrong_decision", "under two_match_choice_timing = after_flip the table card is chosen after the flip");
      }
      if (!pair || equivalent(on[0], on[1])) {
        // a take the rules do not need changes nothing
        const without = { ...a };
        delete without.take;
        if (this.legal.has(key(without))) return without;
      }
    } else if (pair && o.two_match_choice_timing === "at_play" && !equivalent(on[0], on[1])) {
      throw new Rejected("take_required", `two different table cards of month ${m} (${[...on].sort().join(", ")}): name one with 'take'`);
    }
    if (a.shake) throw new Rejected("shake_not_allowed", `no shake of month ${m} can be declared with this play`);
    return null;
  },

  /** R-BOMB, R-BOMB-TWO. */
  bomb() {
    this.checkForced(null);
    throw new Rejected("bomb_not_allowed", `seat ${this.seat} cannot bomb month ${this.a.month} now`);
  },

  /** R-BOMB-SKIP, R-BONUS-HAND. */
  skip() {
    this.checkForced(null);
    if (Number(this.me.skip_credits ?? 0) <= 0) throw new Rejected("no_skip_credit", `seat ${this.seat} holds no skip credit`);
    if (this.hand.length && this.hand.every((c) => isBonus(c))) {
      throw new Rejected("must_play_bonus", "only bonus cards are left in hand: one must be played (R-BONUS-HAND)");
    }
    return null;
  },

  shake() {
    throw new Rejected("shake_not_allowed", `seat ${this.seat} cannot shake month ${this.a.month} now`);
  },

  /** R-BONUS-HAND. */
  bonus() {
    const c = this.handCard(this.a.card);
    this.checkForced(c);
    const why = !isBonus(c) ? "is not a bonus card" : "cannot be played now (R-BONUS-HAND)";
    throw new Rejected("bonus_not_allowed", `${c} ${why}`);
  },

  chongtong() {
    throw new Rejected("chongtong_not_allowed", `seat ${this.seat} cannot declare a chongtong of month ${this.a.month} now`);
  },

  dual_to_junk() {
    const c = this.card(this.a.card);
    throw new Rejected("dual_not_allowed", `${c} is not a captured dual-role card of seat ${this.seat} that can move to junk`);
  },

  take() {
    const c = this.card(this.a.card);
    throw new Rejected("wrong_month", `${c} is not a table card the pending choice can take`);
  },

  go() {
    throw new Rejected("go_not_allowed", "Go is not allowed now (R-GO-WHEN, R-GO-LAST)");
  },
};

/** The code of an action the engine does not list when no rule names the mistake. */
const FALLBACK = {
  play: "wrong_decision",
  bomb: "bomb_not_allowed",
  skip: "no_skip_credit",
  shake: "shake_not_allowed",
  bonus: "bonus_not_allowed",
  dual_to_junk: "dual_not_allowed",
  chongtong: "chongtong_not_allowed",
  take: "wrong_month",
  go: "go_not_allowed",
  stop: "wrong_decision",
};

function describe(a) {
  return Object.entries(a)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}
