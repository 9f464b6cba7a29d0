// Events derived from states (issue 40), for an engine that keeps no event log: the events of an `act`
// reply from the protocol state before and after the action, the action, and what the score and legal
// replies after it say; `deriveDealEvents` (derive_deal.js) does the same for `new_game`. The order is
// spec/vocabulary.yaml's event_order, the fields its `events`. A port of kit/_derive.py, kept line for
// line so that both kits derive alike (tests/kit/test_js_kit.py compares them on the reference
// engine's rounds).
//
// What the states show is read from them: the stock's top cards are the flips (R-FLIP), the cards that
// left an opponent's pile are the steal (R-STEAL), a stack's buried bonus cards are those that left the
// actor's pile, the counters (gos, ppeoks, skip credits) are the state's after the action, and whether
// the turn paused, offers Go/Stop or ends the round is the decision after it. What the turn made of its
// cards (jjok, ppeok, ttadak, the stacks taken, the sweep) follows from the table before it and the
// cards moved (R-MATCH), and which steals were owed, withheld or awarded from the options. Nothing here
// scores: the bases are the score reply's, the round's end its settlement.
import { deriveDealEvents, makeEvent, roundEnd } from "./derive_deal.js";
import { HAND_ACTIONS, TurnEvents } from "./derive_turn.js";

export { deriveDealEvents };

/** One act's events: `run` dispatches on the action type (event_order, by action type). */
class ActEvents extends TurnEvents {
  run() {
    const { actor, action: a } = this;
    const kind = a.type;
    if (HAND_ACTIONS.has(kind) || kind === "take") {
      this.turn();
    } else if (kind === "shake") {
      this.out.push(makeEvent("shake", actor, this.handOf(a.month), { month: a.month }));
    } else if (kind === "bonus") {
      // R-BONUS-HAND: replaced by the top stock card
      this.out.push(makeEvent("bonus", actor, [a.card], { source: "hand", replacement: this.before.stock.slice(0, 1) }));
    } else if (kind === "chongtong") {
      this.out.push(makeEvent("chongtong", actor, this.handOf(a.month), { month: a.month }));
    } else if (kind === "go") {
      const gos = this.seatValue(this.after, actor, "gos");
      const base = this.seatValue(this.after, actor, "go_base");
      this.out.push(makeEvent("go", actor, [], { gos, base }));
    } else if (kind === "stop") {
      this.out.push(makeEvent("stop", actor, [], { base: this.base() }));
    } else if (kind === "dual_to_junk") {
      this.out.push(makeEvent("dual_to_junk", actor, [a.card]));
    } else {
      throw new RangeError(`unknown action type ${JSON.stringify(kind)}`);
    }
    // a Go, or a dual card moved to junk that ends a Go/Stop decision, may pass the turn with the
    // stock spent (R-ROUND-END); stop and chongtong always end the round
    if (["go", "stop", "chongtong", "dual_to_junk"].includes(kind) && this.after.decision === "none") {
      this.out.push(roundEnd(this.settlement));
    }
    return this.out;
  }
}

/**
 * The events of an `act` reply, derived from the protocol state before and after the action, in
 * event_order for its type (spec/vocabulary.yaml), with the reference engine's fields (no `clauses`).
 *
 * `before` and `after` are the protocol states (hands, table, stacks with owner, cards and bonus, the
 * stock top first, captured, in_play, decision, turn, players[] with gos, go_base, shaken_months,
 * bombs, skip_credits, ppeoks, dual_junk); `action` the action applied; `options` the new_game
 * request's `ruleset.options`. `scores` (the score reply's after the action) gives the base of stop
 * and go_stop_offered; `settlement` (the same reply's) the round_end; `legal` (the legal actions
 * after it) whether a go_stop_offered is stop_only (R-GO-LAST; derived from the state when absent). A
 * missing `scores` or `settlement` that the reply needs is a RangeError. A first-turn award
 * (R-FIRST-TURN-AWARD) is derived from the state's `awards`, the payments it shows made at once: an
 * engine that does not report them gets no award event.
 *
 * `earlier` is the round's earlier acts since new_game, oldest first, each `{action, events}` as
 * applied and reported (`EventDeriver` keeps them). The states alone do not say two things, and
 * without `earlier` the events then follow kit/_derive.py's rules: R-BONUS-STEAL (the bonus cards
 * played from the hand earlier in the turn: none counted), R-TWO-MATCH-CHOICE for a `take` (the turn's
 * hand action, read from the cards in play).
 */
export function deriveEvents(before, after, action, { options, scores = null, settlement = null, legal = null, earlier = null } = {}) {
  return new ActEvents(before, after, action, options, scores, settlement, legal, earlier).run();
}

/**
 * The events of one round's replies, for an adapter whose engine keeps no event log: keeps what
 * `deriveEvents` needs from the round's earlier acts (its `earlier`).
 *
 * `events = deriver.newGame(deal, state, {options: ruleset.options})` at each new_game, then
 * `events = deriver.act(before, after, action, {scores, settlement, legal})` at each act.
 */
export class EventDeriver {
  constructor() {
    this.options = {};
    this.acts = [];
  }

  newGame(deal, state, { options, settlement = null } = {}) {
    this.options = options;
    this.acts = [];
    return deriveDealEvents(deal, state, { options, settlement });
  }

  act(before, after, action, { scores = null, settlement = null, legal = null } = {}) {
    const events = deriveEvents(before, after, action, { options: this.options, scores, settlement, legal, earlier: this.acts });
    this.acts.push({ action: { ...action }, events });
    return events;
  }
}
