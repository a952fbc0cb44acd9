"""A short finished log of every registered rule system, for tests that alter logs in every
game (the registry is iterated, so a system registered later is picked up without a change).

Each game is random legal play, seeded, cut after a few dozen commands and closed (``reveal``
and ``end``), so its log is complete and verifies.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import RuleSystem, systems

__all__ = ["COMMANDS", "game_ids", "short_log"]

COMMANDS = 40
"""Commands played before the game is closed (fewer if the rules end it first)."""

_QUICK: dict[str, dict[str, Any]] = {"nataterra": {"max_turns": 4}, "pig": {"target": 20}}


def game_ids() -> list[str]:
    """Every registered rule system's id."""
    return [record.id for record in systems()]


@cache
def short_log(rules_id: str, seed: int = 1, game_id: str | None = None) -> bytes:
    """A finished log of ``rules_id`` (random legal play, ``seed``), as bytes; its game id
    is ``game_id`` (by default the seed's, ``seed-N``: the same in every game)."""
    record = _system(rules_id)
    options = {**record.default_options, **_QUICK.get(record.id, {})}
    seats = record.default_seats[min(record.default_seats)]
    session = new_game(seats, game=record.id, seed=seed, game_id=game_id, options=options)
    rng = random.Random(seed)
    for _ in range(COMMANDS):
        if session.outcome() is not None:
            break
        seat = rng.choice(list(session.acting_seats()))
        session.apply(seat, rng.choice(list(session.legal_commands(seat))))
    session.close()
    return session.log_bytes()


def _system(rules_id: str) -> RuleSystem:
    return next(record for record in systems() if record.id == rules_id)
