"""The movement phase (rules §4, N-MOV-1..5).

One :class:`MoveUnits` command moves ``count`` not-yet-moved units of one type from one
zone along one path. The legal list offers every reachable destination once per count,
with the canonical path (shortest, then lexicographically smallest zone ids); ``decide``
accepts exactly those, and says which rule a refused path breaks.

Structures (N-STR-3, N-MOV-5): enemy structures never stop a move, except the Bone Tower,
which counts as a unit; ending a move on an unoccupied enemy structure destroys it at once
(a :class:`~..messages.development.StructureDestroyed` after the move). A
Stable adds movement to units starting in its reach; a player's Underground Tunnels link each
other (one step) and are crossed like flying when on a mountain. Movement tactic options
add movement or Stealth to the unmoved units of one zone for the turn (N-MOV-6).
"""

from __future__ import annotations

from typing import Any

import msgspec

from nataterra_core.kernel import Event, IllegalCommand

from ..messages.movement import MoveUnits, UnitsMoved
from ..state import GameState, UnitStack, ZoneGrant, move_units
from . import structures, teams
from .context import Context
from .pathfinding import reachable

__all__ = ["decide_move", "legal_moves"]


class _Terrain:
    """What the board means for all of one seat's movers in one state: the zones enemy units
    (and Bone Towers, N-MOV-5) hold, and the seat's tunnels (N-STR-3)."""

    __slots__ = ("enemies", "links", "tunnels")

    def __init__(self, ctx: Context, state: GameState, seat: str) -> None:
        towers = structures.fighting_structures(ctx, state) if state.structures else ()
        allies = teams.team_of(state, seat) if state.teams else (seat,)
        self.enemies = frozenset(
            [s.zone for s in state.units if s.owner not in allies]
            + [p.zone for p in towers if p.owner not in allies]
        )
        self.links = structures.tunnel_links(state, seat) if state.structures else {}
        # N-STR-3: a tunnel on a mountain is crossed as if flying (see crosses_mountain)
        self.tunnels = structures.tunnel_zones(state, seat) if state.structures else frozenset()

    def enemies_within(self, ctx: Context, origin: str, movement: int) -> frozenset[str]:
        """The enemy zones a move of ``movement`` steps from ``origin`` could pass through
        (fewer steps away than ``movement``; the last step may end anywhere): the only ones
        its destinations depend on (N-MOV-4). Enemies elsewhere change every turn but leave
        the destinations alone, so keying the reach memo by these keeps it valid from turn to
        turn (and game to game). Tunnels link far zones: then every enemy counts."""
        if self.links:
            return self.enemies
        steps = _steps_from(ctx, origin)
        return frozenset(z for z in self.enemies if steps.get(z, movement) < movement)


def _steps_from(ctx: Context, origin: str) -> dict[str, int]:
    """Steps from ``origin`` to every zone over the bare map (remembered per map)."""
    key = ("steps", origin)
    found: dict[str, int] | None = ctx.reach.get(key)
    if found is None:
        found = ctx.map.steps_from(origin)
        _remember(ctx.reach, key, found)
    return found


