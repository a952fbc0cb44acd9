"""Combat events folded into the game (rules §6): the combat itself, and what some of them
change around it (the map, the pools, the stocks and hands).

:mod:`.combat_phase` decides; this module folds, and holds what its folds need: the biome
card drawn for a combat (N-COMBAT-7) and the combat a ``CombatStarted`` opens
(:func:`game_combat`). Most combat events change the combat alone (:data:`COMBAT_ONLY`); the
others each have a function for their effect on the game (``_ON_THE_MAP``, looked up by the
event's exact type: a missed ``isinstance`` against a msgspec class goes through its
metaclass, about 1k instructions a test).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel import Event

from ..messages import combat as messages
from ..messages.combat import (
    BiomeCardDrawn,
)
from ..messages.tactics import ResourcesGained, TacticCardDrawn
from ..state import GameState, PlayerState, Resources, UnitStack, add_units, remove_units
from . import structures
from .combat.flow import combat_from_start
from .combat.folds import FOLDS, evolve_combat
from .combat.model import Boost, Combat
from .context import Context
from .tactics import evolve_resources_gained, evolve_tactic_drawn

__all__ = ["COMBAT_ONLY", "evolve_around", "evolve_combat_event", "game_combat", "is_combat_event"]

_replace = msgspec.structs.replace


def game_combat(ctx: Context, state: GameState, started: messages.CombatStarted) -> Combat:
    """The combat, with what the game knows of each side beyond the logged forces: techs'
    initiative changes and what structures give the groups (N-STR-3), per zone the units
    may fight from (the combat zone and its neighbours, for Strategise). Hands, stocks and
    flare stay the players' (the combat's host's)."""
    seats = (started.attacker, started.defender, *started.allies)
    combat = combat_from_start(started)
    bonus = {
        f"{seat}/{unit}": steps
        for seat in seats
        for unit, steps in state.player(seat).initiative_mods.items()
    }
    boosts: dict[str, Boost] = {}
    if state.structures:
        for seat in seats:
            for zone in (started.zone, *ctx.map.neighbours(started.zone)):
                boost = structures.combat_boost(ctx, state, seat, zone)
                if boost is not None:
                    boosts[f"{seat}@{zone}"] = boost
    if bonus or boosts:
        return msgspec.structs.replace(combat, initiative_bonus=bonus, boosts=boosts)
    return combat


def _lose(state: GameState, owner: str, unit: str, zone: str, count: int) -> GameState:
    """Units leave the map and their tokens return to the pool (N-COMBAT-28); a structure
    fighting as a group (the Bone Tower) that dies is destroyed (N-STR-3)."""
    if not count:
        return state
    for placed in state.structures:  # N-STR-1: at most one structure in a zone
        if placed.zone == zone:
            if placed.structure == unit:
                kept = tuple(p for p in state.structures if p is not placed)
                return _replace(state, structures=kept)
            break
    units = remove_units(state.units, owner, unit, zone, count)
    if [s for s in units if s.moved > s.count]:  # no more moved units than units
        units = tuple(
            [
                UnitStack(s.owner, s.unit, s.zone, s.count, s.count) if s.moved > s.count else s
                for s in units
            ]
        )
    player = state.player(owner)
    pool = player.pool.copy()  # a copy and a store: cheaper than {**pool, ...}
    pool[unit] = pool.get(unit, 0) + count
    return state.with_player(_replace(player, pool=pool), units=units)


def _pay(player: PlayerState, fee: Resources) -> PlayerState:
    return _replace(player, stock=player.stock - fee)


def _discard(player: PlayerState, card: str) -> PlayerState:
    hand = list(player.tactic_hand)
    hand.remove(card)
    return _replace(player, tactic_hand=tuple(hand), tactic_discard=(*player.tactic_discard, card))


def _spend_flare(state: GameState, seat: str, flare: int) -> GameState:
    player = state.player(seat)
    return state.with_player(_replace(player, flare=player.flare - flare))


# -- each event's effect on the game (the combat is folded after it) -----------------------


