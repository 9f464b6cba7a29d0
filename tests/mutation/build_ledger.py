"""Build the ledger of syntactic mutation survivors (issue 15) from a mutmut run.

    make mutation-syntactic             # mutmut over every engine module (setup.cfg), ~1 h on 2 cores
    .venv/bin/python tests/mutation/build_ledger.py  # in the checkout where mutmut ran

A run over some functions only (`mutmut run 'gostop_conformance.reference._deal.x_check_deal__mutmut_*' ...`,
after a stopped run or an edit of those functions) is completed by the ledger of the earlier run:
`build_ledger.py --carry OLD_LEDGER` gives every mutant this run did not check that run's result,
where its function's syntax tree is the same at both commits (see `carry`).

Every mutant that is not killed gets one entry, keyed by what it changes (module, function, the
line before and after), not by mutmut's running number, so that a hand-written verdict survives
an unrelated edit. Entries are classified mechanically where the change is of a kind that cannot
alter a rule's outcome, with the reason; everything else is `open` until a scenario kills it or a
person writes a verdict into verdicts.yaml (`justified` with the reason it is harmless, or
`killed` with the test that killed it after the run), which every rebuild applies.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import yaml

LEDGER: Final = Path(__file__).with_name("ledger.yaml")
VERDICTS: Final = Path(__file__).with_name("verdicts.yaml")
STRING: Final = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")
CLAUSE_ID: Final = re.compile(r"[\"']R-[A-Z0-9-]+[\"']")

#: mechanical categories and why a survivor of that kind changes no rule outcome
REASONS: Final = {
    "trace-annotation": "changes only a clause id an event cites: the rule-hit trace that "
    "`gostop-conformance coverage` reads, not a capture, score, payment or legal action",
    "message-text": "changes only the wording of an error message: the protocol judges the "
    "rejection code and the JSON path, never the message",
    "help-text": "changes only the help text of a command-line command or option (argparse's "
    "help= or description=): what --help prints, not what any command does",
}


def changed_lines(diff: str) -> tuple[list[str], list[str]]:
    lines = diff.splitlines()
    minus = [line[1:] for line in lines if line.startswith("-") and not line.startswith("---")]
    plus = [line[1:] for line in lines if line.startswith("+") and not line.startswith("+++")]
    return minus, plus


#: functions whose only product is the rule-hit trace (the clause ids a score or event cites)
TRACE_ONLY: Final = frozenset({"gostop_conformance.reference._scoring:__trace"})


#: a line whose product is a clause-id list: `clauses = ...`, `clauses: T = ...`, `clauses=...`, `"clauses": ...`
CLAUSES_BINDING: Final = re.compile(r"^\s*(clauses\s*(:[^=]+)?=|clauses=|\"clauses\":|out\[\"clauses\"\]\s*=)")


def classify(diff: str, function: str = "") -> str:
    if function in TRACE_ONLY:
        return "trace-annotation"
    minus, plus = changed_lines(diff)
    if minus and all(CLAUSES_BINDING.match(line) for line in minus):
        # the engine only carries a `clauses` value into events, scores and settlements (the
        # trace), never tests it (tests/mutation/test_ledger.py checks)
        return "trace-annotation"
    if len(minus) != 1 or len(plus) != 1:
        return "open"
    before, after = minus[0], plus[0]
    if only_the_message_changes(before, after):
        return "message-text"
    if only_help_text_changes(before, after):
        return "help-text"
    if STRING.sub("S", before) != STRING.sub("S", after):
        return "open"
    pairs = [(a, b) for a, b in zip(STRING.findall(before), STRING.findall(after), strict=False) if a != b]
    if not pairs:
        return "open"
    old = pairs[0][0]
    # the engine never branches on a clause id (tests/mutation/test_ledger.py checks): changing one
    # anywhere changes only the trace
    if CLAUSE_ID.fullmatch(old):
        return "trace-annotation"
    return "open"


#: exceptions whose last argument is a message for people (the others name a path or a code)
MESSAGE_ERRORS: Final = frozenset({"InputError", "Rejection", "ValueError", "DeclarationError", "EngineError"})


def _raised_call(line: str) -> ast.Call | None:
    try:
        tree = ast.parse(line.strip())
    except SyntaxError:
        return None
    stmt = tree.body[0] if len(tree.body) == 1 else None
    if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call) and isinstance(stmt.exc.func, ast.Name):
        return stmt.exc
    return None


def only_the_message_changes(before: str, after: str) -> bool:
    """`raise E(path_or_code, message)` where only the message argument differs (or is gone)."""
    old, new = _raised_call(before), _raised_call(after)
    if old is None or new is None or not isinstance(old.func, ast.Name) or old.func.id not in MESSAGE_ERRORS:
        return False
    if ast.dump(old.func) != ast.dump(new.func) or old.keywords or new.keywords:
        return False
    # a dropped argument is not wording: InputError(path) alone raises a TypeError instead
    return len(new.args) == len(old.args) >= 1 and [ast.dump(a) for a in new.args[:-1]] == [ast.dump(a) for a in old.args[:-1]]


#: keyword arguments of argparse whose value is only shown to people
HELP_KEYWORDS: Final = frozenset({"help", "description"})


class _BlankHelp(ast.NodeTransformer):
    def visit_keyword(self, node: ast.keyword) -> ast.keyword:
        if node.arg in HELP_KEYWORDS and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return ast.keyword(arg=node.arg, value=ast.Constant(value=""))
        return node


def only_help_text_changes(before: str, after: str) -> bool:
    """A line whose only difference is the string given as `help=` or `description=` (a call's
    other arguments, and every other part of the line, the same)."""
    try:
        old, new = ast.parse(before.strip()), ast.parse(after.strip())
    except SyntaxError:
        return False
    if ast.dump(old) == ast.dump(new):
        return False
    return ast.dump(_BlankHelp().visit(old)) == ast.dump(_BlankHelp().visit(new))


def key_of(name: str, diff: str) -> str:
    module, _, rest = name.partition(".x")
    function = rest.rsplit("__mutmut_", 1)[0].replace("ǁ", ".").strip(".")
    minus, plus = changed_lines(diff)
    return f"{module}:{function}: {' / '.join(s.strip() for s in minus)} => {' / '.join(s.strip() for s in plus)}"


#: what a person may write in verdicts.yaml: a reason the mutant is harmless, or the test that
#: killed it after the run the ledger records
HAND_VERDICTS: Final = ("justified", "killed")


def load_verdicts(paths: list[Path] | None = None) -> dict[str, dict[str, Any]]:
    """Every hand verdict: verdicts.yaml and verdicts-*.yaml (one file per module or rule area, so
    that people working on different modules do not edit the same file); a key judged twice is an error."""
    found: dict[str, dict[str, Any]] = {}
    for path in paths if paths is not None else sorted(VERDICTS.parent.glob("verdicts*.yaml")):
        for item in yaml.safe_load(path.read_text(encoding="utf-8"))["verdicts"] or []:
            if item.get("verdict") not in HAND_VERDICTS or not str(item.get("reason", "")).strip():
                raise ValueError(f"{path}: {item.get('key')!r}: expected verdict justified or killed, with a reason")
            if item["key"] in found:
                raise ValueError(f"{path}: {item['key']!r}: judged twice")
            found[item["key"]] = item
    return found


def mutmut_records() -> list[dict[str, Any]]:
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    from mutmut.stats import status_by_exit_code
    from mutmut.utils.file_utils import walk_mutatable_files

    out = []
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        for name, code in data.exit_code_by_key.items():
            status = status_by_exit_code[code]
            diff = "" if status == "killed" else get_diff_for_mutant(name, path=data.path)
            out.append({"name": name, "module": str(path), "status": status, "diff": diff})
    return out


def load_differential() -> dict[str, dict[str, Any]]:
    """tests/mutation/differential.py's results by mutmut name ({} when it has not been run)."""
    path = Path(__file__).with_name("differential.json")
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def load_recheck() -> dict[str, dict[str, Any]]:
    """tests/mutation/recheck.py's results by mutmut name ({} when it has not been run)."""
    path = Path(__file__).with_name("recheck.json")
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def function_sources(source: str) -> dict[str, str]:
    """Each function of a module by the name a ledger key gives it (`_name` for a module-level
    function, as mutmut's `x_name` leaves it; `Class.method`), with its syntax tree as text."""
    out = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out[f"_{node.name}"] = ast.dump(node)
        elif isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                    out[f"{node.name}.{sub.name}"] = ast.dump(sub)
    return out


