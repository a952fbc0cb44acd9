"""Seats the server plays: the rule system's named players, each on its own seat's view.

``game.create`` may name a player (``"random"``, Nataterra's ``"heuristic"``, …) for some
seats. Such a seat gets no token; after every call that changes the game, :meth:`Bots.play`
lets each acting bot seat choose from its legal commands, judged on
``RuleSystem.seat_view(state, seat)`` alone (never the state, so a bot cannot read hidden
information), until only people may act or the game is over.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from nataterra_core.game import GameSession
from nataterra_core.kernel.players import Player
from nataterra_core.kernel.registry import RuleSystem
from nataterra_core.search.catalogue import players_of

from .errors import GameError, GameErrorCode

__all__ = ["MAX_BOT_COMMANDS", "Bots"]

MAX_BOT_COMMANDS = 10_000
"""Commands the bots may send in one go (a game of bots only plays to its end in one call)."""


@dataclass(frozen=True)
class Bots:
    """A game's bot seats: the player name and the player of each."""

    names: Mapping[str, str] = field(default_factory=dict)
    players: Mapping[str, Player] = field(default_factory=dict)

    @classmethod
    def named(
        cls, record: RuleSystem, seats: Sequence[str], names: Mapping[str, str] | None
    ) -> Bots:
        """The players for ``names`` (seat -> player name), each with a fresh secret seed; a
        set-up error names an unknown seat or player."""
        players: dict[str, Player] = {}
        for seat, name in (names or {}).items():
            if seat not in seats:
                raise GameError(
                    GameErrorCode.SETUP_REJECTED, f"bots: no seat {seat!r} (seats: {list(seats)})"
                )
            named = players_of(record)
            factory = named.get(name)
            if factory is None:
                known = ", ".join(sorted(named))
                raise GameError(
                    GameErrorCode.SETUP_REJECTED,
                    f"bots: {record.id} has no player {name!r} (known: {known})",
                )
            players[seat] = factory(secrets.randbits(63))
        return cls(dict(names or {}), players)

    def people(self, tokens: Mapping[str, str]) -> dict[str, str]:
        """``tokens`` without the bot seats' (nobody may act for the server)."""
        return {seat: token for seat, token in tokens.items() if seat not in self.names}

    def play(self, record: RuleSystem, session: GameSession) -> int:
        """Let the bot seats act while one of them may and the game goes on; the commands
        sent."""
        sent = 0
        while self.players and session.outcome() is None and sent < MAX_BOT_COMMANDS:
            seat = next((s for s in session.acting_seats() if s in self.players), None)
            if seat is None:
                break
            legal = session.legal_commands(seat)
            view = record.seat_view(session.state, seat)
            session.apply(seat, self.players[seat].choose(view, legal))
            sent += 1
        return sent
