"""Victory in learning mode (rules §10): Battlefield Dominance and base destruction.

N-WIN-2: winning a combat scores one cube; the game ends the moment a player has the
cubes it needs (4 by default, N-WIN-4's timing). N-WIN-1: at the end of your turn, a unit
of yours standing in an opponent's base destroys it; in a 2-player game you win.
"""

from __future__ import annotations

import msgspec

from nataterra_core.kernel import Event

from . import teams
from .context import Context
from .state import GameState
from .turns import GameEnded, PlayerEliminated

__all__ = [
    "DOMINANCE",
    "EVENTS",
    "BaseDestroyed",
    "CubeScored",
    "bases_taken",
    "score_combat",
]

DOMINANCE = "battlefield_dominance"


class CubeScored(Event, frozen=True, tag="cube_scored.v1"):
    """``seat`` placed a cube on ``condition``; it now has ``cubes`` there."""

    seat: str
    condition: str
    cubes: int


class BaseDestroyed(Event, frozen=True, tag="base_destroyed.v1"):
    """N-WIN-1: ``by`` ended its turn with units in ``owner``'s base zone."""

    owner: str
    by: str


EVENTS: tuple[type[Event], ...] = (CubeScored, BaseDestroyed)


def score_combat(state: GameState, winner: str | None) -> tuple[Event, ...]:
    """N-WIN-2 (learning mode): the combat's winner scores a cube; enough cubes win at once."""
    if winner is None or state.mode != "learning":
        return ()
    cubes = state.cubes.get(winner, 0) + 1
    scored = CubeScored(seat=winner, condition=DOMINANCE, cubes=cubes)
    if cubes >= state.dominance_cubes:
        return (scored, GameEnded(reason=DOMINANCE, winners=(winner,)))
    return (scored,)


def bases_taken(ctx: Context, state: GameState) -> tuple[Event, ...]:
    """N-WIN-1 at the end of a turn: enemy bases where a unit of the player (or of one of
    the allies taking the turn with it, N-TURN-3) stands are destroyed.

    With two players that wins the game. With three or more the owner is eliminated, and the
    last player (or team, N-TEAM-1) standing wins.
    """
    playing = teams.turn_seats(state)
    me = playing[0]
    standing_in = {s.zone: s.owner for s in state.units if s.owner in playing}
    taken = [
        (owner, standing_in[zone])
        for owner, zone in sorted(ctx.map.bases.items())
        if not teams.allied(state, me, owner)
        and owner in state.seats
        and owner not in state.eliminated
        and zone in standing_in
    ]
    if not taken:
        return ()
    destroyed = [BaseDestroyed(owner=owner, by=by) for owner, by in taken]
    taken_owners = [owner for owner, _ in taken]
    if len(state.seats) == 2:
        return (*destroyed, GameEnded(reason="base_destroyed", winners=(me,)))
    eliminated = [PlayerEliminated(seat=owner) for owner in taken_owners]
    standing = [s for s in state.seats if s not in state.eliminated and s not in taken_owners]
    if len(teams.teams_standing(state, standing)) == 1:
        won = GameEnded(reason="last_player_standing", winners=tuple(standing))
        return (*destroyed, *eliminated, won)
    return (*destroyed, *eliminated)


def evolve_cube_scored(state: GameState, event: CubeScored) -> GameState:
    """Put the cube down."""
    return msgspec.structs.replace(state, cubes={**state.cubes, event.seat: event.cubes})


def evolve_base_destroyed(state: GameState, event: BaseDestroyed) -> GameState:
    """Record the destroyed base."""
    return msgspec.structs.replace(state, bases_destroyed=(*state.bases_destroyed, event.owner))
