// The turn behind an `act` reply whose action plays it (play, bomb, skip, and the take that resumes
// it): the hand action and the draw (R-TURN, R-FLIP), the resolution of the hand card and the flip
// (R-MATCH), and the turn's end (R-SWEEP, R-FIRST-TURN-AWARD, R-THREE-PPEOK, R-FINAL-TURN, R-STEAL,
// R-GO-WHEN, R-ROUND-END), as derive.js reports them. `TurnEvents` also reads the states for
// derive.js's other action types. A port of kit/_derive_turn.py, kept line for line so that both
// kits derive alike (tests/kit/test_js_kit.py); the table is a Map, whose order is the Python dict's.
import { card, equivalent, isBonus, month, sortIds } from "./cards.js";
import { byMonth, junkUnitsOf, makeEvent, minus, roundEnd } from "./derive_deal.js";

const PAUSED = new Set(["choose_hand_match", "choose_flip_match"]);
/** The actions that play the turn's hand card (or a skip credit) and flip: they start a turn's resolution. */
export const HAND_ACTIONS = new Set(["play", "bomb", "skip"]);
/** The reference engine's wording of the pair captured when ppeok is off (the capture event's `note`). */
const NO_PPEOK_NOTE = "flip of the paired month stays on the table";

/**
 * A turn in progress, as R-MATCH resolves it. `mode` says what the hand action met: discard (no card
 * of its month on the table), pair, pair2 (two), stack, bomb or skip. `requests` are the steals owed
 * at the end of the turn, each [why (a final_turn_exempt value, `bomb` or `bonus`), the junk units,
 * the seats that owe them] (R-EVENTS-STACK sums them per seat).
 */
class Turn {
  constructor(actor, mode, fields = {}) {
    this.actor = actor;
    this.mode = mode;
    this.month = 0;
    this.hand = null;
    this.pair = [];
    this.handTake = null;
    this.flip = null;
    this.flipTake = null;
    this.flipBonus = [];
    this.captures = [];
    this.requests = [];
    this.start = []; // the table when the hand action began (R-SWEEP two_cards_cleared)
    this.madePpeok = false;
    this.madeTtadak = false;
    Object.assign(this, fields);
  }
}

/** What the round's earlier acts tell about the turn in progress. */
function history(earlier, action) {
  const hands = [];
  earlier.forEach((act, i) => {
    if (HAND_ACTIONS.has(act.action.type)) hands.push(i);
  });
  let here;
  let start;
  let handAct = null;
  let takes = [];
  if (action.type === "take" && hands.length) {
    here = hands[hands.length - 1];
    start = hands.length > 1 ? hands[hands.length - 2] + 1 : 0;
    handAct = earlier[here];
    takes = earlier
      .slice(here + 1)
      .filter((act) => act.action.type === "take")
      .map((act) => act.action.card);
  } else {
    here = earlier.length;
    start = hands.length ? hands[hands.length - 1] + 1 : 0;
  }
  const bonusCards = earlier
    .slice(start, here)
    .filter((act) => act.action.type === "bonus")
    .map((act) => act.action.card);
  // bonusCards: played from the hand this turn before its hand action, in order; handAct: for a
  // take, the turn's play, bomb or skip act; takes: the cards of the takes answered since that act
  return { bonusCards, handAct, takes };
}

/**
 * The table as the turn changes it: cards by month (a stack's three included), each stack's owner
 * and buried bonus cards (R-STACK-CAPTURE, R-BONUS-PPEOK).
 */
class Board {
  constructor(state) {
    this.table = byMonth(state.table ?? []);
    this.owner = new Map();
    this.buried = new Map();
    for (const s of state.stacks ?? []) {
      this.owner.set(Number(s.month), s.owner ?? null);
      this.buried.set(Number(s.month), [...(s.bonus ?? [])]);
    }
  }

  on(m) {
    if (!this.table.has(m)) this.table.set(m, []);
    return this.table.get(m);
  }

  take(m) {
    const found = this.table.get(m) ?? [];
    this.table.delete(m);
    return found;
  }

  cards() {
    return [...[...this.table.values()].flat(), ...[...this.buried.values()].flat()];
  }
}

function remove(list, item) {
  const i = list.indexOf(item);
  if (i < 0) throw new RangeError(`${item} is not in the list`);
  list.splice(i, 1);
}

