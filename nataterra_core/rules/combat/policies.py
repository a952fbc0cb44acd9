"""Combat policies: who chooses what when a combat asks (the battle calculator's players).

A policy sees the combat and the legal commands of the pending decision and returns one
of them. :class:`DefaultPolicy` is a sensible, cheap player: large groups, attacks on the
target closest to dying, Heal on the most damaged group, a re-roll of bad faces, armor
claimed, fees paid, and (by default) no retreat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from nataterra_core.content.schema import ContentPack
from nataterra_core.kernel import Command

from .messages import (
    Attack,
    Backstab,
    ClaimArmor,
    DeployGroup,
    HealGroup,
    PayInjury,
    Reroll,
    Retreat,
    RetreatUnits,
    Support,
)
from .model import Combat

__all__ = ["CombatPolicy", "DefaultPolicy"]


class CombatPolicy(Protocol):
    """Chooses one of ``options`` (never empty) for ``seat`` in ``combat``."""

    def choose(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        """The chosen command."""


class DefaultPolicy:
    """A sensible default; with ``retreat_below`` > 0 it retreats when its units on the
    boards fall below that share of the opponent's (0: never retreat)."""

    def __init__(self, pack: ContentPack, retreat_below: float = 0.0) -> None:
        self._faces = tuple(face.value for face in pack.die.faces)
        self.retreat_below = retreat_below

    def choose(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        """Pick by the kind of decision (all options of one decision share a kind)."""
        first = options[0]
        if isinstance(first, (Attack, Support)):  # the common decision first
            return self._action(combat, options, first)
        if isinstance(first, Retreat):
            return Retreat(retreat=self._losing(combat, seat))
        if isinstance(first, DeployGroup):
            return max(options, key=lambda c: c.size if isinstance(c, DeployGroup) else 0)
        if isinstance(first, HealGroup):
            heals = [c for c in options if isinstance(c, HealGroup)]
            return max(heals, key=lambda c: combat.groups[c.target].damage)
        if isinstance(first, Reroll):  # re-roll a negative face
            return Reroll(reroll=self._faces[combat.roll_face] < 0)
        if isinstance(first, ClaimArmor):
            return ClaimArmor(accept=True)
        if isinstance(first, Backstab):
            stabs = [c for c in options if isinstance(c, Backstab) and c.target is not None]
            return stabs[0] if stabs else first
        if isinstance(first, PayInjury):
            return next(c for c in options if isinstance(c, PayInjury) and c.pay)
        if isinstance(first, RetreatUnits):
            return max(options, key=lambda c: c.count if isinstance(c, RetreatUnits) else 0)
        return first

    @staticmethod
    def _action(combat: Combat, options: Sequence[Command], first: Command) -> Command:
        """Attack the enemy group closest to dying (the first such), else support the ally
        with the highest attack."""
        groups = combat.groups
        best: Command | None = None
        least = 0
        for c in options:
            if isinstance(c, Attack):
                target = groups[c.target]
                left = target.units * target.health - target.damage  # health left
                if best is None or left < least:
                    best, least = c, left
        if best is not None:
            return best
        supports = [c for c in options if isinstance(c, Support) and c.bonus == "attack"]
        if supports:
            return max(supports, key=lambda c: combat.groups[c.target].attack)
        return first

    def _losing(self, combat: Combat, seat: str) -> bool:
        if not self.retreat_below:
            return False
        mine = sum(g.units for g in combat.groups_of(seat))
        theirs = sum(g.units for g in combat.groups_of(combat.opponent(seat)))
        return mine < self.retreat_below * max(1, theirs)
