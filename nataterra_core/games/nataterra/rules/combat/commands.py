"""The stage table's answers: the events a seat's command produces in its stage
(:func:`command_events`), and the error naming the rule a refused command breaks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec

from nataterra_core.kernel import Command, DiceStream, Event, IllegalCommand

from ...messages.combat import (
    ArmorClaimed,
    Attack,
    Backstab,
    BackstabDeclared,
    BackstabDeclined,
    ChoiceResolved,
    ChooseGroup,
    ClaimArmor,
    DeployGroup,
    GroupDeployed,
    Healed,
    HealGroup,
    InjuryResolved,
    PayInjury,
    RedirectBiome,
    Reroll,
    Retreat,
    RetreatChosen,
    RetreatUnits,
    Strategise,
    StrategiseDone,
    StrategiseJoined,
    Support,
    Supported,
    UnitsRetreated,
)
from ..stock import Resources
from . import biome, tactics
from .attacks import resolve, resolve_attack, roll_die
from .board import support_only
from .damage import (
    heal_amount,
)
from .env import CombatEnv
from .folds import evolve_combat
from .model import (
    Combat,
    Group,
)
from .options import support_amounts
from .stages import STAGES
from .steps import activate

__all__ = ["command_events", "refusal"]

_replace: Final = msgspec.structs.replace


def refusal(combat: Combat, seat: str, who: str, command: Command) -> IllegalCommand:
    """The error for ``seat``'s refused ``command`` when ``who`` decides now."""
    rule = STAGES[combat.stage].rule
    if combat.pending:
        rule = "N-CIV-3" if combat.pending[0][1].startswith("embrace") else "N-COMBAT-8"
    if seat != who:
        return IllegalCommand(rule, f"{who} decides now in this combat, not {seat}")
    return IllegalCommand(*_why_not(combat, command, rule))


def _why_not(combat: Combat, command: Command, rule: str) -> tuple[str, str]:
    """The rule a refused command breaks, and why (more precise than the stage's rule)."""
    active = combat.groups[combat.active] if combat.active >= 0 else None
    if isinstance(command, Support) and active is not None and command.target == active.id:
        return "N-COMBAT-19", "a group supports another allied group, never itself"
    if isinstance(command, Attack) and combat.active >= 0 and combat.stage == "action":
        group = combat.groups[combat.active]
        if support_only(group):
            return "N-COMBAT-5", "a melee group in a ranged slot can only support"
        return "N-COMBAT-13", (
            f"group {group.id} cannot attack group {command.target} "
            "(melee groups reach ranged groups only when their owner has no melee group)"
        )
    return rule, f"{command!r} is not a legal choice in the {combat.stage} stage"


def command_events(
    env: CombatEnv, combat: Combat, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...]:
    if combat.pending or type(command) is RedirectBiome:
        chosen = tactics.play_events(env, combat, seat, command, dice)
        if chosen is None:
            chosen = biome.choice_events(env, combat, seat, command, dice)
        if chosen is not None:
            return chosen
    handler = _COMMAND_EVENTS.get(type(command))
    if handler is None:
        raise IllegalCommand("N-COMBAT-10", f"{type(command).__name__} is not a combat command")
    return handler(env, combat, seat, command, dice)


def _attacked(
    env: CombatEnv, combat: Combat, seat: str, command: Attack, dice: DiceStream
) -> tuple[Event, ...]:
    return _attack(env, combat, combat.groups[combat.active], command.target, dice)


def _retreat(
    env: CombatEnv, combat: Combat, seat: str, command: Retreat, dice: DiceStream
) -> tuple[Event, ...]:
    if not command.retreat:
        return (RetreatChosen(seat=seat, retreat=False),)
    # N-COMBAT-24, N-TEAM-4: each player of the side that stays may backstab once.
    stabbers = combat.seats_of(combat.opponent(seat))
    return (RetreatChosen(seat=seat, retreat=True, stabbers=stabbers),)


def _heal(
    env: CombatEnv, combat: Combat, seat: str, command: HealGroup, dice: DiceStream
) -> tuple[Event, ...]:
    group = combat.groups[combat.active]
    target = combat.groups[command.target]
    amount = min(target.damage, heal_amount(group.units, group.heal))
    return (Healed(group=group.id, target=target.id, amount=amount),)