/** One act's events, collected in `out`; `turn` derives those of an action that plays the turn. */
export class TurnEvents {
  constructor(before, after, action, options, scores, settlement, legal, earlier) {
    this.before = before;
    this.after = after;
    this.action = action;
    this.o = options;
    this.scores = scores ?? null;
    this.settlement = settlement ?? null;
    this.legal = legal ?? null;
    this.history = earlier === null || earlier === undefined ? null : history(earlier, action);
    this.actor = action.player;
    this.n = before.hands.length;
    this.board = new Board(before);
    this.out = [];
  }

  // ------------------------------------------------------------------ reading the states

  seatValue(state, seat, key, fallback = 0) {
    const players = state.players ?? [];
    if (seat >= players.length) return fallback;
    return Object.hasOwn(players[seat], key) ? players[seat][key] : fallback;
  }

  /** R-BOMB-SKIP: a hand card (a bonus card too) or a skip credit is a turn to come. */
  hasTurn(seat) {
    return this.after.hands[seat].length > 0 || this.seatValue(this.after, seat, "skip_credits") > 0;
  }

  /** R-TURN-ORDER: the other seats in turn order from the actor. */
  others() {
    return Array.from({ length: this.n - 1 }, (_, k) => (this.actor + k + 1) % this.n);
  }

  handOf(m) {
    return sortIds(this.before.hands[this.actor]).filter((c) => month(c) === m);
  }

  /**
   * R-FINAL-TURN, R-FINAL-PPEOK: the stock is empty after the flip, or nobody has a turn to come.
   * The hands, credits and stock after the action are those after the flip: nothing later in a turn
   * changes them.
   */
  roundLast() {
    if (!this.after.stock.length) return true;
    for (let s = 0; s < this.n; s++) if (this.hasTurn(s)) return false;
    return true;
  }

  /** R-FINAL-TURN: the round's last turn, or under each_player_last_hand_card the actor's. */
  final() {
    const last = this.roundLast();
    return this.o.final_turn_scope === "round_final_turn" ? last : last || !this.hasTurn(this.actor);
  }

  base() {
    if (this.scores === null) {
      throw new RangeError(
        `a ${JSON.stringify(this.action.type)} reply reports the base score: pass the score reply's scores (scores: ...)`,
      );
    }
    return Number(this.scores[this.actor].base);
  }

  /** Which of two table cards a choice took, when no earlier act says: the one gone from the table. */
  observedTake(candidates) {
    const table = new Set(this.after.table ?? []);
    const sorted = sortIds(candidates);
    return sorted.find((c) => !table.has(c)) ?? sorted[0];
  }

  // ------------------------------------------------------------------ the action types

  turn() {
    const ctx = this.action.type === "take" ? this.resume() : this.begin();
    if (PAUSED.has(this.after.decision)) return; // R-TWO-MATCH-CHOICE: the reply ends here, the take resumes
    this.resolve(ctx);
    this.finish(ctx);
  }

  // ------------------------------------------------------------------ the hand action and the flip

  request(ctx, why, units, payers = null) {
    if (units > 0) ctx.requests.push([why, units, payers ?? this.others()]);
  }

  /**
   * R-STACK-CAPTURE, R-PPEOK-CAPTURE, R-STEAL-PAYERS: a dealt triple, an own ppeok or another's, each
   * with its option; another's may be paid by its creator alone.
   */
  stackRequest(ctx, owner) {
    const o = this.o;
    if (owner === null || owner === undefined) {
      this.request(ctx, "stack_capture", o.table_triple_capture_steal);
    } else if (owner === this.actor) {
      this.request(ctx, "stack_capture", o.own_ppeok_capture_steal);
    } else {
      const payers = o.ppeok_steal_payers === "creator_only" ? [owner] : null;
      this.request(ctx, "stack_capture", o.ppeok_capture_steal, payers);
    }
  }

  /** R-BOMB, R-BOMB-TWO: a two-card bomb steals nothing under capture_only. */
  bombRequest(ctx, played) {
    const twoOnly = played === 2 && this.o.two_card_bomb === "capture_only";
    this.request(ctx, "bomb", twoOnly ? 0 : this.o.bomb_steal);
  }

