"""Line of sight on the shared hex grid (geometry only; B-BAT-2 is the rule that uses it)."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from nataterra_core.boards.hexgrid import Hex, has_line_of_sight, hex_distance, line_between

coords = st.integers(min_value=-20, max_value=20)
hexes = st.builds(Hex, coords, coords)


@settings(deadline=None)
@given(hexes, hexes)
def test_a_line_has_one_step_per_hex_of_distance_and_each_step_is_connected(a: Hex, b: Hex) -> None:
    steps = line_between(a, b)
    assert len(steps) == max(hex_distance(a, b) - 1, 0)
    chain = [(a,), *steps, (b,)] if a != b else []
    for before, after in pairwise(chain):
        assert any(hex_distance(x, y) == 1 for x in before for y in after)
    for step in steps:
        assert len(step) in (1, 2)
        if len(step) == 2:
            assert hex_distance(*step) == 1  # the two sides of one edge


@settings(deadline=None)
@given(hexes, hexes)
def test_a_line_is_the_same_both_ways(a: Hex, b: Hex) -> None:
    assert line_between(a, b) == tuple(reversed(line_between(b, a)))


def test_a_straight_line_along_an_axis_crosses_single_hexes() -> None:
    assert line_between(Hex(0, 0), Hex(3, 0)) == ((Hex(1, 0),), (Hex(2, 0),))


def test_a_line_along_a_hex_edge_touches_both_sides() -> None:
    # (0,0) -> (2,-1): the midpoint lies on the edge between (1,-1) and (1,0).
    assert line_between(Hex(0, 0), Hex(2, -1)) == ((Hex(1, -1), Hex(1, 0)),)


def test_B_BAT_2_an_edge_line_is_blocked_only_when_both_sides_block() -> None:
    a, b = Hex(0, 0), Hex(2, -1)
    assert has_line_of_sight(a, b, lambda h: h == Hex(1, 0))
    assert has_line_of_sight(a, b, lambda h: h == Hex(1, -1))
    assert not has_line_of_sight(a, b, lambda h: h in (Hex(1, 0), Hex(1, -1)))


def test_B_BAT_2_endpoints_never_block_and_a_hex_between_does() -> None:
    a, b = Hex(0, 0), Hex(3, 0)
    assert has_line_of_sight(a, b, lambda h: h in (a, b))
    assert not has_line_of_sight(a, b, lambda h: h == Hex(2, 0))
    assert has_line_of_sight(a, Hex(1, 0), lambda h: True)  # adjacent: nothing in between
