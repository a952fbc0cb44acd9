"""Every command and event of Nataterra and of its combat sandbox, by topic.

A command is a player's (or the system's) decision, an event what happened; both are
immutable msgspec structs with a stable tag (``move_units.v1``), so moving a class between
these modules never changes a log. The rules that decide and fold them are in ``rules/``.

Modules: :mod:`.setup` (the start, the opening tactic discards, starting from a position),
:mod:`.turns` (phases, turns, the game's end), :mod:`.movement`, :mod:`.development`
(gathering, recruiting, research, structures), :mod:`.tactics` (tactic cards outside
combat), :mod:`.victory` (victory conditions, cubes, oaths, bases destroyed, conquered and
retaken), :mod:`.structuring` (the structured map's set-up), :mod:`.scenarios` (the scenario
book's markers), :mod:`.combat` (a combat's commands and events, shared with the sandbox;
its events are in :mod:`.combat_opening` and :mod:`.combat_rounds`) and :mod:`.sandbox`
(the sandbox's opening command).

:data:`COMMANDS` and :data:`EVENTS` are Nataterra's unions, :data:`SANDBOX_COMMANDS` and
:data:`SANDBOX_EVENTS` the sandbox's.
"""

from __future__ import annotations

from nataterra_core.kernel import Command, Event

from . import (
    combat,
    development,
    movement,
    sandbox,
    scenarios,
    setup,
    structuring,
    tactics,
    turns,
    victory,
)

__all__ = ["COMMANDS", "EVENTS", "SANDBOX_COMMANDS", "SANDBOX_EVENTS"]

COMMANDS: tuple[type[Command], ...] = (
    *setup.COMMANDS,
    *scenarios.COMMANDS,
    *turns.COMMANDS,
    *movement.COMMANDS,
    combat.StartCombat,
    *combat.COMMANDS,
    *development.COMMANDS,
    *victory.COMMANDS,
    *structuring.COMMANDS,
)
"""Every Nataterra command."""

EVENTS: tuple[type[Event], ...] = (
    *setup.EVENTS,
    *turns.EVENTS,
    *movement.EVENTS,
    *development.EVENTS,
    combat.BiomeCardDrawn,
    *combat.EVENTS,
    *tactics.EVENTS,
    *victory.EVENTS,
    *structuring.EVENTS,
    *scenarios.EVENTS,
)
"""Every Nataterra event."""

SANDBOX_COMMANDS: tuple[type[Command], ...] = (*sandbox.COMMANDS, *combat.COMMANDS)
"""Every command of the combat sandbox: its opening and a combat's."""

SANDBOX_EVENTS: tuple[type[Event], ...] = combat.EVENTS
"""Every event of the combat sandbox: a combat's."""
