"""Kaladan at the table (issue 31 item 8): buy-phase offers carry their price, and the status
line carries every seat's running K-END-2 score, the same as the end would score now."""

from __future__ import annotations

from nataterra_core.game import new_game
from nataterra_core.games.kaladan import messages as m
from nataterra_core.games.kaladan.content import load_pack
from nataterra_core.games.kaladan.rules.flow import score
from nataterra_core.kernel.registry import system

KALADAN = system("kaladan")


def test_buy_offers_name_their_price_and_the_status_line_the_running_scores() -> None:
    pack = load_pack()
    session = new_game(2, game="kaladan", seed=3)
    priced = 0
    for step in range(300):
        if session.outcome() is not None:
            break
        seat = session.acting_seats()[0]
        view = KALADAN.seat_view(session.state, seat)
        status = KALADAN.presenter.view(view).splitlines()[0]
        table = session.decider.table(session.state.map_id)
        expected = ", ".join(f"{s} {score(table, session.state, s)}" for s in session.state.seats)
        assert status.endswith(f"score so far {expected}"), status
        commands = session.legal_commands(seat)
        for command in commands:
            offer = KALADAN.presenter.offer(command, seat, view)
            if isinstance(command, m.Place):
                assert offer.endswith(f" ({pack.units[command.unit].place_cost} gold)"), offer
                priced += 1
            elif isinstance(command, m.Upgrade):
                assert offer.endswith(f" ({pack.units[command.unit].upgrade_cost} gold)"), offer
                priced += 1
            elif isinstance(command, m.EndPhase):
                assert "gold)" not in offer
        session.apply(seat, commands[step % len(commands)])
    assert priced > 20
