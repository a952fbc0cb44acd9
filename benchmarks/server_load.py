"""Games at once against each store: one process on a directory, one on SQLite, two and four
processes on one PostgreSQL database, in the same run, through JSON-RPC over TCP and over a
WebSocket.

    python benchmarks/server_load.py [--games 200] [--moves 12] [--rules liars-dice]
                                     [--transports RPC WebSocket] [--postgres URL]
                                     [--stores directory sqlite postgres] [--against REF]

For each configuration and transport it starts the server processes (``nataterra-rpc
--listen`` for RPC, ``nataterra serve`` for WebSocket, each on the configuration's store)
and a client process that plays ``--games`` games at once (asyncio, one connection a game to
each server process): each game has one bot seat (the server's random player) and one
person seat, which sends the first legal command with its ``expected_version`` until the
game ends or has had ``--moves`` of them, waiting (``game.wait``) while the bot moves. With
several processes each request goes to the next process in turn (any process serves any
game: a process whose copy is behind reads the game again first); a refused stale version
is looked at again and retried. Prints, per configuration and transport, the person
commands per second, the ``game.apply`` latency (p50, p99), the retries, the ratio of the
throughput to the directory store's over the same transport and the one-minute load
average when the row ended, with the load average at the start and the end. Without
``--postgres`` (an empty database; every run's games get their own ids) it starts a
throwaway cluster (as the tests do) when PostgreSQL's binaries are installed, and skips the
PostgreSQL rows otherwise. With ``--against REF`` (a git revision, e.g. ``main``) every
configuration is run twice in a row, on REF's code (``git archive`` into a temporary
directory) and then on this tree's, and a last table gives this tree's throughput and p50
as ratios to REF's: a before/after in one run, at one load. Figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import Pool
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]


class Connection(ABC):
    """One JSON-RPC connection: newline-framed over TCP (``nataterra-rpc``) or a WebSocket
    (``nataterra serve``); notifications (``game.changed``) are read past."""

    def __init__(self) -> None:
        self.next_id = 0

    @abstractmethod
    async def _send(self, text: str) -> None:
        """Each transport's own (TCP framing or a WebSocket)."""

    @abstractmethod
    async def _receive(self) -> str:
        """Each transport's own (TCP framing or a WebSocket)."""

    @abstractmethod
    async def close(self) -> None:
        """Each transport's own (TCP framing or a WebSocket)."""

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        await self._send(json.dumps(message))
        while True:
            answer: dict[str, Any] = json.loads(await self._receive())
            if answer.get("id") == self.next_id:
                return answer

    async def ok(self, method: str, **params: Any) -> Any:
        answer = await self.call(method, **params)
        if "result" not in answer:
            raise RuntimeError(f"{method}: {answer}")
        return answer["result"]


class TcpConnection(Connection):
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__()
        self.reader, self.writer = reader, writer

    async def _send(self, text: str) -> None:
        self.writer.write(text.encode() + b"\n")
        await self.writer.drain()

    async def _receive(self) -> str:
        return (await self.reader.readline()).decode()

    async def close(self) -> None:
        self.writer.close()


class WebSocketConnection(Connection):
    def __init__(self, websocket: Any) -> None:
        super().__init__()
        self.websocket = websocket

    async def _send(self, text: str) -> None:
        await self.websocket.send(text)

    async def _receive(self) -> str:
        return str(await self.websocket.recv())

    async def close(self) -> None:
        await self.websocket.close()


async def _connect(transport: str, port: int) -> Connection:
    if transport == "RPC":
        return TcpConnection(*await asyncio.open_connection("127.0.0.1", port))
    from websockets.asyncio.client import connect

    websocket = await connect(
        f"ws://127.0.0.1:{port}/rpc", open_timeout=120, ping_interval=None, max_size=2**23
    )
    return WebSocketConnection(websocket)