def _deploy(
    env: CombatEnv, combat: Combat, seat: str, command: DeployGroup, dice: DiceStream
) -> tuple[Event, ...]:
    return (
        GroupDeployed(  # positionally: seat, group, unit, units, slot, origin
            seat, len(combat.groups), command.unit, command.size, command.slot, command.origin
        ),
    )


def _strategise(
    env: CombatEnv, combat: Combat, seat: str, command: Strategise, dice: DiceStream
) -> tuple[Event, ...]:
    return (
        StrategiseJoined(seat=seat, unit=command.unit, origin=command.origin, count=command.count),
    )


def _strategise_done(
    env: CombatEnv, combat: Combat, seat: str, command: StrategiseDone, dice: DiceStream
) -> tuple[Event, ...]:
    return (ChoiceResolved(seat=seat, choice="strategise", declined=True),)


def _chosen_group(
    env: CombatEnv, combat: Combat, seat: str, command: ChooseGroup, dice: DiceStream
) -> tuple[Event, ...]:
    return activate(env, combat, combat.groups[command.group])


def _support(
    env: CombatEnv, combat: Combat, seat: str, command: Support, dice: DiceStream
) -> tuple[Event, ...]:
    group = combat.groups[combat.active]
    amount = dict(support_amounts(group))[command.bonus]
    return (Supported(group=group.id, target=command.target, bonus=command.bonus, amount=amount),)


def _reroll(
    env: CombatEnv, combat: Combat, seat: str, command: Reroll, dice: DiceStream
) -> tuple[Event, ...]:
    group = combat.groups[combat.active]
    if command.reroll:  # only the kept face's swords count (N-COMBAT-15)
        roll = roll_die(env, dice, group, combat.target, reroll=True)
        return (roll, resolve(env, combat, roll.value))
    return (resolve(env, combat, combat.roll_face),)


def _claim_armor(
    env: CombatEnv, combat: Combat, seat: str, command: ClaimArmor, dice: DiceStream
) -> tuple[Event, ...]:
    amount = combat.pending_gain if command.accept else 0
    return (ArmorClaimed(group=combat.active, amount=amount),)


def _backstab(
    env: CombatEnv, combat: Combat, seat: str, command: Backstab, dice: DiceStream
) -> tuple[Event, ...]:
    if command.group is None or command.target is None:
        return (BackstabDeclined(seat=seat),)
    declared = BackstabDeclared(seat=seat, group=command.group, target=command.target)
    stabbing = evolve_combat(env.pack, combat, declared)
    group = stabbing.groups[command.group]
    return (declared, *_attack(env, stabbing, group, command.target, dice))


def _pay_injury(
    env: CombatEnv, combat: Combat, seat: str, command: PayInjury, dice: DiceStream
) -> tuple[Event, ...]:
    group = combat.groups[command.group]
    fee = group.fee if command.pay else Resources()
    return (InjuryResolved(group=group.id, paid=command.pay, fee=fee),)


def _retreat_units(
    env: CombatEnv, combat: Combat, seat: str, command: RetreatUnits, dice: DiceStream
) -> tuple[Event, ...]:
    return (
        UnitsRetreated(
            seat=seat, unit=command.unit, count=command.count, destination=command.destination
        ),
    )


# The events of each command type once no choice is pending (one lookup, where a chain of
# isinstance tests cost the later types up to half a microsecond).
_COMMAND_EVENTS: Final[
    dict[type[Command], Callable[[CombatEnv, Combat, str, Any, DiceStream], tuple[Event, ...]]]
] = {
    Attack: _attacked,
    Retreat: _retreat,
    HealGroup: _heal,
    DeployGroup: _deploy,
    Strategise: _strategise,
    StrategiseDone: _strategise_done,
    ChooseGroup: _chosen_group,
    Support: _support,
    Reroll: _reroll,
    ClaimArmor: _claim_armor,
    Backstab: _backstab,
    PayInjury: _pay_injury,
    RetreatUnits: _retreat_units,
}


def _attack(
    env: CombatEnv, combat: Combat, group: Group, target: int, dice: DiceStream
) -> tuple[Event, ...]:
    if group.deception:  # N-ABL-8: the owner sees the die, then keeps or re-rolls it
        return (roll_die(env, dice, group, target, reroll=False),)
    # Otherwise the roll and its result are one event (AttackResolved records the die as
    # record_draw would: m, the counters around the draw, the value).
    before = dice.counter
    value = dice.draw(len(env.faces))
    roll = (before, dice.counter)
    return (resolve_attack(env, combat, group, combat.groups[target], value, roll),)
