"""The movement phase's command and event (N-MOV-1). Their rules are in
``rules/movement.py`` (compiled in the compiled build, while message classes stay
interpreted: msgspec's ``frozen`` and ``tag`` must hold, see ``tests/test_compiled_build.py``)."""

from __future__ import annotations

from nataterra_core.kernel import Command, Event
from nataterra_core.kernel.visibility import PUBLIC

__all__ = ["MoveUnits", "UnitsMoved"]


class MoveUnits(Command, frozen=True, tag="move_units.v1"):
    """Move ``count`` unmoved ``unit`` tokens from ``origin`` along ``path`` (start excluded)."""

    visibility = PUBLIC

    unit: str
    origin: str
    count: int
    path: tuple[str, ...]


class UnitsMoved(Event, frozen=True, tag="units_moved.v1"):
    """``count`` of ``seat``'s ``unit`` went from ``origin`` along ``path``."""

    visibility = PUBLIC

    seat: str
    unit: str
    origin: str
    count: int
    path: tuple[str, ...]


COMMANDS: tuple[type[Command], ...] = (MoveUnits,)
EVENTS: tuple[type[Event], ...] = (UnitsMoved,)
