"""The hex map as text: a hex grid of every zone, then one line per zone.

The drawing puts each zone's short name and what stands on it in its axial hex (pointy-topped
rows, each shifted half a hex, neighbours sharing edges), so the map's shape reads at a
glance in any terminal; the zone list below it gives every zone, empty ones too, with its
biome, resource, base, units and structure.

    >>> from nataterra_core.games.nataterra.rules.hexmap import GameMap, Hex, Zone
    >>> tiny = GameMap("tiny", [Zone.plain("a.z1", Hex(0, 0), "forest"),
    ...                         Zone.plain("a.z2", Hex(1, 0), "lake"),
    ...                         Zone.plain("a.z3", Hex(0, 1), "hills")])
    >>> print(map_drawing(tiny, {"a.z3": "v3"}, {"a.z1"}))
      /   \\   /   \\
    |a.z1   |a.z2   |
    |F*     |L      |
      \\   /   \\   /
        |a.z3   |
        |H v3   |
          \\   /
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from nataterra_core.kernel.wording import plural

from ..rules.hexmap import GameMap
from ..state import PlacedStructure, UnitStack
from .base import possessive, structure_title, unit_title

__all__ = ["map_drawing", "short_zone", "zone_lines"]

CELL = 8
"""Characters per hex in the drawing (a row is shifted by half of it)."""


def short_zone(zone_id: str) -> str:
    """``velathi.z4`` -> ``vel.z4``: at most seven characters, still unambiguous on a map
    (tile ids differ in their first three letters)."""
    tile, _, key = zone_id.partition(".")
    return f"{tile[:3]}.{key}" if key else zone_id[:7]


def map_drawing(game_map: GameMap, occupants: Mapping[str, str], built: set[str]) -> str:
    """Every zone as a pointy-topped hex at its place: its short name, then its biome's
    letter, ``*`` for a structure (``built``) and who stands there (``occupants``: zone ->
    ``v3 b2``). Neighbours share their edges, a row is shifted by half a hex, so the map
    reads as the hex grid it is."""
    hexes = {zone_id: game_map.zones[zone_id].hex for zone_id in game_map.zone_ids}
    if not hexes:
        return ""
    left = min(2 * h.q + h.r for h in hexes.values())
    top = min(h.r for h in hexes.values())
    rows = max(h.r for h in hexes.values()) - top + 1
    width = (max(2 * h.q + h.r for h in hexes.values()) - left) * CELL // 2 + CELL + 1
    canvas = [[" "] * width for _ in range(HEX_ROWS * rows + 1)]
    for zone_id, at in hexes.items():
        x, y = (2 * at.q + at.r - left) * CELL // 2, (at.r - top) * HEX_ROWS
        second = game_map.zones[zone_id].biome[0].upper() + ("*" if zone_id in built else "")
        if zone_id in occupants:
            second += " " + occupants[zone_id]
            if len(second) >= CELL:  # too long with the spaces: drop them
                second = second.replace(" ", "")
        _draw_hex(canvas, x, y, (short_zone(zone_id), second))
    return "\n".join("".join(row).rstrip() for row in canvas)


HEX_ROWS = 3
"""Lines per row of hexes: the edge a row shares with the next, then two lines of text."""


def _draw_hex(canvas: list[list[str]], x: int, y: int, text: tuple[str, str]) -> None:
    """A hex whose left side is at column ``x`` and top edge on line ``y``: ``/   \\`` over
    two lines ``|text|`` over ``\\   /`` (the next row's top edges, where they meet)."""
    quarter = CELL // 4
    canvas[y][x + quarter], canvas[y][x + 3 * quarter] = "/", "\\"
    for line, words in enumerate(text, start=1):
        canvas[y + line][x] = canvas[y + line][x + CELL] = "|"
        for offset, char in enumerate(words[: CELL - 1]):
            canvas[y + line][x + 1 + offset] = char
    canvas[y + HEX_ROWS][x + quarter], canvas[y + HEX_ROWS][x + 3 * quarter] = "\\", "/"


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
