"""Commands and events of combat (rules §6).

Every choice the rules give a player in combat is one of these commands (rules §14);
every automatic step and every die roll is one of these events.
"""

from __future__ import annotations

from typing import Literal

from nataterra_core.kernel import Command, Event

from ..state import Resources
from .model import Force, SlotKind

__all__ = [
    "COMMANDS",
    "EVENTS",
    "ActivationEnded",
    "ArmorClaimed",
    "Attack",
    "AttackResolved",
    "AttackRolled",
    "Backstab",
    "BackstabDeclared",
    "BackstabDeclined",
    "ChooseGroup",
    "ClaimArmor",
    "CombatDecided",
    "CombatEnded",
    "CombatOpened",
    "CombatStarted",
    "DeployGroup",
    "DeploymentEnded",
    "ExtraAttackBegun",
    "GroupActivated",
    "GroupDeployed",
    "HealGroup",
    "Healed",
    "InjuryResolved",
    "PayInjury",
    "Reroll",
    "Retreat",
    "RetreatChosen",
    "RetreatMoveStarted",
    "RetreatUnits",
    "RoundEnded",
    "RoundStarted",
    "Support",
    "Supported",
    "UnitsRetreated",
]

# -- commands ---------------------------------------------------------------------------


class DeployGroup(Command, frozen=True, tag="deploy_group.v1"):
    """N-COMBAT-4/5: place one group of ``size`` ``unit`` tokens in a ``slot`` of that kind."""

    unit: str
    size: int
    slot: SlotKind


class ChooseGroup(Command, frozen=True, tag="choose_group.v1"):
    """N-COMBAT-10: among your groups tied for initiative, ``group`` acts next."""

    group: int


class HealGroup(Command, frozen=True, tag="heal_group.v1"):
    """N-COMBAT-11a/N-ABL-3: the active group's Heal removes damage from ``target``."""

    target: int


class Attack(Command, frozen=True, tag="attack.v1"):
    """N-COMBAT-12/13: the active group attacks ``target``."""

    target: int


class Support(Command, frozen=True, tag="support.v1"):
    """N-COMBAT-19: the active group gives ``target`` an attack or an armor bonus."""

    target: int
    bonus: Literal["attack", "armor"]


class Reroll(Command, frozen=True, tag="reroll.v1"):
    """N-ABL-8 Deception: re-roll the attack die once (``reroll``) or keep it."""

    reroll: bool


class ClaimArmor(Command, frozen=True, tag="claim_armor.v1"):
    """N-CIV-1 For the King: take the armor bonus the attack earned, or not."""

    accept: bool


class Retreat(Command, frozen=True, tag="retreat.v1"):
    """N-COMBAT-22: retreat from the combat now, or stay."""

    retreat: bool


class Backstab(Command, frozen=True, tag="backstab.v1"):
    """N-COMBAT-23: attack the retreating side once with ``group`` at ``target`` (both
    ``None``: no backstab)."""

    group: int | None = None
    target: int | None = None


class RetreatUnits(Command, frozen=True, tag="retreat_units.v1"):
    """N-COMBAT-23: move ``count`` retreating ``unit`` tokens to the adjacent ``destination``."""

    unit: str
    count: int
    destination: str


class PayInjury(Command, frozen=True, tag="pay_injury.v1"):
    """N-COMBAT-26: pay the injury fee for ``group`` (``pay``) or lose one of its units."""

    group: int
    pay: bool


COMMANDS: tuple[type[Command], ...] = (
    DeployGroup,
    ChooseGroup,
    HealGroup,
    Attack,
    Support,
    Reroll,
    ClaimArmor,
    Retreat,
    Backstab,
    RetreatUnits,
    PayInjury,
)

# -- events -----------------------------------------------------------------------------


class CombatStarted(Event, frozen=True, tag="combat_started.v1"):
    """A combat begins in ``zone``: the forces of both sides and what they bring."""

    zone: str
    biome: str
    attacker: str
    defender: str
    forces: tuple[Force, ...]
    sides: dict[str, dict[str, Literal["a", "b"]]]
    stocks: dict[str, Resources]


class GroupDeployed(Event, frozen=True, tag="group_deployed.v1"):
    """A group of ``units`` ``unit`` tokens took a ``slot`` of that kind; its id is ``group``."""

    seat: str
    group: int
    unit: str
    units: int
    slot: SlotKind


class DeploymentEnded(Event, frozen=True, tag="deployment_ended.v1"):
    """``seat`` has placed every group it can."""

    seat: str


class CombatOpened(Event, frozen=True, tag="combat_opened.v1"):
    """N-COMBAT-6/7: the biome card drawn (if any) and the initiative markers it leaves."""

    biome_card: str | None
    initiative: dict[str, int]


class RoundStarted(Event, frozen=True, tag="round_started.v1"):
    """Combat round ``round`` begins (N-COMBAT-10)."""

    round: int


