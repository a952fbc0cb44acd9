"""Board geometry: what a client needs to draw any game's board and turn clicks into commands.

A rule system that can be drawn fills :attr:`Hooks.board_geometry
<nataterra_core.kernel.registry.Hooks.board_geometry>` with a :class:`BoardGeometry`: from a
**seat view** (never the state, so nothing hidden can leak) it builds a :class:`Geometry` —
one or more :class:`Board` records of :class:`Cell` (zones, squares, slots: a centre, an
outline polygon, a terrain label, adjacency, an owner and markers), :class:`Piece` (units,
stacks, groups: owner, kind, count, counters such as damage) and :class:`Structure` records —
and, for each legal command, the :class:`Targets` it acts on (the pieces it moves or acts
with, the cell or piece it aims at, the path it takes). A client draws the cells' outlines,
puts the pieces on their cells, and when the player clicks a piece and then a cell, sends the
legal command whose targets match (python-chess's ``chess.svg`` and boardgame.io's board
components are the models)::

    >>> cell = Cell(id="a1", x=0.0, y=0.0, outline=((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)))
    >>> board = Board(id="map", title="the map", cells=(cell,))
    >>> Geometry(seats=("ann", "bob"), boards=(board,)).boards[0].cells[0].id
    'a1'

Coordinates are abstract board units (a hex of circumradius 1, say), ``y`` pointing down as
in SVG; a client scales them to its canvas. Every id is unique within its :class:`Geometry`
(cells and pieces share one namespace), so one id finds one thing on screen. The records are
msgspec structs: ``msgspec.to_builtins`` gives the JSON the RPC server sends (``docs/RPC.md``).
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

from .messages import Command

__all__ = [
    "Board",
    "BoardGeometry",
    "Cell",
    "Geometry",
    "Line",
    "Mark",
    "Piece",
    "Structure",
    "Targets",
]

Point = tuple[float, float]


class Cell(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One place on a board: a zone of a map, a square, a slot of a combat board.

    ``outline`` is the polygon to draw (board units, clockwise); ``x``/``y`` its centre, where
    pieces and the label go. ``hex`` gives axial ``(q, r)`` coordinates on a hex board.
    ``terrain`` is the game's label for what the cell is (a kind of land, a slot kind) and picks its
    fill from the board's ``palette``; ``neighbours`` are the ids of adjacent cells; ``owner``
    the seat whose home (base) this is; ``holder`` the seat that holds it now (its units or
    structures stand there, it has claimed it), drawn as a band of that seat's colour;
    ``markers`` are short facts a client shows as marks (``"base"``, ``"resource:food"``),
    explained by the board's ``legend``.
    """

    id: str
    x: float
    y: float
    outline: tuple[Point, ...]
    hex: tuple[int, int] | None = None
    terrain: str | None = None
    label: str = ""
    neighbours: tuple[str, ...] = ()
    owner: str | None = None
    holder: str | None = None
    markers: tuple[str, ...] = ()


class Piece(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Something a player owns standing on a cell: a unit stack, a combat group, a token.

    ``kind`` is the game's type id (``"orc"``), ``label`` the words to show (``"3 Orcs"``),
    ``count`` how many it stands for, ``counters`` any numbers on it (``{"damage": 2}``).
    ``glyph`` is the short name drawn on the piece (``"Orc"``, ``"Archers"``; a client
    abbreviates ``kind`` when it is empty); ``marks`` facts about it drawn as small marks
    (``"upgraded"``, a banner's colour), as the board's ``marks`` say.
    """

    id: str
    cell: str
    owner: str | None
    kind: str
    count: int = 1
    label: str = ""
    counters: dict[str, int] = msgspec.field(default_factory=dict)
    glyph: str = ""
    marks: tuple[str, ...] = ()


class Structure(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A building or fixed feature on a cell (``owner`` ``None``: nobody's); ``glyph`` the
    short name drawn on it (a client abbreviates ``kind`` when it is empty)."""

    id: str
    cell: str
    owner: str | None
    kind: str
    label: str = ""
    counters: dict[str, int] = msgspec.field(default_factory=dict)
    glyph: str = ""


class Line(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A line drawn across a board (a section border), through ``points`` in board units;
    ``kind`` is a key of the board's ``legend``."""

    points: tuple[Point, ...]
    kind: str = ""


class Mark(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """How a marker of a cell, a mark of a piece or a kind of line is drawn, and the ``words``
    the legend gives it: a ``glyph`` (one or two characters, ``"▲"``), or a ``colour`` (a
    piece's mark drawn as a stripe of it: a banner)."""

    words: str
    glyph: str = ""
    colour: str = ""


class Board(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One drawable board: a map, or a combat board while a combat runs.

    ``palette`` maps a cell's ``terrain`` to a CSS colour (a client may use its own);
    ``notes`` are lines of text that belong beside the board (a round number, a card);
    ``terrains`` names each terrain in words for the legend (``{"hill": "hills"}``); ``marks``
    says how each cell marker and piece mark is drawn (a marker without one is not drawn:
    the cell's tooltip still lists it); ``lines`` are drawn over the cells.
    """

    id: str
    title: str
    cells: tuple[Cell, ...]
    pieces: tuple[Piece, ...] = ()
    structures: tuple[Structure, ...] = ()
    palette: dict[str, str] = msgspec.field(default_factory=dict)
    notes: tuple[str, ...] = ()
    terrains: dict[str, str] = msgspec.field(default_factory=dict)
    marks: dict[str, Mark] = msgspec.field(default_factory=dict)
    lines: tuple[Line, ...] = ()


class Geometry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Everything drawable in a seat view: the boards (the first is the main one) and each
    seat's colour (``colours``; a client picks its own for a seat missing there)."""

    seats: tuple[str, ...]
    boards: tuple[Board, ...]
    colours: dict[str, str] = msgspec.field(default_factory=dict)


class Targets(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What one command acts on, in the ids of the :class:`Geometry` of the same view.

    ``pieces`` are what the player selects first (the stack that moves, the group that
    attacks); ``cell`` or ``piece`` is what the player then clicks (the destination, the
    group attacked); ``path`` the cells a move passes through, start and end included, to
    highlight. ``card`` is the card of the seat's hand (a :class:`~.panels.Card` id) the
    command plays: the client offers it by clicking that card. A command with no place on the
    board nor in the hand (ending a phase) has empty targets and is offered as a sentence.
    """

    pieces: tuple[str, ...] = ()
    cell: str | None = None
    piece: str | None = None
    path: tuple[str, ...] = ()
    card: str | None = None


class BoardGeometry(Protocol):
    """The board-geometry hook of a rule system (``Hooks.board_geometry``)."""

    def geometry(self, view: Any) -> Geometry:
        """The boards of a seat view (computed from the view alone: it shows nothing else)."""

    def targets(self, view: Any, command: Command) -> Targets:
        """Where ``command``, legal in the position ``view`` shows, acts on the boards."""
