"""Effect primitives in combat: each implemented once, composed by cards.

Biome cards (:mod:`.biome`) and tactic-card options (:mod:`.tactics`) describe what they do
as :class:`~nataterra_core.games.nataterra.content.schema.EffectSpec` values: a primitive, an amount
and a target. This module turns one spec into events; :mod:`.flow` folds those events. The
tactic-card rules extend the closed set
:data:`~nataterra_core.games.nataterra.content.schema.EffectPrimitive` here, nowhere else.
"""

from __future__ import annotations

from typing import Protocol

from nataterra_core.games.nataterra.content.schema import CivAbility, ContentPack, EffectSpec
from nataterra_core.kernel import DiceStream, Event

from ...messages.combat import (
    AbilityGranted,
    BonusGranted,
    DamageRemoved,
    EffectDamage,
    EmbraceGranted,
    InitiativeRaised,
    MoveAfterWinGranted,
    PlayerChosen,
    StrategiseGranted,
    WithdrawalDeclared,
)
from ...messages.tactics import ResourcesGained
from ..stock import Resources
from .fold_tools import movable_units
from .model import INITIATIVE_CAP, Combat, Group

__all__ = [
    "EffectEnv",
    "damage_event",
    "effect_events",
    "grant_move_after_win",
    "player_chosen",
    "raise_initiative",
    "spec_groups",
]


class EffectEnv(Protocol):
    """What effects read from the combat environment (:class:`~.flow.CombatEnv`)."""

    pack: ContentPack
    civ_ability: dict[str, CivAbility]

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        """Events that draw ``seat`` one tactic card."""
        ...


def spec_groups(combat: Combat, seat: str, spec: EffectSpec, target: int | None) -> list[Group]:
    """The groups a spec acts on: the chosen one, the active one, or all of ``seat``'s."""
    if spec.target == "own_groups":
        return combat.groups_of(seat)
    if spec.target == "active_group":
        active = combat.groups[combat.active] if combat.active >= 0 else None
        return [active] if active is not None and active.units else []
    if spec.target in ("own_group", "enemy_group") and target is not None:
        group = combat.groups[target]
        return [group] if group.units else []
    return []


def damage_event(
    env: EffectEnv, combat: Combat, group_id: int, amount: int, *, smite: bool
) -> EffectDamage:
    """Damage markers put on a group by an effect, with the deaths they cause
    (N-COMBAT-16); smite ignores armor (N-COMBAT-21), other damage feeds Bloodthirst."""
    group = combat.groups[group_id]
    deaths = min(group.units, (group.damage + amount) // group.health)
    thirst = not smite and amount > 0 and deaths < group.units
    level = group.bloodthirst + (env.civ_ability[group.owner] == "bloodthirst")
    bloodthirst = level if thirst else 0
    return EffectDamage(
        group=group_id, amount=amount, smite=smite, deaths=deaths, bloodthirst=bloodthirst
    )


def raise_initiative(
    combat: Combat, seat: str, units: list[str], amount: int
) -> tuple[InitiativeRaised, ...]:
    """``seat``'s markers of ``units`` go up by ``amount`` each, to at most 10 once they are
    placed (N-COMBAT-6; before, the raise is kept whole and :func:`.steps.initiative` caps
    the marker when it is placed). A type without a marker has left the board (N-COMBAT-17):
    nothing to raise."""
    markers = combat.initiative
    if not markers:
        return tuple(InitiativeRaised(seat=seat, unit=unit, amount=amount) for unit in units)
    values = dict(markers)
    events: list[InitiativeRaised] = []
    for unit in units:
        key = f"{seat}/{unit}"
        if key in values:
            effective = max(0, min(amount, INITIATIVE_CAP - values[key]))
            values[key] += effective
            events.append(InitiativeRaised(seat=seat, unit=unit, amount=effective))
    return tuple(events)


def grant_move_after_win(pack: ContentPack, combat: Combat, seat: str) -> tuple[Event, ...]:
    """The winner ``seat`` may move each of its units in the zone up to one zone: those
    :func:`~.fold_tools.own_units` lists. **Ruling**: the grants (Quick Gains, a card) do
    not stack, each unit moves at most one zone: nothing is granted while a grant stands
    or once units have moved after the win, nor when ``seat`` has nothing to move."""
    if combat.movable or combat.moved_after_win:
        return ()
    movable = movable_units(pack, combat, seat)
    return (MoveAfterWinGranted(seat=seat, movable=movable),) if movable else ()


def player_chosen(seat: str, chosen: str, effect: str) -> PlayerChosen:
    """``seat`` names ``chosen`` for ``effect``: a player who may not retreat from this
    combat (N-COMBAT-22), or one who discards a tactic card at once (N-COMBAT-8)."""
    if effect == "choose_no_retreat":
        return PlayerChosen(seat=seat, chosen=chosen, effect=effect, binds="no_retreat")
    if effect == "choose_discarder":
        return PlayerChosen(seat=seat, chosen=chosen, effect=effect, asks="discard")
    raise ValueError(f"{effect!r} is not an effect that names a player")


def effect_events(
    env: EffectEnv,
    combat: Combat,
    seat: str,
    spec: EffectSpec,
    target: int | None,
    dice: DiceStream,
    *,
    player: str | None = None,
    zone: str | None = None,
) -> tuple[Event, ...]:
    """The events of one effect played by ``seat``, at the group ``target``, the ``player``
    or the ``zone`` it names when it names one."""
    kind, amount = spec.kind, spec.amount
    if kind == "draw_tactic":
        events: list[Event] = []
        for _ in range(amount):
            events.extend(env.draw_tactic(seat, dice))
        return tuple(events)
    if kind == "gain_resources":  # N-RES-3: never multiplied
        return (ResourcesGained(seat=seat, resources=Resources.of(spec.resources)),)
    if kind == "gain_flare":
        return (ResourcesGained(seat=seat, flare=amount),)
    if kind == "no_retreat" and player is not None:
        return (player_chosen(seat, player, "choose_no_retreat"),)
    if kind == "withdraw":
        return (WithdrawalDeclared(seat=seat),)
    if kind == "extra_embrace":
        return (EmbraceGranted(seat=seat),)
    if kind == "move_after_win":
        return grant_move_after_win(env.pack, combat, seat)
    if kind == "strategise_zone" and zone is not None:
        return (StrategiseGranted(seat=seat, zone=zone),)
    groups = spec_groups(combat, seat, spec, target)
    if kind == "attack_bonus":
        return tuple(BonusGranted(group=g.id, attack=amount) for g in groups)
    if kind == "armor_bonus":
        return tuple(BonusGranted(group=g.id, armor=amount) for g in groups)
    if kind == "remove_damage":  # N-FAQ-9: an undamaged group is a legal target
        return tuple(DamageRemoved(group=g.id, amount=min(g.damage, amount)) for g in groups)
    if kind in ("damage", "smite"):
        return tuple(damage_event(env, combat, g.id, amount, smite=kind == "smite") for g in groups)
    if kind == "raise_initiative":  # the marker of the chosen group's unit type
        return raise_initiative(combat, seat, [g.unit for g in groups], amount)
    if kind == "grant_ability":
        return tuple(
            AbilityGranted(group=g.id, ability=spec.ability, levels=amount) for g in groups
        )
    raise ValueError(f"{kind!r} is not an effect in combat")
