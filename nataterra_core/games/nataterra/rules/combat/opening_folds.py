"""Folds of the events before and around the rounds (``messages/combat_opening.py``): set-up and
deployment, biome cards, tactic windows and effects. Each applies what its event says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel import Event

from ...messages.combat import (
    AbilityGranted,
    AmbushJoined,
    BiomeCardRevealed,
    BiomeTargetFixed,
    BonusGranted,
    ChoiceResolved,
    DamageRemoved,
    DeferredResolved,
    DeploymentEnded,
    EffectDamage,
    EmbraceGranted,
    GroupDeployed,
    InitiativeRaised,
    MoveAfterWinGranted,
    PlayerChosen,
    SpiritsEmbraced,
    StandingPassGiven,
    StoneskinHardened,
    StrategiseGranted,
    StrategiseJoined,
    StrategiseOffered,
    TacticPlayed,
    UnitsMovedAfterWin,
    WindowOpened,
    WithdrawalDeclared,
)
from .board import replace_group
from .fold_tools import (
    count_up,
    live_markers,
    placed,
    take_damage,
    take_reserve,
    with_levels,
)
from .model import (
    Combat,
    Force,
    make_group,
)

__all__ = ["OPENING_FOLDS"]

_replace: Final = msgspec.structs.replace


def _deployed(pack: ContentPack, combat: Combat, event: GroupDeployed) -> Combat:
    side = combat.sides.get(event.seat, {}).get(event.unit)
    boosts = combat.boosts  # usually none: no need to name the key
    boost = boosts.get(f"{event.seat}@{event.origin or combat.zone}") if boosts else None
    group = make_group(
        pack,
        event.group,
        event.seat,
        event.unit,
        event.units,
        event.slot,
        side,
        event.origin,
        boost,
    )
    reserve = take_reserve(combat.reserve, event.seat, event.unit, event.units, event.origin)
    return _replace(combat, groups=(*combat.groups, group), reserve=reserve)


def _strategise_offered(pack: ContentPack, combat: Combat, event: StrategiseOffered) -> Combat:
    asks = tuple((seat, "strategise") for seat in event.seats)
    return _replace(combat, strategise_offered=True, pending=(*combat.pending, *asks))


def _strategise_joined(pack: ContentPack, combat: Combat, event: StrategiseJoined) -> Combat:
    # A second join from the same zone adds to the units already waiting from there.
    reserve = take_reserve(combat.reserve, event.seat, event.unit, -event.count, event.origin)
    force = Force(event.seat, event.unit, event.count, event.origin)
    return _replace(combat, reserve=reserve, joined=(*combat.joined, force))


def _deployment_ended(pack: ContentPack, combat: Combat, event: DeploymentEnded) -> Combat:
    if event.following:
        return _replace(combat, deploying=event.following)
    return _replace(combat, stage=event.then, deploying="")


def _revealed(pack: ContentPack, combat: Combat, event: BiomeCardRevealed) -> Combat:
    return _replace(combat, biome_card=event.card, revealed=True, stage="redirect")


def _target_fixed(pack: ContentPack, combat: Combat, event: BiomeTargetFixed) -> Combat:
    holders = event.holders
    if not holders:  # no card, or nobody it names: nothing to bind or ask
        return _replace(combat, holders=holders, stage="effects")
    changes: dict[str, Any] = {"holders": holders, "stage": "effects"}
    if event.binds:
        changes[event.binds] = (*getattr(combat, event.binds), *holders)
    if event.asks:
        changes["pending"] = (*combat.pending, *((seat, event.asks) for seat in holders))
    return _replace(combat, **changes)


def _effect_damage(pack: ContentPack, combat: Combat, event: EffectDamage) -> Combat:
    group = take_damage(combat.groups[event.group], event.amount, event.deaths)
    if event.bloodthirst:
        group = _replace(group, attack_bonus=group.attack_bonus + event.bloodthirst)
    # Losses to effects are not kills: like injuries they never score (N-WIN-3).
    groups = replace_group(combat.groups, group)
    return _replace(
        combat,
        groups=groups,
        initiative=live_markers(combat.initiative, groups),
        injured=count_up(combat.injured, group.owner, event.deaths),
    )


def _bonus_granted(pack: ContentPack, combat: Combat, event: BonusGranted) -> Combat:
    group = combat.groups[event.group]
    group = _replace(
        group,
        attack_bonus=group.attack_bonus + event.attack,
        armor_bonus=group.armor_bonus + event.armor,
    )
    return _replace(combat, groups=replace_group(combat.groups, group))


def _initiative_raised(pack: ContentPack, combat: Combat, event: InitiativeRaised) -> Combat:
    key = f"{event.seat}/{event.unit}"
    markers = combat.initiative
    if not markers:  # before the markers are placed: they will include it
        bonus = {**combat.initiative_bonus, key: combat.initiative_bonus.get(key, 0) + event.amount}
        return _replace(combat, initiative_bonus=bonus)
    if key not in markers:  # the type has left the board (N-COMBAT-17): no marker to move
        return combat
    return _with_markers(combat, {**markers, key: markers[key] + event.amount})


def _with_markers(combat: Combat, markers: dict[str, int]) -> Combat:
    """The groups take their type's marker, in initiative order (:func:`placed`)."""
    groups, order, _, tied = placed(combat, markers)
    return _replace(combat, initiative=markers, groups=groups, order=order, tied=tied)


def _ability_granted(pack: ContentPack, combat: Combat, event: AbilityGranted) -> Combat:
    group = with_levels(combat.groups[event.group], event.ability, event.levels)
    granted = (*combat.granted, (event.group, event.ability, event.levels))
    return _replace(combat, groups=replace_group(combat.groups, group), granted=granted)


