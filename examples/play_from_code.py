"""Embed the engine: play a seeded game from code, try undo and redo, then verify the log.

    python examples/play_from_code.py [--seed N] [--turns N] [--players N] [--out LOG]

The loop is what any front end does: ask the session who acts and what is legal, pick a
command, apply it. Illegal commands cannot be picked here, but ``session.apply`` would
raise ``IllegalCommand`` naming the rule they break.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.bots import RandomPlayer
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.views import seat_view


def main() -> None:
    """Play, show undo/redo once, close, verify and print a summary."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--out", type=Path, help="write the log here")
    args = parser.parse_args()

    session = new_game(args.players, seed=args.seed, options={"max_turns": args.turns})
    bots = {seat: RandomPlayer(args.seed * 16 + i) for i, seat in enumerate(session.header.seats)}
    print(f"{session.header.game_id}: {', '.join(session.header.seats)}")

    applied = moves = 0
    undo_shown = False
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        commands = session.legal_commands(seat)
        command = bots[seat].choose(seat_view(session.state, seat), commands)
        session.apply(seat, command)
        applied += 1
        moves += isinstance(command, MoveUnits)
        if not undo_shown and session.can_undo(seat):
            # A move that used no dice and stayed within the turn may be taken back; redo
            # appends it again and leads to the very same state.
            before_undo = session.state
            undone = session.undo(seat)
            session.redo(seat)
            assert session.state == before_undo
            print(f"undo/redo: {seat} took back record {undone} and played it again")
            undo_shown = True

    result = session.close()
    state = session.state
    print(f"{applied} commands ({moves} moves) over {state.turn} turns; result: {result.reason}")
    for player in state.players:
        stock = player.stock
        units = sum(s.count for s in state.stacks_of(player.civ))
        print(
            f"  {player.civ}: {stock.food} food, {stock.wood} wood, {stock.metal} metal; "
            f"{units} units on the map"
        )

    data = session.log_bytes()
    if args.out is not None:
        args.out.write_bytes(data)
    verdict = verify_log(data)
    print(f"log: {len(session.lines)} records, head {session.head}")
    print(f"verified: {verdict.status}")


if __name__ == "__main__":
    main()
