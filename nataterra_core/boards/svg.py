"""Any game's boards as SVG, drawn from its board geometry: the one renderer of the project.

The geometry is :class:`~nataterra_core.kernel.geometry.Geometry`, which a rule system's
``board_geometry`` hook computes from a seat view. The browser client shows these pictures
(the RPC server sends them with each view) and ``nataterra show --svg`` writes them, so a
board looks the same everywhere.

Modelled on python-chess's ``chess.svg.board``: a pure function from a position (here, the
geometry a rule system computed from a seat view) to SVG text, with the ids of the things
drawn kept on the elements so a browser can hit-test clicks and style selections::

    >>> from nataterra_core.kernel.geometry import Board, Cell, Geometry
    >>> cell = Cell(id="a", x=0.0, y=0.0, outline=((0.0, -1.0), (1.0, 1.0), (-1.0, 1.0)))
    >>> svg = geometry_svg(Geometry(seats=(), boards=(Board(id="m", title="M", cells=(cell,)),)))
    >>> svg.startswith("<svg") and 'data-cell="a"' in svg
    True

Each cell is a ``<g class="cell" data-cell=ID>``: its polygon, a band of the holder's colour
inside it when a seat holds it, its label at the top (pieces stand below it, so it is never
covered) and its markers' glyphs at the bottom. Each piece is a ``<g class="piece"
data-piece=ID>``: a token in its owner's colour reading its count and short name, a stripe of
its own colour (a banner) and its marks' glyphs. Each structure is a ``<g class="structure"
data-structure=ID>``: a square with its short name, beside the markers. Lines (section
borders) go over the cells; a legend under each board names the terrains, marks, structures
and seats it shows. Boards are stacked top to bottom, each under its title and notes. Nothing
here knows a game: words and fills come from the geometry (or are derived from ids).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from nataterra_core.kernel.geometry import Board, Cell, Geometry

from .legend import legend_items, legend_svg
from .tokens import cell_parts, n, radius, seat_colours

__all__ = ["SEAT_COLOURS", "board_svg", "boards_svg", "geometry_svg"]

SEAT_COLOURS = ("#c0392b", "#2471a3", "#229954", "#b9770e", "#7d3c98", "#17202a")
"""Seat colours in seat order, for seats the geometry gives none."""

TITLE_HEIGHT = 0.9
"""Board units above each board for its title (and 0.6 of it per note)."""

MARGIN = 0.6


def geometry_svg(geometry: Geometry, *, scale: float = 40.0, highlight: Iterable[str] = ()) -> str:
    """Every board of ``geometry`` as one SVG document, ``scale`` pixels per board unit.

    Cells, pieces and structures whose ids are in ``highlight`` get the class
    ``highlight`` (drawn with a thick outline), as chess.svg marks squares.
    """
    marked = frozenset(highlight)
    colours = seat_colours(geometry, SEAT_COLOURS)
    parts: list[str] = []
    top = 0.0
    width = 0.0
    for board in geometry.boards:
        drawn, box_width, box_height = _board(geometry, board, colours, marked, top)
        parts.append(drawn)
        top += box_height
        width = max(width, box_width)
    board_ids = " ".join(board.id for board in geometry.boards)
    w, h = _px(width * scale), _px(top * scale)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="game-board" width="{w}" '
        f'height="{h}" viewBox="0 0 {n(width)} {n(top)}" data-boards={quoteattr(board_ids)}>'
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


def boards_svg(geometry: Geometry, *, scale: float = 40.0) -> tuple[str, ...]:
    """Each board of ``geometry`` as its own SVG document, in order (what a page lays out
    side by side or one under the other)."""
    return tuple(board_svg(geometry, board.id, scale=scale) for board in geometry.boards)


_STYLE = (
    "text{font-family:system-ui,sans-serif;text-anchor:middle;dominant-baseline:central}"
    ".cell>polygon{stroke:#55606b;stroke-width:.035}"
    ".cell.home>polygon{stroke-width:.12}"
    ".cell .held{fill:none;stroke-width:.09;stroke-opacity:.85}"
    ".highlight>polygon,.highlight>rect{stroke:#f1c40f;stroke-width:.14}"
    ".cell-label{pointer-events:none;fill:#1d2125;font-weight:600;paint-order:stroke;stroke:#fff;"
    "stroke-width:.05;stroke-opacity:.8}"
    ".marker{fill:#1d2125;pointer-events:none}"
    ".board-title{font-size:.42px;font-weight:bold;text-anchor:start}"
    ".board-note{font-size:.3px;text-anchor:start;fill:#33404d}"
    ".piece>rect{stroke:#fff;stroke-width:.03}.piece>rect.banner{stroke:#fff;stroke-width:.025}"
    ".piece text{fill:#fff;font-weight:700}"
    ".structure rect{stroke:#1d2125;stroke-width:.025}"
    ".structure text{fill:#fff;font-weight:700}"
    ".section-line{fill:none;stroke:#1d2125;stroke-width:.07;stroke-dasharray:.25 .12;"
    "pointer-events:none}"
    ".legend text{font-size:.3px;text-anchor:start;fill:#1d2125}"
    ".legend rect{stroke:#55606b;stroke-width:.02}"
)


def _board(
    geometry: Geometry, board: Board, colours: dict[str, str], marked: frozenset[str], top: float
) -> tuple[str, float, float]:
    """A board as one ``<g>``, shifted down to ``top``; its width and height."""
    points = [p for cell in board.cells for p in cell.outline] or [(0.0, 0.0)]
    min_x, max_x = min(p[0] for p in points), max(p[0] for p in points)
    min_y, max_y = min(p[1] for p in points), max(p[1] for p in points)
    head = TITLE_HEIGHT * (1 + 0.6 * len(board.notes))
    dx, dy = MARGIN - min_x, top + head + MARGIN - min_y
    width = max(max_x - min_x + 2 * MARGIN, 6.0)
    out = [f'<g class="board" data-board={quoteattr(board.id)}>']
    out.append(
        f'<text class="board-title" x="{n(MARGIN)}" y="{n(top + TITLE_HEIGHT / 2)}">'
        f"{escape(board.title)}</text>"
    )
    for i, note in enumerate(board.notes):
        y = top + TITLE_HEIGHT * (1 + 0.6 * i) + 0.25
        out.append(f'<text class="board-note" x="{n(MARGIN)}" y="{n(y)}">{escape(note)}</text>')
    structures: dict[str, list[str]] = {}
    for structure in board.structures:
        structures.setdefault(structure.cell, []).append(structure.id)
    by_id = {structure.id: structure for structure in board.structures}
    pieces: dict[str, list[str]] = {}
    for piece in board.pieces:
        pieces.setdefault(piece.cell, []).append(piece.id)
    piece_by_id = {piece.id: piece for piece in board.pieces}
    for cell in board.cells:
        out.append(_cell(cell, board, colours, cell.id in marked, dx, dy))
    for line in board.lines:
        path = " ".join(f"{n(x + dx)},{n(y + dy)}" for x, y in line.points)
        kind = f" data-line={quoteattr(line.kind)}" if line.kind else ""
        out.append(f'<polyline class="section-line" points="{path}"{kind}/>')
    out += [_label(cell, dx, dy) for cell in board.cells]
    for cell in board.cells:
        out += cell_parts(
            cell,
            board,
            [piece_by_id[i] for i in pieces.get(cell.id, ())],
            [by_id[i] for i in structures.get(cell.id, ())],
            colours,
            marked,
            (dx, dy),
        )
    out.append("</g>")
    bottom = top + head + max_y - min_y + 2 * MARGIN
    items = legend_items(geometry, board, colours)
    legend, legend_height = legend_svg(items, MARGIN, bottom, width - 2 * MARGIN)
    out.insert(-1, legend)
    return "".join(out), width, bottom - top + legend_height


def _cell(
    cell: Cell, board: Board, colours: dict[str, str], lit: bool, dx: float, dy: float
) -> str:
    classes = "cell" + (" home" if cell.owner else "") + (" highlight" if lit else "")
    fill = board.palette.get(cell.terrain or "", _stable_colour(cell.terrain or cell.id))
    stroke = f' style="stroke:{colours[cell.owner]}"' if cell.owner in colours else ""
    points = " ".join(f"{n(x + dx)},{n(y + dy)}" for x, y in cell.outline)
    facts = [cell.label or cell.id]
    if cell.terrain:
        facts.append(board.terrains.get(cell.terrain, cell.terrain.replace("_", " ")))
    facts += [board.marks[m].words for m in cell.markers if m in board.marks]
    if cell.owner:
        facts.append(f"home of {cell.owner}")
    if cell.holder:
        facts.append(f"held by {cell.holder}")
    data = f" data-terrain={quoteattr(cell.terrain)}" if cell.terrain else ""
    if cell.holder:
        data += f" data-holder={quoteattr(cell.holder)}"
    band = ""
    if cell.holder:
        inner = " ".join(
            f"{n(cell.x + dx + 0.84 * (x - cell.x))},{n(cell.y + dy + 0.84 * (y - cell.y))}"
            for x, y in cell.outline
        )
        band = (
            f'<polygon class="held" points="{inner}" '
            f'style="stroke:{colours.get(cell.holder, "#555")}"/>'
        )
    return (
        f'<g class="{classes}" data-cell={quoteattr(cell.id)}{data}>'
        f'<polygon points="{points}" fill="{fill}"{stroke}/>{band}'
        f"<title>{escape(', '.join(facts))}</title></g>"
    )


def _label(cell: Cell, dx: float, dy: float) -> str:
    """A cell's label, in its top part (drawn over the lines; clicks go through it)."""
    r = radius(cell)
    label = cell.label or cell.id
    xs = [x for x, _ in cell.outline] or [cell.x]
    wide = max(xs) - min(xs) or 2 * r  # a slot is wider than tall: its label may be too
    size = min(0.3, r * 0.34, 0.8 * wide / (0.6 * max(len(label), 1)))
    return (
        f'<text class="cell-label" x="{n(cell.x + dx)}" y="{n(cell.y + dy - 0.62 * r)}" '
        f'font-size="{n(size)}">{escape(label)}</text>'
    )


def _stable_colour(name: str) -> str:
    """A light colour that is the same for a name in every picture (CRC-32, not ``hash``)."""
    hue = zlib.crc32(name.encode()) % 360
    return f"hsl({hue},45%,78%)"


def _px(value: float) -> str:
    return str(round(value))
