"""Receipts over the browser's WebSocket (docs/RECEIPTS.md): the same methods as JSON-RPC, so a
seat's client checks each receipt on arrival from the lines it received there too, for
every registered system, and a spectator's ``game.receipt`` checks against its lines."""

from __future__ import annotations

import random

import pytest
from receipt_client import Holder, check_game_key

from nataterra_core.kernel.registry import systems

from .test_web_server import Socket

COMMANDS = 40
"""Commands played per game: enough for draws, turns and bots' records, not a whole game."""


@pytest.mark.parametrize("rules_id", [record.id for record in systems()])
def test_receipts_check_on_arrival_over_the_websocket(server_url: str, rules_id: str) -> None:
    socket = Socket(server_url)
    try:
        game = socket.ok("game.create", rules=rules_id, seat_seeds=False)
        game_id, tokens = game["game_id"], game["tokens"]
        server_key = socket.ok("server.info")["server_key"]
        check_game_key(server_key, game_id, game["receipt_key"], game["receipt_key_signature"])
        holders = {seat: Holder(game_id, seat, game["receipt_key"]) for seat in (*tokens, "")}
        rng = random.Random(rules_id)
        acting, version = game["acting"], game["version"]
        for _ in range(COMMANDS):
            if not acting:
                break
            seat = acting[0]
            holder = holders[seat]
            seen = socket.ok(
                "game.log", game_id=game_id, token=tokens[seat], since=len(holder.lines)
            )
            holder.take(seen["lines"])
            legal = socket.ok("game.legal_commands", game_id=game_id, token=tokens[seat])
            result = socket.ok(
                "game.apply",
                game_id=game_id,
                token=tokens[seat],
                command=rng.choice(legal["commands"]),
                expected_version=version,
            )
            holder.take(result["lines"])
            holder.check(result["receipt"])
            acting, version = result["acting"], result["version"]
        spectator = holders[""]
        spectator.take(socket.ok("game.log", game_id=game_id)["lines"])
        spectator.check(socket.ok("game.receipt", game_id=game_id)["receipt"])
        assert len(spectator.lines) == version + 1
    finally:
        socket.close()
