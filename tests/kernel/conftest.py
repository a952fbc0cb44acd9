"""Shared helpers for the kernel tests: Pig sessions and random play."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from dicegame import Pig, PigState

from nataterra_core.kernel import Command, Event, Header, Session

PigSession = Session[PigState, Command, Event]


def new_session(seed: int = 0, **options: object) -> PigSession:
    return Session.new(
        Pig(),
        seats=("ann", "bob"),
        server_seed=seed.to_bytes(32, "big"),
        game_id=f"pig-{seed}",
        options=options,
    )


def play_random(session: PigSession, rng: random.Random, steps: int) -> None:
    """Up to ``steps`` random legal commands."""
    for _ in range(steps):
        if session.outcome() is not None:
            return
        seat = session.acting_seats()[0]
        session.apply(seat, rng.choice(session.legal_commands(seat)))


def finished_log(seed: int = 3, target: int = 12) -> bytes:
    session = new_session(seed, target=target)
    play_random(session, random.Random(seed), 500)
    session.close()
    return session.log_bytes()


def pig_factory(header: Header) -> Pig:
    return Pig()


@pytest.fixture
def pig() -> Pig:
    return Pig()
