"""Structures (rules §8, N-STR-0..3): building them, what they do, and how they fall.

N-STR-1: :class:`Build` pays an unlocked structure's cost and places it in a zone holding
one of the builder's workers or adjacent to such a zone; never on a lake or a base, never
where enemy units are, on a zone that already has a structure, or on the victory-condition
marker (the map's ``strategy_zone``); at most the pack's ``copies`` of each on the map.

N-STR-2 / N-ABL-10: a structure affects its own zone, and with Radiance (pack flag
``radiance``) every adjacent zone too; the effects of several structures stack (N-FAQ-4),
so every function here sums over all the structures that affect a zone. Effects (N-STR-3)
live where they act: resources (:func:`production`), movement (:func:`movement_bonus`,
:func:`tunnel_links`, :func:`crosses_mountain`), combat (:func:`combat_boost`, and the Bone
Tower as a group, :func:`fighting_structures`), and the start of a turn
(:func:`turn_start_events`: Rift in the Wall, War Council).

Destruction: ending movement on an unoccupied enemy structure destroys it at once (N-MOV-5,
N-FAQ-3; :func:`overrun`); a zone where a player has a structure but no units while others
have units there is not a combat: the structure is destroyed (N-COMBAT-2, the Bone Tower
excepted: it fights as a group); the loser's structures in a combat zone are removed at
clean-up (N-COMBAT-28). A Soul Prison's cubes are lost with it.

**Rulings** (where neither the rulebook nor the pack says):

* Copies: ``copies`` limits a player's structures of one kind *on the map*; a destroyed
  structure's tile returns to its owner and may be built again.
* "No base or structure adjacent" (Farm, Barricade, Stable, Sacred Tree): none of the zones
  adjacent to the structure's own zone is a base (anyone's, destroyed or not) or holds a
  structure (anyone's).
* Structure production (Farm, Sacred Tree, Soul Prison) comes with the owner's gathering in
  the resources phase, as one :class:`StructuresProduced` event, never multiplied (N-RES-3).
  It needs no worker.
* Soul Prison: each enemy unit a group of the prison's owner defeats in combat (its attack
  or its Retaliation; not biome-card effects or injuries), anywhere on the map, puts one
  cube into the first of the owner's prisons, in building order, that has a free slot
  (``capacity`` from the pack); with every slot full the soul is lost. The cubes are folded
  from the ``attack_resolved`` event itself. A full prison pays 3 flare in each of its
  owner's resources phases and stays full (nothing in the rulebook empties it). Prisons
  also shorten the Naga's redirect distance (N-COMBAT-8, in ``combat_phase``).
* Rift in the Wall: at the start of its owner's turn each rift recruits one Goblin from the
  pool onto its zone, free (an empty pool recruits nothing, N-DEV-2/N-FAQ-10); rifts act in
  building order, before War Councils.
* War Council: at the start of its owner's turn each council whose affected zones hold at
  least 3 of the owner's combat units (workers do not count) draws one tactic card.
* Underground Tunnel: it may be built wherever N-STR-1 allows. When it stands on a mountain,
  its owner's units entering it do not stop there (they cross it as if flying). From a
  tunnel zone its owner's units may step to any other of their tunnels for 1 movement point
  (a step like any other: it ends on enemy units, it may be part of the canonical path).
* Outpost: Deception (one level per Outpost) and 1 attack bonus per unit per Outpost, for
  the owner's groups whose units stand in an affected zone (the combat zone, or the zone a
  Strategise group joined from). Barricade: 2 armor bonus per group (+1 when lonely), per
  Barricade. Reinforcement post: Reinforce 1 per post.
* Warcry Totem: each totem reaching a group gives it one Bloodthirst instance, carried per
  group (``Group.bloodthirst``, from
  :class:`~nataterra_core.games.nataterra.rules.combat.model.Boost`), so it works for a group of any
  civilisation; instances stack with each other and with the Beasts' own Bloodthirst (N-CIV-4): a
  damaged group gains 1 attack bonus per instance.
* Bone Tower: it joins every combat in its zone as a one-unit group of its owner with the
  pack's stat line (no injuries); it never moves, so when its side retreats it is destroyed
  (N-FAQ-20) and it never follows a retreat or an after-combat move. Killed, it is
  destroyed. It stops enemy movement like a unit (N-MOV-5) and bars retreats like any
  structure.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from nataterra_core.games.nataterra.content.schema import Structure
from nataterra_core.kernel import DiceStream, Event, IllegalCommand

from ..messages.development import (
    Build,
    StructureBuilt,
    StructureDestroyed,
    StructureRecruited,
    StructuresProduced,
)
from ..messages.tactics import TacticCardDrawn
from ..state import GameState, PlacedStructure, PlayerState, add_units
from . import teams
from .combat.model import Boost
from .context import Context
from .stock import Resources
from .tactics import draw_tactic_events

__all__ = [
    "affects",
    "combat_boost",
    "copies_left",
    "crosses_mountain",
    "decide_build",
    "fighting_structures",
    "imprison",
    "legal_builds",
    "lonely",
    "movement_bonus",
    "overrun",
    "production",
    "tunnel_links",
    "tunnel_zones",
    "turn_start_events",
]

RIFT_UNIT = "goblin"  # N-STR-3: Rift in the Wall recruits a Goblin
WAR_COUNCIL_UNITS = 3  # N-STR-3: at least 3 combat units in affected zones
PRISON_FLARE = 3  # N-STR-3: 3 flare per full Soul Prison


# -- where effects reach -----------------------------------------------------------------------


def _kind(ctx: Context, placed: PlacedStructure) -> Structure:
    return ctx.pack.structures[placed.structure]


def affects(ctx: Context, placed: PlacedStructure, zone: str) -> bool:
    """N-STR-2: its own zone, and with Radiance the adjacent ones."""
    return placed.zone == zone or (
        _kind(ctx, placed).radiance and ctx.map.adjacent(placed.zone, zone)
    )


def _affecting(
    ctx: Context, state: GameState, seat: str, structure: str, zone: str
) -> list[PlacedStructure]:
    """``seat``'s ``structure`` tiles whose effect reaches ``zone`` (they stack, N-FAQ-4)."""
    return [
        p
        for p in state.structures
        if p.owner == seat and p.structure == structure and affects(ctx, p, zone)
    ]


