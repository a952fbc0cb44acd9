"""What stands on a cell, as SVG: pieces as labelled tokens, structures and markers as marks.

Part of :mod:`nataterra_core.boards.svg` (the one board renderer). A cell's label sits in
its top part; the pieces fill the middle in one or two columns of tokens (each reading its
count and short name, striped with its own colour and followed by its marks' glyphs); the
structures and the markers' glyphs share a row at the bottom. So nothing covers the label,
and a unit says what it is without a tooltip.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from nataterra_core.kernel.geometry import Board, Cell, Geometry, Piece, Structure

__all__ = ["cell_parts", "glyph_of", "n", "radius", "seat_colours"]

GLYPH_LETTERS = 4
"""Letters of a kind id a token shows when the geometry gives no glyph."""


def n(value: float) -> str:
    """A coordinate with at most three decimals, without trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def radius(cell: Cell) -> float:
    """How much room a cell has around its centre: the smaller half-side of its bounding box."""
    if not cell.outline:
        return 1.0
    xs = [p[0] for p in cell.outline]
    ys = [p[1] for p in cell.outline]
    return min(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0


def seat_colours(geometry: Geometry, fallback: Sequence[str]) -> dict[str, str]:
    """Each seat's colour: the geometry's, else the ``fallback`` list in seat order."""
    colours = {seat: fallback[i % len(fallback)] for i, seat in enumerate(geometry.seats)}
    return {**colours, **geometry.colours}


def glyph_of(kind: str, glyph: str = "") -> str:
    """The short name on a token: the geometry's ``glyph``, else the kind's first word cut
    to :data:`GLYPH_LETTERS` letters and capitalised (``cave_golem`` -> ``Cave``)."""
    if glyph:
        return glyph
    word = kind.replace("-", "_").split("_")[0] or "?"
    return word[:GLYPH_LETTERS].capitalize()


def cell_parts(
    cell: Cell,
    board: Board,
    pieces: Sequence[Piece],
    structures: Sequence[Structure],
    colours: dict[str, str],
    marked: frozenset[str],
    shift: tuple[float, float],
) -> list[str]:
    """The pieces, structures and marker glyphs of one cell (in the board's coordinates
    shifted by ``shift``)."""
    out = _pieces(cell, board, pieces, colours, marked, shift)
    out += _bottom_row(cell, board, structures, colours, marked, shift)
    return out


def _pieces(
    cell: Cell,
    board: Board,
    pieces: Sequence[Piece],
    colours: dict[str, str],
    marked: frozenset[str],
    shift: tuple[float, float],
) -> list[str]:
    """Tokens in one or two columns between the label (top) and the markers (bottom)."""
    if not pieces:
        return []
    r = radius(cell)
    xs = [x for x, _ in cell.outline] or [cell.x]
    wide = max(xs) - min(xs)
    if wide > 2.4 * r:  # a long slot (units in reserve): the tokens side by side
        columns = min(len(pieces), max(1, int(0.92 * wide / (1.3 * r))))
        width = 0.92 * wide / columns
    else:
        columns = 1 if len(pieces) <= 2 else 2
        width = 1.7 * r / columns
    rows = math.ceil(len(pieces) / columns)
    area_top, area_height = -0.42 * r, 0.92 * r
    height = min(0.5 * r, area_height / rows)
    cx, cy = cell.x + shift[0], cell.y + shift[1]
    out = []
    for index, piece in enumerate(pieces):
        row, column = divmod(index, columns)
        if index == len(pieces) - 1 and len(pieces) % columns:  # a last one alone: centred
            left = cx - width / 2
        else:
            left = cx - width * columns / 2 + column * width
        top = cy + area_top + row * height + (area_height - rows * height) / 2
        out.append(_token(piece, board, colours, piece.id in marked, left, top, width, height))
    return out


def _token(
    piece: Piece,
    board: Board,
    colours: dict[str, str],
    lit: bool,
    left: float,
    top: float,
    width: float,
    height: float,
) -> str:
    gap = height * 0.08
    x, y, w, h = left + gap, top + gap, width - 2 * gap, height - 2 * gap
    fill = colours.get(piece.owner or "", "#555")
    glyph = glyph_of(piece.kind, piece.glyph)
    shown = [board.marks[m] for m in piece.marks if m in board.marks]
    marks = "".join(mark.glyph for mark in shown)
    words = (f"{piece.count} " if piece.count != 1 else "") + glyph + marks
    banner = next((mark.colour for mark in shown if mark.colour), "")
    room = w - (h * 0.55 if banner else 0) - h * 0.2
    size = min(h * 0.62, room / (0.6 * max(len(words), 3)))  # ~0.6 em per character
    stripe = ""
    if banner:
        stripe = (
            f'<rect class="banner" x="{n(x + h * 0.08)}" y="{n(y + h * 0.12)}" '
            f'width="{n(h * 0.4)}" height="{n(h * 0.76)}" fill="{banner}" rx="{n(h * 0.1)}"/>'
        )
    text_x = x + w / 2 + (h * 0.24 if banner else 0)
    facts = [piece.label or f"{piece.count} {piece.kind}"]
    facts += [mark.words for mark in shown]
    facts += [f"{name} {value}" for name, value in piece.counters.items() if value]
    if piece.owner:
        facts.append(piece.owner)
    owner = f" data-owner={quoteattr(piece.owner)}" if piece.owner else ""
    return (
        f'<g class="piece{" highlight" if lit else ""}" data-piece={quoteattr(piece.id)} '
        f"data-cell={quoteattr(piece.cell)}{owner} data-kind={quoteattr(piece.kind)}>"
        f'<rect x="{n(x)}" y="{n(y)}" width="{n(w)}" height="{n(h)}" rx="{n(h * 0.3)}" '
        f'fill="{fill}"/>{stripe}'
        f'<text x="{n(text_x)}" y="{n(y + h / 2)}" font-size="{n(size)}">{escape(words)}</text>'
        f"<title>{escape(', '.join(facts))}</title></g>"
    )


def _bottom_row(
    cell: Cell,
    board: Board,
    structures: Sequence[Structure],
    colours: dict[str, str],
    marked: frozenset[str],
    shift: tuple[float, float],
) -> list[str]:
    """Structures (squares with a short name) and marker glyphs, centred at the bottom."""
    r = radius(cell)
    glyphs = [board.marks[m] for m in cell.markers if m in board.marks and board.marks[m].glyph]
    if not structures and not glyphs:
        return []
    side = 0.3 * r
    slots = len(structures) + len(glyphs)
    step = min(side * 1.15, 1.4 * r / slots)
    x = cell.x + shift[0] - step * (slots - 1) / 2
    y = cell.y + shift[1] + 0.66 * r
    out = []
    for structure in structures:
        fill = colours.get(structure.owner or "", "#555")
        words = structure.label or structure.kind
        glyph = glyph_of(structure.kind, structure.glyph)[:2]
        lit = " highlight" if structure.id in marked else ""
        out.append(
            f'<g class="structure{lit}" data-structure={quoteattr(structure.id)} '
            f"data-cell={quoteattr(structure.cell)}>"
            f'<rect x="{n(x - side / 2)}" y="{n(y - side / 2)}" width="{n(side)}" '
            f'height="{n(side)}" fill="{fill}"/>'
            f'<text x="{n(x)}" y="{n(y)}" font-size="{n(side * 0.6)}">{escape(glyph)}</text>'
            f"<title>{escape(words + _counters(structure.counters))}</title></g>"
        )
        x += step
    for mark in glyphs:
        out.append(
            f'<text class="marker" x="{n(x)}" y="{n(y)}" font-size="{n(side * 0.9)}">'
            f"{escape(mark.glyph)}<title>{escape(mark.words)}</title></text>"
        )
        x += step
    return out


def _counters(counters: dict[str, int]) -> str:
    shown = ", ".join(f"{name} {value}" for name, value in counters.items() if value)
    return f" ({shown})" if shown else ""
