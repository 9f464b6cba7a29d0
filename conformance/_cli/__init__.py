"""`gostop-conformance`: the harness command line. This package builds the top-level parser and
dispatches; each command family's module adds its subcommands' options and holds their handlers,
which parse nothing else and call the library.

Exit codes: 0 every scenario passed (or was skipped / a known failure), 1 failures, 2 usage or
input error.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any, Final

from gostop_conformance.harness._cli import _corpus, _fuzz, _perft, _profile, _reports, _rulesets, _run
from gostop_conformance.harness._cli._common import ENGINE_VARIABLE, Command
from gostop_conformance.harness._interrupts import Interrupts
from gostop_conformance.harness._safetext import terminal_safe
from gostop_conformance.harness._scenarios import corpus_digest
from gostop_conformance.reference import PROTOCOL_VERSION, engine_version
from gostop_conformance.spec import EXIT_USAGE, InputError, run_guarded

EXIT_CODES: Final = """exit codes:
  0    every scenario passed, was unsupported or is a known failure, and --min-checked ran
  1    a failure, an error, a crash, a timeout or a protocol breach; too little checked; a failed handshake
  2    a usage or input error (the message names the option, file and line)
  130  interrupted by Ctrl-C (143: by SIGTERM); the reports hold what was decided, the rest NOT_RUN

environment:
  GOSTOP_ENGINE  the engine command when --engine is not given (run, smoke, support, fuzz, perft)"""
#: every command by name, from the module of its family
COMMANDS: Final[dict[str, Command]] = {
    **_run.COMMANDS,
    **_corpus.COMMANDS,
    **_fuzz.COMMANDS,
    **_perft.COMMANDS,
    **_rulesets.COMMANDS,
    **_reports.COMMANDS,
    **_profile.COMMANDS,
}
#: the order `--help` lists the commands in (users and docs know it; it is not the families')
ORDER: Final = (
    "run",
    "support",
    "smoke",
    "lint",
    "dependencies",
    "coverage",
    "mutants",
    "fuzz",
    "fuzz-merge",
    "perft",
    "export",
    "rulesets",
    "ruleset",
    "summary",
    "profile",
    "report",
    "ledger",
)


class _Version(argparse.Action):
    """--version: the suite, its protocol and its corpus (CHANGELOG.md records each release's
    corpus digest), computed only when asked."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None) -> None:
        print(f"{parser.prog} {engine_version()} (protocol {PROTOCOL_VERSION}, corpus {corpus_digest()})")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gostop-conformance",
        description="The Go-Stop conformance suite.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action=_Version, help="the suite's version, its protocol's and its corpus's digest")
    sub = p.add_subparsers(dest="command", required=True)
    for name in ORDER:
        COMMANDS[name].add(sub.add_parser)
    return p


def _main(argv: Sequence[str] | None = None, interrupts: Interrupts | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.engine_option = "--engine"
    if getattr(args, "engine", "") is None and ENGINE_VARIABLE in os.environ:
        # set but empty is a mistake to report (a CI secret that did not expand), never the default engine
        args.engine = os.environ[ENGINE_VARIABLE]
        args.engine_option = f"${ENGINE_VARIABLE}"
    # SIGTERM (a CI job cancelled) stops a command as Ctrl-C does: a run ends its engines, writes its
    # reports and marks the rest NOT_RUN; any other command stops without a traceback. The console
    # script hands over the handlers it set for the whole process; a caller in process gets its own,
    # restored afterwards.
    own = interrupts is None and threading.current_thread() is threading.main_thread()
    args.interrupts = interrupts = interrupts or Interrupts()
    previous = signal.signal(signal.SIGTERM, interrupts) if own else None
    try:
        code = COMMANDS[args.command].run(args)
        interrupts.disarm()  # the result stands
        return code
    except InputError as exc:
        print(f"gostop-conformance: error: {terminal_safe(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("gostop-conformance: interrupted", file=sys.stderr)
        return interrupts.exit_code()
    finally:
        if own:
            signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None, *, interrupts: Interrupts | None = None) -> int:
    # an engine's text (its error messages, its name, a value in its replies) reaches the console, and
    # may hold characters the console's encoding cannot (a Latin-1 locale, PYTHONIOENCODING=ascii, a
    # redirected Windows console): they are shown escaped, never a UnicodeEncodeError that ends the
    # run before its reports are written. stderr escapes them already (Python's default for it).
    stdout = sys.stdout
    errors = getattr(stdout, "errors", None)
    reconfigure = getattr(stdout, "reconfigure", None)
    if reconfigure is not None and errors == "strict":
        reconfigure(errors="backslashreplace")
    try:
        return run_guarded(lambda a: _main(a, interrupts), argv)
    finally:
        if reconfigure is not None and errors == "strict":
            with contextlib.suppress(ValueError):  # closed meanwhile
                reconfigure(errors=errors)
