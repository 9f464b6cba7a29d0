"""The protocol reference, generated from spec/protocol/protocol.schema.json and spec/vocabulary.yaml,
with an example transcript produced by running the reference engine's protocol server
(`reference_impl._server.handle` over a `JsonEngine`) through one scenario of the corpus."""

from __future__ import annotations

import json
from typing import Any

from conformance import ReferenceEngine, Scenario, run_scenario
from docsgen.links import Ctx, md_escape
from docsgen.model import Model
from docsgen.pages import GENERATED, table
from reference_impl._jsonapi import JsonEngine
from reference_impl._server import handle
from reference_impl._spec import spec_dir

Json = dict[str, Any]
TRANSCRIPT_FILE = "downloads/example-transcript.jsonl"


def load_schema() -> Json:
    data: Json = json.loads((spec_dir() / "protocol" / "protocol.schema.json").read_text(encoding="utf-8"))
    return data


def type_md(schema: Json) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#def-{name})"
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return "one of " + ", ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    if "oneOf" in schema:
        return " or ".join(type_md(s) for s in schema["oneOf"])
    t = schema.get("type")
    if t == "array":
        text = "array of " + type_md(schema["items"]) if "items" in schema else "array"
        if "minItems" in schema or "maxItems" in schema:
            text += f" ({schema.get('minItems', 0)} to {schema.get('maxItems', 'any')} items)"
        return text
    if t == "integer":
        lo, hi = schema.get("minimum"), schema.get("maximum")
        if lo is not None and hi is not None:
            return f"integer {lo} to {hi}"
        if lo is not None:
            return f"integer ≥ {lo}"
        return "integer"
    if t == "string":
        return "string (see its pattern)" if "pattern" in schema else "string"
    if t == "object":
        if "properties" in schema:
            return "object (fields below)"
        if "additionalProperties" in schema and isinstance(schema["additionalProperties"], dict):
            return "object: id → " + type_md(schema["additionalProperties"])
        return "object"
    return f"`{t}`" if t else "any"


def fields_md(schema: Json, skip: tuple[str, ...] = ()) -> str:
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    rows = []
    for name, sub in props.items():
        if name in skip:
            continue
        desc = md_escape(sub.get("description", ""))
        if sub.get("type") == "object" and "properties" in sub:
            inner = "; ".join(
                f"`{k}`: {type_md(v)}" + (" (required)" if k in set(sub.get("required", [])) else "") for k, v in sub["properties"].items()
            )
            desc = (desc + " " if desc else "") + "Fields: " + inner + "."
        if sub.get("type") == "array" and isinstance(sub.get("items"), dict) and "properties" in sub["items"]:
            items = sub["items"]
            inner = "; ".join(
                f"`{k}`: {type_md(v)}" + (" (required)" if k in set(items.get("required", [])) else "")
                for k, v in items["properties"].items()
            )
            desc = (desc + " " if desc else "") + "Each item: " + inner + "."
        rows.append([f"`{name}`", type_md(sub), "yes" if name in required else "", desc])
    if not rows:
        return "No fields besides `seq`.\n" if skip else "No fields.\n"
    extra = "" if schema.get("additionalProperties", True) is not False else "\n\nNo other fields are allowed."
    return table(["field", "type", "required", "description"], rows) + extra + "\n"


def reply_md(schema: Json) -> str:
    if "oneOf" in schema:
        parts = []
        for i, alt in enumerate(schema["oneOf"]):
            label = "On error" if "error" in alt.get("required", []) else ("On success" if i == 0 else f"Variant {i + 1}")
            parts.append(f"*{label}:*\n\n" + fields_md(alt))
        return "\n".join(parts)
    return fields_md(schema)


def pick_scenario(corpus: list[Scenario]) -> Scenario:
    """A short single-round scenario with a Go and a Stop, chosen by a fixed rule (not by hand)."""

    def types(sc: Scenario) -> list[str]:
        return [str(s.act.get("type")) for s in sc.steps]

    candidates = [
        sc
        for sc in corpus
        if len(sc.rounds) == 1
        and "seed" not in sc.deal
        and not any(s.reject for s in sc.steps)
        and "stop" in types(sc)
        and len(sc.steps) >= 3
    ]
    if not candidates:
        candidates = [sc for sc in corpus if len(sc.rounds) == 1 and sc.steps] or list(corpus)
    return min(candidates, key=lambda sc: ("go" not in types(sc), len(sc.deal.get("hands", [])), len(sc.steps), sc.id))


def transcript(sc: Scenario) -> list[tuple[str, Json, Json]]:
    """The messages of a session over the scenario: (direction, request, reply), replies produced by
    the protocol server's `handle` over a fresh engine, exactly as `gostop-reference --stdio` answers."""
    result = run_scenario(ReferenceEngine(), sc)
    requests: list[Json] = [{"cmd": "hello", "protocol": "1"}]
    for kind, request, _ in result.transcript:
        if kind == "new_game":
            requests.append({"cmd": "new_game", "ruleset": request["ruleset"], "deal": request["deal"]})
        elif kind == "act":
            requests.append({"cmd": "act", "action": request})
        else:
            requests.append({"cmd": kind})
    requests.append({"cmd": "bye"})
    engine = JsonEngine()
    out = []
    for seq, req in enumerate(requests):
        message = {"seq": seq, **req}
        reply, _ = handle(engine, message)
        out.append((req["cmd"], message, reply))
    return out


