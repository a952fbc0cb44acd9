"""Kaladan's board for clients (the registry's board-geometry hook, ``kernel.geometry``).

From a seat view — never the state — :class:`KaladanBoards` builds the hex map: every tile
with its axial hex, terrain, castle (its home seat, ``castle`` and ``upgraded`` markers) and
neighbours, and one piece per kind of unit on a tile. Ids: a tile is its id (``"C1"``); a
stack of units ``"unit:OWNER/UNIT@TILE"`` (``UNIT`` with ``+`` when upgraded).
"""

from __future__ import annotations

from typing import Any

from nataterra_core.boards.hexgrid import hex_centre, hex_outline
from nataterra_core.boards.svg import geometry_svg
from nataterra_core.kernel import Command
from nataterra_core.kernel.geometry import Board, Cell, Geometry, Mark, Piece, Targets

from . import messages as m
from .board import board_for
from .content import load_pack
from .presenter import unit_name
from .state import base_of, is_upgraded
from .views import SeatView

__all__ = ["SEAT_COLOURS", "TERRAIN_COLOURS", "KaladanBoards", "board_svg", "stack_piece"]

TERRAIN_COLOURS = {"plain": "#e6dfa8", "mountain": "#a6a6a6", "forest": "#7fb77e"}
"""Fills of the terrains."""

SEAT_COLOURS = {"red": "#c0392b", "blue": "#2471a3", "green": "#1e8449", "yellow": "#d4ac0d"}

TERRAINS = {"plain": "plain", "mountain": "mountain", "forest": "forest"}
MARKS = {
    "castle": Mark(words="castle", glyph="♜"),
    "upgraded castle": Mark(words="upgraded castle", glyph="★"),
    "upgraded": Mark(words="upgraded unit", glyph="★"),
}
GLYPHS = {"swordsman": "Sword", "shieldbearer": "Shield", "siege_master": "Siege"}
"""Token names where a unit's title is too long for a token."""


def stack_piece(owner: str, unit: str, tile: str) -> str:
    """The piece id of ``owner``'s ``unit`` kind on ``tile``."""
    return f"unit:{owner}/{unit}@{tile}"


class KaladanBoards:
    """The board-geometry hook of Kaladan."""

    def geometry(self, view: Any) -> Geometry:
        """The map of a Kaladan seat view, with every army on it."""
        if not isinstance(view, SeatView):
            raise TypeError(f"not a Kaladan view: {type(view).__name__}")
        pack = load_pack.in_play(view.pack)
        board = board_for(pack, view.map_id)
        cells = []
        for tile in board.tiles:
            hex_ = board.hexes[tile]
            x, y = hex_centre(hex_)
            markers: tuple[str, ...] = ()
            if tile in board.castle_of:
                upgraded = tile in view.castle_upgrades
                markers = ("castle", "upgraded castle") if upgraded else ("castle",)
            army = view.board.get(tile)
            cells.append(
                Cell(
                    id=tile,
                    x=x,
                    y=y,
                    outline=hex_outline(hex_),
                    hex=(hex_.q, hex_.r),
                    terrain=board.terrain[tile],
                    label=tile,
                    neighbours=board.neighbours[tile],
                    owner=board.castle_of.get(tile),
                    holder=army.owner if army is not None and army.units else None,
                    markers=markers,
                )
            )
        pieces = []
        for tile, army in sorted(view.board.items()):
            for unit in sorted(set(army.units)):
                count = army.units.count(unit)
                pieces.append(
                    Piece(
                        id=stack_piece(army.owner, unit, tile),
                        cell=tile,
                        owner=army.owner,
                        kind=unit,
                        count=count,
                        label=f"{count} {unit_name(unit)}",
                        glyph=_glyph(pack, unit),
                        marks=("upgraded",) if is_upgraded(unit) else (),
                    )
                )
        notes = (f"turn {view.turn}: {view.active}, {view.phase} phase",)
        main = Board(
            id="map",
            title="Kaladan",
            cells=tuple(cells),
            pieces=tuple(pieces),
            palette=TERRAIN_COLOURS,
            notes=notes,
            terrains=TERRAINS,
            marks=MARKS,
        )
        colours = {s: SEAT_COLOURS[s] for s in view.seats if s in SEAT_COLOURS}
        return Geometry(seats=view.seats, boards=(main,), colours=colours)

    def targets(self, view: Any, command: Command) -> Targets:
        """Where a legal command acts: the stacks it moves or fights with, the tile it aims at."""
        owner = view.seat or view.active

        def stacks(tile: str, units: tuple[str, ...]) -> tuple[str, ...]:
            army = view.board.get(tile)
            who = army.owner if army is not None else owner
            return tuple(stack_piece(who, u, tile) for u in sorted(set(units)))

        if isinstance(command, m.Move):
            return Targets(
                pieces=stacks(command.source, command.units),
                cell=command.target,
                path=(command.source, command.target),
            )
        if isinstance(command, m.Fight):
            return Targets(pieces=stacks(command.source, command.units), cell=command.target)
        if isinstance(command, m.Swap):
            return Targets(pieces=stacks(command.first, command.give), cell=command.second)
        if isinstance(command, (m.Place, m.UpgradeCastle)):
            return Targets(cell=command.tile)
        if isinstance(command, m.Recruit):
            return Targets(cell=command.castle)
        if isinstance(command, (m.Upgrade, m.FreeUpgrade, m.LoseUnit)):
            return Targets(piece=stacks(command.tile, (command.unit,))[0])
        if isinstance(command, m.PlayMagic) and command.tile:
            card = f"magic:{command.card}"
            if command.unit:
                return Targets(piece=stacks(command.tile, (command.unit,))[0], card=card)
            return Targets(cell=command.tile, card=card)
        if isinstance(command, (m.PlayMagic, m.ExchangeMagic)):
            return Targets(card=f"magic:{command.card}")
        if isinstance(command, m.MoveIn) and view.combat is not None:
            combat = view.combat
            return Targets(
                pieces=stacks(combat.source, command.units),
                cell=combat.target,
                path=(combat.source, combat.target),
            )
        return Targets()


def _glyph(pack: Any, unit: str) -> str:
    """A unit's name on its token (``Archer``; the title of a long one shortened)."""
    base = base_of(unit)
    kind = pack.units.get(base)
    return GLYPHS.get(base) or (kind.title if kind is not None else base.title())


def board_svg(view: Any) -> str:
    """The map of a Kaladan seat view as SVG (the registry's ``svg`` hook)."""
    return geometry_svg(KaladanBoards().geometry(view))
