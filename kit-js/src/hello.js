// The hello reply's declaration (docs/declarations.md): what the engine plays, built from named
// rulesets and options and checked against spec/options.yaml and spec/rulesets/ when it is built, so
// that a typo in an option id or value stops the adapter at its start, naming the mistake, rather
// than silently leaving scenarios unsupported.
import { DATA } from "./data.js";
import { KitError } from "./errors.js";
import { checked, show } from "./shape.js";

/** An option's rule is not implemented reliably: the scenarios that depend on it are UNSUPPORTED. */
export const UNSUPPORTED = "unsupported";
/** Every value of the option. */
export const ALL = "all";

const OPTIONS = DATA.options;
const PLAYER_COUNTS = new Set(["2", "3", "4"]);

function isInt(value) {
  return Number.isInteger(value);
}

function inRange(option, value) {
  return (option.min === undefined || value >= option.min) && (option.max === undefined || value <= option.max);
}

/** Whether `raw` is a value of the option (spec's OptionSpec.coerce). */
export function isOptionValue(option, raw) {
  const values = option.values ?? [];
  switch (option.type) {
    case "bool":
      return typeof raw === "boolean";
    case "int":
      return isInt(raw) && inRange(option, raw);
    case "enum":
      return typeof raw === "string" && values.includes(raw);
    case "int_or_enum":
      return typeof raw === "string" ? (option.symbols ?? []).includes(raw) : isInt(raw) && inRange(option, raw);
    case "int_list":
      return Array.isArray(raw) && raw.every((v) => isInt(v) && values.includes(v)) && raw.length <= (option.max_items ?? 0);
    default: // subset, card_set: distinct values of the list
      return Array.isArray(raw) && raw.every((v) => typeof v === "string" && values.includes(v)) && new Set(raw).size === raw.length;
  }
}

/** What the option's values are, for a message (spec's OptionSpec.expected). */
export function expected(option) {
  const values = (option.values ?? []).join(", ");
  switch (option.type) {
    case "bool":
      return "true or false";
    case "int":
      return `an integer from ${option.min} to ${option.max}`;
    case "enum":
      return `one of ${values}`;
    case "int_or_enum":
      return `an integer from ${option.min} to ${option.max} or one of ${(option.symbols ?? []).join(", ")}`;
    case "subset":
      return `a list of distinct values from ${values}`;
    case "int_list":
      return `a list of at most ${option.max_items} integers from ${values}`;
    default:
      return `a list of distinct card ids from ${values}`;
  }
}

// difflib.SequenceMatcher's ratio (Ratcliff-Obershelp: the longest common block, then the same on
// each side of it), so that a misspelt option gets the suggestions the Python kit gives
function matches(a, b) {
  let best = 0;
  let bi = 0;
  let bj = 0;
  let prev = new Array(b.length + 1).fill(0);
  for (let i = 0; i < a.length; i++) {
    const row = new Array(b.length + 1).fill(0);
    for (let j = 0; j < b.length; j++) {
      if (a[i] === b[j]) {
        row[j + 1] = prev[j] + 1;
        if (row[j + 1] > best) [best, bi, bj] = [row[j + 1], i - row[j + 1] + 1, j - row[j + 1] + 1];
      }
    }
    prev = row;
  }
  if (best === 0) return 0;
  return best + matches(a.slice(0, bi), b.slice(0, bj)) + matches(a.slice(bi + best), b.slice(bj + best));
}

/** The possibilities closest to `word` (difflib.get_close_matches: at most n, ratio at least cutoff, best first). */
export function closeMatches(word, possibilities, n = 3, cutoff = 0.6) {
  const scored = [];
  for (const x of possibilities) {
    const total = x.length + word.length;
    const ratio = total ? (2 * matches(x, word)) / total : 1;
    if (ratio >= cutoff) scored.push([ratio, x]);
  }
  scored.sort((p, q) => q[0] - p[0] || (q[1] > p[1] ? 1 : q[1] < p[1] ? -1 : 0));
  return scored.slice(0, n).map(([, x]) => x);
}

function unknownOption(where, option) {
  const close = closeMatches(option, Object.keys(OPTIONS));
  const hint = close.length ? ` (did you mean ${close.join(", ")}?)` : "";
  return new KitError(`${where}.${option}: unknown option of spec/options.yaml${hint}`);
}

