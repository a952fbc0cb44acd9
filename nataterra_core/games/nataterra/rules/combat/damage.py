"""The arithmetic of combat (N-COMBAT-14..19, N-ABL-1/3/9/12): pure functions on numbers.

Kept apart from the combat flow so the rulebook's worked examples can pin it directly.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = [
    "Hit",
    "attack_total",
    "damage_dealt",
    "heal_amount",
    "resolve_damage",
    "retaliation_damage",
    "support_amount",
]


class Hit(NamedTuple):
    """What one attack does to its target (N-COMBAT-15)."""

    damage: int
    armor_bonus_spent: bool


# Hit(d, spent) without NamedTuple's generated Python-level __new__ (a hot path).
_new_hit: Final = tuple.__new__


def attack_total(attack: int, units: int, attack_bonus: int, face: int) -> int:
    """N-COMBAT-14: attack x units + every accumulated attack bonus token + the die's value."""
    return attack * units + attack_bonus + face


def damage_dealt(
    total: int,
    *,
    attacking_units: int,
    pierce: int,
    armor: int,
    armor_bonus: int,
    splash: int,
    target_units: int,
) -> Hit:
    """N-COMBAT-15's pipeline, one formula (with Pierce N-ABL-1 and Splash N-ABL-12).

    Armor (per group) applies first; only if damage remains are *all* the target's armor
    bonus tokens spent. Pierce ignores ``units x level`` armor, then armor bonus.
    """
    # max(0, x) written as comparisons: this runs for every attack (hot path).
    p = attacking_units * pierce
    armor_left = armor - p if armor > p else 0
    pierce_left = p - armor if p > armor else 0
    d = total - armor_left
    spent = d > 0 and armor_bonus > 0
    if spent and armor_bonus > pierce_left:
        d -= armor_bonus - pierce_left
    if d < 0:
        d = 0
    if splash:
        d += target_units - 1
    return _new_hit(Hit, (d, spent))


def resolve_damage(damage: int, units: int, health: int) -> tuple[int, int]:
    """N-COMBAT-16: markers accumulate; while markers ≥ health one unit dies and ``health``
    markers go. Returns (deaths, markers left); a wiped-out group keeps none."""
    deaths = damage // health
    if deaths > units:
        deaths = units
    left = damage - deaths * health
    return deaths, (0 if deaths == units else left)


def support_amount(base: int, units: int, reinforce: int) -> int:
    """N-COMBAT-19: the supporter's base attack or armor (not x units) + units x Reinforce."""
    return base + units * reinforce


def heal_amount(units: int, level: int) -> int:
    """N-ABL-3: Heal removes units x level damage markers."""
    return units * level


def retaliation_damage(units: int, level: int) -> int:
    """N-ABL-9: units x level smite damage, counted before the attack's casualties."""
    return units * level
