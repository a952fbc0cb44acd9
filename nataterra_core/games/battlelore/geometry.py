"""BattleLore's board for clients (the registry's board-geometry hook, ``kernel.geometry``).

From a seat view — never the state — :class:`BattleLoreBoards` builds the hex board: every
hex with its axial coordinates, terrain, sections (as ``markers``), objectives and lore hexes,
and each unit as a piece (its type, banner and figures). Ids: a hex is ``"hex:COLUMN,ROW"``
(the board's offset coordinates, B-BOARD-1), a unit is its unit id (``"e3"``).
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from nataterra_core.boards.hexgrid import SQRT3, Hex, hex_centre, hex_outline
from nataterra_core.boards.names import short_name
from nataterra_core.boards.svg import geometry_svg
from nataterra_core.kernel import Command
from nataterra_core.kernel.geometry import Board, Cell, Geometry, Line, Mark, Piece, Targets

from . import messages as m
from .board import Point, to_offset
from .determinise import determinise
from .panels import card_of
from .rules.world import World, world_in_play
from .views import SeatView

__all__ = ["BOARDS", "BattleLoreBoards", "board_svg", "cell_id"]

PALETTE = {
    "countryside": "#cfe3a6",
    "forest": "#4f8a3c",
    "hill": "#b59a6a",
    "building": "#a08f84",
    "river": "#5b8fd1",
    "ford": "#8fb5e0",
    "stream": "#9cc5ea",
}
COLOURS = {"english": "#c0392b", "french": "#2c5aa0"}
TERRAINS = {
    "countryside": "countryside",
    "forest": "forest",
    "hill": "hill",
    "building": "building",
    "river": "river",
    "ford": "ford",
    "stream": "stream",
}
BANNERS = {"green": "#2e9e44", "blue": "#3b82f6", "red": "#e8412c"}
"""The banner colours a unit's dice hit on (B-UNIT-3), drawn as a stripe on its token."""


def _marks(sides: tuple[str, ...]) -> dict[str, Mark]:
    marks = {
        f"banner:{banner}": Mark(words=f"{banner} banner", colour=colour)
        for banner, colour in BANNERS.items()
    }
    marks["lore"] = Mark(words="lore hex", glyph="✦")
    marks["section"] = Mark(words="section border (left, centre, right)")
    for side in sides:
        marks[f"objective:{side}"] = Mark(words=f"objective of {side}", glyph="⚑")
    return marks


def _section_lines(world: World) -> tuple[Line, ...]:
    """The section borders (B-BOARD-1) as vertical lines: a border at half-hex column ``x``
    runs through the centres of the hexes it cuts."""
    rules = world.pack.rules
    bottom = 1.5 * (rules.rows - 1) + 1.0
    return tuple(
        Line(points=((SQRT3 / 2 * x, -1.0), (SQRT3 / 2 * x, bottom)), kind="section")
        for x in rules.section_lines
    )


def cell_id(hex_: Point) -> str:
    """The id of a hex: ``hex:COLUMN,ROW``."""
    column, row = to_offset(hex_)
    return f"hex:{column},{row}"


@functools.lru_cache(maxsize=8)  # worlds are built once per pack and scenario
def _cells(world: World) -> tuple[Cell, ...]:
    bottom = world.scenario.sides[0]
    cells = []
    for point in sorted(world.board.hexes, key=lambda p: (p[1], to_offset(p)[0])):
        hex_ = Hex(*point)
        x, y = hex_centre(hex_)
        column, row = to_offset(point)
        markers = [f"section:{s}" for s in world.board.sections(point, bottom)]
        markers += [
            f"objective:{side}" for side, hexes in world.objectives.items() if point in hexes
        ]
        if point in world.lore_hexes:
            markers.append("lore")
        cells.append(
            Cell(
                id=cell_id(point),
                x=round(x, 4),
                y=round(y, 4),
                outline=hex_outline(hex_),
                hex=point,
                terrain=world.terrain_at(point).id,
                label=f"{column},{row}",
                neighbours=tuple(cell_id(n) for n in world.board.neighbours(point)),
                markers=tuple(markers),
            )
        )
    return tuple(cells)