def lonely(ctx: Context, state: GameState, placed: PlacedStructure) -> bool:
    """No base and no structure in a zone adjacent to ``placed`` (the "+1 more" of N-STR-3)."""
    taken = {p.zone for p in state.structures}
    return not any(
        ctx.map.zones[z].base_owner is not None or z in taken
        for z in ctx.map.neighbours(placed.zone)
    )


def _graded(ctx: Context, state: GameState, placed: PlacedStructure, base: int) -> int:
    return base + (1 if lonely(ctx, state, placed) else 0)


# -- building ----------------------------------------------------------------------------------


_NO_DISCOUNT = Resources()


def copies_left(ctx: Context, state: GameState, seat: str, structure: str) -> int:
    """How many more ``structure`` tiles ``seat`` may place (Ruling: copies on the map)."""
    built = sum(1 for p in state.structures if p.owner == seat and p.structure == structure)
    return ctx.pack.structures[structure].copies - built


def _near_workers(ctx: Context, state: GameState, seat: str) -> set[str]:
    zones = {s.zone for s in state.stacks_of(seat) if s.unit in ctx.workers}
    return zones | {n for z in zones for n in ctx.map.neighbours(z)}


def _site_problem(ctx: Context, state: GameState, seat: str, zone: str) -> str | None:
    """Why ``seat`` may not build in ``zone`` (N-STR-1), or ``None``."""
    if zone not in ctx.map.zones:
        return f"there is no zone {zone!r}"
    place = ctx.map.zones[zone]
    if place.base_owner is not None:
        return f"{zone} is a base"
    if place.biome == "lake":
        return f"{zone} is a lake"
    if state.structure_in(zone) is not None:
        return f"{zone} already has a structure"
    if zone == ctx.map.strategy_zone:
        return f"{zone} holds a victory-condition marker"
    if any(not teams.allied(state, s.owner, seat) for s in state.stacks_in(zone)):
        return f"enemy units stand in {zone}"
    if zone not in _near_workers(ctx, state, seat):
        return f"{zone} neither holds one of your workers nor is adjacent to one"
    return None


