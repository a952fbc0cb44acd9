"""Kaladan's determiniser (``Hooks.determiniser``): from a seat's view, a full state whose
view for that seat is the same view and on which the seat's decision is the same; the same
seed gives the same sample; different seeds sample the hidden cards differently (K-HID-1)."""

from __future__ import annotations

import random

import pytest

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import system


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2)])
def test_K_HID_1_a_sampled_state_agrees_with_the_seat_view(players: int, seed: int) -> None:
    record = system("kaladan")
    determiniser = record.hooks.determiniser
    assert determiniser is not None and record.load_pack is not None
    pack = record.load_pack(None)
    session = new_game(players, game="kaladan", seed=seed)
    rng = random.Random(seed)
    checked = differed = 0
    while session.outcome() is None:
        state, decider = session.state, session.decider
        for seat in session.header.seats:
            view = record.seat_view(state, seat)
            sampled = determiniser(view, pack, checked)
            assert record.seat_view(sampled, seat) == view
            assert determiniser(view, pack, checked) == sampled
            differed += determiniser(view, pack, checked + 1) != sampled
            ours, theirs = decider.decision(state), decider.decision(sampled)
            assert ours.acting == theirs.acting
            assert list(ours.legal(seat)) == list(theirs.legal(seat))
            checked += 1
        seat = rng.choice(list(session.acting_seats()))
        session.apply(seat, rng.choice(tuple(session.legal_commands(seat))))
    assert checked > 100 and differed > checked // 2
