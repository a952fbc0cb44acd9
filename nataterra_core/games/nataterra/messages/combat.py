"""Commands and events of combat (rules §6).

Every choice the rules give a player in combat is one of these commands (rules §14);
every automatic step and every die roll is one of these events. :data:`COMMANDS` and
:data:`EVENTS` are a combat's, in the game and in the sandbox alike; :class:`StartCombat`
and :class:`BiomeCardDrawn` open a combat of the game only. The rules are in
``rules/combat/`` and ``rules/combat_phase.py``.
"""

from __future__ import annotations

from typing import Literal

from nataterra_core.kernel import Command, Event
from nataterra_core.kernel.visibility import PUBLIC

from ..rules.combat.model import SlotKind
from .combat_opening import (
    AbilityGranted,
    AmbushJoined,
    BiomeCardRevealed,
    BiomeTargetFixed,
    BonusGranted,
    ChoiceResolved,
    CombatStarted,
    DamageRemoved,
    DeferredResolved,
    DeploymentEnded,
    EffectDamage,
    EmbraceGranted,
    GroupDeployed,
    InitiativeRaised,
    MoveAfterWinGranted,
    PlayerChosen,
    SpiritsEmbraced,
    StandingPassGiven,
    StoneskinHardened,
    StrategiseGranted,
    StrategiseJoined,
    StrategiseOffered,
    TacticDiscarded,
    TacticPlayed,
    UnitsMovedAfterWin,
    WindowOpened,
    WithdrawalDeclared,
)
from .combat_rounds import (
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

__all__ = [
    "COMMANDS",
    "EVENTS",
    "AbilityGranted",
    "ActivationEnded",
    "Aftermath",
    "AmbushJoined",
    "ArmorClaimed",
    "Attack",
    "AttackResolved",
    "AttackRolled",
    "Backstab",
    "BackstabDeclared",
    "BackstabDeclined",
    "BackstabEnded",
    "BiomeCardRevealed",
    "BiomeTargetFixed",
    "BonusGranted",
    "ChoiceResolved",
    "ChooseEffectGroup",
    "ChooseGroup",
    "ChoosePlayer",
    "ClaimArmor",
    "CombatDecided",
    "CombatEnded",
    "CombatOpened",
    "CombatStarted",
    "DamageRemoved",
    "DeferredResolved",
    "DeployGroup",
    "DeploymentEnded",
    "DiscardTactic",
    "EffectDamage",
    "EmbraceGranted",
    "ExtraAttackBegun",
    "FinishMoves",
    "GroupActivated",
    "GroupDeployed",
    "HealGroup",
    "Healed",
    "InitiativeRaised",
    "InjuryResolved",
    "MoveAfterWin",
    "MoveAfterWinGranted",
    "PassTactics",
    "PayInjury",
    "PlayTactic",
    "PlayerChosen",
    "RaiseInitiative",
    "RedirectBiome",
    "Reroll",
    "Retreat",
    "RetreatChosen",
    "RetreatMoveStarted",
    "RetreatUnits",
    "RoundClosing",
    "RoundEffectsResolved",
    "RoundEnded",
    "RoundStarted",
    "SpiritsEmbrace",
    "SpiritsEmbraced",
    "StandingPass",
    "StandingPassGiven",
    "StoneskinHardened",
    "Strategise",
    "StrategiseDone",
    "StrategiseGranted",
    "StrategiseJoined",
    "StrategiseOffered",
    "Support",
    "Supported",
    "TacticDiscarded",
    "TacticPlayed",
    "UnitsMovedAfterWin",
    "UnitsRetreated",
    "WindowOpened",
    "WithdrawalDeclared",
]

# -- commands ---------------------------------------------------------------------------


class DeployGroup(Command, frozen=True, tag="deploy_group.v1"):
    """N-COMBAT-4/5: place one group of ``size`` ``unit`` tokens in a ``slot`` of that kind."""

    visibility = PUBLIC

    unit: str
    size: int
    slot: SlotKind
    origin: str = ""


class Strategise(Command, frozen=True, tag="strategise.v1"):
    """N-ABL-7: ``count`` ``unit`` in the adjacent ``origin`` join this combat as if here."""

    visibility = PUBLIC

    unit: str
    origin: str
    count: int


class StrategiseDone(Command, frozen=True, tag="strategise_done.v1"):
    """No more units join by Strategise."""

    visibility = PUBLIC


class ChooseGroup(Command, frozen=True, tag="choose_group.v1"):
    """N-COMBAT-10: among your groups tied for initiative, ``group`` acts next."""

    visibility = PUBLIC

    group: int


class HealGroup(Command, frozen=True, tag="heal_group.v1"):
    """N-COMBAT-11a/N-ABL-3: the active group's Heal removes damage from ``target``."""

    visibility = PUBLIC

    target: int


class Attack(Command, frozen=True, tag="attack.v1"):
    """N-COMBAT-12/13: the active group attacks ``target``."""

    visibility = PUBLIC

    target: int


class Support(Command, frozen=True, tag="support.v1"):
    """N-COMBAT-19: the active group gives ``target`` an attack or an armor bonus."""

    visibility = PUBLIC

    target: int
    bonus: Literal["attack", "armor"]


class Reroll(Command, frozen=True, tag="reroll.v1"):
    """N-ABL-8 Deception: re-roll the attack die once (``reroll``) or keep it."""

    visibility = PUBLIC

    reroll: bool


class ClaimArmor(Command, frozen=True, tag="claim_armor.v1"):
    """N-CIV-1 For the King: take the armor bonus the attack earned, or not."""

    visibility = PUBLIC

    accept: bool


class Retreat(Command, frozen=True, tag="retreat.v1"):
    """N-COMBAT-22: retreat from the combat now, or stay."""

    visibility = PUBLIC

    retreat: bool


class Backstab(Command, frozen=True, tag="backstab.v1"):
    """N-COMBAT-23: attack the retreating side once with ``group`` at ``target`` (both
    ``None``: no backstab)."""

    visibility = PUBLIC

    group: int | None = None
    target: int | None = None


class RetreatUnits(Command, frozen=True, tag="retreat_units.v1"):
    """N-COMBAT-23: move ``count`` retreating ``unit`` tokens to the adjacent ``destination``."""

    visibility = PUBLIC

    unit: str
    count: int
    destination: str


class PayInjury(Command, frozen=True, tag="pay_injury.v1"):
    """N-COMBAT-26: pay the injury fee for ``group`` (``pay``) or lose one of its units."""

    visibility = PUBLIC

    group: int
    pay: bool


class RedirectBiome(Command, frozen=True, tag="redirect_biome.v1"):
    """N-COMBAT-8: the Naga take the card's civilisation effect for flare, or not."""

    visibility = PUBLIC

    redirect: bool


class DiscardTactic(Command, frozen=True, tag="discard_tactic.v1"):
    """A biome effect makes you discard a tactic card of your choice."""

    visibility = PUBLIC

    card: str


class RaiseInitiative(Command, frozen=True, tag="raise_initiative.v1"):
    """Hunting Trails: raise one of your initiative markers."""

    visibility = PUBLIC

    unit: str


class ChooseEffectGroup(Command, frozen=True, tag="choose_effect_group.v1"):
    """The group a biome effect acts on (A Familiar Area; Knowledge of the Waterways)."""

    visibility = PUBLIC

    group: int


class ChoosePlayer(Command, frozen=True, tag="choose_player.v1"):
    """The player a biome effect acts on (From the Shadows; Retractable Siphons)."""

    visibility = PUBLIC

    seat: str


class SpiritsEmbrace(Command, frozen=True, tag="spirits_embrace.v1"):
    """N-CIV-3 (provisional): spend 2 flare for 2 attack or armor bonus on ``group``
    (``group`` None: not this round)."""

    visibility = PUBLIC

    group: int | None = None
    bonus: Literal["attack", "armor"] = "attack"


class MoveAfterWin(Command, frozen=True, tag="move_after_win.v1"):
    """Quick Gains: move ``count`` ``unit`` from the won zone to an adjacent one."""

    visibility = PUBLIC

    unit: str
    count: int
    destination: str


class FinishMoves(Command, frozen=True, tag="finish_moves.v1"):
    """Quick Gains: leave the remaining units where they are."""

    visibility = PUBLIC


class PlayTactic(Command, frozen=True, tag="play_tactic.v1"):
    """Play option ``option`` of tactic card ``card`` (N-TAC-1), in its phase or combat
    window, with what the option asks to choose: ``target``, a group id; ``player``, a
    player of the combat; ``zone``, a zone; ``structure``, the structure a build places;
    ``discard``, the other tactic card an option's discard cost gives up."""

    visibility = PUBLIC

    card: str
    option: int
    target: int | None = None
    player: str | None = None
    zone: str | None = None
    structure: str | None = None
    discard: str | None = None


class PassTactics(Command, frozen=True, tag="pass_tactics.v1"):
    """Play nothing in this tactic window (the window will not ask you again)."""

    visibility = PUBLIC


class StandingPass(Command, frozen=True, tag="pass_windows.v1"):
    """Pass in this tactic window and every later one of this combat (N-COMBAT-9's ruling):
    those windows then go on without asking you, so a hand with nothing to play costs no
    decisions, and since every holder of a card is asked, giving it reveals nothing."""

    visibility = PUBLIC


COMMANDS: tuple[type[Command], ...] = (
    Strategise,
    StrategiseDone,
    RedirectBiome,
    DiscardTactic,
    RaiseInitiative,
    ChooseEffectGroup,
    ChoosePlayer,
    SpiritsEmbrace,
    MoveAfterWin,
    FinishMoves,
    PlayTactic,
    PassTactics,
    StandingPass,
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

# -- events (defined in .combat_opening and .combat_rounds) ------------------------------

EVENTS: tuple[type[Event], ...] = (
    CombatStarted,
    GroupDeployed,
    StrategiseOffered,
    StrategiseJoined,
    DeploymentEnded,
    BiomeCardRevealed,
    BiomeTargetFixed,
    EffectDamage,
    BonusGranted,
    InitiativeRaised,
    AbilityGranted,
    WithdrawalDeclared,
    EmbraceGranted,
    MoveAfterWinGranted,
    StrategiseGranted,
    DamageRemoved,
    AmbushJoined,
    PlayerChosen,
    ChoiceResolved,
    WindowOpened,
    StandingPassGiven,
    TacticPlayed,
    DeferredResolved,
    StoneskinHardened,
    TacticDiscarded,
    SpiritsEmbraced,
    UnitsMovedAfterWin,
    RoundClosing,
    RoundEffectsResolved,
    Aftermath,
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
    BackstabEnded,
    BackstabDeclined,
    CombatDecided,
    InjuryResolved,
    RetreatMoveStarted,
    UnitsRetreated,
    CombatEnded,
)


class StartCombat(Command, frozen=True, tag="start_combat.v1"):
    """N-COMBAT-1: the active player resolves the combat in ``zone`` against ``defender``
    next (N-COMBAT-1a: with three or more players, one opponent at a time)."""

    visibility = PUBLIC

    zone: str
    defender: str


class BiomeCardDrawn(Event, frozen=True, tag="biome_card_drawn.v1"):
    """N-COMBAT-7: the top card of the ``biome`` deck was drawn for a combat."""

    visibility = PUBLIC
    reveals_information = True

    biome: str
    card: str
