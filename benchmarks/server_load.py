"""Games at once against each store: one process on a directory, one on SQLite, two and four
processes on one PostgreSQL database, in the same run.

    python benchmarks/server_load.py [--games 200] [--moves 12] [--rules liars-dice]
                                     [--postgres URL]

For each configuration it starts the ``nataterra-rpc --listen`` processes and a client
process that plays ``--games`` games at once (asyncio, one TCP connection a game): each game
has one bot seat (the server's random player) and one person seat, which sends the first
legal command with its ``expected_version`` until the game ends or has had ``--moves`` of
them. With several processes each request goes to the next process in turn (any process
serves any game: a process whose copy is behind reads the game again first); a refused
stale version is looked at again and retried. Prints, per configuration, the person commands
per second, the ``game.apply`` latency (p50, p99), the retries and the ratio of the
throughput to the directory store's, and the machine's load average at the start. Without
``--postgres`` it starts a throwaway cluster (as the tests do) when PostgreSQL's binaries
are installed, and skips the PostgreSQL rows otherwise. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class Rpc:
    """One newline-framed JSON-RPC connection."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer, self.next_id = reader, writer, 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.writer.write(json.dumps(message).encode() + b"\n")
        await self.writer.drain()
        while True:
            answer: dict[str, Any] = json.loads(await self.reader.readline())
            if answer.get("id") == self.next_id:
                return answer

    async def ok(self, method: str, **params: Any) -> Any:
        answer = await self.call(method, **params)
        if "result" not in answer:
            raise RuntimeError(f"{method}: {answer}")
        return answer["result"]


async def _play(ports: list[int], index: int, rules: str, moves: int) -> tuple[list[float], int]:
    """One game: the apply latencies and the retries after a stale version."""
    connections = [Rpc(*await asyncio.open_connection("127.0.0.1", port)) for port in ports]
    turn = index  # each request to the next process in turn
    made = await connections[turn % len(ports)].ok(
        "game.create", rules=rules, seed=index, game_id=f"load-{index}", bots={"blue": "random"}
    )
    token, game_id = made["tokens"]["red"], made["game_id"]
    latencies: list[float] = []
    retries = 0
    while len(latencies) < moves:
        turn += 1
        rpc = connections[turn % len(ports)]
        legal = await rpc.ok("game.legal_commands", game_id=game_id, token=token)
        if not legal["commands"]:  # the bot's turn (or the end): wait for the next version
            waited = await rpc.ok(
                "game.wait", game_id=game_id, version=legal["version"], timeout=10
            )
            if waited["result"] is not None:
                break
            continue
        started = time.perf_counter()
        answer = await rpc.call(
            "game.apply",
            game_id=game_id,
            token=token,
            command=legal["commands"][0],
            expected_version=legal["version"],
        )
        if "error" in answer:  # another process's copy was ahead: look again
            retries += 1
            continue
        latencies.append(time.perf_counter() - started)
        if answer["result"]["result"] is not None:
            break
    for rpc in connections:
        rpc.writer.close()
    return latencies, retries


async def _client(ports: list[int], games: int, rules: str, moves: int) -> dict[str, Any]:
    started = time.perf_counter()
    done = await asyncio.gather(*(_play(ports, index, rules, moves) for index in range(games)))
    seconds = time.perf_counter() - started
    latencies = sorted(latency for game, _ in done for latency in game)
    return {
        "commands": len(latencies),
        "seconds": seconds,
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "retries": sum(retries for _, retries in done),
    }


def _client_process(args: tuple[list[int], int, str, int]) -> dict[str, Any]:
    return asyncio.run(_client(*args))


@contextmanager
def _servers(store: str, count: int) -> Iterator[list[int]]:
    processes, ports = [], []
    try:
        for _ in range(count):
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "nataterra_adapters.rpc",
                    "--listen",
                    "127.0.0.1:0",
                    "--store",
                    store,
                    "--test-seeds",
                    "--max-connections",
                    "2000",
                    "--max-connections-per-address",
                    "2000",
                    "--max-games-per-client",
                    "1000",
                ],
                stderr=subprocess.PIPE,
            )
            assert process.stderr is not None
            line = process.stderr.readline().decode()
            ports.append(int(line.rsplit(":", 1)[1]))
            processes.append(process)
        yield ports
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)


def _cluster() -> Any:
    """A throwaway PostgreSQL cluster (the tests' helper), or ``None`` without one."""
    spec = importlib.util.spec_from_file_location("pg_cluster", ROOT / "tests/rpc/pg_cluster.py")
    assert spec is not None and spec.loader is not None
    helper = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helper)
    binaries = helper._binaries()
    if binaries is None:
        return None
    root = Path(tempfile.mkdtemp(prefix="nataterra-bench-pg-"))
    os.chmod(root, 0o755)
    return helper.Cluster(binaries, root)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--rules", default="liars-dice")
    parser.add_argument("--postgres", help="an empty database (default: a throwaway cluster)")
    args = parser.parse_args()
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    work = Path(tempfile.mkdtemp(prefix="nataterra-bench-"))
    cluster = None
    configurations: list[tuple[str, str, int]] = [
        ("directory, 1 process", str(work / "dir"), 1),
        ("SQLite, 1 process", str(work / "games.sqlite3"), 1),
    ]
    try:
        if args.postgres is None:
            cluster = _cluster()
        for processes in (2, 4):
            url = args.postgres if args.postgres else cluster.new_database() if cluster else None
            if url is not None:
                configurations.append((f"PostgreSQL, {processes} processes", url, processes))
        baseline = None
        print(
            f"{'configuration':<26} {'commands/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
            f"{'retries':>7} {'vs directory':>12}"
        )
        for name, store, processes in configurations:
            with _servers(store, processes) as ports, Pool(1) as pool:
                result = pool.apply(_client_process, ((ports, args.games, args.rules, args.moves),))
            rate = result["commands"] / result["seconds"]
            baseline = baseline or rate
            print(
                f"{name:<26} {rate:>10.1f} {result['p50'] * 1000:>8.1f} "
                f"{result['p99'] * 1000:>8.1f} {result['retries']:>7} {rate / baseline:>12.2f}"
            )
    finally:
        if cluster is not None:
            cluster.stop("immediate")
            shutil.rmtree(cluster.root, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
