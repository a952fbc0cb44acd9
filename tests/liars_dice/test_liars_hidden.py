"""L-HID-1: the faces under a cup are its owner's secret until a call lifts the cups, in the
seat views, the cut log records and the words every reader gets."""

from __future__ import annotations

import msgspec

from nataterra_core.game import new_game
from nataterra_core.games.liars_dice import messages as m
from nataterra_core.kernel import play, record_view
from nataterra_core.kernel.registry import system

RECORD = system("liars-dice")


def _game(seed: int) -> tuple[object, list[bytes]]:
    session = new_game(3, game="liars-dice", seed=seed)
    players = {s: RECORD.players["heuristic"](i) for i, s in enumerate(session.header.seats)}
    play(session, players, RECORD.seat_view)
    return session, list(session.lines)


def test_L_HID_1_a_seat_sees_its_own_faces_and_only_the_size_of_other_cups() -> None:
    session = new_game(4, game="liars-dice", seed=3)
    state = session.state
    for seat in (*session.header.seats, None):
        view = RECORD.seat_view(state, seat)
        for cup, faces in zip(view.cups, state.cups, strict=True):
            assert cup.count == len(faces)
            assert cup.faces == (faces if cup.seat == seat else None)


def test_L_HID_1_the_log_shows_a_roll_s_faces_to_its_owner_only() -> None:
    session, lines = _game(5)
    decider = session.decider  # type: ignore[attr-defined]
    rolls = 0
    for line in lines:
        for seat in (*session.header.seats, None):  # type: ignore[attr-defined]
            record = record_view(line, seat, decider)
            for event in record.get("events", ()):
                if event.get("type") != "cup_rolled.v1":
                    continue
                rolls += 1
                if event["seat"] == seat:
                    assert "faces" in event and "values" in event
                else:
                    assert "faces" not in event and "values" not in event
                    assert event["ms"] and event["redacted"] == ["faces", "values"]
    assert rolls > 10


def test_L_HID_1_the_words_of_a_roll_never_name_its_faces() -> None:
    roll = m.CupRolled(
        seat="red",
        ms=(6, 6, 6),
        values=(0, 1, 2),
        counter_before=1,
        counter_after=4,
        faces=(1, 2, 3),
    )
    other = msgspec.structs.replace(roll, values=(5, 5, 5), faces=(6, 6, 6))
    for view in (None, RECORD.seat_view(new_game(2, game="liars-dice", seed=1).state, "blue")):
        assert RECORD.presenter.event(roll, view) == RECORD.presenter.event(other, view)
        assert RECORD.presenter.event(roll, view) == "red rolls 3 dice under the cup"


def test_L_HID_1_a_call_makes_every_lifted_cup_public() -> None:
    _, lines = _game(6)
    decider = RECORD.decider(None)
    revealed = [
        event
        for line in lines
        for event in record_view(line, "blue", decider).get("events", ())
        if event.get("type") == "cups_revealed.v1"
    ]
    assert revealed and all("cups" in event and "redacted" not in event for event in revealed)
