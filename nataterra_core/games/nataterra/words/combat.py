"""Sentences of combat (rules §6): every command a fighting player gives and every step and
roll of the fight, naming the groups by owner, number and units when the view shows them.

    >>> from nataterra_core.games.nataterra.rules.combat.messages import GroupDeployed
    >>> describe_event(GroupDeployed(seat="beasts", group=4, unit="orc", units=3, slot="melee"))
    'beasts deploys group 4: 3 Orcs in a melee slot'
"""

from __future__ import annotations

from typing import Any

from ..content.cards import BiomeEffect
from ..rules.combat.messages import (
    AbilityGranted,
    ActivationEnded,
    Aftermath,
    AmbushJoined,
    ArmorClaimed,
    Attack,
    AttackResolved,
    AttackRolled,
    Backstab,
    BackstabDeclared,
    BackstabDeclined,
    BackstabEnded,
    BiomeCardRevealed,
    BiomeTargetFixed,
    BonusGranted,
    ChoiceResolved,
    ChooseEffectGroup,
    ChooseGroup,
    ChoosePlayer,
    ClaimArmor,
    CombatDecided,
    CombatEnded,
    CombatOpened,
    CombatStarted,
    DamageRemoved,
    DeferredResolved,
    DeployGroup,
    DeploymentEnded,
    DiscardTactic,
    EffectDamage,
    EmbraceGranted,
    ExtraAttackBegun,
    FinishMoves,
    GroupActivated,
    GroupDeployed,
    Healed,
    HealGroup,
    InitiativeRaised,
    InjuryResolved,
    MoveAfterWin,
    MoveAfterWinGranted,
    PayInjury,
    PlayerChosen,
    RaiseInitiative,
    RedirectBiome,
    Reroll,
    Retreat,
    RetreatChosen,
    RetreatMoveStarted,
    RetreatUnits,
    RoundClosing,
    RoundEffectsResolved,
    RoundEnded,
    SpiritsEmbrace,
    SpiritsEmbraced,
    StoneskinHardened,
    Strategise,
    StrategiseDone,
    StrategiseGranted,
    StrategiseJoined,
    StrategiseOffered,
    Support,
    Supported,
    TacticDiscarded,
    TacticPlayed,
    UnitsMovedAfterWin,
    UnitsRetreated,
    WindowOpened,
    WithdrawalDeclared,
)
from ..rules.combat.model import Force
from ..rules.combat.sandbox import StartBattle
from ..rules.combat_phase import BiomeCardDrawn, StartCombat
from ..rules.stock import Resources
from .base import (
    combat_of,
    describe_command,
    describe_event,
    group_name,
    pack,
    resources_text,
    subject,
    tactic_title,
    unit_title,
    units_text,
)
from .turns import tactic_option_text

__all__ = ["biome_card_text", "forces_text"]


def forces_text(forces: tuple[Force, ...], owner: str) -> str:
    """``3 Zealots, 2 Hunters`` of one owner (``no units``)."""
    return ", ".join(units_text(f.count, f.unit) for f in forces if f.owner == owner) or "no units"


_EFFECTS = {
    "smite_each_round": "at the end of each round each group takes {n} smite damage",
    "no_retreat": "no retreat",
    "discard_tactic": "discard {n} tactic card(s)",
    "no_tactics_at_start": "no tactic cards at the start of the combat",
    "move_after_win": "the winner may move its units one zone",
    "ambush": "an ambushing unit joins the combat",
    "raise_initiative": "raise an initiative marker by {n}",
    "attack_bonus": "+{n} attack bonus",
    "draw_tactic_if_win": "draw {n} tactic card(s) on a win",
    "draw_tactic": "draw {n} tactic card(s)",
    "choose_player_discards": "choose a player who discards a tactic card",
    "no_backstab": "no backstab",
    "damage_per_group": "{n} damage to each group",
    "choose_player_no_retreat": "choose a player who may not retreat",
    "heal_each_round": "remove {n} damage from each group every round",
}


def _effect(effect: BiomeEffect) -> str:
    return _EFFECTS.get(effect.kind, effect.kind.replace("_", " ")).format(n=effect.amount)


def biome_card_text(card: str) -> str:
    """``Drought (for all: at the end of each round each group takes 1 smite damage)``."""
    found = pack().biome_cards.get(card)
    if found is None:
        return card
    return f"{found.title} (for {found.target}: {_effect(found.effect)})"


