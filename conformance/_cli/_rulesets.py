"""`rulesets` and `ruleset check|page`: the named rulesets listed, a ruleset file of one's own checked or paged."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Final

from gostop_conformance.harness import _rulesetfile as rulesetfile
from gostop_conformance.harness import _rulesetpage as rulesetpage
from gostop_conformance.harness._cli._common import (
    AddParser,
    Command,
)
from gostop_conformance.harness._outputs import writable_file
from gostop_conformance.spec import (
    EXIT_OK,
    load_ruleset,
    load_ruleset_file,
    ruleset_ids,
)


def _add_rulesets(add_parser: AddParser) -> None:
    add_parser("rulesets", help="list the named rulesets with their option hashes")


def _add_ruleset(add_parser: AddParser) -> None:
    rsf = add_parser("ruleset", help="a ruleset file of your own (house rules, docs/house-rules.md): check it, or make its page")
    rsf_sub = rsf.add_subparsers(dest="ruleset_command", required=True)
    chk = rsf_sub.add_parser("check", help="check a ruleset file (errors name file and line); print its resolved options and their hash")
    chk.add_argument("file", type=Path, help="the ruleset file (YAML, in the format of spec/rulesets/*.yaml)")
    chk.add_argument(
        "--json", action="store_true", help="print the resolved ruleset as JSON: id, file, hash, base, and the protocol's ruleset object"
    )
    page = rsf_sub.add_parser("page", help="write a ruleset file's page: one self-contained HTML file to share")
    page.add_argument("file", type=Path, help="the ruleset file (YAML, in the format of spec/rulesets/*.yaml)")
    page.add_argument("--out", type=Path, default=None, help="where the page goes (default: <its id>.html in this folder)")


def _ruleset(args: argparse.Namespace) -> int:
    rules = load_ruleset_file(args.file)
    if args.ruleset_command == "check":
        if args.json:
            print(json.dumps(rulesetfile.check_json(rules), indent=2))
        else:
            for line in rulesetfile.check_lines(rules):
                print(line)
        return EXIT_OK
    out = args.out or Path(f"{rules.ruleset.id}.html")
    writable_file("--out", out)
    out.write_text(rulesetpage.page_html(rulesetpage.view_of_file(rules)), encoding="utf-8")
    print(f"wrote {out}: the page of {rulesetfile.label(rules)}, {rules.hash}")
    return EXIT_OK


def _rulesets(args: argparse.Namespace) -> int:
    for rid in ruleset_ids():
        rs = load_ruleset(rid)
        print(f"{rid:18} {rs.hash}  {rs.title}")
    return EXIT_OK


#: the commands of this module, by name
COMMANDS: Final = {
    "rulesets": Command(_add_rulesets, _rulesets),
    "ruleset": Command(_add_ruleset, _ruleset),
}
