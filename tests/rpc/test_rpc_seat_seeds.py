"""Provably fair dice over RPC (issue 14 item 2, docs/DICE.md): the server commits to its
seed, every seat sends a contribution with ``game.join``, no seat sees another's before all
have sent theirs, and the header's ``client_seed`` joins them in seat order."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from nataterra_adapters.rpc.errors import GameErrorCode
from nataterra_adapters.rpc.server import Server
from test_rpc_games import Rpc

from nataterra_core.game import verify_log


@pytest.fixture
def rpc() -> Rpc:
    return Rpc()


def test_a_game_with_every_seats_contribution_is_played_and_verifies(rpc: Rpc) -> None:
    game = rpc.ok("game.create", players=2, options={"max_turns": 2})
    gid, tokens = game["game_id"], game["tokens"]
    first, second = game["seats"]
    assert game["version"] == 0 and len(game["seed_commitment"]) == 64
    # Before every seat has contributed: views and legal lists say the game is waiting.
    view = rpc.ok("game.view", game_id=gid, token=tokens[first])
    assert view["view"] is None and view["waiting_for"] == [first, second]
    legal = rpc.ok("game.legal_commands", game_id=gid, token=tokens[first])
    assert legal["commands"] == [] and legal["waiting_for"] == [first, second]
    refused = rpc.fails(
        GameErrorCode.SETUP_REJECTED,
        "game.apply",
        game_id=gid,
        token=tokens[first],
        command={"type": "end_phase.v1", "phase": "movement"},
    )
    assert "game.join" in refused["message"]

    joined = rpc.ok("game.join", game_id=gid, token=tokens[second], client_seed="s3c0nd")
    assert joined == {"waiting_for": [first], "started": False, "version": 0, "acting": []}
    # The other seat learns only that a contribution arrived, never what it was.
    spectator = json.dumps(rpc.ok("game.view", game_id=gid, token=tokens[first]))
    assert "s3c0nd" not in spectator
    rpc.fails(
        GameErrorCode.SETUP_REJECTED,
        "game.join",
        game_id=gid,
        token=tokens[second],
        client_seed="again",
    )
    started = rpc.ok("game.join", game_id=gid, token=tokens[first], client_seed="f1rst")
    assert started["started"] and started["version"] == 1 and started["acting"]
    rpc.fails(
        GameErrorCode.SETUP_REJECTED,
        "game.join",
        game_id=gid,
        token=tokens[first],
        client_seed="late",
    )

    rng = random.Random(1)
    result = None
    while result is None:
        acting = rpc.ok("game.view", game_id=gid, token=tokens[first])["acting"][0]
        commands = rpc.ok("game.legal_commands", game_id=gid, token=tokens[acting])["commands"]
        answer = rpc.ok(
            "game.apply", game_id=gid, token=tokens[acting], command=rng.choice(commands)
        )
        result = answer["result"]
    log = rpc.ok("game.log", game_id=gid)["log"]
    header = json.loads(log.splitlines()[0])
    assert header["client_seed"] == f"{first}:f1rst;{second}:s3c0nd"
    assert header["seed_commitment"] == game["seed_commitment"]
    assert verify_log(log.encode())


@pytest.mark.parametrize("bad", ["", "has space", "semi;colon", "x" * 65, "ümlaut"])
def test_a_contribution_must_be_short_ascii(rpc: Rpc, bad: str) -> None:
    game = rpc.ok("game.create", players=2)
    seat = game["seats"][0]
    error = rpc.fails(
        GameErrorCode.SETUP_REJECTED,
        "game.join",
        game_id=game["game_id"],
        token=game["tokens"][seat],
        client_seed=bad,
    )
    assert "contribution" in error["message"]


def test_a_wrong_token_cannot_contribute(rpc: Rpc) -> None:
    game = rpc.ok("game.create", players=2)
    rpc.fails(
        GameErrorCode.BAD_TOKEN, "game.join", game_id=game["game_id"], token="nope", client_seed="x"
    )


def test_seat_seeds_false_keeps_the_organisers_client_seed(rpc: Rpc) -> None:
    game = rpc.ok("game.create", players=2, seat_seeds=False, client_seed="organiser")
    assert game["version"] == 1 and game["acting"]
    records = rpc.ok("game.log", game_id=game["game_id"])["records"]
    assert records[0]["client_seed"] == "organiser"


def test_a_client_seed_with_seat_seeds_is_refused(rpc: Rpc) -> None:
    rpc.fails(GameErrorCode.SETUP_REJECTED, "game.create", players=2, client_seed="mine")


def test_a_chosen_seed_needs_the_servers_testing_flag() -> None:
    server = Server()  # as deployed: no --test-seeds
    message: dict[str, Any] = {
        "jsonrpc": "2.0",
        "method": "game.create",
        "params": {"seed": 3},
        "id": 1,
    }
    reply = json.loads(server.dispatcher.handle(json.dumps(message).encode()) or b"{}")
    assert reply["error"]["code"] == int(GameErrorCode.SETUP_REJECTED)
    assert "--test-seeds" in reply["error"]["message"]
