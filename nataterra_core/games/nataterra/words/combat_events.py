"""Sentences of combat's events (rules §6): every step and roll of the fight, naming the
groups by owner, number and units when the view shows them (the commands' sentences are in
:mod:`.combat`).

    >>> from nataterra_core.games.nataterra.messages.combat import GroupDeployed
    >>> describe_event(GroupDeployed(seat="beasts", group=4, unit="orc", units=3, slot="melee"))
    'beasts deploys group 4: 3 Orcs in a melee slot'
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel.wording import article, counted

from ..messages.combat import (
    AbilityGranted,
    ActivationEnded,
    Aftermath,
    AmbushJoined,
    ArmorClaimed,
    AttackResolved,
    AttackRolled,
    BackstabDeclared,
    BackstabDeclined,
    BackstabEnded,
    BiomeCardDrawn,
    BiomeCardRevealed,
    BiomeTargetFixed,
    BonusGranted,
    ChoiceResolved,
    CombatDecided,
    CombatEnded,
    CombatOpened,
    CombatStarted,
    DamageRemoved,
    DeferredResolved,
    DeploymentEnded,
    EffectDamage,
    EmbraceGranted,
    ExtraAttackBegun,
    GroupActivated,
    GroupDeployed,
    Healed,
    InitiativeRaised,
    InjuryResolved,
    MoveAfterWinGranted,
    PlayerChosen,
    RetreatChosen,
    RetreatMoveStarted,
    RoundClosing,
    RoundEffectsResolved,
    RoundEnded,
    RoundStarted,
    SpiritsEmbraced,
    StoneskinHardened,
    StrategiseGranted,
    StrategiseJoined,
    StrategiseOffered,
    Supported,
    TacticDiscarded,
    TacticPlayed,
    UnitsMovedAfterWin,
    UnitsRetreated,
    WindowOpened,
    WithdrawalDeclared,
)
from ..rules.stock import Resources
from .base import (
    describe_event,
    group_name,
    resources_text,
    tactic_title,
    unit_title,
    units_text,
)
from .combat import biome_card_text, forces_text
from .turns import tactic_option_text


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
        f"{origin} in {article(event.slot)} slot"
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
    text = f"{event.seat} has deployed every group it can"
    return f"{text}; {event.following} deploys next" if event.following else text


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
    text += (
        f"; {counted(event.deaths, 'unit')} {'dies' if event.deaths == 1 else 'die'}"
        if event.deaths
        else ""
    )
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
    units = ", ".join(units_text(count, unit) for unit, count in event.movable)
    return f"{event.seat} won: each of its units here may move one zone ({units})"


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
    text = f"the end-of-round effects of round {event.round} are due"
    if event.heal:
        verb = "chooses" if len(event.heal) == 1 else "choose"
        text += f"; {', '.join(event.heal)} {verb} a group to heal"
    return text


@describe_event.register
def _(event: RoundEffectsResolved, view: Any = None) -> str:
    return f"the end-of-round effects of round {event.round} are done"


@describe_event.register
def _(event: Aftermath, view: Any = None) -> str:
    text = "injuries and retreat moves are done; after-combat effects follow"
    if event.mover is not None:
        text += f"; {event.mover} may move units out (Quick Gains)"
    return text


@describe_event.register
def _(event: CombatOpened, view: Any = None) -> str:
    markers = ", ".join(
        f"{key.split('/')[0]} {unit_title(key.split('/')[-1])} {value}"
        for key, value in sorted(event.initiative.items(), key=lambda item: -item[1])
    )
    return f"the fight begins; initiative: {markers or 'none'}"


@describe_event.register
def _(event: RoundStarted, view: Any = None) -> str:
    text = f"round {event.round} begins"
    offered = (*event.embrace, *event.free_embrace)
    if offered:
        text += f"; Spirit's Embrace offered to {', '.join(offered)}"
    return text


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
        f"face {event.face + 1}, {counted(event.swords, 'sword')} (draw({event.m}) = {event.value})"
    )


@describe_event.register
def _(event: AttackResolved, view: Any = None) -> str:
    text = (
        f"{group_name(view, event.group)} hits {group_name(view, event.target)} with "
        f"{event.total} attack: {event.damage} damage, "
        f"{counted(event.target_deaths, 'unit', zero='no')} killed"
    )
    if event.face is not None:
        text += f" (face {event.face + 1}, {counted(event.swords, 'sword')})"
    if event.retaliation or event.attacker_deaths:
        text += (
            f"; retaliation {event.retaliation}, "
            f"{counted(event.attacker_deaths, 'attacker', zero='no')} killed"
        )
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