class BattleLoreBoards:
    """The board-geometry hook: the hex board and its units, from a seat view."""

    def geometry(self, view: Any) -> Geometry:
        """The board of ``view`` (a :class:`SeatView`)."""
        assert isinstance(view, SeatView)
        world = world_in_play(view.pack, view.scenario)
        pieces = tuple(
            Piece(
                id=unit.id,
                cell=cell_id(unit.hex),
                owner=unit.side,
                kind=unit.type,
                count=unit.figures,
                label=f"{unit.side}'s {world.type_of(unit).name}, {unit.figures} figures",
                glyph=short_name(world.type_of(unit).name.split(" (")[0].split()[-1].title()),
                marks=(f"banner:{world.type_of(unit).banner}",),
            )
            for unit in view.units
        )
        notes = [f"turn {view.turn}: {view.active} to play"]
        if view.card:
            card = world.pack.cards.get(view.card)
            notes.append(f"card: {card.name if card is not None else view.card}")
        notes += [f"{s.seat}: {s.medals} of {world.scenario.medals} medals" for s in view.sides]
        sides = tuple(s.seat for s in view.sides)
        board = Board(
            id="battlefield",
            title=world.scenario.name,
            cells=_cells(world),
            pieces=pieces,
            palette=PALETTE,
            notes=tuple(notes),
            terrains=TERRAINS,
            marks=_marks(sides),
            lines=_section_lines(world),
        )
        return Geometry(seats=tuple(s.seat for s in view.sides), boards=(board,), colours=COLOURS)

    def targets(self, view: Any, command: Command) -> Targets:
        """What ``command`` acts on: the unit selected, and the hex or unit clicked; the
        card of the hand it plays."""
        found = self._on_board(view, command)
        card = card_of(command)
        return found if card is None else msgspec.structs.replace(found, card=card)

    def _on_board(self, view: Any, command: Command) -> Targets:
        assert isinstance(view, SeatView)
        combat = view.combat
        match command:
            case m.OrderUnit(unit=unit):
                return Targets(pieces=(unit,))
            case m.MoveUnit(unit=unit_id, to=to):
                state = determinise(view, None, 0)
                mover = state.unit(unit_id)
                if mover is None:
                    return Targets(pieces=(unit_id,), cell=cell_id(to))
                path = (
                    world_in_play(view.pack, view.scenario)
                    .destinations(state, mover)
                    .get(to, (to,))
                )
                return Targets(
                    pieces=(unit_id,),
                    cell=cell_id(to),
                    path=tuple(cell_id(h) for h in (mover.hex, *path)),
                )
            case m.BattleUnit(unit=unit, target=target):
                return Targets(pieces=(unit,), piece=target)
            case m.Retreat(to=to) if combat is not None:
                return Targets(pieces=(combat.defender,), cell=cell_id(to))
            case m.Pursue(to=to) if combat is not None:
                return Targets(pieces=(combat.attacker,), cell=cell_id(to))
            case m.TakeGround() if combat is not None:
                return Targets(pieces=(combat.attacker,), cell=cell_id(combat.origin))
            case m.BonusBattle(target=target) if combat is not None:
                return Targets(pieces=(combat.attacker,), piece=target)
            case m.BattleBack() if combat is not None:
                return Targets(pieces=(combat.defender,), piece=combat.attacker)
            case m.PlayLore(unit=unit, to=to) if unit:
                return Targets(pieces=(unit,), cell=cell_id(to) if to is not None else None)
        return Targets()


BOARDS = BattleLoreBoards()
"""The hook instance the registry record holds."""


def board_svg(view: Any) -> str:
    """A seat view's board as SVG (``nataterra_core.boards.svg``)."""
    return geometry_svg(BOARDS.geometry(view))
