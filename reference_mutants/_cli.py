"""`gostop-mutant`: the reference engine's protocol server with one semantic mutant applied, for
checking that a suite catches the bug (thin: parses arguments, calls the library)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from gostop_conformance.mutants._set import BY_NAME, MUTANTS, apply_for_process
from gostop_conformance.reference import serve
from gostop_conformance.spec import EXIT_OK, InputError, run_guarded


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gostop-mutant",
        description="Serve the engine protocol (spec/protocol/) on stdin/stdout as the reference engine broken by one semantic mutant.",
    )
    p.add_argument("name", nargs="?", help="the mutant to serve (see --list)")
    p.add_argument("--list", action="store_true", help="list the mutants: name, clause, the bug it is")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    return run_guarded(_main, argv)


def _main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.list:
        if args.name is not None:
            parser.error("--list takes no mutant name")
        for m in MUTANTS:
            print(f"{m.name:30} {m.clause:20} {m.description}")
        return EXIT_OK
    if args.name is None:
        parser.error("a mutant name is required (gostop-mutant --list lists them)")
    if args.name not in BY_NAME:
        parser.error(f"unknown mutant {args.name!r}; expected one of {', '.join(BY_NAME)}")
    try:
        apply_for_process(args.name)
    except InputError as exc:
        parser.error(str(exc))
    return serve()