class _Mover:
    """What the terrain and the other players' units mean for one stack of movers."""

    __slots__ = ("ctx", "flying", "movement", "naga_base", "seat", "state", "stealth", "terrain")

    def __init__(
        self, ctx: Context, state: GameState, seat: str, unit: str, terrain: _Terrain | None = None
    ) -> None:
        player = state.player(seat)
        self.ctx = ctx
        self.state = state
        self.seat = seat
        self.movement = ctx.unit(unit).movement + player.movement_mods.get(unit, 0)
        self.flying = ctx.ability(player, unit, "flying") > 0
        self.stealth = ctx.ability(player, unit, "stealth")
        self.terrain = terrain or _Terrain(ctx, state, seat)
        self.naga_base = ctx.map.bases.get("naga")

    def movement_from(self, origin: str) -> int:
        """The movement of units starting in ``origin`` (a Stable adds some, N-STR-3, and
        so do movement tactic options, N-MOV-6)."""
        movement = self.movement
        if self.state.structures:
            movement += structures.movement_bonus(self.ctx, self.state, self.seat, origin)
        if self.state.zone_grants:
            movement += sum(g.movement for g in self._grants(origin))
        return movement

    def stealth_from(self, origin: str) -> int:
        """The Stealth of units starting in ``origin`` (N-MOV-4; tactic options add some)."""
        if not self.state.zone_grants:
            return self.stealth
        return self.stealth + sum(g.stealth for g in self._grants(origin))

    def _grants(self, origin: str) -> list[ZoneGrant]:
        return [g for g in self.state.zone_grants if g.seat == self.seat and g.zone == origin]

    def neighbours(self, zone_id: str) -> tuple[str, ...]:
        """Adjacent zones, and from one of the mover's tunnels its other tunnels (N-STR-3)."""
        linked = self.terrain.links.get(zone_id)
        if not linked:
            return self.ctx.map.neighbours(zone_id)
        return tuple(sorted({*self.ctx.map.neighbours(zone_id), *linked}))

    def linked(self, here: str, step: str) -> bool:
        """Whether one step leads from ``here`` to ``step``."""
        return self.ctx.map.adjacent(here, step) or step in self.terrain.links.get(here, ())

    def can_enter(self, zone_id: str) -> bool:
        """N-MOV-2: no lakes unless flying; the Naga base counts as a lake anyone may enter."""
        return (
            self.flying or zone_id == self.naga_base or self.ctx.map.zones[zone_id].biome != "lake"
        )

    def ends_move(self, zone_id: str) -> bool:
        """N-MOV-2: entering a mountain ends the move, unless flying or crossing one's own
        tunnel (N-STR-3, :func:`structures.crosses_mountain`)."""
        if self.flying or self.ctx.map.zones[zone_id].biome != "mountain":
            return False
        return zone_id not in self.terrain.tunnels

    def enemy_occupied(self, zone_id: str) -> bool:
        """N-MOV-4: a zone holding at least one enemy unit."""
        return zone_id in self.terrain.enemies

    def reach_key(self, origin: str) -> _ReachKey:
        """Everything the destinations from ``origin`` depend on (the map aside): moves that
        leave these unchanged leave the destinations unchanged."""
        terrain = self.terrain
        movement = self.movement_from(origin)
        return (
            origin,
            movement,
            self.stealth_from(origin),
            self.flying,
            terrain.enemies_within(self.ctx, origin, movement),
            terrain.tunnels,
        )

    def destinations(self, origin: str) -> dict[str, tuple[str, ...]]:
        """Every destination from ``origin`` with its canonical path (searched once per
        :meth:`reach_key` and map, then remembered)."""
        key = self.reach_key(origin)
        memo = self.ctx.reach
        found: dict[str, tuple[str, ...]] | None = memo.get(key)
        if found is None:
            found = reachable(
                origin,
                key[1],
                self.neighbours,
                can_enter=self.can_enter,
                ends_move=self.ends_move,
                enemy_occupied=self.enemy_occupied,
                stealth=key[2],
            )
            _remember(memo, key, found)
        return found


_ReachKey = tuple[str, int, int, bool, frozenset[str], frozenset[str]]

_MEMO_SIZE = 20_000
"""Entries a map's reach memo holds before it starts afresh (a game needs a few hundred)."""


def _remember(memo: dict[object, Any], key: object, value: object) -> None:
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[key] = value


def legal_moves(ctx: Context, state: GameState, seat: str) -> list[MoveUnits]:
    """Every move ``seat`` may make now: each stack, destination and count (N-MOV-1).

    Incremental across a movement phase: a stack's moves depend only on its unit, unmoved
    count and :meth:`_Mover.reach_key`, which a move of another stack rarely changes, so
    each stack's list is built once per such key and map and reused (the same instances)
    until a move changes what it depends on.
    """
    moves: list[MoveUnits] = []
    movers: dict[str, _Mover] = {}
    terrain: _Terrain | None = None
    memo = ctx.reach
    # Without structures and movement options, a stack's movement and Stealth are its
    # type's, so within a turn (same enemies) its list is found by one cheap key.
    plain = not state.structures and not state.zone_grants
    for stack in state.units:
        if stack.owner != seat or stack.unmoved == 0:
            continue
        mover = movers.get(stack.unit)
        if mover is None:
            terrain = terrain or _Terrain(ctx, state, seat)
            mover = movers[stack.unit] = _Mover(ctx, state, seat, stack.unit, terrain)
        if plain:
            quick = (stack.zone, stack.unit, stack.unmoved, mover.movement, mover.stealth)
            listed = memo.get((quick, mover.flying, mover.terrain.enemies))
            if listed is None:
                listed = _stack_moves(memo, mover, stack)
                _remember(memo, (quick, mover.flying, mover.terrain.enemies), listed)
        else:
            listed = _stack_moves(memo, mover, stack)
        moves.extend(listed)
    return moves


