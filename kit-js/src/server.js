// The protocol's stdio loop around an engine (spec/protocol): requests read as they come (a client may
// send several ahead, and they are answered in one write before the kit waits again), each checked
// against the request schema, dispatched to the engine, its reply checked against the reply schema. An
// act is checked against the engine's own legal actions before the engine sees it (`checkAction`), and
// its events are derived from the states when the engine reports none (`deriveEvents`). Nothing an
// engine throws stops the loop: it is an error reply. A port of kit/_server.py; the engine's methods
// may return Promises (an engine behind a child process or a worker), which the kit awaits.
import { checkAction } from "./check.js";
import { DATA } from "./data.js";
import { newGame } from "./deal.js";
import { EventDeriver } from "./derive.js";
import { KitError, ProtocolError } from "./errors.js";
import { encodeJson, parseJson } from "./json.js";
import { checked, explain, show } from "./shape.js";

/** The protocol version the kit speaks. */
export const PROTOCOL = DATA.protocol;
/** The longest request line read (a whole deal with every option is about 4 KB). */
export const LINE_LIMIT = 1 << 20;

/**
 * The pending decision (spec/vocabulary.yaml, decisions), the seat that decides (null once the round
 * is over) and every legal action of that seat. An engine's `legal` may as well return a plain object
 * of these three fields.
 */
export class Legal {
  constructor(player, decision, actions = []) {
    this.player = player;
    this.decision = decision;
    this.actions = actions;
  }
}

/**
 * Per seat the current base score (`score`), the settlement once the round is over (`settlement`;
 * null before) and, for engines that declare match, what the round hands on. An engine's `score` may
 * as well return a plain object of these fields.
 */
export class Scores {
  constructor(scores, settlement = null, next = null) {
    this.scores = scores;
    this.settlement = settlement;
    this.next = next;
  }
}

// a state as it is now: an engine may hand out an object it changes in place later, and the states
// before and after an act must stay apart
function snapshot(value) {
  return structuredClone(value);
}

/** One engine served: the round's ruleset and the bonus replacement that must be played. */
export class Session {
  constructor(engine) {
    this.engine = engine;
    this.ruleset = null;
    this.forced = null;
    this.stopped = false;
    /** False once the hello declares `"events": "none"`: an engine that reports no events gets none derived either. */
    this.events = true;
    this.deriver = new EventDeriver();
  }

  /** The reply to one request (its shape already checked). */
  async answer(request) {
    const { seq, cmd } = request;
    try {
      if (cmd === "hello") {
        const own = { ...(await this.engine.hello()) };
        delete own.seq; // the kit's to say: the request's seq, the kit's protocol
        delete own.protocol;
        const declared = checked({ seq, protocol: PROTOCOL, ...own }, "reply_hello", "hello");
        this.events = (declared.events ?? "all") !== "none";
        return declared;
      }
      if (cmd === "bye") {
        this.stopped = true;
        return { seq };
      }
      if (cmd === "new_game") return checked({ seq, ...(await this.newGame(request)) }, "reply_new_game", "new_game reply");
      if (this.ruleset === null) return new ProtocolError(`no game in progress: send new_game before ${cmd}`, "no_game").reply(seq);
      if (cmd === "legal") {
        const legal = await this.engine.legal();
        const found = { seq, player: legal.player, decision: legal.decision, actions: [...(legal.actions ?? [])] };
        return checked(found, "reply_legal", "legal reply");
      }
      if (cmd === "act") return checked({ seq, ...(await this.act(request.action)) }, "reply_act", "act reply");
      if (cmd === "score") return checked({ seq, ...(await this.score()) }, "reply_score", "score reply");
      if (cmd === "perft" && typeof this.engine.perft === "function") return { seq, ...(await this.engine.perft(request.depth)) };
      return new ProtocolError(`the engine does not implement ${cmd}`, "unsupported").reply(seq);
    } catch (error) {
      if (error instanceof ProtocolError) return error.reply(seq);
      // the engine's bug or the adapter's: reported, and the loop goes on
      return new ProtocolError(described(error), "internal").reply(seq);
    }
  }

