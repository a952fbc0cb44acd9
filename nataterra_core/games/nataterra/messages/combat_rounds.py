"""Combat events of the rounds (rules §6, §11, §12): activations, attacks and their dice,
support, healing, retreat and backstab, injuries and the end of a combat. Re-exported by
:mod:`.combat`, where the event list is."""

from __future__ import annotations

from typing import Literal

from nataterra_core.kernel import DrawEvent, Event
from nataterra_core.kernel.visibility import PUBLIC

from ..rules.combat.model import Force
from ..rules.stock import Resources

__all__ = [
    "ActivationEnded",
    "Aftermath",
    "ArmorClaimed",
    "AttackResolved",
    "AttackRolled",
    "BackstabDeclared",
    "BackstabDeclined",
    "BackstabEnded",
    "CombatDecided",
    "CombatEnded",
    "CombatOpened",
    "ExtraAttackBegun",
    "GroupActivated",
    "Healed",
    "InjuryResolved",
    "RetreatChosen",
    "RetreatMoveStarted",
    "RoundClosing",
    "RoundEffectsResolved",
    "RoundEnded",
    "RoundStarted",
    "Supported",
    "UnitsRetreated",
]


class CombatOpened(Event, frozen=True, tag="combat_opened.v1"):
    """N-COMBAT-6/7: the initiative markers once the biome card has acted."""

    visibility = PUBLIC

    initiative: dict[str, int]


class RoundStarted(Event, frozen=True, tag="round_started.v2"):
    """Combat round ``round`` begins (N-COMBAT-10): when the combat opens, and after each
    round that nobody retreated from (N-COMBAT-22). Spirit's Embrace is offered first
    (N-CIV-3): to the Naga players in ``embrace``, who have the flare to pay for it, and to
    those in ``free_embrace``, whose extra one a card paid for. v2: v1 (rules versions 1
    and 2) had ``round`` alone, and the fold found whom to offer it to."""

    visibility = PUBLIC

    round: int
    embrace: tuple[str, ...] = ()
    free_embrace: tuple[str, ...] = ()


class GroupActivated(Event, frozen=True, tag="group_activated.v2"):
    """``group`` is the active group (N-COMBAT-10), chosen by its owner among tied groups
    or the only one that may act next; ``heal``: it has Heal, so it heals first
    (N-COMBAT-11a). v2: logged for every activation (v1 only for a chosen group or where
    a tactic window may open), and ``heal``."""

    visibility = PUBLIC

    group: int
    heal: bool = False


class Healed(Event, frozen=True, tag="healed.v1"):
    """``group``'s Heal removed ``amount`` damage from ``target`` (N-ABL-3)."""

    visibility = PUBLIC

    group: int
    target: int
    amount: int


class AttackRolled(DrawEvent, frozen=True, tag="attack_rolled.v1"):
    """The attack die for ``group`` against ``target``, shown before its result because a
    Deception choice comes first (N-ABL-8): ``value`` indexes the pack's faces. Without
    Deception, :class:`AttackResolved` records the roll itself."""

    visibility = PUBLIC

    group: int
    target: int
    m: int
    counter_before: int
    counter_after: int
    value: int
    face: int
    swords: int
    reroll: bool = False


class AttackResolved(DrawEvent, frozen=True, tag="attack_resolved.v3"):
    """What the attack did (N-COMBAT-14..17, N-ABL-1/9/12, N-CIV-1/3/4), and in the common
    case the die roll that did it.

    ``damage`` markers went on the target, killing ``target_deaths``; Retaliation dealt
    ``retaliation`` smite to the attacker, killing ``attacker_deaths``. The attacker's
    attack bonus was spent (``bonus_spent`` tokens) and it gained ``swords``; the target
    spent its armor bonus if ``armor_bonus_spent`` and gained ``bloodthirst`` attack bonus.
    ``armor_claim`` is the For the King armor bonus the attacker may now take; ``flare`` the
    Naga flare gained; ``ends_activation`` says the group has nothing left to do (no extra
    attack, no claim, both sides still standing), so its activation ends here.

    When no Deception choice stands between the roll and its result (the common case), this
    event records the roll itself with the random-event fields of ``DICE.md`` §6: ``m``,
    ``counter_before``, ``counter_after``, ``value`` (the face index) and ``face`` (its
    value). After a Deception choice :class:`AttackRolled` recorded the roll, and these
    fields are ``None`` (omitted in logs). ``to_melee``: the melee groups waiting in ranged
    slots that move to a melee slot the attack freed (N-COMBAT-5, in deployment order).
    v2: v1 always came after an ``AttackRolled``. v3: ``to_melee`` (the fold found them).
    """

    visibility = PUBLIC

    group: int
    target: int
    total: int
    damage: int
    target_deaths: int
    bonus_spent: int
    armor_bonus_spent: bool
    swords: int
    retaliation: int = 0
    attacker_deaths: int = 0
    bloodthirst: int = 0
    armor_claim: int = 0
    flare: int = 0
    ends_activation: bool = False
    m: int | None = None
    counter_before: int | None = None
    counter_after: int | None = None
    value: int | None = None
    face: int | None = None
    to_melee: tuple[int, ...] = ()


