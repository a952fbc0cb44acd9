"""Commands and events of combat (rules §6).

Every choice the rules give a player in combat is one of these commands (rules §14);
every automatic step and every die roll is one of these events.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from nataterra_core.kernel import Command, DrawEvent, Event
from nataterra_core.kernel.visibility import PUBLIC

from ..stock import Resources
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
    "ChoiceResolved",
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
    "Support",
    "Supported",
    "UnitsRetreated",
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

# -- events -----------------------------------------------------------------------------


class CombatStarted(Event, frozen=True, tag="combat_started.v1"):
    """A combat begins in ``zone``: the forces of both sides and what they bring;
    ``allies`` maps each further player of a side to its lead (team games, N-TEAM-4)."""

    visibility = PUBLIC

    zone: str
    biome: str
    attacker: str
    defender: str
    forces: tuple[Force, ...]
    sides: dict[str, dict[str, Literal["a", "b"]]]
    stocks: dict[str, Resources]
    flare: dict[str, int] = msgspec.field(default_factory=dict)
    allies: dict[str, str] = msgspec.field(default_factory=dict)


class GroupDeployed(Event, frozen=True, tag="group_deployed.v1"):
    """A group of ``units`` ``unit`` tokens took a ``slot`` of that kind; its id is ``group``."""

    visibility = PUBLIC

    seat: str
    group: int
    unit: str
    units: int
    slot: SlotKind
    origin: str = ""


class StrategiseOffered(Event, frozen=True, tag="strategise_offered.v1"):
    """N-ABL-7: ``seats`` have units next door that may join by Strategise, in this order."""

    visibility = PUBLIC

    seats: tuple[str, ...]


class StrategiseJoined(Event, frozen=True, tag="strategise_joined.v1"):
    """N-ABL-7: ``count`` of ``seat``'s ``unit`` in ``origin`` joined the combat."""

    visibility = PUBLIC

    seat: str
    unit: str
    origin: str
    count: int


class DeploymentEnded(Event, frozen=True, tag="deployment_ended.v1"):
    """``seat`` has placed every group it can."""

    visibility = PUBLIC

    seat: str


class BiomeCardRevealed(Event, frozen=True, tag="biome_card_revealed.v1"):
    """N-COMBAT-7: the combat's biome card (``None``: mountain, lake or an empty deck)."""

    visibility = PUBLIC

    card: str | None


class BiomeTargetFixed(Event, frozen=True, tag="biome_target_fixed.v1"):
    """N-COMBAT-8: who holds the card's main effect; ``redirected_by`` the Naga paying flare."""

    visibility = PUBLIC

    holders: tuple[str, ...]
    redirected_by: str | None = None
    flare_paid: int = 0


class EffectDamage(Event, frozen=True, tag="effect_damage.v1"):
    """Damage from an effect, not an attack (``smite`` ignores armor, N-COMBAT-21)."""

    visibility = PUBLIC

    group: int
    amount: int
    smite: bool
    deaths: int
    bloodthirst: int = 0


class BonusGranted(Event, frozen=True, tag="bonus_granted.v1"):
    """An effect gave ``group`` attack and/or armor bonus tokens."""

    visibility = PUBLIC

    group: int
    attack: int = 0
    armor: int = 0


class InitiativeRaised(Event, frozen=True, tag="initiative_raised.v1"):
    """``seat``'s ``unit`` initiative marker goes up by ``amount`` (cap 10, N-COMBAT-6)."""

    visibility = PUBLIC

    seat: str
    unit: str
    amount: int


class AbilityGranted(Event, frozen=True, tag="ability_granted.v1"):
    """A tactic option gave ``group`` ``levels`` of ``ability`` until the end of the round."""

    visibility = PUBLIC

    group: int
    ability: str
    levels: int = 1


class WithdrawalDeclared(Event, frozen=True, tag="withdrawal_declared.v1"):
    """A tactic option: ``seat`` retreats at the end of this round, unasked and without
    backstab."""

    visibility = PUBLIC

    seat: str


class EmbraceGranted(Event, frozen=True, tag="embrace_granted.v1"):
    """A tactic option: ``seat`` may use Spirit's Embrace once more, free, at the start of
    the next round (N-CIV-3)."""

    visibility = PUBLIC

    seat: str


class MoveAfterWinGranted(Event, frozen=True, tag="move_after_win_granted.v1"):
    """An after-combat option: the winner ``seat`` may move each of its units in the zone
    up to one zone."""

    visibility = PUBLIC

    seat: str


class StrategiseGranted(Event, frozen=True, tag="strategise_granted.v1"):
    """A set-up option: ``seat``'s units in ``zone`` (next to the combat) gain Strategise
    this turn and may join the combat (N-ABL-7)."""

    visibility = PUBLIC

    seat: str
    zone: str


class DamageRemoved(Event, frozen=True, tag="damage_removed.v1"):
    """An effect removed ``amount`` damage markers from ``group``."""

    visibility = PUBLIC

    group: int
    amount: int


class AmbushJoined(Event, frozen=True, tag="ambush_joined.v1"):
    """Ambush: one ``unit`` token of ``seat`` joins this combat until it ends."""

    visibility = PUBLIC

    seat: str
    unit: str


