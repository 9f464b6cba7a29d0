"""The protocol reference, generated from spec/protocol/protocol.schema.json (every field, with its
description) and spec/vocabulary.yaml (every closed set of names, the fields of each event kind and
the order of events), with the worked sessions of docs/protocol-examples/ (docsgen.sessions)
recorded from the reference engine's protocol server."""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from docsgen import sessions
from docsgen.links import Ctx, md_escape
from docsgen.model import Model
from docsgen.pages import header, table
from docsgen.sessions import wire
from gostop_conformance.spec import protocol_schema

Json = dict[str, Any]

#: vocabulary sets by the section of this page that lists them (label, anchor)
_SETS = (
    ("actions", "action type", "actions"),
    ("decisions", "decision", "decisions"),
    ("events", "event kind", "events"),
    ("settlements", "settlement kind", "settlements"),
    ("baks", "bak", "baks"),
    ("dans", "ribbon set", "dans"),
    ("point_count_sets", "point-count set", "point-count-sets"),
)

#: hello replies the page shows; the build fails if one stops matching the schema
HELLO_EXAMPLES: tuple[tuple[str, Json], ...] = (
    ("A named ruleset, every option value as spec/rulesets resolves it:", {"rulesets": ["matgo-2p"]}),
    (
        "The same ruleset with exceptions: two values of `two_card_bomb` instead of the ruleset's, any value of "
        "`jjok_steal`, and `extra_yaku` not implemented reliably (scenarios whose outcome depends on it are UNSUPPORTED):",
        {
            "rulesets": [
                {"id": "matgo-2p", "options": {"two_card_bomb": ["off", "capture_only"], "jjok_steal": "all", "extra_yaku": "unsupported"}}
            ]
        },
    ),
    (
        "No ruleset, options only: every option it lists is supported with those values; an option it does not list is "
        "unknown, and only the scenarios whose outcome depends on an unknown option are UNSUPPORTED:",
        {"rulesets": [], "options": {"players": [2], "scoring_system": ["gostop"], "go_threshold": "all", "jjok_steal": [1]}},
    ),
)


def load_schema() -> Json:
    return protocol_schema()


def _enum_section(values: list[Any], voc: Json) -> tuple[str, str] | None:
    for key, label, anchor in _SETS:
        if values == list(voc[key]):
            return label, anchor
    if values == [*voc["rejections"], *voc["errors"]]:
        return "rejection or error code", "rejections"
    return None


def type_md(node: Json, voc: Json) -> str:
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#def-{name})"
    if "const" in node:
        return f"`{json.dumps(node['const'])}`"
    if "enum" in node:
        section = _enum_section(node["enum"], voc)
        if section is not None:
            return f"a [{section[0]}](#{section[1]})"
        return "one of " + ", ".join(f"`{json.dumps(v)}`" for v in node["enum"])
    if "oneOf" in node:
        return " or ".join(type_md(s, voc) for s in node["oneOf"])
    t = node.get("type")
    if t == "array":
        text = "array of " + type_md(node["items"], voc) if "items" in node else "array"
        if "minItems" in node or "maxItems" in node:
            text += f" ({node.get('minItems', 0)} to {node.get('maxItems', 'any')} items)"
        return text
    if t == "integer":
        lo, hi = node.get("minimum"), node.get("maximum")
        if lo is not None and hi is not None:
            return f"integer {lo} to {hi}"
        if lo is not None:
            return f"integer ≥ {lo}"
        return "integer"
    if t == "string":
        return "string (see its pattern)" if "pattern" in node else "string"
    if t == "object":
        if "properties" in node:
            return "object (fields below)"
        if isinstance(node.get("additionalProperties"), dict):
            return "object: id → " + type_md(node["additionalProperties"], voc)
        return "object"
    return f"`{t}`" if t else "any"


