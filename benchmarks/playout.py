"""Playout speed: player decisions per CPU second of random full games, against python-chess.

    python benchmarks/playout.py [--seconds S] [--pairs N] [--players N] [--turns T]

*Our side*: seeded learning games between :class:`~nataterra_core.games.nataterra.bots.RandomPlayer`
bots, played to the end (or ``max_turns``) and restarted with the next seed. One decision is one
``Session.legal_commands`` (legal-command generation) plus one ``Session.apply`` of the
command the player picked (decide, fold, log record). *python-chess*: random legal moves from
the start position, ``list(board.legal_moves)`` then ``board.push``, restarting when the game
is over. The two sides take turns (``--pairs`` interleaved pairs, at least 6; each turn at
least ``--seconds`` of CPU time of this process, see ``pairs.py``); both carry on where their
last turn stopped.

The last line is ``playout_ratio=<median> playout_ratio_min=<..> playout_ratio_max=<..>``,
the ratio being python-chess moves per CPU second divided by our decisions per CPU second
(below 1 means we are faster); the line before keeps the earlier figures' names
(``decisions_per_s``, ``python_chess_moves_per_s``, ``ratio``), as medians. Figures are
printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator

import chess
from pairs import MIN_PAIRS, build_name, interleaved, load_note, summary

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.bots import RandomPlayer

CHECK_EVERY = 16
"""Work between two looks at the clock (each look costs a system call)."""


def nataterra_decisions(players: int, turns: int) -> Iterator[int]:
    """Random full games, one after another; yields after every ``CHECK_EVERY`` decisions."""
    games = 0
    while True:
        session = new_game(players, seed=games, options={"max_turns": turns})
        bots = {seat: RandomPlayer(games * 16 + i) for i, seat in enumerate(session.header.seats)}
        done = 0
        while session.outcome() is None:
            seat = session.acting_seats()[0]
            commands = session.legal_commands(seat)
            # The random player reads no view; a decision is the legal list plus the apply.
            session.apply(seat, bots[seat].choose(None, commands))
            done += 1
            if done == CHECK_EVERY:
                yield done
                done = 0
        games += 1
        yield done


def chess_moves(seed: int = 1) -> Iterator[int]:
    """Random legal chess games, one after another; yields after every ``CHECK_EVERY`` moves."""
    rng = random.Random(seed)  # outside nataterra_core, so Python's random is fine here
    while True:
        board = chess.Board()
        done = 0
        while not board.is_game_over():
            legal = list(board.legal_moves)
            board.push(legal[rng.randrange(len(legal))])
            done += 1
            if done == CHECK_EVERY:
                yield done
                done = 0
        yield done


def turn(work: Iterator[int], seconds: float) -> float:
    """Run ``work`` for at least ``seconds`` of CPU time; the amount done."""
    done = 0
    end = time.process_time() + seconds
    while time.process_time() < end:
        done += next(work)
    return done


def main() -> None:
    """Measure both sides in interleaved pairs and print the comparison lines last."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per turn")
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()

    ours = nataterra_decisions(args.players, args.turns)
    theirs = chess_moves()
    turn(ours, 0.2)  # warm up: imports, the content pack, first-call caches
    turn(theirs, 0.2)
    rates = interleaved(
        lambda: turn(ours, args.seconds), lambda: turn(theirs, args.seconds), args.pairs
    )
    for index, (mine, chess_rate) in enumerate(rates):
        print(
            f"pair {index}: nataterra {mine:>8,.0f} decisions/s, "
            f"python-chess {chess_rate:>8,.0f} moves/s (CPU time)"
        )
    ours_rate = statistics.median(rate for rate, _ in rates)
    chess_rate = statistics.median(rate for _, rate in rates)
    print(f"build {build_name()}, {load_note()}")
    print(
        f"decisions_per_s={round(ours_rate)} python_chess_moves_per_s={round(chess_rate)} "
        f"ratio={chess_rate / ours_rate:.2f}"
    )
    print(summary("playout_ratio", [theirs_ / mine_ for mine_, theirs_ in rates]))


if __name__ == "__main__":
    main()