class PlayerChosen(Event, frozen=True, tag="player_chosen.v1"):
    """``seat`` chose ``chosen`` for the effect ``effect``."""

    visibility = PUBLIC

    seat: str
    chosen: str
    effect: str


class ChoiceResolved(Event, frozen=True, tag="choice_resolved.v1"):
    """The first pending ``choice`` (``seat``'s) is answered; ``declined`` when the seat
    passed or had nothing to choose. Its effects follow as events of their own."""

    visibility = PUBLIC

    seat: str
    choice: str
    declined: bool = False


class WindowOpened(Event, frozen=True, tag="window_opened.v1"):
    """A tactic window (``setup``, ``before``, ``group`` or ``after``) asks ``seats`` in this
    order, each once (N-COMBAT-9/11/27): every seat holding a tactic card that has not given
    a standing pass, whether or not a card fits (hand sizes are public, contents are not)."""

    visibility = PUBLIC

    window: str
    seats: tuple[str, ...]


class StandingPassGiven(Event, frozen=True, tag="standing_pass_given.v1"):
    """``seat`` passes in every later tactic window of this combat (N-COMBAT-9): no window
    asks it again until the combat ends."""

    visibility = PUBLIC

    seat: str


class TacticPlayed(Event, frozen=True, tag="tactic_played.v1"):
    """``seat`` played option ``option`` of ``card`` (discarded, cost paid) at ``target``;
    ``deferred`` after-combat options resolve when the combat ends (N-TAC-1a)."""

    visibility = PUBLIC

    seat: str
    card: str
    option: int
    target: int | None = None
    cost: Resources = Resources()
    flare: int = 0
    deferred: bool = False


class DeferredResolved(Event, frozen=True, tag="deferred_resolved.v1"):
    """An after-combat option played during the combat resolves now (or lapses)."""

    visibility = PUBLIC

    seat: str
    card: str
    option: int
    lapsed: bool = False


class StoneskinHardened(Event, frozen=True, tag="stoneskin_hardened.v1"):
    """N-CIV-2: ``seat`` played a tactic option; each of its groups gains ``amount`` armor."""

    visibility = PUBLIC

    seat: str
    amount: int


class TacticDiscarded(Event, frozen=True, tag="tactic_discarded.v1"):
    """``seat`` discarded the tactic card ``card`` (face up)."""

    visibility = PUBLIC

    seat: str
    card: str


class SpiritsEmbraced(Event, frozen=True, tag="spirits_embraced.v1"):
    """N-CIV-3: ``seat`` paid ``flare`` for ``amount`` ``bonus`` on ``group``."""

    visibility = PUBLIC

    seat: str
    group: int
    bonus: Literal["attack", "armor"]
    amount: int
    flare: int


class UnitsMovedAfterWin(Event, frozen=True, tag="units_moved_after_win.v1"):
    """Quick Gains moved ``count`` ``unit`` to ``destination``."""

    visibility = PUBLIC

    seat: str
    unit: str
    count: int
    destination: str


class CombatOpened(Event, frozen=True, tag="combat_opened.v1"):
    """N-COMBAT-6/7: the initiative markers once the biome card has acted."""

    visibility = PUBLIC

    initiative: dict[str, int]


class GroupActivated(Event, frozen=True, tag="group_activated.v1"):
    """``group`` is the active group (N-COMBAT-10)."""

    visibility = PUBLIC

    group: int


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


class AttackResolved(DrawEvent, frozen=True, tag="attack_resolved.v2"):
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
    fields are ``None`` (omitted in logs). v2: v1 always came after an ``AttackRolled``.
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


class RoundEnded(Event, frozen=True, tag="round_ended.v1"):
    """Every group has acted in round ``round``."""

    visibility = PUBLIC

    round: int


class RoundClosing(Event, frozen=True, tag="round_closing.v1"):
    """End-of-round effects of round ``round`` are due (N-COMBAT-8 *during* effects)."""

    visibility = PUBLIC

    round: int


class RoundEffectsResolved(Event, frozen=True, tag="round_effects_resolved.v1"):
    """End-of-round effects are done; the retreat decisions follow (N-COMBAT-22)."""

    visibility = PUBLIC

    round: int


class RetreatChosen(Event, frozen=True, tag="retreat_chosen.v1"):
    """N-COMBAT-22: ``seat`` retreats or stays; ``forced``: without backstab, by the round cap
    (N-COMBAT-29) or a tactic option's withdrawal."""

    visibility = PUBLIC

    seat: str
    retreat: bool
    forced: bool = False


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


class CombatDecided(Event, frozen=True, tag="combat_decided.v1"):
    """N-COMBAT-25: the winner (``None``: nobody), fixed before injuries."""

    visibility = PUBLIC

    winner: str | None


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


class Aftermath(Event, frozen=True, tag="aftermath.v1"):
    """Injuries and retreat moves are done; after-combat effects follow (N-COMBAT-28)."""

    visibility = PUBLIC


class CombatEnded(Event, frozen=True, tag="combat_ended.v1"):
    """The combat in ``zone`` is over (N-COMBAT-28)."""

    visibility = PUBLIC

    zone: str
    winner: str | None
    killed: dict[str, int]
    injured: dict[str, int]


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
