"""Positions round-trip over the golden games (issue 18, must-show): after every record
outside combat, the exported position restarts the game, and playing the rest of the logged
commands gives the same events and the same final state.

Every record's position is checked to rebuild its state exactly (a restarted game's state
after its start record equals the logged game's state there); the rest of the game is
replayed from every ``STRIDE``-th such position in the default run and from every one under
``-m soak``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from make_goldens import GOLDEN_GAMES, golden_path

from nataterra_core.game import decider_for, new_game
from nataterra_core.games.nataterra.rules.positions import POSITIONS
from nataterra_core.kernel import read_log, replay_states
from nataterra_core.kernel.log import CommandRecord, RevealRecord, UndoRecord

STRIDE = 45
NATATERRA_GOLDENS = [
    name
    for name in GOLDEN_GAMES
    if json.loads(golden_path(name).read_bytes().split(b"\n", 1)[0])["rules"]["id"] == "nataterra"
]


def _exportable(state: Any) -> bool:
    return state.combat is None and state.structuring is None and state.phase != "over"


def _game(name: str) -> tuple[Any, list[tuple[int, Any]], bytes]:
    log = read_log(golden_path(name).read_bytes(), decider_for)
    reveal = next(r for r in log.records if isinstance(r, RevealRecord))
    return (
        log,
        list(replay_states(log.decider, log.header, log.records)),
        bytes.fromhex(reveal.server_seed),
    )


def _restart(log: Any, server_seed: bytes, state: Any) -> Any:
    return new_game(
        server_seed=server_seed,
        game_id=log.header.game_id,
        client_seed=log.header.client_seed,
        position=POSITIONS.export(state),
        options={"tournament": False},
    )


def _play_rest(log: Any, session: Any, after: int) -> None:
    for record in log.records[after + 1 :]:
        if isinstance(record, CommandRecord):
            events = session.apply(record.seat, record.command)
            assert events == record.events, f"record {record.seq}"
        elif isinstance(record, UndoRecord):
            session.undo(record.seat)


def _roundtrip(name: str, every: int) -> int:
    log, states, server_seed = _game(name)
    final = states[-1][1]
    played = 0
    exportable = [(seq, state) for seq, state in states if seq >= 1 and _exportable(state)]
    assert exportable, name
    for i, (seq, state) in enumerate(exportable):
        session = _restart(log, server_seed, state)
        assert session.state == state, f"{name} record {seq}"
        if i % every == 0 or i == len(exportable) - 1:
            _play_rest(log, session, seq)
            assert session.state == final, f"{name} from record {seq}"
            played += 1
    return played


@pytest.mark.parametrize("name", NATATERRA_GOLDENS)
def test_positions_after_every_record_restart_the_golden_game(name: str) -> None:
    assert _roundtrip(name, STRIDE) >= 2


@pytest.mark.soak
@pytest.mark.parametrize("name", NATATERRA_GOLDENS)
def test_positions_after_every_record_replay_the_rest_of_the_golden_game(name: str) -> None:
    assert _roundtrip(name, 1) >= 2
