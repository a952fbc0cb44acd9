"""What the rules read but never change: the content pack and the game's map.

A :class:`Context` is built once per game (the map depends on the header's options) and
passed to every rules function next to the state, so the state carries only what changes.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.games.nataterra.content.schema import (
    AbilityId,
    ContentPack,
    GroupSide,
    UnitType,
)

from ..state import PlayerState, UnitStack
from .hexmap import GameMap

__all__ = ["Context"]


class Context:
    """The pack and map of one game, with the lookups the rules need often."""

    __slots__ = ("biome_decks", "map", "openings", "pack", "reach", "workers")

    def __init__(self, pack: ContentPack, game_map: GameMap) -> None:
        self.pack = pack
        self.map = game_map
        self.workers: frozenset[str] = frozenset(
            unit.id for unit in pack.units.values() if unit.role == "worker"
        )
        # The movement rules' memo of a pure function (destinations and move lists by what
        # they depend on, see ``movement.legal_moves``): never read as state.
        self.reach: dict[object, Any] = {}
        # Each civilisation's player state and workers before the start, and the biome decks
        # in pack order: the same for every game on this map, so ``setup.initial_state``
        # builds them on first use and every game's first state shares them (never changed).
        self.openings: dict[str, tuple[PlayerState, UnitStack]] = {}
        self.biome_decks: dict[str, tuple[str, ...]] = {}

    def unit(self, unit_id: str) -> UnitType:
        """The stat line of ``unit_id``."""
        return self.pack.units[unit_id]

    def group_side(self, player: PlayerState, unit_id: str) -> tuple[GroupSide, bool]:
        """The group-card side ``player`` uses for ``unit_id`` and whether a tech chose it.

        No tech for the type: side A without its tech abilities; tech A: side A; tech B:
        side B (N-DEV-5).
        """
        chosen = player.sides.get(unit_id)
        unit = self.pack.units[unit_id]
        return (unit.side(chosen or "a"), chosen is not None)

    def ability(self, player: PlayerState, unit_id: str, ability: AbilityId) -> int:
        """The level of ``ability`` that ``player``'s units of ``unit_id`` have (0 if none)."""
        side, with_tech = self.group_side(player, unit_id)
        return side.ability_level(ability, with_tech=with_tech)