def carry(records: list[dict[str, Any]], carried: dict[str, Any], unchanged: Callable[[str, str], bool]) -> list[dict[str, Any]]:
    """A run over some functions only, completed by an earlier full or partial run's ledger.

    A mutant this run did not check takes the earlier run's result where its function is unchanged
    since that run's commit (`unchanged(module path, function)`): its ledger entry's status when it
    has one, killed when it has none (a ledger lists every mutant not killed, a timeout or a kill on
    recheck counted as killed). A mutant of a changed function stays not checked.
    """
    prior = {e["key"]: e for e in carried["entries"]}
    out = []
    for rec in records:
        if rec["status"] != "not checked":
            out.append(rec)
            continue
        key = key_of(rec["name"], rec["diff"])
        function = key.split(": ", 1)[0].split(":", 1)[1]
        if not unchanged(rec["module"], function):
            out.append(rec)
            continue
        entry = prior.get(key)
        out.append({**rec, "status": "killed" if entry is None else entry["status"], "carried": carried["commit"]})
    return out


def unchanged_since(commit: str) -> Callable[[str, str], bool]:
    """Whether a function's syntax tree in the working tree is the one it had at `commit` (git)."""
    cache: dict[str, tuple[dict[str, str], dict[str, str]]] = {}

    def check(module: str, function: str) -> bool:
        if module not in cache:
            then = subprocess.run(["git", "show", f"{commit}:{module}"], capture_output=True, text=True, check=False)
            now = Path(module).read_text(encoding="utf-8")
            cache[module] = (function_sources(then.stdout) if then.returncode == 0 else {}, function_sources(now))
        then_f, now_f = cache[module]
        return function in then_f and then_f[function] == now_f.get(function)

    return check


