"""What both research environments share: a game set up from the registry, its encoder and
codec, rewards from the outcome, and the random seed of a game nobody seeded."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from nataterra_core.game import GameSession, new_game
from nataterra_core.kernel import Outcome, Setup
from nataterra_core.kernel.encoding import ActionCodec, ObservationEncoder
from nataterra_core.kernel.registry import RuleSystem, system

__all__ = ["GameSpec", "rewards_of"]


class GameSpec:
    """One game set-up of a registered system (seats, options, content pack) with its
    observation encoder and action codec, and a way to start games of it."""

    def __init__(
        self,
        game: str = "nataterra",
        seats: Sequence[str] | int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        record = system(game)
        hooks = record.hooks
        if hooks.observation is None or hooks.action_codec is None:
            raise ValueError(f"{game} offers no observation encoder or action codec")
        self.record: RuleSystem = record
        self.seats = record.seats(min(record.default_seats) if seats is None else seats)
        self.options = {**record.default_options, **(options or {})}
        decider = record.decider(None)
        record.check(decider, self.seats, self.options)
        setup = Setup(game_id="environment", seats=self.seats, options=dict(self.options))
        self.encoder: ObservationEncoder = hooks.observation(decider, setup)
        self.codec: ActionCodec = hooks.action_codec(decider, setup)

    def start(self, seed: int | None) -> GameSession:
        """A new game: seeded in the open (``--seed N``), or with a secret seed."""
        if seed is not None:
            return new_game(self.seats, game=self.record.id, seed=seed, options=self.options)
        return new_game(
            self.seats,
            game=self.record.id,
            server_seed=secrets.token_bytes(32),
            game_id=f"g-{secrets.token_hex(8)}",
            options=self.options,
        )

    def features(self, session: GameSession, seat: str | None) -> list[float]:
        """``seat``'s observation of the game (its view, encoded)."""
        return self.encoder.encode(self.record.seat_view(session.state, seat))


def rewards_of(outcome: Outcome | None, seats: Sequence[str]) -> dict[str, float]:
    """+1 for each winner and -1 for every other seat; 0 for all in a draw, an abandoned
    game or one not over yet."""
    if outcome is None or not outcome.winners:
        return dict.fromkeys(seats, 0.0)
    return {seat: 1.0 if seat in outcome.winners else -1.0 for seat in seats}
