"""Tactic windows in combat (N-COMBAT-9, N-COMBAT-11, N-COMBAT-27, N-TAC-1/1a/2, N-CIV-2).

A window asks each involved player at most once, in a fixed order, and only players who
hold a playable option: at the start of the combat, in the set-up (the options played "at
the start of the combat"), before the first round (attackers first), before each active
group acts (its owner first), and after the combat (defenders first). Playing an option
discards the card and pays its cost; after-combat options (↓↓↓) played during the combat
wait and resolve when it ends, if their condition holds. Options on "the active group" are
playable only by that group's owner (**Ruling**: an option never helps an enemy group).
Velathi's Stoneskin gives each of their groups armor whenever they play an option in a
combat.
"""

from __future__ import annotations

from typing import Any, Protocol

from nataterra_core.games.nataterra.content.schema import TacticOption
from nataterra_core.kernel import Command, DiceStream, Event

from ..stock import Resources
from .effects import EffectEnv, effect_events
from .messages import (
    ChoiceResolved,
    DeferredResolved,
    PassTactics,
    PlayTactic,
    StoneskinHardened,
    TacticPlayed,
    WindowOpened,
)
from .model import Combat

__all__ = [
    "STONESKIN_ARMOR",
    "TacticEnv",
    "open_window",
    "play_events",
    "playable",
    "resolve_deferred",
]

STONESKIN_ARMOR = 1  # N-CIV-2


class TacticEnv(EffectEnv, Protocol):
    """What windows read from the combat environment."""

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        """Zones next to the combat zone holding ``seat``'s units (none without a map)."""
        ...


def _fits(option: TacticOption, window: str) -> bool:
    if window == "setup":
        return option.window == "combat_setup"
    if window == "before":  # N-COMBAT-9 and N-TAC-1a: before-combat and ↑↑↑ options
        return option.window == "before_combat" or (
            option.window == "combat" and option.also_before_combat
        )
    if window == "group":  # N-COMBAT-11: combat options; ↓↓↓ may be played during combat
        return option.window in ("combat", "after_combat")
    return option.window == "after_combat"  # N-COMBAT-27


Choice = dict[str, Any]
"""The fields of :class:`PlayTactic` an option needs besides card and option."""


def _targets(env: TacticEnv, combat: Combat, seat: str, option: TacticOption) -> list[Choice]:
    """What ``seat`` may aim the option at (one entry per legal command)."""
    kinds = {effect.target for effect in option.effects}
    if "active_group" in kinds:  # Ruling: only the active group's owner plays these
        active = combat.groups[combat.active] if combat.active >= 0 else None
        if active is None or active.owner != seat or not active.units:
            return []
    if "own_group" in kinds:
        return [{"target": g.id} for g in combat.groups_of(seat)]
    if "enemy_group" in kinds:
        enemy = combat.opponent(seat)
        return [{"target": g.id} for s in combat.seats_of(enemy) for g in combat.groups_of(s)]
    if "any_player" in kinds:
        return [{"player": s} for s in combat.seats]
    if "zone" in kinds:
        return [{"zone": z} for z in env.zones_next_door(seat, combat)]
    return [{}]


def _affordable(combat: Combat, seat: str, option: TacticOption) -> bool:
    cost = Resources.of(option.cost)
    stock = combat.stocks.get(seat, Resources())
    return stock.covers(cost) and combat.flare.get(seat, 0) >= option.flare


def playable(env: TacticEnv, combat: Combat, seat: str, window: str) -> list[Command]:
    """Every option ``seat`` may play in ``window`` now, one command per target."""
    commands: list[Command] = []
    for card_id in dict.fromkeys(combat.hands.get(seat, ())):
        for index, option in enumerate(env.pack.tactics[card_id].options):
            if _fits(option, window) and _affordable(combat, seat, option):
                commands.extend(
                    PlayTactic(card=card_id, option=index, **choice)
                    for choice in _targets(env, combat, seat, option)
                )
    return commands


def open_window(
    env: TacticEnv, combat: Combat, window: str, order: tuple[str, ...]
) -> tuple[Event, ...]:
    """Open ``window`` for the seats of ``order`` that hold a playable option (if any)."""
    if not any(combat.hands.values()):  # nobody holds a card: the common case, kept cheap
        return ()
    barred = combat.no_opening_tactics if window == "before" else ()
    seats = tuple(s for s in order if s not in barred and playable(env, combat, s, window))
    return (WindowOpened(window=window, seats=seats),) if seats else ()


def play_events(
    env: TacticEnv, combat: Combat, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...] | None:
    """The events of playing (or passing) in the open window; ``None`` for other commands."""
    if not combat.pending or not combat.pending[0][1].startswith("tactic_"):
        return None
    choice = combat.pending[0][1]
    if isinstance(command, PassTactics):
        return (ChoiceResolved(seat=seat, choice=choice, declined=True),)
    if not isinstance(command, PlayTactic):
        return None
    option = env.pack.tactics[command.card].options[command.option]
    deferred = option.window == "after_combat" and choice != "tactic_after"
    lapsed = choice == "tactic_after" and option.condition == "win" and combat.winner != seat
    events: list[Event] = [
        ChoiceResolved(seat=seat, choice=choice),
        TacticPlayed(
            seat=seat,
            card=command.card,
            option=command.option,
            target=command.target,
            cost=Resources.of(option.cost),
            flare=option.flare,
            deferred=deferred,
        ),
    ]
    if not deferred and not lapsed:
        events.extend(_resolve(env, combat, seat, option, command, dice))
    if env.civ_ability[seat] == "stoneskin" and combat.has_groups(seat):
        events.append(StoneskinHardened(seat=seat, amount=STONESKIN_ARMOR))
    return tuple(events)


def _resolve(
    env: TacticEnv,
    combat: Combat,
    seat: str,
    option: TacticOption,
    command: PlayTactic,
    dice: DiceStream,
) -> list[Event]:
    events: list[Event] = []
    for effect in option.effects:
        events.extend(
            effect_events(
                env,
                combat,
                seat,
                effect,
                command.target,
                dice,
                player=command.player,
                zone=command.zone,
            )
        )
    return events


def resolve_deferred(env: TacticEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """N-COMBAT-27: after-combat options played during the combat resolve now, if their
    condition holds."""
    events: list[Event] = []
    for seat, card, index, target in combat.deferred:
        option = env.pack.tactics[card].options[index]
        lapsed = option.condition == "win" and combat.winner != seat
        events.append(DeferredResolved(seat=seat, card=card, option=index, lapsed=lapsed))
        if not lapsed:
            played = PlayTactic(card=card, option=index, target=target)
            events.extend(_resolve(env, combat, seat, option, played, dice))
    return tuple(events)
