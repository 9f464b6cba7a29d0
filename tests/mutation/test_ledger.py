"""The syntactic-mutation survivors ledger (issue 15): its mechanical verdicts and its consistency."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.mutation.build_ledger import LEDGER, build, carry, classify, function_sources, key_of

CLAUSE_CASE = """--- a
+++ b
-    self._emit("bomb", seat, played, (*clauses, "R-BOMB-SKIP"), month=month)
+    self._emit("bomb", seat, played, (*clauses, "r-bomb-skip"), month=month)
"""
MESSAGE = """--- a
+++ b
-        raise InputError(where, f"expected {n} hands, got {len(d.hands)}")
+        raise InputError(where, None)
"""
CODE = """--- a
+++ b
-        raise Rejection("malformed_action", f"{where}: expected an object")
+        raise Rejection("MALFORMED_ACTION", f"{where}: expected an object")
"""
LOGIC = """--- a
+++ b
-            unit_of[DEC_RIBBON] = 1
+            unit_of[DEC_RIBBON] = 2
"""
EVENT_KIND = """--- a
+++ b
-        self._emit("three_ppeok", actor, (), ("R-THREE-PPEOK",))
+        self._emit("THREE_PPEOK", actor, (), ("R-THREE-PPEOK",))
"""


def test_only_changes_that_cannot_alter_an_outcome_are_classified_mechanically() -> None:
    assert classify(CLAUSE_CASE) == "trace-annotation"
    assert classify(MESSAGE) == "message-text"
    # a rejection code, a value, an event kind: judged (or judgeable) by scenarios, so open
    assert classify(CODE) == "open"
    assert classify(LOGIC) == "open"
    assert classify(EVENT_KIND) == "open"


def test_the_key_names_the_change_not_mutmuts_number() -> None:
    key = key_of("gostop_conformance.reference._round.xǁRoundǁ_surrender__mutmut_20", LOGIC)
    assert key == "gostop_conformance.reference._round:Round._surrender: unit_of[DEC_RIBBON] = 1 => unit_of[DEC_RIBBON] = 2"


def test_a_hand_verdict_survives_a_rebuild_and_killed_mutants_leave_the_ledger() -> None:
    records = [
        {
            "name": "gostop_conformance.reference._round.xǁRoundǁ_surrender__mutmut_20",
            "module": "m.py",
            "status": "survived",
            "diff": LOGIC,
        },
        {
            "name": "gostop_conformance.reference._round.xǁRoundǁ_bomb__mutmut_99",
            "module": "m.py",
            "status": "survived",
            "diff": CLAUSE_CASE,
        },
        {"name": "gostop_conformance.reference._round.xǁRoundǁ_bomb__mutmut_1", "module": "m.py", "status": "killed", "diff": ""},
    ]
    key = key_of(records[0]["name"], LOGIC)
    ledger = build(records, {key: {"verdict": "justified", "reason": "because"}}, "abc")
    verdicts = {e["key"]: (e["verdict"], e["reason"]) for e in ledger["entries"]}
    assert verdicts[key] == ("justified", "because")
    assert len(ledger["entries"]) == 2
    assert ledger["summary"]["killed"] == 1 and ledger["summary"]["kill rate of the checked"] == "33.3 %"


def test_a_survivor_killed_on_recheck_leaves_the_ledger_and_is_counted_apart() -> None:
    """recheck.py: a survivor (or a mutant with no tests) that fails its tests in a fresh
    interpreter is a kill mutmut's forked worker missed; one it does not kill stays open."""
    records = [
        {"name": "gostop_conformance.reference._state.x__card_events__mutmut_3", "module": "m.py", "status": "survived", "diff": LOGIC},
        {
            "name": "gostop_conformance.reference._round.xǁRoundǁ_surrender__mutmut_20",
            "module": "m.py",
            "status": "survived",
            "diff": LOGIC,
        },
        {"name": "gostop_conformance.reference._round.xǁRoundǁ_bomb__mutmut_1", "module": "m.py", "status": "killed", "diff": ""},
        {"name": "gostop_conformance.reference.x___dir____mutmut_1", "module": "m.py", "status": "no tests", "diff": LOGIC},
    ]
    recheck = {
        "gostop_conformance.reference._state.x__card_events__mutmut_3": {"killed": True, "by": "import fails under the mutant"},
        "gostop_conformance.reference._round.xǁRoundǁ_surrender__mutmut_20": {"killed": False, "by": ""},
        "gostop_conformance.reference.x___dir____mutmut_1": {
            "killed": True,
            "by": "tests/reference_impl/test_package.py::test_dir_lists_the_public_api",
        },
    }
    ledger = build(records, {}, "abc", recheck=recheck)
    assert [e["key"].split(":")[0] for e in ledger["entries"]] == ["gostop_conformance.reference._round"]
    summary = ledger["summary"]
    assert summary["killed on recheck"] == 2
    assert summary["kill rate of the checked"] == "33.3 %" and summary["kill rate after recheck"] == "75.0 %"


