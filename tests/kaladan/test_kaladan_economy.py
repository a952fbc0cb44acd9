"""Kaladan's economy: income (K-INC-1, K-INC-2), the castles' gold (K-CAS-3)."""

from __future__ import annotations

import pytest
from kaladan_positions import board_of, placed, started, tile_of


@pytest.mark.parametrize(
    "terrains,castle,income",
    [
        (("mountain",), True, 1),
        (("mountain", "forest"), True, 2),
        (("mountain", "plain"), False, 1),
    ],
)
def test_K_INC_2_the_seeds_income_examples(
    terrains: tuple[str, ...], castle: bool, income: int
) -> None:
    """The seed: castle + mountain 1; castle + mountain + forest 2; mountain + plain 1."""
    session = started()
    board = board_of(session)
    armies = {board.home("blue"): ("blue", ("crown",))}
    if castle:
        armies[board.home("red")] = ("red", ("crown",))
    else:
        armies[tile_of(board, "forest")] = ("red", ("crown",))
    for terrain in terrains:
        armies[tile_of(board, terrain, avoid=tuple(armies))] = ("red", ("swordsman",))
    state = placed(session.state, armies)
    assert board.income(state, "red") == income


def test_K_INC_1_control_needs_a_unit_on_the_tile() -> None:
    """An empty tile you left is not yours; a tile with your unit is."""
    session = started()
    board = board_of(session)
    mountain = tile_of(board, "mountain")
    state = placed(session.state, {board.home("red"): ("red", ("crown",))})
    assert state.owner(mountain) is None
    assert board.income(state, "red") == 1
    state = placed(state, {board.home("red"): ("red", ("crown",)), mountain: ("red", ("archer",))})
    assert state.owner(mountain) == "red"
