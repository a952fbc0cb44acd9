"""Computer players. Each picks one command from the legal list; none touches the game's dice.

A bot's randomness comes from its own ``nataterra-dice-v1`` stream keyed by the bot's
seed, never from Python's ``random`` (whose sequences are not promised across versions),
so a seeded bot game is the same everywhere.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from nataterra_core.kernel import Command, DiceStream, Session

__all__ = ["Player", "RandomPlayer", "play"]


class Player(Protocol):
    """Anything that chooses among legal commands."""

    def choose(self, state: object, seat: str, commands: Sequence[Command]) -> Command:
        """One of ``commands`` (never empty)."""


class RandomPlayer:
    """Chooses uniformly among the legal commands, from its own seeded stream."""

    def __init__(self, seed: int) -> None:
        key = hashlib.sha256(b"nataterra-bot-v1" + struct.pack(">Q", seed)).digest()
        self._dice = DiceStream(key, "random-player", "")

    def choose(self, state: object, seat: str, commands: Sequence[Command]) -> Command:
        """A uniformly random legal command."""
        return commands[self._dice.draw(len(commands))]


def play(
    session: Session[Any, Any, Any],
    players: Mapping[str, Player],
    *,
    max_commands: int | None = None,
) -> int:
    """Let ``players`` (by seat) play until the game ends; return the commands applied."""
    applied = 0
    while session.outcome() is None and (max_commands is None or applied < max_commands):
        seat = session.acting_seats()[0]
        commands = session.legal_commands(seat)
        session.apply(seat, players[seat].choose(session.state, seat, commands))
        applied += 1
    return applied
