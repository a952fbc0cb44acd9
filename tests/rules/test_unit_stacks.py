"""The unit-stack helpers of the state, and the folds the kernel calls directly: each fast
path against the plain one it stands for."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nataterra_core.game import decider_for
from nataterra_core.games.nataterra.state import (
    UnitStack,
    add_units,
    move_units,
    remove_units,
)
from nataterra_core.kernel import read_log, replay
from nataterra_core.kernel.log import CommandRecord, StartRecord
from nataterra_core.kernel.replay import _initial

OWNERS = ("beasts", "velathi")
UNITS = ("hunter", "orc")
ZONES = ("a.z1", "a.z2", "b.z1", "b.z3", "t1.z2")
GOLDEN = Path(__file__).parent.parent / "golden"


@st.composite
def stacks_and_move(draw: st.DrawFn) -> tuple[tuple[UnitStack, ...], UnitStack, str, int]:
    keys = draw(
        st.lists(
            st.tuples(st.sampled_from(OWNERS), st.sampled_from(UNITS), st.sampled_from(ZONES)),
            min_size=1,
            max_size=12,
            unique=True,
        )
    )
    stacks = []
    for owner, unit, zone in keys:
        count = draw(st.integers(1, 5))
        stacks.append(UnitStack(owner, unit, zone, count, draw(st.integers(0, count))))
    origin = draw(st.sampled_from(stacks))
    destination = draw(st.sampled_from([z for z in ZONES if z != origin.zone]))
    return tuple(sorted(stacks)), origin, destination, draw(st.integers(1, origin.count))


@given(stacks_and_move())
def test_move_units_is_a_removal_then_an_addition_of_moved_units(
    case: tuple[tuple[UnitStack, ...], UnitStack, str, int],
) -> None:
    units, origin, destination, count = case
    owner, unit = origin.owner, origin.unit
    expected = add_units(
        remove_units(units, owner, unit, origin.zone, count), owner, unit, destination, count, count
    )
    moved = move_units(units, owner, unit, origin.zone, destination, count)
    assert moved == expected
    assert list(moved) == sorted(moved)


def test_move_units_names_a_missing_stack() -> None:
    units = (UnitStack("beasts", "orc", "a.z1", 2),)
    with pytest.raises(ValueError, match=r"no hunter of beasts in a\.z1"):
        move_units(units, "beasts", "hunter", "a.z1", "a.z2", 1)


@pytest.mark.parametrize(
    "name", ["game-seed-11", "game-conquest-seed-1", "game-teams-seed-2", "game-kaladan-2p-seed-3"]
)
def test_direct_folds_give_what_evolve_gives(name: str) -> None:
    log = read_log((GOLDEN / f"{name}.jsonl").read_bytes(), decider_for)
    decider = log.decider
    state = _initial(decider, log.header)
    for record in log.records:
        if isinstance(record, CommandRecord | StartRecord):
            for event in record.events:
                state = decider.evolve(state, event)
    assert replay(decider, log.header, log.records) == state
    folds = getattr(decider, "folds", None)
    if folds is not None:
        with pytest.raises(TypeError):
            folds[object] = None  # read-only: no mutable state reachable from the decider
