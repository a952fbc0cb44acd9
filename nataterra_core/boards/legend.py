"""The legend under a board: what its colours, glyphs, squares and lines mean.

Part of :mod:`nataterra_core.boards.svg`. Only what the board shows is listed: the seats'
colours, the terrains on its cells (a swatch of their fill and their words), the glyphs of
the markers and piece marks present, the structures (their square and name), the band of a
held cell and the lines. Items flow left to right in rows as wide as the board.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import msgspec

from nataterra_core.kernel.geometry import Board, Geometry, Structure

from .tokens import glyph_of, n

__all__ = ["LegendItem", "legend_items", "legend_svg"]

FONT = 0.3
ROW = 0.5
CHAR = 0.17
"""Board units per character of legend text (an estimate: SVG text cannot be measured here)."""


class LegendItem(msgspec.Struct, frozen=True):
    """One entry: how it looks (``swatch`` a fill, ``glyph`` a character, ``square`` a
    structure's, ``line`` a dashed line) and its words."""

    words: str
    swatch: str = ""
    glyph: str = ""
    square: str = ""
    line: bool = False


def legend_items(geometry: Geometry, board: Board, colours: dict[str, str]) -> list[LegendItem]:
    """What ``board`` shows that needs saying, in a stable order."""
    items = []
    owners = {p.owner for p in board.pieces} | {c.owner for c in board.cells}
    owners |= {c.holder for c in board.cells} | {s.owner for s in board.structures}
    for seat in geometry.seats:
        if seat in owners:
            items.append(LegendItem(seat, swatch=colours.get(seat, "#555")))
    seen: set[str] = set()
    for cell in board.cells:
        terrain = cell.terrain
        if terrain and terrain not in seen and (terrain in board.terrains or board.palette):
            seen.add(terrain)
            words = board.terrains.get(terrain, terrain.replace("_", " "))
            items.append(LegendItem(words, swatch=board.palette.get(terrain, "#e8ecef")))
    if any(cell.holder for cell in board.cells):
        items.append(LegendItem("inner band: held by that seat", swatch="#ffffff"))
    used = [m for cell in board.cells for m in cell.markers]
    used += [m for piece in board.pieces for m in piece.marks]
    used += [line.kind for line in board.lines if line.kind]
    for key in dict.fromkeys(used):
        mark = board.marks.get(key)
        if mark is not None:
            if any(line.kind == key for line in board.lines):
                items.append(LegendItem(mark.words, line=True))
            elif mark.glyph or mark.colour:
                items.append(LegendItem(mark.words, glyph=mark.glyph, swatch=mark.colour))
    kinds: dict[str, Structure] = {}
    for structure in board.structures:
        kinds.setdefault(structure.kind, structure)
    for kind, structure in kinds.items():
        words = structure.label or kind.replace("_", " ")
        items.append(LegendItem(words, square=glyph_of(kind, structure.glyph)[:2]))
    return items


def legend_svg(items: list[LegendItem], left: float, top: float, width: float) -> tuple[str, float]:
    """The items as one ``<g class="legend">`` from (``left``, ``top``), wrapped at ``width``;
    its height (0 with no items)."""
    if not items:
        return "", 0.0
    out = ['<g class="legend">']
    x, y = left, top + ROW / 2
    for item in items:
        size = 0.55 + len(item.words) * CHAR
        if x > left and x + size > left + width:
            x, y = left, y + ROW
        out.append(_key(item, x, y))
        out.append(f'<text x="{n(x + 0.45)}" y="{n(y)}">{escape(item.words)}</text>')
        x += size + 0.35
    out.append("</g>")
    return "".join(out), y - top + ROW


def _key(item: LegendItem, x: float, y: float) -> str:
    box = 0.32
    if item.line:
        return f'<polyline class="section-line" points="{n(x)},{n(y)} {n(x + box)},{n(y)}"/>'
    if item.glyph:
        return (
            f'<text class="marker" x="{n(x + box / 2)}" y="{n(y)}" font-size="{n(FONT)}" '
            f'style="text-anchor:middle">{escape(item.glyph)}</text>'
        )
    if item.square:
        return (
            f'<g class="structure"><rect x="{n(x)}" y="{n(y - box / 2)}" width="{n(box)}" '
            f'height="{n(box)}" fill="#555"/><text x="{n(x + box / 2)}" y="{n(y)}" '
            f'font-size="{n(box * 0.6)}" style="text-anchor:middle">{escape(item.square)}'
            "</text></g>"
        )
    return (
        f'<rect x="{n(x)}" y="{n(y - box / 2)}" width="{n(box)}" height="{n(box)}" '
        f'fill="{item.swatch}"/>'
    )
