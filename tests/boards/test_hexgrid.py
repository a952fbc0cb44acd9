"""The shared hex-grid toolkit (nataterra_core.boards.hexgrid): geometry and path search."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from nataterra_core.boards.hexgrid import (
    DIRECTIONS,
    Hex,
    canonical_paths,
    hex_distance,
    shortest_path,
    steps_from,
)

coords = st.integers(min_value=-50, max_value=50)
hexes = st.builds(Hex, coords, coords)


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Hex, b: Hex) -> None:
    assert hex_distance(a, b) == hex_distance(b, a) == a.distance(b)
    assert (hex_distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@given(hexes)
def test_the_six_neighbours_are_distinct_and_at_distance_one(a: Hex) -> None:
    around = a.neighbours()
    assert len(set(around)) == 6
    assert all(hex_distance(a, n) == 1 for n in around)
    assert around == tuple(a.neighbour(d) for d in range(6))
    assert a.neighbour(6) == a.neighbour(0)


@given(hexes, st.integers(min_value=0, max_value=5))
def test_opposite_directions_cancel(a: Hex, d: int) -> None:
    assert a.neighbour(d).neighbour(d + 3) == a


@given(hexes, hexes)
def test_distance_is_the_breadth_first_step_count(a: Hex, b: Hex) -> None:
    # On an open grid a step closer always exists, so greedy walking takes exactly the distance.
    walked, here = 0, a
    while here != b:
        here = min(here.neighbours(), key=lambda n: hex_distance(n, b))
        walked += 1
    assert walked == hex_distance(a, b)


def test_directions_turn_by_sixty_degrees() -> None:
    # Turning (q, r) by 60° in axial coordinates is (-r, q + r).
    for d, step in enumerate(DIRECTIONS):
        assert DIRECTIONS[(d + 1) % 6] == Hex(-step.r, step.q + step.r)


# A small board: the hexes within distance 2 of the origin, minus a wall.
CENTRE = Hex(0, 0)
BOARD = {
    Hex(q, r) for q in range(-2, 3) for r in range(-2, 3) if hex_distance(CENTRE, Hex(q, r)) <= 2
}
WALL = {Hex(1, 0), Hex(1, -1), Hex(0, 1)}


def on_board(at: Hex) -> tuple[Hex, ...]:
    return tuple(sorted(n for n in at.neighbours() if n in BOARD))


def open_cell(at: Hex) -> bool:
    return at not in WALL


def test_steps_from_counts_steps_around_obstacles() -> None:
    steps = steps_from(CENTRE, on_board)
    assert set(steps) == BOARD
    assert all(steps[h] == hex_distance(CENTRE, h) for h in BOARD)
    walled = steps_from(CENTRE, on_board, open_cell)
    assert set(walled) == BOARD - WALL
    assert walled[Hex(2, 0)] > hex_distance(CENTRE, Hex(2, 0))
    assert all(walled[h] >= hex_distance(CENTRE, h) for h in walled)


def test_shortest_path_is_the_smallest_of_the_shortest() -> None:
    assert shortest_path(CENTRE, CENTRE, on_board) == (CENTRE,)
    path = shortest_path(CENTRE, Hex(2, -1), on_board)
    assert path is not None and len(path) == 3
    assert path == (CENTRE, Hex(1, -1), Hex(2, -1))  # (1, -1) < (1, 0)
    detour = shortest_path(CENTRE, Hex(2, -1), on_board, open_cell)
    assert detour is not None
    assert len(detour) - 1 == steps_from(CENTRE, on_board, open_cell)[Hex(2, -1)]
    assert not set(detour) & WALL
    assert all(hex_distance(a, b) == 1 for a, b in pairwise(detour))
    assert shortest_path(CENTRE, Hex(1, 0), on_board, open_cell) is None  # the goal is a wall


def test_shortest_path_is_none_when_cut_off() -> None:
    cut = set(on_board(Hex(2, 0)))
    assert shortest_path(CENTRE, Hex(2, 0), on_board, lambda h: h not in cut) is None


def test_canonical_paths_respects_budget_and_stopping_cells() -> None:
    stop = {Hex(-1, 0)}

    def moves(at: Hex) -> Iterator[tuple[Hex, Hex | None]]:
        for n in on_board(at):
            if n != CENTRE and open_cell(n):
                yield n, None if n in stop else n

    one = canonical_paths(CENTRE, 1, moves)
    assert set(one) == {n for n in on_board(CENTRE) if open_cell(n)}
    assert all(path == (n,) for n, path in one.items())
    two = canonical_paths(CENTRE, 2, moves)
    # Entering a stopping cell ends the move, so nothing is reached through it alone.
    assert Hex(-2, 0) not in two
    assert Hex(-2, 1) in two and Hex(-1, 0) not in two[Hex(-2, 1)]
    assert all(len(path) <= 2 for path in two.values())
    assert all(len(two[h]) == hex_distance(CENTRE, h) for h in two)
    for target, path in two.items():
        assert path[-1] == target
        assert path == min(
            (p for p in _all_paths(CENTRE, 2, moves) if p[-1] == target), key=lambda p: (len(p), p)
        )


def _all_paths(
    start: Hex, budget: int, moves: Callable[[Hex], Iterable[tuple[Hex, Hex | None]]]
) -> list[tuple[Hex, ...]]:
    """Every legal path within ``budget`` steps, enumerated by brute force."""
    found: list[tuple[Hex, ...]] = []
    stack: list[tuple[Hex, tuple[Hex, ...]]] = [(start, ())]
    while stack:
        state, path = stack.pop()
        if len(path) == budget:
            continue
        for node, after in moves(state):
            found.append((*path, node))
            if after is not None:
                stack.append((after, (*path, node)))
    return found
