"""Seats the server plays: the rule system's named players, each on its own seat's view.

``game.create`` may name a player (``"random"``, Nataterra's ``"heuristic"``, ``"search"``,
or a search spec such as ``"search:2s"``) for some seats. A search player thinks within its
budget on the server's clock, capped at the server's ``--max-bot-time``
(:data:`DEFAULT_MAX_BOT_TIME`): the plain ``search`` thinks 1 s, a longer time or an
iteration budget is cut at the cap. Such a seat gets no token; after every call that
changes the game, each acting bot seat chooses from its legal commands, judged on
``RuleSystem.seat_view(state, seat)`` alone (never the state, so a bot cannot read hidden
information), until only people may act or the game is over: all at once in the caller
(:meth:`Bots.play`, an embedded method table) or one decision at a time in a server's worker
pool (:meth:`Bots.choose`, see ``background.py``).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from nataterra_core.game import GameSession
from nataterra_core.kernel import Command, Decider
from nataterra_core.kernel.players import Player, RandomPlayer
from nataterra_core.kernel.registry import RuleSystem
from nataterra_core.search.catalogue import parse_player, players_of

from .errors import GameError, GameErrorCode

__all__ = ["DEFAULT_MAX_BOT_TIME", "GIVEN_UP", "MAX_BOT_COMMANDS", "Bots"]

MAX_BOT_COMMANDS = 10_000
"""Commands the bots may send in one go (a game of bots only plays to its end in one call)."""
GIVEN_UP = "random"
"""The player of a bot seat whose player overran the server's bound on a decision."""
DEFAULT_MAX_BOT_TIME = 5.0
"""The longest a bot's decision may think, in seconds of wall time (``--max-bot-time``)."""


@dataclass(frozen=True)
class Bots:
    """A game's bot seats: the player name and the player of each."""

    names: dict[str, str] = field(default_factory=dict)
    players: dict[str, Player] = field(default_factory=dict)

    @classmethod
    def named(
        cls,
        record: RuleSystem,
        seats: Sequence[str],
        names: Mapping[str, str] | None,
        *,
        max_seconds: float = DEFAULT_MAX_BOT_TIME,
    ) -> Bots:
        """The players for ``names`` (seat -> player name or search spec), each with a fresh
        secret seed, thinking at most ``max_seconds`` per decision on the wall clock; a set-up
        error names an unknown seat or player."""
        players: dict[str, Player] = {}
        for seat, name in (names or {}).items():
            if seat not in seats:
                raise GameError(
                    GameErrorCode.SETUP_REJECTED, f"bots: no seat {seat!r} (seats: {list(seats)})"
                )
            try:
                factory = parse_player(record, name, clock=time.monotonic, max_seconds=max_seconds)
            except ValueError as exc:
                known = ", ".join(sorted(players_of(record)))
                raise GameError(
                    GameErrorCode.SETUP_REJECTED, f"bots: {exc} (known: {known})"
                ) from None
            players[seat] = factory(secrets.randbits(63))
        return cls(dict(names or {}), players)

    def people(self, tokens: Mapping[str, str]) -> dict[str, str]:
        """``tokens`` without the bot seats' (nobody may act for the server)."""
        return {seat: token for seat, token in tokens.items() if seat not in self.names}

    def play(self, record: RuleSystem, session: GameSession) -> int:
        """Let the bot seats act while one of them may and the game goes on; the commands
        sent."""
        sent = 0
        while sent < MAX_BOT_COMMANDS and (seat := self.acting(session)) is not None:
            session.apply(seat, self.choose(record, session.decider, session.state, seat))
            sent += 1
        return sent

    def acting(self, session: GameSession) -> str | None:
        """A bot seat that may act now (``None``: none may, or the game is over)."""
        if not self.players or session.outcome() is not None:
            return None
        return next((s for s in session.acting_seats() if s in self.players), None)

    def forced(self, decider: Decider[Any, Any, Any], state: Any, seat: str) -> bool:
        """Whether ``seat`` has one legal command at ``state`` (a bot answers it at once)."""
        return len(decider.decision(state).legal(seat)) == 1

    def choose(
        self, record: RuleSystem, decider: Decider[Any, Any, Any], state: Any, seat: str
    ) -> Command:
        """The bot's command at ``state``, judged on the seat's view. It reads only the
        (immutable) state it is given, so a worker thread may run it while the game goes on."""
        legal = decider.decision(state).legal(seat)
        command: Command = self.players[seat].choose(record.seat_view(state, seat), legal)
        return command

    def give_up(self, seat: str) -> None:
        """Let the random legal player (:data:`GIVEN_UP`) act for ``seat`` from now on (its
        player overran the time bound of a decision; the late answer is dropped)."""
        self.players[seat] = RandomPlayer(secrets.randbits(63))
        self.names[seat] = GIVEN_UP

    def given_up(self, names: Mapping[str, str]) -> list[str]:
        """Give up the seats that ``names`` (as the store keeps them) has handed to the
        random player since this game was read (by another process): those seats."""
        seats = [
            seat
            for seat, name in names.items()
            if name == GIVEN_UP and self.names.get(seat, GIVEN_UP) != GIVEN_UP
        ]
        for seat in seats:
            self.give_up(seat)
        return seats
