"""Replay's instructions per event under cachegrind: what load on the machine leaves unchanged.

    python benchmarks/replay_instructions.py [--games N] [--turns T] [--by-type]

The logs of ``replay_throughput.py`` (seeded games between random legal players) are played
here, natively, and written to a temporary file. Each count is a separate process under
cachegrind (``PYTHONHASHSEED=0``) that reads them and folds them ``passes`` times: the
difference between two passes and none, over twice the events, leaves its start-up out.
``fold`` folds the decoded logs (``replay``); ``decode + fold`` decodes each log from its
bytes first (``read_log``), as the throughput benchmark's two sides do.

``--by-type`` also folds every event once more from the state before it, grouped by event
type, under callgrind, and prints each type's instructions per event of ``evolve`` (the
state copies freed at once, not when the next event replaces them: about 2k less per event
than the replay loop). Needs valgrind (the system package).
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nataterra_core.game import decider_for, new_game
from nataterra_core.games.nataterra.bots import RandomPlayer, play
from nataterra_core.kernel import read_log, replay
from nataterra_core.kernel.log import CommandRecord, StartRecord

VALGRIND = shutil.which("valgrind")
PASSES = 2


def make_logs(games: int, turns: int) -> list[bytes]:
    """The throughput benchmark's logs."""
    logs = []
    for seed in range(games):
        session = new_game(seed=seed, options={"max_turns": turns})
        play(session, {seat: RandomPlayer(seed) for seat in session.header.seats})
        session.close()
        logs.append(session.log_bytes())
    return logs


def count_only(logs_file: str, side: str, passes: int) -> None:
    """The process cachegrind counts: read the logs, then fold (or decode and fold) them."""
    logs: list[bytes] = pickle.loads(Path(logs_file).read_bytes())
    parsed = [read_log(data, decider_for) for data in logs]
    for _ in range(passes):
        if side == "fold":
            for log in parsed:
                replay(log.decider, log.header, log.records)
        else:
            for data in logs:
                log = read_log(data, decider_for)
                replay(log.decider, log.header, log.records)


def by_type_only(logs_file: str) -> None:
    """The process callgrind counts for ``--by-type``: ``os.getppid`` (a system call nothing
    else here makes) ends a segment, and ``--dump-before=getppid`` writes each one out."""
    logs: list[bytes] = pickle.loads(Path(logs_file).read_bytes())
    groups: dict[str, list[tuple[Callable[[Any, Any], Any], Any, Any]]] = {}
    for data in logs:
        log = read_log(data, decider_for)
        decider = log.decider
        state = replay(decider, log.header, log.records[:1])  # the state before record 1
        for record in log.records:
            if isinstance(record, CommandRecord | StartRecord):
                for event in record.events:
                    groups.setdefault(type(event).__name__, []).append(
                        (decider.evolve, state, event)
                    )
                    state = decider.evolve(state, event)
    names = sorted(groups)
    Path(logs_file + ".names").write_text(
        "\n".join(f"{name} {len(groups[name])}" for name in names)
    )
    os.getppid()
    for _ in range(PASSES):  # the loop alone
        for name in names:
            for _evolve, _state, _event in groups[name]:
                pass
    os.getppid()
    for name in names:
        for _ in range(PASSES):
            for evolve, state, event in groups[name]:
                evolve(state, event)
        os.getppid()


def _valgrind(tool: list[str], *args: str) -> None:
    if VALGRIND is None:
        raise RuntimeError("valgrind is not installed")
    subprocess.run(
        [VALGRIND, *tool, sys.executable, __file__, *args],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )


def _summary(path: Path) -> int:
    for line in path.read_text().splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise RuntimeError(f"{path}: no summary line")


def instructions(logs_file: str, side: str, passes: int) -> int:
    """Instructions of one counted process (see :func:`count_only`)."""
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "cachegrind.out"
        tool = ["--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}"]
        _valgrind(tool, "--count", logs_file, side, str(passes))
        return _summary(out)


def by_type(logs_file: str, events: int) -> None:
    """Print each event type's instructions per event of ``evolve``, largest share first."""
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "callgrind.out"
        tool = ["--tool=callgrind", "--dump-before=getppid", f"--callgrind-out-file={out}"]
        _valgrind(tool, "--by-type-only", logs_file)
        # Dump 1 is the set-up, 2 the loop alone, then one per event type.
        dumps = len(list(Path(directory).glob("callgrind.out.*")))
        segments = [_summary(Path(f"{out}.{i}")) for i in range(2, dumps + 1)]
    rows = [line.split() for line in Path(logs_file + ".names").read_text().splitlines()]
    loop = segments[0] / (PASSES * events)
    costs = [
        (name, int(n), segment / (PASSES * int(n)) - loop)
        for (name, n), segment in zip(rows, segments[1:], strict=True)
    ]
    total = sum(int(n) * each for _, n, each in costs)
    print(f"evolve by event type: {total / events:,.0f} instructions per event")
    for name, n, each in sorted(costs, key=lambda row: -row[1] * row[2]):
        print(f"  {name:26} {n:5} x {each:8,.0f} = {n * each / events:6,.0f} per event")


def main() -> None:
    if sys.argv[1:2] == ["--count"]:
        count_only(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    if sys.argv[1:2] == ["--by-type-only"]:
        by_type_only(sys.argv[2])
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--by-type", action="store_true")
    args = parser.parse_args()
    if VALGRIND is None:
        print("replay instructions: not counted (valgrind is not installed)")
        return
    logs = make_logs(args.games, args.turns)
    events = sum(
        len(record.events)
        for data in logs
        for record in read_log(data, decider_for).records
        if isinstance(record, CommandRecord | StartRecord)
    )
    with tempfile.TemporaryDirectory() as directory:
        logs_file = str(Path(directory) / "logs.pickle")
        Path(logs_file).write_bytes(pickle.dumps(logs))
        base = instructions(logs_file, "fold", 0)
        fold = (instructions(logs_file, "fold", PASSES) - base) / (PASSES * events)
        decode = (instructions(logs_file, "decode", PASSES) - base) / (PASSES * events)
        print(f"{args.games} games, {events} events (cachegrind, PYTHONHASHSEED=0)")
        print(f"replay_fold_instructions_per_event={fold:.0f}")
        print(f"replay_decode_fold_instructions_per_event={decode:.0f}")
        if args.by_type:
            by_type(logs_file, events)


if __name__ == "__main__":
    main()