def build_cost(
    ctx: Context, player: PlayerState, structure: str, discount: Resources = _NO_DISCOUNT
) -> Resources:
    """What ``player`` pays for ``structure``: its cost less the player's pending discount
    and ``discount`` (tactic cards, N-TAC-3)."""
    return Resources.of(ctx.pack.structures[structure].cost).discounted(
        player.structure_discount + discount
    )


def legal_builds(
    ctx: Context, state: GameState, seat: str, discount: Resources = _NO_DISCOUNT
) -> list[Build]:
    """Every (structure, zone) ``seat`` may build now (N-STR-1), ``discount`` off the cost."""
    player = state.player(seat)
    kinds = [
        s
        for s in dict.fromkeys(player.structures_unlocked)
        if player.stock.covers(build_cost(ctx, player, s, discount))
        and copies_left(ctx, state, seat, s)
    ]
    if not kinds:
        return []
    sites = [
        z for z in sorted(_near_workers(ctx, state, seat)) if not _site_problem(ctx, state, seat, z)
    ]
    return [Build(structure=s, zone=z) for s in kinds for z in sites]


def decide_build(
    ctx: Context, state: GameState, seat: str, command: Build, discount: Resources = _NO_DISCOUNT
) -> tuple[Event, ...]:
    """Check a build against N-STR-1 and produce :class:`StructureBuilt` (``discount`` off
    the cost)."""
    player = state.player(seat)
    if command.structure not in ctx.pack.structures:
        raise IllegalCommand("N-STR-0", f"there is no structure {command.structure!r}")
    if command.structure not in player.structures_unlocked:
        raise IllegalCommand("N-STR-1", f"{seat} has not unlocked {command.structure}")
    if copies_left(ctx, state, seat, command.structure) <= 0:
        raise IllegalCommand("N-STR-0", f"every copy of {command.structure} is on the map")
    problem = _site_problem(ctx, state, seat, command.zone)
    if problem is not None:
        raise IllegalCommand("N-STR-1", problem)
    cost = build_cost(ctx, player, command.structure, discount)
    if not player.stock.covers(cost):
        raise IllegalCommand(
            "N-STR-1", f"{command.structure} costs {cost}, the stock holds {player.stock}"
        )
    return (StructureBuilt(seat=seat, structure=command.structure, zone=command.zone, cost=cost),)


# -- resources ---------------------------------------------------------------------------------


def production(ctx: Context, state: GameState, seat: str) -> tuple[StructuresProduced, ...]:
    """N-STR-3: Farm food, Sacred Tree flare and full Soul Prisons' flare, not multiplied
    (N-RES-3); no event when ``seat``'s structures produce nothing."""
    food = flare = 0
    zones: list[str] = []
    for placed in state.structures:
        if placed.owner != seat:
            continue
        kind = _kind(ctx, placed)
        if placed.structure == "farm":
            food += _graded(ctx, state, placed, 1)
        elif placed.structure == "sacred_tree":
            flare += _graded(ctx, state, placed, 1)
        elif kind.capacity is not None and placed.cubes >= kind.capacity:
            flare += PRISON_FLARE
        else:
            continue
        zones.append(placed.zone)
    if not zones:
        return ()
    return (
        StructuresProduced(seat=seat, zones=tuple(zones), gain=Resources(food=food), flare=flare),
    )


# -- movement ----------------------------------------------------------------------------------


def movement_bonus(ctx: Context, state: GameState, seat: str, origin: str) -> int:
    """N-STR-3 Stable: +1 movement (+1 more when lonely) per Stable affecting ``origin``."""
    return sum(_graded(ctx, state, p, 1) for p in _affecting(ctx, state, seat, "stable", origin))


