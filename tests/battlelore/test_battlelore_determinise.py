"""The determiniser hook: a state consistent with a seat's view, for every scenario."""

from __future__ import annotations

import random

import pytest

from nataterra_core.game import new_game
from nataterra_core.games.battlelore.system import BATTLELORE


@pytest.mark.parametrize("scenario", ["agincourt", "hired-swords", "war-council"])
def test_a_determinised_state_shows_the_seat_exactly_its_view(scenario: str) -> None:
    hook = BATTLELORE.hooks.determiniser
    assert hook is not None
    session = new_game(
        ("english", "french"),
        game="battlelore",
        seed=6,
        options={"scenario": scenario, "max_turns": 10},
    )
    decider = session.decider
    rng = random.Random(6)
    checked = differs = 0
    while session.outcome() is None:
        state = session.state
        for seat in (*state.seats, None):
            view = BATTLELORE.seat_view(state, seat)
            world = hook(view, None, checked)
            assert BATTLELORE.seat_view(world, seat) == view
            if seat is not None:
                ours, theirs = decider.decision(state), decider.decision(world)
                assert ours.acting == theirs.acting
                assert list(ours.legal(seat)) == list(theirs.legal(seat))
            differs += world != state
            checked += 1
        seat = session.acting_seats()[0]
        session.apply(seat, rng.choice(session.legal_commands(seat)))
    assert checked > 30 and differs > checked // 2  # the hidden parts are really re-dealt
