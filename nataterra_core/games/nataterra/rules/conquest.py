"""Conquest mode (N-WIN-5): a base taken is conquered, not destroyed, and can be won back.

With the header option ``conquest``, N-WIN-1's end-of-turn check conquers the bases it
would destroy: the conqueror takes all the owner's resources (food, wood and metal; flare
is not a resource, N-CIV-3). The owner then has one last turn, its next one, to win the
base back: it skips its resources phase, and if at the end of that turn's combat phase
its units (or an ally's, who takes the same turn, N-TURN-3) stand in its base with no
enemy there, the base is retaken and it receives the starting resources (4 food, 3 wood,
3 metal) and two tactic cards. Otherwise the base is lost at the end of that turn, as
N-WIN-1 says: the owner is eliminated, or in a 2-player game the conqueror wins. Until it
retakes its base a conquered player neither scores nor wins nor conquers (its allies
still may).
"""

from __future__ import annotations

import msgspec

from nataterra_core.kernel import DiceStream, Event

from ..messages.tactics import TacticCardDrawn
from ..messages.turns import GameEnded, PlayerEliminated
from ..messages.victory import (
    BaseConquered,
    BaseRetaken,
)
from ..state import GameState, Resources
from . import teams
from .context import Context
from .tactics import draw_tactic_events

__all__ = [
    "RETAKE_CARDS",
    "RETAKE_GAIN",
    "can_score",
    "conquer",
    "evolve_base_conquered",
    "evolve_base_retaken",
    "last_turns_over",
    "retake",
    "skips_resources",
]

RETAKE_GAIN = Resources(food=4, wood=3, metal=3)
"""What a player who retakes its base receives (the starting resources, N-WIN-5)."""
RETAKE_CARDS = 2


def can_score(state: GameState, seat: str) -> bool:
    """Whether ``seat`` may score cubes, win or conquer: not while its base is conquered."""
    return seat not in state.conquered


def skips_resources(state: GameState, seat: str) -> bool:
    """A conquered player skips the resources phase of its last turn."""
    return seat in state.conquered


def conquer(
    ctx: Context, state: GameState, taken: list[tuple[str, str]]
) -> tuple[BaseConquered, ...]:
    """The bases of ``taken`` ((owner, by) pairs, from N-WIN-1's check) are conquered,
    except those already conquered and those a conquered player stands in."""
    conquered = []
    for owner, by in taken:
        if owner in state.conquered or not can_score(state, by):
            continue
        stock = state.player(owner).stock
        conquered.append(BaseConquered(owner=owner, by=by, taken=stock))
    return tuple(conquered)


def retake(ctx: Context, state: GameState, dice: DiceStream) -> tuple[Event, ...]:
    """At the end of the combat phase: conquered players of this turn whose base holds
    their (or an ally's) units and no enemy win it back."""
    events: list[Event] = []
    for seat in teams.turn_seats(state):
        if seat not in state.conquered:
            continue
        base = ctx.map.base_of(seat)
        owners = state.owners_in(base)
        friends = set(teams.team_of(state, seat))
        if owners and owners <= friends:
            events.append(BaseRetaken(owner=seat, gain=RETAKE_GAIN))
            drawn = 0
            for _ in range(RETAKE_CARDS):
                cards = draw_tactic_events(state, seat, dice, drawn)
                drawn += sum(isinstance(e, TacticCardDrawn) for e in cards)
                events.extend(cards)
    return tuple(events)


def last_turns_over(state: GameState) -> tuple[Event, ...]:
    """At the end of a turn: conquered players of this turn (their last) lose their base:
    eliminated, or with two players the conqueror wins; the last team standing wins."""
    lost = [seat for seat in teams.turn_seats(state) if seat in state.conquered]
    if not lost:
        return ()
    if len(state.seats) == 2:
        (seat,) = lost
        return (GameEnded(reason="conquest", winners=(state.conquered[seat],)),)
    events: list[Event] = [PlayerEliminated(seat=seat) for seat in lost]
    standing = [s for s in state.seats if s not in state.eliminated and s not in lost]
    if len(teams.teams_standing(state, standing)) == 1:
        events.append(GameEnded(reason="last_player_standing", winners=tuple(standing)))
    return tuple(events)


def evolve_base_conquered(state: GameState, event: BaseConquered) -> GameState:
    """The conqueror takes the owner's resources; the owner is conquered."""
    owner = state.player(event.owner)
    state = state.with_player(msgspec.structs.replace(owner, stock=owner.stock - event.taken))
    by = state.player(event.by)
    state = state.with_player(msgspec.structs.replace(by, stock=by.stock + event.taken))
    return msgspec.structs.replace(state, conquered={**state.conquered, event.owner: event.by})


def evolve_base_retaken(state: GameState, event: BaseRetaken) -> GameState:
    """The owner has its base back, with the starting resources."""
    owner = state.player(event.owner)
    state = state.with_player(msgspec.structs.replace(owner, stock=owner.stock + event.gain))
    conquered = {k: v for k, v in state.conquered.items() if k != event.owner}
    return msgspec.structs.replace(state, conquered=conquered)
