"""The BattleLore board as geometry: offset hexes, sections, sides and line of sight.

B-BOARD-1: 9 rows of pointy-top hexes, even rows 13 hexes and odd rows 12, shifted half a hex
right ("odd-r" offsets ``[column, row]``). The rules work in the shared toolkit's axial
:class:`~nataterra_core.boards.hexgrid.Hex`; this module converts, knows which hexes exist,
which section a hex is in from each side's point of view, and which way is "toward its owner".
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from nataterra_core.boards.hexgrid import Hex, hex_distance, line_between

from .content.schema import Rules, Section

__all__ = ["Board", "Point", "distance", "to_hex", "to_offset"]

Point = tuple[int, int]
"""An axial hex as commands and events carry it: ``(q, r)``."""

SECTIONS: tuple[Section, ...] = ("left", "centre", "right")
MAX_KEPT = 4096
"""Answers a board keeps (its hexes and their neighbours off the board, for both sides)."""


def to_hex(column: int, row: int) -> Hex:
    """The axial hex of offset ``[column, row]``."""
    return Hex(column - (row - (row & 1)) // 2, row)


def to_offset(hex_: Point) -> tuple[int, int]:
    """The offset ``(column, row)`` of an axial hex."""
    q, r = hex_
    return q + (r - (r & 1)) // 2, r


class Board:
    """The hexes of a board of the pack's size and their sections (B-BOARD-1).

    ``bottom`` is the side whose own edge is the last row; the other side's is row 0. Each
    side names sections from its own point of view: the bottom side's left is the low
    columns, the top side's left the high ones.
    """

    def __init__(self, rules: Rules, bottom: str) -> None:
        self.rules = rules
        self.bottom = bottom
        self.hexes: frozenset[Point] = frozenset(
            tuple(to_hex(c, r))  # type: ignore[misc]
            for r in range(rules.rows)
            for c in range(rules.columns - (r % 2))
        )
        # Answers kept per hex (a board has about a hundred): the bots ask them hundreds of
        # thousands of times a search.
        self._neighbours: dict[Point, tuple[Point, ...]] = {}
        self._sections: dict[tuple[Point, str], tuple[Section, ...]] = {}

    def on_board(self, hex_: Point) -> bool:
        """Whether ``hex_`` is a hex of the board."""
        return hex_ in self.hexes

    def neighbours(self, hex_: Point) -> tuple[Point, ...]:
        """The board hexes next to ``hex_``, in ascending order (canonical path search)."""
        found = self._neighbours.get(hex_)
        if found is None:
            found = tuple(sorted(n for n in _around(hex_) if n in self.hexes))
            if len(self._neighbours) < MAX_KEPT:
                self._neighbours[hex_] = found
        return found

    def sections(self, hex_: Point, side: str) -> tuple[Section, ...]:
        """The sections ``hex_`` is in, named from ``side``'s point of view; a hex whose
        centre a section line crosses is in both (B-BOARD-1)."""
        found = self._sections.get((hex_, side))
        if found is None:
            found = self._sections_of(hex_, side)
            if len(self._sections) < MAX_KEPT:
                self._sections[hex_, side] = found
        return found

    def _sections_of(self, hex_: Point, side: str) -> tuple[Section, ...]:
        column, row = to_offset(hex_)
        x = 2 * column + row % 2
        lines = self.rules.section_lines
        found = [
            name
            for n, name in enumerate(SECTIONS)
            if (n == 0 or x >= lines[n - 1]) and (n == len(lines) or x <= lines[n])
        ]
        if side != self.bottom:
            flip = {"left": "right", "right": "left", "centre": "centre"}
            return tuple(sorted((flip[s] for s in found), key=SECTIONS.index))  # type: ignore[misc]
        return tuple(found)

    def home_row(self, side: str) -> int:
        """The row of ``side``'s own edge."""
        return self.rules.rows - 1 if side == self.bottom else 0

    def toward_home(self, hex_: Point, side: str) -> tuple[Point, ...]:
        """The board hexes one step nearer ``side``'s own edge (B-RET-1), ascending."""
        step = 1 if side == self.bottom else -1
        return tuple(n for n in self.neighbours(hex_) if n[1] == hex_[1] + step)

    def sight(self, a: Point, b: Point, blocks: Callable[[Point], bool]) -> bool:
        """Line of sight from ``a`` to ``b`` (B-BAT-2): the hex toolkit's line, clear unless
        a step of it is blocked (a step along an edge only when both its hexes are), as
        ``hexgrid.has_line_of_sight`` judges it."""
        return not any(all(blocks(h) for h in step) for step in _line(a, b))


@functools.cache
def _line(a: Point, b: Point) -> tuple[tuple[Point, ...], ...]:
    """``hexgrid.line_between`` as points, kept: its exact arithmetic cost four fifths of a
    search's playouts, and a board has few pairs of hexes."""
    return tuple(tuple((h.q, h.r) for h in step) for step in line_between(Hex(*a), Hex(*b)))


@functools.cache
def _around(hex_: Point) -> tuple[Point, ...]:
    return tuple((n.q, n.r) for n in Hex(*hex_).neighbours())


@functools.cache
def distance(a: Point, b: Point) -> int:
    """Hex distance between two axial points (kept: the bots ask it hundreds of thousands of
    times a search)."""
    return hex_distance(Hex(*a), Hex(*b))