  /** R-STACK-CAPTURE: the fourth card takes the stack's three and its buried bonus cards. */
  captureStack(ctx, m, fourth) {
    const board = this.board;
    const owner = board.owner.get(m);
    board.owner.delete(m);
    const buried = board.buried.get(m) ?? [];
    board.buried.delete(m);
    const cards = sortIds([...board.take(m), ...buried, fourth]);
    ctx.captures.push(...cards);
    this.out.push(makeEvent("stack_capture", this.actor, cards, { month: m, owner }));
    this.stackRequest(ctx, owner);
  }

  /**
   * R-TURN, R-MATCH, R-BOMB, R-BOMB-SKIP: the hand action (with a shake declared with it, R-SHAKE),
   * a stack its card takes at once, then the draw.
   */
  begin() {
    const { action: a, actor, board } = this;
    const ctx = new Turn(actor, a.type, { start: board.cards() });
    // R-BONUS-STEAL, for each bonus card played from the hand this turn
    for (const _ of this.history ? this.history.bonusCards : []) this.request(ctx, "bonus", this.o.bonus_steal);
    if (a.type === "play") {
      const c = a.card;
      ctx.hand = c;
      ctx.month = month(c);
      if (a.shake) this.out.push(makeEvent("shake", actor, this.handOf(ctx.month), { month: ctx.month }));
      this.out.push(makeEvent("play", actor, [c]));
      const on = board.on(ctx.month);
      if (board.owner.has(ctx.month)) {
        ctx.mode = "stack";
        this.captureStack(ctx, ctx.month, c);
      } else if (!on.length) {
        ctx.mode = "discard";
        on.push(c);
      } else if (on.length === 1) {
        ctx.mode = "pair";
        ctx.pair = [on[0]];
      } else {
        // R-TWO-MATCH-CHOICE: between equivalent cards the lower index, whatever was named
        ctx.mode = "pair2";
        ctx.pair = [...on];
        ctx.handTake = equivalent(on[0], on[1]) ? on[0] : (a.take ?? null);
      }
    } else if (a.type === "bomb") {
      const m = a.month;
      const played = this.handOf(m);
      ctx.captures = sortIds([...played, ...board.take(m)]);
      this.bombRequest(ctx, played.length);
      const granted = this.seatValue(this.after, actor, "skip_credits") - this.seatValue(this.before, actor, "skip_credits");
      this.out.push(makeEvent("bomb", actor, played, { month: m, skip_credits: granted }));
    } else {
      this.out.push(makeEvent("skip", actor, [], { skip_credits: this.seatValue(this.after, actor, "skip_credits") }));
    }
    for (const c of this.before.stock) {
      // R-FLIP, R-BONUS-FLIP: until an ordinary card comes
      if (!isBonus(c)) {
        ctx.flip = c;
        this.out.push(makeEvent("flip", actor, [c]));
        break;
      }
      ctx.flipBonus.push(c);
      this.out.push(makeEvent("bonus", actor, [c], { source: "flip" }));
      this.request(ctx, "bonus", this.o.bonus_steal);
    }
    return ctx;
  }

  /** The turn a take resumes (R-TWO-MATCH-CHOICE), rebuilt from the cards in play and the turn's earlier acts. */
  resume() {
    const hist = this.history;
    if (hist === null || hist.handAct === null) return this.resumeUnknown();
    const { action: a, before, board } = this;
    const act = hist.handAct.action;
    const events = hist.handAct.events;
    const ctx = new Turn(this.actor, act.type, { start: board.cards() });
    for (const _ of hist.bonusCards) this.request(ctx, "bonus", this.o.bonus_steal);
    for (const e of events) {
      // the hand action's requests, in the order it made them
      if (e.kind === "flip") {
        ctx.flip = e.cards[0];
      } else if (e.kind === "bonus") {
        ctx.flipBonus.push(e.cards[0]);
        this.request(ctx, "bonus", this.o.bonus_steal);
      } else if (e.kind === "stack_capture") {
        ctx.mode = "stack";
        ctx.captures = [...e.cards];
        this.stackRequest(ctx, e.owner);
        ctx.start.push(...minus(e.cards, [act.card, ...e.cards.filter((c) => isBonus(c))]));
      } else if (e.kind === "bomb") {
        this.bombRequest(ctx, e.cards.length);
      }
    }
    if (act.type === "bomb") {
      // what is in play besides the draw: the bomb's cards and the table's
      ctx.captures = minus(before.in_play ?? [], [...ctx.flipBonus, ...(ctx.flip ? [ctx.flip] : [])]);
      const bombed = events.filter((e) => e.kind === "bomb").flatMap((e) => e.cards);
      ctx.start.push(...minus(ctx.captures, bombed));
    }
    if (act.type === "play" && ctx.mode !== "stack") {
      const c = act.card;
      ctx.hand = c;
      ctx.month = month(c);
      const on = board.on(ctx.month);
      if (on.includes(c)) {
        // discarded onto the table before the pause
        ctx.mode = "discard";
        remove(ctx.start, c);
      } else if (on.length === 0) {
        // discarded, and reported in play rather than on the table (in_play allows either)
        ctx.mode = "discard";
      } else if (on.length === 1) {
        ctx.mode = "pair";
        ctx.pair = [on[0]];
      } else {
        ctx.mode = "pair2";
        ctx.pair = [...on];
        if (equivalent(on[0], on[1])) {
          ctx.handTake = on[0];
        } else if (before.decision === "choose_hand_match") {
          ctx.handTake = a.card;
        } else {
          // named with the play (at_play) or by the take before this one (after_flip)
          ctx.handTake = act.take || (hist.takes.length ? hist.takes[0] : this.observedTake(on));
        }
      }
    }
    if (before.decision === "choose_flip_match") ctx.flipTake = a.card;
    return ctx;
  }

