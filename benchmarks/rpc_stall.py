"""Does one client's bot game stall the others? ``server.info`` latency, idle and under load.

    python benchmarks/rpc_stall.py [--rules nataterra] [--games 1] [--seconds 20]

Starts ``nataterra-rpc --listen 127.0.0.1:0`` (in memory) and measures how long another
client waits for ``server.info``:

- *idle*: 20 calls with nothing else running;
- *loaded*: calls one after another while a first client creates ``--games`` games whose
  every seat is the server's search player, and follows them to their end (with
  ``game.wait`` where the server has it; a server without it plays the whole game inside
  ``game.create``), for at most ``--seconds``.

Prints the first client's ``game.create`` answer time, the loaded latencies (median and
worst) and ``info_worst_over_idle=<ratio>``: the worst loaded latency over the idle median
(1 would be no stall at all). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import threading
import time
from typing import Any


class Client:
    """A newline-framed JSON-RPC client over one TCP connection."""

    def __init__(self, port: int) -> None:
        self._sock = socket.create_connection(("127.0.0.1", port))
        self._file = self._sock.makefile("rb")
        self._next = 0

    def call(self, method: str, **params: Any) -> Any:
        self._next += 1
        request = {"jsonrpc": "2.0", "method": method, "params": params, "id": self._next}
        self._sock.sendall(json.dumps(request).encode() + b"\n")
        while True:
            answer = json.loads(self._file.readline())
            if answer.get("id") == self._next:
                break
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer["result"]

    def close(self) -> None:
        self._sock.close()


def start_server() -> tuple[subprocess.Popen[bytes], int]:
    server = subprocess.Popen(
        [sys.executable, "-m", "nataterra_adapters.rpc", "--listen", "127.0.0.1:0", "--no-store"],
        stderr=subprocess.PIPE,
    )
    assert server.stderr is not None
    line = server.stderr.readline().decode()
    return server, int(line.rsplit(":", 1)[1])


def timed(client: Client, method: str) -> float:
    start = time.perf_counter()
    client.call(method)
    return time.perf_counter() - start


def bot_games(port: int, rules: str, games: int, seconds: float, out: dict[str, float]) -> None:
    """Create the games, then follow each to its end (or the time bound)."""
    client = Client(port)
    info = client.call("server.info")
    waits = "game.wait" in info["methods"]
    seats = next(s for s in info["systems"] if s["id"] == rules)["default_seats"]
    seating = seats[min(seats, key=int)]
    deadline = time.perf_counter() + seconds
    created = []
    for _ in range(games):
        start = time.perf_counter()
        game = client.call(
            "game.create", rules=rules, seats=seating, bots=dict.fromkeys(seating, "search")
        )
        out["create_seconds"] = max(out.get("create_seconds", 0.0), time.perf_counter() - start)
        created.append(game)
    for game in created:
        version = game["version"]
        while waits and time.perf_counter() < deadline:
            answer = client.call("game.wait", game_id=game["game_id"], version=version, timeout=5)
            version = answer["version"]
            if answer["result"] is not None:
                break
    out["followed_seconds"] = time.perf_counter() - start
    client.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="nataterra")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    server, port = start_server()
    try:
        other = Client(port)
        idle = [timed(other, "server.info") for _ in range(20)]
        figures: dict[str, float] = {}
        load = threading.Thread(
            target=bot_games, args=(port, args.rules, args.games, args.seconds, figures)
        )
        load.start()
        time.sleep(0.2)  # the game.create is on its way
        loaded = []
        while load.is_alive():
            loaded.append(timed(other, "server.info"))
            time.sleep(0.01)
        load.join()
        other.close()
    finally:
        server.terminate()
        server.wait()
    idle_median = statistics.median(idle)
    print(f"rules={args.rules} games={args.games}")
    print(f"create_answer_seconds={figures.get('create_seconds', float('nan')):.3f}")
    print(f"info_idle_median_ms={idle_median * 1000:.2f}")
    print(f"info_loaded_calls={len(loaded)}")
    if loaded:
        print(f"info_loaded_median_ms={statistics.median(loaded) * 1000:.2f}")
        print(f"info_loaded_worst_ms={max(loaded) * 1000:.2f}")
        print(f"info_worst_over_idle={max(loaded) / idle_median:.1f}")


if __name__ == "__main__":
    main()
