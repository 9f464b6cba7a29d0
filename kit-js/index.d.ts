// Types of the JavaScript adapter kit (index.js), written by hand. The closed sets of names below are
// spec/vocabulary.yaml's; tests/kit/test_js_kit.py fails when one drifts from it. Protocol values keep
// the protocol's field names (snake_case: `to_act`, `first_player`); the kit's own parameters are
// camelCase. docs/kits.md tells how to use it; docs/protocol.md what each field means.

// ------------------------------------------------------------------------------------------- names

/** A seat: 0 to players - 1 (R-TURN-ORDER). */
export type Seat = number;
/** A month, 1 (January) to 12 (December); 0 for a bonus card (R-BONUS-DECK). */
export type Month = number;
/** A card id of spec/deck.yaml (R-CARD-IDS): `m01-bright` ... `m12-double-junk`, `bonus-2a` ... */
export type CardId = string;
export type CardKind = "bright" | "animal" | "ribbon" | "double-junk" | "junk" | "bonus";
/** spec/vocabulary.yaml, decisions. */
export type Decision = "turn" | "choose_hand_match" | "choose_flip_match" | "go_stop" | "none";
/** spec/vocabulary.yaml, actions. */
export type ActionType = "play" | "bomb" | "skip" | "shake" | "bonus" | "dual_to_junk" | "take" | "go" | "stop" | "chongtong";
/** spec/vocabulary.yaml, events. */
export type EventKind =
  | "deal"
  | "table_bonus"
  | "table_four"
  | "table_triple"
  | "chongtong"
  | "redeal"
  | "shake"
  | "bonus"
  | "play"
  | "bomb"
  | "skip"
  | "flip"
  | "capture"
  | "ppeok"
  | "stack_capture"
  | "jjok"
  | "ttadak"
  | "sweep"
  | "steal_exempt"
  | "steal"
  | "three_ppeok"
  | "award"
  | "dual_to_junk"
  | "go_stop_offered"
  | "go"
  | "stop"
  | "leftover"
  | "round_end";
/** spec/vocabulary.yaml, rejections: the codes of a refused action. */
export type RejectionCode =
  | "malformed_action"
  | "round_over"
  | "not_your_turn"
  | "wrong_decision"
  | "card_not_in_hand"
  | "unknown_card"
  | "wrong_month"
  | "take_required"
  | "must_match"
  | "shake_not_allowed"
  | "bomb_not_allowed"
  | "no_skip_credit"
  | "bonus_not_allowed"
  | "must_play_bonus"
  | "go_not_allowed"
  | "dual_not_allowed"
  | "must_play_replacement"
  | "chongtong_not_allowed";
/** spec/vocabulary.yaml, errors: the codes of an error reply to any command. */
export type ErrorCode = "bad_request" | "no_game" | "unsupported" | "bad_deal" | "internal";
/** spec/vocabulary.yaml, features. */
export type Feature = "rule_trace" | "seeded_deal" | "perft" | "match";
/** spec/vocabulary.yaml, positions. */
export type Positions = "any" | "reachable";
/** spec/vocabulary.yaml, event_reports. */
export type EventReports = "all" | "none";
/** spec/vocabulary.yaml, settlements. */
export type SettlementKind =
  "stop" | "last_go_caller_wins" | "chongtong" | "three_ppeok" | "dealer_wins_fixed" | "nagari" | "redeal" | "point_count";

// ------------------------------------------------------------------------------ protocol values

/** An option's value (spec/options.yaml): a boolean, an integer, a symbol, or a list for the list-valued options. */
export type OptionValue = boolean | number | string | readonly number[] | readonly string[];
/** Every option of spec/options.yaml, resolved (a new_game request's `ruleset.options`). */
export type Options = { readonly [option: string]: OptionValue };

/** A player's move (spec/protocol: action); `type` says which of card, take, month and shake it takes (ACTION_FIELDS). */
export interface Action {
  type: ActionType;
  player: Seat;
  card?: CardId;
  take?: CardId;
  month?: Month;
  shake?: boolean;
}

