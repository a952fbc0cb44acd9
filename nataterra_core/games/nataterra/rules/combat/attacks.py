"""An attack resolved (N-COMBAT-14..18): the die drawn and recorded, the damage dealt and
taken back (Retaliation), Bloodthirst and armor claims, whether the activation ends, and the
melee groups that move up once slots free (N-COMBAT-5). :mod:`.commands` resolves the attacks
players order, :mod:`.steps` those nobody has to decide."""

from __future__ import annotations

from typing import Final

import msgspec

from nataterra_core.kernel import DiceStream, record_draw

from ...messages.combat import (
    AttackResolved,
    AttackRolled,
)
from .board import support_only
from .damage import (
    attack_total,
    damage_dealt,
    resolve_damage,
    retaliation_damage,
    support_amount,
)
from .env import CombatEnv
from .folds import fold_attack_resolved
from .model import (
    Combat,
    Group,
)
from .options import (
    targets,
)

__all__ = ["melee_moves", "resolve", "resolve_attack", "roll_die"]

_replace: Final = msgspec.structs.replace


# msgspec matches many keyword arguments slowly (≈ 0.5 µs per event of this size), so the
# hottest events are built positionally, in their declaration order, checked here.
_RESOLVED_FIELDS = (
    "group",
    "target",
    "total",
    "damage",
    "target_deaths",
    "bonus_spent",
    "armor_bonus_spent",
    "swords",
    "retaliation",
    "attacker_deaths",
    "bloodthirst",
    "armor_claim",
    "flare",
    "ends_activation",
    "m",
    "counter_before",
    "counter_after",
    "value",
    "face",
    "to_melee",
)
if tuple(f.name for f in msgspec.structs.fields(AttackResolved)) != _RESOLVED_FIELDS:
    raise ImportError("AttackResolved's fields changed: update the call")  # pragma: no cover


def roll_die(
    env: CombatEnv, dice: DiceStream, group: Group, target: int, reroll: bool
) -> AttackRolled:
    drawn = record_draw(dice, len(env.faces))
    face = env.faces[drawn["value"]]
    return AttackRolled(
        group=group.id,
        target=target,
        **drawn,
        face=face.value,
        swords=face.swords,
        reroll=reroll,
    )


def resolve(env: CombatEnv, combat: Combat, face_index: int) -> AttackResolved:
    """N-COMBAT-14..17 with the abilities that act on an attack, for the kept die face."""
    groups = combat.groups
    return resolve_attack(env, combat, groups[combat.active], groups[combat.target], face_index)


def resolve_attack(
    env: CombatEnv,
    combat: Combat,
    group: Group,
    target: Group,
    face_index: int,
    roll: tuple[int, int] | None = None,
) -> AttackResolved:
    """:func:`resolve` for ``group`` attacking ``target``; ``roll`` (the dice counter before
    and after the draw) when the event records the roll too."""
    value = env.face_values[face_index]
    units, t_units = group.units, target.units  # fields read once (hot path)
    backstab = combat.backstab
    # N-COMBAT-18: the attack bonus is spent on the first attack of an activation only.
    bonus = group.attack_bonus if backstab or combat.attacks_made == 0 else 0
    total = attack_total(group.attack, units, bonus, value)
    hit = damage_dealt(
        total,
        attacking_units=units,
        pierce=group.pierce,
        armor=target.armor,
        armor_bonus=target.armor_bonus,
        splash=group.splash,
        target_units=t_units,
    )
    deaths, _ = resolve_damage(target.damage + hit.damage, t_units, target.health)
    # N-ABL-9: Retaliation is simultaneous: the target's units before this attack count.
    retaliation = attacker_deaths = 0
    level = target.retaliation
    if level and _reaches(combat, target, group):
        retaliation = retaliation_damage(t_units, level)
        # Without it no unit dies: markers stay below health (N-COMBAT-16).
        attacker_deaths, _ = resolve_damage(group.damage + retaliation, units, group.health)
    civ_ability = env.civ_ability
    owner_ability = civ_ability[group.owner]
    bloodthirst = 0
    if hit.damage > 0 and deaths < t_units:  # N-CIV-4 Bloodthirst, or a Warcry Totem's (N-STR-3)
        bloodthirst = target.bloodthirst + (civ_ability[target.owner] == "bloodthirst")
    claim = 0
    survivors = units - attacker_deaths
    if owner_ability == "for_the_king" and deaths and survivors:
        claim = deaths * support_amount(group.armor, survivors, group.reinforce)
    # The roll's fields (m, counter_before, counter_after, value, face), if recorded here.
    m = before = after = rolled = None
    if roll is not None:
        m, before, after, rolled = len(env.face_values), roll[0], roll[1], value
    left = t_units - deaths
    over = False if claim or backstab else _activation_over(combat, group, target, survivors, left)
    to_melee: tuple[int, ...] = ()
    if combat.melee_waiting:  # N-COMBAT-5: a melee slot may have freed
        to_melee = melee_moves(env, combat, {group.id: survivors, target.id: left})
    resolved = AttackResolved(  # positionally: see _RESOLVED_FIELDS
        group.id,
        target.id,
        total,
        hit.damage,
        deaths,
        bonus,
        hit.armor_bonus_spent,
        env.face_swords[face_index],
        retaliation,
        attacker_deaths,
        bloodthirst,
        claim,
        deaths if owner_ability == "flare" else 0,
        bool(over),
        m,
        before,
        after,
        face_index if roll is not None else None,
        rolled,
        to_melee,
    )
    if over is None and not _extra_attack_left(env, combat, resolved):
        return _replace(resolved, ends_activation=True)
    return resolved