def _active(view: Any) -> str:
    combat = combat_of(view)
    return group_name(view, combat.active) if combat is not None and combat.active >= 0 else ""


def _acting(view: Any, seat: str | None, verb: str, bare: str) -> str:
    """``beasts' group 2 (3 Orcs) attacks`` with the active group known, else the seat's."""
    active = _active(view)
    return f"{active} {verb}" if active else subject(seat, verb, bare)


# -- commands ---------------------------------------------------------------------------------


@describe_command.register
def _(command: StartCombat, seat: str | None = None, view: Any = None) -> str:
    return (
        f"{subject(seat, 'starts', 'start')} the combat in {command.zone} "
        f"against {command.defender}"
    )


@describe_command.register
def _(command: StartBattle, seat: str | None = None, view: Any = None) -> str:
    sides = f": {view.attacker} attacks {view.defender}" if hasattr(view, "attacker") else ""
    return f"the battle begins{sides}"


@describe_command.register
def _(command: Strategise, seat: str | None = None, view: Any = None) -> str:
    return (
        f"{subject(seat, 'brings', 'bring')} {units_text(command.count, command.unit)} from "
        f"{command.origin} into the combat by Strategise"
    )


@describe_command.register
def _(command: StrategiseDone, seat: str | None = None, view: Any = None) -> str:
    return f"{subject(seat, 'brings', 'bring')} no more units by Strategise"


@describe_command.register
def _(command: RedirectBiome, seat: str | None = None, view: Any = None) -> str:
    if command.redirect:
        return f"{subject(seat, 'takes', 'take')} the biome card's effect for flare"
    return f"{subject(seat, 'leaves', 'leave')} the biome card's effect where it is"


@describe_command.register
def _(command: DiscardTactic, seat: str | None = None, view: Any = None) -> str:
    return f"{subject(seat, 'discards', 'discard')} {tactic_title(command.card)} (biome effect)"


@describe_command.register
def _(command: RaiseInitiative, seat: str | None = None, view: Any = None) -> str:
    return f"{subject(seat, 'raises', 'raise')} the {unit_title(command.unit)} initiative marker"


@describe_command.register
def _(command: ChooseEffectGroup, seat: str | None = None, view: Any = None) -> str:
    target = group_name(view, command.group)
    return f"{subject(seat, 'chooses', 'choose')} {target} for the biome card's effect"


@describe_command.register
def _(command: ChoosePlayer, seat: str | None = None, view: Any = None) -> str:
    return f"{subject(seat, 'chooses', 'choose')} {command.seat} for the effect"


@describe_command.register
def _(command: SpiritsEmbrace, seat: str | None = None, view: Any = None) -> str:
    if command.group is None:
        return f"{subject(seat, 'does', 'do')} not use Spirit's Embrace"
    return (
        f"{subject(seat, 'uses', 'use')} Spirit's Embrace: an {command.bonus} bonus for "
        f"{group_name(view, command.group)}"
    )


@describe_command.register
def _(command: MoveAfterWin, seat: str | None = None, view: Any = None) -> str:
    moved = units_text(command.count, command.unit)
    return f"{subject(seat, 'moves', 'move')} {moved} to {command.destination} after the win"


@describe_command.register
def _(command: FinishMoves, seat: str | None = None, view: Any = None) -> str:
    return f"{subject(seat, 'leaves', 'leave')} the other units where they are"


@describe_command.register
def _(command: DeployGroup, seat: str | None = None, view: Any = None) -> str:
    origin = f" (from {command.origin})" if command.origin else ""
    return (
        f"{subject(seat, 'deploys', 'deploy')} a group of "
        f"{units_text(command.size, command.unit)}{origin} in a {command.slot} slot"
    )


@describe_command.register
def _(command: ChooseGroup, seat: str | None = None, view: Any = None) -> str:
    return f"{subject(seat, 'lets', 'let')} {group_name(view, command.group)} act next"


@describe_command.register
def _(command: HealGroup, seat: str | None = None, view: Any = None) -> str:
    return f"{_acting(view, seat, 'heals', 'heal')} {group_name(view, command.target)}"


@describe_command.register
def _(command: Attack, seat: str | None = None, view: Any = None) -> str:
    return f"{_acting(view, seat, 'attacks', 'attack')} {group_name(view, command.target)}"


@describe_command.register
def _(command: Support, seat: str | None = None, view: Any = None) -> str:
    target = group_name(view, command.target)
    return f"{_acting(view, seat, 'supports', 'support')} {target} with an {command.bonus} bonus"


