"""Every scenario (the conformance test plays only the default one) under random legal play:
the kernel's contract holds — folding the events gives the state ``decide`` hands back,
replay equals live play, an unlisted command is refused with a ``B-`` rule id and nothing
changes, and the log verifies."""

from __future__ import annotations

import random

import pytest

from nataterra_core.game import decider_for, new_game, verify_log
from nataterra_core.kernel import (
    CommandRejected,
    Decided,
    DiceStream,
    read_log,
    replay_states,
    seed_from_number,
)


@pytest.mark.parametrize("scenario", ["hired-swords", "war-council"])
def test_B_SCN_1_random_play_keeps_the_kernel_contract(scenario: str) -> None:
    session = new_game(
        ("english", "french"),
        game="battlelore",
        seed=11,
        options={"scenario": scenario, "max_turns": 30},
    )
    rng = random.Random(11)
    live = {}
    seen: list[object] = []
    refused = 0
    while session.outcome() is None:
        seat = rng.choice(list(session.acting_seats()))
        legal = session.legal_commands(seat)
        outside = [c for c in seen if c not in legal]
        if outside:
            lines, state = session.lines, session.state
            with pytest.raises(CommandRejected) as raised:
                session.apply(seat, rng.choice(outside))  # type: ignore[arg-type]
            assert str(raised.value).startswith("B-")
            assert session.lines == lines and session.state is state
            refused += 1
        command = rng.choice(legal)
        server_seed, game_id = seed_from_number(11)
        dice = DiceStream(server_seed, game_id, "", session.decider.dice_counter(session.state))
        decided = session.decider.decide(session.state, command, dice, seat=seat, legal=True)
        assert isinstance(decided, Decided)
        folded = session.state
        for event in decided.events:
            folded = session.decider.evolve(folded, event)
        assert folded == decided.state
        session.apply(seat, command)
        live[len(session.lines) - 1] = session.state
        seen = [*seen, *legal][-100:]
    assert refused > 10
    read = read_log(session.log_bytes(), decider_for)
    for seq, state in replay_states(read.decider, read.header, read.records):
        if seq in live:
            assert state == live[seq]
    session.close()
    assert verify_log(session.log_bytes()).valid
