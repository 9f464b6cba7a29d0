"""Perft (spec/perft.yaml): the published tables hold for the reference engine natively and
through the protocol (by replay, and natively over stdio), and divide finds where a broken
engine's tree differs."""

from __future__ import annotations

import sys

from gostop_conformance.harness import default_root
from gostop_conformance.harness._perft import divide_walk, load_perft, perft_engine, reference_table
from gostop_conformance.harness._stdio import StdioEngine
from gostop_conformance.reference import JsonEngine
from gostop_conformance.reference import perft_statistic_names as statistic_names
from tests.conftest import needs_interpreted

TABLES = load_perft(default_root() / "perft" / "tables.yaml")


class ReplayOnly(JsonEngine):
    """The reference engine without the native perft feature: the harness must replay paths."""

    def hello(self) -> dict:
        reply = super().hello()
        return {**reply, "features": [f for f in reply["features"] if f != "perft"]}


def test_tables_cover_several_rulesets_and_statistics() -> None:
    assert {t.ruleset for t in TABLES} >= {"matgo-2p", "standard-3p", "matgo-online"}
    for t in TABLES:
        assert len(t.expected) == t.depth
        assert all(set(row) <= set(statistic_names()) for row in t.expected)


def test_reference_natively_matches_the_tables_at_depth_4() -> None:
    for t in TABLES:
        got = reference_table(t, 4)
        assert [{k: v for k, v in row.items() if v} for row in got] == list(t.expected[:4]), t.id


def test_protocol_replay_matches_the_tables_at_depth_3() -> None:
    for t in TABLES[:2]:
        got = perft_engine(ReplayOnly(), t, 3)
        assert [{k: v for k, v in row.items() if v} for row in got] == list(t.expected[:3]), t.id


def test_native_perft_over_stdio() -> None:
    engine = StdioEngine([sys.executable, "-m", "gostop_conformance.reference", "--stdio"])
    try:
        engine.start()
        got = perft_engine(engine, TABLES[0], 4)
    finally:
        engine.close()
    assert [{k: v for k, v in row.items() if v} for row in got] == list(TABLES[0].expected[:4])


@needs_interpreted
def test_divide_walks_down_to_the_difference() -> None:
    engine = StdioEngine([sys.executable, "-m", "gostop_conformance.mutants", "must-match"])
    try:
        engine.start()
        lines = divide_walk(engine, TABLES[0], 2)
    finally:
        engine.close()
    assert lines and "the legal actions differ" in lines[-1]