  /**
   * `resume` without the turn's earlier acts: the cards in play tell the hand card from the flip by
   * the month taken; a bomb's month is among the actor's bombs, anything else of several cards is a
   * stack (owner unknown: taken as a dealt triple), every bonus card in play is taken as flipped, and
   * a card discarded before the pause is not told from the table.
   */
  resumeUnknown() {
    const { action: a, before, board } = this;
    const inPlay = [...(before.in_play ?? [])];
    const bonus = inPlay.filter((c) => isBonus(c));
    const ordinary = inPlay.filter((c) => !isBonus(c));
    const chosen = month(a.card);
    const here = ordinary.find((c) => month(c) === chosen);
    if (here === undefined) throw new RangeError(`no card of month ${chosen} is in play`);
    const rest = ordinary.filter((c) => c !== here);
    const ctx = new Turn(this.actor, "skip", { start: board.cards(), flipBonus: bonus });
    if (before.decision === "choose_hand_match") {
      const on = board.on(chosen);
      ctx.mode = "pair2";
      ctx.hand = here;
      ctx.month = chosen;
      ctx.pair = [...on];
      ctx.handTake = a.card;
      ctx.flip = rest.length ? rest[0] : null;
    } else {
      ctx.flip = here;
      ctx.flipTake = a.card;
      if (rest.length === 1) {
        ctx.hand = rest[0];
        ctx.month = month(rest[0]);
        const on = board.on(ctx.month);
        if (on.length === 1) {
          ctx.mode = "pair";
          ctx.pair = [on[0]];
        } else {
          ctx.mode = "pair2";
          ctx.pair = [...on];
          ctx.handTake = equivalent(on[0], on[1]) ? on[0] : this.observedTake(on);
        }
      } else if (rest.length) {
        ctx.captures = rest;
        if (this.seatValue(before, this.actor, "bombs", []).includes(month(rest[0]))) {
          ctx.mode = "bomb";
          this.bombRequest(ctx, 3);
        } else {
          ctx.mode = "stack";
          this.stackRequest(ctx, null);
        }
      }
    }
    for (const _ of bonus) this.request(ctx, "bonus", this.o.bonus_steal);
    return ctx;
  }

  // ------------------------------------------------------------------ the resolution