def _stack_moves(memo: dict[object, Any], mover: _Mover, stack: UnitStack) -> tuple[MoveUnits, ...]:
    """The moves of one stack, remembered by what they depend on (:meth:`_Mover.reach_key`)."""
    key = (mover.reach_key(stack.zone), stack.unit, stack.unmoved)
    listed: tuple[MoveUnits, ...] | None = memo.get(key)
    if listed is None:
        listed = tuple(
            MoveUnits(unit=stack.unit, origin=stack.zone, count=k, path=path)
            for _, path in sorted(mover.destinations(stack.zone).items())
            for k in range(1, stack.unmoved + 1)
        )
        _remember(memo, key, listed)
    return listed


def decide_move(
    ctx: Context, state: GameState, seat: str, command: MoveUnits, *, listed: bool = False
) -> tuple[Event, ...]:
    """Check the move against N-MOV-1..4 and produce :class:`UnitsMoved`.

    ``listed``: the command is one :func:`legal_moves` gave for this state, so the checks
    (and the path search they need) are skipped.
    """
    if not listed:
        _check_move(ctx, state, seat, command)
    moved = UnitsMoved(
        seat=seat,
        unit=command.unit,
        origin=command.origin,
        count=command.count,
        path=command.path,
    )
    # N-MOV-5/N-FAQ-3: stopping on an unoccupied enemy structure destroys it at once.
    placed = state.structure_in(command.path[-1]) if state.structures else None
    if placed is None or teams.allied(state, placed.owner, seat):
        return (moved,)
    after = evolve_units_moved(state, moved)
    return (moved, *structures.overrun(ctx, after, (placed.zone,), "N-MOV-5"))


def _check_move(ctx: Context, state: GameState, seat: str, command: MoveUnits) -> None:
    """Name the rule a move breaks (N-TURN-1, N-MOV-1..4), if any."""
    if state.phase != "movement":
        raise IllegalCommand("N-TURN-1", f"units move in the movement phase, not {state.phase}")
    stack = next(
        (s for s in state.stacks_of(seat) if s.key == (seat, command.unit, command.origin)), None
    )
    if stack is None:
        raise IllegalCommand("N-MOV-1", f"you have no {command.unit} in {command.origin}")
    if not 1 <= command.count <= stack.unmoved:
        raise IllegalCommand(
            "N-MOV-1",
            f"{stack.unmoved} {command.unit} in {command.origin} may still move, "
            f"not {command.count}",
        )
    mover = _Mover(ctx, state, seat, command.unit)
    _check_path(ctx, mover, command)
    canonical = mover.destinations(command.origin).get(command.path[-1])
    if canonical != command.path:
        raise IllegalCommand(
            "N-MOV-1", f"the path to {command.path[-1]} must be the canonical one, {canonical}"
        )


def _check_path(ctx: Context, mover: _Mover, command: MoveUnits) -> None:
    """Name the rule a path breaks, step by step."""
    path = command.path
    if not path:
        raise IllegalCommand("N-MOV-1", "a move needs at least one step")
    movement = mover.movement_from(command.origin)
    if len(path) > movement:
        raise IllegalCommand(
            "N-MOV-1", f"{command.unit} moves at most {movement} zones, not {len(path)}"
        )
    here, stealth_left = command.origin, mover.stealth_from(command.origin)
    for step in path:
        if step not in ctx.map.zones or not mover.linked(here, step):
            raise IllegalCommand("N-MOV-1", f"{step} is not adjacent to {here}")
        if step == command.origin:
            raise IllegalCommand("N-MOV-1", "a move may not return to its starting zone")
        if not mover.can_enter(step):
            raise IllegalCommand("N-MOV-2", f"units cannot enter the lake {step}")
        if step != path[-1]:
            if mover.ends_move(step):
                raise IllegalCommand("N-MOV-2", f"entering the mountain {step} ends the move")
            if mover.enemy_occupied(step):
                if stealth_left == 0:
                    raise IllegalCommand(
                        "N-MOV-4", f"entering {step}, held by an enemy, ends the move"
                    )
                stealth_left -= 1
        here = step


def evolve_units_moved(state: GameState, event: UnitsMoved) -> GameState:
    """Take the units from the origin's unmoved ones and add them, moved, at the destination."""
    destination = event.path[-1]
    units = move_units(state.units, event.seat, event.unit, event.origin, destination, event.count)
    entered = state.entered
    if entered.get(destination) != event.seat:  # N-COMBAT-3: who moved in last
        entered = entered.copy()  # a copy and a store: cheaper than {**entered, ...}
        entered[destination] = event.seat
    return msgspec.structs.replace(state, units=units, entered=entered)