/** A player's round state besides the cards (spec/protocol: player_state). */
export interface PlayerState {
  gos?: number;
  go_base?: number;
  first_go_turn?: number;
  shaken_months?: Month[];
  bombs?: Month[];
  skip_credits?: number;
  ppeoks?: number;
  dual_junk?: CardId[];
}

/** A stack on the table (spec/protocol: state.stacks[]). */
export interface StackState {
  month: Month;
  owner: Seat | null;
  cards?: CardId[];
  bonus?: CardId[];
}

/** The whole observable state of a reply (spec/protocol: state). */
export interface State {
  decision: Decision;
  to_act: Seat | null;
  hands: CardId[][];
  table: CardId[];
  stacks: StackState[];
  stock: CardId[];
  captured: CardId[][];
  in_play?: CardId[];
  turn?: number;
  dealer?: Seat;
  players?: PlayerState[];
  nagari_streak?: number;
  /** The first-turn awards paid so far, each [payer, payee, points]: awards are derived from it. */
  awards?: [Seat, Seat, number][];
}

/** Something that happened (spec/protocol: event); EVENT_FIELDS says which fields each kind carries. */
export interface Event {
  kind: EventKind;
  player?: Seat;
  cards?: CardId[];
  dealer?: Seat;
  first_player?: Seat;
  month?: Month;
  handling?: string;
  source?: "hand" | "flip";
  replacement?: CardId[];
  skip_credits?: number;
  note?: string;
  count?: number;
  bonus?: CardId[];
  owner?: Seat | null;
  definition?: string;
  reason?: string;
  units?: number;
  to?: Seat;
  requested?: number;
  points?: number;
  base?: number;
  stop_only?: boolean;
  gos?: number;
  outcome?: SettlementKind;
  net?: number[];
  clauses?: string[];
}

/** A player's base score by category (spec/protocol: score); every field optional. */
export interface Score {
  brights?: number;
  bright_points?: number;
  animals?: number;
  animal_points?: number;
  godori_points?: number;
  ribbons?: number;
  ribbon_points?: number;
  dans?: ("hong" | "cheong" | "cho")[];
  dan_points?: number;
  junk_units?: number;
  junk_cards?: number;
  junk_points?: number;
  extra_points?: number;
  base?: number;
  winner_bonus?: number;
  dual_as_junk?: CardId[];
  clauses?: string[];
}

/** The result of a finished round (spec/protocol: settlement); which fields each kind carries: spec/vocabulary.yaml, settlements. */
export interface Settlement {
  kind: SettlementKind;
  winner?: Seat | null;
  net: number[];
  payments?: { from: Seat; to: Seat; amount: number }[];
  base?: number;
  go_count?: number;
  go_points?: number;
  go_multiplier?: number;
  shake_bomb_factor?: number;
  meongtta?: number;
  carry?: number;
  points?: number;
  losers?: { [field: string]: unknown }[];
  winner_breakdown?: Score;
  void_multiplier?: number;
  breakeven?: number;
  card_points?: number[];
  sets?: string[][];
  awards?: [number, number, number][];
  clauses?: string[];
}

/** What a finished round hands to the next round of a match (spec/protocol: next_round). */
export interface NextRound {
  dealer: Seat;
  nagari_streak: number;
  carried_multiplier?: number;
  counts_as_round: boolean;
}

/** An option's support in a declaration: every value, the values played, or not played reliably. */
export type Support = "all" | "unsupported" | OptionValue[];
/** A named ruleset the engine plays: its id, or its id with exceptions (`ruleset(id, exceptions)`). */
export type RulesetSupport = string | { id: string; options: { [option: string]: Support } };

/** The hello reply without seq and protocol (spec/protocol: reply_hello), as `hello(...)` builds it. */
export interface Hello {
  engine: { name: string; version: string; language?: string; homepage?: string };
  rulesets: RulesetSupport[];
  options?: { [option: string]: Support | { by_players: { [players: string]: Support } } };
  positions?: Positions;
  features?: string[];
  events?: EventReports;
  reasons?: { [option: string]: string };
}

/** One of the round's earlier acts, as EventDeriver keeps them: the action applied and its events. */
export interface EarlierAct {
  action: Action;
  events: Event[];
}

