"""Smaller defects found while attacking the engine (issue 14 item 7), one test each."""

from __future__ import annotations

import pytest
from combat_helpers import deployed

from nataterra_core.games.nataterra.messages import combat as m
from nataterra_core.kernel import IllegalCommand, Session, UndoRefused


def test_N_COMBAT_19_a_forced_support_on_the_supporting_group_itself_cites_N_COMBAT_19() -> None:
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "disciple", 3, None),
            ("velathi", "zealot", 3, None),
            ("beasts", "woodcutter", 1, None),
        ],
    )
    fight.deploy_largest()
    active = fight.combat.groups[fight.combat.active]
    assert any(isinstance(c, m.Support) for c in fight.options)
    with pytest.raises(IllegalCommand) as refused:
        fight.decide(m.Support(target=active.id, bonus="attack"))
    assert refused.value.rule_id == "N-COMBAT-19"


def test_the_command_that_ended_a_game_cannot_be_undone() -> None:
    """Pig's Hold uses no dice; the Hold that reaches the target ends the game, and undo
    must not reopen it (docs/LOG_FORMAT.md: undo stays within a game in progress)."""
    from dicegame import Hold, Pig, Roll

    for seed in range(40):
        session: Session = Session.new(  # type: ignore[type-arg]
            Pig(),
            seats=("ann", "bob"),
            server_seed=seed.to_bytes(32, "big"),
            game_id=f"pig-{seed}",
            options={"target": 3},
        )
        while session.outcome() is None:
            seat = session.acting_seats()[0]
            legal = session.legal_commands(seat)
            hold = next((c for c in legal if isinstance(c, Hold)), None)
            session.apply(seat, hold if hold is not None else Roll())
            if session.outcome() is not None and hold is not None:
                assert not session.can_undo(seat)
                with pytest.raises(UndoRefused, match="ended the game"):
                    session.undo(seat)
                return
    pytest.fail("no seed ended a game with a Hold")
