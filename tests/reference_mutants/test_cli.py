"""`gostop-mutant` (gostop_conformance.mutants), called in process, its output read with capsys
(tests/conformance/test_mutation.py serves a mutant over stdio). Usage errors end in argparse's SystemExit with
the project's usage status, not in a traceback."""

from __future__ import annotations

import io
import sys

import orjson
import pytest

from gostop_conformance.mutants import MUTANTS, _cli
from gostop_conformance.spec import EXIT_OK, EXIT_USAGE, InputError


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        _cli.main(list(argv))
    assert exited.value.code == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: gostop-mutant")
    return err


def test_list_shows_every_mutant_with_its_clause_and_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli.main(["--list"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(maxsplit=2) for line in lines] == [[m.name, m.clause, m.description] for m in MUTANTS]
    # the name column is 30 wide (a longer name pushes the rest of its line to the right)
    assert all(line[31:].startswith(m.clause) for line, m in zip(lines, MUTANTS, strict=True) if len(m.name) <= 30)


def test_no_name_an_unknown_name_and_list_with_a_name_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert "a mutant name is required (gostop-mutant --list lists them)" in usage_error(capsys)
    err = usage_error(capsys, "nope")
    assert f"error: unknown mutant 'nope'; expected one of {', '.join(m.name for m in MUTANTS)}" in err
    assert "--list takes no mutant name" in usage_error(capsys, "--list", MUTANTS[0].name)


class Std:
    """Stands for sys.stdin / sys.stdout: the server reads and writes their binary `.buffer`."""

    def __init__(self, data: bytes = b"") -> None:
        self.buffer = io.BytesIO(data)


def test_a_mutant_is_applied_before_the_server_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The patching itself is replaced: a mutant applied here would stay for the rest of the test run."""
    applied: list[str] = []
    monkeypatch.setattr(_cli, "apply_for_process", applied.append)
    stdout = Std()
    monkeypatch.setattr(sys, "stdin", Std(b'{"seq": 1, "cmd": "hello", "protocol": "1"}\n{"seq": 2, "cmd": "bye"}\n'))
    monkeypatch.setattr(sys, "stdout", stdout)
    assert _cli.main([MUTANTS[0].name]) == EXIT_OK
    replies = [orjson.loads(line) for line in stdout.buffer.getvalue().splitlines()]
    assert applied == [MUTANTS[0].name] and [r["seq"] for r in replies] == [1, 2] and replies[0]["protocol"] == "1"


def test_a_mutant_that_cannot_be_applied_is_a_usage_error(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(name: str) -> None:
        raise InputError("mutants", "the compiled engine cannot be patched")

    monkeypatch.setattr(_cli, "apply_for_process", refuse)
    assert "error: mutants: the compiled engine cannot be patched" in usage_error(capsys, MUTANTS[0].name)