def _inline_objects(node: Json) -> list[Json]:
    """The objects with fields described in place (not by a $ref) that a field's values may be."""
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        return _inline_objects(node["items"])
    if "oneOf" in node:
        return [o for alt in node["oneOf"] for o in _inline_objects(alt)]
    return [node] if "properties" in node else []


def field_rows(node: Json, voc: Json, prefix: str = "", skip: tuple[str, ...] = ()) -> list[list[str]]:
    required = set(node.get("required", []))
    rows = []
    for name, sub in node.get("properties", {}).items():
        if name in skip:
            continue
        shown = f"{prefix}{name}"
        rows.append([f"`{shown}`", type_md(sub, voc), "yes" if name in required else "", md_escape(sub.get("description", ""))])
        inner = "[]" if sub.get("type") == "array" else ""
        for obj in _inline_objects(sub):
            rows += field_rows(obj, voc, f"{shown}{inner}.")
    return rows


def fields_md(node: Json, voc: Json, skip: tuple[str, ...] = ()) -> str:
    rows = field_rows(node, voc, skip=skip)
    if not rows:
        return "No fields besides `seq`.\n" if skip else "No fields.\n"
    extra = "" if node.get("additionalProperties", True) is not False else "\n\nNo other fields are allowed."
    return table(["field", "type", "required", "description"], rows) + extra + "\n"


def reply_md(node: Json, voc: Json) -> str:
    out = [md_escape(node.get("description", "")) + "\n"] if node.get("description") else []
    if "oneOf" in node:
        success, error = node["oneOf"]
        out.append("*On success:*\n\n" + fields_md(success, voc))
        out.append(f"*On error:* {type_md(error, voc)}.\n")
    else:
        out.append(fields_md(node, voc))
    return "\n".join(out)


def _check_hello_examples(defs: Json) -> None:
    validator = jsonschema.Draft202012Validator({"$defs": defs, "$ref": "#/$defs/reply_hello"})
    for _, example in HELLO_EXAMPLES:
        validator.validate({"seq": 0, "protocol": "1", "engine": {"name": "my-engine", "version": "0.0.1"}, **example})


def _commands(ctx: Ctx, defs: Json, voc: Json) -> list[str]:
    out = [ctx.heading(2, "Commands", "commands")]
    for branch in defs["request"]["oneOf"]:
        cmd_schema = branch["properties"]["cmd"]
        cmds = [cmd_schema["const"]] if "const" in cmd_schema else list(cmd_schema.get("enum", []))
        for cmd in cmds:
            out.append(ctx.heading(3, cmd, f"cmd-{cmd}"))
            if len(cmds) == 1 and branch.get("description"):
                out.append(md_escape(branch["description"]) + "\n")
            out.append("**Request** (`cmd`: " + f'`"{cmd}"`):\n\n' + fields_md(branch, voc, skip=("cmd", "seq")))
            reply = defs.get(f"reply_{cmd}")
            if reply is not None:
                out.append("**Reply:**\n\n" + reply_md(reply, voc))
            if cmd == "hello":
                out.append(_hello_declaration(ctx))
    return out


def _hello_declaration(ctx: Ctx) -> str:
    parts = [
        ctx.heading(4, "The declaration", "hello-declaration"),
        "What `hello` declares decides which scenarios run. In `new_game`, `ruleset.id` is the named ruleset the "
        "configuration is based on (one the engine claimed; when it claimed none, the scenario's own ruleset, and the "
        "engine then plays by `ruleset.options`), and `ruleset.options` holds every option of `spec/options.yaml`, "
        "resolved. A scenario the declaration does not cover is UNSUPPORTED, never a failure.\n",
    ]
    for text, example in HELLO_EXAMPLES:
        parts.append(md_escape(text) + "\n\n```json\n" + wire(example) + "\n```\n")
    return "\n".join(parts)