  async newGame(request) {
    const [ruleset, deal] = newGame(request);
    this.ruleset = null;
    this.forced = null;
    let events = await this.engine.newGame(ruleset, deal);
    this.ruleset = ruleset;
    const state = snapshot(await this.engine.state());
    this.deriver = new EventDeriver();
    this.deriver.options = ruleset.options;
    if (!this.events) {
      events = [];
    } else if (events === null || events === undefined) {
      const settlement = state.decision === "none" ? ((await this.engine.score()).settlement ?? null) : null;
      events = this.deriver.newGame(deal.explicit(ruleset).raw, state, { options: ruleset.options, settlement });
    }
    return { events: [...events], state };
  }

  async act(raw) {
    const options = this.ruleset.options;
    const legal = await this.engine.legal();
    const before = snapshot(await this.engine.state());
    const action = checkAction(raw, {
      player: legal.player,
      decision: legal.decision,
      actions: legal.actions ?? [],
      state: before,
      options,
      forced: this.forced,
    });
    let events = await this.engine.act(action);
    const after = snapshot(await this.engine.state());
    this.forced = forcedAfter(action, before, after, options);
    if (!this.events) {
      events = [];
    } else if (events === null || events === undefined) {
      // the derivation reads the score reply only for a base (stop, go_stop_offered) and the
      // round_end's settlement: asked then alone, since scoring is often an engine's dearest question
      const scores = after.decision === "none" || after.decision === "go_stop" ? await this.engine.score() : null;
      const legalAfter = after.decision !== "none" ? ((await this.engine.legal()).actions ?? []) : [];
      events = this.deriver.act(before, after, action, {
        scores: scores === null ? null : scores.scores,
        settlement: scores === null ? null : (scores.settlement ?? null),
        legal: legalAfter,
      });
    } else {
      // the engine's own events: kept as the round's earlier acts all the same
      this.deriver.acts.push({ action: { ...action }, events: [...events] });
    }
    return { events: [...events], state: after };
  }

  async score() {
    const found = await this.engine.score();
    const reply = { scores: [...(found.scores ?? [])], settlement: found.settlement ?? null };
    if (found.next !== null && found.next !== undefined) reply.next = found.next;
    return reply;
  }
}

/**
 * R-BONUS-HAND under bonus_replacement_use = must_play_replacement: after a bonus card played from
 * the hand, the stock card that replaced it is the turn's hand card.
 */
function forcedAfter(action, before, after, options) {
  if (action.type !== "bonus" || options.bonus_replacement_use !== "must_play_replacement") return null;
  const seat = action.player;
  if (after.decision !== "turn" || after.to_act !== seat) return null;
  const drawn = after.hands[seat].filter((c) => !before.hands[seat].includes(c));
  return drawn.length ? drawn[0] : null;
}

// a stack frame with its function's name, or without: `at f (file:///a/b.js:3:9)`, `at file:///a/b.js:3:9`
const NAMED_FRAME = /^\s*at (.*) \((.+):(\d+):\d+\)$/;
const BARE_FRAME = /^\s*at (.+):(\d+):\d+$/;

/** What failed, and where: the exception and the innermost frame of the adapter or engine. */
export function described(error) {
  if (!(error instanceof Error)) return `thrown: ${show(error)}`;
  let where = "";
  const frames = String(error.stack ?? "")
    .split("\n")
    .slice(1);
  for (const line of frames) {
    const named = NAMED_FRAME.exec(line);
    const [name, file, number] = named !== null ? named.slice(1) : [null, ...(BARE_FRAME.exec(line) ?? [null, null, null]).slice(1)];
    if (file === null || file.startsWith("node:")) continue; // Node's own frames, and native ones, are not the adapter's
    where = ` (at ${file.split("/").pop()}:${number} in ${name ?? "<anonymous>"})`;
    break;
  }
  const text = `${error.name}: ${error.message}${where}`;
  return error instanceof KitError || text.length < 2000 ? text : `${text.slice(0, 2000)}...`;
}

