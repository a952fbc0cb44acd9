"""A person's client outlives its server (issue 33 item 4): two server processes on one
PostgreSQL database, each seat's person connected to one of them (JSON-RPC over TCP to
``nataterra-rpc``, or a WebSocket to ``nataterra serve``). In the middle of the game one
person sends a command and its process is killed (``kill -9``) before the answer is read;
the client reconnects to the other process, sends the same command again (same
``command_id`` and ``expected_version``) and both people finish the game there. Nothing
acknowledged is lost (each acknowledged record is in the final log as the person was shown
it), the command in flight is in the log exactly once, and the log verifies. (A killed
process's *bots* taken over by another: ``test_rpc_postgres.py``.)"""

from __future__ import annotations

import json
import random
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from nataterra_adapters.rpc.errors import GameErrorCode
from nataterra_adapters.rpc.store_postgres import PostgresStore
from rpc_helpers import Client, start_server

from nataterra_core.game import verify_log

NATATERRA = str(Path(sys.executable).with_name("nataterra"))
_ids = count(1)


class Server:
    """One server process on the database: ``nataterra-rpc`` (TCP) or ``nataterra serve``
    (WebSocket at ``/rpc``), and where its clients connect."""

    def __init__(self, transport: str, url: str) -> None:
        self.transport = transport
        if transport == "rpc":
            self.process: subprocess.Popen[bytes] = start_server(
                "--listen", "127.0.0.1:0", "--store", url
            )
            pattern = r"listening on (127\.0\.0\.1:\d+)"
        else:
            self.process = subprocess.Popen(
                [NATATERRA, "serve", "--listen", "127.0.0.1:0", "--store", url, "--test-seeds"],
                stderr=subprocess.PIPE,
            )
            pattern = r"open http://(127\.0\.0\.1:\d+)/ in a browser"
        assert self.process.stderr is not None
        line = self.process.stderr.readline().decode()
        match = re.search(pattern, line)
        assert match, line
        self.address = match.group(1)

    def kill(self) -> None:
        """``kill -9``: no clean shutdown."""
        self.process.kill()
        self.process.wait(timeout=20)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        self.process.communicate(timeout=20)


class Person:
    """A person's client: one connection to one server, moved to another on demand."""

    def __init__(self, server: Server) -> None:
        self.transport = server.transport
        self._connect(server)

    def _connect(self, server: Server) -> None:
        host, port = server.address.split(":")
        if self.transport == "rpc":
            self.sock = socket.create_connection((host, int(port)), timeout=60)
            self.client = Client(self.sock.makefile("rb"), self.sock.makefile("wb"))
        else:
            from websockets.sync.client import connect

            self._websockets = ExitStack()
            address = f"ws://{server.address}/rpc"
            self.websocket = self._websockets.enter_context(connect(address, open_timeout=60))

    def reconnect(self, server: Server) -> None:
        self.close()
        self._connect(server)

    def close(self) -> None:
        if self.transport == "rpc":
            self.sock.close()
        else:
            self._websockets.close()

    def send(self, method: str, **params: Any) -> int:
        """Send a request; its id (the answer is read by :meth:`answer`)."""
        request_id = next(_ids)
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        body = json.dumps(message)
        if self.transport == "rpc":
            self.client.send_raw(body.encode())
        else:
            self.websocket.send(body)
        return request_id

    def answer(self, request_id: int) -> dict[str, Any]:
        """The answer to ``request_id`` (notifications such as ``game.changed`` skipped)."""
        while True:
            if self.transport == "rpc":
                message: dict[str, Any] = self.client.receive_raw()
            else:
                message = json.loads(self.websocket.recv(timeout=60))
            if message.get("id") == request_id:
                return message

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        return self.answer(self.send(method, **params))

    def ok(self, method: str, **params: Any) -> Any:
        answer = self.call(method, **params)
        assert "result" in answer, (method, answer)
        return answer["result"]


