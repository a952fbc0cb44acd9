"""Playout speed: player decisions per second of random full games, against python-chess.

    python benchmarks/playout.py [--seconds S] [--players N] [--turns T]

*Our side*: seeded learning games between :class:`~nataterra_core.games.nataterra.bots.RandomPlayer`
bots, played to the end (or ``max_turns``) and restarted with the next seed. One decision is one
``Session.legal_commands`` (legal-command generation) plus one ``Session.apply`` of the
command the player picked (decide, fold, log record). *python-chess*: random legal moves from
the start position, ``list(board.legal_moves)`` then ``board.push``, restarting when the game
is over. Each side runs for at least ``--seconds`` (default 3) in the same process.

The last line is ``decisions_per_s=<int> python_chess_moves_per_s=<int> ratio=<float>``,
where ``ratio`` is python-chess moves per second divided by our decisions per second (how
many times faster python-chess is; below 1 means we are faster). Figures are printed, never
asserted (these machines are noisy).
"""

from __future__ import annotations

import argparse
import random
import time

import chess

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.bots import RandomPlayer


def nataterra_decisions(seconds: float, players: int, turns: int) -> tuple[int, float, int]:
    """(decisions, elapsed seconds, games) of random full games for at least ``seconds``."""
    decisions = games = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        session = new_game(players, seed=games, options={"max_turns": turns})
        bots = {seat: RandomPlayer(games * 16 + i) for i, seat in enumerate(session.header.seats)}
        while session.outcome() is None:
            seat = session.acting_seats()[0]
            commands = session.legal_commands(seat)
            # The random player reads no view; a decision is the legal list plus the apply.
            session.apply(seat, bots[seat].choose(None, commands))
            decisions += 1
        games += 1
        elapsed = time.perf_counter() - start
    return decisions, elapsed, games


def chess_moves(seconds: float, seed: int = 1) -> tuple[int, float, int]:
    """(moves, elapsed seconds, games) of random legal chess for at least ``seconds``."""
    rng = random.Random(seed)  # outside nataterra_core, so Python's random is fine here
    moves = games = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        board = chess.Board()
        while not board.is_game_over():
            legal = list(board.legal_moves)
            board.push(legal[rng.randrange(len(legal))])
            moves += 1
        games += 1
        elapsed = time.perf_counter() - start
    return moves, elapsed, games


def main() -> None:
    """Measure both sides and print the comparison line last."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()

    decisions, ours, games = nataterra_decisions(args.seconds, args.players, args.turns)
    ours_rate = decisions / ours
    print(
        f"nataterra    {ours_rate:>10,.0f} decisions/s  "
        f"({decisions} decisions, {games} games, {ours:.2f} s)"
    )
    moves, theirs, chess_games = chess_moves(args.seconds)
    chess_rate = moves / theirs
    print(
        f"python-chess {chess_rate:>10,.0f} moves/s      "
        f"({moves} moves, {chess_games} games, {theirs:.2f} s)"
    )
    print(
        f"decisions_per_s={round(ours_rate)} python_chess_moves_per_s={round(chess_rate)} "
        f"ratio={chess_rate / ours_rate:.2f}"
    )


if __name__ == "__main__":
    main()