@describe_command.register
def _(command: Reroll, seat: str | None = None, view: Any = None) -> str:
    if command.reroll:
        return f"{subject(seat, 're-rolls', 're-roll')} the attack die (Deception)"
    return f"{subject(seat, 'keeps', 'keep')} the attack roll"


@describe_command.register
def _(command: ClaimArmor, seat: str | None = None, view: Any = None) -> str:
    verb = ("takes", "take") if command.accept else ("declines", "decline")
    return f"{subject(seat, *verb)} the armor bonus (For the King)"


@describe_command.register
def _(command: Retreat, seat: str | None = None, view: Any = None) -> str:
    if command.retreat:
        return f"{subject(seat, 'retreats', 'retreat')} from the combat"
    return f"{subject(seat, 'stays', 'stay')} in the combat"


@describe_command.register
def _(command: Backstab, seat: str | None = None, view: Any = None) -> str:
    if command.group is None:
        return f"{subject(seat, 'makes', 'make')} no backstab"
    target = group_name(view, command.target)
    return (
        f"{subject(seat, 'backstabs', 'backstab')} {target} with {group_name(view, command.group)}"
    )


@describe_command.register
def _(command: RetreatUnits, seat: str | None = None, view: Any = None) -> str:
    moved = units_text(command.count, command.unit)
    return f"{subject(seat, 'retreats', 'retreat')} {moved} to {command.destination}"


@describe_command.register
def _(command: PayInjury, seat: str | None = None, view: Any = None) -> str:
    group = group_name(view, command.group)
    combat = combat_of(view)
    fee = ""
    if combat is not None and 0 <= command.group < len(combat.groups):
        fee = f" of {resources_text(combat.groups[command.group].fee)}"
    if command.pay:
        return f"{subject(seat, 'pays', 'pay')} the injury fee{fee} for {group}"
    return f"{subject(seat, 'loses', 'lose')} a unit of {group} instead of paying{fee}"


# -- events -----------------------------------------------------------------------------------


@describe_event.register
def _(event: BiomeCardDrawn, view: Any = None) -> str:
    return f"the biome card {biome_card_text(event.card)} is drawn from the {event.biome} deck"


@describe_event.register
def _(event: CombatStarted, view: Any = None) -> str:
    return (
        f"combat in {event.zone} ({event.biome}): {event.attacker} attacks with "
        f"{forces_text(event.forces, event.attacker)}; {event.defender} defends with "
        f"{forces_text(event.forces, event.defender)}"
    )


@describe_event.register
def _(event: GroupDeployed, view: Any = None) -> str:
    origin = f" (from {event.origin})" if event.origin else ""
    return (
        f"{event.seat} deploys group {event.group}: {units_text(event.units, event.unit)}"
        f"{origin} in a {event.slot} slot"
    )


@describe_event.register
def _(event: StrategiseOffered, view: Any = None) -> str:
    return f"units next door may join by Strategise: {', '.join(event.seats)} in turn"


@describe_event.register
def _(event: StrategiseJoined, view: Any = None) -> str:
    joined = units_text(event.count, event.unit)
    return f"{event.seat}'s {joined} join from {event.origin} by Strategise"


@describe_event.register
def _(event: DeploymentEnded, view: Any = None) -> str:
    return f"{event.seat} has deployed every group it can"


@describe_event.register
def _(event: BiomeCardRevealed, view: Any = None) -> str:
    if event.card is None:
        return "no biome card applies (mountain, lake or an empty deck)"
    return f"the biome card is {biome_card_text(event.card)}"


@describe_event.register
def _(event: BiomeTargetFixed, view: Any = None) -> str:
    holders = ", ".join(event.holders) or "nobody"
    text = f"the biome card's effect applies to {holders}"
    if event.redirected_by:
        text += f", redirected by {event.redirected_by} for {event.flare_paid} flare"
    return text


@describe_event.register
def _(event: EffectDamage, view: Any = None) -> str:
    kind = "smite damage (armor ignored)" if event.smite else "damage"
    text = f"{group_name(view, event.group)} takes {event.amount} {kind}"
    text += f"; {event.deaths} unit(s) die" if event.deaths else ""
    text += f"; Bloodthirst +{event.bloodthirst}" if event.bloodthirst else ""
    return text


