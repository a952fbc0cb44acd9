"""What a page draws beside the rules' view: the boards as SVG, the seat panels, and the
places the other seats' last moves touched.

The boards are drawn by the project's one renderer (:mod:`nataterra_core.boards.svg`, which
``nataterra show --svg`` uses too), so the browser shows the same picture; the panels come
from the system's panels hook; both from the seat view alone. The last moves are read from
the log as the seat sees it (each record cut by its declared visibility), so a hidden
command shows nothing the seat may not know: one whose fields are cut does not convert and
is passed over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from nataterra_core.boards.svg import boards_svg
from nataterra_core.kernel import Command
from nataterra_core.kernel.geometry import Geometry
from nataterra_core.kernel.panels import Panels
from nataterra_core.kernel.registry import RuleSystem
from nataterra_core.kernel.visibility import record_view

from .checks import command_union

__all__ = ["RECENT_RECORDS", "board_pictures", "panels_of", "recent_places"]

RECENT_RECORDS = 24
"""Records looked back through for the other seats' last moves (since the seat's own)."""


def board_pictures(geometry: Geometry | None) -> tuple[str, ...] | None:
    """Each board as an SVG document (``None`` for a system without boards)."""
    return None if geometry is None else boards_svg(geometry)


def panels_of(record: RuleSystem, view: Any) -> Panels | None:
    """The seat panels of ``view`` (``None`` for a system without the hook)."""
    hook = record.hooks.panels
    return None if hook is None else hook(view)


def recent_places(
    record: RuleSystem,
    decider: Any,
    lines: Sequence[bytes],
    seat: str | None,
    view: Any,
    geometry: Geometry | None,
) -> tuple[str, ...]:
    """The ids of the cells and pieces on ``geometry`` that the commands of other seats since
    ``seat``'s own last command acted on (for a spectator: since the last seat changed)."""
    boards = record.hooks.board_geometry
    if boards is None or geometry is None:
        return ()
    drawn = {c.id for b in geometry.boards for c in b.cells}
    drawn |= {p.id for b in geometry.boards for p in b.pieces}
    command_type = command_union(tuple(decider.command_types))
    found: list[str] = []
    last_mover: str | None = None
    for line in reversed(lines[-RECENT_RECORDS:]):
        seen = record_view(line, seat, decider)
        if seen.get("kind") != "command":
            continue
        mover = seen.get("seat")
        if mover == seat and seat is not None:
            break
        if seat is None and last_mover is not None and mover != last_mover:
            break
        last_mover = mover
        found += _places(boards, view, seen.get("command"), command_type)
    return tuple(dict.fromkeys(place for place in found if place in drawn))


def _places(boards: Any, view: Any, data: Any, command_type: Any) -> list[str]:
    try:
        command: Command = msgspec.convert(data, command_type)
        targets = boards.targets(view, command)
    except Exception:  # a cut (hidden) command, or one the board no longer shows
        return []
    places = [*targets.pieces, *targets.path]
    places += [place for place in (targets.cell, targets.piece) if place is not None]
    return places
