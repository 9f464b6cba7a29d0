// Values checked against the definitions of spec/protocol/protocol.schema.json, which
// kit-js/generate.py copies into spec-data.json without their prose. The kit has no runtime
// dependency, so this checks the subset of JSON Schema the protocol uses (generate.py refuses a
// schema with any other keyword) and names the JSON path of the first mistake. It catches an
// adapter's mistakes where they are made; the harness's full check of every reply stays the judge.
import { DATA } from "./data.js";
import { KitError } from "./errors.js";

const DEFS = DATA.schema;
const PATTERNS = new Map();

/** A JSON path as spec.format_path writes it: `state.hands[0]`. */
export function formatPath(path) {
  let out = "";
  for (const key of path) out += typeof key === "number" ? `[${key}]` : out ? `.${key}` : String(key);
  return out;
}

/** A value in a message: short JSON (what Python's repr is to the Python kit). */
export function show(value) {
  if (value === undefined) return "undefined";
  let text;
  try {
    text = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}` : v));
  } catch {
    text = String(value);
  }
  text ??= String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isInteger(value) {
  return typeof value === "bigint" || Number.isInteger(value);
}

const TYPES = {
  integer: isInteger,
  number: (v) => typeof v === "bigint" || (typeof v === "number" && Number.isFinite(v)),
  string: (v) => typeof v === "string",
  boolean: (v) => typeof v === "boolean",
  array: Array.isArray,
  object: isObject,
  null: (v) => v === null,
};

function same(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => same(a[k], b[k]));
  }
  // a seed read as a BigInt equals the same integer written as a number
  return (typeof a === "bigint" || typeof b === "bigint") && typeof a !== typeof b && String(a) === String(b);
}

function fail(path, message, loose = false) {
  return { path, message, loose };
}

/** A fragment with the definition its $ref names merged in (to read a branch's properties). */
function resolved(schema) {
  return schema.$ref === undefined ? schema : { ...DEFS[schema.$ref], ...withoutRef(schema) };
}

function withoutRef(schema) {
  const rest = { ...schema };
  delete rest.$ref;
  return rest;
}

/**
 * The first mistake of `value` under `schema` (a definition name or a fragment), as
 * {path, message}, or null when it conforms. `path` starts with `path`.
 */
export function problem(value, schema, path = []) {
  if (typeof schema === "string") schema = { $ref: schema };
  if (schema === true || schema === undefined) return null;
  if (schema === false) return fail(path, "no value is allowed here");
  if (schema.$ref !== undefined) {
    const found = problem(value, DEFS[schema.$ref], path);
    return found ?? problem(value, withoutRef(schema), path);
  }
  if (schema.oneOf !== undefined) {
    const found = oneOf(value, schema.oneOf, path);
    if (found) return found;
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => TYPES[t](value)))
      return fail(path, `${show(value)} is not of type ${types.map((t) => `'${t}'`).join(", ")}`, true);
  }
  if ("const" in schema && !same(value, schema.const)) return fail(path, `${show(schema.const)} was expected, got ${show(value)}`, true);
  if (schema.enum !== undefined && !schema.enum.some((v) => same(value, v))) {
    return fail(path, `${show(value)} is not one of ${schema.enum.map(show).join(", ")}`, true);
  }
  if (typeof value === "number" || typeof value === "bigint") {
    if (schema.minimum !== undefined && value < schema.minimum)
      return fail(path, `${show(value)} is less than the minimum of ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum)
      return fail(path, `${show(value)} is greater than the maximum of ${schema.maximum}`);
  }
  if (typeof value === "string" && schema.pattern !== undefined && !pattern(schema.pattern).test(value)) {
    return fail(path, `${show(value)} does not match ${show(schema.pattern)}`);
  }
  if (Array.isArray(value)) return arrayProblem(value, schema, path);
  if (isObject(value)) return objectProblem(value, schema, path);
  return null;
}

function pattern(text) {
  let found = PATTERNS.get(text);
  if (found === undefined) PATTERNS.set(text, (found = new RegExp(text, "u")));
  return found;
}