def _tunnels(state: GameState, seat: str) -> list[str]:
    return [
        p.zone for p in state.structures if p.owner == seat and p.structure == "underground_tunnel"
    ]


def tunnel_zones(state: GameState, seat: str) -> frozenset[str]:
    """The zones of ``seat``'s Underground Tunnels (N-STR-3)."""
    return frozenset(_tunnels(state, seat))


def tunnel_links(state: GameState, seat: str) -> dict[str, tuple[str, ...]]:
    """N-STR-3 Underground Tunnel: from each of ``seat``'s tunnels, the other tunnels one
    movement point away."""
    zones = _tunnels(state, seat)
    return {z: tuple(sorted(o for o in zones if o != z)) for z in zones if len(zones) > 1}


def crosses_mountain(ctx: Context, state: GameState, seat: str, zone: str) -> bool:
    """N-STR-3: ``seat``'s units cross its tunnel on a mountain as if flying."""
    return ctx.map.zones[zone].biome == "mountain" and zone in _tunnels(state, seat)


def fighting_structures(ctx: Context, state: GameState) -> list[PlacedStructure]:
    """Structures that count as units and fight as a group (the Bone Tower, N-STR-3)."""
    return [p for p in state.structures if _kind(ctx, p).combat is not None]


def overrun(
    ctx: Context, state: GameState, zones: Iterable[str], rule: str
) -> tuple[StructureDestroyed, ...]:
    """Structures in ``zones`` where enemies of the owner have units and neither the owner
    nor an ally has any: destroyed (N-MOV-5/N-FAQ-3 after a move, N-COMBAT-2 otherwise;
    N-TEAM-2 for allies). A Bone Tower fights."""
    destroyed = []
    for zone in sorted(set(zones)):
        placed = state.structure_in(zone)
        if placed is None or _kind(ctx, placed).combat is not None:
            continue
        owners = state.owners_in(zone)
        friends = set(teams.team_of(state, placed.owner))
        if owners and not owners & friends:
            destroyed.append(_destroyed(placed, rule))
    return tuple(destroyed)


def _destroyed(placed: PlacedStructure, rule: str) -> StructureDestroyed:
    return StructureDestroyed(
        owner=placed.owner,
        structure=placed.structure,
        zone=placed.zone,
        rule=rule,
        cubes=placed.cubes,
    )


def lost_combat(state: GameState, zone: str, loser: str) -> tuple[StructureDestroyed, ...]:
    """N-COMBAT-28: the loser's structures in the combat zone are removed at clean-up."""
    return tuple(
        _destroyed(p, "N-COMBAT-28")
        for p in state.structures
        if p.zone == zone and p.owner == loser
    )


# -- combat ------------------------------------------------------------------------------------


def combat_boost(ctx: Context, state: GameState, seat: str, zone: str) -> Boost | None:
    """What ``seat``'s structures give its groups whose units stand in ``zone`` (N-STR-3):
    Outpost, Barricade, Warcry Totem, Reinforcement post; ``None`` when nothing."""
    attack = armor = deception = reinforce = bloodthirst = 0
    for placed in state.structures:
        if placed.owner != seat or not affects(ctx, placed, zone):
            continue
        if placed.structure == "outpost":
            attack += 1
            deception += 1
        elif placed.structure == "barricade":
            armor += _graded(ctx, state, placed, 2)
        elif placed.structure == "warcry_totem":
            bloodthirst += 1
        elif placed.structure == "reinforcement_post":
            reinforce += 1
    boost = Boost(
        attack_per_unit=attack,
        armor_per_group=armor,
        deception=deception,
        reinforce=reinforce,
        bloodthirst=bloodthirst,
    )
    return None if boost == Boost() else boost