def _vocabulary(ctx: Ctx, voc: Json, vocabulary_file: str) -> list[str]:
    out = [
        ctx.heading(2, "Vocabulary", "vocabulary"),
        f"From {vocabulary_file}, the single source of every closed set of names a message carries; the schema's "
        "enums are copies of these sets, checked by the tests.\n",
        ctx.heading(3, "Actions", "actions"),
        table(
            ["type", "fields", "meaning"],
            [[f"`{k}`", ", ".join(f"`{f}`" for f in v["fields"]) or "—", ctx.inline(v["doc"])] for k, v in voc["actions"].items()],
        )
        + "\n",
        ctx.heading(3, "Decisions", "decisions"),
        table(["decision", "meaning"], [[f"`{k}`", ctx.inline(v)] for k, v in voc["decisions"].items()]) + "\n",
        ctx.heading(3, "Events", "events"),
        "Every event has `kind` and may carry `clauses` (the rule-hit trace). The other fields of each kind, and what "
        "they mean for it; a field not listed is never part of that kind.\n",
    ]
    rows = []
    for kind, spec in voc["events"].items():
        fields = "<br>".join(f"`{name}`: {ctx.inline(text)}" for name, text in spec["fields"].items()) or "—"
        rows.append([f"`{kind}`", ctx.inline(spec["doc"]), fields])
    out.append(table(["kind", "meaning", "fields"], rows) + "\n")
    out.append(ctx.heading(3, "Event order", "event-order"))
    out.append(
        "The events of one reply come in this order; scenarios compare it with `events.exact` and `events.in_order` "
        "(not with `events.contains`). Each pattern reads like a regular expression over event kinds: `a b` a then b, "
        "`a?` at most one, `a*` any number, `a | b` either, `@name` a fragment below. The reply to `act` follows the "
        "pattern of its action type; the fragments follow.\n"
    )
    notes = voc["event_order_notes"]
    # a list, not a table: a table cell cannot hold a `|` inside code on both GitHub and the site
    for names, prefix in ((voc["event_order"], ""), (voc["event_fragments"], "@")):
        lines = []
        for name, pattern in names.items():
            note = f" — {ctx.inline(notes[name])}" if name in notes else ""
            lines.append(f"- `{prefix}{name}`: `{pattern}`{note}")
        out.append("\n".join(lines) + "\n")
    out.append(ctx.heading(3, "Settlement kinds", "settlements"))
    out.append(
        "Every settlement has `kind`, `winner`, `net`, `payments` and may carry `clauses` and `awards`; the other fields of each kind:\n"
    )
    out.append(
        table(
            ["kind", "meaning", "fields"],
            [[f"`{k}`", ctx.inline(v["doc"]), ", ".join(f"`{f}`" for f in v["fields"]) or "—"] for k, v in voc["settlements"].items()],
        )
        + "\n"
    )
    for key, title, anchor, label in (
        ("baks", "Baks", "baks", "bak"),
        ("dans", "Ribbon sets (dans)", "dans", "dan"),
        ("point_count_sets", "Point-count sets", "point-count-sets", "set"),
        ("features", "Features", "features", "feature"),
    ):
        out.append(ctx.heading(3, title, anchor))
        out.append(table([label, "meaning"], [[f"`{k}`", ctx.inline(v)] for k, v in voc[key].items()]) + "\n")
    out.append(ctx.heading(3, "Rejection codes", "rejections"))
    out.append("An `act` that breaks a rule is answered with `{seq, error: {code, message}}` and leaves the state unchanged.\n")
    out.append(table(["code", "meaning"], [[f"`{k}`", ctx.inline(v)] for k, v in voc["rejections"].items()]) + "\n")
    out.append(ctx.heading(3, "Error codes", "errors"))
    out.append("Errors outside the rules of an `act`, in reply to any command.\n")
    out.append(table(["code", "meaning"], [[f"`{k}`", ctx.inline(v)] for k, v in voc["errors"].items()]) + "\n")
    return out