def _attack_resolved(
    ctx: Context, state: GameState, combat: Combat, event: messages.AttackResolved
) -> GameState:
    if not (event.target_deaths or event.attacker_deaths or event.flare):
        return state  # most attacks: nothing changes on the map
    target = combat.groups[event.target]
    group = combat.groups[event.group]
    zone = combat.zone
    state = _lose(state, target.owner, target.unit, target.origin or zone, event.target_deaths)
    state = _lose(state, group.owner, group.unit, group.origin or zone, event.attacker_deaths)
    # N-STR-3 Soul Prison: each unit a player's group defeats fills a free slot
    state = structures.imprison(ctx, state, group.owner, event.target_deaths)
    state = structures.imprison(ctx, state, target.owner, event.attacker_deaths)
    if event.flare:  # N-CIV-3
        player = state.player(group.owner)
        state = state.with_player(_replace(player, flare=player.flare + event.flare))
    return state


def _effect_damage(
    ctx: Context, state: GameState, combat: Combat, event: messages.EffectDamage
) -> GameState:
    group = combat.groups[event.group]
    return _lose(state, group.owner, group.unit, group.origin or combat.zone, event.deaths)


def _biome_target_fixed(
    ctx: Context, state: GameState, combat: Combat, event: messages.BiomeTargetFixed
) -> GameState:
    if not event.redirected_by:  # N-CIV-3: the Naga pay flare to redirect
        return state
    return _spend_flare(state, event.redirected_by, event.flare_paid)


def _spirits_embraced(
    ctx: Context, state: GameState, combat: Combat, event: messages.SpiritsEmbraced
) -> GameState:
    return _spend_flare(state, event.seat, event.flare)


def _ambush_joined(
    ctx: Context, state: GameState, combat: Combat, event: messages.AmbushJoined
) -> GameState:
    """The token leaves the pool for the fight."""
    player = state.player(event.seat)
    pool = {**player.pool, event.unit: player.pool[event.unit] - 1}
    state = state.with_player(_replace(player, pool=pool))
    return _replace(state, units=add_units(state.units, event.seat, event.unit, combat.zone, 1))


def _tactic_discarded(
    ctx: Context, state: GameState, combat: Combat, event: messages.TacticDiscarded
) -> GameState:
    return state.with_player(_discard(state.player(event.seat), event.card))


def _tactic_played(
    ctx: Context, state: GameState, combat: Combat, event: messages.TacticPlayed
) -> GameState:
    """N-TAC-1: playing discards the card."""
    player = _discard(state.player(event.seat), event.card)
    player = _replace(_pay(player, event.cost), flare=player.flare - event.flare)
    return state.with_player(player)


def _moved_after_win(
    ctx: Context, state: GameState, combat: Combat, event: messages.UnitsMovedAfterWin
) -> GameState:
    units = remove_units(state.units, event.seat, event.unit, combat.zone, event.count)
    units = add_units(units, event.seat, event.unit, event.destination, event.count)
    entered = {**state.entered, event.destination: event.seat}  # N-COMBAT-3
    return _replace(state, units=units, entered=entered)


def _injury_resolved(
    ctx: Context, state: GameState, combat: Combat, event: messages.InjuryResolved
) -> GameState:
    group = combat.groups[event.group]
    if event.paid:
        return state.with_player(_pay(state.player(group.owner), event.fee))
    return _lose(state, group.owner, group.unit, group.origin or combat.zone, 1)


def _units_retreated(
    ctx: Context, state: GameState, combat: Combat, event: messages.UnitsRetreated
) -> GameState:
    zone = combat.zone
    if event.destination is None:
        return _lose(state, event.seat, event.unit, zone, event.count)
    units = remove_units(state.units, event.seat, event.unit, zone, event.count)
    units = add_units(units, event.seat, event.unit, event.destination, event.count)
    return _replace(state, units=units)


def _combat_ended(ctx: Context, state: GameState, combat: Combat) -> GameState:
    """The combat is over: its joins count for the turn, Ambush units leave, the biome card
    is discarded and the game has no combat any more."""
    # N-ABL-7: once per turn. The combat counts its own joins until it ends; then the
    # turn does (counting them in both places at once would count them twice).
    joins = tuple((f.owner, f.unit, f.origin, f.count) for f in combat.joined)
    state = _replace(state, strategised=(*state.strategised, *joins))
    zone = combat.zone
    for force in combat.ambush:  # Ambush units leave when the combat ends
        here = next((s.count for s in state.units if s.key == (force.owner, force.unit, zone)), 0)
        state = _lose(state, force.owner, force.unit, zone, min(here, force.count))
    discards = dict(state.biome_discards)
    if combat.biome_card is not None:  # N-COMBAT-28: the biome card is discarded
        biome = ctx.pack.biome_cards[combat.biome_card].biome
        discards[biome] = (*discards.get(biome, ()), combat.biome_card)
    return _replace(state, combat=None, biome_discards=discards)