function arrayProblem(value, schema, path) {
  if (schema.minItems !== undefined && value.length < schema.minItems)
    return fail(path, `${show(value)} should have at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined && value.length > schema.maxItems)
    return fail(path, `${show(value)} should have at most ${schema.maxItems} items`);
  if (schema.items !== undefined) {
    for (let i = 0; i < value.length; i++) {
      const found = problem(value[i], schema.items, [...path, i]);
      if (found) return found;
    }
  }
  return null;
}

function objectProblem(value, schema, path) {
  for (const name of schema.required ?? []) {
    if (value[name] === undefined) return fail(path, `'${name}' is a required property`);
  }
  const properties = schema.properties ?? {};
  const keys = Object.keys(value).filter((k) => value[k] !== undefined); // JSON.stringify drops undefined
  if (schema.minProperties !== undefined && keys.length < schema.minProperties) {
    return fail(path, `${show(value)} should have at least ${schema.minProperties} properties`);
  }
  for (const key of keys) {
    if (schema.propertyNames !== undefined) {
      const found = problem(key, schema.propertyNames, path);
      if (found) return fail(path, `property name ${found.message}`);
    }
    if (Object.hasOwn(properties, key)) {
      const found = problem(value[key], properties[key], [...path, key]);
      if (found) return found;
    } else if (schema.additionalProperties === false) {
      return fail([...path, key], `additional properties are not allowed ('${key}' was unexpected)`);
    } else if (schema.additionalProperties !== undefined) {
      const found = problem(value[key], schema.additionalProperties, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * oneOf: exactly one branch. When none fits, the mistake of the branch meant: a branch whose
 * discriminating const (a request's `cmd`) the value does not have is not meant; among the others
 * the mistake that went deepest, a wrong type or value at the branch's top counting least.
 */
function oneOf(value, branches, path) {
  const results = branches.map((b) => problem(value, b, path));
  const fits = results.filter((r) => r === null).length;
  if (fits === 1) return null;
  if (fits > 1) return fail(path, `${show(value)} is valid under more than one of the given schemas`);
  const meant = branches.map((b) => !discriminatorMissed(value, resolved(b)));
  if (!meant.some(Boolean)) {
    const key = discriminator(resolved(branches[0]));
    if (key !== null && isObject(value)) {
      const allowed = branches.flatMap((b) => {
        const s = resolved(resolved(b).properties[key]);
        return "const" in s ? [s.const] : (s.enum ?? []);
      });
      return fail([...path, key], `${show(value[key])} is not one of ${allowed.join(", ")}`);
    }
  }
  let best = null;
  let bestRank = null;
  results.forEach((r, i) => {
    const rank = [meant[i] ? 1 : 0, r.loose && r.path.length === path.length ? 0 : 1, r.path.length];
    if (
      bestRank === null ||
      rank[0] > bestRank[0] ||
      (rank[0] === bestRank[0] && (rank[1] > bestRank[1] || (rank[1] === bestRank[1] && rank[2] > bestRank[2])))
    ) {
      best = r;
      bestRank = rank;
    }
  });
  return best;
}

function discriminator(schema) {
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    const s = resolved(sub);
    if ("const" in s || s.enum !== undefined) return key;
  }
  return null;
}

function discriminatorMissed(value, schema) {
  if (!isObject(value)) return false;
  const key = discriminator(schema);
  return key !== null && value[key] !== undefined && problem(value[key], schema.properties[key], []) !== null;
}

// Every reply of a round is checked, and an interpreted walk of the schema (a fragment merged per
// $ref, a path array per step) was most of a kit adapter's time, gostop-ts's included (issue 42).
// So each definition is compiled once into a yes/no check that allocates nothing, and the walk
// above runs only on a value that fails, to say why: `valid(v, d)` is exactly `problem(v, d) === null`
// (kit-js/test/shape.test.js holds them equal over replies and their mutations).
const COMPILED_REFS = new Map();
const COMPILED_FRAGMENTS = new WeakMap();
const ALWAYS = () => true;
const NEVER = () => false;

function allOf(checks) {
  if (checks.length === 0) return ALWAYS;
  if (checks.length === 1) return checks[0];
  return (value) => {
    for (const check of checks) if (!check(value)) return false;
    return true;
  };
}

function compileRef(name) {
  const found = COMPILED_REFS.get(name);
  if (found !== undefined) return found;
  let real = null;
  COMPILED_REFS.set(name, (value) => real(value)); // a definition that refers to itself, while it is compiled
  real = compile(DEFS[name]);
  COMPILED_REFS.set(name, real);
  return real;
}

function compile(schema) {
  if (typeof schema === "string") return compileRef(schema);
  if (schema === true || schema === undefined) return ALWAYS;
  if (schema === false) return NEVER;
  const found = COMPILED_FRAGMENTS.get(schema);
  if (found !== undefined) return found;
  let real = null;
  COMPILED_FRAGMENTS.set(schema, (value) => real(value));
  real = allOf(compileKeywords(schema));
  COMPILED_FRAGMENTS.set(schema, real);
  return real;
}

function compileKeywords(schema) {
  const checks = [];
  if (schema.$ref !== undefined) checks.push(compileRef(schema.$ref));
  if (schema.oneOf !== undefined) {
    const branches = schema.oneOf.map(compile);
    checks.push((value) => {
      let fits = 0;
      for (const branch of branches) if (branch(value) && ++fits > 1) return false;
      return fits === 1;
    });
  }
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).map((t) => TYPES[t]);
    checks.push(types.length === 1 ? types[0] : (value) => types.some((t) => t(value)));
  }
  if ("const" in schema) {
    const expected = schema.const;
    checks.push((value) => same(value, expected));
  }
  if (schema.enum !== undefined) {
    const allowed = schema.enum;
    checks.push((value) => allowed.some((v) => same(value, v)));
  }
  const { minimum, maximum } = schema;
  if (minimum !== undefined || maximum !== undefined) {
    checks.push((value) => {
      if (typeof value !== "number" && typeof value !== "bigint") return true;
      return !(minimum !== undefined && value < minimum) && !(maximum !== undefined && value > maximum);
    });
  }
  if (schema.pattern !== undefined) {
    const regex = pattern(schema.pattern);
    checks.push((value) => typeof value !== "string" || regex.test(value));
  }
  const array = compileArray(schema);
  if (array !== null) checks.push(array);
  const object = compileObject(schema);
  if (object !== null) checks.push(object);
  return checks;
}

function compileArray(schema) {
  const { minItems, maxItems } = schema;
  if (minItems === undefined && maxItems === undefined && schema.items === undefined) return null;
  const item = schema.items === undefined ? null : compile(schema.items);
  return (value) => {
    if (!Array.isArray(value)) return true;
    if ((minItems !== undefined && value.length < minItems) || (maxItems !== undefined && value.length > maxItems)) return false;
    if (item !== null) for (let i = 0; i < value.length; i++) if (!item(value[i])) return false;
    return true;
  };
}

function compileObject(schema) {
  const required = schema.required ?? [];
  const { minProperties, additionalProperties } = schema;
  const names = schema.propertyNames === undefined ? null : compile(schema.propertyNames);
  const properties = new Map(Object.entries(schema.properties ?? {}).map(([key, sub]) => [key, compile(sub)]));
  const extra = additionalProperties === undefined || additionalProperties === false ? null : compile(additionalProperties);
  const closed = additionalProperties === false;
  if (!required.length && minProperties === undefined && names === null && !properties.size && extra === null && !closed) return null;
  return (value) => {
    if (!isObject(value)) return true;
    for (const name of required) if (value[name] === undefined) return false;
    let count = 0;
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (item === undefined) continue; // JSON.stringify drops it
      count++;
      if (names !== null && !names(key)) return false;
      const check = properties.get(key) ?? (closed ? NEVER : extra);
      if (check !== null && !check(item)) return false;
    }
    return minProperties === undefined || count >= minProperties;
  };
}

/** Whether `value` conforms to the definition (a name of spec/protocol's $defs, or a fragment of one). */
export function valid(value, definition) {
  return compile(definition)(value);
}

/**
 * Why `value` breaks the definition (a name of spec/protocol's $defs, or a fragment of one called
 * `name`), located: `where.path: message (spec/protocol: name)`; null when it conforms.
 */
export function explain(value, definition, where, name = definition) {
  if (valid(value, definition)) return null;
  const found = problem(value, definition, [where]);
  return found === null ? null : `${formatPath(found.path)}: ${found.message} (spec/protocol: ${name})`;
}

/** `value` when it conforms to the definition; KitError naming the path otherwise. */
export function checked(value, definition, where, name = definition) {
  const why = explain(value, definition, where, name);
  if (why !== null) throw new KitError(why);
  return value;
}
