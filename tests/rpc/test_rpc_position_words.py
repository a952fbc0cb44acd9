"""``game.log``'s words for a game started from a position (issue 30 item 4): the header is
worded from the position as the seat may see it, never from the whole position with the
other seats' hands and the deck orders."""

from __future__ import annotations

import json
import random
from typing import Any

from nataterra_adapters.rpc.server import Server

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import system
from nataterra_core.kernel.secrets import twins


def _call(server: Server, method: str, **params: Any) -> Any:
    message = {"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
    reply = server.dispatcher.handle(json.dumps(message).encode())
    assert reply is not None
    answer = json.loads(reply)
    assert "result" in answer, answer
    return answer["result"]


def _header_words(position: str, seat: str | None) -> list[str]:
    """The header's words ``seat`` (``None``: a spectator) gets for a game from ``position``
    (started with a secret seed, after both seats joined, as in the issue's repro)."""
    server = Server(test_seeds=True)
    created = _call(server, "game.create", position=position, game_id="g-position")
    for n, token in enumerate(created["tokens"].values()):
        _call(server, "game.join", game_id=created["game_id"], token=token, client_seed=f"c{n}")
    asked = {"game_id": created["game_id"], "words": True}
    if seat is not None:
        asked["token"] = created["tokens"][seat]
    logged = _call(server, "game.log", **asked)
    assert not logged["revealed"]
    return list(logged["words"][0])


def test_game_log_words_the_header_of_a_position_as_the_seat_may_see_it() -> None:
    session = new_game(2, seed=7)
    positions = system("nataterra").hooks.positions
    assert positions is not None
    state = session.state
    mine, theirs = session.header.seats
    assert state.player(theirs).tech_hand  # something to hide
    twin = twins(state, mine, random.Random(1))
    assert twin.player(theirs).tech_hand != state.player(theirs).tech_hand
    texts = []
    for position in (state, twin):
        data = json.loads(positions.export(position))
        data["shuffle"] = ["biome:forest"]
        texts.append(json.dumps(data))
    for seat in (mine, None):
        said = [_header_words(text, seat) for text in texts]
        assert said[0] == said[1], f"{seat}: the header's words depend on hidden cards"
    hand = json.dumps(json.loads(texts[0])["players"][theirs]["tech_hand"])
    assert hand not in " ".join(_header_words(texts[0], mine))
