"""Computer players for any game on the kernel: the :class:`Player` protocol, a seeded
:class:`RandomPlayer` and the :func:`play` loop.

A player is given what its seat may see (the game's seat view, never the state) and the
legal commands, so it cannot read hidden information (other seats' hands, deck orders)
that a human in its seat could not. A player's randomness comes from its own
``nataterra-dice-v1`` stream keyed by its seed, never from Python's ``random`` (whose
sequences are not promised across versions), so a seeded bot game is the same everywhere.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from .dice import DiceStream
from .messages import Command
from .session import Session

__all__ = ["Player", "RandomPlayer", "play", "player_dice"]

S = TypeVar("S")


class Player(Protocol):
    """Anything that chooses among legal commands from its seat's view."""

    def choose(self, view: Any, legal_commands: Sequence[Command]) -> Command:
        """One of ``legal_commands`` (never empty), judged on ``view`` alone."""


def player_dice(seed: int, name: str) -> DiceStream:
    """The player's own ``nataterra-dice-v1`` stream: keyed by its seed, named for its kind
    (two kinds of player with one seed still draw differently)."""
    key = hashlib.sha256(b"nataterra-bot-v1" + struct.pack(">Q", seed)).digest()
    return DiceStream(key, name, "")


class RandomPlayer:
    """Chooses uniformly among the legal commands, from its own seeded stream (one draw per
    choice, so the sequence depends only on the seed and the lengths of the legal lists)."""

    def __init__(self, seed: int) -> None:
        self._dice = player_dice(seed, "random-player")

    def choose(self, view: Any, legal_commands: Sequence[Command]) -> Command:
        """A uniformly random legal command (the view is not needed)."""
        return legal_commands[self._dice.draw(len(legal_commands))]


def play(
    session: Session[S, Any, Any],
    players: Mapping[str, Player],
    view: Callable[[S, str], Any],
    *,
    max_commands: int | None = None,
) -> int:
    """Let ``players`` (by seat) play until the game ends or ``max_commands`` were applied;
    return the commands applied. Each acting seat's player gets ``view(state, seat)`` and
    that seat's legal commands, never the state itself."""
    applied = 0
    while session.outcome() is None and (max_commands is None or applied < max_commands):
        seat = session.acting_seats()[0]
        commands = session.legal_commands(seat)
        session.apply(seat, players[seat].choose(view(session.state, seat), commands))
        applied += 1
    return applied