def spec_file(ctx: Ctx, path: str) -> str:
    """A spec file by name: linked where the repository is read, named on the site (which has no copy)."""
    return f"[`{path}`]({ctx.repo(path)})" if ctx.portable else f"`{path}`"


def protocol_page(m: Model, portable: bool = False) -> str:
    src = "protocol.md"
    ctx = Ctx(src, m, portable)
    schema_file, vocabulary_file = spec_file(ctx, "spec/protocol/protocol.schema.json"), spec_file(ctx, "spec/vocabulary.yaml")
    schema = load_schema()
    defs = schema["$defs"]
    voc = m.vocabulary
    _check_hello_examples(defs)
    out = [
        header(ctx),
        f"# {md_escape(schema.get('title', 'Engine protocol'))}\n",
        md_escape(schema.get("description", "")) + "\n",
        "Every request carries `seq`; every reply echoes it. The harness sends `hello` first, then for "
        "each scenario round `new_game`, and `legal`, `act` and `score` as the scenario needs, and "
        "`bye` at the end. Card ids are those of the [card gallery]"
        f"({ctx.md('cards.md')}); actions, decisions, events and codes are the "
        "[vocabulary](#vocabulary) below. How to write an engine adapter step by step: "
        f"[Validate your engine in an afternoon]({ctx.md('tutorial.md')}); adapter skeletons: "
        f"[Python]({ctx.md('adapters/skeleton_engine.py')}), [JavaScript]({ctx.md('adapters/skeleton_engine.js')}). "
        f"This page is generated from {schema_file} and {vocabulary_file}.\n",
        f"The schema is also in parts, each a JSON Schema of its own: one file per command, its "
        f"request and its reply ({spec_file(ctx, 'spec/protocol/commands/')}`<cmd>.json`), and one per "
        f"shared definition ({spec_file(ctx, 'spec/protocol/defs/')}`<name>.json`), referring to each "
        "other by file; the one-file schema is built from them. Read the part a message needs.\n",
    ]
    out += _commands(ctx, defs, voc)
    out.append(ctx.heading(2, "Types", "types"))
    out.append("The definitions (`$defs`) of the schema, in its order (the replies are under their commands).\n")
    for name, sub in defs.items():
        if name == "request" or (name.startswith("reply_") and name != "reply_error"):
            continue
        out.append(ctx.heading(3, name, f"def-{name}"))
        if sub.get("description"):
            out.append(md_escape(sub["description"]) + "\n")
        if "properties" in sub:
            out.append(fields_md(sub, voc))
        else:
            out.append(f"Type: {type_md(sub, voc)}.\n")
        if "pattern" in sub:
            out.append(f"Pattern:\n\n```text\n{sub['pattern']}\n```\n")
    out += _vocabulary(ctx, voc, vocabulary_file)
    out += _sessions(ctx)
    return "\n".join(out)


def _sessions(ctx: Ctx) -> list[str]:
    out = [
        ctx.heading(2, "Worked sessions", "sessions"),
        "Whole sessions, `hello` to `bye`, recorded from the reference engine's protocol server (what "
        "`gostop-reference --stdio` answers): each request, then its reply, one line each on the wire. They are "
        f"committed as JSON Lines in `docs/{sessions.FOLDER}/` (one file per session, linked below) and recorded "
        "again by the tests, which fail when a file is stale.\n",
    ]
    for session in sessions.SESSIONS:
        out.append(ctx.heading(3, md_escape(session.title), f"session-{session.name}"))
        out.append(f"{md_escape(session.about)} ([{session.name}.jsonl]({ctx.md(session.path)}))\n")
        for request, reply in sessions.record(session):
            block = (
                f"**→ {request['seq']} `{request['cmd']}`** (harness to engine)\n\n```json\n{wire(request)}\n```\n\n"
                f"**←** (engine to harness)\n\n```json\n{wire(reply)}\n```\n"
            )
            out.append(block if ctx.portable else f'<div class="gs-wire" markdown="1">\n\n{block}\n</div>\n')
    return out