def build(
    records: list[dict[str, Any]],
    previous: dict[str, dict[str, Any]],
    commit: str,
    differential: dict[str, dict[str, Any]] | None = None,
    recheck: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    differential = differential or {}
    recheck = recheck or {}
    # a mutant that fails its tests in a fresh interpreter is killed, whatever mutmut's worker saw
    # (recheck.py: import-time functions, hangs recorded as survivals)
    rechecked = {rec["name"] for rec in records if rec["status"] in ("survived", "no tests") and recheck.get(rec["name"], {}).get("killed")}
    entries = []
    for rec in records:
        if rec["status"] in ("killed", "timeout") or rec["name"] in rechecked:
            continue
        key = key_of(rec["name"], rec["diff"])
        old = previous.get(key, {})
        if old.get("verdict") in HAND_VERDICTS:
            verdict, reason = old["verdict"], old["reason"]
        else:
            category = classify(rec["diff"], key.split(": ", 1)[0]) if rec["status"] == "survived" else "open"
            verdict = "equivalent" if category in REASONS else "open"
            reason = REASONS.get(category, "not yet killed or justified" if rec["status"] == "survived" else f"mutmut: {rec['status']}")
        entry = {"key": key, "module": rec["module"], "status": rec["status"], "verdict": verdict, "reason": reason}
        if "carried" in rec:  # checked by the earlier run, at that commit (carry)
            entry["checked at"] = rec["carried"]
        seen = differential.get(rec["name"])
        if seen is not None:
            # what the engine shows under the mutant (differential.py): a witness, or none found
            entry["differential"] = seen["result"] if "witness" not in seen else f"{seen['result']}: {seen['witness']}"
        entries.append(entry)
    by_module: dict[str, Counter[str]] = {}
    for rec in records:
        by_module.setdefault(rec["module"], Counter())[rec["status"]] += 1
    for entry in entries:
        by_module[entry["module"]]["verdict " + entry["verdict"]] += 1
    total = Counter(rec["status"] for rec in records)
    # of the records, those taken from an earlier run's ledger (carry), by that run's commit
    carried = Counter(rec["carried"] for rec in records if "carried" in rec)
    checked = total["killed"] + total["survived"] + total["timeout"]
    killed = total["killed"] + total["timeout"]
    return {
        "commit": commit,
        "summary": {
            "mutants": len(records),
            "killed": total["killed"],
            "survived": total["survived"],
            "timeout": total["timeout"],
            "no tests": total["no tests"],
            "not checked": total["not checked"],
            **({"carried from an earlier run": dict(carried)} if carried else {}),
            # a mutant that makes the tests hang is detected too (mutmut's timeout)
            "kill rate of the checked": f"{100 * killed / checked:.1f} %" if checked else "n/a",
            # of mutmut's survivors and no-tests mutants, those a fresh interpreter kills (recheck.py)
            "killed on recheck": len(rechecked),
            "kill rate after recheck": f"{100 * (killed + len(rechecked)) / (checked + total['no tests']):.1f} %" if checked else "n/a",
            "verdicts": dict(Counter(e["verdict"] for e in entries)),
            # of the open entries: how many the differential saw change a reply, and how many not
            "open, by differential": dict(
                Counter(e.get("differential", "not run").split(":")[0] for e in entries if e["verdict"] == "open")
            ),
        },
        "modules": {m: dict(sorted(c.items())) for m, c in sorted(by_module.items())},
        "entries": sorted(entries, key=lambda e: e["key"]),
    }


def main() -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--carry", type=Path, help="an earlier run's ledger: what this run did not check takes its results where the function is unchanged"
    )
    p.add_argument("note", nargs="*", help="how the run was made, when it was not one run at one commit")
    args = p.parse_args()
    # run where mutmut ran (its mutants/ directory holds the results); the commit is that checkout's
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    records = mutmut_records()
    if args.carry:
        earlier = yaml.safe_load(args.carry.read_text(encoding="utf-8"))
        records = carry(records, earlier, unchanged_since(earlier["commit"]))
    ledger = build(records, load_verdicts(), commit, load_differential(), load_recheck())
    if args.note:
        ledger = {"commit": ledger.pop("commit"), "note": " ".join(args.note), **ledger}
    LEDGER.write_text(yaml.safe_dump(ledger, sort_keys=False, allow_unicode=True, width=200), encoding="utf-8")
    print(yaml.safe_dump(ledger["summary"], sort_keys=False), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
