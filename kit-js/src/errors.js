// The errors an adapter throws, each the error reply of spec/vocabulary.yaml it becomes (rejections and
// errors). Any other exception of the engine is an `internal` error: the kit serves on.
import { DATA } from "./data.js";

/** The codes a refused action may carry (spec/vocabulary.yaml, rejections). */
export const REJECTION_CODES = Object.freeze(new Set(DATA.rejections));

/** An error reply: `code` (spec/vocabulary.yaml) and a message for a human. */
export class ProtocolError extends Error {
  constructor(message, code = undefined) {
    super(message);
    this.name = new.target.name;
    this.code = code ?? new.target.code ?? "internal";
  }

  reply(seq) {
    return { seq: seq ?? null, error: { code: this.code, message: this.message } };
  }
}

/** An action that breaks a rule (R-TURN): refused with a rejection code, the state unchanged. */
export class Rejected extends ProtocolError {
  constructor(code, message) {
    if (!REJECTION_CODES.has(code)) {
      throw new RangeError(
        `${JSON.stringify(code)} is not a rejection code of spec/vocabulary.yaml: ${[...REJECTION_CODES].sort().join(", ")}`,
      );
    }
    super(message, code);
  }
}

/**
 * The ruleset or an option value is one the engine does not play, or a command it does not
 * implement: the scenario is UNSUPPORTED, never failed (declare in hello only what you play).
 */
export class Unsupported extends ProtocolError {
  static code = "unsupported";
}

/** The deal of new_game is not a deal of the ruleset. */
export class BadDeal extends ProtocolError {
  static code = "bad_deal";
}

/**
 * What an adapter built breaks the protocol (a state, score or event that the schema refuses): a
 * bug of the adapter, answered as `internal` with the JSON path of the mistake.
 */
export class KitError extends Error {
  constructor(message) {
    super(message);
    this.name = "KitError";
  }
}
