"""Every command and event of the golden games in words, and the board as text."""

from __future__ import annotations

import pytest
from make_battlelore_goldens import SCENARIOS, golden_path

from nataterra_core.game import decider_for
from nataterra_core.games.battlelore.system import BATTLELORE
from nataterra_core.kernel import CommandRecord, read_log, replay_states


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_command_and_event_has_a_sentence(scenario: str) -> None:
    log = read_log(golden_path(scenario).read_bytes(), decider_for)
    words = BATTLELORE.presenter
    kinds = set()
    for record in log.records:
        if isinstance(record, CommandRecord):
            said = words.command(record.command, record.seat)
            assert said and type(record.command).__name__ not in said
            for event in record.events:
                assert words.event(event) != type(event).__name__, event
                kinds.add(type(event).__name__)
    assert {"DiceRolled", "UnitMoved", "BattleDeclared", "TurnEnded"} <= kinds


def test_the_board_as_text_shows_sections_terrain_and_units() -> None:
    log = read_log(golden_path("hired-swords").read_bytes(), decider_for)
    state = dict(replay_states(log.decider, log.header, log.records))[2]
    text = BATTLELORE.presenter.view(BATTLELORE.seat_view(state, "english"))
    rows = [line for line in text.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 9
    assert "HHHH" in text and "FFFF" in text and "BBBB" in text  # hill, forest, building
    assert "eFb4" in text and "fCr1" in text  # English blue dwarves (foot), a French creature
    assert ":" in rows[0]  # hexes on the section lines
    assert "hand " in text  # the English see their own hand, the French only a count