@describe_event.register
def _(event: BonusGranted, view: Any = None) -> str:
    gifts = [f"+{event.attack} attack"] if event.attack else []
    gifts += [f"+{event.armor} armor"] if event.armor else []
    return f"{group_name(view, event.group)} gets {' and '.join(gifts) or 'no'} bonus tokens"


@describe_event.register
def _(event: InitiativeRaised, view: Any = None) -> str:
    unit = unit_title(event.unit)
    return f"{event.seat}'s {unit} initiative marker rises by {event.amount}"


@describe_event.register
def _(event: AbilityGranted, view: Any = None) -> str:
    ability = event.ability.replace("_", " ")
    return (
        f"{group_name(view, event.group)} gains {ability} {event.levels} until the end of the round"
    )


@describe_event.register
def _(event: WithdrawalDeclared, view: Any = None) -> str:
    return f"{event.seat} will withdraw at the end of this round"


@describe_event.register
def _(event: EmbraceGranted, view: Any = None) -> str:
    return f"{event.seat} may use Spirit's Embrace once more, free, at the next round's start"


@describe_event.register
def _(event: MoveAfterWinGranted, view: Any = None) -> str:
    return f"if {event.seat} wins, each of its units here may move one zone"


@describe_event.register
def _(event: StrategiseGranted, view: Any = None) -> str:
    return f"{event.seat}'s units in {event.zone} may join this combat by Strategise"


@describe_event.register
def _(event: DamageRemoved, view: Any = None) -> str:
    return f"{event.amount} damage is removed from {group_name(view, event.group)}"


@describe_event.register
def _(event: AmbushJoined, view: Any = None) -> str:
    return f"an ambushing {unit_title(event.unit)} of {event.seat} joins the combat"


@describe_event.register
def _(event: PlayerChosen, view: Any = None) -> str:
    effect = event.effect.replace("_", " ")
    return f"{event.seat} chooses {event.chosen} ({effect})"


@describe_event.register
def _(event: ChoiceResolved, view: Any = None) -> str:
    choice = event.choice.replace("_", " ")
    return f"{event.seat} {'declines' if event.declined else 'makes'} the choice: {choice}"


@describe_event.register
def _(event: TacticPlayed, view: Any = None) -> str:
    text = f"{event.seat} plays {tactic_option_text(event.card, event.option)}"
    if event.target is not None:
        text += f", at {group_name(view, event.target)}"
    paid = [resources_text(event.cost)] if event.cost != Resources() else []
    paid += [f"{event.flare} flare"] if event.flare else []
    text += f"; paid {' and '.join(paid)}" if paid else ""
    return text + ("; it resolves after the combat" if event.deferred else "")


@describe_event.register
def _(event: DeferredResolved, view: Any = None) -> str:
    what = f"{event.seat}'s {tactic_title(event.card)}, option {event.option + 1}"
    return f"{what} {'lapses' if event.lapsed else 'resolves'} after the combat"


@describe_event.register
def _(event: StoneskinHardened, view: Any = None) -> str:
    return f"Stoneskin: each of {event.seat}'s groups gains {event.amount} armor"


@describe_event.register
def _(event: TacticDiscarded, view: Any = None) -> str:
    return f"{event.seat} discards {tactic_title(event.card)} face up"


@describe_event.register
def _(event: SpiritsEmbraced, view: Any = None) -> str:
    return (
        f"Spirit's Embrace: {event.seat} pays {event.flare} flare for +{event.amount} "
        f"{event.bonus} on {group_name(view, event.group)}"
    )


@describe_event.register
def _(event: UnitsMovedAfterWin, view: Any = None) -> str:
    moved = units_text(event.count, event.unit)
    return f"{event.seat} moves {moved} to {event.destination} after the win"


@describe_event.register
def _(event: RoundClosing, view: Any = None) -> str:
    return f"the end-of-round effects of round {event.round} are due"


@describe_event.register
def _(event: RoundEffectsResolved, view: Any = None) -> str:
    return f"the end-of-round effects of round {event.round} are done"


@describe_event.register
def _(event: Aftermath, view: Any = None) -> str:
    return "injuries and retreat moves are done; after-combat effects follow"


@describe_event.register
def _(event: CombatOpened, view: Any = None) -> str:
    markers = ", ".join(
        f"{key.split('/')[0]} {unit_title(key.split('/')[-1])} {value}"
        for key, value in sorted(event.initiative.items(), key=lambda item: -item[1])
    )
    return f"the fight begins; initiative: {markers or 'none'}"


@describe_event.register
def _(event: GroupActivated, view: Any = None) -> str:
    return f"{group_name(view, event.group)} acts"


