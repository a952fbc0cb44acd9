"""Kaladan positions for tests: a started game's state with parts replaced, and one
command decided on it with a chosen dice seed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from msgspec.structs import replace

from nataterra_core.game import GameSession, new_game
from nataterra_core.games.kaladan.board import Board
from nataterra_core.games.kaladan.decider import Kaladan
from nataterra_core.games.kaladan.state import Army, GameState
from nataterra_core.kernel import Command, Decided, DiceStream, Event, seed_from_number

__all__ = [
    "at_phase",
    "beside_castle",
    "board_of",
    "decide",
    "empty_hands",
    "of_type",
    "pair",
    "placed",
    "seed_where",
    "started",
    "tile_of",
    "with_player",
]

E = TypeVar("E")


def started(players: int = 2, seed: int = 1) -> GameSession:
    """A new Kaladan game (its start record applied)."""
    return new_game(players, game="kaladan", seed=seed)


def board_of(session: GameSession) -> Board:
    """The built map of a session's game."""
    decider = session.decider
    assert isinstance(decider, Kaladan)
    return decider.table(session.state.map_id).board


def tile_of(board: Board, terrain: str, *, avoid: tuple[str, ...] = ()) -> str:
    """The first tile of ``terrain`` that is no castle and not in ``avoid``."""
    return next(
        t
        for t in board.tiles
        if board.terrain[t] == terrain and t not in board.castle_of and t not in avoid
    )


def beside_castle(board: Board, seat: str) -> tuple[str, str]:
    """``seat``'s castle and the first tile next to it that is no castle."""
    home = board.home(seat)
    return home, next(t for t in board.neighbours[home] if t not in board.castle_of)


def placed(state: GameState, armies: dict[str, tuple[str, tuple[str, ...]]]) -> GameState:
    """``state`` with exactly these armies on the board (tile -> owner, units)."""
    board = {tile: Army(owner, tuple(sorted(units))) for tile, (owner, units) in armies.items()}
    return replace(state, board=board)


def with_player(state: GameState, seat: str, **changes: Any) -> GameState:
    """``state`` with one player's fields replaced."""
    players = tuple(replace(p, **changes) if p.seat == seat else p for p in state.players)
    return replace(state, players=players)


def decide(
    session: GameSession, state: GameState, seat: str, command: Command, seed: int = 1
) -> tuple[tuple[Event, ...], GameState]:
    """``command`` decided on ``state`` with the dice of ``seed`` at the state's counter."""
    server_seed, game_id = seed_from_number(seed)
    dice = DiceStream(server_seed, game_id, "", state.counter)
    decided = session.decider.decide(state, command, dice, seat=seat)
    assert isinstance(decided, Decided)
    return tuple(decided.events), decided.state


def at_phase(state: GameState, seat: str, phase: str, **changes: Any) -> GameState:
    """``state`` in ``seat``'s ``phase`` with nothing pending, no fight, and ``changes``."""
    return replace(
        state,
        active=seat,
        phase=phase,
        action_done=False,
        pending=(),
        combat=None,
        magic_played=(),
        placed_empty="",
        **changes,
    )


def empty_hands(state: GameState) -> GameState:
    """No magic card in any hand (so no combat window opens)."""
    return replace(state, players=tuple(replace(p, hand=()) for p in state.players))


def pair(board: Board, source: str, target: str) -> tuple[str, str]:
    """Two adjacent non-castle tiles of the given terrains."""
    for a in board.tiles:
        for b in board.neighbours[a]:
            if a in board.castle_of or b in board.castle_of:
                continue
            if board.terrain[a] == source and board.terrain[b] == target:
                return a, b
    raise LookupError(f"no {source} tile next to a {target} tile")


def seed_where(
    session: GameSession,
    state: GameState,
    seat: str,
    command: Command,
    wanted: Callable[[tuple[Event, ...], GameState], bool],
    tries: int = 400,
) -> tuple[tuple[Event, ...], GameState]:
    """The first dice seed under which ``command`` gives what ``wanted`` asks (seed search)."""
    for seed in range(tries):
        events, after = decide(session, state, seat, command, seed)
        if wanted(events, after):
            return events, after
    raise LookupError("no seed gives the wanted dice")


def of_type(events: tuple[Event, ...], cls: type[E]) -> list[E]:
    """The events of one type."""
    return [e for e in events if isinstance(e, cls)]
