"""Kaladan positions for tests: a started game's state with parts replaced, and one
command decided on it with a chosen dice seed."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from nataterra_core.game import GameSession, new_game
from nataterra_core.games.kaladan.board import Board
from nataterra_core.games.kaladan.decider import Kaladan
from nataterra_core.games.kaladan.state import Army, GameState
from nataterra_core.kernel import Command, Decided, DiceStream, Event, seed_from_number

__all__ = ["board_of", "decide", "placed", "started", "tile_of", "with_player"]


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