def imprison(ctx: Context, state: GameState, seat: str, souls: int) -> GameState:
    """N-STR-3 Soul Prison: ``souls`` defeated units fill ``seat``'s prisons' free slots."""
    if souls <= 0:
        return state
    structures = list(state.structures)
    left = souls
    for i, placed in enumerate(structures):
        capacity = _kind(ctx, placed).capacity
        if placed.owner != seat or capacity is None or placed.cubes >= capacity:
            continue
        added = min(left, capacity - placed.cubes)
        structures[i] = msgspec.structs.replace(placed, cubes=placed.cubes + added)
        left -= added
        if not left:
            break
    if left == souls:  # no prison with a free slot: the state as it was, not a copy
        return state
    return msgspec.structs.replace(state, structures=tuple(structures))


def prison_zones(ctx: Context, state: GameState, seat: str) -> list[str]:
    """Zones of ``seat``'s Soul Prisons (N-COMBAT-8 counts distance from them too)."""
    return [
        p.zone for p in state.structures if p.owner == seat and _kind(ctx, p).capacity is not None
    ]


# -- the start of a turn -----------------------------------------------------------------------


def turn_start_events(
    ctx: Context, state: GameState, seat: str, dice: DiceStream
) -> tuple[Event, ...]:
    """N-STR-3 at the start of ``seat``'s turn: each Rift in the Wall recruits a Goblin, then
    each War Council with 3 combat units in its affected zones draws a tactic card."""
    events: list[Event] = []
    goblins = state.player(seat).pool.get(RIFT_UNIT, 0)
    for placed in state.structures:
        if placed.owner == seat and placed.structure == "rift_in_the_wall" and goblins > 0:
            goblins -= 1
            events.append(
                StructureRecruited(
                    seat=seat, structure=placed.structure, unit=RIFT_UNIT, zone=placed.zone
                )
            )
    drawn = 0
    for placed in state.structures:
        if placed.owner != seat or placed.structure != "war_council":
            continue
        units = sum(
            s.count
            for s in state.stacks_of(seat)
            if s.unit not in ctx.workers and affects(ctx, placed, s.zone)
        )
        units += sum(
            1
            for p in fighting_structures(ctx, state)
            if p.owner == seat and affects(ctx, placed, p.zone)
        )
        if units >= WAR_COUNCIL_UNITS:
            cards = draw_tactic_events(state, seat, dice, drawn)
            drawn += sum(isinstance(e, TacticCardDrawn) for e in cards)
            events.extend(cards)
    return tuple(events)


# -- evolving ----------------------------------------------------------------------------------


def evolve_structure_built(state: GameState, event: StructureBuilt) -> GameState:
    """Pay (using up any structure discount); the structure stands in its zone."""
    player = state.player(event.seat)
    state = state.with_player(
        msgspec.structs.replace(
            player, stock=player.stock - event.cost, structure_discount=Resources()
        )
    )
    placed = PlacedStructure(event.seat, event.structure, event.zone)
    return msgspec.structs.replace(state, structures=(*state.structures, placed))


def evolve_structure_destroyed(state: GameState, event: StructureDestroyed) -> GameState:
    """The structure leaves the map with its cubes; its tile returns to its owner."""
    structures = tuple(
        p
        for p in state.structures
        if (p.owner, p.structure, p.zone) != (event.owner, event.structure, event.zone)
    )
    return msgspec.structs.replace(state, structures=structures)


def evolve_structures_produced(state: GameState, event: StructuresProduced) -> GameState:
    """Add the production to the stock and the flare tracker."""
    player = state.player(event.seat)
    return state.with_player(
        msgspec.structs.replace(
            player, stock=player.stock + event.gain, flare=player.flare + event.flare
        )
    )


def evolve_structure_recruited(state: GameState, event: StructureRecruited) -> GameState:
    """The token leaves the pool and stands on the structure's zone."""
    player = state.player(event.seat)
    pool = {**player.pool, event.unit: player.pool[event.unit] - 1}
    return state.with_player(
        msgspec.structs.replace(player, pool=pool),
        units=add_units(state.units, event.seat, event.unit, event.zone, 1),
    )