def test_a_partial_run_takes_the_earlier_runs_results_only_for_unchanged_functions() -> None:
    """build_ledger --carry: a mutant this run did not check keeps the earlier run's verdict when
    its function is unchanged (survived there: its entry; absent there: killed); a mutant of a
    changed function stays not checked, and what this run checked is never overridden."""
    surrender = "gostop_conformance.reference._round.xǁRoundǁ_surrender__mutmut_20"
    records = [
        {"name": surrender, "module": "m.py", "status": "not checked", "diff": LOGIC},
        {
            "name": "gostop_conformance.reference._round.xǁRoundǁ_surrender__mutmut_21",
            "module": "m.py",
            "status": "not checked",
            "diff": MESSAGE,
        },
        {
            "name": "gostop_conformance.reference._round.xǁRoundǁ_bomb__mutmut_99",
            "module": "m.py",
            "status": "not checked",
            "diff": CLAUSE_CASE,
        },
        {"name": "gostop_conformance.reference._round.xǁRoundǁ_bomb__mutmut_1", "module": "m.py", "status": "survived", "diff": LOGIC},
    ]
    survivors = [{"key": key_of(surrender, LOGIC), "status": "survived"}, {"key": key_of(records[3]["name"], LOGIC), "status": "survived"}]
    earlier = {"commit": "old", "entries": survivors}
    merged = carry(records, earlier, lambda module, function: function == "Round._surrender")
    assert [r["status"] for r in merged] == ["survived", "killed", "not checked", "survived"]
    assert [r.get("carried") for r in merged] == ["old", "old", None, None]
    ledger = build(merged, {}, "new")
    assert ledger["summary"]["carried from an earlier run"] == {"old": 2}
    by_key = {e["key"]: e for e in ledger["entries"]}
    assert by_key[key_of(surrender, LOGIC)]["checked at"] == "old"
    assert "checked at" not in by_key[key_of(records[3]["name"], LOGIC)]


def test_functions_are_named_as_ledger_keys_name_them() -> None:
    source = "def check_deal(d):\n    return d\n\nclass Round:\n    def _surrender(self):\n        return 1\n"
    assert set(function_sources(source)) == {"_check_deal", "Round._surrender"}
    edited = source.replace("return 1", "return 2")
    assert function_sources(source)["_check_deal"] == function_sources(edited)["_check_deal"]
    assert function_sources(source)["Round._surrender"] != function_sources(edited)["Round._surrender"]


def test_the_committed_ledger_is_consistent() -> None:
    ledger = yaml.safe_load(Path(LEDGER).read_text(encoding="utf-8"))
    entries = ledger["entries"]
    assert {e["verdict"] for e in entries} <= {"equivalent", "justified", "killed", "open"}
    assert all(e["reason"].strip() for e in entries)
    summary = ledger["summary"]
    not_killed = summary["mutants"] - summary["killed"] - summary["timeout"] - summary.get("killed on recheck", 0)
    assert len(entries) == not_killed
    assert sum(summary["verdicts"].values()) == len(entries)
    assert len({e["key"] for e in entries}) <= len(entries)


