"""The generated files committed under docs/ (so that the repository reads without a build) are
fresh, and the recorded protocol sessions are real and valid.

- docs/_build/generate.py --check: every committed generated file is what the generator makes now
  (the site build takes the same content from the same generator), and no file of a generated
  folder is left over.
- Every request of docs/protocol-examples/ is a valid request (except those meant to be refused as
  bad_request), every reply validates against the protocol schema, and each session shows what its
  description promises.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from reference_impl._spec import protocol_schema

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "docs" / "_build"
if str(BUILD) not in sys.path:
    sys.path.insert(0, str(BUILD))

from docsgen import sessions  # noqa: E402

Json = dict[str, Any]
DEFS = protocol_schema()["$defs"]


def _validator(definition: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({"$defs": DEFS, "$ref": f"#/$defs/{definition}"})


def test_the_committed_generated_files_are_fresh() -> None:
    proc = subprocess.run(
        [sys.executable, str(BUILD / "generate.py"), "--check"], cwd=REPO, capture_output=True, text=True, timeout=600, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@functools.cache
def _committed(path: str) -> list[Json]:
    text = (REPO / "docs" / path).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("session", sessions.SESSIONS, ids=lambda s: s.name)
def test_every_recorded_message_follows_the_protocol(session: sessions.Session) -> None:
    lines = _committed(session.path)
    assert len(lines) == 2 * len(session.requests)
    requests, replies = lines[0::2], lines[1::2]
    assert requests[0]["cmd"] == "hello" and requests[-1]["cmd"] == "bye", "a whole session, hello to bye"
    request_validator = _validator("request")
    for request, reply in zip(requests, replies, strict=True):
        assert reply.get("seq") == request["seq"]
        bad_request = reply.get("error", {}).get("code") == "bad_request"
        assert request_validator.is_valid(request) != bad_request, request
        definition = "reply_error" if bad_request else f"reply_{request['cmd']}"
        errors = list(_validator(definition).iter_errors(reply))
        assert not errors, f"{definition}: {errors[0].message}"


@pytest.mark.parametrize("session", sessions.SESSIONS, ids=lambda s: s.name)
def test_every_session_shows_what_it_promises(session: sessions.Session) -> None:
    lines = _committed(session.path)
    assert not sessions.missing(session, list(zip(lines[0::2], lines[1::2], strict=True)))
