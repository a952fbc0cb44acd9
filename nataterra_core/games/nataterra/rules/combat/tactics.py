"""Tactic windows in combat (N-COMBAT-9, N-COMBAT-11, N-COMBAT-27, N-TAC-1/1a/2, N-CIV-2).

A window asks each involved player at most once, in a fixed order: at the start of the
combat, in the set-up (the options played "at the start of the combat"), before the first
round (attackers first), before each active group acts (its owner first), and after the
combat (defenders first). **Ruling** (N-COMBAT-9, hidden information): it asks every
player who holds a tactic card, whether or not a card fits, so who is asked depends on hand
sizes (public) and never on hand contents; a player with nothing playable may only pass. A
standing pass answers that player's later windows of the combat without asking. Playing an option
discards the card and pays its cost; after-combat options (↓↓↓) played during the combat
wait and resolve when it ends, if their condition holds. Options on "the active group" are
playable only by that group's owner (**Ruling**: an option never helps an enemy group).
Velathi's Stoneskin gives each of their groups armor whenever they play an option in a
combat.
"""

from __future__ import annotations

from typing import Any, Protocol

from nataterra_core.games.nataterra.content.schema import ContentPack, TacticOption
from nataterra_core.kernel import Command, DiceStream, Event

from ...messages.combat import (
    ChoiceResolved,
    DeferredResolved,
    PassTactics,
    PlayTactic,
    StandingPass,
    StandingPassGiven,
    StoneskinHardened,
    TacticPlayed,
    WindowOpened,
)
from ..stock import Resources
from .board import asks_windows
from .effects import EffectEnv, effect_events
from .model import Combat

__all__ = [
    "STONESKIN_ARMOR",
    "TacticEnv",
    "later_windows",
    "open_window",
    "play_events",
    "playable",
    "playable_later",
    "resolve_deferred",
    "window_options",
]

STONESKIN_ARMOR = 1  # N-CIV-2


class TacticEnv(EffectEnv, Protocol):
    """What windows read from the combat environment (its host holds the hands, stocks and
    flare)."""

    deals_tactics: bool

    def hand(self, seat: str) -> tuple[str, ...]:
        """``seat``'s tactic hand."""
        ...

    def stock(self, seat: str) -> Resources:
        """``seat``'s stock."""
        ...

    def flare(self, seat: str) -> int:
        """``seat``'s flare."""
        ...

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        """Zones next to the combat zone holding ``seat``'s units (none without a map)."""
        ...

    def fold(self, combat: Combat, event: Event) -> Combat:
        """``combat`` after ``event`` (:func:`~.folds.evolve_combat`)."""
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


def _affordable(env: TacticEnv, seat: str, option: TacticOption) -> bool:
    cost = Resources.of(option.cost)
    return env.stock(seat).covers(cost) and env.flare(seat) >= option.flare


def playable(env: TacticEnv, combat: Combat, seat: str, window: str) -> list[Command]:
    """Every option ``seat`` may play in ``window`` now, one command per target."""
    commands: list[Command] = []
    for card_id in dict.fromkeys(env.hand(seat)):
        for index, option in enumerate(env.pack.tactics[card_id].options):
            if _fits(option, window) and _affordable(env, seat, option):
                commands.extend(
                    PlayTactic(card=card_id, option=index, **choice)
                    for choice in _targets(env, combat, seat, option)
                )
    return commands


_PASSES: tuple[Command, ...] = (PassTactics(), StandingPass())


def window_options(env: TacticEnv, combat: Combat, seat: str, window: str) -> list[Command]:
    """What ``seat``, asked in ``window``, may send: its playable options, a pass and a
    standing pass (only the passes when nothing fits: N-COMBAT-9's ruling)."""
    return [*playable(env, combat, seat, window), *_PASSES]


def open_window(
    env: TacticEnv, combat: Combat, window: str, order: tuple[str, ...]
) -> tuple[Event, ...]:
    """Open ``window`` for the seats of ``order`` that hold a tactic card and have not given
    a standing pass (N-COMBAT-9's ruling: hand sizes decide, never what the cards are)."""
    if not asks_windows(env, combat):  # nobody to ask: the common case, kept cheap
        return ()
    barred = combat.no_opening_tactics if window == "before" else ()
    passed = combat.standing_passes
    seats = tuple(s for s in order if env.hand(s) and s not in barred and s not in passed)
    return (WindowOpened(window=window, seats=seats),) if seats else ()


def later_windows(combat: Combat, seat: str) -> frozenset[str]:
    """The option windows (``TacticOption.window``) of the windows still to come for ``seat``
    in this combat, from public facts only: which windows have opened, the biome card's
    bar, whether the combat is decided. ↑↑↑ options are combat options, so the per-group
    windows cover them."""
    later: set[str] = set()
    if not combat.setup_window:
        later.add("combat_setup")
    if not combat.before_window and seat not in combat.no_opening_tactics:
        later.add("before_combat")
    if not combat.decided:  # per-group windows: combat and ↓↓↓ options (N-COMBAT-11)
        later.update(("combat", "after_combat"))
    if not combat.after_window:
        later.add("after_combat")
    return frozenset(later)


def playable_later(pack: ContentPack, combat: Combat, seat: str, hand: tuple[str, ...]) -> bool:
    """Whether a card in ``hand``, ``seat``'s, has an option that fits a window still to
    come in this combat (affordability aside): when none has, a standing pass gives up
    nothing the seat could use. Reads only the seat's own hand and the public combat."""
    later = later_windows(combat, seat)
    return any(option.window in later for card in hand for option in pack.tactics[card].options)


def play_events(
    env: TacticEnv, combat: Combat, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...] | None:
    """The events of playing (or passing) in the open window; ``None`` for other commands."""
    if not combat.pending or not combat.pending[0][1].startswith("tactic_"):
        return None
    choice = combat.pending[0][1]
    if isinstance(command, PassTactics):
        return (ChoiceResolved(seat=seat, choice=choice, declined=True),)
    if isinstance(command, StandingPass):
        return (
            ChoiceResolved(seat=seat, choice=choice, declined=True),
            StandingPassGiven(seat=seat),
        )
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
    now = combat  # each option resolves after the ones before (a grant sees the last one's)
    for seat, card, index, target in combat.deferred:
        option = env.pack.tactics[card].options[index]
        lapsed = option.condition == "win" and combat.winner != seat
        events.append(DeferredResolved(seat=seat, card=card, option=index, lapsed=lapsed))
        if not lapsed:
            played = PlayTactic(card=card, option=index, target=target)
            resolved = _resolve(env, now, seat, option, played, dice)
            events.extend(resolved)
            for event in resolved:
                now = env.fold(now, event)
    return tuple(events)
