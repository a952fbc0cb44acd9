"""The stage table's automatic steps (:mod:`.stages`): the events of the next step when
nobody has to decide, attacks resolved included (dice drawn and recorded here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import msgspec

from nataterra_core.kernel import DiceStream, Event

from ...messages.combat import (
    ActivationEnded,
    Aftermath,
    BackstabDeclined,
    BackstabEnded,
    BiomeCardRevealed,
    ChoiceResolved,
    CombatDecided,
    CombatEnded,
    CombatOpened,
    DeploymentEnded,
    ExtraAttackBegun,
    GroupActivated,
    GroupDeployed,
    InjuryResolved,
    RetreatChosen,
    RetreatMoveStarted,
    RoundClosing,
    RoundEffectsResolved,
    RoundEnded,
    RoundStarted,
    StrategiseOffered,
    UnitsRetreated,
)
from ..stock import Resources
from . import biome, tactics
from .board import asks_windows, both_standing, pick_candidates, side_stands
from .env import CombatEnv
from .folds import own_units
from .model import (
    INITIATIVE_CAP,
    ROUND_CAP,
    Combat,
    Group,
    combat_unit,
)
from .options import (
    retreat_destinations,
    retreat_mover,
    setup_window,
    side_in,
    stabber,
    strategists_waiting,
    targets,
)

__all__ = [
    "Auto",
    "activate",
    "aftermath",
    "auto_action",
    "auto_after_attack",
    "auto_aftermath",
    "auto_backstab",
    "auto_decided",
    "auto_deploy",
    "auto_effects",
    "auto_injuries",
    "auto_never",
    "auto_opening",
    "auto_pending",
    "auto_pick",
    "auto_redirect",
    "auto_retreat",
    "auto_retreat_move",
    "auto_round_effects",
    "auto_round_end",
    "auto_round_start",
    "decided",
    "deployment_ended",
    "ended",
    "initiative",
    "winner_of",
]

_replace: Final = msgspec.structs.replace


# Hot events built positionally, in their declaration order, as ``attacks`` builds
# AttackResolved (msgspec matches many keyword arguments slowly), checked here.
_DEPLOYED_FIELDS = ("seat", "group", "unit", "units", "slot", "origin")


_DEPLOYMENT_ENDED_FIELDS = ("seat", "following", "then")


for _event, _fields in (
    (GroupDeployed, _DEPLOYED_FIELDS),
    (DeploymentEnded, _DEPLOYMENT_ENDED_FIELDS),
):
    if tuple(f.name for f in msgspec.structs.fields(_event)) != _fields:  # pragma: no cover
        raise ImportError(f"{_event.__name__}'s fields changed: update the positional calls")


def winner_of(combat: Combat) -> str | None:
    if combat.retreating is not None:
        return combat.opponent(combat.retreating)
    attacker = side_stands(combat, combat.attacker)
    defender = side_stands(combat, combat.defender)
    if attacker and not defender:
        return combat.attacker
    if defender and not attacker:
        return combat.defender
    return None


def initiative(env: CombatEnv, combat: Combat, card: str | None) -> dict[str, int]:
    """N-COMBAT-6/7: each type's marker, +1 per matching essence, +1 for mountain defenders."""
    essences = env.pack.biome_cards[card].essences if card else ()
    mountain = combat.biome == "mountain"
    bonuses: dict[str, int] = {}  # by owner: the same for all of an owner's types
    values: dict[str, int] = {}
    for group in combat.groups:
        key = f"{group.owner}/{group.unit}"
        if key in values:  # one marker per type and owner
            continue
        owner = group.owner
        bonus = bonuses.get(owner)
        if bonus is None:
            owned = env.essences[owner]
            bonus = len([e for e in essences if e in owned])
            if mountain and combat.side(owner) == combat.defender:
                bonus += 1
            bonuses[owner] = bonus
        base = combat_unit(env.pack, group.unit).initiative + combat.initiative_bonus.get(key, 0)
        values[key] = min(INITIATIVE_CAP, base + bonus)
    return values


Auto = Callable[[CombatEnv, Combat, DiceStream], tuple[Event, ...]]
"""A stage's automatic step: its events, when nobody has to decide (the stage table,
:mod:`.stages`)."""


