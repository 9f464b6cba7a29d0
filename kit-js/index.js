// The adapter kit for JavaScript and TypeScript: the protocol done (spec/protocol), so that an adapter
// is the engine's mapping and little else. Versioned with the protocol and shipped from this
// repository (not npm); the Python kit (gostop_conformance.kit, kit/) offers the same pieces under the
// same names, camelCase here. Types: index.d.ts. Docs: docs/kits.md.
//
// - serve(engine, {stdin, stdout, debug}): the stdio loop; an Engine is the six methods an adapter
//   writes (hello, newGame, state, legal, act, score), each free to return a Promise. Legal, Scores:
//   what two of them return. Session: one engine served, request by request (for tests).
// - hello(...), ruleset(id, exceptions), ALL, UNSUPPORTED: the declaration (docs/declarations.md),
//   checked against spec/options.yaml as it is built, with reasons.
// - Ruleset, Deal, Stack: new_game's ruleset and deal, parsed and checked (bad_deal).
// - state, player, stack, score, settlement, event: replies built and checked.
// - checkAction: an action checked apart from applying it, against the engine's own legal actions.
// - deriveEvents, deriveDealEvents, EventDeriver: the events of a reply from the states.
// - card, isCard, month, units, kind, isBonus, deckIds, equivalent, ofMonth, sortIds: the card table.
// - Rejected, Unsupported, BadDeal, ProtocolError, KitError: the errors an adapter throws.
// - ACTION_FIELDS, EVENT_FIELDS, PROTOCOL: the vocabulary's fields and the protocol version.
export { card, deckIds, equivalent, isBonus, isCard, kind, month, ofMonth, sortIds, units } from "./src/cards.js";
export { checkAction } from "./src/check.js";
export { Deal, Ruleset, Stack } from "./src/deal.js";
export { EventDeriver, deriveDealEvents, deriveEvents } from "./src/derive.js";
export { BadDeal, KitError, ProtocolError, Rejected, Unsupported } from "./src/errors.js";
export { ALL, UNSUPPORTED, hello, ruleset } from "./src/hello.js";
export { ACTION_FIELDS, EVENT_FIELDS, event, player, score, settlement, stack, state } from "./src/replies.js";
export { Legal, PROTOCOL, Scores, Session, serve } from "./src/server.js";