@contextmanager
def _servers(transport: str, url: str) -> Iterator[list[Server]]:
    servers: list[Server] = []
    try:
        for _ in range(2):
            servers.append(Server(transport, url))
        yield servers
    finally:
        for server in servers:
            server.stop()


# Each game once, and each transport with more than one game. Nataterra and BattleLore
# with a turn limit (B-TURN-2): random play takes about 1,500 commands to end a BattleLore
# battle, 13 with six turns (the kill comes at the fourth), and the store and the failover
# do not depend on the game's length.
CASES = [
    ("liars-dice", {}, "websocket"),
    ("liars-dice", {}, "rpc"),
    ("nataterra", {"max_turns": 3}, "websocket"),
    ("kaladan", {}, "rpc"),
    ("battlelore", {"max_turns": 6}, "websocket"),
]


@pytest.mark.parametrize(("rules", "options", "transport"), CASES)
def test_a_persons_client_finishes_the_game_on_the_other_process_after_a_kill(
    postgres_url: str, rules: str, options: dict[str, Any], transport: str
) -> None:
    rng = random.Random(rules)
    with _servers(transport, postgres_url) as servers:
        creator = Person(servers[0])
        game = creator.ok("game.create", rules=rules, players=2, seed=13, options=options)
        game_id, tokens = game["game_id"], game["tokens"]
        first, second = list(tokens)
        people = {first: creator, second: Person(servers[1])}
        acknowledged: dict[str, list[tuple[int, list[str]]]] = {seat: [] for seat in tokens}
        in_flight: tuple[str, int, Any] | None = None  # seat, version before, command
        view: Any = None
        moves = 0
        deadline = time.monotonic() + 300  # a copy left behind for good would wait forever
        while True:
            assert time.monotonic() < deadline, f"the game did not end: {view}"
            view = people[second].ok("game.view", game_id=game_id)
            if view["result"] is not None:
                break
            seat = view["acting"][0]
            person, token = people[seat], tokens[seat]
            legal = person.ok("game.legal_commands", game_id=game_id, token=token)
            commands = legal["commands"]
            if not commands:  # its process has not heard of the last move yet: wait for it
                person.ok("game.wait", game_id=game_id, version=legal["version"], timeout=30)
                continue
            command = commands[-1] if rng.random() < 0.6 else rng.choice(commands)
            request = {
                "game_id": game_id,
                "token": token,
                "command": command,
                "expected_version": legal["version"],
                "command_id": f"{seat}-{moves}",
            }
            moves += 1
            if in_flight is None and seat == first and moves >= 4:
                # Sent, and its process killed before the answer is read: applied or not,
                # the client cannot know; it asks the other process the same thing again.
                person.send("game.apply", **request)
                servers[0].kill()
                person.reconnect(servers[1])
                in_flight = (seat, legal["version"], command)
                answer = person.call("game.apply", **request)
                if "error" in answer:  # it was applied before the kill: the version moved on
                    assert answer["error"]["code"] == GameErrorCode.VERSION_CONFLICT, answer
                    continue
            else:
                answer = person.call("game.apply", **request)
            assert "result" in answer, answer
            result = answer["result"]
            acknowledged[seat].append((result["version"], result["lines"]))
        assert in_flight is not None, "the game ended before the kill"

        stored = PostgresStore(postgres_url).log(game_id)
        verdict = verify_log(stored)
        assert verdict.valid, verdict
        full = people[second].ok("game.log", game_id=game_id)
        assert full["revealed"] and full["log"].encode() == stored
        for seat, answers in acknowledged.items():
            shown = people[seat].ok("game.log", game_id=game_id, token=tokens[seat])["lines"]
            for version, lines in answers:
                assert shown[version + 1 - len(lines) : version + 1] == lines
        seat, before, command = in_flight
        record = json.loads(stored.splitlines()[before + 1])
        assert (record["seat"], record["command"]) == (seat, command)
        for person in people.values():
            person.close()
