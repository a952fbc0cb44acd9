"""Nataterra's computer players. Each picks one command from the legal list, judging on its
seat's :class:`~nataterra_core.games.nataterra.views.SeatView` (never the state, so no bot
sees another seat's hand or a deck's order); none touches the game's dice.

:class:`~nataterra_core.kernel.RandomPlayer` (the kernel's) picks uniformly;
:class:`HeuristicPlayer` plays purposeful learning games. :func:`play` is the kernel's loop
with Nataterra's seat views. :func:`~.evaluate.evaluate` is the search player's estimate of a
seat's winning chance (``Hooks.evaluate``): it reads a whole state, a search's own sample.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nataterra_core.games.nataterra.views import seat_view
from nataterra_core.kernel import Player, RandomPlayer, Session
from nataterra_core.kernel import play as play_views

from .heuristic import HeuristicPlayer

__all__ = ["HeuristicPlayer", "Player", "RandomPlayer", "play"]


def play(
    session: Session[Any, Any, Any],
    players: Mapping[str, Player],
    *,
    max_commands: int | None = None,
) -> int:
    """Let ``players`` (by seat) play a Nataterra game until it ends (or ``max_commands``
    were applied), each seeing only its seat's view; return the commands applied."""
    return play_views(session, players, seat_view, max_commands=max_commands)
