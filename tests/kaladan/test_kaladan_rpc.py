"""Kaladan over the game-neutral JSON-RPC server: created by its rules id, played to the end
by legal commands, each seat's view and log cut for that seat (K-HID-1), the log verified."""

from __future__ import annotations

import json
import random
from typing import Any

from nataterra_adapters.rpc.server import Server


def _ok(server: Server, method: str, **params: Any) -> Any:
    message = {"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
    reply = server.dispatcher.handle(json.dumps(message).encode())
    assert reply is not None
    answer: dict[str, Any] = json.loads(reply)
    assert "result" in answer, answer
    return answer["result"]


def test_K_HID_1_a_kaladan_game_over_rpc_hides_hands_and_verifies() -> None:
    server = Server(test_seeds=True)
    game = _ok(server, "game.create", rules="kaladan", players=3, seed=5)
    game_id, tokens = game["game_id"], game["tokens"]
    assert game["seats"] == ["red", "blue", "green"]
    view = _ok(server, "game.view", game_id=game_id, token=tokens["red"])["view"]
    hands = {p["seat"]: p["hand"] for p in view["players"]}
    assert hands["red"] and len(hands["red"]) == 2 and hands["blue"] is None
    records = _ok(server, "game.log", game_id=game_id, token=tokens["red"])["records"]
    drawn = [e for e in records[1]["events"] if e["type"] == "magic_drawn.v1"]
    assert all(("cards" in e) == (e["seat"] == "red") for e in drawn)
    rng = random.Random(5)
    version, acting, result = game["version"], game["acting"], None
    for _ in range(3000):
        if not acting:
            break
        seat = acting[0]
        legal = _ok(server, "game.legal_commands", game_id=game_id, token=tokens[seat])
        answer = _ok(
            server,
            "game.apply",
            game_id=game_id,
            token=tokens[seat],
            command=rng.choice(legal["commands"]),
            expected_version=version,
        )
        version, acting, result = answer["version"], answer["acting"], answer["result"]
    assert result is not None and result["reason"] in ("deck_used_up", "last_crown")
    log = _ok(server, "game.log", game_id=game_id)
    verdict = _ok(server, "log.verify", log=log["log"], expect_head=log["head"])
    assert verdict["status"] == "valid" and verdict["result"] == result