async def _play(
    transport: str, ports: list[int], index: int, rules: str, moves: int, run: str
) -> tuple[list[float], int]:
    """One game: the apply latencies and the retries after a stale version."""
    connections = [await _connect(transport, port) for port in ports]
    turn = index  # each request to the next process in turn
    made = await connections[turn % len(ports)].ok(
        "game.create",
        rules=rules,
        seed=index,
        game_id=f"load-{run}-{index}",  # one database for every run
        bots={"blue": "random"},
    )
    token, game_id = made["tokens"]["red"], made["game_id"]
    latencies: list[float] = []
    retries = 0
    while len(latencies) < moves:
        turn += 1
        rpc = connections[turn % len(ports)]
        legal = await rpc.ok("game.legal_commands", game_id=game_id, token=token)
        if not legal["commands"]:  # the bot's turn (or the end): wait for the next version
            waited = await rpc.call(
                "game.wait", game_id=game_id, version=legal["version"], timeout=10
            )
            if "error" in waited:  # the process lost a write of the game meanwhile: look again
                retries += 1
                continue
            if waited["result"]["result"] is not None:
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
        await rpc.close()
    return latencies, retries


async def _client(
    transport: str, ports: list[int], games: int, rules: str, moves: int, run: str
) -> dict[str, Any]:
    started = time.perf_counter()
    done = await asyncio.gather(
        *(_play(transport, ports, index, rules, moves, run) for index in range(games))
    )
    seconds = time.perf_counter() - started
    latencies = sorted(latency for game, _ in done for latency in game)
    return {
        "commands": len(latencies),
        "seconds": seconds,
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "retries": sum(retries for _, retries in done),
    }


def _client_process(args: tuple[str, list[int], int, str, int, str]) -> dict[str, Any]:
    return asyncio.run(_client(*args))


NATATERRA = [sys.executable, "-c", "from nataterra_adapters.cli import main; main()"]
_SERVERS = {
    "RPC": (
        [sys.executable, "-m", "nataterra_adapters.rpc"],
        ["--max-games-per-client", "1000"],
        re.compile(r"listening on \S+:(\d+)"),
    ),
    "WebSocket": (
        [*NATATERRA, "serve"],
        [],
        re.compile(r"open http://\S+:(\d+)/"),
    ),
}


@contextmanager
def _servers(transport: str, store: str, count: int, tree: Path = ROOT) -> Iterator[list[int]]:
    """``count`` processes on ``store`` running ``tree``'s code: ``nataterra-rpc`` for RPC,
    ``nataterra serve`` for WebSocket; their ports."""
    command, extra, announced = _SERVERS[transport]
    processes, ports = [], []
    path = os.pathsep.join([str(tree), str(tree / "adapters"), os.environ.get("PYTHONPATH", "")])
    environment = {**os.environ, "PYTHONPATH": path}
    try:
        for _ in range(count):
            process = subprocess.Popen(
                [
                    *command,
                    "--listen",
                    "127.0.0.1:0",
                    "--store",
                    store,
                    "--test-seeds",
                    "--max-connections",
                    "2000",
                    "--max-connections-per-address",
                    "2000",
                    *extra,
                ],
                stderr=subprocess.PIPE,
                env=environment,
            )
            processes.append(process)
            assert process.stderr is not None
            line = process.stderr.readline().decode()
            match = announced.search(line)
            if match is None:
                raise RuntimeError(f"{transport} server did not start: {line}")
            ports.append(int(match.group(1)))
            # Keep reading what the server says (a game set aside, a client gone): a pipe
            # nobody reads fills at 64 KiB and then blocks the server's next line.
            threading.Thread(target=_drain, args=(process.stderr,), daemon=True).start()
        yield ports
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)


def _drain(stream: IO[bytes]) -> None:
    """Read a server's stderr to its end, dropping it."""
    for _ in stream:
        pass