/** One request line as a checked request; a located `bad_request` otherwise. */
export function parseRequest(line) {
  let message;
  try {
    message = parseJson(line);
  } catch (error) {
    throw new ProtocolError(`the line is ${error.message}`, "bad_request");
  }
  const why = explain(message, "request", "request");
  if (why !== null) throw new ProtocolError(why, "bad_request");
  return message;
}

function seqOf(line) {
  let message;
  try {
    message = parseJson(line);
  } catch {
    return null;
  }
  const seq = message !== null && typeof message === "object" && !Array.isArray(message) ? message.seq : undefined;
  return (typeof seq === "bigint" || Number.isInteger(seq)) && seq >= 0 ? seq : null;
}

function blank(line) {
  for (const byte of line) if (byte !== 0x20 && (byte < 0x09 || byte > 0x0d)) return false;
  return true;
}

/**
 * The lines of `stdin` (an async iterable of bytes or strings), null for one longer than LINE_LIMIT
 * (read through and dropped); `beforeWait()` runs before each read that may block, so that replies to
 * requests sent ahead go out in one write.
 */
export async function* requestLines(stdin, beforeWait) {
  const chunks = stdin[Symbol.asyncIterator]();
  let buf = Buffer.alloc(0);
  let dropping = false;
  try {
    for (;;) {
      const end = buf.indexOf(0x0a);
      if (end < 0) {
        if (buf.length > LINE_LIMIT) {
          buf = Buffer.alloc(0);
          dropping = true;
        }
        await beforeWait();
        const { value, done } = await chunks.next();
        if (done) {
          if (buf.length && !dropping) yield buf;
          else if (dropping) yield null;
          return;
        }
        buf = Buffer.concat([buf, typeof value === "string" ? Buffer.from(value, "utf8") : value]);
        continue;
      }
      const line = buf.subarray(0, end + 1);
      buf = buf.subarray(end + 1);
      if (dropping) {
        dropping = false;
        yield null;
      } else {
        yield line;
      }
    }
  } finally {
    await chunks.return?.(); // after bye: stop reading, so that the process can end
  }
}

function write(stdout, text) {
  return new Promise((resolve, reject) => {
    let called = false;
    stdout.write(text, (error) => {
      called = true;
      if (error) reject(error);
      else resolve();
    });
    if (!called && stdout.write.length < 2) resolve(); // a writer that takes no callback
  });
}

/** The reply line; an unserialisable reply (an adapter's bug) is an `internal` error instead. */
export function encode(reply) {
  try {
    return `${encodeJson(reply)}\n`;
  } catch (error) {
    return `${encodeJson(new ProtocolError(`unserialisable reply: ${error.message}`, "internal").reply(reply?.seq))}\n`;
  }
}

/**
 * Serve `engine` until `bye` or the end of input; resolves to the exit status (0). With `debug`
 * (default: the environment variable GOSTOP_KIT_DEBUG set and not 0) every request and reply is
 * logged on stderr.
 */
export async function serve(engine, { stdin = process.stdin, stdout = process.stdout, debug } = {}) {
  if (debug === undefined || debug === null) debug = !["", "0", undefined].includes(process.env.GOSTOP_KIT_DEBUG);
  const session = new Session(engine);
  let pending = [];
  const flush = async () => {
    if (pending.length) {
      const text = pending.join("");
      pending = [];
      await write(stdout, text);
    }
  };
  for await (const line of requestLines(stdin, flush)) {
    if (line !== null && blank(line)) continue;
    if (debug) process.stderr.write(`kit <- ${line === null ? "(a line too long)" : line.toString("utf8").trimEnd()}\n`);
    let reply;
    if (line === null) {
      reply = new ProtocolError(`the line is longer than ${LINE_LIMIT} bytes: it was not read`, "bad_request").reply(null);
    } else {
      try {
        reply = await session.answer(parseRequest(line));
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        reply = error.reply(seqOf(line));
      }
    }
    const text = encode(reply);
    if (debug) process.stderr.write(`kit -> ${text.trimEnd()}\n`);
    pending.push(text);
    if (session.stopped) break;
  }
  await flush();
  return 0;
}
