"""The hex map (rules §2a): zones, adjacency and distances.

Zones are hexes in axial coordinates ``(q, r)``; the six neighbours of a hex differ by the
:data:`DIRECTIONS`, and two zones are adjacent when their hexes share an edge, across tiles too
(N-MAP-1). A :class:`GameMap` is built once from a map of the content pack (tile placements and
terrain modifiers, :func:`build_map`) and then only read.

Zone ids are ``"<tile id>.<zone key>"`` (``"t1.z4"``, ``"velathi.z1"``); a terrain modifier that
extends the map beyond its edge (N-MAP-3) is zone ``"m<n>"``, ``n`` its 1-based position in the
map's modifier list. Ids are plain strings, so their lexicographic order (used to break ties
between paths, N-MOV-1) is Python's string order.

The geometry (:class:`Hex`, :data:`DIRECTIONS`, :func:`hex_distance`, re-exported here) and the
breadth-first searches come from the shared toolkit :mod:`nataterra_core.boards.hexgrid`; this
module adds what a zone is in Nataterra. :data:`DIRECTIONS` turns the way map tiles rotate
(:func:`~nataterra_core.games.nataterra.content.schema.rotate_offset`).

A modifier token covers the printed zone: the zone takes the token's biome (mountain or lake)
and loses its printed resource; ``printed_biome`` and ``printed_resource`` keep what the tile
shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

import attrs

from nataterra_core.boards import hexgrid
from nataterra_core.boards.hexgrid import DIRECTIONS, Hex, hex_distance
from nataterra_core.games.nataterra.content.schema import Biome, ContentPack, Resource, TerrainSide

from .map_layout import structured_map_def

__all__ = ["DIRECTIONS", "GameMap", "Hex", "Zone", "build_map", "hex_distance"]


@attrs.frozen
class Zone:
    """One zone of a built map.

    ``biome`` and ``resource`` are the zone's values in play; ``modifier`` names the terrain
    token on it, if any. ``base_owner`` is the civilisation whose base this is (N-MAP-2).
    ``tile`` is ``None`` for a modifier placed beyond the map's edge.
    """

    id: str
    hex: Hex
    tile: str | None
    biome: Biome
    resource: Resource | None
    printed_biome: Biome
    printed_resource: Resource | None
    base_owner: str | None = None
    modifier: TerrainSide | None = None

    @classmethod
    def plain(
        cls,
        zone_id: str,
        at: Hex,
        biome: Biome,
        *,
        resource: Resource | None = None,
        base_owner: str | None = None,
        modifier: TerrainSide | None = None,
    ) -> Zone:
        """A zone not printed on a tile (a modifier beyond the edge, a hand-made map): what
        it shows is what it is."""
        return cls(
            id=zone_id,
            hex=at,
            tile=None,
            biome=biome,
            resource=resource,
            printed_biome=biome,
            printed_resource=resource,
            base_owner=base_owner,
            modifier=modifier,
        )


class GameMap:
    """A built map: zones by id, adjacency computed from their hexes, and search helpers.

    Attributes: ``map_id``; ``zones`` (id -> :class:`Zone`) and ``zone_ids``, sorted by id;
    ``bases`` (civilisation -> base zone id); ``strategy_zone``, the centre of shared tile 0
    when the map uses it (N-SETUP-8), else ``None``. Iteration orders (``zones``,
    ``neighbours``) are sorted by zone id, so everything derived from them is deterministic.
    """

    __slots__ = ("_adjacent", "_by_hex", "bases", "map_id", "strategy_zone", "zone_ids", "zones")

    def __init__(
        self, map_id: str, zones: Iterable[Zone], strategy_zone: str | None = None
    ) -> None:
        """Index ``zones`` and compute adjacency. ``ValueError`` on a duplicate id or hex."""
        ordered = sorted(zones, key=lambda z: z.id)
        by_id = {z.id: z for z in ordered}
        by_hex = {z.hex: z.id for z in ordered}
        if len(by_id) != len(ordered) or len(by_hex) != len(ordered):
            msg = f"map {map_id!r}: zone ids and hexes must be unique"
            raise ValueError(msg)
        if strategy_zone is not None and strategy_zone not in by_id:
            msg = f"map {map_id!r}: strategy zone {strategy_zone!r} is not on the map"
            raise ValueError(msg)
        self.map_id = map_id
        self.zones: Mapping[str, Zone] = MappingProxyType(by_id)
        self.zone_ids: tuple[str, ...] = tuple(by_id)
        self.bases: Mapping[str, str] = MappingProxyType(
            {z.base_owner: z.id for z in ordered if z.base_owner is not None}
        )
        self.strategy_zone = strategy_zone
        self._by_hex = by_hex
        self._adjacent: dict[str, tuple[str, ...]] = {
            z.id: tuple(sorted(by_hex[h] for h in z.hex.neighbours() if h in by_hex))
            for z in ordered
        }

    def __repr__(self) -> str:
        return f"<GameMap {self.map_id!r} with {len(self.zone_ids)} zones>"

    def zone_at(self, hex_: Hex) -> Zone | None:
        """The zone on ``hex_``, or ``None`` off the map."""
        zone_id = self._by_hex.get(hex_)
        return None if zone_id is None else self.zones[zone_id]

    def neighbours(self, zone_id: str) -> tuple[str, ...]:
        """Ids of the zones adjacent to ``zone_id``, sorted."""
        return self._adjacent[zone_id]

    def adjacent(self, a: str, b: str) -> bool:
        """Whether zones ``a`` and ``b`` share an edge."""
        return b in self._adjacent[a]

    def distance(self, a: str, b: str) -> int:
        """Hex distance between two zones, ignoring terrain and the map's shape."""
        return hex_distance(self.zones[a].hex, self.zones[b].hex)

    def base_of(self, civ: str) -> str:
        """The base zone of ``civ``; ``KeyError`` if it has none on this map."""
        return self.bases[civ]

    def steps_from(
        self, start: str, can_enter: Callable[[Zone], bool] | None = None
    ) -> dict[str, int]:
        """Breadth-first steps from ``start`` to every zone reachable through enterable zones.

        ``can_enter(zone)`` decides whether a path may enter ``zone`` (``start`` itself is never
        asked); by default every zone is enterable.
        """
        if can_enter is None:
            return hexgrid.steps_from(start, self._adjacent.__getitem__)
        zones = self.zones
        return hexgrid.steps_from(start, self._adjacent.__getitem__, lambda z: can_enter(zones[z]))

    def shortest_path(
        self, start: str, goal: str, can_enter: Callable[[Zone], bool] | None = None
    ) -> tuple[str, ...] | None:
        """The canonical shortest path from ``start`` to ``goal``, both included, or ``None``.

        Among the shortest paths through enterable zones it is the lexicographically smallest
        sequence of zone ids (N-MOV-1's tie-break).
        """
        if can_enter is None:
            return hexgrid.shortest_path(start, goal, self._adjacent.__getitem__)
        zones = self.zones
        return hexgrid.shortest_path(
            start, goal, self._adjacent.__getitem__, lambda z: can_enter(zones[z])
        )

    def is_connected(self) -> bool:
        """Whether every zone can be reached from every other one."""
        return not self.zone_ids or len(self.steps_from(self.zone_ids[0])) == len(self.zone_ids)


