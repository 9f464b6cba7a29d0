"""What the command families share: the help texts of common options, the engine command,
--shard, --ruleset-file, warnings and written files."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gostop_conformance.harness import _bounds as bounds
from gostop_conformance.harness._defaults import DEFAULT_PIPELINE, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT
from gostop_conformance.harness._outputs import written_whole
from gostop_conformance.harness._safetext import terminal_safe
from gostop_conformance.spec import (
    InputError,
    RulesetFile,
    load_ruleset_file,
)

#: how a command's parser is added: the `add_parser` of the top-level parser's subparsers
AddParser = Callable[..., argparse.ArgumentParser]


@dataclass(frozen=True)
class Command:
    """A subcommand: how its options join the parser, and the handler that runs it (its exit code)."""

    add: Callable[[AddParser], None]
    run: Callable[[argparse.Namespace], int]


#: the engine command when --engine is not given: CI sets it once for every step
ENGINE_VARIABLE: Final = "GOSTOP_ENGINE"
TIMEOUT_HELP: Final = f"seconds to wait for each reply (default {DEFAULT_TIMEOUT:g})"
STARTUP_HELP: Final = f"seconds to wait for the hello reply (default {DEFAULT_STARTUP_TIMEOUT:g})"
PIPELINE_HELP: Final = f"requests sent before their replies are read (default {DEFAULT_PIPELINE}; 0: wait for each reply)"
FORCE_JOBS_HELP: Final = "allow --jobs above this machine's cores (an engine that mostly waits)"
NO_CACHE_HELP: Final = (
    "derive every scenario's option dependencies again (default: reuse what the cache holds for the same "
    "scenario, spec and code; $GOSTOP_CACHE_DIR, else ~/.cache/gostop-conformance)"
)
RULES_HELP: Final = "a ruleset file of your own (house rules, docs/house-rules.md): "
JOBS_HELP: Final = "worker processes, each with an engine of its own (default 1; 0: every core); the report does not depend on it"


def ruleset_file(path: Path | None) -> RulesetFile | None:
    """The ruleset file of --ruleset-file, loaded (InputError with its file and line), or None."""
    return None if path is None else load_ruleset_file(path)


def shard_part(spec: str | None) -> tuple[int, int] | None:
    """--shard K/N as (K, N), or None without it."""
    if spec is None:
        return None
    try:
        k, n = (int(x) for x in spec.split("/"))
    except ValueError:
        raise InputError("--shard", f"expected K/N such as 2/4, got {spec!r}") from None
    if not 1 <= k <= n:
        raise InputError("--shard", f"expected 1 <= K <= N, got {spec!r}")
    return k, n


def warn(warning: str | None) -> None:
    """A warning on stderr (the command goes on): reports of different corpora compared."""
    if warning is not None:
        print(f"gostop-conformance: warning: {terminal_safe(warning)}", file=sys.stderr)


def required_engine(args: argparse.Namespace) -> list[str]:
    """The engine command of --engine or $GOSTOP_ENGINE, split; a command that needs an engine has no default."""
    if args.engine is None:
        raise InputError("--engine", f"give the engine command (or set {ENGINE_VARIABLE})")
    return bounds.engine_argv(args.engine, args.engine_option)


def wrote(flag: str, path: Path, text: str) -> bool:
    """`text` written whole into `path`; on failure (a full disk) said on stderr, never a traceback."""
    try:
        if path.exists() and not path.is_file():  # a device or a pipe: written as it is, never replaced
            path.write_text(text, encoding="utf-8")
        else:
            with written_whole(path) as out:
                out.write(text)
    except OSError as exc:
        print(f"gostop-conformance: {flag} {path} could not be written: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True