def auto_pending(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """A pending choice with nothing to choose from is resolved as declined."""
    seat, choice = combat.pending[0]
    return (ChoiceResolved(seat=seat, choice=choice, declined=True),)


def auto_deploy(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """The set-up window (N-COMBAT-9), the offer to join by Strategise (N-ABL-7), then
    the next side deploys (N-COMBAT-4)."""
    if not combat.setup_window:
        opened = setup_window(env, combat)
        if opened:
            return opened
    if not combat.strategise_offered:
        seats = strategists_waiting(env, combat)
        if seats:
            return (StrategiseOffered(seats=seats),)
    return (deployment_ended(combat),)


def deployment_ended(combat: Combat) -> DeploymentEnded:
    """The deploying seat is done: the next seat of the attacker's side, then the
    defender's, deploys (N-COMBAT-4, N-TEAM-4); after the last, the biome card turns up
    (N-COMBAT-7), or, when an Ambush unit deployed after the card, its effects go on."""
    seat = combat.deploying
    if combat.revealed:  # an Ambush unit has been placed after the biome card (N-COMBAT-8)
        return DeploymentEnded(seat, "", "effects")
    seats = combat.seats
    following = seats.index(seat) + 1
    return DeploymentEnded(seat, seats[following] if following < len(seats) else "")


def auto_opening(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """N-COMBAT-7: the biome card turns up (none in mountains or lakes: the drawing
    function knows)."""
    card, drawn = env.draw_biome(combat, dice)
    return (*drawn, BiomeCardRevealed(card=card))


def auto_redirect(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """N-COMBAT-8: the card's effect goes to whom it names."""
    return biome.fix_target(env, combat, dice, redirected=False)


def auto_effects(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """The before-combat window (N-COMBAT-9: attackers first), then the initiative markers
    are set and the first round begins (N-COMBAT-6/10)."""
    if not combat.before_window and env.deals_tactics:  # N-COMBAT-9: card holders are asked
        opened = tactics.open_window(env, combat, "before", combat.seats)
        if opened:
            return opened
    return (CombatOpened(initiative=initiative(env, combat, combat.biome_card)),)


def auto_round_start(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """N-COMBAT-10: the next round begins (the first when the combat opens); Spirit's
    Embrace is offered to the Naga players with the flare to pay for it (N-CIV-3), and to
    those a card gave an extra one."""
    free = combat.extra_embraces
    if not free and not env.flare_held:  # only the Naga gain flare (N-CIV-3): the common case
        return (RoundStarted(combat.round + 1),)
    ability = env.civ_ability
    embrace = tuple(  # only the Naga gain flare (N-CIV-3); the host holds it
        [
            seat
            for seat in combat.seats
            if ability[seat] == "flare" and env.flare(seat) >= biome.EMBRACE_COST
        ]
    )
    return (RoundStarted(combat.round + 1, embrace, free),)


def auto_pick(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """N-COMBAT-10: the next group activates, or the round ends (every group has acted),
    or the combat is decided (a side is gone)."""
    candidates = pick_candidates(combat)
    if candidates is None:  # a side is gone (N-COMBAT-17)
        return (decided(combat),)
    if not candidates:  # the round's end has work when an effect acts or at the round cap
        closing = biome.acts_at_round_end(env, combat) or combat.round >= ROUND_CAP
        return (RoundEnded(combat.round, closing),)
    group = candidates[0]
    if not env.deals_tactics:  # no cards at all, so no window opens (activate's hot path)
        return (GroupActivated(group.id, group.heal > 0),)
    return activate(env, combat, group)


def auto_action(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """Nothing to attack and nobody to support: the group passes."""
    return (ActivationEnded(group=combat.active),)


def auto_after_attack(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """After an attack: the next backstab (N-COMBAT-24), the combat decided, an extra
    attack (N-COMBAT-18) or the activation's end."""
    group = combat.groups[combat.active]
    if combat.backstab and combat.stabbers[1:] and both_standing(combat):
        return (BackstabEnded(seat=combat.stabbers[0]),)
    if combat.backstab or not both_standing(combat):
        return (decided(combat),)
    if group.units > 0 and combat.attacks_made <= group.extra and targets(combat, group):
        return (ExtraAttackBegun(group=group.id),)
    return (ActivationEnded(group=group.id),)


def auto_round_end(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """A round-end biome effect acts (Drought's smite), then the round closes."""
    closing = RoundClosing(round=combat.round, heal=biome.round_heals(env, combat))
    return (*biome.round_end_damage(env, combat), closing)


def auto_round_effects(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """The combat is decided, or the attacker retreats at the round cap (N-COMBAT-29, no
    backstab), or the retreat decisions follow (N-COMBAT-22)."""
    if not both_standing(combat):
        return (decided(combat),)
    if combat.round >= ROUND_CAP:
        return (RetreatChosen(seat=combat.attacker, retreat=True, forced=True),)
    return (RoundEffectsResolved(round=combat.round),)


def auto_retreat(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """A side that may not choose: withdrawn by a card (no backstab), or barred."""
    seat = combat.defender if combat.stage == "retreat_defender" else combat.attacker
    if side_in(combat, seat, combat.withdrawing) and not side_in(combat, seat, combat.no_retreat):
        return (RetreatChosen(seat=seat, retreat=True, forced=True),)
    return (RetreatChosen(seat=seat, retreat=False),)


def auto_backstab(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """Nobody can backstab (or Higher Ground forbids it): declined."""
    return (BackstabDeclined(seat=stabber(combat)),)


def auto_decided(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """N-COMBAT-25: the winner is the side left standing (or the one that stayed)."""
    return (decided(combat),)


def auto_injuries(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """N-COMBAT-26: an injury nobody can pay for costs a unit; then the retreating side
    leaves (N-COMBAT-23, the whole side, N-TEAM-4), or the aftermath follows."""
    if combat.injuries:
        injured = combat.groups[combat.injuries[0]]
        return (InjuryResolved(group=injured.id, paid=False, fee=Resources()),)
    if combat.retreating is not None:
        return tuple(
            RetreatMoveStarted(seat=seat, forces=own_units(env.pack, combat, seat))
            for seat in combat.seats_of(combat.retreating)
        )
    return (aftermath(env, combat),)


def auto_aftermath(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """N-COMBAT-27/28: options played earlier resolve, the after-combat window opens
    (defenders first), Spoils of War draw, and the combat ends."""
    if combat.deferred:
        return tactics.resolve_deferred(env, combat, dice)
    if not combat.after_window:
        defenders_first = (*combat.seats_of(combat.defender), *combat.seats_of(combat.attacker))
        opened = tactics.open_window(env, combat, "after", defenders_first)
        if opened:
            return opened
    return (*_spoils(env, combat, dice), ended(combat))


def auto_retreat_move(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """N-COMBAT-23: without a map retreating units leave the combat as survivors; a type
    with nowhere to go is destroyed; once all have moved, the aftermath follows."""
    seat = retreat_mover(combat)
    waiting = combat.reserve_of(seat)
    if not waiting:
        return (aftermath(env, combat),)
    force = waiting[0]
    if env.map is None:
        return (UnitsRetreated(seat=seat, unit=force.unit, count=force.count),)
    for f in waiting:
        if not retreat_destinations(env, combat, seat, f.unit):
            return (UnitsRetreated(seat=seat, unit=f.unit, count=f.count, lost=True),)
    raise AssertionError("retreat_move: a move is asked, not automatic")  # pragma: no cover


def auto_never(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """Stages that always ask (heal, deception) or have ended."""
    raise AssertionError(f"no automatic step in stage {combat.stage}")  # pragma: no cover


def activate(env: CombatEnv, combat: Combat, group: Group) -> tuple[Event, ...]:
    """N-COMBAT-10/11: ``group`` becomes active; the per-group tactic window opens for the
    players holding a tactic card (N-COMBAT-9's ruling), the group's owner first."""
    activated = GroupActivated(group.id, group.heal > 0)  # positionally: group, heal
    if not asks_windows(env, combat):  # nobody to ask: no window (the hot path)
        return (activated,)
    order = (group.owner, *(s for s in combat.seats if s != group.owner))
    active = env.fold(combat, activated)  # active-group options need the group active
    return (activated, *tactics.open_window(env, active, "group", order))


def _spoils(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """Spoils of War: a holder who won draws tactic cards."""
    card = biome.card_of(env.pack, combat)
    if card is None or card.effect.kind != "draw_tactic_if_win":
        return ()
    if combat.winner is None or combat.winner not in combat.holders:
        return ()
    events: list[Event] = []
    for _ in range(card.effect.amount):
        events.extend(env.draw_tactic(combat.winner, dice))
    return tuple(events)


def decided(combat: Combat) -> CombatDecided:
    """N-COMBAT-25/26: the combat is decided: its winner, and the groups whose damage
    reached their injury threshold (each costs a unit or its fee)."""
    injuries = tuple(
        [g.id for g in combat.groups if g.units > 0 and g.injury and g.damage >= g.injury]
    )
    return CombatDecided(winner=winner_of(combat), injuries=injuries)


def aftermath(env: CombatEnv, combat: Combat) -> Aftermath:
    """Injuries and retreat moves are done (N-COMBAT-28); Quick Gains asks its holder, if it
    won, to move its units out of the zone."""
    seat, movable = biome.quick_gains(env, combat)
    if movable:
        return Aftermath(mover=seat, movable=movable)
    return Aftermath()


def ended(combat: Combat) -> CombatEnded:
    return CombatEnded(
        zone=combat.zone,
        winner=combat.winner,
        killed=dict(combat.killed),
        injured=dict(combat.injured),
    )
