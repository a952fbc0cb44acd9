"""The movement phase (rules §4, N-MOV-1..5).

One :class:`MoveUnits` command moves ``count`` not-yet-moved units of one type from one
zone along one path. The legal list offers every reachable destination once per count,
with the canonical path (shortest, then lexicographically smallest zone ids); ``decide``
accepts exactly those, and says which rule a refused path breaks.

Structures (N-STR-3, N-MOV-5): enemy structures never stop a move, except the Bone Tower,
which counts as a unit; ending a move on an unoccupied enemy structure destroys it at once
(a :class:`~nataterra_core.games.nataterra.rules.structures.StructureDestroyed` after the move). A
Stable adds movement to units starting in its reach; a player's Underground Tunnels link each
other (one step) and are crossed like flying when on a mountain. Movement tactic options
add movement or Stealth to the unmoved units of one zone for the turn (N-MOV-6).
"""

from __future__ import annotations

import msgspec

from nataterra_core.kernel import Command, Event, IllegalCommand
from nataterra_core.kernel.visibility import PUBLIC

from . import structures, teams
from .context import Context
from .pathfinding import reachable
from .state import GameState, ZoneGrant, add_units, remove_units

__all__ = ["COMMANDS", "EVENTS", "MoveUnits", "UnitsMoved", "decide_move", "legal_moves"]


class MoveUnits(Command, frozen=True, tag="move_units.v1"):
    """Move ``count`` unmoved ``unit`` tokens from ``origin`` along ``path`` (start excluded)."""

    visibility = PUBLIC

    unit: str
    origin: str
    count: int
    path: tuple[str, ...]


class UnitsMoved(Event, frozen=True, tag="units_moved.v1"):
    """``count`` of ``seat``'s ``unit`` went from ``origin`` along ``path``."""

    visibility = PUBLIC

    seat: str
    unit: str
    origin: str
    count: int
    path: tuple[str, ...]


COMMANDS: tuple[type[Command], ...] = (MoveUnits,)
EVENTS: tuple[type[Event], ...] = (UnitsMoved,)


class _Mover:
    """What the terrain and the other players' units mean for one stack of movers."""

    __slots__ = (
        "ctx",
        "enemies",
        "flying",
        "links",
        "movement",
        "naga_base",
        "seat",
        "state",
        "stealth",
    )

    def __init__(self, ctx: Context, state: GameState, seat: str, unit: str) -> None:
        player = state.player(seat)
        self.ctx = ctx
        self.state = state
        self.seat = seat
        self.movement = ctx.unit(unit).movement + player.movement_mods.get(unit, 0)
        self.flying = ctx.ability(player, unit, "flying") > 0
        self.stealth = ctx.ability(player, unit, "stealth")
        towers = structures.fighting_structures(ctx, state)  # N-MOV-5: a unit for movement
        self.enemies = frozenset(
            [s.zone for s in state.units if not teams.allied(state, s.owner, seat)]
            + [p.zone for p in towers if not teams.allied(state, p.owner, seat)]
        )
        self.naga_base = ctx.map.bases.get("naga")
        self.links = structures.tunnel_links(state, seat)

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
        linked = self.links.get(zone_id)
        if not linked:
            return self.ctx.map.neighbours(zone_id)
        return tuple(sorted({*self.ctx.map.neighbours(zone_id), *linked}))

    def linked(self, here: str, step: str) -> bool:
        """Whether one step leads from ``here`` to ``step``."""
        return self.ctx.map.adjacent(here, step) or step in self.links.get(here, ())

    def can_enter(self, zone_id: str) -> bool:
        """N-MOV-2: no lakes unless flying; the Naga base counts as a lake anyone may enter."""
        return (
            self.flying or zone_id == self.naga_base or self.ctx.map.zones[zone_id].biome != "lake"
        )

    def ends_move(self, zone_id: str) -> bool:
        """N-MOV-2: entering a mountain ends the move, unless flying or crossing one's own
        tunnel (N-STR-3)."""
        if self.flying or self.ctx.map.zones[zone_id].biome != "mountain":
            return False
        return not structures.crosses_mountain(self.ctx, self.state, self.seat, zone_id)

    def enemy_occupied(self, zone_id: str) -> bool:
        """N-MOV-4: a zone holding at least one enemy unit."""
        return zone_id in self.enemies

    def destinations(self, origin: str) -> dict[str, tuple[str, ...]]:
        """Every destination from ``origin`` with its canonical path."""
        return reachable(
            origin,
            self.movement_from(origin),
            self.neighbours,
            can_enter=self.can_enter,
            ends_move=self.ends_move,
            enemy_occupied=self.enemy_occupied,
            stealth=self.stealth_from(origin),
        )


def legal_moves(ctx: Context, state: GameState, seat: str) -> list[MoveUnits]:
    """Every move ``seat`` may make now: each stack, destination and count (N-MOV-1)."""
    moves: list[MoveUnits] = []
    movers: dict[str, _Mover] = {}
    for stack in state.stacks_of(seat):
        if stack.unmoved == 0:
            continue
        mover = movers.get(stack.unit) or movers.setdefault(
            stack.unit, _Mover(ctx, state, seat, stack.unit)
        )
        for _, path in sorted(mover.destinations(stack.zone).items()):
            moves.extend(
                MoveUnits(unit=stack.unit, origin=stack.zone, count=k, path=path)
                for k in range(1, stack.unmoved + 1)
            )
    return moves


def decide_move(ctx: Context, state: GameState, seat: str, command: MoveUnits) -> tuple[Event, ...]:
    """Check the move against N-MOV-1..4 and produce :class:`UnitsMoved`."""
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
    moved = UnitsMoved(
        seat=seat,
        unit=command.unit,
        origin=command.origin,
        count=command.count,
        path=command.path,
    )
    # N-MOV-5/N-FAQ-3: stopping on an unoccupied enemy structure destroys it at once.
    placed = state.structure_in(command.path[-1])
    if placed is None or teams.allied(state, placed.owner, seat):
        return (moved,)
    after = evolve_units_moved(state, moved)
    return (moved, *structures.overrun(ctx, after, (placed.zone,), "N-MOV-5"))


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
    units = remove_units(state.units, event.seat, event.unit, event.origin, event.count)
    units = add_units(units, event.seat, event.unit, event.path[-1], event.count, moved=event.count)
    entered = {**state.entered, event.path[-1]: event.seat}  # N-COMBAT-3
    return msgspec.structs.replace(state, units=units, entered=entered)
