"""The commands and events of a structured map's set-up (N-MAP-4): tiles drawn and placed,
player tiles, terrain modifiers and the map's completion. Their rules are in
``rules/structuring.py``."""

from __future__ import annotations

from nataterra_core.kernel import (
    Command,
    DrawsEvent,
    Event,
)
from nataterra_core.kernel.visibility import PUBLIC, hide_from_others

from ..content.schema import Side, TerrainSide


class PlaceSharedTile(Command, frozen=True, tag="place_shared_tile.v1"):
    """Put shared tile 0 in the middle of the table, ``side`` up (N-MAP-4)."""

    visibility = PUBLIC

    side: Side


class AttachMapTile(Command, frozen=True, tag="attach_map_tile.v1"):
    """Attach ``tile`` from the seat's hand: zones at ``rotate(offset, rotation) + at``."""

    visibility = PUBLIC

    tile: str
    at: tuple[int, int]
    rotation: int


class PlacePlayerTile(Command, frozen=True, tag="place_player_tile.v1"):
    """Place the seat's player tile: zones at ``rotate(offset, rotation) + at``."""

    visibility = PUBLIC

    at: tuple[int, int]
    rotation: int


class PlaceModifier(Command, frozen=True, tag="place_modifier.v1"):
    """Place a terrain modifier ``side`` up, on ``zone`` or beyond the edge at hex ``at``."""

    visibility = PUBLIC

    side: TerrainSide
    zone: str | None = None
    at: tuple[int, int] | None = None


class MapTilesDrawn(DrawsEvent, frozen=True, tag="map_tiles_drawn.v2"):
    """``seat`` drew ``tiles`` in secret (the other seats' views lose ``tiles`` and
    ``values``): tile i is taken out of the pile by ``draw(ms[i])``, an index into the tiles
    still in it (pack order, earlier picks removed). v2: v1 recorded neither ``ms`` nor the
    draws, so an auditor could not recheck them."""

    visibility = hide_from_others("tiles", "values")  # N-MAP-4: drawn in secret

    seat: str
    tiles: tuple[str, ...]
    ms: tuple[int, ...]
    values: tuple[int, ...]
    counter_before: int
    counter_after: int


class SharedTilePlaced(Event, frozen=True, tag="shared_tile_placed.v1"):
    """``seat`` put tile 0 (the side ``tile``) at the centre; the strategy marker goes on
    its centre zone."""

    visibility = PUBLIC

    seat: str
    tile: str


class MapTileAttached(Event, frozen=True, tag="map_tile_attached.v1"):
    """``seat`` attached ``tile`` from its hand (which it shows by placing it)."""

    visibility = PUBLIC
    reveals_information = True

    seat: str
    tile: str
    at: tuple[int, int]
    rotation: int


class PlayerTilePlaced(Event, frozen=True, tag="player_tile_placed.v1"):
    """``seat`` placed its player tile ``tile``."""

    visibility = PUBLIC

    seat: str
    tile: str
    at: tuple[int, int]
    rotation: int


class ModifierPlaced(Event, frozen=True, tag="modifier_placed.v1"):
    """``seat`` placed a terrain modifier on ``zone`` or beyond the edge at ``at``."""

    visibility = PUBLIC

    seat: str
    side: TerrainSide
    zone: str | None = None
    at: tuple[int, int] | None = None


class MapStructured(Event, frozen=True, tag="map_structured.v1"):
    """The map is complete; ``map_id`` is its layout id, used for the rest of the game."""

    visibility = PUBLIC

    map_id: str


COMMANDS: tuple[type[Command], ...] = (
    PlaceSharedTile,
    AttachMapTile,
    PlacePlayerTile,
    PlaceModifier,
)
EVENTS: tuple[type[Event], ...] = (
    MapTilesDrawn,
    SharedTilePlaced,
    MapTileAttached,
    PlayerTilePlaced,
    ModifierPlaced,
    MapStructured,
)