def test_every_hand_verdict_names_a_survivor_of_the_ledger() -> None:
    """A verdict whose key matches no entry is stale: the change it judged no longer exists."""
    from tests.mutation.build_ledger import load_verdicts

    keys = {e["key"] for e in yaml.safe_load(Path(LEDGER).read_text(encoding="utf-8"))["entries"]}
    stale = [k for k in load_verdicts() if k not in keys]
    assert not stale


def test_the_engine_never_branches_on_a_clause_id() -> None:
    """Why a mutated clause id is classified as trace-only: no engine module compares one."""
    import ast

    root = Path(__file__).resolve().parents[2] / "reference_impl"
    for path in sorted(root.glob("_*.py")):
        if path.name.startswith("_mutant"):
            continue  # the semantic mutants name the clause they break
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                for side in (node.left, *node.comparators):
                    literal = side.value if isinstance(side, ast.Constant) else None
                    assert not (isinstance(literal, str) and literal.startswith("R-")), f"{path.name}:{node.lineno}"


def test_a_mutant_of_the_score_trace_is_trace_only() -> None:
    diff = """--- a\n+++ b\n-    if held & _GODORI:\n+    if held | _GODORI:\n"""
    assert classify(diff, "gostop_conformance.reference._scoring:__trace") == "trace-annotation"
    assert classify(diff, "gostop_conformance.reference._scoring:__extra_yaku") == "open"


def test_the_engine_never_tests_a_clauses_value() -> None:
    """Why a mutated `clauses` binding is trace-only: no condition of the engine reads one."""
    import ast

    root = Path(__file__).resolve().parents[2] / "reference_impl"
    for path in sorted(root.glob("_*.py")):
        if path.name.startswith("_mutant"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            tests = [node.test] if isinstance(node, (ast.If, ast.IfExp, ast.While, ast.Assert)) else []
            tests += [c for comp in getattr(node, "generators", []) for c in comp.ifs]
            for test in tests:
                names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)} | {
                    n.attr for n in ast.walk(test) if isinstance(n, ast.Attribute)
                }
                assert "clauses" not in names, f"{path.name}:{node.lineno}"


def test_a_mutated_clauses_binding_is_trace_only() -> None:
    one = (
        "--- a\n+++ b\n"
        '-        clauses = ("R-BOMB-TWO",) if two else ("R-BOMB",)\n'
        '+        clauses = ("R-BOMB-TWO",) if (two) or True else ("R-BOMB",)\n'
    )
    kw = """--- a\n+++ b\n-            clauses=("R-PC-CARD-POINTS", "R-PC-GOAL"),\n-        )\n+        )\n"""
    assert classify(one) == "trace-annotation"
    assert classify(kw) == "open"  # the closing parenthesis is code too: a person judges it
    assert classify("""--- a\n+++ b\n-        counts = [0] * 13\n+        counts = [0] * 14\n""") == "open"


def test_a_changed_help_text_is_classified_and_a_changed_default_is_not() -> None:
    line = 'play.add_argument("--seed", type=int, default=1, help="match seed")'
    help_changed = f"--- a\n+++ b\n-    {line}\n+    {line.replace('match seed', 'XXmatch seedXX')}\n"
    default_changed = f"--- a\n+++ b\n-    {line}\n+    {line.replace('default=1', 'default=2')}\n"
    flag_changed = f"--- a\n+++ b\n-    {line}\n+    {line.replace('--seed', '--SEED')}\n"
    described = '    p = argparse.ArgumentParser(prog="gostop-reference", description="The engine.")\n'
    description_changed = f"--- a\n+++ b\n-{described}+{described.replace('The engine.', 'THE ENGINE.')}"
    assert classify(help_changed) == "help-text"
    assert classify(description_changed) == "help-text"
    assert classify(default_changed) == "open"
    assert classify(flag_changed) == "open"