def wire(obj: Json) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def transcript_jsonl(m: Model) -> str:
    sc = pick_scenario(m.corpus)
    lines = []
    for _, message, reply in transcript(sc):
        lines.append(wire(message))
        lines.append(wire(reply))
    return "\n".join(lines) + "\n"


def protocol_page(m: Model) -> str:
    src = "protocol.md"
    ctx = Ctx(src, m)
    schema = load_schema()
    defs = schema["$defs"]
    out = [
        GENERATED,
        f"# {md_escape(schema.get('title', 'Engine protocol'))}\n",
        md_escape(schema.get("description", "")) + "\n",
        "Every request carries `seq`; every reply echoes it. The harness sends `hello` first, then for "
        "each scenario round `new_game`, and `legal`, `act` and `score` as the scenario needs, and "
        "`bye` at the end. Card ids are those of the [card gallery]"
        f"({ctx.md('cards.md')}); actions, decisions, events and rejection codes are the "
        "[vocabulary](#vocabulary) below. How to write an engine adapter step by step: "
        f"[Validate your engine in an afternoon]({ctx.md('tutorial.md')}). This page is generated from "
        "`spec/protocol/protocol.schema.json` and `spec/vocabulary.yaml`.\n",
        "## Commands {#commands}\n",
    ]
    for branch in defs["request"]["oneOf"]:
        cmd_schema = branch["properties"]["cmd"]
        cmds = [cmd_schema["const"]] if "const" in cmd_schema else list(cmd_schema.get("enum", []))
        for cmd in cmds:
            out.append(f"### {cmd} {{#cmd-{cmd}}}\n")
            out.append("**Request** (`cmd`: " + f'`"{cmd}"`):\n\n' + fields_md(branch, skip=("cmd", "seq")))
            reply = defs.get(f"reply_{cmd}")
            if reply is not None:
                out.append(f"**Reply** ([reply_{cmd}](#def-reply_{cmd})):\n\n" + reply_md(reply))
    out.append("## Types {#types}\n")
    out.append("The definitions (`$defs`) of the schema, in its order.\n")
    for name, sub in defs.items():
        if name == "request":
            continue
        out.append(f"### {name} {{#def-{name}}}\n")
        if sub.get("description"):
            out.append(md_escape(sub["description"]) + "\n")
        if "oneOf" in sub and "properties" not in sub:
            out.append(reply_md(sub) if all("properties" in a for a in sub["oneOf"]) else f"Type: {type_md(sub)}.\n")
        elif "properties" in sub:
            out.append(fields_md(sub))
        else:
            out.append(f"Type: {type_md(sub)}.\n")
        if "pattern" in sub:
            out.append(f"Pattern:\n\n```text\n{sub['pattern']}\n```\n")
    voc = m.vocabulary
    out.append("## Vocabulary {#vocabulary}\n")
    out.append("From `spec/vocabulary.yaml`, shared by the reference engine, the scenario format and this protocol.\n")
    out.append("### Actions {#actions}\n")
    out.append(
        table(
            ["type", "fields", "meaning"],
            [[f"`{k}`", ", ".join(f"`{f}`" for f in v["fields"]) or "—", ctx.inline(v["doc"])] for k, v in voc["actions"].items()],
        )
        + "\n"
    )
    out.append("### Decisions {#decisions}\n")
    out.append(table(["decision", "meaning"], [[f"`{k}`", ctx.inline(v)] for k, v in voc["decisions"].items()]) + "\n")
    out.append("### Events {#events}\n")
    out.append(table(["event kind", "meaning"], [[f"`{k}`", ctx.inline(v)] for k, v in voc["events"].items()]) + "\n")
    out.append("### Rejection codes {#rejections}\n")
    out.append("An `act` that breaks a rule is answered with `{seq, error: {code, message}}` and leaves the state unchanged.\n")
    out.append(table(["code", "meaning"], [[f"`{k}`", ctx.inline(v)] for k, v in voc["rejections"].items()]) + "\n")
    sc = pick_scenario(m.corpus)
    messages = transcript(sc)
    out.append("## Example transcript {#transcript}\n")
    out.append(
        f"A whole session over the scenario {ctx.scenario_md(sc.id, sc.title)} (`{sc.id}`), produced when this "
        "site was built by running the reference engine's protocol server: the requests are those the "
        "harness sends for this scenario, the replies are the server's. Each message is one line on the "
        f"wire ([download the transcript as JSON Lines]({ctx.md(TRANSCRIPT_FILE)})).\n"
    )
    for cmd, message, reply in messages:
        out.append(
            f'<div class="gs-wire" markdown="1">\n\n**→ {message["seq"]} `{cmd}`** (harness to engine)\n\n'
            f"```json\n{wire(message)}\n```\n\n**←** (engine to harness)\n\n```json\n{wire(reply)}\n```\n\n</div>\n"
        )
    return "\n".join(out)
