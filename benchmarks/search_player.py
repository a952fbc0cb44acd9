"""Search-player speed: ISMCTS iterations per second on Nataterra decisions.

    python benchmarks/search_player.py [--iterations N] [--games G] [--rollout POLICY]

Plays ``--games`` learning games (2 players, seeded) between the search player
(``search:N:POLICY``) and the heuristic player and reports, over every decision the search
player searched, the iterations per second and the commands per second its playouts ran.
A decision with one legal command, or more than the player's ``max_branching``, costs no
iterations and is left out. Rates are given per second of wall time and per second of this
process's CPU time (on a shared machine the two differ). Figures are printed, never asserted
(these machines are noisy).

The last line is ``iterations_per_s=<float> iterations_per_cpu_s=<float>
commands_per_s=<int> decisions=<int>``.
"""

from __future__ import annotations

import argparse
import time

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import system
from nataterra_core.search.catalogue import make_player
from nataterra_core.search.ismcts import SearchPlayer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--rollout", default="heuristic")
    args = parser.parse_args()
    record = system("nataterra")
    iterations = commands = decisions = 0
    seconds = cpu = 0.0
    for game in range(args.games):
        session = new_game(2, seed=game)
        seats = session.header.seats
        search = make_player(record, f"search:{args.iterations}:{args.rollout}", game)
        assert isinstance(search, SearchPlayer)
        other = make_player(record, "heuristic", game)
        while session.outcome() is None:
            seat = session.acting_seats()[0]
            legal = session.legal_commands(seat)
            view = record.seat_view(session.state, seat)
            if seat == seats[game % 2]:
                before = (search.stats.iterations, search.stats.commands, search.stats.decisions)
                start, start_cpu = time.perf_counter(), time.process_time()
                command = search.choose(view, legal)
                if search.stats.decisions > before[2]:
                    seconds += time.perf_counter() - start
                    cpu += time.process_time() - start_cpu
                    iterations += search.stats.iterations - before[0]
                    commands += search.stats.commands - before[1]
                    decisions += 1
            else:
                command = other.choose(view, legal)
            session.apply(seat, command)
    print(
        f"iterations_per_s={iterations / seconds:.1f} "
        f"iterations_per_cpu_s={iterations / cpu:.1f} "
        f"commands_per_s={commands / seconds:.0f} decisions={decisions}"
    )


if __name__ == "__main__":
    main()