/** A value a method may return as it is or as a Promise of it (an engine behind a child process or a worker). */
export type MaybePromise<T> = T | Promise<T>;

// ------------------------------------------------------------------------------------- the server

/** The protocol version the kit speaks. */
export const PROTOCOL: string;

/**
 * What an adapter writes: its engine behind six methods, in the protocol's own terms; each may
 * return a Promise, which the kit awaits.
 *
 * `newGame` and `act` return the events they made happen, or null (or nothing) for the kit to derive
 * them from the states before and after (`deriveEvents`). Throw Unsupported or BadDeal from newGame;
 * `act` is only called with an action the engine listed in `legal` (the kit refuses the rest). An
 * engine that declares the feature perft answers `perft(depth)` with `{plies: [...]}`.
 */
export interface Engine {
  hello(): MaybePromise<Hello>;
  newGame(ruleset: Ruleset, deal: Deal): MaybePromise<Event[] | null | undefined | void>;
  state(): MaybePromise<State>;
  legal(): MaybePromise<Legal>;
  act(action: Action): MaybePromise<Event[] | null | undefined | void>;
  score(): MaybePromise<Scores>;
  perft?(depth: number): MaybePromise<{ plies: { nodes: number; [category: string]: number }[] }>;
}

/**
 * The pending decision, the seat that decides (null once the round is over) and every legal action of
 * that seat. A plain object of the three fields does as well.
 */
export class Legal {
  constructor(player: Seat | null, decision: Decision, actions?: Action[]);
  player: Seat | null;
  decision: Decision;
  actions: Action[];
}

/**
 * Per seat the current base score, the settlement once the round is over (null before) and, for
 * engines that declare match, what the round hands on. A plain object of these fields does as well.
 */
export class Scores {
  constructor(scores: Score[], settlement?: Settlement | null, next?: NextRound | null);
  scores: Score[];
  settlement: Settlement | null;
  next: NextRound | null;
}

/** A request of the harness (spec/protocol: request), its shape checked. */
export type Request =
  | { seq: number; cmd: "hello"; protocol: string; suite_version?: string }
  | { seq: number; cmd: "new_game"; ruleset: { id: string; options: Options }; deal: { [field: string]: unknown } }
  | { seq: number; cmd: "legal" | "score" | "bye" }
  | { seq: number; cmd: "act"; action: Action }
  | { seq: number; cmd: "perft"; depth: number };

/** A reply: the request's seq and what the command answers, or an error. */
export type Reply = { seq: number | bigint | null; [field: string]: unknown };

/** One engine served, request by request (what `serve` runs; for tests). */
export class Session {
  constructor(engine: Engine);
  readonly engine: Engine;
  /** The round's ruleset; null before the first new_game and after one that failed. */
  ruleset: Ruleset | null;
  /** The bonus replacement that must be this turn's hand card (bonus_replacement_use = must_play_replacement). */
  forced: CardId | null;
  /** Whether `bye` was answered. */
  stopped: boolean;
  /** False once the hello declares `events: "none"`: an engine that reports no events gets none derived either. */
  events: boolean;
  deriver: EventDeriver;
  /** The reply to one request whose shape is already checked; never rejects. */
  answer(request: Request): Promise<Reply>;
}

export interface ServeOptions {
  /** The requests, bytes or strings (default: process.stdin). */
  stdin?: AsyncIterable<Uint8Array | string>;
  /** Where the replies are written (default: process.stdout). */
  stdout?: { write(text: string, callback?: (error?: Error | null) => void): unknown };
  /** Log every request and reply on stderr (default: the environment variable GOSTOP_KIT_DEBUG set and not 0). */
  debug?: boolean;
}

/**
 * Serve `engine` until `bye` or the end of input; resolves to the exit status (0). Requests sent
 * ahead are answered in one write; a request that breaks the schema gets a `bad_request` naming its
 * JSON path; an exception of the engine is an `internal` error reply, and the loop goes on.
 */
export function serve(engine: Engine, options?: ServeOptions): Promise<number>;

// ------------------------------------------------------------------------------ hello and declarations

