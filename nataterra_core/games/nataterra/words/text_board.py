"""The hex map as text: a staggered drawing of every zone, then one line per zone.

The drawing puts each zone's short name and what stands on it at its axial hex (pointy-topped
rows, each shifted half a cell), so the map's shape reads at a glance in any terminal; the
zone list below it gives every zone, empty ones too, with its biome, resource, base, units and
structure.

    >>> from nataterra_core.games.nataterra.rules.hexmap import GameMap, Hex, Zone
    >>> tiny = GameMap("tiny", [Zone.plain("a.z1", Hex(0, 0), "forest"),
    ...                         Zone.plain("a.z2", Hex(1, 0), "lake")])
    >>> print(map_drawing(tiny, {}, set()))
     a.z1    a.z2
     F       L
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..rules.hexmap import GameMap
from ..state import PlacedStructure, UnitStack
from .base import plural, possessive, structure_title, unit_title

__all__ = ["map_drawing", "short_zone", "zone_lines"]

CELL = 8
"""Characters per hex in the drawing (a row is shifted by half of it)."""


def short_zone(zone_id: str) -> str:
    """``velathi.z4`` -> ``vel.z4``: at most seven characters, still unambiguous on a map
    (tile ids differ in their first three letters)."""
    tile, _, key = zone_id.partition(".")
    return f"{tile[:3]}.{key}" if key else zone_id[:7]


def map_drawing(game_map: GameMap, occupants: Mapping[str, str], built: set[str]) -> str:
    """Each zone at its hex: its short name, then its biome's letter, who stands there
    (``occupants``: zone -> ``v3 b2``) and ``*`` for a structure (``built``)."""
    hexes = {zone_id: game_map.zones[zone_id].hex for zone_id in game_map.zone_ids}
    if not hexes:
        return ""
    left = min(2 * h.q + h.r for h in hexes.values())
    top = min(h.r for h in hexes.values())
    rows: dict[int, dict[int, tuple[str, str]]] = {}
    for zone_id, at in hexes.items():
        zone = game_map.zones[zone_id]
        column = (2 * at.q + at.r - left) * CELL // 2
        second = zone.biome[0].upper() + ("*" if zone_id in built else "")
        if zone_id in occupants:
            second += " " + occupants[zone_id]
        rows.setdefault(at.r - top, {})[column] = (short_zone(zone_id), second)
    lines: list[str] = []
    for r in range(max(rows) + 1):
        cells = rows.get(r, {})
        for part in (0, 1):
            line = ""
            for column in sorted(cells):
                text = cells[column][part][: CELL * 2 - 1]
                line = line.ljust(column) + " " + text
            lines.append(line.rstrip())
    return "\n".join(lines)


def zone_lines(
    game_map: GameMap, units: Iterable[UnitStack], structures: Iterable[PlacedStructure]
) -> list[str]:
    """One line per zone, empty zones too: ``t1.z4 forest, food: velathi 2 Hunters``."""
    here: dict[str, list[str]] = {}
    for stack in units:
        moved = f" ({stack.moved} moved)" if stack.moved else ""
        here.setdefault(stack.zone, []).append(
            f"{stack.owner} {stack.count} {plural(unit_title(stack.unit), stack.count)}{moved}"
        )
    for placed in structures:
        cubes = f", {placed.cubes} cubes" if placed.cubes else ""
        here.setdefault(placed.zone, []).append(
            f"[{possessive(placed.owner)} {structure_title(placed.structure)}{cubes}]"
        )
    width = max((len(z) for z in game_map.zone_ids), default=0)
    lines = []
    for zone_id in game_map.zone_ids:
        zone = game_map.zones[zone_id]
        facts = [str(zone.biome)]
        if zone.resource is not None:
            facts.append(str(zone.resource))
        if zone.base_owner is not None:
            facts.append(f"{zone.base_owner} base")
        if zone_id == game_map.strategy_zone:
            facts.append("strategy zone")
        terrain = ", ".join(facts)
        things = "; ".join(here.get(zone_id, [])) or "-"
        lines.append(f"{zone_id.ljust(width)}  {terrain.ljust(24)} {things}")
    return lines
