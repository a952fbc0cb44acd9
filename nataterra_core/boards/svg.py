"""Any game's boards as one SVG picture, drawn from its board geometry.

The geometry is :class:`~nataterra_core.kernel.geometry.Geometry`, which a rule system's
``board_geometry`` hook computes from a seat view.

Modelled on python-chess's ``chess.svg.board``: a pure function from a position (here, the
geometry a rule system computed from a seat view) to SVG text, with the ids of the things
drawn kept on the elements so a browser can hit-test clicks and style selections::

    >>> from nataterra_core.kernel.geometry import Board, Cell, Geometry
    >>> cell = Cell(id="a", x=0.0, y=0.0, outline=((0.0, -1.0), (1.0, 1.0), (-1.0, 1.0)))
    >>> svg = geometry_svg(Geometry(seats=(), boards=(Board(id="m", title="M", cells=(cell,)),)))
    >>> svg.startswith("<svg") and 'data-cell="a"' in svg
    True

Each cell is one ``<polygon class="cell">`` inside a ``<g data-cell=ID>``; each piece one
``<g class="piece" data-piece=ID>`` (a disc in its owner's colour with its count); each
structure one ``<g class="structure" data-structure=ID>`` (a square). Boards are stacked
top to bottom, each under its title. Nothing here knows a game: fills come from the board's
``palette`` (or a stable colour derived from the terrain name), seat colours from the
geometry's ``colours`` (or a fixed list, in seat order).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from nataterra_core.kernel.geometry import Board, Cell, Geometry, Piece, Structure

__all__ = ["SEAT_COLOURS", "board_svg", "geometry_svg"]

SEAT_COLOURS = ("#c0392b", "#2471a3", "#229954", "#b9770e", "#7d3c98", "#17202a")
"""Seat colours in seat order, for seats the geometry gives none."""

TITLE_HEIGHT = 0.9
"""Board units above each board for its title (and one line per note)."""

MARGIN = 0.6


def geometry_svg(geometry: Geometry, *, scale: float = 40.0, highlight: Iterable[str] = ()) -> str:
    """Every board of ``geometry`` as one SVG document, ``scale`` pixels per board unit.

    Cells, pieces and structures whose ids are in ``highlight`` get the class
    ``highlight`` (drawn with a thick outline), as chess.svg marks squares.
    """
    marked = frozenset(highlight)
    colours = _seat_colours(geometry)
    parts: list[str] = []
    top = 0.0
    width = 0.0
    for board in geometry.boards:
        drawn, box_width, box_height = _board(board, colours, marked, top)
        parts.append(drawn)
        top += box_height
        width = max(width, box_width)
    w, h = _px(width * scale), _px(top * scale)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="game-board" width="{w}" '
        f'height="{h}" viewBox="0 0 {_n(width)} {_n(top)}">'
        f"<style>{_STYLE}</style>{''.join(parts)}</svg>"
    )


def board_svg(geometry: Geometry, board_id: str, *, scale: float = 40.0) -> str:
    """Only the board ``board_id`` of ``geometry`` (``KeyError`` if there is none)."""
    for board in geometry.boards:
        if board.id == board_id:
            return geometry_svg(
                Geometry(seats=geometry.seats, boards=(board,), colours=geometry.colours),
                scale=scale,
            )
    raise KeyError(f"no board {board_id!r} (boards: {[b.id for b in geometry.boards]})")


_STYLE = (
    ".cell polygon{stroke:#444;stroke-width:.04}"
    ".cell.home polygon{stroke-width:.12}"
    ".highlight polygon,.highlight circle,.highlight rect{stroke:#f1c40f;stroke-width:.14}"
    "text{font-family:sans-serif;text-anchor:middle;dominant-baseline:central}"
    ".cell-label{font-size:.28px;fill:#222}"
    ".board-title{font-size:.42px;font-weight:bold;text-anchor:start}"
    ".board-note{font-size:.3px;text-anchor:start}"
    ".piece circle{stroke:#fff;stroke-width:.05}"
    ".piece text{font-size:.26px;fill:#fff;font-weight:bold}"
    ".structure rect{stroke:#222;stroke-width:.04}"
    ".structure text{font-size:.2px;fill:#fff}"
)


def _board(
    board: Board, colours: dict[str, str], marked: frozenset[str], top: float
) -> tuple[str, float, float]:
    """A board as one ``<g>``, shifted down to ``top``; its width and height."""
    points = [p for cell in board.cells for p in cell.outline] or [(0.0, 0.0)]
    min_x, max_x = min(p[0] for p in points), max(p[0] for p in points)
    min_y, max_y = min(p[1] for p in points), max(p[1] for p in points)
    head = TITLE_HEIGHT * (1 + 0.6 * len(board.notes))
    dx, dy = MARGIN - min_x, top + head + MARGIN - min_y
    out = [f'<g class="board" data-board={quoteattr(board.id)}>']
    out.append(
        f'<text class="board-title" x="{_n(MARGIN)}" y="{_n(top + TITLE_HEIGHT / 2)}">'
        f"{escape(board.title)}</text>"
    )
    for i, note in enumerate(board.notes):
        y = top + TITLE_HEIGHT * (1 + 0.6 * i) + 0.25
        out.append(f'<text class="board-note" x="{_n(MARGIN)}" y="{_n(y)}">{escape(note)}</text>')
    cells = {cell.id: cell for cell in board.cells}
    for cell in board.cells:
        out.append(_cell(cell, board.palette, colours, cell.id in marked, dx, dy))
    for structure in board.structures:
        if structure.cell in cells:
            out.append(_structure(structure, cells[structure.cell], colours, marked, dx, dy))
    by_cell: dict[str, list[Piece]] = {}
    for piece in board.pieces:
        by_cell.setdefault(piece.cell, []).append(piece)
    for cell_id, pieces in by_cell.items():
        if cell_id in cells:
            out += _pieces(pieces, cells[cell_id], colours, marked, dx, dy)
    out.append("</g>")
    width = max_x - min_x + 2 * MARGIN
    height = max_y - min_y + 2 * MARGIN + head
    return "".join(out), width, height


def _cell(
    cell: Cell, palette: dict[str, str], colours: dict[str, str], lit: bool, dx: float, dy: float
) -> str:
    classes = "cell" + (" home" if cell.owner else "") + (" highlight" if lit else "")
    fill = palette.get(cell.terrain or "", _stable_colour(cell.terrain or cell.id))
    stroke = f' style="stroke:{colours[cell.owner]}"' if cell.owner in colours else ""
    points = " ".join(f"{_n(x + dx)},{_n(y + dy)}" for x, y in cell.outline)
    facts = [cell.id, *(f for f in (cell.terrain, cell.label) if f), *cell.markers]
    if cell.owner:
        facts.append(f"home of {cell.owner}")
    terrain = f" data-terrain={quoteattr(cell.terrain)}" if cell.terrain else ""
    label = cell.label or cell.id
    label_y = cell.y + dy + _radius(cell) * 0.7
    return (
        f'<g class="{classes}" data-cell={quoteattr(cell.id)}{terrain}>'
        f'<polygon points="{points}" fill="{fill}"{stroke}/>'
        f"<title>{escape(', '.join(facts))}</title>"
        f'<text class="cell-label" x="{_n(cell.x + dx)}" y="{_n(label_y)}">'
        f"{escape(label)}</text></g>"
    )


def _structure(
    structure: Structure,
    cell: Cell,
    colours: dict[str, str],
    marked: frozenset[str],
    dx: float,
    dy: float,
) -> str:
    side = _radius(cell) * 0.36
    x, y = cell.x + dx - side / 2, cell.y + dy - _radius(cell) * 0.6 - side / 2
    fill = colours.get(structure.owner or "", "#555")
    lit = " highlight" if structure.id in marked else ""
    words = structure.label or structure.kind
    counters = _counters(structure.counters)
    return (
        f'<g class="structure{lit}" data-structure={quoteattr(structure.id)} '
        f"data-cell={quoteattr(structure.cell)}>"
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(side)}" height="{_n(side)}" fill="{fill}"/>'
        f'<text x="{_n(x + side / 2)}" y="{_n(y + side / 2)}">{escape(words[:1].upper())}</text>'
        f"<title>{escape(words + counters)}</title></g>"
    )


def _pieces(
    pieces: Sequence[Piece],
    cell: Cell,
    colours: dict[str, str],
    marked: frozenset[str],
    dx: float,
    dy: float,
) -> list[str]:
    """Pieces on a cell: one in the middle, more on a ring around it."""
    radius = _radius(cell)
    crowd = len(pieces)
    disc = min(0.26, radius * (0.4 if crowd == 1 else 0.28 if crowd <= 4 else 0.2))
    ring = 0.0 if crowd == 1 else radius * (0.36 if crowd <= 4 else 0.5)
    out = []
    for i, piece in enumerate(pieces):
        angle = math.tau * i / len(pieces) - math.pi / 2
        x = cell.x + dx + ring * math.cos(angle)
        y = cell.y + dy + ring * math.sin(angle)
        fill = colours.get(piece.owner or "", "#555")
        lit = " highlight" if piece.id in marked else ""
        owner = f" data-owner={quoteattr(piece.owner)}" if piece.owner else ""
        words = (piece.label or f"{piece.count} {piece.kind}") + _counters(piece.counters)
        out.append(
            f'<g class="piece{lit}" data-piece={quoteattr(piece.id)} '
            f"data-cell={quoteattr(piece.cell)}{owner} data-kind={quoteattr(piece.kind)}>"
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(disc)}" fill="{fill}"/>'
            f'<text x="{_n(x)}" y="{_n(y)}">{piece.count}</text>'
            f"<title>{escape(words)}</title></g>"
        )
    return out


def _counters(counters: dict[str, int]) -> str:
    shown = ", ".join(f"{name} {value}" for name, value in counters.items() if value)
    return f" ({shown})" if shown else ""


def _radius(cell: Cell) -> float:
    """How much room a cell has around its centre: the smaller half-side of its bounding box."""
    if not cell.outline:
        return 1.0
    xs = [p[0] for p in cell.outline]
    ys = [p[1] for p in cell.outline]
    return min(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0


def _seat_colours(geometry: Geometry) -> dict[str, str]:
    colours = {seat: SEAT_COLOURS[i % len(SEAT_COLOURS)] for i, seat in enumerate(geometry.seats)}
    return {**colours, **geometry.colours}


def _stable_colour(name: str) -> str:
    """A light colour that is the same for a name in every picture (CRC-32, not ``hash``)."""
    hue = zlib.crc32(name.encode()) % 360
    return f"hsl({hue},45%,78%)"


def _n(value: float) -> str:
    """A coordinate with at most three decimals, without trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _px(value: float) -> str:
    return str(round(value))
