// JSON text from outside, parsed exactly: a seed is any integer from 0 to 2^64 - 1 (R-SHUFFLE), which a
// JavaScript number cannot hold, so an integer beyond Number.MAX_SAFE_INTEGER is read as a BigInt
// (and written back as its digits); every other value is JSON.parse's. A text that nests deeper
// than MAX_JSON_DEPTH is refused as the Python kit refuses it (spec: parse_json), before parsing.

/** How deep a JSON text may nest: the deepest request has five levels (deal.players[i].bombs). */
export const MAX_JSON_DEPTH = 64;

const DECODER = new TextDecoder("utf-8", { fatal: true });
// a per-process marker that no input can predict, so that no string of a request can pose as a
// replaced integer
const MARK = `\u0000bigint-${Math.random().toString(36).slice(2)}:`;
const MARK_TEXT = JSON.stringify(MARK).slice(1, -1);
const LONG_DIGITS = /\d{16,}/;
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/gs;
const WRITTEN_MARK = new RegExp(`"${MARK_TEXT.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}(-?\\d+)"`, "g");

/** Where the text opens its level limit + 1 (a 1-based column), or null when it nests no deeper. */
export function jsonDeeperThan(text, limit = MAX_JSON_DEPTH) {
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) brackets++;
  }
  if (brackets <= limit) return null; // nearly every line: too few brackets to go deeper
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // a string: its brackets do not count
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (i >= text.length) return null; // unterminated: not JSON, which the parser reports
    } else if (c === "[" || c === "{") {
      if (++depth > limit) return i + 1;
    } else if (c === "]" || c === "}") {
      depth--;
    }
  }
  return null;
}

/**
 * The value of one JSON text (a string, or UTF-8 bytes). Error says what is wrong: not UTF-8, not
 * JSON, or nested deeper than MAX_JSON_DEPTH.
 */
export function parseJson(input) {
  let text = input;
  if (typeof text !== "string") {
    try {
      text = DECODER.decode(input);
    } catch {
      throw new Error("not JSON (the bytes are not UTF-8)");
    }
  }
  const column = jsonDeeperThan(text);
  if (column !== null) {
    throw new Error(`nests deeper than ${MAX_JSON_DEPTH} levels (level ${MAX_JSON_DEPTH + 1} opens at column ${column})`);
  }
  let big = false;
  if (LONG_DIGITS.test(text)) {
    text = text.replace(TOKEN, (token) => {
      if (token[0] === '"' || /[.eE]/.test(token) || Number.isSafeInteger(Number(token))) return token;
      big = true;
      return `"${MARK_TEXT}${token}"`;
    });
  }
  try {
    return big ? JSON.parse(text, reviveBig) : JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${error.message})`);
  }
}

function reviveBig(_key, value) {
  return typeof value === "string" && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value;
}

function replaceBig(_key, value) {
  return typeof value === "bigint" ? `${MARK}${value}` : value;
}

/** One JSON text without a newline; a BigInt is written as its digits. TypeError when not serialisable. */
export function encodeJson(value) {
  const text = JSON.stringify(value, replaceBig);
  if (text === undefined) throw new TypeError(`${typeof value} is not JSON`);
  return text.includes(MARK_TEXT) ? text.replace(WRITTEN_MARK, "$1") : text;
}