/** Every value of the option. */
export const ALL: "all";
/** An option's rule is not implemented reliably: the scenarios that depend on it are UNSUPPORTED. */
export const UNSUPPORTED: "unsupported";

export interface HelloOptions {
  rulesets?: RulesetSupport[];
  options?: { [option: string]: Support | { by_players: { [players: string]: Support } } };
  language?: string;
  homepage?: string;
  positions?: Positions;
  features?: Iterable<Feature>;
  /** Per option the declaration names, why (the engine's source, a house rule). */
  reasons?: { [option: string]: string };
  /** "none": the engine reports no events, and the kit derives none either. */
  events?: EventReports;
}

/**
 * The hello reply (without seq and protocol, which the kit adds), checked against spec/options.yaml,
 * spec/rulesets/ and the vocabulary as it is built: KitError names a mistake (`hello.options.jjok_stael:
 * unknown option of spec/options.yaml (did you mean jjok_steal, bomb_steal?)`).
 */
export function hello(name: string, version: string, options?: HelloOptions): Hello;

/**
 * A named ruleset the engine plays, except for the options given (each "all", "unsupported", or the
 * list of values played instead): `ruleset("matgo-2p", {meong_mode: ["off"]})`. KitError for an
 * unknown ruleset, option or value.
 */
export function ruleset(rulesetId: string, exceptions?: { [option: string]: Support }): RulesetSupport;

// ------------------------------------------------------------------------------ new_game's values

/**
 * The rules of a round: the named ruleset it is based on and every option value, resolved. Play by
 * `options`, never by the name: a scenario may override any of them.
 */
export class Ruleset {
  constructor(id: string, options: Options);
  readonly id: string;
  readonly options: Options;
  readonly players: number;
  readonly bonusCards: number[];
  /** The ids of this configuration's deck (R-BONUS-DECK). */
  readonly deck: readonly CardId[];
  /** One option's value (RangeError for an option the ruleset lacks). */
  get(option: string): OptionValue;
  static fromJson(raw: { id: string; options: Options }): Ruleset;
}

/** Three cards of a month on the table (R-STACK-CAPTURE); `owner` null for a dealt triple (R-TABLE-TRIPLE). */
export class Stack {
  constructor(month: Month, owner: Seat | null, cards?: Iterable<CardId>);
  readonly month: Month;
  readonly owner: Seat | null;
  readonly cards: readonly CardId[];
}

/**
 * An explicit deal (every card's place) or a seeded one (`seed` set, the places empty). A fresh round
 * has no captured piles and turn 0; any other deal is a game in progress, which the table's
 * deal-time rules still apply to and the chongtong check does not.
 */
export class Deal {
  constructor(fields: {
    dealer: Seat;
    hands?: CardId[][];
    table?: CardId[];
    stock?: CardId[];
    captured?: CardId[][];
    stacks?: Stack[];
    players?: PlayerState[];
    firstPlayer?: Seat | null;
    turn?: number;
    nagariStreak?: number;
    carriedMultiplier?: number;
    seed?: number | bigint | null;
    raw?: { [field: string]: unknown };
  });
  /** The dealer; -1 for a seeded deal that leaves it to be drawn (R-FIRST-DEALER). */
  readonly dealer: Seat;
  readonly hands: readonly (readonly CardId[])[];
  /** Every table card, the stacks' included, in the order dealt. */
  readonly table: readonly CardId[];
  /** Top first. */
  readonly stock: readonly CardId[];
  readonly captured: readonly (readonly CardId[])[];
  readonly stacks: readonly Stack[];
  readonly players: readonly Readonly<PlayerState>[];
  readonly firstPlayer: Seat | null;
  readonly turn: number;
  readonly nagariStreak: number;
  readonly carriedMultiplier: number;
  /** The seed of a seeded deal (up to 2^64 - 1, hence a BigInt); null for an explicit one. */
  readonly seed: bigint | null;
  /** The request's deal as sent. */
  readonly raw: { readonly [field: string]: unknown };
  /** Whether this is the start of a round: no captured piles in the deal, turn 0 (only then is a dealt chongtong checked, R-CHONGTONG). */
  readonly fresh: boolean;
  /** A seat's round state besides its cards; empty for a fresh round (an absent field has a fresh round's value). */
  player(seat: Seat): Readonly<PlayerState>;
  stackOf(month: Month): Stack | null;
  /** This deal with every card's place: a seeded one dealt as R-SHUFFLE, R-DEAL-ORDER and R-FIRST-DEALER say. */
  explicit(ruleset: Ruleset): Deal;
  /** The deal of a new_game request, checked: BadDeal names what is wrong. */
  static fromJson(raw: { [field: string]: unknown }, ruleset: Ruleset): Deal;
}