@contextmanager
def _revision(ref: str) -> Iterator[Path]:
    """The code of git revision ``ref`` of this repository, in a temporary directory."""
    where = Path(tempfile.mkdtemp(prefix="nataterra-bench-ref-"))
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
        yield where
    finally:
        shutil.rmtree(where, ignore_errors=True)


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
    return helper.Cluster(binaries, root, fsync=True)  # durable commits, as the file stores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--rules", default="liars-dice")
    parser.add_argument(
        "--transports", nargs="+", choices=sorted(_SERVERS), default=["RPC", "WebSocket"]
    )
    parser.add_argument(
        "--stores",
        nargs="+",
        choices=["directory", "sqlite", "postgres"],
        default=["directory", "sqlite", "postgres"],
    )
    parser.add_argument("--postgres", help="an empty database (default: a throwaway cluster)")
    parser.add_argument(
        "--against", metavar="REF", help="run each row on git revision REF's code first too"
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        trees = [("this tree", ROOT)]
        if args.against is not None:
            trees.insert(0, (args.against, stack.enter_context(_revision(args.against))))
        _run(args, trees)


def _run(args: argparse.Namespace, trees: list[tuple[str, Path]]) -> None:
    print(f"load average at the start: {_load()} ({os.cpu_count()} cores)")
    work = Path(tempfile.mkdtemp(prefix="nataterra-bench-"))
    cluster: Any = None
    stores: list[tuple[str, Callable[[str], str], int]] = []
    if "directory" in args.stores:
        stores.append(("directory, 1 process", lambda name: str(work / name), 1))
    if "sqlite" in args.stores:
        stores.append(("SQLite, 1 process", lambda name: str(work / f"{name}.sqlite3"), 1))
    try:
        if "postgres" in args.stores and args.postgres is None:
            cluster = _cluster()
        if "postgres" in args.stores and (args.postgres is not None or cluster is not None):
            for processes in (2, 4):
                stores.append(
                    (
                        f"PostgreSQL, {processes} processes",
                        lambda _: args.postgres or cluster.new_database(),
                        processes,
                    )
                )
        versus = "vs directory" if "directory" in args.stores else "vs first row"
        code = f"{'code':<12} " if len(trees) > 1 else ""
        print(
            f"{'configuration':<26} {'transport':<9} {code}{'commands/s':>10} {'p50 ms':>8} "
            f"{'p99 ms':>8} {'retries':>7} {versus:>12} {'load':>5}"
        )
        baseline: dict[tuple[str, str], float] = {}
        rows: dict[tuple[str, str, str], dict[str, Any]] = {}
        for index, (name, where, processes) in enumerate(stores):
            for transport in args.transports:
                for label, tree in trees:
                    run = f"{transport}-{processes}-{index}-{len(rows)}"
                    store = where(run)
                    with _servers(transport, store, processes, tree) as ports, Pool(1) as pool:
                        played = (transport, ports, args.games, args.rules, args.moves, run)
                        result = pool.apply(_client_process, (played,))
                    rate = result["commands"] / result["seconds"]
                    rows[name, transport, label] = {**result, "rate": rate}
                    base = baseline.setdefault((label, transport), rate)
                    shown = f"{label:<12} " if len(trees) > 1 else ""
                    print(
                        f"{name:<26} {transport:<9} {shown}{rate:>10.1f} "
                        f"{result['p50'] * 1000:>8.1f} {result['p99'] * 1000:>8.1f} "
                        f"{result['retries']:>7} {rate / base:>12.2f} "
                        f"{os.getloadavg()[0]:>5.1f}",
                        flush=True,
                    )
        print(f"load average at the end: {_load()}")
        if len(trees) > 1:
            _compare(rows, trees[0][0], trees[1][0])
    finally:
        if cluster is not None:
            cluster.stop("immediate")
            shutil.rmtree(cluster.root, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def _compare(rows: dict[tuple[str, str, str], dict[str, Any]], before: str, after: str) -> None:
    """This tree's throughput and p50 as ratios to ``before``'s, row by row."""
    print(f"\n{'configuration':<26} {'transport':<9} {'commands/s ratio':>16} {'p50 ratio':>10}")
    for (name, transport, label), result in rows.items():
        if label != after:
            continue
        old = rows[name, transport, before]
        print(
            f"{name:<26} {transport:<9} {result['rate'] / old['rate']:>16.2f} "
            f"{result['p50'] / old['p50']:>10.2f}"
        )


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
