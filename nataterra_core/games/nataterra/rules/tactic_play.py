"""Tactic-card options outside combat: the movement, resource and development phases.

N-TURN-2 and N-TAC-2: in each of these phases the active player may play one option of that
phase's kind. N-TAC-1: playing an option discards the whole card and pays the option's
costs (resources, flare, and for some options another card of the player's choice).
N-TAC-3: options take effect at once, so a structure a card unlocks may be built in the same
development phase (N-FAQ-16). Movement options give the unmoved units of one zone extra
movement or Stealth for the turn (N-MOV-6); resource options gain resources and flare that
are never multiplied (N-RES-3); development options recruit, replace, build, destroy,
unlock and discount.

Every choice an option asks for (a zone, a structure, a card to discard) is a field of the
:class:`~nataterra_core.games.nataterra.messages.combat.PlayTactic` command, and the legal
list offers one command per combination. The combat windows are :mod:`.combat.tactics`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from nataterra_core.games.nataterra.content.schema import EffectSpec, TacticOption, ZoneFilter
from nataterra_core.kernel import DiceStream, Event, IllegalCommand

from ..messages.combat import PlayTactic
from ..messages.development import Build, Recruited, StructureDestroyed
from ..messages.tactics import (
    DiscountGranted,
    MovementGranted,
    ResourcesGained,
    StructureUnlocked,
    TacticOptionPlayed,
    UnitReplaced,
)
from ..state import GameState, PlayerState, ZoneGrant, add_units, remove_units
from . import development, structures
from .context import Context
from .stock import Resources
from .tactics import draw_tactic_events

__all__ = ["EVOLVE", "PHASE_WINDOWS", "ZONE_EFFECTS", "counted", "decide_play", "legal_plays"]

PHASE_WINDOWS = {"movement": "movement", "resources": "resource", "development": "development"}
"""The option kind each phase lets the active player play (N-TURN-2)."""

ZONE_EFFECTS = frozenset(
    {"extra_movement", "grant_stealth", "recruit", "replace_unit", "destroy_structure"}
)
"""The effects of a phase option that choose a zone (the ``zone`` of its command)."""


# -- what an option may choose --------------------------------------------------------------


def _is_lakeside(ctx: Context, zone: str) -> bool:
    """A lake, or a zone next to one (the Naga base counts as a lake, N-MOV-2)."""
    naga_base = ctx.map.bases.get("naga")

    def lake(z: str) -> bool:
        return z == naga_base or ctx.map.zones[z].biome == "lake"

    return lake(zone) or any(lake(n) for n in ctx.map.neighbours(zone))


def zone_passes(ctx: Context, zone: str, zone_filter: ZoneFilter) -> bool:
    """Whether ``zone``'s terrain fits a biome filter (``any`` and non-biome filters pass)."""
    if zone_filter == "lakeside":
        return _is_lakeside(ctx, zone)
    if zone_filter in ("forest", "swamp", "hills", "desert"):
        return ctx.map.zones[zone].biome == zone_filter
    return True