  /**
   * R-MATCH: the hand card, then the flipped card (jjok R-JJOK, ppeok R-PPEOK, ttadak R-TTADAK, a
   * stack the flip takes R-STACK-CAPTURE); point-count knows no jjok or ttadak (R-PC-PLAY).
   */
  resolve(ctx) {
    const { board, actor } = this;
    const hand = ctx.hand;
    const gostop = this.o.scoring_system === "gostop";
    const f = ctx.flip;
    const fm = f !== null ? month(f) : -1;
    const hm = ["discard", "pair", "pair2"].includes(ctx.mode) ? ctx.month : -2;
    const used = f !== null && fm === hm;
    if (ctx.mode === "discard" && used) {
      remove(board.on(hm), hand);
      ctx.captures.push(hand, f);
      if (gostop) {
        this.out.push(makeEvent("jjok", actor, [hand, f]));
        this.request(ctx, "jjok", this.o.jjok_steal);
      }
    } else if (ctx.mode === "pair") {
      if (used) {
        this.ppeok(ctx, hand, f);
      } else {
        remove(board.on(hm), ctx.pair[0]);
        ctx.captures.push(hand, ctx.pair[0]);
      }
    } else if (ctx.mode === "pair2") {
      if (used) {
        board.table.set(hm, []);
        ctx.captures.push(hand, ...ctx.pair, f);
        if (gostop) {
          ctx.madeTtadak = true;
          this.out.push(makeEvent("ttadak", actor, [hand, ...ctx.pair, f]));
          this.request(ctx, "ttadak", this.o.ttadak_steal);
        }
      } else {
        const take = ctx.handTake || this.observedTake(ctx.pair);
        remove(board.on(hm), take);
        ctx.captures.push(hand, take);
      }
    }
    if (f === null || used) return;
    const on = board.on(fm);
    if (board.owner.has(fm)) {
      this.captureStack(ctx, fm, f);
    } else if (!on.length) {
      on.push(f);
    } else if (on.length === 1) {
      ctx.captures.push(on.pop(), f);
    } else {
      const take = equivalent(on[0], on[1]) ? on[0] : ctx.flipTake || this.observedTake(on);
      remove(on, take);
      ctx.captures.push(take, f);
    }
  }

  /** R-PPEOK, R-FINAL-PPEOK, R-BONUS-PPEOK: the hand card paired and the flip of its month. */
  ppeok(ctx, hand, f) {
    const { board, actor, o } = this;
    const m = ctx.month;
    const pair = ctx.pair[0];
    const three = [pair, hand, f];
    // R-THREE-PPEOK: this one included. An engine whose counter did not move (it counted the month
    // before, say) shows that in its state, which the harness compares; the event says what the
    // ppeok is, the before count and one
    const madeBefore = this.seatValue(this.before, actor, "ppeoks");
    const count = Math.max(this.seatValue(this.after, actor, "ppeoks", madeBefore + 1), madeBefore + 1);
    if (!o.ppeok_enabled) {
      // the pair is taken, the flip stays
      board.table.set(m, [f]);
      ctx.captures.push(hand, pair);
      this.out.push(makeEvent("capture", actor, [hand, pair], { note: NO_PPEOK_NOTE }));
    } else if (this.roundLast() && o.final_turn_ppeok !== "leave_stack") {
      if (o.final_turn_ppeok === "capture_three") {
        board.table.set(m, []);
        ctx.captures.push(...three);
        ctx.madePpeok = true;
        this.out.push(makeEvent("ppeok", actor, three, { month: m, handling: "capture_three", count }));
      } else {
        // capture_pair_leave_drawn: no ppeok
        board.table.set(m, [f]);
        ctx.captures.push(hand, pair);
      }
    } else {
      // buried: the flipped bonus cards, and under all_bonus_this_turn those played from the hand
      // this turn, which leave the actor's pile
      const lost = minus(this.before.captured[actor], this.after.captured[actor]);
      const played = this.history ? [...this.history.bonusCards] : [];
      const buried = [...ctx.flipBonus, ...played.filter((b) => lost.includes(b)), ...lost.filter((b) => !played.includes(b))];
      board.table.set(m, three);
      board.owner.set(m, actor);
      board.buried.set(m, buried);
      ctx.flipBonus = [];
      ctx.madePpeok = true;
      this.out.push(makeEvent("ppeok", actor, three, { month: m, bonus: buried, count }));
    }
  }



