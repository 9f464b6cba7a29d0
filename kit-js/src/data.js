// The spec data the kit reads (kit-js/spec-data.json), generated from spec/ by kit-js/generate.py so
// that no table here is a hand copy that could drift from spec/ (issue 40). Read with fs rather than
// a JSON import, which Node 18 and 20 still flag as experimental on stderr.
import { readFileSync } from "node:fs";

/** @type {any} */
export const DATA = JSON.parse(readFileSync(new URL("../spec-data.json", import.meta.url), "utf8"));

/** Deeply frozen, so that a caller cannot change the kit's tables through what it hands out. */
export function frozen(value) {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) frozen(item);
    Object.freeze(value);
  }
  return value;
}
