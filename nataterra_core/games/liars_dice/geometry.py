"""Liar's Dice for clients (the registry's board-geometry hook, ``kernel.geometry``).

From a seat view — never the state — :class:`LiarsTable` draws the table: one cell per seat
(its cup), placed round a circle in table order. Under the viewer's own cup the dice are
pieces grouped by face (``"die:SEAT/FACE"``, kind the face, count how many show it); every
other cup is one piece ``"cup:SEAT"`` of kind ``cup`` counting its hidden dice (L-HID-1).
After a call a second board, ``last``, shows every cup it lifted with its faces. A bid has
no place on the table (it is offered as a sentence); a call aims at the bidder's cup.
"""

from __future__ import annotations

import math
from typing import Any

from nataterra_core.boards.svg import geometry_svg
from nataterra_core.kernel import Command
from nataterra_core.kernel.geometry import Board, Cell, Geometry, Piece, Targets
from nataterra_core.kernel.panels import Panels, SeatPanel, Stat

from . import messages as m
from .presenter import bid_words
from .views import SeatView

__all__ = ["SEAT_COLOURS", "LiarsTable", "panels", "table_svg"]

SEAT_COLOURS = {
    "red": "#c0392b",
    "blue": "#2471a3",
    "green": "#1e8449",
    "yellow": "#d4ac0d",
    "purple": "#7d3c98",
    "orange": "#ca6f1e",
}
_PALETTE = {"cup": "#d7c9a7", "out": "#eeeeee", "to-act": "#f5e6b3"}
_HALF_W, _HALF_H = 1.0, 0.7
_FACES = "⚀⚁⚂⚃⚄⚅"
"""The die faces drawn on the dice tokens (one to six)."""
_TERRAINS = {"cup": "a cup", "out": "out of the game", "to-act": "to bid or call now"}


def _place(index: int, count: int) -> tuple[float, float]:
    """Where the ``index``-th of ``count`` cups stands, round the table from the top."""
    radius = max(1.6, 0.75 * count)
    angle = 2 * math.pi * index / count - math.pi / 2
    return round(radius * math.cos(angle), 4), round(radius * math.sin(angle), 4)


def _cell(cell_id: str, seat: str, at: tuple[float, float], terrain: str, label: str) -> Cell:
    x, y = at
    outline = (
        (x - _HALF_W, y - _HALF_H),
        (x + _HALF_W, y - _HALF_H),
        (x + _HALF_W, y + _HALF_H),
        (x - _HALF_W, y + _HALF_H),
    )
    return Cell(id=cell_id, x=x, y=y, outline=outline, terrain=terrain, label=label, owner=seat)


def _faces(prefix: str, seat: str, cell: str, faces: tuple[int, ...]) -> list[Piece]:
    return [
        Piece(
            id=f"{prefix}{seat}/{face}",
            cell=cell,
            owner=seat,
            kind=str(face),
            count=faces.count(face),
            label=f"{faces.count(face)} {'die' if faces.count(face) == 1 else 'dice'} show {face}",
            glyph=_FACES[face - 1] if 1 <= face <= len(_FACES) else str(face),
        )
        for face in sorted(set(faces))
    ]


class LiarsTable:
    """The board-geometry hook of Liar's Dice."""

    def geometry(self, view: Any) -> Geometry:
        """The table of a Liar's Dice seat view, and the last call's lifted cups."""
        if not isinstance(view, SeatView):
            raise TypeError(f"not a Liar's Dice view: {type(view).__name__}")
        n = len(view.seats)
        cells, pieces = [], []
        for index, cup in enumerate(view.cups):
            terrain = "out" if cup.count == 0 else "to-act" if cup.seat == view.active else "cup"
            cells.append(_cell(cup.seat, cup.seat, _place(index, n), terrain, cup.seat))
            if cup.faces is not None:
                pieces += _faces("die:", cup.seat, cup.seat, cup.faces)
            elif cup.count:
                pieces.append(
                    Piece(
                        id=f"cup:{cup.seat}",
                        cell=cup.seat,
                        owner=cup.seat,
                        kind="cup",
                        count=cup.count,
                        label=f"{cup.count} hidden {'die' if cup.count == 1 else 'dice'}",
                        glyph="hidden",
                    )
                )
        notes = [f"round {view.round}, {view.in_play()} dice in play"]
        if view.bids:
            bid = view.bids[-1]
            notes.append(f"bid: {bid.seat} {bid_words(bid.quantity, bid.face)}")
        table = Board(
            id="table",
            title="Liar's Dice",
            cells=tuple(cells),
            pieces=tuple(pieces),
            palette=_PALETTE,
            notes=tuple(notes),
            terrains=_TERRAINS,
        )
        boards = [table]
        last = view.last
        if last is not None:
            cells, pieces = [], []
            for index, seat in enumerate(view.seats):
                if seat in last.cups:
                    cell_id = f"last:{seat}"
                    cells.append(_cell(cell_id, seat, _place(index, n), "cup", seat))
                    pieces += _faces("last:", seat, cell_id, last.cups[seat])
            said = bid_words(last.bid.quantity, last.bid.face)
            notes = [f"{last.caller} called {last.call.replace('_', ' ')} on {said}"]
            notes.append(f"{last.count} counted; lost a die: {', '.join(last.losers)}")
            boards.append(
                Board(
                    id="last",
                    title="The last call",
                    cells=tuple(cells),
                    pieces=tuple(pieces),
                    palette=_PALETTE,
                    notes=tuple(notes),
                    terrains=_TERRAINS,
                )
            )
        colours = {s: SEAT_COLOURS[s] for s in view.seats if s in SEAT_COLOURS}
        return Geometry(seats=view.seats, boards=tuple(boards), colours=colours)

    def targets(self, view: Any, command: Command) -> Targets:
        """A call aims at the bidder's cup; a bid is offered as a sentence."""
        if isinstance(command, (m.CallLiar, m.CallSpotOn)) and view.bids:
            return Targets(cell=view.bids[-1].seat)
        return Targets()


def panels(view: Any) -> Panels:
    """Each seat's panel (the registry's panels hook, ``kernel.panels``): the dice left in
    its cup (L-SET-2), out once it has none; the stage: the round and who is to speak."""
    if not isinstance(view, SeatView):
        raise TypeError(f"not a Liar's Dice view: {type(view).__name__}")
    seats = tuple(
        SeatPanel(
            seat=cup.seat,
            score=(Stat(label="dice", value=cup.count),),
            out=cup.count == 0,
        )
        for cup in view.cups
    )
    if view.winner is not None:
        return Panels(seats=seats, stage=f"the game is over after round {view.round}")
    asked = f", {view.active} to bid or call" if view.active else ""
    return Panels(seats=seats, stage=f"round {view.round}{asked}")


def table_svg(view: Any) -> str:
    """The table of a Liar's Dice seat view as SVG (the registry's ``svg`` hook)."""
    return geometry_svg(LiarsTable().geometry(view))
