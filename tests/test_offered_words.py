"""A seat's own choices are worded as that seat's (issue 28 item 3): ``Presenter.offer`` is the
one path by which the terminal's menu, the RPC server's ``game.legal_commands`` and so the
browser word a seat's legal commands; ``seat=None`` in ``Presenter.command`` means the system
and nothing else."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import RuleSystem, systems

IMPERATIVE = ("kaladan", "liars-dice", "nataterra")
"""Systems whose menus already read as imperatives (the others name the seat, for now)."""


@pytest.mark.parametrize("record", systems(), ids=lambda r: r.id)
def test_a_seats_choices_are_worded_as_its_own(record: RuleSystem) -> None:
    seats = record.default_seats[min(record.default_seats)]
    session = new_game(seats, game=record.id, seed=9, options=record.default_options)
    rng = random.Random(9)
    offered = 0
    for _ in range(40):
        if session.outcome() is not None:
            break
        seat = session.acting_seats()[0]
        view = record.seat_view(session.state, seat)
        legal = session.legal_commands(seat)
        for command in legal:
            words = record.presenter.offer(command, seat, view)
            assert words and "the system" not in words, words
            if record.id in IMPERATIVE:
                assert not words.startswith(seat), words
            offered += 1
        session.apply(seat, rng.choice(tuple(legal)))
    assert offered > 10


def test_the_terminal_menu_words_choices_as_the_seats_own(tmp_path: Path) -> None:
    out = tmp_path / "liars.jsonl"
    args = ["play", "--game", "liars-dice", "--seed", "4", "--out", str(out)]
    result = CliRunner().invoke(app, args, input="q\na\n")
    menu = result.output
    assert " bid " in menu and "the system" not in menu, menu
