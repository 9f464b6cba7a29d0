import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_JSON_DEPTH, encodeJson, parseJson } from "../src/json.js";

test("an integer a JavaScript number cannot hold is read exactly, and written back so", () => {
  const text = '{"seq": 3, "deal": {"seed": 18446744073709551615, "other": 12345678901234567890.5, "s": "12345678901234567890"}}';
  const value = parseJson(text);
  assert.equal(value.deal.seed, 18446744073709551615n);
  assert.equal(typeof value.deal.other, "number");
  assert.equal(value.deal.s, "12345678901234567890");
  assert.equal(value.seq, 3);
  assert.equal(encodeJson({ seq: 2n ** 64n - 1n, n: 5 }), '{"seq":18446744073709551615,"n":5}');
  assert.equal(parseJson(Buffer.from('{"seed": 9007199254740993}')).seed, 9007199254740993n);
});

test("what is not JSON, not UTF-8 or nested too deep is refused with the reason", () => {
  assert.throws(() => parseJson("not json"), /^Error: not JSON \(/);
  assert.throws(() => parseJson(Buffer.from([0x7b, 0xff, 0x7d])), /not UTF-8/);
  const deep = "[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1);
  assert.throws(() => parseJson(deep), /nests deeper than 64 levels \(level 65 opens at column 65\)/);
  assert.deepEqual(parseJson(`["${"[".repeat(100)}"]`), ["[".repeat(100)]); // brackets in a string do not count
  assert.throws(() => encodeJson(undefined), TypeError);
});
