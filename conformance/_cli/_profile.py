"""`profile`: which house rules an engine plays, learnt from its behaviour on the scenarios."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Final

from gostop_conformance.harness import _bounds as bounds
from gostop_conformance.harness import _dependencies as dependencies
from gostop_conformance.harness import _profile as profiles
from gostop_conformance.harness import _rulesetfile as rulesetfile
from gostop_conformance.harness._cli._common import (
    FORCE_JOBS_HELP,
    JOBS_HELP,
    RULES_HELP,
    TIMEOUT_HELP,
    AddParser,
    Command,
    required_engine,
    ruleset_file,
)
from gostop_conformance.harness._defaults import DEFAULT_TIMEOUT
from gostop_conformance.harness._engine import EngineError
from gostop_conformance.harness._jobs import StdioSpawn
from gostop_conformance.harness._outputs import writable_dir
from gostop_conformance.harness._safetext import engine_text
from gostop_conformance.harness._scenarios import default_root, load_corpus
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.spec import (
    EXIT_FAIL,
    EXIT_OK,
    InputError,
    option_registry,
    ruleset_ids,
)


def _add_profile(add_parser: AddParser) -> None:
    prof = add_parser("profile", help="learn which house rules an engine plays from its behaviour on the scenarios")
    prof.add_argument("--engine", help="engine command, as for run (default: $GOSTOP_ENGINE)")
    prof.add_argument("--option", action="append", default=[], help="only this option (repeatable)")
    prof.add_argument(
        "--base",
        default=None,
        help="the named ruleset the profile is said against (default: matgo-2p if the engine claims it or none, else the first it claims)",
    )
    prof.add_argument(
        "--ruleset-file",
        type=Path,
        default=None,
        help=RULES_HELP + "profile against its rules: the findings are compared with its values (its base is --base's default)",
    )
    prof.add_argument(
        "--out", type=Path, default=Path("reports/profile"), help="where profile.json, profile.yaml (a ruleset file) and profile.md go"
    )
    prof.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help=TIMEOUT_HELP)
    prof.add_argument("--jobs", type=int, default=1, help=JOBS_HELP)
    prof.add_argument("--force-jobs", action="store_true", help=FORCE_JOBS_HELP)


def _profile(args: argparse.Namespace) -> int:
    argv = required_engine(args)
    registry = option_registry()
    unknown = [o for o in args.option if o not in registry]
    if unknown:
        raise InputError("--option", f"unknown option {unknown[0]!r}; expected an option id of spec/options.yaml")
    if args.base is not None and args.base not in ruleset_ids():
        raise InputError("--base", f"unknown ruleset {args.base!r}")
    rules = ruleset_file(args.ruleset_file)
    jobs = bounds.jobs(args.jobs, force=args.force_jobs)
    timeout = bounds.seconds("--timeout", args.timeout)
    writable_dir("--out", args.out)
    root = default_root()
    corpus = load_corpus(root)
    engine = StdioEngine(argv, message_timeout=timeout)
    try:
        hello = engine.start()
        claimed = [c if isinstance(c, str) else c.get("id") for c in hello.get("rulesets") or []]
        known = [str(c) for c in claimed if c in ruleset_ids()]
        base = args.base or (rules.base if rules is not None else "matgo-2p" if "matgo-2p" in known or not known else known[0])
        spawn = StdioSpawn(argv, {"message_timeout": timeout}) if jobs > 1 else None
        stored = dependencies.load(root)
        found = profiles.profile(
            engine, corpus, stored, args.option, base=base, jobs=jobs, spawn=spawn, undeclared=profiles.undeclared(hello, corpus, stored)
        )
    except EngineError as exc:
        print(f"gostop-conformance: the engine failed: {exc.kind}: {exc.message}", file=sys.stderr)
        return EXIT_FAIL
    finally:
        engine.close()
    lines = profiles.table(found, base)
    for line in lines:
        print(line)
    if rules is not None:
        for line in rulesetfile.profile_against(found, rules):
            print(line)
    declared = profiles.declaration(found, [args.base] if args.base else known or [base], hello)
    identity = hello.get("engine")
    name = engine_text(identity.get("name") if isinstance(identity, dict) and identity.get("name") else " ".join(argv))
    ruleset_text, parent = rulesetfile.profile_ruleset(found, hello, name, base)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "profile.yaml").write_text(ruleset_text, encoding="utf-8")
    (args.out / "profile.json").write_text(json.dumps(declared, indent=2) + "\n", encoding="utf-8")
    (args.out / "findings.json").write_text(json.dumps(profiles.findings(found), indent=2) + "\n", encoding="utf-8")
    (args.out / "profile.md").write_text(profiles.markdown(found, base, lines), encoding="utf-8")
    print(
        f"wrote {args.out}/profile.json (a hello declaration for what was found), {args.out}/profile.yaml (the findings as a "
        f"ruleset file inheriting from {parent}), {args.out}/profile.md and {args.out}/findings.json"
    )
    return EXIT_OK


#: the commands of this module, by name
COMMANDS: Final = {
    "profile": Command(_add_profile, _profile),
}