class ArmorClaimed(Event, frozen=True, tag="armor_claimed.v1"):
    """N-CIV-1: ``group`` took ``amount`` armor bonus (0: declined)."""

    visibility = PUBLIC

    group: int
    amount: int


class ExtraAttackBegun(Event, frozen=True, tag="extra_attack_begun.v1"):
    """N-COMBAT-18: ``group`` attacks again."""

    visibility = PUBLIC

    group: int


class Supported(Event, frozen=True, tag="supported.v1"):
    """N-COMBAT-19: ``group`` gave ``target`` ``amount`` attack or armor bonus."""

    visibility = PUBLIC

    group: int
    target: int
    bonus: Literal["attack", "armor"]
    amount: int


class ActivationEnded(Event, frozen=True, tag="activation_ended.v1"):
    """``group`` has acted this round."""

    visibility = PUBLIC

    group: int


class RoundEnded(Event, frozen=True, tag="round_ended.v2"):
    """Every group has acted in round ``round``. ``closing``: the round's end has work to
    do, a round-end biome effect (Drought, a healing card) or the round cap (N-COMBAT-29),
    so :class:`RoundClosing` follows; otherwise the retreat decisions do (N-COMBAT-22).
    v2: ``closing`` (the fold looked at the card and the round)."""

    visibility = PUBLIC

    round: int
    closing: bool = False


class RoundClosing(Event, frozen=True, tag="round_closing.v2"):
    """End-of-round effects of round ``round`` are due (N-COMBAT-8 *during* effects):
    the players in ``heal`` (holders of a healing card with a group on the board) each
    choose a group to heal. v2: ``heal`` (the fold looked at the card)."""

    visibility = PUBLIC

    round: int
    heal: tuple[str, ...] = ()


class RoundEffectsResolved(Event, frozen=True, tag="round_effects_resolved.v1"):
    """End-of-round effects are done; the retreat decisions follow (N-COMBAT-22)."""

    visibility = PUBLIC

    round: int


class RetreatChosen(Event, frozen=True, tag="retreat_chosen.v2"):
    """N-COMBAT-22: ``seat`` retreats or stays; ``forced``: without backstab, by the round cap
    (N-COMBAT-29) or a tactic option's withdrawal. ``stabbers``: the players of the side that
    stays, each of whom may backstab once, in order (N-COMBAT-24, N-TEAM-4); none after a
    forced retreat. v2: ``stabbers`` (the fold found them)."""

    visibility = PUBLIC

    seat: str
    retreat: bool
    forced: bool = False
    stabbers: tuple[str, ...] = ()


class BackstabDeclared(Event, frozen=True, tag="backstab_declared.v1"):
    """N-COMBAT-23: ``seat``'s ``group`` backstabs ``target``."""

    visibility = PUBLIC

    seat: str
    group: int
    target: int


class BackstabEnded(Event, frozen=True, tag="backstab_ended.v1"):
    """``seat`` made its backstab; the next player of its side may make one
    (N-COMBAT-24)."""

    visibility = PUBLIC

    seat: str


class BackstabDeclined(Event, frozen=True, tag="backstab_declined.v1"):
    """No backstab (declined, impossible or barred)."""

    visibility = PUBLIC

    seat: str


class CombatDecided(Event, frozen=True, tag="combat_decided.v2"):
    """N-COMBAT-25: the winner (``None``: nobody), fixed before injuries; ``injuries``: the
    groups on the board whose damage reached their injury threshold, in order, each of
    which costs a unit or its fee (N-COMBAT-26). v2: ``injuries`` (the fold found them)."""

    visibility = PUBLIC

    winner: str | None
    injuries: tuple[int, ...] = ()


class InjuryResolved(Event, frozen=True, tag="injury_resolved.v1"):
    """N-COMBAT-26: ``group`` paid ``fee`` or lost one unit."""

    visibility = PUBLIC

    group: int
    paid: bool
    fee: Resources


class RetreatMoveStarted(Event, frozen=True, tag="retreat_move_started.v1"):
    """The retreating side's remaining units leave the boards to move away."""

    visibility = PUBLIC

    seat: str
    forces: tuple[Force, ...]


class UnitsRetreated(Event, frozen=True, tag="units_retreated.v1"):
    """``count`` ``unit`` tokens moved to ``destination``; without one they left the combat
    (sandbox, no map) or, with ``lost``, were destroyed for want of a zone."""

    visibility = PUBLIC

    seat: str
    unit: str
    count: int
    destination: str | None = None
    lost: bool = False


class Aftermath(Event, frozen=True, tag="aftermath.v2"):
    """Injuries and retreat moves are done; after-combat effects follow (N-COMBAT-28).
    ``mover``: the winner, holding Quick Gains, is asked to move ``movable`` (unit, count)
    of its units out of the zone. v2: ``mover`` and ``movable`` (the fold found them)."""

    visibility = PUBLIC

    mover: str | None = None
    movable: tuple[tuple[str, int], ...] = ()


class CombatEnded(Event, frozen=True, tag="combat_ended.v1"):
    """The combat in ``zone`` is over (N-COMBAT-28)."""

    visibility = PUBLIC

    zone: str
    winner: str | None
    killed: dict[str, int]
    injured: dict[str, int]
