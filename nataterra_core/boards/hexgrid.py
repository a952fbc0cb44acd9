"""Hex-grid geometry in axial coordinates, and deterministic path search over any graph.

**Geometry.** A :class:`Hex` is ``(q, r)`` in axial coordinates; its six neighbours differ by the
:data:`DIRECTIONS`, and :func:`hex_distance` is the fewest steps between two hexes on an
unobstructed grid. Every hex board game needs exactly this, so it lives here once.

**Drawing.** :func:`hex_centre` and :func:`hex_outline` place hexes on a picture (pointy-topped),
for boards drawn from :mod:`nataterra_core.kernel.geometry`.

**Search.** The search functions take a neighbour function instead of a board, so a game keeps
its cells (zone ids, hexes) and its movement rules to itself and passes them in as callables.
Results are deterministic for a log: when several shortest paths exist, the canonical one is the
lexicographically smallest sequence of nodes, provided the neighbour function lists its nodes in
ascending order (the search relies on that order instead of sorting again on every step).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from typing import Any, NamedTuple, Protocol, TypeVar

__all__ = [
    "DIRECTIONS",
    "Hex",
    "canonical_paths",
    "has_line_of_sight",
    "hex_centre",
    "hex_distance",
    "hex_outline",
    "line_between",
    "shortest_path",
    "steps_from",
]


class Hex(NamedTuple):
    """A hex in axial coordinates."""

    q: int
    r: int

    def neighbour(self, direction: int) -> Hex:
        """The neighbouring hex in direction ``direction`` (0..5, see :data:`DIRECTIONS`)."""
        step = DIRECTIONS[direction % 6]
        return Hex(self.q + step.q, self.r + step.r)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six hexes sharing an edge with this one, in :data:`DIRECTIONS` order."""
        return tuple(Hex(self.q + d.q, self.r + d.r) for d in DIRECTIONS)

    def distance(self, other: Hex) -> int:
        """Steps between this hex and ``other`` on an unobstructed grid."""
        return hex_distance(self, other)


DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1), Hex(1, -1))
"""The six axial steps to a neighbouring hex. Each is the one before turned by 60°, so a board
made of rotated pieces can rotate offsets by stepping through this tuple."""


def hex_distance(a: Hex, b: Hex) -> int:
    """Hex distance: the fewest steps between ``a`` and ``b`` ignoring terrain."""
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


_NUDGE = (Fraction(1, 10**6), Fraction(2, 10**6), Fraction(-3, 10**6))
"""A tiny cube-coordinate offset (q, r, s sum to 0) not parallel to any hex edge: sampling a
line once nudged each way finds both hexes when the line runs exactly along an edge."""