// ------------------------------------------------------------------------------ replies built and checked

/** A player's round state, every field reported (KitError names a mistake's JSON path). */
export function player(fields?: {
  gos?: number;
  goBase?: number;
  shakenMonths?: Iterable<Month>;
  bombs?: Iterable<Month>;
  skipCredits?: number;
  ppeoks?: number;
  dualJunk?: Iterable<CardId>;
  firstGoTurn?: number | null;
}): Required<Omit<PlayerState, "first_go_turn">> & Pick<PlayerState, "first_go_turn">;

/** A stack on the table: its three cards are in the table too. */
export function stack(month: Month, owner: Seat | null, cards: Iterable<CardId>, bonus?: Iterable<CardId>): Required<StackState>;

/** The whole observable state of a reply; a field left undefined is not reported (report every one the engine knows). */
export function state(fields: {
  decision: Decision;
  toAct: Seat | null;
  hands: Iterable<Iterable<CardId>>;
  table: Iterable<CardId>;
  stock: Iterable<CardId>;
  captured: Iterable<Iterable<CardId>>;
  stacks?: Iterable<StackState>;
  inPlay?: Iterable<CardId>;
  turn?: number | null;
  dealer?: Seat | null;
  players?: Iterable<PlayerState> | null;
  nagariStreak?: number | null;
  /** The first-turn awards paid so far, [payer, payee, points] (R-FIRST-TURN-AWARD). */
  awards?: Iterable<[Seat, Seat, number]> | null;
}): State;

/** A player's base score by category, the fields named as the protocol names them. */
export function score(categories?: Score): Score;

/** The result of a finished round, the fields named as the protocol names them. */
export function settlement(fields: Settlement): Settlement;

/** One event: its kind, then the fields spec/vocabulary.yaml lists for it (KitError for any other). */
export function event(kind: EventKind, fields?: Omit<Event, "kind">): Event;

/** The fields each action type takes besides type and player (spec/vocabulary.yaml, actions). */
export const ACTION_FIELDS: Readonly<Record<ActionType, readonly ("card" | "take" | "month" | "shake")[]>>;
/** The fields each event kind carries besides kind (spec/vocabulary.yaml, events). */
export const EVENT_FIELDS: Readonly<Record<EventKind, readonly string[]>>;

// ------------------------------------------------------------------------------ rejections and events

/**
 * The action to apply (a `take` the rules do not need dropped), or throws Rejected with the code its
 * mistake earns (R-TURN), from the engine's own legal actions now, the state before the action and
 * the round's options; `forced` is the bonus replacement that must be this turn's hand card.
 */
export function checkAction(
  raw: Action,
  context: {
    player: Seat | null;
    decision: Decision;
    actions: readonly Action[];
    state: State;
    options: Options;
    forced?: CardId | null;
  },
): Action;

/** What deriveEvents reads besides the states and the action. */
export interface DeriveOptions {
  /** The new_game request's ruleset.options. */
  options: Options;
  /** The score reply's scores after the action: the base of stop and go_stop_offered. */
  scores?: readonly Score[] | null;
  /** The score reply's settlement after the action: the round_end. */
  settlement?: Settlement | null;
  /** The legal actions after the action: whether a go_stop_offered is stop_only (R-GO-LAST). */
  legal?: readonly Action[] | null;
  /** The round's earlier acts since new_game, oldest first (EventDeriver keeps them). */
  earlier?: readonly EarlierAct[] | null;
}

