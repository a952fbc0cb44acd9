"""Advanced map structuring (rules §2a N-MAP-4): the players build the map at set-up.

Turned on by the header option ``map_structuring`` (:class:`~.setup.GameOptions`). The
start command draws the first player and shuffles the decks as usual, then deals each seat
two map tiles in secret (:class:`MapTilesDrawn`, its tiles redacted for the other seats)
and holds the first turn back. The seats then place, one command each, in this order:

1. tile 0, side of the placer's choice, at the centre of the map (:class:`PlaceSharedTile`);
2. a map tile from their hand attached to the tiles placed, twice round the table
   (:class:`AttachMapTile`);
3. their civilisation's player tile, touching a map tile but neither tile 0 nor another
   player tile (:class:`PlacePlayerTile`);
4. a terrain modifier, twice round the table, at least two zones from every mountain and
   lake already on the map (:class:`PlaceModifier`).

Each round starts with the seat to the right of the first player and goes counter-clockwise
(turn order is seat order, clockwise, N-TURN-1, so the placing order is the seat order
backwards from the seat before the first player; the first player places last). When the
last modifier is down, :class:`MapStructured` completes the map and the first player's
turn 1 begins; in advanced mode (N-SETUP-8) the opening tactic discards come first, after
the map (:func:`~.setup.decide_opening_discard` starts turn 1). With a structured map,
advanced mode seats any 2 to 4 civilisations: no fixed map is needed.

**How the map travels from the state to the rules.** The state carries the placements
(``state.structuring``) while the map is built, and ``state.map_id`` is always the *layout
id* of what has been placed (:mod:`~.map_layout`): a canonical text of the placements,
which :func:`~.hexmap.build_map` turns into a :class:`~.hexmap.GameMap` as it does a map of
the pack. The decider's context cache (:meth:`~.game.Nataterra.context`) is keyed by map id
as before, so a structured game is cached under its final layout id, and two games with the
same layout share one context; nothing else in the rules, the bots or the CLI needs to know
the map was structured. Once the map is complete ``structuring`` is ``None`` and the game
plays exactly as on a map of the pack.

Rulings (docs/RULINGS.md): tile 0 lies at the origin unturned, the first placer chooses its
side; a tile is attached when one of its zones shares an edge with a placed zone; "two zones
away" is a hex distance of at least 2 (not on, not next to) from every mountain or lake zone
(printed, covered or beyond the edge; the Naga base is a lake zone); a modifier never covers
a base zone or tile 0's centre (the strategy marker); a modifier beyond the edge goes on an
empty hex next to the map; the workers of N-SETUP-5 stand on the base zone from the start
(its zone id is known before the tile is placed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec

from nataterra_core.games.nataterra.content.schema import (
    Biome,
    ContentPack,
    MapTile,
    TerrainSide,
)
from nataterra_core.kernel import (
    Command,
    DiceStream,
    Event,
    IllegalCommand,
    MalformedCommand,
    record_draws,
)
from nataterra_core.kernel.secrets import sees

from ..messages.structuring import (
    AttachMapTile,
    MapStructured,
    MapTileAttached,
    MapTilesDrawn,
    ModifierPlaced,
    PlaceModifier,
    PlacePlayerTile,
    PlaceSharedTile,
    PlayerTilePlaced,
    SharedTilePlaced,
)
from ..messages.turns import TurnStarted
from ..state import GameState
from . import setup
from . import structuring_geometry as geometry
from .context import Context
from .hexmap import GameMap, Hex, Zone, build_map
from .map_layout import PlacedModifier, PlacedTile, Structuring, layout_id

__all__ = [
    "EVOLVE",
    "MODIFIERS_EACH",
    "TILES_EACH",
    "StructuringView",
    "Task",
    "acting_seats",
    "current_task",
    "deal",
    "decide",
    "initial_state",
    "legal_commands",
    "placing_order",
    "player_tile",
    "schedule",
    "structuring_view",
]

TILES_EACH = 2
"""Map tiles each seat draws (N-MAP-4)."""
MODIFIERS_EACH = 2
"""Terrain modifiers each seat places (N-MAP-4)."""

Task = Literal["shared_tile", "map_tile", "player_tile", "modifier"]
"""What a placement step asks for."""


# -- commands -----------------------------------------------------------------------------


# -- events -------------------------------------------------------------------------------


_COMMAND_OF: dict[Task, type[Command]] = {
    "shared_tile": PlaceSharedTile,
    "map_tile": AttachMapTile,
    "player_tile": PlacePlayerTile,
    "modifier": PlaceModifier,
}
_WORDS: dict[Task, str] = {
    "shared_tile": "place tile 0",
    "map_tile": "attach a map tile",
    "player_tile": "place their player tile",
    "modifier": "place a terrain modifier",
}


# -- set-up -------------------------------------------------------------------------------


def initial_state(
    pack: ContentPack, seats: tuple[str, ...], options: setup.GameOptions
) -> GameState:
    """The position before the start command, the map still to be built.

    Everything but the map is as in :func:`~.setup.initial_state`; the workers stand on
    their base zone (``"<civ tile>.<base key>"``), which joins the map with the player tile.
    """
    _check_pack(pack, seats)
    bases = [
        Zone.plain(_base_zone(tile), Hex(0, 2 * i), _base_biome(tile), base_owner=seat)
        for i, seat in enumerate(seats)
        if (tile := player_tile(pack, seat)) is not None
    ]
    # setup.initial_state reads only where each base is: a map of the bases alone says so.
    state = setup.initial_state(Context(pack, GameMap("bases", bases)), seats, options)
    return msgspec.structs.replace(state, map_id=layout_id((), ()), structuring=Structuring())


def _check_pack(pack: ContentPack, seats: tuple[str, ...]) -> None:
    if len(_map_tiles(pack)) < TILES_EACH * len(seats):
        raise ValueError(f"N-MAP-4: the pack has too few map tiles for {len(seats)} players")
    if {t.side for t in pack.map_tiles.values() if t.kind == "shared"} != {"a", "b"}:
        raise ValueError("N-MAP-4: the pack needs both sides of tile 0")
    missing = [seat for seat in seats if player_tile(pack, seat) is None]
    if missing:
        raise ValueError(f"N-MAP-4: no player tile for {missing}")


def _map_tiles(pack: ContentPack) -> tuple[str, ...]:
    tiles = [t for t in pack.map_tiles.values() if t.kind == "map"]
    return tuple(t.id for t in sorted(tiles, key=lambda t: (t.number or 0, t.id)))


def player_tile(pack: ContentPack, civ: str) -> MapTile | None:
    """The player tile of ``civ`` in ``pack``, if it has one."""
    return next((t for t in pack.map_tiles.values() if t.kind == "player" and t.civ == civ), None)


def _base_zone(tile: MapTile) -> str:
    return f"{tile.id}.{tile.base}"


def _base_biome(tile: MapTile) -> Biome:
    return next(z.biome for z in tile.zones if z.key == tile.base)


def deal(
    pack: ContentPack, state: GameState, start_events: tuple[Event, ...], dice: DiceStream
) -> tuple[Event, ...]:
    """The start command's events for a structured game: those of the ordinary start up to
    the first turn, then each seat's two secret map tiles (in seat order); the first turn
    begins only when the map is complete (N-MAP-4)."""
    events = [e for e in start_events if not isinstance(e, TurnStarted)]
    pile = list(_map_tiles(pack))
    for seat in state.seats:
        drawn = record_draws(dice, range(len(pile), len(pile) - TILES_EACH, -1))
        tiles = tuple(pile.pop(value) for value in drawn["values"])
        events.append(MapTilesDrawn(seat=seat, tiles=tiles, **drawn))
    return tuple(events)


# -- whose placement ----------------------------------------------------------------------


def placing_order(state: GameState) -> tuple[str, ...]:
    """The seats in placing order: the one to the right of the first player first, then
    counter-clockwise (seat order backwards), the first player last."""
    n = len(state.seats)
    return tuple(state.seats[(state.first - 1 - i) % n] for i in range(n))


def schedule(state: GameState) -> tuple[tuple[Task, str], ...]:
    """Every placement of the structuring, in order: (task, seat)."""
    order = placing_order(state)
    steps: list[tuple[Task, str]] = [("shared_tile", order[0])]
    steps += [("map_tile", seat) for _ in range(TILES_EACH) for seat in order]
    steps += [("player_tile", seat) for seat in order]
    steps += [("modifier", seat) for _ in range(MODIFIERS_EACH) for seat in order]
    return tuple(steps)


def current_task(state: GameState) -> tuple[Task, str] | None:
    """The placement due now, or ``None`` (not started, or the map is complete)."""
    if state.structuring is None or state.first < 0:
        return None
    steps = schedule(state)
    placed = state.structuring.placed
    return steps[placed] if placed < len(steps) else None


def acting_seats(state: GameState) -> tuple[str, ...]:
    """The seat that places next (none before the start)."""
    task = current_task(state)
    return () if task is None else (task[1],)


# -- the legal list -----------------------------------------------------------------------


def legal_commands(pack: ContentPack, state: GameState, seat: str) -> list[Command]:
    """Every placement ``seat`` may make now (N-MAP-4); empty when it is not its turn."""
    task = current_task(state)
    if task is None or task[1] != seat or state.structuring is None:
        return []
    kind = task[0]
    structuring = state.structuring
    if kind == "shared_tile":
        return [PlaceSharedTile(side="a"), PlaceSharedTile(side="b")]
    if kind == "modifier":
        game_map = build_map(pack, state.map_id)
        barriers = geometry.barriers(game_map)
        zones = [
            z.id
            for z in game_map.zones.values()
            if z.base_owner is None
            and z.id != game_map.strategy_zone
            and not geometry.near_barrier(z.hex, barriers)
        ]
        edge = [
            (h.q, h.r) for h in geometry.edge(game_map) if not geometry.near_barrier(h, barriers)
        ]
        sides: tuple[TerrainSide, ...] = ("mountain", "lake")
        commands: list[Command] = [PlaceModifier(side=s, zone=z) for s in sides for z in zones]
        commands += [PlaceModifier(side=s, at=at) for s in sides for at in edge]
        return commands
    taken = geometry.taken(pack, structuring)
    if kind == "player_tile":
        tile = player_tile(pack, seat)
        assert tile is not None
        return [
            PlacePlayerTile(at=at, rotation=rotation)
            for at, rotation in geometry.placements(tile, taken, player=True)
        ]
    return [
        AttachMapTile(tile=tile_id, at=at, rotation=rotation)
        for tile_id in sorted(structuring.hands.get(seat, ()))
        for at, rotation in geometry.placements(pack.map_tiles[tile_id], taken, player=False)
    ]


# -- decide -------------------------------------------------------------------------------


def decide(
    pack: ContentPack, state: GameState, command: Command, seat: str | None
) -> tuple[Event, ...]:
    """The events of a placement; ``IllegalCommand`` naming N-MAP-4 when it breaks a rule."""
    if seat is None:
        raise MalformedCommand(f"{type(command).__name__} needs a seat")
    task = current_task(state)
    if task is None or state.structuring is None:
        raise IllegalCommand("N-MAP-4", "no map is being structured now")
    kind, placer = task
    if seat != placer:
        raise IllegalCommand("N-MAP-4", f"it is {placer}'s turn to {_WORDS[kind]}, not {seat}'s")
    if not isinstance(command, _COMMAND_OF[kind]):
        raise IllegalCommand(
            "N-MAP-4",
            f"the map is being structured: {seat} must {_WORDS[kind]}, "
            f"not send {type(command).__name__}",
        )
    structuring = state.structuring
    event: Event
    if isinstance(command, PlaceSharedTile):
        tile = next(
            (t for t in pack.map_tiles.values() if t.kind == "shared" and t.side == command.side),
            None,
        )
        if tile is None:
            raise IllegalCommand("N-MAP-4", f"tile 0 has sides a and b, not {command.side!r}")
        event = SharedTilePlaced(seat=seat, tile=tile.id)
    elif isinstance(command, AttachMapTile):
        hand = structuring.hands.get(seat, ())
        if command.tile not in hand:
            raise IllegalCommand(
                "N-MAP-4", f"{command.tile!r} is not in {seat}'s hand of map tiles"
            )
        fault = geometry.fault(
            pack.map_tiles[command.tile],
            geometry.taken(pack, structuring),
            command.at,
            command.rotation,
            player=False,
        )
        if fault is not None:
            raise IllegalCommand("N-MAP-4", f"{command.tile} cannot go there: {fault}")
        event = MapTileAttached(
            seat=seat, tile=command.tile, at=command.at, rotation=command.rotation
        )
    elif isinstance(command, PlacePlayerTile):
        own = player_tile(pack, seat)
        assert own is not None  # checked at set-up
        fault = geometry.fault(
            own, geometry.taken(pack, structuring), command.at, command.rotation, player=True
        )
        if fault is not None:
            raise IllegalCommand("N-MAP-4", f"{own.id} cannot go there: {fault}")
        event = PlayerTilePlaced(seat=seat, tile=own.id, at=command.at, rotation=command.rotation)
    else:
        assert isinstance(command, PlaceModifier)
        if command.side not in geometry.BARRIERS:
            raise IllegalCommand(
                "N-MAP-4", f"a modifier is a mountain or a lake, not {command.side!r}"
            )
        fault = geometry.modifier_fault(build_map(pack, state.map_id), command.zone, command.at)
        if fault is not None:
            raise IllegalCommand("N-MAP-4", f"no {command.side} there: {fault}")
        event = ModifierPlaced(seat=seat, side=command.side, zone=command.zone, at=command.at)
    if structuring.placed + 1 < len(schedule(state)):
        return (event,)
    # The last modifier: the map is complete and the first player's turn 1 begins, unless
    # the opening tactic cards are still to be discarded (advanced mode, N-SETUP-8).
    done = _placed_modifier(structuring, event)
    complete = (event, MapStructured(map_id=layout_id(structuring.tiles, done.modifiers)))
    if state.discarding:
        return complete
    return (*complete, TurnStarted(seat=state.seats[state.first], turn=1))


def _placed_modifier(structuring: Structuring, event: Event) -> Structuring:
    assert isinstance(event, ModifierPlaced)
    placed = PlacedModifier(side=event.side, zone=event.zone, at=event.at)
    return msgspec.structs.replace(structuring, modifiers=(*structuring.modifiers, placed))


# -- evolve -------------------------------------------------------------------------------


def _with(state: GameState, structuring: Structuring) -> GameState:
    """The state with ``structuring``; the map id follows the layout."""
    return msgspec.structs.replace(
        state,
        structuring=structuring,
        map_id=layout_id(structuring.tiles, structuring.modifiers),
    )


def _current(state: GameState) -> Structuring:
    if state.structuring is None:
        raise ValueError("no map is being structured")
    return state.structuring


def evolve_tiles_drawn(state: GameState, event: MapTilesDrawn) -> GameState:
    """The tiles go to the seat's hand."""
    s = _current(state)
    hands = {**s.hands, event.seat: (*s.hands.get(event.seat, ()), *event.tiles)}
    return msgspec.structs.replace(
        state, structuring=msgspec.structs.replace(s, hands=hands), counter=event.counter_after
    )


