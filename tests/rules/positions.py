"""Hand-made positions for rules tests: a small grid map and units placed on it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from nataterra_core.content import load_pack
from nataterra_core.content.schema import Biome, Resource
from nataterra_core.rules.context import Context
from nataterra_core.rules.hexmap import GameMap, Hex, Zone
from nataterra_core.rules.setup import GameOptions, initial_state
from nataterra_core.rules.state import GameState, Phase, UnitStack

# One character per zone: biome, and for bases whose base it is.
BIOMES: dict[str, Biome] = {
    ".": "forest",
    "h": "hills",
    "M": "mountain",
    "L": "lake",
    "V": "swamp",
    "E": "forest",
    "N": "lake",
    "H": "hills",
    "D": "desert",
}
BASES = {"V": "velathi", "E": "beasts", "N": "naga", "H": "humans"}


def zone_id(q: int, r: int) -> str:
    """Zone ids ``z<q><r>``: column then row (single digits on these small maps)."""
    return f"z{q}{r}"


def grid_map(rows: Sequence[str], resources: dict[str, Resource] | None = None) -> GameMap:
    """A map from rows of characters (see :data:`BIOMES`); row r, column q is hex (q, r).

    Spaces are ignored, so rows can be written ``"V . M . E"``. In axial coordinates
    (q, r) touches (q+1, r), (q, r+1) and (q-1, r+1) among others.
    """
    zones = []
    for r, row in enumerate(rows):
        for q, char in enumerate(row.replace(" ", "")):
            zid = zone_id(q, r)
            resource = (resources or {}).get(zid)
            zones.append(
                Zone(
                    id=zid,
                    hex=Hex(q, r),
                    tile="test",
                    biome=BIOMES[char],
                    resource=resource,
                    printed_biome=BIOMES[char],
                    printed_resource=resource,
                    base_owner=BASES.get(char),
                )
            )
    return GameMap("test-grid", zones)


def position(
    game_map: GameMap,
    units: Iterable[tuple[str, str, str, int]],
    *,
    seats: tuple[str, ...] = ("velathi", "beasts"),
    active: str = "velathi",
    phase: Phase = "movement",
    sides: dict[str, dict[str, str]] | None = None,
) -> tuple[Context, GameState]:
    """A context and a state with exactly ``units`` (owner, unit, zone, count) on the map."""
    ctx = Context(load_pack(), game_map)
    state = initial_state(ctx, seats, GameOptions())
    stacks = tuple(sorted(UnitStack(o, u, z, n) for o, u, z, n in units))
    state = msgspec.structs.replace(
        state, units=stacks, active=seats.index(active), turn=1, phase=phase
    )
    for civ, chosen in (sides or {}).items():
        player = state.player(civ)
        state = state.with_player(msgspec.structs.replace(player, sides=chosen))
    return ctx, state
