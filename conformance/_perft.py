"""Perft through the protocol (spec/perft.yaml): any engine's decision tree counted by replaying
each path from the deal (or natively when the engine declares the feature `perft`), compared with
the published tables, and a divide mode that walks down to the first differing subtree."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gostop_conformance.harness._engine import Engine, EngineError
from gostop_conformance.reference import PERFT_EVENT_STATS as EVENT_STATS
from gostop_conformance.reference import Round, deal_from_json, perft
from gostop_conformance.reference import perft_divide as divide
from gostop_conformance.reference import perft_statistic_names as statistic_names
from gostop_conformance.spec import InputError, load_ruleset, load_yaml

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class PerftCase:
    id: str
    ruleset: str
    deal: Json
    expected: tuple[Json, ...]  # statistics of plies 1..n
    file: str
    depth: int

    def ruleset_json(self) -> Json:
        rs = load_ruleset(self.ruleset)
        return {"id": rs.id, "options": rs.options.as_json()}

    def root(self) -> Round:
        rs = load_ruleset(self.ruleset)
        return Round(rs, deal_from_json(self.deal, rs.options))


def load_perft(path: Path) -> list[PerftCase]:
    """A perft table file: `tables: [{id, ruleset, deal, plies: [{nodes, ...}, ...]}]`."""
    located = load_yaml(path)
    data = located.data
    if not isinstance(data, dict) or not isinstance(data.get("tables"), list):
        raise InputError(located.where(), "expected `tables:` with a list of {id, ruleset, deal, plies}")
    out = []
    names = set(statistic_names())
    for i, t in enumerate(data["tables"]):
        where: list[str | int] = ["tables", i]
        if not isinstance(t, dict) or not {"id", "ruleset", "deal"} <= set(t):
            raise InputError(located.where(where), "expected {id, ruleset, deal, plies}")
        for k, row in enumerate(t.get("plies", [])):
            extra = set(row) - names
            if extra:
                raise InputError(
                    located.where([*where, "plies", k]), f"unknown statistic {sorted(extra)[0]!r}; expected {', '.join(sorted(names))}"
                )
        try:
            load_ruleset(t["ruleset"])
        except InputError as exc:
            raise InputError(located.where([*where, "ruleset"]), exc.detail) from None
        depth = t.get("depth", len(t.get("plies", [])) or 3)
        out.append(PerftCase(t["id"], t["ruleset"], t["deal"], tuple(t.get("plies", [])), located.path, int(depth)))
    return out


HEADER = """\
# Published perft tables (spec/perft.yaml), computed by the reference engine natively to each
# table's depth. Regenerate: gostop-conformance perft --deal scenarios/perft/tables.yaml --write
# CI checks them at small depths, natively and through the protocol.
"""


def write_perft(path: Path, tables: Sequence[tuple[PerftCase, Sequence[Json]]]) -> None:
    data = {
        "generated": {"by": "gostop-conformance perft --write (the reference engine)"},
        "tables": [
            {
                "id": c.id,
                "ruleset": c.ruleset,
                "deal": c.deal,
                "depth": len(rows),
                "plies": [{k: v for k, v in r.items() if v} for r in rows],
            }
            for c, rows in tables
        ],
    }
    path.write_text(HEADER + yaml.safe_dump(data, sort_keys=False, width=140), encoding="utf-8")


def perft_engine(engine: Engine, case: PerftCase, depth: int) -> list[Json]:
    """The engine's statistics for plies 1..depth: native if declared, else by replay."""
    hello = engine.hello()
    if "perft" in (hello.get("features") or []):
        engine.new_game(case.ruleset_json(), case.deal)
        reply = engine.perft(depth)  # type: ignore[attr-defined]
        return list(reply["plies"])
    table = [dict.fromkeys(statistic_names(), 0) for _ in range(depth)]
    _walk(engine, case, [], depth, table)
    return table