def build_map(pack: ContentPack, map_id: str) -> GameMap:
    """Build the map ``map_id`` of ``pack``: placed tiles, bases, terrain modifiers (N-MAP-1..3).

    The pack loader has already checked the map (tiles exist, no overlaps, modifiers land on a
    zone or an empty hex), so this only assembles it. A structured map's id is its layout
    (:mod:`~nataterra_core.games.nataterra.rules.map_layout`, N-MAP-4), checked as it was placed.
    """
    map_def = (
        pack.maps[map_id] if map_id in pack.maps else structured_map_def(map_id, pack.map_tiles)
    )
    covers = {m.zone: m.side for m in map_def.modifiers if m.zone is not None}
    zones: list[Zone] = []
    strategy_zone = None
    for placed in map_def.placed_zones(pack.map_tiles):
        tile, printed = placed.tile, placed.zone
        modifier = covers.get(placed.id)
        base_owner = tile.civ if tile.kind == "player" and printed.key == tile.base else None
        if tile.kind == "shared" and printed.key == tile.centre:
            strategy_zone = placed.id
        zones.append(
            Zone(
                id=placed.id,
                hex=Hex(*placed.at),
                tile=tile.id,
                biome=modifier or printed.biome,
                resource=None if modifier else printed.resource,
                printed_biome=printed.biome,
                printed_resource=printed.resource,
                base_owner=base_owner,
                modifier=modifier,
            )
        )
    for number, token in enumerate(map_def.modifiers, 1):
        if token.at is not None:
            zones.append(Zone.plain(f"m{number}", Hex(*token.at), token.side, modifier=token.side))
    return GameMap(map_id, zones, strategy_zone)
