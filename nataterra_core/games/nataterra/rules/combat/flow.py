"""The combat flow (rules §6): what happens next, and who decides.

The flow is a small machine over :attr:`Combat.stage`, one table (:data:`~.stages.STAGES`):
for each stage, exactly one of two things holds: either some seat must decide
(:func:`decision` gives the seat and its legal commands), or the next step is automatic
(:func:`auto_step` gives its events); a seat's command becomes events in :mod:`.commands`.
This module opens a combat and runs the machine: :func:`step` turns a
command into events and then runs automatic steps until the next decision, so a command's
record holds everything up to the next choice, and hands back the combat after them and that
decision (each found once). What combat reads of the game is :class:`~.env.CombatEnv`.
Events are folded by :func:`~.folds.evolve_combat` (re-exported here), which never draws dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack, Side
from nataterra_core.kernel import Command, DiceStream, Event, IllegalCommand

from ...messages.combat import AttackResolved, CombatStarted
from ..stock import Resources
from .commands import command_events, refusal
from .env import CombatEnv
from .folds import FOLDS, evolve_combat
from .holdings import HOLDINGS, changes_holdings
from .model import ROUND_CAP, Combat, Force, Stage
from .options import Ask, Pending, ask_pending
from .stages import STAGES, auto_step, decision
from .steps import Auto, auto_pending

__all__ = [
    "ROUND_CAP",
    "STAGES",
    "CombatEnv",
    "Pending",
    "Stepped",
    "advance",
    "auto_step",
    "combat_from_start",
    "decide_combat",
    "decision",
    "evolve_combat",
    "evolve_with_host",
    "run_on",
    "start_combat",
    "step",
]

_replace: Final = msgspec.structs.replace


def _unchanged(pack: ContentPack, combat: Combat, event: Any) -> Combat:
    """The fold of an event that changes only what the host holds."""
    return combat


def combat_from_start(event: CombatStarted) -> Combat:
    """The combat a :class:`CombatStarted` event opens: the attacker deploys first. The
    event's stocks and flare are its host's (the game's players, the sandbox's state)."""
    return Combat(
        zone=event.zone,
        biome=event.biome,
        attacker=event.attacker,
        defender=event.defender,
        sides=event.sides,
        reserve=event.forces,
        deploying=event.attacker,
        allies=dict(event.allies),
    )


def start_combat(
    zone: str,
    biome: str,
    attacker: str,
    defender: str,
    forces: Sequence[Force],
    sides: dict[str, dict[str, Side]],
    stocks: dict[str, Resources],
    flare: dict[str, int] | None = None,
    allies: dict[str, str] | None = None,
) -> CombatStarted:
    """The event that opens a combat (N-COMBAT-1..3); deployment follows. ``allies`` maps
    each further player of a side to its lead (team games, N-TEAM-4)."""
    return CombatStarted(
        zone=zone,
        biome=biome,
        attacker=attacker,
        defender=defender,
        forces=tuple(sorted(forces)),
        sides={owner: dict(s) for owner, s in sides.items()},
        stocks=dict(stocks),
        flare=dict(flare or {}),
        allies=dict(allies or {}),
    )


Stepped = tuple[tuple[Event, ...], Combat, Pending, CombatEnv]
"""What a command or the combat's opening led to: its events, the combat after them (folded
once, here), that combat's pending decision (found once, here) and the environment whose
host has folded the events that change a hand, a stock or flare (the same environment
when none did). A plain tuple: one is made per decision."""

_ATTACK: Final = AttackResolved
_PLAIN: Final = {kind: fold for kind, fold in FOLDS.items() if kind not in HOLDINGS}
"""The folds of the events that leave hands, stocks and flare as they are (most events)."""
_HOLDING: Final = {kind: FOLDS.get(kind, _unchanged) for kind in HOLDINGS}
"""The folds of the events that may change a hand, a stock or flare
(:data:`~.holdings.HOLDINGS`): the flow moves the host on past them too."""


def evolve_with_host(env: CombatEnv, combat: Combat, event: Event) -> tuple[CombatEnv, Combat]:
    """Fold one event into the combat and, when it changes a hand, a stock or flare, into
    its host's holdings (as the flow does within a step): for a combat run outside a game
    or the sandbox (tests)."""
    if changes_holdings(event):
        env = env.folded(combat, event)
    return env, evolve_combat(env.pack, combat, event)


def advance(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[list[Event], Combat]:
    """Run automatic steps until a decision is needed or the combat has ended: the events
    and the combat after them (:func:`run_on` also gives the decision reached)."""
    events, after, _, _ = run_on(env, combat, dice)
    return list(events), after


def decide_combat(
    env: CombatEnv, combat: Combat, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...]:
    """Check ``command`` against the pending decision, produce its events and run on to the
    next decision (:func:`step` also gives the combat after them and that decision)."""
    return step(env, combat, seat, command, dice)[0]


def run_on(env: CombatEnv, combat: Combat, dice: DiceStream) -> Stepped:
    """Run automatic steps until a decision is needed or the combat has ended."""
    return _run_on(env, combat, dice, ())


_STEPS: Final[dict[Stage, tuple[Ask, Auto]]] = {
    stage: (row.ask, row.auto) for stage, row in STAGES.items()
}
"""Each stage's question and automatic step, as :data:`~.stages.STAGES` gives them, in a
plain pair (compiled, reading a named tuple's field is a method lookup)."""


def _run_on(env: CombatEnv, combat: Combat, dice: DiceStream, more: tuple[Event, ...]) -> Stepped:
    """:func:`run_on` after ``more`` (a command's events, not folded yet): each batch of
    events is folded, then the stage table's automatic steps follow until a seat must
    decide (:func:`~.stages.decision`, inlined: this runs once per decision). An event that
    changes a hand, a stock or flare moves the host on first
    (:func:`~.holdings.changes_holdings`, inlined), so what is asked after it reads what it
    left."""
    pack, pending = env.pack, None
    events: tuple[Event, ...] = ()
    while True:
        for event in more:  # the plain folds first: one lookup for most events
            kind = type(event)
            fold = _PLAIN.get(kind)
            if fold is None:
                fold = _HOLDING.get(kind)
                if fold is None:
                    continue
                if kind is not _ATTACK or event.flare:  # type: ignore[attr-defined]
                    env = env.folded(combat, event)
            combat = fold(pack, combat, event)
        events += more
        stage = combat.stage
        if stage == "end":
            break
        if combat.pending:
            pending = ask_pending(env, combat)
            if pending is not None:
                break
            more = auto_pending(env, combat, dice)
        else:
            ask, auto = _STEPS[stage]
            pending = ask(env, combat)
            if pending is not None:
                break
            more = auto(env, combat, dice)
    return events, combat, pending, env


def step(
    env: CombatEnv,
    combat: Combat,
    seat: str,
    command: Command,
    dice: DiceStream,
    *,
    listed: bool = False,
) -> Stepped:
    """Check ``command`` against the pending decision (unless ``listed``: it came from that
    decision's list), produce its events and run on to the next decision."""
    if not listed:
        pending = decision(env, combat)
        if pending is None:
            raise IllegalCommand("N-COMBAT-10", "no decision is pending in this combat")
        who, options = pending
        if seat != who or command not in options:
            raise refusal(combat, seat, who, command)
    return _run_on(env, combat, dice, command_events(env, combat, seat, command, dice))