def evolve_shared_tile(state: GameState, event: SharedTilePlaced) -> GameState:
    """Tile 0 at the origin, unturned."""
    s = _current(state)
    return _with(
        state, msgspec.structs.replace(s, tiles=(*s.tiles, PlacedTile(event.tile, (0, 0), 0)))
    )


def evolve_tile_attached(state: GameState, event: MapTileAttached) -> GameState:
    """The tile leaves the hand for the map."""
    s = _current(state)
    hand = list(s.hands.get(event.seat, ()))
    hand.remove(event.tile)
    placed = PlacedTile(event.tile, event.at, event.rotation)
    return _with(
        state,
        msgspec.structs.replace(
            s, hands={**s.hands, event.seat: tuple(hand)}, tiles=(*s.tiles, placed)
        ),
    )


def evolve_player_tile(state: GameState, event: PlayerTilePlaced) -> GameState:
    """The player tile joins the map (its base zone with it)."""
    s = _current(state)
    placed = PlacedTile(event.tile, event.at, event.rotation)
    return _with(state, msgspec.structs.replace(s, tiles=(*s.tiles, placed)))


def evolve_modifier(state: GameState, event: ModifierPlaced) -> GameState:
    """The token covers its zone, or extends the map."""
    return _with(state, _placed_modifier(_current(state), event))


