"""Everything a game needs lives in the store, not in one process's memory (issue 33 item 2),
checked through two ``nataterra-rpc`` processes on one PostgreSQL database, for every
registered rule system: a game created waiting for its seats' contributions on one process
is joined through the other; a command applied with a ``command_id`` through one process and
retried through the other gets the first answer, applied once. Each test runs on a throwaway
cluster (``pg_cluster.py``) and skips, saying why, without PostgreSQL."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from jsonrpcclient import Ok
from nataterra_adapters.rpc.errors import GameErrorCode
from nataterra_adapters.rpc.store_postgres import PostgresStore
from rpc_helpers import Client, stop_server
from served_games import GAMES, SEATS, listen

from nataterra_core.game import verify_log


@pytest.fixture
def two_servers(postgres_url: str) -> Iterator[tuple[Client, Client]]:
    """Two server processes on one fresh database."""
    started = [listen(postgres_url), listen(postgres_url)]
    try:
        yield started[0][1], started[1][1]
    finally:
        for process, _, sock in started:
            sock.close()
            stop_server(process)


@pytest.mark.parametrize("rules", GAMES)
def test_a_game_created_waiting_on_one_process_is_joined_through_another(
    rules: str, two_servers: tuple[Client, Client], postgres_url: str
) -> None:
    first, second = two_servers
    made = first.ok("game.create", rules=rules, players=len(SEATS[rules]), seat_seeds=True)
    game_id, seats = made["game_id"], made["seats"]
    joined = second.ok(
        "game.join", game_id=game_id, token=made["tokens"][seats[0]], client_seed="b-0"
    )
    assert joined["started"] is False and joined["waiting_for"] == seats[1:]
    view = first.ok("game.view", game_id=game_id)  # the contribution through B counts on A
    assert view["waiting_for"] == seats[1:]
    refused = first.call(
        "game.join", game_id=game_id, token=made["tokens"][seats[0]], client_seed="a-0"
    )
    assert getattr(refused, "code", None) == GameErrorCode.SETUP_REJECTED, refused
    for number, seat in enumerate(seats[1:], 1):
        server = (first, second)[number % 2]
        last = server.ok("game.join", game_id=game_id, token=made["tokens"][seat], client_seed="s")
    assert last["started"] is True
    for server in (first, second):  # both serve the started game
        assert server.ok("game.view", game_id=game_id)["version"] >= last["version"]
    log = PostgresStore(postgres_url).log(game_id)
    assert verify_log(log).status == "incomplete"  # the game goes on, its seed still secret
    assert f"{seats[0]}:b-0".encode() in log.splitlines()[0]  # B's contribution, not A's


@pytest.mark.parametrize("rules", GAMES)
def test_a_command_id_retried_through_another_process_gets_the_first_answer(
    rules: str, two_servers: tuple[Client, Client], postgres_url: str
) -> None:
    first, second = two_servers
    made = first.ok("game.create", rules=rules, players=len(SEATS[rules]), seed=3)
    game_id = made["game_id"]
    token = made["tokens"][made["acting"][0]]
    command = first.ok("game.legal_commands", game_id=game_id, token=token)["commands"][0]
    asked: dict[str, Any] = {
        "game_id": game_id,
        "token": token,
        "command": command,
        "expected_version": made["version"],
        "command_id": "c-1",
    }
    answer = first.ok("game.apply", **asked)
    store = PostgresStore(postgres_url)
    stored = store.records(game_id)
    assert second.ok("game.apply", **asked) == answer  # the answer was lost; same request
    assert first.ok("game.apply", **asked) == answer
    assert store.records(game_id) == stored == answer["version"] + 1  # applied once
    other = {**asked, "command": {"type": "not-that.v1"}}
    reused = second.call("game.apply", **other)
    assert getattr(reused, "code", None) == GameErrorCode.COMMAND_ID_REUSED, reused
    assert verify_log(store.log(game_id)).status != "invalid"


BOT_TURNS = 4
"""The bot's turns the race test waits for (each after a person's command)."""


@pytest.mark.parametrize("rules", GAMES)
def test_two_processes_racing_for_a_bots_turn_decide_it_once(rules: str, postgres_url: str) -> None:
    """Exactly once under the lease: the person's commands go through the two processes in
    turn; the one that applied a command takes the lease for the bot's turn it gives (or,
    refused while the other still held it, leaves the turn to that one, which reads the
    game again as it lets the lease go), and the other, told by NOTIFY, leaves it. Checked
    from the final log: the bot commands each process applied (``server.health``'s
    ``bot_moves``) add up to the bot's commands in the log, and neither process had an
    append refused or a game dropped, which is what a bot turn decided twice comes to."""
    started = [listen(postgres_url), listen(postgres_url)]
    clients = [client for _, client, _ in started]
    said: list[str] = []
    rng = random.Random(7)
    try:
        person, bot = SEATS[rules][:2]
        # A bot that thinks a while, so that both processes would be deciding at once.
        bots = {bot: "search:300ms"}
        made = clients[0].ok("game.create", rules=rules, players=2, bots=bots, seed=5)
        game_id, token = made["game_id"], made["tokens"][person]
        clients[1].ok("game.view", game_id=game_id)  # both hold the game from now on
        moves = 0
        for _ in range(2000):
            client = clients[moves % 2]
            view = client.ok("game.view", game_id=game_id, token=token)
            bot_moves = sum(other.ok("server.health")["bot_moves"] for other in clients)
            if view["result"] is not None or (bot_moves >= BOT_TURNS and moves >= 2):
                break
            if view["acting"] != [person] or view["thinking"]:
                client.ok("game.wait", game_id=game_id, version=view["version"], timeout=0.5)
                continue
            legal = client.ok("game.legal_commands", game_id=game_id, token=token)["commands"]
            if not legal:  # told of another move between the two calls
                continue
            applied = client.call(
                "game.apply",
                game_id=game_id,
                token=token,
                command=rng.choice(legal),
                expected_version=view["version"],
            )
            moves += isinstance(applied, Ok)
        store = PostgresStore(postgres_url)
        _settle(clients, store, game_id, bot)
        made_by = [client.ok("server.health")["bot_moves"] for client in clients]
        log = store.log(game_id)
    finally:
        for process, _, sock in started:
            sock.close()
            process.terminate()
            said.append(process.communicate(timeout=20)[1].decode())
    records = [json.loads(line) for line in log.splitlines()]
    by_bot = [r for r in records if r["kind"] == "command" and r.get("seat") == bot]
    assert sum(made_by) == len(by_bot) > 0, (made_by, len(by_bot))
    assert moves >= 2, moves  # the person acted through both processes
    for words in said:
        assert "dropped from memory" not in words and "records stored, not" not in words, words
    assert verify_log(log).status != "invalid"


def _settle(clients: list[Client], store: PostgresStore, game_id: str, bot: str) -> None:
    """Wait until the bot has no move left and both processes hold what the store has."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        stored = store.records(game_id) - 1
        views = [client.ok("game.view", game_id=game_id) for client in clients]
        if all(
            view["version"] == stored and (view["result"] is not None or bot not in view["acting"])
            for view in views
        ):
            return
        time.sleep(0.1)
    raise AssertionError(f"the bot's turn did not settle: {views}")