def _withdrawal_declared(pack: ContentPack, combat: Combat, event: WithdrawalDeclared) -> Combat:
    return _replace(combat, withdrawing=(*combat.withdrawing, event.seat))


def _embrace_granted(pack: ContentPack, combat: Combat, event: EmbraceGranted) -> Combat:
    return _replace(combat, extra_embraces=(*combat.extra_embraces, event.seat))


def _move_after_win_granted(
    pack: ContentPack, combat: Combat, event: MoveAfterWinGranted
) -> Combat:
    pending = (*combat.pending, (event.seat, "move_after_win"))
    return _replace(combat, movable=event.movable, pending=pending)


def _strategise_granted(pack: ContentPack, combat: Combat, event: StrategiseGranted) -> Combat:
    return _replace(combat, strategise_zones=(*combat.strategise_zones, (event.seat, event.zone)))


def _damage_removed(pack: ContentPack, combat: Combat, event: DamageRemoved) -> Combat:
    group = combat.groups[event.group]
    group = _replace(group, damage=group.damage - event.amount)
    return _replace(combat, groups=replace_group(combat.groups, group))


def _ambush_joined(pack: ContentPack, combat: Combat, event: AmbushJoined) -> Combat:
    force = Force(event.seat, event.unit, 1)
    return _replace(
        combat,
        reserve=take_reserve(combat.reserve, event.seat, event.unit, -1),
        ambush=(*combat.ambush, force),
        stage="deploy",
        deploying=event.seat,
    )


def _player_chosen(pack: ContentPack, combat: Combat, event: PlayerChosen) -> Combat:
    changes: dict[str, Any] = {}
    if event.binds:
        changes[event.binds] = (*getattr(combat, event.binds), event.chosen)
    if event.asks:
        changes["pending"] = ((event.chosen, event.asks), *combat.pending)
    return _replace(combat, **changes)


def _choice_resolved(pack: ContentPack, combat: Combat, event: ChoiceResolved) -> Combat:
    return _replace(combat, pending=combat.pending[1:])


def _window_opened(pack: ContentPack, combat: Combat, event: WindowOpened) -> Combat:
    asks = tuple((seat, f"tactic_{event.window}") for seat in event.seats)
    flags = {
        "setup": {"setup_window": True},
        "before": {"before_window": True},
        "after": {"after_window": True},
    }
    return _replace(combat, pending=(*combat.pending, *asks), **flags.get(event.window, {}))


def _standing_pass(pack: ContentPack, combat: Combat, event: StandingPassGiven) -> Combat:
    """N-COMBAT-9: no later window asks the seat (:func:`.tactics.open_window`)."""
    return _replace(combat, standing_passes=(*combat.standing_passes, event.seat))


def _tactic_played(pack: ContentPack, combat: Combat, event: TacticPlayed) -> Combat:
    """An option played after the combat waits for it (N-COMBAT-27); the card leaves the
    hand and its cost the stock of the host (the game's player)."""
    if not event.deferred:
        return combat
    deferred = (*combat.deferred, (event.seat, event.card, event.option, event.target))
    return _replace(combat, deferred=deferred)


def _deferred_resolved(pack: ContentPack, combat: Combat, event: DeferredResolved) -> Combat:
    return _replace(combat, deferred=combat.deferred[1:])


def _stoneskin(pack: ContentPack, combat: Combat, event: StoneskinHardened) -> Combat:
    groups = tuple(
        _replace(g, armor_bonus=g.armor_bonus + event.amount)
        if g.owner == event.seat and g.units
        else g
        for g in combat.groups
    )
    return _replace(combat, groups=groups)


def _embraced(pack: ContentPack, combat: Combat, event: SpiritsEmbraced) -> Combat:
    group = combat.groups[event.group]
    if event.bonus == "attack":
        group = _replace(group, attack_bonus=group.attack_bonus + event.amount)
    else:
        group = _replace(group, armor_bonus=group.armor_bonus + event.amount)
    return _replace(combat, groups=replace_group(combat.groups, group))  # flare: the host's


def _moved_after_win(pack: ContentPack, combat: Combat, event: UnitsMovedAfterWin) -> Combat:
    movable = tuple(
        (unit, count - event.count if unit == event.unit else count)
        for unit, count in combat.movable
    )
    movable = tuple(m for m in movable if m[1] > 0)
    return _replace(combat, movable=movable, moved_after_win=True)


OPENING_FOLDS: dict[type[Event], Callable[[ContentPack, Combat, Any], Combat]] = {
    GroupDeployed: _deployed,
    StrategiseOffered: _strategise_offered,
    StrategiseJoined: _strategise_joined,
    DeploymentEnded: _deployment_ended,
    BiomeCardRevealed: _revealed,
    BiomeTargetFixed: _target_fixed,
    EffectDamage: _effect_damage,
    BonusGranted: _bonus_granted,
    InitiativeRaised: _initiative_raised,
    AbilityGranted: _ability_granted,
    WithdrawalDeclared: _withdrawal_declared,
    EmbraceGranted: _embrace_granted,
    MoveAfterWinGranted: _move_after_win_granted,
    StrategiseGranted: _strategise_granted,
    DamageRemoved: _damage_removed,
    AmbushJoined: _ambush_joined,
    PlayerChosen: _player_chosen,
    ChoiceResolved: _choice_resolved,
    WindowOpened: _window_opened,
    StandingPassGiven: _standing_pass,
    TacticPlayed: _tactic_played,
    DeferredResolved: _deferred_resolved,
    StoneskinHardened: _stoneskin,
    SpiritsEmbraced: _embraced,
    UnitsMovedAfterWin: _moved_after_win,
}
"""The folds of the events before and around the rounds, by event type."""
