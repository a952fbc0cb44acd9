"""A map layout as data: the tiles and terrain modifiers placed so far (N-MAP-4).

A structured map (advanced set-up, :mod:`~nataterra_core.games.nataterra.rules.structuring`) is not
in the content pack: the players build it. Its *map id* is therefore the layout itself, written
canonically (:func:`layout_id`)::

    structured:t0a@0,0,0;t5@2,-1,3;velathi@4,-3,1|mountain:t5.z2;lake@6,-2

tiles as ``<tile id>@<q>,<r>,<rotation>`` in the order they were placed, then after ``|`` the
terrain modifiers as ``<side>:<zone id>`` (covering a zone) or ``<side>@<q>,<r>`` (beyond the
edge), in the order they were placed. Equal layouts have equal ids, and
:func:`~nataterra_core.games.nataterra.rules.hexmap.build_map` builds a map from such an id exactly
as from a map of the pack, so every reader of ``state.map_id`` (the decider's context cache, the
bots, the CLI) gets the structured map without knowing how it came about.

This module also holds the structuring progress kept in the state (:class:`Structuring`);
it imports neither the state nor the map, so both can import it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated

import msgspec

from nataterra_core.games.nataterra.content.schema import (
    MapDef,
    MapTile,
    ModifierPlacement,
    TerrainSide,
    TilePlacement,
)
from nataterra_core.kernel.secrets import PUBLIC, owned

__all__ = [
    "STRUCTURED",
    "PlacedModifier",
    "PlacedTile",
    "Structuring",
    "is_structured",
    "layout_id",
    "structured_map_def",
]

STRUCTURED = "structured:"
"""The prefix of a structured map's id."""

_SIDES: tuple[TerrainSide, ...] = ("mountain", "lake")


class PlacedTile(msgspec.Struct, frozen=True):
    """A tile placed while structuring: its zones go to ``rotate(offset, rotation) + at``."""

    tile: Annotated[str, PUBLIC]
    at: Annotated[tuple[int, int], PUBLIC]
    rotation: Annotated[int, PUBLIC]


class PlacedModifier(msgspec.Struct, frozen=True):
    """A terrain modifier placed while structuring: on ``zone``, or beyond the edge at ``at``."""

    side: Annotated[TerrainSide, PUBLIC]
    zone: Annotated[str | None, PUBLIC] = None
    at: Annotated[tuple[int, int] | None, PUBLIC] = None


class Structuring(msgspec.Struct, frozen=True, kw_only=True):
    """The map being structured (N-MAP-4), kept in the state until the map is complete.

    ``hands`` are the map tiles each seat drew and has not placed yet (secret: a seat's view
    shows its own and the others' counts); ``tiles`` and ``modifiers`` what has been placed,
    in order. Whose turn it is and what they place follow from how much has been placed.
    """

    hands: Annotated[dict[str, tuple[str, ...]], owned(key=True)] = msgspec.field(
        default_factory=dict
    )
    tiles: Annotated[tuple[PlacedTile, ...], PUBLIC] = ()
    modifiers: Annotated[tuple[PlacedModifier, ...], PUBLIC] = ()

    @property
    def placed(self) -> int:
        """How many placements have been made (tiles and modifiers)."""
        return len(self.tiles) + len(self.modifiers)


def is_structured(map_id: str) -> bool:
    """Whether ``map_id`` names a structured layout rather than a map of the pack."""
    return map_id.startswith(STRUCTURED)


def layout_id(tiles: Sequence[PlacedTile], modifiers: Sequence[PlacedModifier]) -> str:
    """The canonical map id of a layout (see the module docstring)."""
    tile_text = ";".join(f"{t.tile}@{t.at[0]},{t.at[1]},{t.rotation}" for t in tiles)
    modifier_text = ";".join(
        f"{m.side}:{m.zone}" if m.zone is not None else f"{m.side}@{_at(m)[0]},{_at(m)[1]}"
        for m in modifiers
    )
    return f"{STRUCTURED}{tile_text}|{modifier_text}"


def _at(modifier: PlacedModifier) -> tuple[int, int]:
    if modifier.at is None:
        raise ValueError("a modifier needs a zone or a hex")
    return modifier.at


def structured_map_def(map_id: str, tiles: Mapping[str, MapTile]) -> MapDef:
    """The :class:`MapDef` a structured map id describes; ``KeyError`` naming ``map_id`` when
    it is not a well-formed layout of tiles in ``tiles``."""
    if not is_structured(map_id):
        raise KeyError(map_id)
    tile_text, bar, modifier_text = map_id[len(STRUCTURED) :].partition("|")
    if not bar:
        raise KeyError(map_id)
    try:
        placements = tuple(_tile(part, tiles) for part in tile_text.split(";") if part)
        modifiers = tuple(_modifier(part) for part in modifier_text.split(";") if part)
    except (ValueError, KeyError) as exc:
        raise KeyError(map_id) from exc
    players = tuple(
        civ
        for p in placements
        if (civ := tiles[p.tile].civ) is not None and tiles[p.tile].kind == "player"
    )
    return MapDef(
        id=map_id,
        title="Structured map",
        title_de="Strukturierte Karte",
        players=players,
        tiles=placements,
        modifiers=modifiers,
    )


def _tile(text: str, tiles: Mapping[str, MapTile]) -> TilePlacement:
    tile, at, numbers = text.partition("@")
    q, r, rotation = (int(n) for n in numbers.split(","))
    if not at or tile not in tiles or not 0 <= rotation < 6:
        raise ValueError(text)
    return TilePlacement(tile=tile, at=(q, r), rotation=rotation)


def _modifier(text: str) -> ModifierPlacement:
    if ":" in text:
        side, _, zone = text.partition(":")
        return ModifierPlacement(side=_side(side), zone=zone)
    side, _, numbers = text.partition("@")
    q, r = (int(n) for n in numbers.split(","))
    return ModifierPlacement(side=_side(side), at=(q, r))


def _side(text: str) -> TerrainSide:
    for side in _SIDES:
        if side == text:
            return side
    raise ValueError(text)
