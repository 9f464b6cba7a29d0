"""The seat state (reference_impl/_seat.py): every per-seat field is declared once and reaches
the copy, the settlement's frozen view and the wire under one name."""

from __future__ import annotations

import ast
import dataclasses
import json
from importlib import resources
from pathlib import Path

from gostop_conformance import reference
from gostop_conformance.reference._deal import PlayerState
from gostop_conformance.reference._seat import SeatState
from gostop_conformance.reference._settlement import Seat
from gostop_conformance.reference._tally import Tally

#: fields the snapshot's players[i] does not carry: the cards are the snapshot's own `hands` and
#: `captured`; the rest is what the engine derives or counts for itself
_ENGINE_ONLY = {"hand", "captured", "tally", "first_go_turn", "last_go_turn", "shake_factors", "turns_taken"}


def _slots() -> tuple[str, ...]:
    """SeatState's __slots__, read from its source: the compiled build (a mypyc native class) has
    no __slots__ attribute, and both builds are tested (make test-compiled)."""
    tree = ast.parse((Path(reference.__file__).parent / "_seat.py").read_text(encoding="utf-8"))
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "SeatState"]
    [slots] = [n.value for n in cls.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "__slots__"]
    names = ast.literal_eval(slots)
    assert isinstance(names, tuple) and len(names) > 10
    return names


def _wire_player_fields() -> set[str]:
    schema = json.loads(resources.files("gostop_conformance.spec.protocol").joinpath("protocol.schema.json").read_text())
    return set(schema["$defs"]["player_state"]["properties"])


def _seat() -> SeatState:
    state = PlayerState(
        gos=2, go_base=7, first_go_turn=5, shaken_months=(3,), bombs=(9,), skip_credits=1, ppeoks=2, dual_junk=("m09-animal",)
    )
    return SeatState([1, 4], [30, 31], state, [2])


def test_every_field_has_one_name_from_the_wire_to_settlement() -> None:
    slots = set(_slots())
    wire = _wire_player_fields()
    assert {f.name for f in dataclasses.fields(PlayerState)} == wire  # the deal's players[i]
    assert wire <= slots
    assert set(_seat().to_json()) == slots - _ENGINE_ONLY  # the snapshot's players[i]
    assert set(_seat().to_json()) | {"first_go_turn"} == wire
    assert set(Seat._fields) <= slots  # settlement reads the same names


def test_built_from_the_deal_state() -> None:
    seat = _seat()
    assert seat.to_json() == {
        "gos": 2,
        "go_base": 7,
        "shaken_months": [3],
        "bombs": [9],
        "skip_credits": 1,
        "ppeoks": 2,
        "dual_junk": ["m09-animal"],
    }
    assert (seat.first_go_turn, seat.last_go_turn, seat.turns_taken) == (5, 5, 0)
    assert seat.bombs == [(9, True)]
    assert seat.tally == Tally([30, 31])


def test_copy_is_equal_and_shares_nothing_mutable() -> None:
    seat = _seat()
    seat.turns_taken, seat.last_go_turn = 3, 6  # not the values a fresh seat starts with
    copy = seat.copy()
    for name in _slots():
        mine, theirs = getattr(seat, name), getattr(copy, name)
        assert theirs == mine, name
        if isinstance(mine, (list, set, dict, Tally)):
            assert theirs is not mine, f"{name} is shared with the copy"
    copy.hand.append(9)
    copy.dual_junk.add(5)
    copy.shaken_months.append(4)
    assert seat.hand == [1, 4] and len(seat.dual_junk) == 1 and seat.shaken_months == [3]


def test_frozen_is_what_settlement_reads() -> None:
    seat = _seat()
    frozen = seat.frozen()
    assert frozen == Seat(
        captured=(30, 31),
        gos=2,
        first_go_turn=5,
        shaken_months=(3,),
        shake_factors=(2,),
        bombs=((9, True),),
        dual_junk=(frozen.dual_junk[0],),
        tally=Tally([30, 31]),
    )
    seat.captured.append(40)
    seat.tally.add_all([40])
    assert frozen.captured == (30, 31)  # a value, not a view
    assert frozen.tally == Tally([30, 31])