function checkSupport(where, option, support, byPlayers) {
  if (!Object.hasOwn(OPTIONS, option)) throw unknownOption(where, option);
  const known = OPTIONS[option];
  if (support === ALL || support === UNSUPPORTED) return support;
  if (byPlayers && support !== null && typeof support === "object" && !Array.isArray(support)) {
    const keys = Object.keys(support);
    if (keys.length === 1 && keys[0] === "by_players" && support.by_players !== null && typeof support.by_players === "object") {
      const out = {};
      for (const [count, value] of Object.entries(support.by_players)) {
        if (!PLAYER_COUNTS.has(count))
          throw new KitError(`${where}.${option}.by_players: ${show(count)} is not a player count (2, 3 or 4)`);
        out[count] = checkSupport(`${where}.${option}.by_players`, option, value, false);
      }
      return { by_players: out };
    }
  }
  const values = Array.isArray(support) ? support : null;
  if (!values || values.length === 0) {
    const forms = byPlayers ? "a non-empty list of values or {by_players: ...}" : "or a non-empty list of values";
    throw new KitError(`${where}.${option}: expected 'all', 'unsupported', ${forms}, got ${show(support)}`);
  }
  for (const v of values) {
    if (!isOptionValue(known, v))
      throw new KitError(`${where}.${option}: ${show(v)} is not a value of the option: expected ${expected(known)}`);
  }
  return [...values];
}

function checkRulesetId(where, rulesetId) {
  if (!DATA.rulesets.includes(rulesetId)) {
    throw new KitError(`${where}: ${show(rulesetId)} is not a ruleset of spec/rulesets/ (${DATA.rulesets.join(", ")})`);
  }
}

/**
 * A named ruleset the engine plays, except for the options given (each 'all', 'unsupported', or the
 * list of values played instead): `ruleset("matgo-2p", {meong_mode: ["off"]})`.
 */
export function ruleset(rulesetId, exceptions = {}) {
  checkRulesetId("hello.rulesets", rulesetId);
  const names = Object.keys(exceptions);
  if (names.length === 0) return rulesetId;
  const options = {};
  for (const o of names) options[o] = checkSupport(`hello.rulesets[${rulesetId}].options`, o, exceptions[o], false);
  return { id: rulesetId, options };
}

/**
 * The hello reply (without seq and protocol, which the kit adds). `reasons` says, per option the
 * declaration names, why (the engine's source, a house rule): `gostop-conformance support` shows
 * them beside the scenarios they leave out. `events: "none"` declares an engine that reports no
 * events (spec/vocabulary.yaml, event_reports): the kit then derives none either.
 */
export function hello(name, version, { rulesets = [], options, language, homepage, positions, features = [], reasons, events } = {}) {
  const engine = { name, version };
  if (language) engine.language = language;
  if (homepage) engine.homepage = homepage;
  const found = { engine, rulesets: [...rulesets] };
  found.rulesets.forEach((item, i) => checkRulesetId(`hello.rulesets[${i}]`, typeof item === "string" ? item : item?.id));
  if (options && Object.keys(options).length) {
    found.options = {};
    for (const [o, s] of Object.entries(options)) found.options[o] = checkSupport("hello.options", o, s, true);
  }
  if (positions !== undefined && positions !== null) {
    if (!DATA.positions.includes(positions))
      throw new KitError(`hello.positions: ${show(positions)} is not one of ${DATA.positions.join(", ")}`);
    found.positions = positions;
  }
  const declared = [...features];
  if (declared.length) {
    const unknown = [...new Set(declared.filter((f) => !DATA.features.includes(f)))].sort();
    if (unknown.length) throw new KitError(`hello.features: ${unknown.join(", ")} not among ${[...DATA.features].sort().join(", ")}`);
    found.features = declared;
  }
  if (events !== undefined && events !== null) {
    if (!DATA.event_reports.includes(events))
      throw new KitError(`hello.events: ${show(events)} is not one of ${DATA.event_reports.join(", ")}`);
    found.events = events;
  }
  if (reasons && Object.keys(reasons).length) {
    const stray = Object.keys(reasons)
      .filter((o) => !Object.hasOwn(OPTIONS, o))
      .sort();
    if (stray.length) throw new KitError(`hello.reasons: ${stray.join(", ")}: unknown options of spec/options.yaml`);
    found.reasons = { ...reasons };
  }
  checked({ seq: 0, protocol: DATA.protocol, ...found }, "reply_hello", "hello");
  return found;
}