def _cube_round(q: Fraction, r: Fraction) -> Hex:
    """The hex containing the fractional axial point ``(q, r)`` (exact, no float error)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def line_between(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...]:
    """The hexes a straight line from ``a``'s centre to ``b``'s centre crosses, endpoints
    excluded, one step per hex of distance.

    Each step is one hex, or two when the line runs exactly along the edge between them
    (the line then touches both and enters neither). Exact rational arithmetic, so the
    along-an-edge case is found without floating-point luck.
    """
    n = hex_distance(a, b)
    steps: list[tuple[Hex, ...]] = []
    for i in range(1, n):
        t = Fraction(i, n)
        q = a.q + (b.q - a.q) * t
        r = a.r + (b.r - a.r) * t
        one = _cube_round(q + _NUDGE[0], r + _NUDGE[1])
        two = _cube_round(q - _NUDGE[0], r - _NUDGE[1])
        steps.append((one,) if one == two else tuple(sorted((one, two))))
    return tuple(steps)


def has_line_of_sight(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
    """Whether a line from ``a``'s centre to ``b``'s centre is clear.

    ``blocks(hex)`` says whether a hex in between blocks sight (the endpoints are never
    asked). A line along the edge between two hexes is blocked only when both block.
    """
    return not any(all(blocks(h) for h in step) for step in line_between(a, b))


SQRT3 = math.sqrt(3)


def hex_centre(at: Hex, size: float = 1.0) -> tuple[float, float]:
    """The centre of ``at`` on a drawing of pointy-topped hexes of circumradius ``size``
    (``y`` points down, as in SVG): hex (0, 0) is at the origin."""
    return (size * SQRT3 * (at.q + at.r / 2), size * 1.5 * at.r)


def hex_outline(at: Hex, size: float = 1.0) -> tuple[tuple[float, float], ...]:
    """The six corners of ``at`` on the drawing of :func:`hex_centre`, clockwise from the top."""
    x, y = hex_centre(at, size)
    return tuple(
        (round(x + size * math.cos(a), 4), round(y + size * math.sin(a), 4))
        for a in (math.radians(60 * i - 90) for i in range(6))
    )


class _Node(Protocol):
    """What a search needs of a node: hashable (for the visited sets) and ordered (for ties)."""

    def __hash__(self) -> int: ...

    def __lt__(self, other: Any, /) -> bool: ...


N = TypeVar("N", bound=_Node)
S = TypeVar("S", bound=Hashable)


def steps_from(
    start: N, neighbours: Callable[[N], Iterable[N]], can_enter: Callable[[N], bool] | None = None
) -> dict[N, int]:
    """Breadth-first steps from ``start`` to every node reachable through enterable nodes.

    ``can_enter(node)`` decides whether a path may enter ``node`` (``start`` itself is never
    asked); by default every node is enterable. The dict lists nodes in the order found.
    """
    steps = {start: 0}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        for nxt in neighbours(current):
            if nxt not in steps and (can_enter is None or can_enter(nxt)):
                steps[nxt] = steps[current] + 1
                queue.append(nxt)
    return steps


def shortest_path(
    start: N,
    goal: N,
    neighbours: Callable[[N], Iterable[N]],
    can_enter: Callable[[N], bool] | None = None,
) -> tuple[N, ...] | None:
    """The canonical shortest path from ``start`` to ``goal``, both included, or ``None``.

    Among the shortest paths through enterable nodes it is the lexicographically smallest
    sequence of nodes. ``neighbours`` must be symmetric (the search runs backwards from the goal)
    and list nodes in ascending order; the path never passes through ``start`` again.
    """
    if start == goal:
        return (start,)
    if can_enter is not None and not can_enter(goal):
        return None
    # Steps to the goal, searched backwards: a node counts only if paths may enter it.
    to_goal = {goal: 0}
    queue = deque([goal])
    while queue:
        current = queue.popleft()
        for previous in neighbours(current):
            if previous in to_goal:
                continue
            if previous == start:
                to_goal[start] = to_goal[current] + 1  # paths never pass through start
            elif can_enter is None or can_enter(previous):
                to_goal[previous] = to_goal[current] + 1
                queue.append(previous)
    if start not in to_goal:
        return None
    # Neighbours are ascending, so the first one a step closer is the smallest next node.
    path = [start]
    while path[-1] != goal:
        remaining = to_goal[path[-1]] - 1
        path.append(next(n for n in neighbours(path[-1]) if to_goal.get(n) == remaining))
    return tuple(path)


def canonical_paths(
    start: S, max_steps: int, moves: Callable[[S], Iterable[tuple[N, S | None]]]
) -> dict[N, tuple[N, ...]]:
    """Every node a mover can enter within ``max_steps`` steps, mapped to its canonical path.

    The search runs over mover *states* (a node plus whatever the game's rules track, such as
    passes used), so rules like "this terrain ends the move" or "one enemy cell may be crossed"
    stay in the game. ``moves(state)`` yields, for each node the mover may enter next, in
    ascending node order, that node and the state after entering it, or ``None`` when entering
    it ends the move. A path lists the nodes entered, the start excluded; the canonical path to
    a node is the shortest one, ties broken by the lexicographically smallest sequence of nodes.
    ``moves`` should not offer the start node if it must not count as a destination.
    """
    best: dict[N, tuple[N, ...]] = {}
    seen: set[S] = {start}
    frontier: dict[S, tuple[N, ...]] = {start: ()}
    for _ in range(max_steps):
        if not frontier:  # nothing new to enter: a large max_steps must not spin on
            break
        following: dict[S, tuple[N, ...]] = {}
        # Expanding in path order makes the first path found for a state the smallest.
        for state, path in sorted(frontier.items(), key=lambda item: item[1]):
            for node, after in moves(state):
                route = (*path, node)
                if node not in best:
                    best[node] = route
                if after is None or after in seen:
                    continue
                seen.add(after)
                following[after] = route
        frontier = following
    return best