/**
 * The events of an `act` reply, derived from the protocol states before and after the action, in
 * event_order (spec/vocabulary.yaml), with the reference engine's fields. RangeError when the reply
 * needs `scores` or `settlement` and they are missing.
 */
export function deriveEvents(before: State, after: State, action: Action, options: DeriveOptions): Event[];

/**
 * The events of a `new_game` reply from the explicit deal (a seeded one written out:
 * `deal.explicit(ruleset).raw`) and the state after it; `settlement` when the round ends at the deal.
 */
export function deriveDealEvents(
  deal: { [field: string]: unknown },
  after: State,
  options: { options: Options; settlement?: Settlement | null },
): Event[];

/**
 * The events of one round's replies, for an adapter whose engine keeps no event log: keeps what
 * deriveEvents needs from the round's earlier acts.
 */
export class EventDeriver {
  constructor();
  options: Options;
  acts: EarlierAct[];
  newGame(deal: { [field: string]: unknown }, state: State, options: { options: Options; settlement?: Settlement | null }): Event[];
  act(
    before: State,
    after: State,
    action: Action,
    options?: { scores?: readonly Score[] | null; settlement?: Settlement | null; legal?: readonly Action[] | null },
  ): Event[];
}

// ------------------------------------------------------------------------------------- the cards

/** A card of spec/deck.yaml. */
export interface Card {
  readonly id: CardId;
  /** The canonical index: the deck's order, every tie-break's. */
  readonly index: number;
  readonly month: Month;
  readonly kind: CardKind;
  /** Junk units (R-SCORE-JUNK): 1 a junk, 2 a double junk or 2-unit bonus card, 3 the 3-unit one, 0 otherwise. */
  readonly units: number;
  /** hong, cheong, cho or none for a ribbon (R-SCORE-DAN); null for any other card. */
  readonly ribbonClass: string | null;
  readonly roles: readonly string[];
  readonly isBonus: boolean;
  /** Single, double or bonus junk (not the dual-role animals). */
  readonly isJunk: boolean;
}

/** The card with this id (RangeError for an unknown id). */
export function card(cardId: CardId): Card;
/** Whether the value is a card id of spec/deck.yaml (any deck, bonus cards included). */
export function isCard(cardId: unknown): cardId is CardId;
export function month(cardId: CardId): Month;
export function units(cardId: CardId): number;
export function kind(cardId: CardId): CardKind;
export function isBonus(cardId: CardId): boolean;
/** A ruleset's deck: the 48 month cards, then one bonus card per entry of bonus_cards (RangeError when there are too few). */
export function deckIds(bonusCards?: Iterable<number>): readonly CardId[];
/** Whether two cards are interchangeable (R-CARD-IDS): the same month, kind, units, roles and ribbon class. */
export function equivalent(a: CardId, b: CardId): boolean;
/** The cards of a month among `cards`, in their order. */
export function ofMonth(cards: Iterable<CardId>, month: Month): CardId[];
/** Card ids in the deck's order. */
export function sortIds(cards: Iterable<CardId>): CardId[];

// ------------------------------------------------------------------------------------- the errors

/** An error reply: `code` and a message for a human. */
export class ProtocolError extends Error {
  constructor(message: string, code?: RejectionCode | ErrorCode);
  code: RejectionCode | ErrorCode;
  reply(seq: number | bigint | null | undefined): { seq: number | bigint | null; error: { code: string; message: string } };
}

/** An action that breaks a rule (R-TURN): refused with a rejection code, the state unchanged (RangeError for another code). */
export class Rejected extends ProtocolError {
  constructor(code: RejectionCode, message: string);
  code: RejectionCode;
}

/** The ruleset, an option value or a command the engine does not play: UNSUPPORTED, never failed. */
export class Unsupported extends ProtocolError {
  constructor(message: string);
}

/** The deal of new_game is not a deal of the ruleset. */
export class BadDeal extends ProtocolError {
  constructor(message: string);
}

/** What an adapter built breaks the protocol: a bug of the adapter, answered as `internal` with the JSON path of the mistake. */
export class KitError extends Error {
  constructor(message: string);
}