class GroupActivated(Event, frozen=True, tag="group_activated.v1"):
    """``group`` is the active group (N-COMBAT-10)."""

    group: int


class Healed(Event, frozen=True, tag="healed.v1"):
    """``group``'s Heal removed ``amount`` damage from ``target`` (N-ABL-3)."""

    group: int
    target: int
    amount: int


class AttackRolled(Event, frozen=True, tag="attack_rolled.v1"):
    """The attack die for ``group`` against ``target``: ``value`` indexes the pack's faces."""

    group: int
    target: int
    m: int
    counter_before: int
    counter_after: int
    value: int
    face: int
    swords: int
    reroll: bool = False


class AttackResolved(Event, frozen=True, tag="attack_resolved.v1"):
    """What the attack did (N-COMBAT-14..17, N-ABL-1/9/12, N-CIV-1/3/4).

    ``damage`` markers went on the target, killing ``target_deaths``; Retaliation dealt
    ``retaliation`` smite to the attacker, killing ``attacker_deaths``. The attacker's
    attack bonus was spent (``bonus_spent`` tokens) and it gained ``swords``; the target
    spent its armor bonus if ``armor_bonus_spent`` and gained ``bloodthirst`` attack bonus.
    ``armor_claim`` is the For the King armor bonus the attacker may now take; ``flare`` the
    Naga flare gained; ``ends_activation`` says the group has nothing left to do (no extra
    attack, no claim, both sides still standing), so its activation ends here.
    """

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


class ArmorClaimed(Event, frozen=True, tag="armor_claimed.v1"):
    """N-CIV-1: ``group`` took ``amount`` armor bonus (0: declined)."""

    group: int
    amount: int


class ExtraAttackBegun(Event, frozen=True, tag="extra_attack_begun.v1"):
    """N-COMBAT-18: ``group`` attacks again."""

    group: int


class Supported(Event, frozen=True, tag="supported.v1"):
    """N-COMBAT-19: ``group`` gave ``target`` ``amount`` attack or armor bonus."""

    group: int
    target: int
    bonus: Literal["attack", "armor"]
    amount: int


class ActivationEnded(Event, frozen=True, tag="activation_ended.v1"):
    """``group`` has acted this round."""

    group: int


class RoundEnded(Event, frozen=True, tag="round_ended.v1"):
    """Every group has acted in round ``round``."""

    round: int


class RetreatChosen(Event, frozen=True, tag="retreat_chosen.v1"):
    """N-COMBAT-22: ``seat`` retreats or stays; ``forced`` by the round cap N-COMBAT-29."""

    seat: str
    retreat: bool
    forced: bool = False


class BackstabDeclared(Event, frozen=True, tag="backstab_declared.v1"):
    """N-COMBAT-23: ``seat``'s ``group`` backstabs ``target``."""

    seat: str
    group: int
    target: int


class BackstabDeclined(Event, frozen=True, tag="backstab_declined.v1"):
    """No backstab (declined, impossible or barred)."""

    seat: str


class CombatDecided(Event, frozen=True, tag="combat_decided.v1"):
    """N-COMBAT-25: the winner (``None``: nobody), fixed before injuries."""

    winner: str | None


class InjuryResolved(Event, frozen=True, tag="injury_resolved.v1"):
    """N-COMBAT-26: ``group`` paid ``fee`` or lost one unit."""

    group: int
    paid: bool
    fee: Resources


class RetreatMoveStarted(Event, frozen=True, tag="retreat_move_started.v1"):
    """The retreating side's remaining units leave the boards to move away."""

    seat: str
    forces: tuple[Force, ...]


class UnitsRetreated(Event, frozen=True, tag="units_retreated.v1"):
    """``count`` ``unit`` tokens moved to ``destination``; without one they left the combat
    (sandbox, no map) or, with ``lost``, were destroyed for want of a zone."""

    seat: str
    unit: str
    count: int
    destination: str | None = None
    lost: bool = False


class CombatEnded(Event, frozen=True, tag="combat_ended.v1"):
    """The combat in ``zone`` is over (N-COMBAT-28)."""

    zone: str
    winner: str | None
    killed: dict[str, int]
    injured: dict[str, int]


EVENTS: tuple[type[Event], ...] = (
    CombatStarted,
    GroupDeployed,
    DeploymentEnded,
    CombatOpened,
    RoundStarted,
    GroupActivated,
    Healed,
    AttackRolled,
    AttackResolved,
    ArmorClaimed,
    ExtraAttackBegun,
    Supported,
    ActivationEnded,
    RoundEnded,
    RetreatChosen,
    BackstabDeclared,
    BackstabDeclined,
    CombatDecided,
    InjuryResolved,
    RetreatMoveStarted,
    UnitsRetreated,
    CombatEnded,
)