def _combat_units_by_zone(ctx: Context, state: GameState, seat: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for stack in state.stacks_of(seat):
        if stack.unit not in ctx.workers:
            counts[stack.zone] = counts.get(stack.zone, 0) + stack.count
    return counts


def condition_met(ctx: Context, state: GameState, seat: str, option: TacticOption) -> bool:
    """N-TAC-1: at least ``min_units`` of ``seat``'s combat units in one zone of the biome."""
    if option.min_units <= 0:
        return True
    return any(
        count >= option.min_units and zone_passes(ctx, zone, option.units_in_biome)
        for zone, count in _combat_units_by_zone(ctx, state, seat).items()
    )


def _zones(ctx: Context, state: GameState, seat: str, spec: EffectSpec) -> list[str]:
    """The zones a zone-targeted effect may choose, in id order."""
    kind = spec.kind
    if kind in ("extra_movement", "grant_stealth"):  # N-MOV-6: units that have not moved
        zones = {s.zone for s in state.stacks_of(seat) if s.unmoved}
        return sorted(z for z in zones if zone_passes(ctx, z, spec.zone_filter))
    if kind == "replace_unit":
        return sorted({s.zone for s in state.stacks_of(seat) if s.unit == spec.replaces})
    if kind == "destroy_structure":
        return [p.zone for p in state.structures if p.owner == seat]
    if kind != "recruit":
        return []
    if spec.zone_filter == "structure":
        return sorted(
            p.zone
            for p in state.structures
            if p.owner == seat and (not spec.structure or p.structure == spec.structure)
        )
    if spec.zone_filter == "unmoved_units":
        unmoved: dict[str, int] = {}
        for stack in state.stacks_of(seat):
            if stack.unit not in ctx.workers:
                unmoved[stack.zone] = unmoved.get(stack.zone, 0) + stack.unmoved
        return sorted(z for z, n in unmoved.items() if n >= spec.at_least)
    holding = {s.zone: s.count for s in state.stacks_of(seat) if s.unit == spec.unit}
    return sorted(
        z
        for z, n in holding.items()
        if n >= max(1, spec.at_least) and zone_passes(ctx, z, spec.zone_filter)
    )


def _unit_available(player: PlayerState, spec: EffectSpec) -> bool:
    """N-DEV-2: a recruit needs a token in the pool, whatever the source."""
    if spec.kind in ("recruit", "replace_unit"):
        return player.pool.get(spec.unit, 0) > 0
    return True


def _choices(
    ctx: Context, state: GameState, seat: str, card: str, option: TacticOption
) -> Iterator[tuple[str | None, str | None, str | None]]:
    """Every (zone, structure, discard) the option may be played with."""
    player = state.player(seat)
    if not all(_unit_available(player, e) for e in option.effects):
        return
    discards: list[str | None] = [None]
    if option.discards:
        others = list(player.tactic_hand)
        others.remove(card)
        discards = list(dict.fromkeys(others))
    sites: list[tuple[str | None, str | None]] = [(None, None)]
    for spec in option.effects:
        if spec.kind == "build_structure":
            discount = Resources.of(spec.resources)
            sites = [
                (b.zone, b.structure)
                for b in structures.legal_builds(ctx, state, seat, discount=discount)
            ]
        elif spec.kind in ZONE_EFFECTS:
            sites = [(z, None) for z in _zones(ctx, state, seat, spec)]
    for (zone, structure), discard in itertools.product(sites, discards):
        yield zone, structure, discard


def _affordable(player: PlayerState, option: TacticOption) -> bool:
    return player.stock.covers(Resources.of(option.cost)) and player.flare >= option.flare


def legal_plays(ctx: Context, state: GameState, seat: str) -> list[PlayTactic]:
    """Every option ``seat`` may play in the current phase, one command per choice."""
    window = PHASE_WINDOWS.get(state.phase)
    if window is None or state.phase in state.tactic_phases:
        return []
    if window == "resource" and seat in state.conquered:  # N-WIN-5: the phase is skipped
        return []
    player = state.player(seat)
    plays: list[PlayTactic] = []
    for card_id in dict.fromkeys(player.tactic_hand):
        for index, option in enumerate(ctx.pack.tactics[card_id].options):
            if option.window != window or not _affordable(player, option):
                continue
            if not condition_met(ctx, state, seat, option):
                continue
            plays.extend(
                PlayTactic(card=card_id, option=index, zone=z, structure=s, discard=d)
                for z, s, d in _choices(ctx, state, seat, card_id, option)
            )
    return plays


# -- playing ----------------------------------------------------------------------------------


def decide_play(
    ctx: Context,
    state: GameState,
    seat: str,
    command: PlayTactic,
    dice: DiceStream,
    fold: Callable[[GameState, Event], GameState],
) -> tuple[Event, ...]:
    """Check a play against N-TURN-2 and N-TAC-1..3 and produce its events; ``fold`` is the
    game's ``evolve``, so that each effect sees the ones before it."""
    player = state.player(seat)
    if command.card not in player.tactic_hand:
        raise IllegalCommand("N-TAC-1", f"{command.card!r} is not in {seat}'s hand")
    options = ctx.pack.tactics[command.card].options
    if not 0 <= command.option < len(options):
        raise IllegalCommand("N-TAC-1", f"{command.card} has no option {command.option}")
    option = options[command.option]
    window = PHASE_WINDOWS.get(state.phase)
    if option.window != window:
        raise IllegalCommand(
            "N-TURN-2", f"a {option.window} option cannot be played in the {state.phase} phase"
        )
    if state.phase in state.tactic_phases:
        raise IllegalCommand(
            "N-TURN-2", f"you have already played a tactic option in this {state.phase} phase"
        )
    if window == "resource" and seat in state.conquered:
        raise IllegalCommand("N-WIN-5", "a conquered player skips its resources phase")
    if not _affordable(player, option):
        raise IllegalCommand(
            "N-TAC-1",
            f"the option costs {Resources.of(option.cost)} and {option.flare} flare; you hold "
            f"{player.stock} and {player.flare} flare",
        )
    if not condition_met(ctx, state, seat, option):
        raise IllegalCommand(
            "N-TAC-1",
            f"the option needs {option.min_units} of your combat units in one "
            f"{option.units_in_biome} zone",
        )
    if command.target is not None or command.player is not None:
        raise IllegalCommand("N-TAC-1", "options outside combat choose no group and no player")
    choice = (command.zone, command.structure, command.discard)
    if choice not in set(_choices(ctx, state, seat, command.card, option)):
        raise IllegalCommand("N-TAC-1", _why_not(ctx, state, seat, command, option))
    played = TacticOptionPlayed(
        seat=seat,
        card=command.card,
        option=command.option,
        phase=state.phase,
        cost=Resources.of(option.cost),
        flare=option.flare,
        discarded=command.discard,
    )
    events: list[Event] = [played]
    after = fold(state, played)
    for spec in option.effects:
        for _ in range(spec.amount if spec.kind == "draw_tactic" else 1):
            produced = _effect_events(ctx, after, seat, spec, command, dice)
            for event in produced:
                after = fold(after, event)
            events.extend(produced)
    return tuple(events)


def _why_not(
    ctx: Context, state: GameState, seat: str, command: PlayTactic, option: TacticOption
) -> str:
    """Why a choice is not among the legal ones, as specifically as we can say."""
    player = state.player(seat)
    if option.discards and (command.discard is None or command.discard == command.card):
        return "this option needs another tactic card of your hand to discard"
    if option.discards and command.discard not in player.tactic_hand:
        return f"{command.discard!r} is not in your hand"
    for spec in option.effects:
        if not _unit_available(player, spec):
            return f"N-DEV-2: no {spec.unit} token in your pool"
        if spec.kind == "build_structure":
            return f"N-STR-1: {command.structure} cannot be built in {command.zone}"
        if spec.kind in ZONE_EFFECTS:
            return f"{command.zone!r} is not a zone this option may choose"
    return "this option takes no zone, structure or discard"


def _effect_events(
    ctx: Context,
    state: GameState,
    seat: str,
    spec: EffectSpec,
    command: PlayTactic,
    dice: DiceStream,
) -> tuple[Event, ...]:
    """The events of one effect (one card of a draw), given ``state`` after the option's
    earlier effects."""
    kind, zone = spec.kind, command.zone
    if kind == "draw_tactic":
        return draw_tactic_events(state, seat, dice)
    if kind == "gain_resources":
        times = counted(ctx, state, seat, spec) if spec.per else 1
        return (ResourcesGained(seat=seat, resources=Resources.of(spec.resources).scaled(times)),)
    if kind == "gain_flare":
        return (ResourcesGained(seat=seat, flare=spec.amount),)
    if kind in ("extra_movement", "grant_stealth") and zone is not None:
        stealth = kind == "grant_stealth"
        return (
            MovementGranted(
                seat=seat,
                zone=zone,
                movement=0 if stealth else spec.amount,
                stealth=spec.amount if stealth else 0,
            ),
        )
    if kind == "recruit" and zone is not None:
        tokens = min(max(1, spec.amount), state.player(seat).pool.get(spec.unit, 0))
        return tuple(
            Recruited(seat=seat, unit=spec.unit, zone=zone, cost=Resources()) for _ in range(tokens)
        )
    if kind == "replace_unit" and zone is not None:
        return (UnitReplaced(seat=seat, zone=zone, removed=spec.replaces, recruited=spec.unit),)
    if kind == "build_structure" and zone is not None and command.structure is not None:
        build = Build(structure=command.structure, zone=zone)
        return structures.decide_build(
            ctx, state, seat, build, discount=Resources.of(spec.resources)
        )
    if kind == "destroy_structure" and zone is not None:
        placed = state.structure_in(zone)
        assert placed is not None and placed.owner == seat
        destroyed = StructureDestroyed(
            owner=seat, structure=placed.structure, zone=zone, rule="N-TAC-3", cubes=placed.cubes
        )
        if not spec.amount:
            return (destroyed,)
        cost = ctx.pack.structures[placed.structure].cost
        refund = Resources(wood=spec.amount * (cost.food + cost.wood + cost.metal))
        return (destroyed, ResourcesGained(seat=seat, resources=refund))
    if kind == "unlock_structure":
        unlocked = development.next_locked_structure(
            ctx, seat, state.player(seat).structures_unlocked
        )
        return () if unlocked is None else (StructureUnlocked(seat=seat, structure=unlocked),)
    if kind in ("structure_discount", "tech_discount"):
        which = kind.removesuffix("_discount")
        return (DiscountGranted(seat=seat, kind=which, amount=Resources.of(spec.resources)),)
    raise ValueError(f"{kind!r} is not an effect of the {state.phase} phase")


def counted(ctx: Context, state: GameState, seat: str, spec: EffectSpec) -> int:
    """How many things a per-thing gain counts for ``seat`` (see
    :data:`~nataterra_core.games.nataterra.content.schema.CountBasis`), once the option is
    played."""
    player = state.player(seat)
    if spec.per == "units":
        if spec.side and player.sides.get(spec.unit) != spec.side:
            return 0
        return sum(
            s.count
            for s in state.stacks_of(seat)
            if s.unit == spec.unit and zone_passes(ctx, s.zone, spec.zone_filter)
        )
    if spec.per == "structures":
        return sum(1 for p in state.structures if p.owner == seat)
    if spec.per == "unit_techs":
        return len(player.techs)
    if spec.per == "tactics_in_hand":  # the played card included, though it has left
        return len(player.tactic_hand) + 1
    raise ValueError(f"unknown count basis {spec.per!r}")


# -- evolving ---------------------------------------------------------------------------------


def evolve_tactic_option_played(state: GameState, event: TacticOptionPlayed) -> GameState:
    """Discard the card (and a discarded one), pay, and close the phase's window."""
    player = state.player(event.seat)
    hand = list(player.tactic_hand)
    hand.remove(event.card)
    discard = [event.card]
    if event.discarded is not None:
        hand.remove(event.discarded)
        discard.append(event.discarded)
    player = msgspec.structs.replace(
        player,
        tactic_hand=tuple(hand),
        tactic_discard=(*player.tactic_discard, *discard),
        stock=player.stock - event.cost,
        flare=player.flare - event.flare,
    )
    state = state.with_player(player)
    return msgspec.structs.replace(state, tactic_phases=(*state.tactic_phases, event.phase))


def evolve_movement_granted(state: GameState, event: MovementGranted) -> GameState:
    """Record the grant for this turn (the turn's start clears it)."""
    grant = ZoneGrant(event.seat, event.zone, event.movement, event.stealth)
    return msgspec.structs.replace(state, zone_grants=(*state.zone_grants, grant))


def evolve_unit_replaced(state: GameState, event: UnitReplaced) -> GameState:
    """The removed unit returns to the pool; the recruited one leaves it for the zone."""
    player = state.player(event.seat)
    pool = dict(player.pool)
    pool[event.removed] = pool.get(event.removed, 0) + 1
    pool[event.recruited] = pool[event.recruited] - 1
    state = state.with_player(msgspec.structs.replace(player, pool=pool))
    units = remove_units(state.units, event.seat, event.removed, event.zone, 1)
    units = add_units(units, event.seat, event.recruited, event.zone, 1)
    return msgspec.structs.replace(state, units=units)


def evolve_discount_granted(state: GameState, event: DiscountGranted) -> GameState:
    """Discounts of one kind add up until the next structure or tech uses them."""
    player = state.player(event.seat)
    if event.kind == "structure":
        player = msgspec.structs.replace(
            player, structure_discount=player.structure_discount + event.amount
        )
    else:
        player = msgspec.structs.replace(player, tech_discount=player.tech_discount + event.amount)
    return state.with_player(player)


def evolve_structure_unlocked(state: GameState, event: StructureUnlocked) -> GameState:
    """The structure joins the buildable ones at once (N-FAQ-16)."""
    player = state.player(event.seat)
    unlocked = (*player.structures_unlocked, event.structure)
    return state.with_player(msgspec.structs.replace(player, structures_unlocked=unlocked))


EVOLVE: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    TacticOptionPlayed: evolve_tactic_option_played,
    MovementGranted: evolve_movement_granted,
    UnitReplaced: evolve_unit_replaced,
    DiscountGranted: evolve_discount_granted,
    StructureUnlocked: evolve_structure_unlocked,
}
"""The fold of each event this module defines."""
