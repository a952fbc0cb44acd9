"""Folds of the events of the rounds (``messages/combat_rounds.py``): activations, attacks, support,
healing, retreat, backstab, injuries and the end. Each applies what its event says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel import Event

from ...messages.combat import (
    ActivationEnded,
    Aftermath,
    ArmorClaimed,
    AttackResolved,
    AttackRolled,
    BackstabDeclared,
    BackstabDeclined,
    BackstabEnded,
    CombatDecided,
    CombatEnded,
    CombatOpened,
    ExtraAttackBegun,
    GroupActivated,
    Healed,
    InjuryResolved,
    RetreatChosen,
    RetreatMoveStarted,
    RoundClosing,
    RoundEffectsResolved,
    RoundEnded,
    RoundStarted,
    Supported,
    UnitsRetreated,
)
from .board import replace_group, support_only
from .fold_tools import (
    count_up,
    marker_gone,
    markers_of,
    placed,
    take_reserve,
    with_levels,
)
from .model import (
    Combat,
    Stage,
)

__all__ = ["ROUND_FOLDS", "fold_attack_resolved"]

_replace: Final = msgspec.structs.replace


def _round_closing(pack: ContentPack, combat: Combat, event: RoundClosing) -> Combat:
    pending = tuple([(seat, "heal_round") for seat in event.heal])
    return _replace(combat, stage="round_effects", pending=pending)


def _round_effects_resolved(
    pack: ContentPack, combat: Combat, event: RoundEffectsResolved
) -> Combat:
    return _replace(combat, stage="retreat_defender")


def _aftermath(pack: ContentPack, combat: Combat, event: Aftermath) -> Combat:
    mover = event.mover
    pending = ((mover, "move_after_win"),) if mover is not None else ()
    return _replace(combat, stage="aftermath", pending=pending, movable=event.movable)


def _opened(pack: ContentPack, combat: Combat, event: CombatOpened) -> Combat:
    groups, order, live, tied = placed(combat, event.initiative)
    return _replace(
        combat,
        stage="round_start",
        groups=groups,
        order=order,
        tied=tied,
        # Markers only of types still on the board (N-COMBAT-17), so that later folds need
        # to look again only when a group leaves the board.
        initiative=markers_of(event.initiative, live),
        melee_waiting=any(support_only(g) for g in groups),
    )


def _round_started(pack: ContentPack, combat: Combat, event: RoundStarted) -> Combat:
    # N-CIV-3 (provisional): Spirit's Embrace is offered first; a card's extra one is given.
    embrace, free = event.embrace, event.free_embrace
    if not embrace and not free:  # the common case
        return _replace(combat, stage="pick", round=event.round)
    pending = [(seat, "embrace") for seat in embrace]
    pending += [(seat, "embrace_free") for seat in free]
    return _replace(
        combat, stage="pick", pending=tuple(pending), round=event.round, extra_embraces=()
    )


def _activated(pack: ContentPack, combat: Combat, event: GroupActivated) -> Combat:
    # N-COMBAT-11a: a healer heals first (the step that activated the group says so).
    stage: Stage = "heal" if event.heal else "action"
    return _replace(combat, stage=stage, active=event.group, attacks_made=0)


def _healed(pack: ContentPack, combat: Combat, event: Healed) -> Combat:
    target = combat.groups[event.target]
    healed = _replace(target, damage=target.damage - event.amount)
    return _replace(combat, groups=replace_group(combat.groups, healed), stage="action")


def _rolled(pack: ContentPack, combat: Combat, event: AttackRolled) -> Combat:
    # Rolled on its own only for a group with Deception, whose owner now keeps or re-rolls
    # the die (N-ABL-8), or re-rolled in that stage.
    return _replace(combat, target=event.target, roll_face=event.value, stage="deception")


def _armor_claimed(pack: ContentPack, combat: Combat, event: ArmorClaimed) -> Combat:
    group = combat.groups[event.group]
    claimed = _replace(group, armor_bonus=group.armor_bonus + event.amount)
    return _replace(combat, groups=replace_group(combat.groups, claimed), pending_gain=0)


def _extra_attack(pack: ContentPack, combat: Combat, event: ExtraAttackBegun) -> Combat:
    return _replace(combat, stage="action")


def _supported(pack: ContentPack, combat: Combat, event: Supported) -> Combat:
    target = combat.groups[event.target]
    if event.bonus == "attack":
        target = _replace(target, attack_bonus=target.attack_bonus + event.amount)
    else:
        target = _replace(target, armor_bonus=target.armor_bonus + event.amount)
    groups = replace_group(combat.groups, target)
    groups = replace_group(groups, _replace(groups[event.group], acted=combat.round))
    return _replace(combat, groups=groups, stage="pick", active=-1)


def _activation_ended(pack: ContentPack, combat: Combat, event: ActivationEnded) -> Combat:
    groups = replace_group(combat.groups, _replace(combat.groups[event.group], acted=combat.round))
    return _replace(combat, groups=groups, stage="pick", active=-1)


def _round_ended(pack: ContentPack, combat: Combat, event: RoundEnded) -> Combat:
    # Without work at the round's end, straight to the retreat decisions (N-COMBAT-22).
    stage: Stage = "round_end" if event.closing else "retreat_defender"
    if not combat.granted:
        return _replace(combat, stage=stage)
    groups = combat.groups  # abilities a card gave for the round expire
    for group_id, ability, levels in combat.granted:
        groups = replace_group(groups, with_levels(groups[group_id], ability, -levels))
    return _replace(combat, stage=stage, groups=groups, granted=())


def _retreat_chosen(pack: ContentPack, combat: Combat, event: RetreatChosen) -> Combat:
    if event.retreat:  # the stabbers each may backstab once (none after a forced retreat)
        stabbers = event.stabbers
        stage: Stage = "backstab" if stabbers else "decided"
        return _replace(combat, retreating=event.seat, stage=stage, stabbers=stabbers)
    # The defender stays: the attacker decides; the attacker stays too: the next round.
    stage = "retreat_attacker" if event.seat == combat.defender else "round_start"
    return _replace(combat, stage=stage)


def _backstab_declared(pack: ContentPack, combat: Combat, event: BackstabDeclared) -> Combat:
    return _replace(combat, backstab=True, active=event.group, attacks_made=0, stage="action")


def _backstab_declined(pack: ContentPack, combat: Combat, event: BackstabDeclined) -> Combat:
    rest = combat.stabbers[1:]
    return _replace(combat, stabbers=rest, stage="backstab" if rest else "decided")


def _backstab_ended(pack: ContentPack, combat: Combat, event: BackstabEnded) -> Combat:
    rest = combat.stabbers[1:]
    return _replace(
        combat,
        stabbers=rest,
        backstab=False,
        active=-1,
        stage="backstab" if rest else "decided",
    )


def _decided(pack: ContentPack, combat: Combat, event: CombatDecided) -> Combat:
    return _replace(
        combat, winner=event.winner, decided=True, stage="injuries", injuries=event.injuries
    )


def _injury(pack: ContentPack, combat: Combat, event: InjuryResolved) -> Combat:
    group = combat.groups[event.group]
    rest = combat.injuries[1:]
    if event.paid:  # the fee is paid from the host's stock (N-COMBAT-26)
        return _replace(combat, injuries=rest)
    hurt = _replace(group, units=group.units - 1, damage=0 if group.units == 1 else group.damage)
    return _replace(
        combat,
        groups=replace_group(combat.groups, hurt),
        injuries=rest,
        injured=count_up(combat.injured, group.owner, 1),
    )


def _retreat_move(pack: ContentPack, combat: Combat, event: RetreatMoveStarted) -> Combat:
    groups = tuple(_replace(g, units=0) if g.owner == event.seat else g for g in combat.groups)
    others = tuple(f for f in combat.reserve if f.owner != event.seat)
    return _replace(combat, groups=groups, reserve=(*others, *event.forces), stage="retreat_move")


def _retreated(pack: ContentPack, combat: Combat, event: UnitsRetreated) -> Combat:
    return _replace(
        combat, reserve=take_reserve(combat.reserve, event.seat, event.unit, event.count)
    )


def _ended_event(pack: ContentPack, combat: Combat, event: CombatEnded) -> Combat:
    return _replace(combat, stage="end")


def fold_attack_resolved(pack: ContentPack, combat: Combat, event: AttackResolved) -> Combat:
    # Each field is read once, and only where the attack may have changed it (a hot path:
    # compiled, each read of a struct field is a generic attribute lookup).
    group_id, target_id = event.group, event.target
    target_deaths, attacker_deaths = event.target_deaths, event.attacker_deaths
    retaliation = event.retaliation
    ends_activation = event.ends_activation
    groups = list(combat.groups)
    target = groups[target_id]
    # The target takes its damage (N-COMBAT-16), spends its armor bonus, gains Bloodthirst.
    t_units = target.units - target_deaths
    t_damage = target.damage + event.damage - target_deaths * target.health
    groups[target_id] = target = _replace(
        target,
        units=t_units,
        damage=t_damage if t_units else 0,
        attack_bonus=target.attack_bonus + event.bloodthirst,
        armor_bonus=0 if event.armor_bonus_spent else target.armor_bonus,
    )
    group = groups[group_id]
    acted = combat.round if ends_activation else group.acted
    # N-COMBAT-14: swords give new tokens once the attack is resolved
    bonus = group.attack_bonus - event.bonus_spent + event.swords
    g_units = 1  # not struck back: still on the board, its units and damage as they were
    if retaliation or attacker_deaths:  # N-ABL-9
        g_units = group.units - attacker_deaths
        g_damage = group.damage + retaliation - attacker_deaths * group.health
        group = _replace(
            group,
            units=g_units,
            damage=g_damage if g_units else 0,
            attack_bonus=bonus if g_units else group.attack_bonus,
            acted=acted,
        )
    else:
        group = _replace(group, attack_bonus=bonus, acted=acted)
    groups[group_id] = group
    to_melee = event.to_melee
    if to_melee:  # N-COMBAT-5: melee groups waiting in ranged slots take freed melee slots
        for moved in to_melee:
            groups[moved] = _replace(groups[moved], slot="melee")
    new_groups = tuple(groups)
    # The flare the Naga gain per unit they defeat is their host's (N-CIV-3).
    casualties = target_deaths or attacker_deaths
    if casualties:  # the counts, the destroyed groups and the markers change too
        killed, destroyed = combat.killed, combat.destroyed
        markers = combat.initiative
        if target_deaths:
            killed = count_up(killed, target.owner, target_deaths)
            if not t_units:  # N-WIN-3: wiped out directly; N-COMBAT-17: perhaps its marker
                destroyed = (*destroyed, target_id)
                markers = marker_gone(markers, new_groups, target)
        if attacker_deaths:
            killed = count_up(killed, group.owner, attacker_deaths)
            if not g_units:
                destroyed = (*destroyed, group_id)
                markers = marker_gone(markers, new_groups, group)
    stage: Stage = "after_attack"
    active, attacks_made = combat.active, combat.attacks_made + 1
    if ends_activation:  # only while both sides stand (steps.py): the next pick follows
        stage, active = "pick", -1
    # Fields in their declaration order: msgspec finds them faster.
    if not casualties:
        return _replace(
            combat,
            stage=stage,
            groups=new_groups,
            active=active,
            attacks_made=attacks_made,
            roll_face=-1,
            pending_gain=event.armor_claim,
        )
    return _replace(
        combat,
        stage=stage,
        groups=new_groups,
        active=active,
        attacks_made=attacks_made,
        roll_face=-1,
        pending_gain=event.armor_claim,
        initiative=markers,
        killed=killed,
        destroyed=destroyed,
    )


ROUND_FOLDS: dict[type[Event], Callable[[ContentPack, Combat, Any], Combat]] = {
    RoundClosing: _round_closing,
    RoundEffectsResolved: _round_effects_resolved,
    Aftermath: _aftermath,
    CombatOpened: _opened,
    RoundStarted: _round_started,
    GroupActivated: _activated,
    Healed: _healed,
    AttackRolled: _rolled,
    AttackResolved: fold_attack_resolved,
    ArmorClaimed: _armor_claimed,
    ExtraAttackBegun: _extra_attack,
    Supported: _supported,
    ActivationEnded: _activation_ended,
    RoundEnded: _round_ended,
    RetreatChosen: _retreat_chosen,
    BackstabDeclared: _backstab_declared,
    BackstabDeclined: _backstab_declined,
    BackstabEnded: _backstab_ended,
    CombatDecided: _decided,
    InjuryResolved: _injury,
    RetreatMoveStarted: _retreat_move,
    UnitsRetreated: _retreated,
    CombatEnded: _ended_event,
}
"""The folds of the events of the rounds, by event type."""
