"""The protocol schema in parts (spec/protocol/): one file per command (`commands/<cmd>.json`: its
request and its reply) and one per shared definition (`defs/<name>.json`), each a JSON Schema of
its own whose references name the other files (`"$ref": "../defs/card.json"`), so that an adapter
author reads the part a message needs. `protocol.schema.json`, the whole protocol in one document
(every reference `#/$defs/<name>`), is built from them by `bundle()`; a test holds it equal to the
parts, and `python -m gostop_conformance.spec._protocol_parts --write` writes it again.

`index.json` gives the bundle's title, description and the order of its definitions. The requests
without fields besides `seq` and `cmd` (legal, score, bye) are one branch of the bundle's request,
their commands named in an enum and their descriptions joined."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Final

from gostop_conformance.spec._schemas import spec_dir

#: where the parts live, under spec/
PARTS: Final = "protocol"
#: a part's reference: a sibling definition (`card.json`), or from a command `../defs/card.json`
_REF: Final = re.compile(r"^(?:\.\./(defs|commands)/)?([a-z_]+)\.json(?:#/\$defs/(request|reply))?$")


def _folder() -> Path:
    return spec_dir() / PARTS


def _load(path: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def _local(node: Any) -> Any:
    """The part's references as references inside the bundle (`#/$defs/<name>`)."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                match = _REF.match(value)
                if match is None:
                    raise ValueError(f"spec/protocol: a reference the bundle cannot resolve: {value!r}")
                folder, name, which = match.groups()
                value = f"#/$defs/{name}" if folder in (None, "defs") else f"#/$defs/{'reply_' + name if which == 'reply' else 'request'}"
            out[key] = _local(value)
        return out
    if isinstance(node, list):
        return [_local(v) for v in node]
    return node


def _part(node: dict[str, Any]) -> dict[str, Any]:
    """A part's schema without the keywords that make it a document of its own."""
    return {k: v for k, v in node.items() if k not in ("$schema", "$id", "title")}


def _requests(commands: list[str], folder: Path) -> dict[str, Any]:
    branches: list[dict[str, Any]] = []
    bare: dict[str, Any] | None = None  # the one branch of the requests without fields
    for cmd in commands:
        request = _part(_local(_load(folder / "commands" / f"{cmd}.json")["$defs"]["request"]))
        if set(request["properties"]) != {"seq", "cmd"}:
            branches.append(request)
            continue
        described = f"{cmd}: {request['description']}"
        if bare is None:
            bare = {
                **request,
                "properties": {**request["properties"], "cmd": {"enum": [cmd], **_without(request["properties"]["cmd"], "const")}},
            }
            bare["description"] = described
            branches.append(bare)
        else:
            bare["properties"]["cmd"]["enum"].append(cmd)
            bare["description"] += " " + described
    return {"oneOf": branches, "description": "A request of the harness: one JSON object on one line, told apart by `cmd`."}


def _without(node: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in node.items() if k != key}


def bundle(folder: Path | None = None) -> dict[str, Any]:
    """The whole protocol as one JSON Schema document, built from the parts."""
    folder = folder or _folder()
    index = _load(folder / "index.json")
    commands: list[str] = index["commands"]
    defs: dict[str, Any] = {}
    for name in index["order"]:
        if name == "request":
            defs[name] = _requests(commands, folder)
        elif name.startswith("reply_") and name[len("reply_") :] in commands:
            defs[name] = _part(_local(_load(folder / "commands" / f"{name[len('reply_') :]}.json")["$defs"]["reply"]))
        else:
            defs[name] = _part(_local(_load(folder / "defs" / f"{name}.json")))
    return {"$schema": index["$schema"], "$id": index["$id"], "title": index["title"], "description": index["description"], "$defs": defs}


def bundle_text(folder: Path | None = None) -> str:
    return json.dumps(bundle(folder), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    target = _folder() / "protocol.schema.json"
    if sys.argv[1:] == ["--write"]:
        target.write_text(bundle_text(), encoding="utf-8")
        print(f"wrote {target}")
    elif target.read_text(encoding="utf-8") != bundle_text():
        sys.exit(f"{target} differs from its parts: run python -m gostop_conformance.spec._protocol_parts --write")
