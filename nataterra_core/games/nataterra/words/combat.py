"""Sentences of combat (rules §6): every command a fighting player gives, naming the groups
by owner, number and units when the view shows them (the events' sentences are in
:mod:`.combat_events`).

    >>> from nataterra_core.games.nataterra.messages.combat import Attack
    >>> describe_command(Attack(target=2), "beasts")
    'beasts attacks group 2'
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel.wording import article, plural

from ..content.cards import BiomeEffect
from ..messages.combat import (
    Attack,
    Backstab,
    ChooseEffectGroup,
    ChooseGroup,
    ChoosePlayer,
    ClaimArmor,
    DeployGroup,
    DiscardTactic,
    FinishMoves,
    HealGroup,
    MoveAfterWin,
    PayInjury,
    RaiseInitiative,
    RedirectBiome,
    Reroll,
    Retreat,
    RetreatUnits,
    SpiritsEmbrace,
    StartCombat,
    Strategise,
    StrategiseDone,
    Support,
)
from ..messages.sandbox import StartBattle
from ..rules.combat.model import Force
from ..rules.combat.sandbox_model import Battle, ForceSpec
from .base import (
    combat_of,
    describe_command,
    group_name,
    pack,
    resources_text,
    subject,
    tactic_title,
    unit_title,
    units_text,
)

__all__ = ["battle_text", "biome_card_text", "forces_text"]


def forces_text(forces: tuple[Force, ...] | tuple[ForceSpec, ...], owner: str) -> str:
    """``3 Zealots, 2 Hunters`` of one owner (``no units``)."""
    return ", ".join(units_text(f.count, f.unit) for f in forces if f.owner == owner) or "no units"


def battle_text(battle: Battle) -> str:
    """A sandbox battle as its reader meets it: who attacks whom, where, with what.

    >>> from nataterra_core.games.nataterra.battles import standard_battle
    >>> battle_text(standard_battle())  # doctest: +NORMALIZE_WHITESPACE
    'velathi attacks beasts in the hills with 3 Disciples, 3 Zealots, 2 Cave Golems,
    3 Hunters; beasts defends with 3 Orcs, 4 Goblins, 3 Ditchers, 3 Woodcutters'
    """
    where = f"in the {battle.biome}"
    if battle.map:  # the combat zone is one of a small map's: name it
        where += f" (zone {battle.zone} of a map of {len(battle.map)} zones)"
    said = (
        f"{battle.attacker} attacks {battle.defender} {where} with "
        f"{forces_text(battle.forces, battle.attacker)}; {battle.defender} defends with "
        f"{forces_text(battle.forces, battle.defender)}"
    )
    if battle.biome_card is not None:
        said += f"; the biome card is {biome_card_text(battle.biome_card)}"
    return said


_EFFECTS = {
    "smite_each_round": "at the end of each round each group takes {n} smite damage",
    "no_retreat": "no retreat",
    "discard_tactic": "discard {n} tactic {cards}",
    "no_tactics_at_start": "no tactic cards at the start of the combat",
    "move_after_win": "the winner may move its units one zone",
    "ambush": "an ambushing unit joins the combat",
    "raise_initiative": "raise an initiative marker by {n}",
    "attack_bonus": "+{n} attack bonus",
    "draw_tactic_if_win": "draw {n} tactic {cards} on a win",
    "draw_tactic": "draw {n} tactic {cards}",
    "choose_player_discards": "choose a player who discards a tactic card",
    "no_backstab": "no backstab",
    "damage_per_group": "{n} damage to each group",
    "choose_player_no_retreat": "choose a player who may not retreat",
    "heal_each_round": "remove {n} damage from each group every round",
}


def _effect(effect: BiomeEffect) -> str:
    return _EFFECTS.get(effect.kind, effect.kind.replace("_", " ")).format(
        n=effect.amount, cards=plural("card", effect.amount)
    )


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
        f"{units_text(command.size, command.unit)}{origin} in {article(command.slot)} slot"
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
