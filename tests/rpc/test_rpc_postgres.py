"""Several server processes on one PostgreSQL database (issue 33 item 2): any process serves
any game; a process whose copy is behind catches up before acting; a move made through one
process reaches the WebSocket clients of another at once (LISTEN/NOTIFY); bots are moved
under a lease that another process takes over when its holder dies; ``/healthz`` and
``server.health``. (Two processes racing on one record: ``test_rpc_stores.py``.) Each test
runs on a throwaway cluster (``pg_cluster.py``) and skips, saying why, without PostgreSQL,
for every game the library ships (``served_games.GAMES``, by registry id)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from jsonrpcclient import Ok
from nataterra_adapters.rpc.errors import GameErrorCode
from nataterra_adapters.rpc.store_postgres import PostgresStore
from pg_cluster import Cluster
from rpc_helpers import Client, stop_server
from served_games import GAMES, SEATS, listen

from nataterra_core.game import verify_log

NATATERRA = str(Path(sys.executable).with_name("nataterra"))


def _first_legal(client: Client, game_id: str, token: str) -> Any:
    return client.ok("game.legal_commands", game_id=game_id, token=token)["commands"][0]


@pytest.mark.parametrize("rules", GAMES)
def test_any_process_serves_any_game_and_catches_up_before_acting(
    rules: str, postgres_url: str
) -> None:
    one, first, sock_one = listen(postgres_url)
    two, second, sock_two = listen(postgres_url)
    try:
        game = first.ok("game.create", rules=rules, players=2, seed=11)
        game_id, seat = game["game_id"], game["acting"][0]
        token = game["tokens"][seat]
        assert second.ok("game.view", game_id=game_id)["version"] == game["version"]
        moved = second.ok(
            "game.apply",
            game_id=game_id,
            token=token,
            command=_first_legal(second, game_id, token),
            expected_version=game["version"],
        )
        # The first process's copy is behind: it reads the game again before acting.
        acting = game["tokens"][moved["acting"][0]]
        answer = first.ok(
            "game.apply",
            game_id=game_id,
            token=acting,
            command=_first_legal(second, game_id, acting),
            expected_version=moved["version"],
        )
        assert answer["version"] > moved["version"]
        assert first.ok("server.health")["status"] == "ok"
        assert PostgresStore(postgres_url).records(game_id) == answer["version"] + 1
    finally:
        for sock in (sock_one, sock_two):
            sock.close()
        stop_server(one)
        stop_server(two)


@pytest.mark.parametrize("rules", GAMES)
def test_a_move_through_one_process_reaches_websocket_clients_of_another(
    rules: str, postgres_url: str
) -> None:
    websockets = pytest.importorskip("websockets.sync.client")
    servers = [_serve(postgres_url), _serve(postgres_url)]
    try:
        (_, url_one), (_, url_two) = servers
        with (
            websockets.connect(url_one.replace("http", "ws") + "rpc") as left,
            websockets.connect(url_two.replace("http", "ws") + "rpc") as right,
        ):
            game = _ws(left, "game.create", rules=rules, players=2, seed=5)
            game_id, seat = game["game_id"], game["acting"][0]
            token = game["tokens"][seat]
            _ws(right, "game.view", game_id=game_id)  # the right client watches the game
            legal = _ws(left, "game.legal_commands", game_id=game_id, token=token)
            moved = _ws(
                left, "game.apply", game_id=game_id, token=token, command=legal["commands"][0]
            )
            deadline = time.monotonic() + 10
            while True:
                note = json.loads(right.recv(timeout=max(0.1, deadline - time.monotonic())))
                if note.get("method") == "game.changed":
                    told = note["params"]
                    assert (told["game_id"], told["version"]) == (game_id, moved["version"])
                    break
        health = json.loads(urlopen(url_two + "healthz", timeout=10).read())
        assert health["status"] == "ok"
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(timeout=20)


def _serve(url: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [NATATERRA, "serve", "--listen", "127.0.0.1:0", "--store", url, "--test-seeds"],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    match = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", line)
    assert match, line
    return process, match.group(1)


_next_id = iter(range(1, 10**9))


def _ws(connection: Any, method: str, **params: Any) -> Any:
    request_id = next(_next_id)
    connection.send(
        json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
    )
    while True:
        message = json.loads(connection.recv(timeout=20))
        if message.get("id") == request_id:
            assert "result" in message, message
            return message["result"]


@pytest.mark.parametrize("rules", GAMES)
def test_a_killed_servers_bots_are_taken_over_by_another(rules: str, postgres_url: str) -> None:
    """kill -9 of the process moving a game's bots: another process's sweep takes the
    lease once it expires and plays the game on; the log verifies."""
    one, first, sock_one = listen(postgres_url, "--bot-seconds", "1")
    # Bots that think 50 ms a decision: the kill comes in the middle of the game.
    bots = dict.fromkeys(SEATS[rules], "search:50ms")
    game = first.ok("game.create", rules=rules, players=len(SEATS[rules]), seed=21, bots=bots)
    game_id = game["game_id"]
    store = PostgresStore(postgres_url)
    while store.records(game_id) < 6:
        time.sleep(0.01)
    one.kill()
    one.communicate(timeout=10)
    sock_one.close()
    [listing] = [g for g in store.games() if g.game_id == game_id]
    assert listing.status == "live", listing
    killed_at = store.records(game_id)
    two, _, sock_two = listen(postgres_url, "--bot-seconds", "1")
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # taken over: the bots play on (or to the end)
            [listing] = [g for g in store.games() if g.game_id == game_id]
            if listing.status == "finished" or listing.records >= killed_at + 6:
                break
            time.sleep(0.5)
        assert listing.status == "finished" or listing.records >= killed_at + 6, listing
        log = store.log(game_id)
        assert verify_log(log).status != "invalid", verify_log(log)
    finally:
        sock_two.close()
        stop_server(two)


@pytest.mark.parametrize("rules", GAMES)
def test_the_store_stopped_and_started_again_mid_game(
    rules: str, postgres_cluster: Cluster, postgres_url: str
) -> None:
    """Clean errors while PostgreSQL is down, then the game goes on with nothing lost."""
    process, client, sock = listen(postgres_url)
    try:
        game = client.ok("game.create", rules=rules, players=2, seed=8)
        game_id = game["game_id"]
        postgres_cluster.stop()
        seat = game["acting"][0]
        token = game["tokens"][seat]
        command = _first_legal(client, game_id, token)
        refused = client.call("game.apply", game_id=game_id, token=token, command=command)
        assert getattr(refused, "code", None) == GameErrorCode.STORE_FAILED, refused
        postgres_cluster.start()
        # The pool reconnects with a backoff: until it has, clients get the same clean
        # STORE_FAILED (never an unknown or set-aside game), and then the game goes on.
        deadline = time.monotonic() + 120
        while True:
            response = client.call("game.apply", game_id=game_id, token=token, command=command)
            if getattr(response, "code", None) != GameErrorCode.STORE_FAILED:
                break
            assert time.monotonic() < deadline, response
            time.sleep(0.5)
        assert isinstance(response, Ok), response
        answer = response.result
        assert answer["version"] == game["version"] + 1
        log = PostgresStore(postgres_url).log(game_id)
        assert len(log.splitlines()) == answer["version"] + 1
        assert verify_log(log).status == "incomplete"
    finally:
        sock.close()
        stop_server(process)