@describe_event.register
def _(event: Healed, view: Any = None) -> str:
    return (
        f"{group_name(view, event.group)} heals {event.amount} damage of "
        f"{group_name(view, event.target)}"
    )


@describe_event.register
def _(event: AttackRolled, view: Any = None) -> str:
    again = "re-rolls" if event.reroll else "rolls"
    return (
        f"{group_name(view, event.group)} {again} against {group_name(view, event.target)}: "
        f"face {event.face + 1}, {event.swords} sword(s) (draw({event.m}) = {event.value})"
    )


@describe_event.register
def _(event: AttackResolved, view: Any = None) -> str:
    text = (
        f"{group_name(view, event.group)} hits {group_name(view, event.target)} with "
        f"{event.total} attack: {event.damage} damage, {event.target_deaths} unit(s) killed"
    )
    if event.face is not None:
        text += f" (face {event.face + 1}, {event.swords} sword(s))"
    if event.retaliation or event.attacker_deaths:
        text += f"; retaliation {event.retaliation}, {event.attacker_deaths} attacker(s) killed"
    if event.bloodthirst:
        text += f"; Bloodthirst +{event.bloodthirst}"
    if event.flare:
        text += f"; {event.flare} flare"
    return text


@describe_event.register
def _(event: ArmorClaimed, view: Any = None) -> str:
    group = group_name(view, event.group)
    if not event.amount:
        return f"{group} declines the armor bonus"
    return f"{group} takes {event.amount} armor bonus (For the King)"


@describe_event.register
def _(event: ExtraAttackBegun, view: Any = None) -> str:
    return f"{group_name(view, event.group)} attacks again (extra attack)"


@describe_event.register
def _(event: Supported, view: Any = None) -> str:
    return (
        f"{group_name(view, event.group)} gives {group_name(view, event.target)} "
        f"+{event.amount} {event.bonus} bonus"
    )


@describe_event.register
def _(event: ActivationEnded, view: Any = None) -> str:
    return f"{group_name(view, event.group)} has acted this round"


@describe_event.register
def _(event: RoundEnded, view: Any = None) -> str:
    return f"round {event.round} ends: every group has acted"


@describe_event.register
def _(event: RetreatChosen, view: Any = None) -> str:
    if not event.retreat:
        return f"{event.seat} stays in the combat"
    return f"{event.seat} retreats" + (" (forced, without backstab)" if event.forced else "")


@describe_event.register
def _(event: BackstabDeclared, view: Any = None) -> str:
    return (
        f"{event.seat} backstabs {group_name(view, event.target)} with "
        f"{group_name(view, event.group)}"
    )


@describe_event.register
def _(event: BackstabEnded, view: Any = None) -> str:
    return f"{event.seat} has made its backstab"


@describe_event.register
def _(event: BackstabDeclined, view: Any = None) -> str:
    return f"{event.seat} makes no backstab"


@describe_event.register
def _(event: CombatDecided, view: Any = None) -> str:
    return f"the combat is won by {event.winner}" if event.winner else "nobody wins the combat"


@describe_event.register
def _(event: InjuryResolved, view: Any = None) -> str:
    group = group_name(view, event.group)
    if event.paid:
        return f"{group}'s injury fee of {resources_text(event.fee)} is paid"
    return f"{group} loses a unit to its injuries"


@describe_event.register
def _(event: RetreatMoveStarted, view: Any = None) -> str:
    return f"{event.seat}'s {forces_text(event.forces, event.seat)} leave the boards to retreat"


@describe_event.register
def _(event: UnitsRetreated, view: Any = None) -> str:
    moved = units_text(event.count, event.unit)
    if event.lost or event.destination is None:
        return f"{event.seat}'s {moved} find no zone to retreat to and are lost"
    return f"{event.seat} retreats {moved} to {event.destination}"


@describe_event.register
def _(event: CombatEnded, view: Any = None) -> str:
    result = f"won by {event.winner}" if event.winner else "with no winner"
    losses = "; ".join(
        f"{seat} lost {n} killed"
        + (f", {event.injured[seat]} to injuries" if event.injured.get(seat) else "")
        for seat, n in event.killed.items()
    )
    return f"the combat in {event.zone} is over, {result}" + (f" ({losses})" if losses else "")


@describe_event.register
def _(event: WindowOpened, view: Any = None) -> str:
    return f"the {event.window} tactic window asks {', '.join(event.seats)}"