  /**
   * The end of a turn: its one capture, the sweep (R-SWEEP), first-turn awards (R-FIRST-TURN-AWARD),
   * three ppeok (R-THREE-PPEOK) or the steals, then the Go/Stop offer (R-GO-WHEN) or the round's end
   * (R-PC-LEFTOVER, R-ROUND-END).
   */
  finish(ctx) {
    const { o, actor, board } = this;
    const taken = [...ctx.captures, ...ctx.flipBonus];
    if (taken.length) this.out.push(makeEvent("capture", actor, sortIds(taken)));
    if (o.sweep_steal > 0 && ctx.captures.length) {
      let swept;
      if (o.sweep_definition === "table_empty_at_turn_end") {
        swept = ![...board.table.values()].some((cs) => cs.length);
      } else {
        // two_cards_cleared: the table held two cards of different months, both taken
        const start = ctx.start;
        swept = start.length === 2 && month(start[0]) !== month(start[1]) && start.every((c) => ctx.captures.includes(c));
      }
      if (swept) {
        this.out.push(makeEvent("sweep", actor, [], { definition: o.sweep_definition }));
        this.request(ctx, "sweep", o.sweep_steal);
      }
    }
    // R-FIRST-TURN-AWARD, paid at once: as the state's `awards` shows it paid, never from the
    // options alone (an award nothing shows would be an event the engine may not have made)
    let paid = [...(this.after.awards ?? [])].slice((this.before.awards ?? []).length);
    for (const [reason, made] of [
      ["first_ppeok", ctx.madePpeok],
      ["first_ttadak", ctx.madeTtadak],
    ]) {
      const mine = paid.filter((p) => p[1] === actor).slice(0, this.n - 1);
      if (made && mine.length) {
        this.out.push(makeEvent("award", actor, [], { reason, points: Number(mine[0][2]) }));
        paid = paid.filter((p) => !mine.includes(p));
      }
    }
    // R-THREE-PPEOK as the engine played it: the round's end and its settlement say so, whatever the
    // options (an engine that played on, or won where it was told not to, is reported as it played;
    // its state and settlement then differ from the rules', which the harness judges)
    const ended = this.after.decision === "none" && this.settlement !== null && this.settlement !== undefined;
    if (ctx.madePpeok && ended && this.settlement.kind === "three_ppeok") {
      // the settlement says it, not the options
      this.out.push(makeEvent("three_ppeok", actor)); // an instant win: the turn's steals are dropped
      this.out.push(roundEnd(this.settlement));
      return;
    }
    this.steals(ctx);
    const decision = this.after.decision;
    if (decision === "go_stop") {
      this.out.push(makeEvent("go_stop_offered", actor, [], { base: this.base(), stop_only: this.stopOnly() }));
    } else if (decision === "none") {
      const left = board.cards();
      // R-PC-LEFTOVER: to the last player
      if (o.scoring_system === "point_count" && left.length) this.out.push(makeEvent("leftover", actor, sortIds(left)));
      this.out.push(roundEnd(this.settlement));
    }
  }

  /**
   * R-GO-LAST: the legal actions after the offer hold no Go; without them, forced_stop with no later
   * turn for the actor or no stock left.
   */
  stopOnly() {
    if (this.legal !== null) return !this.legal.some((a) => a.type === "go");
    return this.o.go_on_last_turn === "forced_stop" && (!this.hasTurn(this.actor) || !this.after.stock.length);
  }

  /**
   * R-FINAL-TURN, R-EVENTS-STACK, R-STEAL: the withheld requests, then one steal per paying opponent
   * in turn order, the cards being those that left the payer's pile.
   */
  steals(ctx) {
    const exempt = new Set(this.final() ? this.o.final_turn_exempt : []);
    for (const [why, units] of ctx.requests) {
      if (exempt.has(why)) this.out.push(makeEvent("steal_exempt", this.actor, [], { reason: why, units }));
    }
    for (const payer of this.others()) {
      let owed = 0;
      for (const [why, units, payers] of ctx.requests) if (!exempt.has(why) && payers.includes(payer)) owed += units;
      if (owed) {
        const given = minus(this.before.captured[payer], this.after.captured[payer]);
        const units = given.reduce((sum, c) => sum + this.stealUnits(c, payer), 0);
        this.out.push(makeEvent("steal", payer, given, { to: this.actor, requested: owed, units }));
      }
    }
  }

  /**
   * R-STEAL: a card's units as surrendered: a dual-role card counted as junk 2 (when
   * steal_cup_eligible), the December ribbon 1 under dec_ribbon = junk (R-DEC-RIBBON).
   */
  stealUnits(c, giver) {
    const o = this.o;
    let units = junkUnitsOf(c);
    if (o.steal_cup_eligible && o.dual_role_cards.includes(c)) {
      const mode = o.dual_role_mode;
      const moved = this.seatValue(this.before, giver, "dual_junk", []).includes(c);
      if (mode === "fixed_double_junk" || (mode === "owner_one_way_to_junk" && moved)) units = 2;
    }
    if (o.dec_ribbon === "junk" && card(c).roles.includes("december-ribbon")) units = 1;
    return units;
  }
}
