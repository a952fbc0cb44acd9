"""Team play (rules §10a): who is allied, whose turn it is, and who wins together.

A game without the ``teams`` option is every player for themselves: each seat is a team of
one, so every function here also answers the free-for-all question. With teams, allies
take their turns at the same time (N-TURN-3): the turn belongs to a team, every allied seat
still in the game acts for its own units, and a phase ends once each of them has ended it.
Turn order is by team, following the seat order from the team that starts. Allied units
share zones without a combat (N-TEAM-2); a condition met by one player wins for the team
(N-TEAM-1), and a game in which only allies are left standing is won by their team.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..state import GameState

__all__ = [
    "allied",
    "check_teams",
    "next_turn_seat",
    "team_of",
    "team_winners",
    "teams_standing",
    "turn_seats",
]


def check_teams(seats: Sequence[str], teams: Sequence[Sequence[str]]) -> None:
    """``ValueError`` unless ``teams`` (if any) splits ``seats`` into two or more teams."""
    if not teams:
        return
    members = [seat for team in teams for seat in team]
    if sorted(members) != sorted(seats) or any(not team for team in teams):
        raise ValueError(
            f"N-TURN-3: teams must share out the seats {list(seats)}, each seat in one team; "
            f"got {[list(team) for team in teams]}"
        )
    if len(teams) < 2:
        raise ValueError("N-TURN-3: a team game needs at least two teams")


def team_of(state: GameState, seat: str) -> tuple[str, ...]:
    """``seat``'s team in seat order (``(seat,)`` without teams)."""
    for team in state.teams:
        if seat in team:
            return tuple(s for s in state.seats if s in team)
    return (seat,)


def allied(state: GameState, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are the same player or allies."""
    return a == b or (bool(state.teams) and b in team_of(state, a))


def turn_seats(state: GameState) -> tuple[str, ...]:
    """The seats taking the current turn: the active seat and its allies still in the game
    (N-TURN-3)."""
    if not state.teams:
        return (state.active_seat,)
    return tuple(s for s in team_of(state, state.active_seat) if s not in state.eliminated)


def next_turn_seat(state: GameState, out: Iterable[str]) -> str:
    """Whose turn comes next: the next seat in seat order that is still in the game and
    not on the team that just played (N-TURN-1, N-TURN-3)."""
    gone = set(out)
    seats = state.seats
    current = state.active_seat
    for step in range(1, len(seats) + 1):
        seat = seats[(state.active + step) % len(seats)]
        if seat not in gone and not (state.teams and allied(state, current, seat)):
            return seat
    return next(s for s in team_of(state, current) if s not in gone)  # only allies are left


def teams_standing(state: GameState, standing: Iterable[str]) -> set[tuple[str, ...]]:
    """The teams with at least one of ``standing``."""
    return {team_of(state, seat) for seat in standing}


def team_winners(state: GameState, winners: Sequence[str]) -> tuple[str, ...]:
    """N-TEAM-1: the players who win when ``winners`` meet a condition: their teams, in
    seat order; nobody (a draw, N-WIN-4) when they belong to different teams."""
    if not state.teams or not winners:
        return tuple(winners)
    teams = teams_standing(state, winners)
    if len(teams) > 1:
        return ()
    (team,) = teams
    return team