def melee_moves(env: CombatEnv, combat: Combat, units: dict[int, int]) -> tuple[int, ...]:
    """N-COMBAT-5: the melee groups waiting in ranged slots that move to a melee slot once
    the groups in ``units`` (id: units left) have the units given, in deployment order
    (**Ruling**); slots are counted per owner from the groups on the board."""
    groups = combat.groups
    left = [units.get(g.id, g.units) for g in groups]
    moved: list[int] = []
    for g in groups:
        if left[g.id] > 0 and support_only(g):
            owner = g.owner
            used = sum(
                1
                for h in groups
                if h.owner == owner and left[h.id] > 0 and (h.slot == "melee" or h.id in moved)
            )
            if used < env.boards[owner][0]:
                moved.append(g.id)
    return tuple(moved)


def _activation_over(
    combat: Combat, group: Group, target: Group, survivors: int, left: int
) -> bool | None:
    """Whether, after ``group``'s attack on ``target`` (no armor to claim, no backstab) left
    ``survivors`` of its units and ``left`` of the target's, the group has nothing left to
    do while the combat goes on: both sides standing, no extra attack. ``None``: only
    :func:`_extra_attack_left` can tell."""
    groups = combat.groups
    # Both sides still standing (the attacker and the target are on opposite sides).
    if not survivors and not _others_standing(groups, group):
        return False
    if not left and not _others_standing(groups, target):
        return False
    if not survivors or not group.extra:
        return True
    return None


def _extra_attack_left(env: CombatEnv, combat: Combat, attack: AttackResolved) -> bool:
    """Whether the attacking group may attack again after ``attack`` (N-COMBAT-18)."""
    after = fold_attack_resolved(env.pack, combat, attack)  # rare: only groups with extra attacks
    group = after.groups[attack.group]
    return after.attacks_made <= group.extra and bool(targets(after, group))


def _reaches(combat: Combat, group: Group, target: Group) -> bool:
    """Whether ``group`` may attack ``target`` (N-COMBAT-13): a loop over its targets, not
    any() over a generator (at every attack on a group with Retaliation)."""
    wanted = target.id
    for t in targets(combat, group):  # noqa: SIM110 (a loop: see the docstring)
        if t.id == wanted:
            return True
    return False


def _others_standing(groups: tuple[Group, ...], group: Group) -> bool:
    """Whether ``group``'s owner has another group on the board."""
    owner, gid = group.owner, group.id
    for g in groups:  # noqa: SIM110 (a loop, not any() over a generator: hot path)
        if g.units and g.owner == owner and g.id != gid:
            return True
    return False


if (
    tuple(f.name for f in msgspec.structs.fields(AttackResolved)) != _RESOLVED_FIELDS
):  # pragma: no cover
    raise ImportError("AttackResolved's fields changed: update the positional call")