_ON_THE_MAP: dict[type[Event], Callable[[Context, GameState, Combat, Any], GameState]] = {
    messages.AttackResolved: _attack_resolved,
    messages.EffectDamage: _effect_damage,
    messages.BiomeTargetFixed: _biome_target_fixed,
    messages.SpiritsEmbraced: _spirits_embraced,
    messages.AmbushJoined: _ambush_joined,
    messages.TacticDiscarded: _tactic_discarded,
    messages.TacticPlayed: _tactic_played,
    messages.UnitsMovedAfterWin: _moved_after_win,
    messages.InjuryResolved: _injury_resolved,
    messages.UnitsRetreated: _units_retreated,
}
"""Combat events that also change the game around the combat (map, pools, stocks, hands),
with that change; ``CombatEnded`` ends the combat and is folded on its own."""

_COMBAT_EVENTS = frozenset(messages.EVENTS)

COMBAT_ONLY: dict[type[Event], Callable[[ContentPack, Combat, Any], Combat]] = {
    kind: fold
    for kind, fold in FOLDS.items()
    if kind in _COMBAT_EVENTS
    and kind not in _ON_THE_MAP
    and kind is not messages.CombatEnded
    and kind is not messages.CombatStarted
}
"""The combat events that change the combat alone, with their folds: inside a combat,
:func:`evolve_combat_event` folds one into ``replace(state, combat=fold(pack, combat,
event))`` and nothing else, so the game's ``evolve`` may do that directly."""


def evolve_around(ctx: Context, state: GameState, combat: Combat, event: Event) -> GameState:
    """What a combat event changes in the game around ``combat`` (the combat before it):
    the map, the pools, the players' stocks, flare and hands; the combat itself is left as
    it is. The combat's host folds its players with this within a step (the players are
    the one store of hands, stocks and flare), as :func:`evolve_combat_event` does."""
    kind = type(event)
    on_the_map = _ON_THE_MAP.get(kind)
    if on_the_map is not None:
        return on_the_map(ctx, state, combat, event)
    if kind is TacticCardDrawn:
        return evolve_tactic_drawn(state, cast(TacticCardDrawn, event))
    if kind is ResourcesGained:
        return evolve_resources_gained(state, cast(ResourcesGained, event))
    return state


def evolve_combat_event(ctx: Context, state: GameState, event: Event) -> GameState:
    """Fold a combat event into the game: the combat itself and its effects on the map."""
    combat = state.combat
    kind = type(event)
    on_the_map = _ON_THE_MAP.get(kind)  # the commonest events here, looked up first
    if on_the_map is not None and combat is not None:
        state = on_the_map(ctx, state, combat, event)
        fold = FOLDS.get(kind)  # evolve_combat, without its call (None: a discarded card)
        return state if fold is None else _replace(state, combat=fold(ctx.pack, combat, event))
    # Exact types (message classes are final): most events here are none of these. Cards
    # drawn and gains, in or out of a combat, change the players alone (the combat's host).
    if kind is TacticCardDrawn:
        return evolve_tactic_drawn(state, cast(TacticCardDrawn, event))
    if kind is ResourcesGained:
        return evolve_resources_gained(state, cast(ResourcesGained, event))
    if type(event) is BiomeCardDrawn:
        decks = {**state.biome_decks, event.biome: state.biome_decks[event.biome][1:]}
        return _replace(state, biome_decks=decks)
    if type(event) is messages.CombatStarted:
        return _replace(state, combat=game_combat(ctx, state, event))
    assert combat is not None, f"{kind.__name__} outside a combat"
    if type(event) is messages.CombatEnded:
        return _combat_ended(ctx, state, combat)
    return _replace(state, combat=evolve_combat(ctx.pack, combat, event))


def is_combat_event(event: Event) -> bool:
    """Whether :func:`evolve_combat_event` folds this event."""
    return type(event) in _COMBAT_EVENTS or isinstance(
        event, BiomeCardDrawn | TacticCardDrawn | ResourcesGained
    )
