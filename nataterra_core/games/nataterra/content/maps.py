"""Content-pack schema, part 3: map tiles, their placements and maps (see :mod:`.schema`)."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from .units import (
    Biome,
    Resource,
    Side,
    TerrainSide,
    TileKind,
)


@attrs.frozen
class TileZone:
    """A zone printed on a tile: key, axial offset inside the tile, biome, resource if any."""

    key: str
    at: tuple[int, int]
    biome: Biome
    resource: Resource | None = None


@attrs.frozen
class MapTile:
    """A map tile (``kind="map"``, numbered), the shared tile 0 (``"shared"``, one entry per side,
    strategy marker on ``centre``) or a civilisation's player tile (``"player"``, with ``base``)."""

    id: str
    kind: TileKind
    zones: tuple[TileZone, ...]
    number: int | None = None
    side: Side | None = None
    civ: str | None = None
    base: str | None = None
    centre: str | None = None
    provisional: bool = False


@attrs.frozen
class TilePlacement:
    """A tile on a map: zones go to ``rotate(offset, rotation) + at`` (60° steps)."""

    tile: str
    at: tuple[int, int]
    rotation: int = 0


@attrs.frozen
class ModifierPlacement:
    """A terrain modifier token: on a placed zone (``zone``) or beyond the edge (``at``)."""

    side: TerrainSide
    zone: str | None = None
    at: tuple[int, int] | None = None


def rotate_offset(at: tuple[int, int], steps: int) -> tuple[int, int]:
    """Turn an axial offset ``steps`` times by 60°: ``(q, r) -> (-r, q + r)`` each step."""
    q, r = at
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


@attrs.frozen
class PlacedZone:
    """A tile's zone where a map puts it: id ``"<tile id>.<zone key>"`` and axial hex ``at``."""

    id: str
    tile: MapTile
    zone: TileZone
    at: tuple[int, int]


@attrs.frozen
class MapDef:
    """A map: which civilisations play it, the tile placements and terrain modifiers."""

    id: str
    title: str
    players: tuple[str, ...]
    tiles: tuple[TilePlacement, ...]
    title_de: str = ""
    modifiers: tuple[ModifierPlacement, ...] = ()
    provisional: bool = False

    def placed_zones(self, tiles: Mapping[str, MapTile]) -> tuple[PlacedZone, ...]:
        """Every zone of the placed tiles, in placement then zone order.

        ``tiles`` must hold every tile the map places (``KeyError`` otherwise).
        """
        placed = []
        for placement in self.tiles:
            tile = tiles[placement.tile]
            for zone in tile.zones:
                q, r = rotate_offset(zone.at, placement.rotation)
                at = (q + placement.at[0], r + placement.at[1])
                placed.append(PlacedZone(f"{tile.id}.{zone.key}", tile, zone, at))
        return tuple(placed)
