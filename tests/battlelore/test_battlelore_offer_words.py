"""BattleLore's menu names units as a player finds them on the board (issue 31 item 5): kind
and banner, whose when not the player's own, and the hex by the board's own label, never a
unit id (``e1``, ``f7``)."""

from __future__ import annotations

import random
import re

from nataterra_core.game import new_game
from nataterra_core.games.battlelore import messages as m
from nataterra_core.kernel.registry import system

RECORD = system("battlelore")
PLACE = re.compile(r"\bat (\d+,\d+)")


def test_every_offer_naming_a_unit_names_it_by_kind_and_a_board_label() -> None:
    session = new_game(("english", "french"), game="battlelore", seed=4, options={"max_turns": 6})
    rng = random.Random(4)
    naming = 0
    assert RECORD.hooks.board_geometry is not None
    for _ in range(300):
        if session.outcome() is not None:
            break
        seat = session.acting_seats()[0]
        view = RECORD.seat_view(session.state, seat)
        board = RECORD.hooks.board_geometry.geometry(view).boards[0]
        labels = {cell.label for cell in board.cells}
        kinds = {piece.id: piece.label for piece in board.pieces}
        commands = session.legal_commands(seat)
        for command in commands:
            said = RECORD.presenter.offer(command, seat, view)
            ids = (getattr(command, "unit", None), getattr(command, "target", None))
            for unit in filter(None, ids):
                naming += 1
                assert not re.search(rf"\b{re.escape(unit)}\b", said), said
                places = PLACE.findall(said)
                assert places and set(places) <= labels, said
                # The board's piece label says the same kind: "french's red heavy cavalry, …"
                assert kinds[unit].split(", ")[0].split("'s ", 1)[1] in said, (said, kinds[unit])
            if isinstance(command, m.BattleUnit):
                assert f"{'french' if seat == 'english' else 'english'}'s " in said, said
        session.apply(seat, rng.choice(list(commands)))
    assert naming > 20
