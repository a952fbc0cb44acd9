"""Map structuring's geometry (N-MAP-4): where a tile or a terrain modifier may go.

Pure functions over the tiles placed so far and the map they make; the rules that use them
(whose turn, what is legal, what a placement does) are in :mod:`.structuring`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from nataterra_core.games.nataterra.content.schema import ContentPack, MapTile, rotate_offset

from .hexmap import GameMap, Hex
from .map_layout import Structuring

__all__ = [
    "BARRIERS",
    "MIN_BARRIER_DISTANCE",
    "barriers",
    "cells",
    "edge",
    "fault",
    "modifier_fault",
    "near_barrier",
    "placements",
    "taken",
]

MIN_BARRIER_DISTANCE = 2
"""A modifier lies at least this many zones from every mountain and lake (N-MAP-4)."""

BARRIERS = ("mountain", "lake")
"""The biomes a terrain modifier keeps its distance from."""


def cells(tile: MapTile, at: tuple[int, int], rotation: int) -> tuple[Hex, ...]:
    """The hexes ``tile`` covers when placed at ``at`` with ``rotation`` sixth-turns."""
    return tuple(
        Hex(q + at[0], r + at[1])
        for q, r in (rotate_offset(zone.at, rotation) for zone in tile.zones)
    )


def taken(pack: ContentPack, structuring: Structuring) -> dict[Hex, str]:
    """Every hex covered by a placed tile, with the kind of its tile."""
    taken: dict[Hex, str] = {}
    for placed in structuring.tiles:
        tile = pack.map_tiles[placed.tile]
        for cell in cells(tile, placed.at, placed.rotation):
            taken[cell] = tile.kind
    return taken


def placements(
    tile: MapTile, taken: Mapping[Hex, str], player: bool
) -> Iterator[tuple[tuple[int, int], int]]:
    """Every (at, rotation) putting ``tile`` next to the placed tiles without overlap; for
    a player tile, touching a map tile and neither tile 0 nor a player tile."""
    border = sorted({n for h in taken for n in h.neighbours() if n not in taken})
    for rotation in range(6):
        offsets = [rotate_offset(zone.at, rotation) for zone in tile.zones]
        anchors = sorted({(b.q - q, b.r - r) for b in border for q, r in offsets})
        for at in anchors:
            if fault(tile, taken, at, rotation, player) is None:
                yield at, rotation


def fault(
    tile: MapTile, taken: Mapping[Hex, str], at: tuple[int, int], rotation: int, player: bool
) -> str | None:
    """Why ``tile`` may not go at (at, rotation), or ``None`` if it may."""
    if not 0 <= rotation < 6:
        return f"rotation {rotation} is not 0..5"
    covered = cells(tile, at, rotation)
    if any(cell in taken for cell in covered):
        return "it would overlap a placed tile"
    touched = {taken[n] for cell in covered for n in cell.neighbours() if n in taken}
    if not touched:
        return "it must be attached to the tiles already placed"
    if player:
        if "map" not in touched:
            return "a player tile must touch a placed map tile"
        if "shared" in touched:
            return "a player tile may not touch tile 0"
        if "player" in touched:
            return "a player tile may not touch another player tile"
    return None


def barriers(game_map: GameMap) -> tuple[Hex, ...]:
    """The hexes of the map's mountains and lakes."""
    return tuple(z.hex for z in game_map.zones.values() if z.biome in BARRIERS)


def near_barrier(at: Hex, barriers: tuple[Hex, ...]) -> bool:
    """Whether ``at`` is closer than :data:`MIN_BARRIER_DISTANCE` to a barrier."""
    return any(at.distance(b) < MIN_BARRIER_DISTANCE for b in barriers)


def modifier_fault(game_map: GameMap, zone: str | None, at: tuple[int, int] | None) -> str | None:
    """Why a modifier may not go on ``zone`` / at hex ``at``, or ``None`` if it may."""
    if (zone is None) == (at is None):
        return "a modifier goes on a zone or on an empty hex, exactly one"
    if zone is not None:
        placed = game_map.zones.get(zone)
        if placed is None:
            return f"zone {zone!r} is not on the map"
        if placed.base_owner is not None:
            return f"zone {zone!r} is a base"
        if zone == game_map.strategy_zone:
            return f"zone {zone!r} holds the strategy marker"
        cell = placed.hex
    else:
        assert at is not None
        cell = Hex(*at)
        if game_map.zone_at(cell) is not None:
            return f"hex {at} holds a zone: place the modifier on the zone"
        if not any(game_map.zone_at(n) is not None for n in cell.neighbours()):
            return f"hex {at} is not at the edge of the map"
    if near_barrier(cell, barriers(game_map)):
        return "it must be at least two zones from every mountain and lake"
    return None


def edge(game_map: GameMap) -> list[Hex]:
    """The empty hexes next to the map, sorted."""
    cells = {z.hex for z in game_map.zones.values()}
    return sorted({n for c in cells for n in c.neighbours() if n not in cells})
