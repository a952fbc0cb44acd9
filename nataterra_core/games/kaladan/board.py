"""The map of a Kaladan game (K-SET-1) and what the rules ask of it: adjacency, capacity
(K-TER-1), control and income (K-INC-1, K-INC-2), castles (K-CAS-1..3).

Tile ids are a row letter (by ``r``) and a column number (by ``q``): ``"C4"``.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from nataterra_core.boards.hexgrid import Hex

from .content.schema import KaladanPack
from .state import GameState

__all__ = ["Board", "board_for", "map_for"]


@attrs.frozen
class Board:
    """A built map: tiles with terrain, castles, capacities and neighbours."""

    map_id: str
    hexes: Mapping[str, Hex]
    terrain: Mapping[str, str]
    castle_of: Mapping[str, str]
    """Castle tile -> the seat whose home it is."""
    capacity_of: Mapping[str, int]
    neighbours: Mapping[str, tuple[str, ...]]

    @property
    def tiles(self) -> tuple[str, ...]:
        """Every tile id, sorted."""
        return tuple(sorted(self.hexes))

    @property
    def castles(self) -> tuple[str, ...]:
        """The castle tiles, in seat order of their homes."""
        return tuple(self.castle_of)

    def home(self, seat: str) -> str:
        """``seat``'s own castle tile."""
        return next(t for t, s in self.castle_of.items() if s == seat)

    def adjacent(self, a: str, b: str) -> bool:
        """Whether the tiles share an edge."""
        return b in self.neighbours[a]

    def room(self, state: GameState, tile: str) -> int:
        """Free places on ``tile`` (K-TER-1)."""
        return self.capacity_of[tile] - len(state.units_on(tile))

    def castles_of(self, state: GameState, seat: str) -> tuple[str, ...]:
        """The castles ``seat`` controls (K-CAS-1: by standing on them)."""
        return tuple(t for t in self.castle_of if state.owner(t) == seat)

    def extra_castles(self, state: GameState, seat: str) -> int:
        """Castles ``seat`` controls beyond its own (K-CAS-3)."""
        return sum(1 for t in self.castles_of(state, seat) if self.castle_of[t] != seat)

    def income(self, state: GameState, seat: str) -> int:
        """K-INC-2: 1 per castle controlled, 1 per 2 other tiles controlled (rounded down)."""
        tiles = state.tiles_of(seat)
        castles = sum(1 for t in tiles if t in self.castle_of)
        return castles + (len(tiles) - castles) // 2

    def territory_edge(self, state: GameState, seat: str) -> tuple[str, ...]:
        """Empty tiles adjacent to a tile ``seat`` controls (K-BUY-3), sorted."""
        found = {
            n for t in state.tiles_of(seat) for n in self.neighbours[t] if n not in state.board
        }
        return tuple(sorted(found))


def _tile_id(hex_: Hex, q0: int, r0: int) -> str:
    return f"{chr(ord('A') + hex_.r - r0)}{hex_.q - q0 + 1}"


def _build(pack: KaladanPack, map_id: str) -> Board:
    game_map = pack.maps[map_id]
    q0 = min(t.at[0] for t in game_map.tiles)
    r0 = min(t.at[1] for t in game_map.tiles)
    ids = {Hex(*t.at): _tile_id(Hex(*t.at), q0, r0) for t in game_map.tiles}
    by_id = {ids[Hex(*t.at)]: t for t in game_map.tiles}
    seats = list(pack.seats)
    castles = sorted((seats.index(t.castle), ids[Hex(*t.at)]) for t in game_map.tiles if t.castle)
    return Board(
        map_id=map_id,
        hexes={tid: Hex(*t.at) for tid, t in sorted(by_id.items())},
        terrain={tid: t.terrain for tid, t in by_id.items()},
        castle_of={tile: seats[index] for index, tile in castles},
        capacity_of={tid: pack.terrains[t.terrain].capacity for tid, t in by_id.items()},
        neighbours={
            tid: tuple(sorted(ids[n] for n in Hex(*t.at).neighbours() if n in ids))
            for tid, t in by_id.items()
        },
    )


_BUILT: dict[tuple[str, str], Board] = {}


def board_for(pack: KaladanPack, map_id: str) -> Board:
    """The built map ``map_id`` of ``pack`` (built once per pack hash and map)."""
    key = (pack.sha256, map_id)
    found = _BUILT.get(key)
    if found is None:
        found = _BUILT[key] = _build(pack, map_id)
    return found


def map_for(pack: KaladanPack, players: int) -> str:
    """The pack's first map for ``players`` players (K-SET-1)."""
    for game_map in pack.maps.values():
        if game_map.players == players:
            return game_map.id
    raise ValueError(f"K-SET-1: the pack has no map for {players} players")
