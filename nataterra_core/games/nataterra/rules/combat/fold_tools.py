"""What the combat folds share: units and counts, initiative markers, granted ability levels."""

from __future__ import annotations

from typing import Final

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack

from .model import (
    Combat,
    Force,
    Group,
)

__all__ = [
    "count_up",
    "live_markers",
    "marker_gone",
    "markers_of",
    "movable_units",
    "own_units",
    "placed",
    "take_damage",
    "take_reserve",
    "with_levels",
]

_replace: Final = msgspec.structs.replace


def own_units(pack: ContentPack, combat: Combat, seat: str) -> tuple[Force, ...]:
    """``seat``'s units in the combat: survivors on the boards and those that sat out.
    Ambush units are left out: they neither retreat nor move, they leave when it ends; so
    are structures fighting as groups (the Bone Tower never moves, N-FAQ-20)."""
    counts: dict[str, int] = {}
    for g in combat.groups_of(seat):
        if not g.origin:  # N-ABL-7: units joined by Strategise stay where they are
            counts[g.unit] = counts.get(g.unit, 0) + g.units
    for f in combat.reserve_of(seat):
        if not f.origin:
            counts[f.unit] = counts.get(f.unit, 0) + f.count
    for f in combat.ambush:
        if f.owner == seat:
            counts[f.unit] = max(0, counts.get(f.unit, 0) - f.count)
    return tuple(
        Force(seat, unit, n) for unit, n in sorted(counts.items()) if n and unit in pack.units
    )


def movable_units(pack: ContentPack, combat: Combat, seat: str) -> tuple[tuple[str, int], ...]:
    """What ``seat`` may move out of the won zone after the win (Quick Gains, a card's
    grant): (unit, count) pairs of :func:`own_units`."""
    return tuple([(f.unit, f.count) for f in own_units(pack, combat, seat)])


def live_markers(markers: dict[str, int], groups: tuple[Group, ...]) -> dict[str, int]:
    """N-COMBAT-17: the marker of a type whose last group has left the board goes too."""
    return markers_of(markers, {f"{g.owner}/{g.unit}" for g in groups if g.units})


def markers_of(markers: dict[str, int], live: set[str]) -> dict[str, int]:
    """The markers of the ``live`` types (``markers`` itself when they all are)."""
    if live.issuperset(markers):
        return markers
    return {key: value for key, value in markers.items() if key in live}


def marker_gone(markers: dict[str, int], groups: tuple[Group, ...], gone: Group) -> dict[str, int]:
    """:func:`live_markers` when only ``gone`` has just left the board (every other marker
    is known to be live)."""
    key = f"{gone.owner}/{gone.unit}"
    if key not in markers:
        return markers
    owner, unit = gone.owner, gone.unit
    for g in groups:  # a loop, not any() over a generator: once per group destroyed
        if g.units and g.unit == unit and g.owner == owner:
            return markers
    return {k: v for k, v in markers.items() if k != key}


def count_up(counts: dict[str, int], owner: str, n: int) -> dict[str, int]:
    return counts if not n else {**counts, owner: counts.get(owner, 0) + n}


def take_damage(group: Group, damage: int, deaths: int) -> Group:
    units = group.units - deaths
    markers = 0 if units == 0 else group.damage + damage - deaths * group.health
    return _replace(group, units=units, damage=markers)


def take_reserve(
    reserve: tuple[Force, ...], owner: str, unit: str, n: int, origin: str = ""
) -> tuple[Force, ...]:
    """``reserve`` less ``n`` units of its one entry for (owner, unit, origin); a negative
    ``n`` adds them, as a new entry if there is none."""
    taken = list(reserve)
    for i, f in enumerate(reserve):
        if f.unit == unit and f.owner == owner and f.origin == origin:
            taken[i] = _replace(f, count=f.count - n)
            return tuple(taken)
    return (*reserve, Force(owner, unit, -n, origin)) if n < 0 else reserve


def placed(
    combat: Combat, markers: dict[str, int]
) -> tuple[tuple[Group, ...], tuple[int, ...], set[str], bool]:
    """The groups with their type's marker, their order by marker, attacker first on ties
    (N-COMBAT-10), the types on the board, and whether two groups of one side share a
    marker (only then may the pick stage ask, :attr:`Combat.tied`). A defeated type has
    no marker any more (N-COMBAT-17): its spent groups keep the value they had."""
    allies, attacker = combat.allies, combat.attacker
    groups: list[Group] = []
    ranks: list[tuple[int, bool, int]] = []
    live: set[str] = set()
    values: set[tuple[int, bool]] = set()
    for g in combat.groups:  # one pass: this runs for every group when the combat opens
        key = f"{g.owner}/{g.unit}"
        value = markers.get(key, g.initiative)
        if value != g.initiative:
            g = _replace(g, initiative=value)
        if g.units:
            live.add(key)
        groups.append(g)
        side = allies.get(g.owner, g.owner) if allies else g.owner  # Combat.side, inlined
        rank = (-value, side != attacker, g.id)
        ranks.append(rank)
        values.add(rank[:2])
    order = tuple([rank[2] for rank in sorted(ranks)])
    return tuple(groups), order, live, len(values) < len(ranks)


_GRANTABLE = {
    "pierce": "pierce",
    "aim": "aim",
    "reinforce": "reinforce",
    "deception": "deception",
    "splash": "splash",
    "extra_attack": "extra",
}
"""The Group field of each ability a tactic option may give for a round (the pack's
:data:`~nataterra_core.games.nataterra.content.schema.GRANTABLE_ABILITIES`)."""


def with_levels(group: Group, ability: str, levels: int) -> Group:
    field = _GRANTABLE[ability]
    return _replace(group, **{field: getattr(group, field) + levels})
