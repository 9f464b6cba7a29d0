// Runs the site's own search worker (the one its pages name) in Node, as the browser would, and
// answers queries with the theme's ranking: tests/docs/test_search.py.
// usage: node search_worker.js WORKER_FILE SEARCH_INDEX_JSON < queries.json > results.json
// queries.json: a list of strings; results.json: for each query, the result locations best first.
"use strict";
const fs = require("fs");
const path = require("path");
const [worker, indexPath] = process.argv.slice(2);
let handler = null;
const replies = [];
globalThis.self = globalThis;
globalThis.addEventListener = (type, fn) => { if (type === "message") handler = fn; };
globalThis.postMessage = (message) => replies.push(message);
globalThis.importScripts = (...urls) => {
  for (const url of urls) (0, eval)(fs.readFileSync(path.join(path.dirname(worker), url), "utf8"));
};
(0, eval)(fs.readFileSync(worker, "utf8"));

(async () => {
  const index = JSON.parse(fs.readFileSync(indexPath, "utf8"));
  index.options = { suggest: false };
  await handler({ data: { type: 0, data: index } });  // SETUP
  const out = [];
  for (const query of JSON.parse(fs.readFileSync(0, "utf8"))) {
    replies.length = 0;
    await handler({ data: { type: 2, data: query } });  // QUERY
    const items = replies[0].data.items.flat().sort((a, b) => b.score - a.score);
    out.push(items.map((item) => item.location));
  }
  process.stdout.write(JSON.stringify(out));
})().catch((err) => { console.error(err); process.exit(1); });
