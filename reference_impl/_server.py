"""`gostop-reference --stdio`: the reference engine as a protocol server (spec/protocol/).

One JSON object per line in, one per line out (compact UTF-8, written by orjson: a reply costs a
quarter of what the standard library takes to encode it), each reply echoing the request's `seq`. A line
that is not a valid request gets an error reply (`bad_request`, with the JSON path and what was
expected) and the server keeps serving; `bye` or the end of input stops it.
"""

from __future__ import annotations

import sys
from typing import IO, Any

import jsonschema
import orjson

from gostop_conformance.reference._jsonapi import JsonEngine
from gostop_conformance.spec import format_path, load_ruleset, protocol_check, protocol_schema, ruleset_ids

Json = dict[str, Any]


_BRANCH = {"hello": 0, "new_game": 1, "legal": 2, "score": 2, "bye": 2, "act": 3, "perft": 4}


def check_request(message: Any) -> str | None:
    """None when `message` is a valid request, else what is wrong with it (JSON path and expectation)."""
    if not isinstance(message, dict):
        return f"a request must be a JSON object, got {type(message).__name__}"
    cmd = message.get("cmd")
    if cmd not in _BRANCH:
        return f"cmd: expected one of {', '.join(_BRANCH)}, got {cmd!r}"
    if protocol_check("request", _BRANCH[cmd])(message):
        return None
    branch = {"$defs": protocol_schema()["$defs"], **protocol_schema()["$defs"]["request"]["oneOf"][_BRANCH[cmd]]}
    errors = list(jsonschema.Draft202012Validator(branch).iter_errors(message))
    if not errors:  # should the compiled check and the full validator ever disagree, the full one decides
        return None
    err = jsonschema.exceptions.best_match(errors)
    return f"{format_path(list(err.absolute_path)) or '(message)'}: {err.message}"


def handle(engine: JsonEngine, message: Any) -> tuple[Json, bool]:
    """The reply to one parsed message, and whether to stop serving."""
    seq = message.get("seq") if isinstance(message, dict) else None
    problem = check_request(message)
    if problem is not None:
        return {"seq": seq if isinstance(seq, int) else None, "error": {"code": "bad_request", "message": problem}}, False
    cmd = message["cmd"]
    if cmd == "hello":
        reply = engine.hello()
    elif cmd == "new_game":
        reply = engine.new_game(message["ruleset"], message["deal"])
    elif cmd == "legal":
        reply = engine.legal()
    elif cmd == "act":
        reply = engine.act(message["action"])
    elif cmd == "score":
        reply = engine.score()
    elif cmd == "perft":
        reply = engine.perft(message["depth"])
    else:
        return {"seq": seq}, True
    return {"seq": seq, **reply}, False


def serve(stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Serve until `bye` or the end of input (binary streams; the process's own by default)."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    engine = JsonEngine()
    for ruleset_id in ruleset_ids():  # ready before the first request: no game pays for the spec
        load_ruleset(ruleset_id)
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            reply: Json = {"seq": None, "error": {"code": "bad_request", "message": f"invalid JSON at column {exc.colno}: {exc.msg}"}}
            stop = False
        else:
            try:
                reply, stop = handle(engine, message)
            except Exception as exc:  # an engine bug must not kill the server: report it
                seq = message.get("seq") if isinstance(message, dict) else None
                reply, stop = {"seq": seq, "error": {"code": "internal", "message": f"{type(exc).__name__}: {exc}"}}, False
        try:
            out = orjson.dumps(reply, option=orjson.OPT_APPEND_NEWLINE)
        except TypeError as exc:  # an engine bug again: a reply that is not JSON
            internal = {"code": "internal", "message": f"unserialisable reply: {exc}"}
            out = orjson.dumps({"seq": reply.get("seq"), "error": internal}, option=orjson.OPT_APPEND_NEWLINE)
        stdout.write(out)
        stdout.flush()
        if stop:
            break
    return 0
