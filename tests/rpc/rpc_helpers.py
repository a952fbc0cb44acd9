"""Helpers of the JSON-RPC tests: a subprocess server, a jsonrpcclient-based client, a bot.

Messages are built with ``jsonrpcclient.request`` and read with ``jsonrpcclient.parse``, so
the tests do not check our server with our own encoder.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import IO, Any

from jsonrpcclient import Error, Ok, parse, request

SERVER = [sys.executable, "-m", "nataterra_adapters.rpc"]


def start_server(*args: str) -> subprocess.Popen[bytes]:
    """``nataterra-rpc`` as a subprocess with pipes on all three streams."""
    return subprocess.Popen(
        [*SERVER, "--test-seeds", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """End the subprocess we started (by its own handle) and reap it."""
    if process.poll() is None:
        process.terminate()
    process.communicate(timeout=10)


def read_content_length(stream: IO[bytes]) -> bytes:
    """One Content-Length framed body from ``stream``."""
    length = None
    while (line := stream.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    assert length is not None, "no Content-Length header"
    return stream.read(length)


class Client:
    """A blocking JSON-RPC client over a pair of byte streams."""

    def __init__(self, rfile: IO[bytes], wfile: IO[bytes], framing: str = "newline") -> None:
        self.rfile = rfile
        self.wfile = wfile
        self.framing = framing

    def send_raw(self, body: bytes) -> None:
        """Send one frame as it is."""
        if self.framing == "newline":
            self.wfile.write(body + b"\n")
        else:
            self.wfile.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.wfile.flush()

    def receive_raw(self) -> Any:
        """One reply, as JSON."""
        if self.framing == "newline":
            line = self.rfile.readline()
        else:
            line = read_content_length(self.rfile)
        assert line, "the server closed the stream"
        return json.loads(line)

    def call(self, method: str, **params: Any) -> Ok | Error:
        """Send a request and parse its response."""
        message = request(method, params=params)
        self.send_raw(json.dumps(message).encode())
        response = parse(self.receive_raw())
        assert isinstance(response, Ok | Error)
        assert response.id == message["id"]
        return response

    def ok(self, method: str, **params: Any) -> Any:
        """The result of a call that must succeed."""
        response = self.call(method, **params)
        assert isinstance(response, Ok), response
        return response.result


def play_bot_game(clients: dict[str, Client], seed: int, max_turns: int = 10) -> dict[str, Any]:
    """Create a 2-player game on the first client and let random bots play it to the end.

    ``clients`` maps each seat to the client it plays through (they may share one).
    Returns the final ``game.log`` answer (revealed: the full log).
    """
    creator = next(iter(clients.values()))
    game = creator.ok("game.create", players=2, seed=seed, options={"max_turns": max_turns})
    game_id, tokens = game["game_id"], game["tokens"]
    assert set(tokens) == set(clients)
    rng = random.Random(seed)
    version, acting, result = game["version"], game["acting"], None
    for n in range(2000):
        if not acting:
            break
        seat = acting[0]
        client = clients[seat]
        legal = client.ok("game.legal_commands", game_id=game_id, token=tokens[seat])
        assert legal["version"] == version
        # Mostly end the phase, so the game reaches its turn limit in a few hundred calls.
        commands = legal["commands"]
        command = commands[-1] if rng.random() < 0.6 else rng.choice(commands)
        answer = client.ok(
            "game.apply",
            game_id=game_id,
            token=tokens[seat],
            command=command,
            expected_version=version,
            command_id=f"bot-{n}",
        )
        assert answer["version"] > version
        version, acting, result = answer["version"], answer["acting"], answer["result"]
    assert result is not None and result["reason"] == "turn_limit"
    log = creator.ok("game.log", game_id=game_id)
    assert log["revealed"] and log["version"] == version
    return dict(log)
