"""Combat policies: who chooses what when a combat asks (the battle calculator's players).

A policy sees the combat and the legal commands of the pending decision and returns one
of them. :class:`DefaultPolicy` is a sensible, cheap player: large groups, attacks on the
target closest to dying, Heal on the most damaged group, a re-roll of bad faces, armor
claimed, fees paid, (by default) no retreat, and in a tactic window the option that
:func:`option_value` rates best, if it rates it worth its card; else a pass, or a standing
pass (N-COMBAT-9) once no card in its own hand can fit a window still to come.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, cast

from nataterra_core.games.nataterra.content.schema import ContentPack, EffectSpec, TacticOption
from nataterra_core.kernel import Command

from ...messages.combat import (
    Attack,
    Backstab,
    ClaimArmor,
    DeployGroup,
    HealGroup,
    PassTactics,
    PayInjury,
    PlayTactic,
    Reroll,
    Retreat,
    RetreatUnits,
    StandingPass,
    Support,
)
from .model import Combat
from .tactics import later_windows

__all__ = ["CARD_WORTH", "CombatPolicy", "DefaultPolicy", "effect_value", "option_value"]

CARD_WORTH = 1.5
"""What keeping a tactic card in hand is worth to the default players: an option must rate
above it to be played (drawing a card rates the same)."""

# Rough worths of one point of each effect, for players that must pick without search.
_PER_POINT = {
    "attack_bonus": 1.0,
    "armor_bonus": 0.8,
    "remove_damage": 0.8,
    "damage": -1.2,
    "smite": 1.2,
    "raise_initiative": 0.4,
    "grant_ability": 2.0,
    "draw_tactic": CARD_WORTH,
    "gain_flare": 0.3,
    "extra_embrace": 2.0,
    "move_after_win": 0.5,
    "strategise_zone": 3.0,
    "extra_movement": 1.0,
    "grant_stealth": 1.0,
    "recruit": 3.0,
    "replace_unit": 1.0,
    "build_structure": 3.0,
    "unlock_structure": 2.0,
}


_STANDING_PASS = StandingPass()


class CombatPolicy(Protocol):
    """Chooses one of ``options`` (never empty) for ``seat`` in ``combat``. A combat keeps
    no copy of the fighters' tactic hands (they are the players', and a battle deals none):
    a policy that plays cards in a game is given its seat's hand by whoever drives it (see
    :meth:`DefaultPolicy.choose`)."""

    def choose(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        """The chosen command."""


class DefaultPolicy:
    """A sensible default; with ``retreat_below`` > 0 it retreats when its units on the
    boards fall below that share of the opponent's (0: never retreat)."""

    def __init__(self, pack: ContentPack, retreat_below: float = 0.0) -> None:
        # plain values only: policies are pickled to the battle calculator's workers
        self._options = {card.id: card.options for card in pack.tactics.values()}
        self._faces = tuple(face.value for face in pack.die.faces)
        self.retreat_below = retreat_below

    def choose(
        self,
        combat: Combat,
        seat: str,
        options: Sequence[Command],
        hand: Sequence[str] = (),
    ) -> Command:
        """Pick by the kind of decision (all options of one decision share a kind).
        ``hand`` is ``seat``'s own tactic hand (in a game, as its view shows it; a battle
        deals none): in a tactic window it decides whether a standing pass gives up
        nothing (N-COMBAT-9)."""
        first = options[0]
        chooser = _CHOOSERS.get(type(first))
        if chooser is None:
            return first
        if chooser is _WINDOW:  # a tactic window: the hand decides a standing pass
            return self._tactic(combat, seat, options, hand)
        return chooser(self, combat, seat, options)

    def _retreat(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        return Retreat(retreat=self._losing(combat, seat))

    def _deploy(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        """The largest group (the first of that size)."""
        deploys = cast("Sequence[DeployGroup]", options)
        best = deploys[0]
        for c in deploys:  # a loop: max() with a key function costs twice as much
            if c.size > best.size:
                best = c
        return best

    def _heal(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        """The most damaged group (the first of them)."""
        heals = cast("Sequence[HealGroup]", options)
        groups = combat.groups
        best, most = heals[0], -1
        for c in heals:
            damage = groups[c.target].damage
            if damage > most:
                best, most = c, damage
        return best

    def _reroll(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        return Reroll(reroll=self._faces[combat.roll_face] < 0)  # re-roll a negative face

    def _claim_armor(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        return ClaimArmor(accept=True)

    def _backstab(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        stabs = [c for c in options if isinstance(c, Backstab) and c.target is not None]
        return stabs[0] if stabs else options[0]

    def _pay_injury(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        return next(c for c in options if isinstance(c, PayInjury) and c.pay)

    def _retreat_units(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        return max(options, key=lambda c: c.count if isinstance(c, RetreatUnits) else 0)

    def _tactic(
        self, combat: Combat, seat: str, options: Sequence[Command], hand: Sequence[str]
    ) -> Command:
        """The best-rated play, or a pass when none is worth its card."""
        losing = self._losing(combat, seat) or (
            not self.retreat_below and _outnumbered(combat, seat, 0.5)
        )
        best: tuple[float, Command] | None = None
        for command in options:
            if not isinstance(command, PlayTactic):
                continue
            option = self._options[command.card][command.option]
            value = option_value(option, losing=losing)
            if command.player is not None and option_is_hostile(option):
                value += 1.0 if command.player != seat else -10.0
            if command.target is not None:
                value += _target_value(combat, seat, option, command.target)
            if best is None or value > best[0]:
                best = (value, command)
        if best is not None and best[0] > CARD_WORTH:
            return best[1]
        # N-COMBAT-9: when no card in hand fits a window still to come, stop being asked
        # (in the last window, after the combat, a plain pass says as much).
        if (
            _STANDING_PASS in options
            and not combat.after_window
            and not self._playable_later(combat, seat, hand)
        ):
            return _STANDING_PASS
        return next((c for c in options if isinstance(c, PassTactics)), options[-1])

    def _playable_later(self, combat: Combat, seat: str, hand: Sequence[str]) -> bool:
        """Whether a card in ``hand``, ``seat``'s own, fits a window still to come (see
        :func:`~.tactics.playable_later`; only option windows are read, no pack needed)."""
        later = later_windows(combat, seat)
        return any(option.window in later for card in hand for option in self._options[card])

    def _action(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        """Attack the enemy group closest to dying (the first such), else support the ally
        with the highest attack."""
        groups = combat.groups
        best: Command | None = None
        least = 0
        for c in options:
            if type(c) is not Attack:
                break  # the attacks come first (options.ask_action), then the supports
            target = groups[c.target]
            left = target.units * target.health - target.damage  # health left
            if best is None or left < least:
                best, least = c, left
        if best is not None:
            return best
        supports = [c for c in options if isinstance(c, Support) and c.bonus == "attack"]
        if supports:
            return max(supports, key=lambda c: combat.groups[c.target].attack)
        return options[0]

    def _losing(self, combat: Combat, seat: str) -> bool:
        if not self.retreat_below:
            return False
        return _outnumbered(combat, seat, self.retreat_below)


# The default player's choice for each kind of decision, by the type of its first option
# (one lookup instead of a chain of isinstance tests); other kinds take the first option.
# A tactic window (its first option a play or a pass) is chosen with the hand (_WINDOW).
_CHOOSERS: dict[
    type[Command], Callable[[DefaultPolicy, Combat, str, Sequence[Command]], Command]
] = {
    Attack: DefaultPolicy._action,
    Support: DefaultPolicy._action,
    Retreat: DefaultPolicy._retreat,
    DeployGroup: DefaultPolicy._deploy,
    HealGroup: DefaultPolicy._heal,
    Reroll: DefaultPolicy._reroll,
    ClaimArmor: DefaultPolicy._claim_armor,
    Backstab: DefaultPolicy._backstab,
    PayInjury: DefaultPolicy._pay_injury,
    RetreatUnits: DefaultPolicy._retreat_units,
}


def _window(
    policy: DefaultPolicy, combat: Combat, seat: str, options: Sequence[Command]
) -> Command:
    """A tactic window chosen without a hand (:meth:`DefaultPolicy.choose` recognises this
    entry of :data:`_CHOOSERS` and passes the seat's hand instead)."""
    return policy._tactic(combat, seat, options, ())


_WINDOW = _window
_CHOOSERS[PlayTactic] = _CHOOSERS[PassTactics] = _WINDOW


def _outnumbered(combat: Combat, seat: str, share: float) -> bool:
    """Whether ``seat``'s side has fewer units on the boards than ``share`` of the other
    side's (allies count with their side, N-TEAM-4)."""
    mine_side, enemy = combat.side(seat), combat.opponent(seat)
    mine = sum(g.units for g in combat.groups if g.units and combat.side(g.owner) == mine_side)
    theirs = sum(g.units for g in combat.groups if g.units and combat.side(g.owner) == enemy)
    return mine < share * max(1, theirs)


def effect_value(spec: EffectSpec, *, losing: bool = False) -> float:
    """A rough worth of one effect for a player choosing without search."""
    if spec.kind == "withdraw":  # a way out when losing, a loss of tempo otherwise
        return 5.0 if losing else -5.0
    if spec.kind == "no_retreat":
        return 1.0
    if spec.kind == "gain_resources" and spec.per:  # worth what it counts: the caller knows
        return 0.0
    if spec.kind in ("gain_resources", "structure_discount", "tech_discount"):
        return 0.5 * (spec.resources.food + spec.resources.wood + spec.resources.metal)
    if spec.kind == "destroy_structure":
        return -3.0 + spec.amount
    per = _PER_POINT.get(spec.kind, 0.0)
    if spec.kind in ("grant_ability", "extra_embrace", "strategise_zone", "build_structure"):
        return per
    if spec.kind in ("unlock_structure", "move_after_win", "replace_unit"):
        return per
    amount = max(1, spec.amount)
    return per * amount * (2 if spec.target == "own_groups" else 1)


def option_value(option: TacticOption, *, losing: bool = False) -> float:
    """A rough worth of playing ``option``: its effects less its costs."""
    value = sum(effect_value(e, losing=losing) for e in option.effects)
    cost = option.cost
    return (
        value
        - 0.5 * (cost.food + cost.wood + cost.metal)
        - 0.3 * option.flare
        - (CARD_WORTH * option.discards)
    )


def option_is_hostile(option: TacticOption) -> bool:
    """Whether the option's chosen player should be an opponent (it binds them)."""
    return any(e.kind == "no_retreat" for e in option.effects)


def _target_value(combat: Combat, seat: str, option: TacticOption, target: int) -> float:
    """Prefer the group an option helps most: the damaged one to heal, the big one to
    boost; never one that the option's own damage would kill."""
    group = combat.groups[target]
    value = 0.1 * group.units
    for effect in option.effects:
        if effect.kind == "remove_damage":
            value += 0.5 * min(group.damage, effect.amount)
        if effect.kind == "damage" and group.damage + effect.amount >= group.health:
            value -= 5.0
    return value