def _replay(engine: Engine, case: PerftCase, path: Sequence[Json]) -> Json:
    reply = engine.new_game(case.ruleset_json(), case.deal)
    if "error" in reply:
        raise EngineError("error", f"new_game refused: {reply['error']}")
    for action in path:
        reply = engine.act(action)
        if "error" in reply:
            raise EngineError("error", f"a legal action was refused: {reply['error']}")
    return reply


def _walk(engine: Engine, case: PerftCase, path: list[Json], depth: int, table: list[Json]) -> None:
    ply = len(path)
    if ply == depth:
        return
    state = _replay(engine, case, path).get("state", {})
    if state.get("decision") == "none":
        return
    for action in engine.legal().get("actions", []):
        _replay(engine, case, path)
        reply = engine.act(action)
        over = reply.get("state", {}).get("decision") == "none"
        outcome = (engine.score().get("settlement") or {}).get("kind") if over else None
        kinds = {e.get("kind") for e in reply.get("events", [])}
        row = table[ply]
        row["nodes"] += 1
        row["terminal"] += int(over)
        row["stop"] += int(action.get("type") == "stop")
        row["go"] += int(action.get("type") == "go")
        row["nagari"] += int(outcome == "nagari")
        row["steal"] += int(any(e.get("kind") == "steal" and e.get("cards") for e in reply.get("events", [])))
        for kind in EVENT_STATS:
            row[kind] += int(kind in kinds)
        _walk(engine, case, [*path, action], depth, table)


def divide_walk(engine: Engine, case: PerftCase, depth: int) -> list[str]:
    """Walk down from the root to the first subtree whose size differs between the engine and
    the reference engine; the path and the differing counts, as lines to print."""
    lines: list[str] = []
    path: list[Json] = []
    ref_round = case.root()
    for d in range(depth, 0, -1):
        ref = {_key(a.to_json()): n for a, n in divide(ref_round, d)}
        _replay(engine, case, path)
        actions = engine.legal().get("actions", [])
        mine = {_key(a): _count(engine, case, [*path, a], d - 1) for a in actions}
        if set(ref) != set(mine):
            lines.append(f"after {_path_text(path)}: the legal actions differ: reference {sorted(ref)}, engine {sorted(mine)}")
            return lines
        wrong = sorted(k for k in ref if ref[k] != mine[k])
        if not wrong:
            lines.append(f"after {_path_text(path)}: every subtree of depth {d - 1} agrees")
            return lines
        lines.append(f"after {_path_text(path)}: {_key_text(wrong[0])} -> reference {ref[wrong[0]]}, engine {mine[wrong[0]]}")
        action = _action_of(wrong[0])
        ref_round = _advance(ref_round, action)
        path.append(action)
    return lines


def _count(engine: Engine, case: PerftCase, path: list[Json], depth: int) -> int:
    """Sequences of `depth` more actions after `path`."""
    if depth == 0:
        return 1
    table = [dict.fromkeys(statistic_names(), 0) for _ in range(depth + len(path))]
    _walk(engine, case, path, depth + len(path), table)
    return int(table[-1]["nodes"])


def _advance(rnd: Round, action: Json) -> Round:
    from gostop_conformance.reference import Action

    child = rnd.copy()
    child.apply(Action.from_json(action))
    return child


def _key(a: Json) -> tuple[Any, ...]:
    return (a.get("type"), a.get("player"), a.get("card"), a.get("take"), a.get("month"), bool(a.get("shake")))


def _action_of(k: tuple[Any, ...]) -> Json:
    out: Json = {"type": k[0], "player": k[1]}
    for name, value in zip(("card", "take", "month"), k[2:5], strict=True):
        if value is not None:
            out[name] = value
    if k[5]:
        out["shake"] = True
    return out


def _key_text(k: tuple[Any, ...]) -> str:
    a = _action_of(k)
    return " ".join(str(v) for v in a.values())


def _path_text(path: Sequence[Json]) -> str:
    return "the deal" + "".join(f" / {_key_text(_key(a))}" for a in path)


def reference_table(case: PerftCase, depth: int) -> list[Json]:
    return perft(case.root(), depth)