def evolve_structured(state: GameState, event: MapStructured) -> GameState:
    """The map is complete: the rest of the game reads it from ``map_id``."""
    return msgspec.structs.replace(state, structuring=None, map_id=event.map_id)


EVOLVE: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    MapTilesDrawn: evolve_tiles_drawn,
    SharedTilePlaced: evolve_shared_tile,
    MapTileAttached: evolve_tile_attached,
    PlayerTilePlaced: evolve_player_tile,
    ModifierPlaced: evolve_modifier,
    MapStructured: evolve_structured,
}
"""The fold of each structuring event."""


# -- views --------------------------------------------------------------------------------


class StructuringView(msgspec.Struct, frozen=True, kw_only=True):
    """The structuring as a seat sees it: whose placement and what it is, the seat's own
    map tiles (``None`` for the others' and for spectators), how many each holds, how many
    modifiers each has left, and what has been placed (also in the layout id, ``map_id``)."""

    placing: str | None
    task: str | None
    hand: tuple[str, ...] | None
    hand_counts: dict[str, int]
    modifiers_left: dict[str, int]
    tiles: tuple[PlacedTile, ...]
    modifiers: tuple[PlacedModifier, ...]
    hands: dict[str, tuple[str, ...]] | None = None
    """Every seat's map tiles, once the log's seed is revealed (a replay); ``None`` before."""


def structuring_view(
    state: GameState, seat: str | None, *, revealed: bool = False
) -> StructuringView | None:
    """What ``seat`` may see of the structuring (``None`` when no map is being built): its
    own map tiles as ``hands`` is declared, every seat's once the seed is ``revealed``."""
    s = state.structuring
    if s is None:
        return None
    task = current_task(state)
    remaining = schedule(state)[s.placed :] if state.first >= 0 else ()
    return StructuringView(
        placing=task[1] if task else None,
        task=task[0] if task else None,
        hand=s.hands.get(seat, ())
        if seat is not None and sees(s, "hands", seat, item=seat)
        else None,
        hand_counts={civ: len(s.hands.get(civ, ())) for civ in state.seats},
        modifiers_left={
            civ: sum(1 for kind, who in remaining if kind == "modifier" and who == civ)
            for civ in state.seats
        },
        tiles=s.tiles,
        modifiers=s.modifiers,
        hands={civ: s.hands.get(civ, ()) for civ in state.seats} if revealed else None,
    )
