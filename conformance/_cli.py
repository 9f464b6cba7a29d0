"""`gostop-conformance`: the harness command line (thin: parses arguments, calls the library)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from reference_impl import load_ruleset, ruleset_ids
from reference_impl._yamlio import InputError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gostop-conformance", description="The Go-Stop conformance suite.")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("rulesets", help="list the named rulesets with their option hashes")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "rulesets":
            for rid in ruleset_ids():
                rs = load_ruleset(rid)
                print(f"{rid:18} {rs.hash}  {rs.title}")
        return 0
    except InputError as exc:
        print(f"gostop-conformance: error: {exc}", file=sys.stderr)
        return 2
