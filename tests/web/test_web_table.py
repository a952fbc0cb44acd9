"""What game.view gives a page beside the rules' view (issue 31): the boards drawn by the one
renderer (``svg``), the seat panels (``panels``), the places the other seats' last moves
touched (``recent``), the system's id and title; ``server.info``'s option choices; the
how-to-play pages served as Markdown."""

from __future__ import annotations

import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from .test_web_server import Socket

SVG = "{http://www.w3.org/2000/svg}"


def test_a_view_carries_its_pictures_panels_and_the_others_last_moves(server_url: str) -> None:
    socket = Socket(server_url)
    try:
        made = socket.ok(
            "game.create", rules="kaladan", players=2, bots={"blue": "heuristic"}, seed=None
        )
        game, token = made["game_id"], made["tokens"]["red"]
        view = socket.ok("game.view", game_id=game, token=token)
        if "red" in view["waiting_for"]:
            socket.ok("game.join", game_id=game, token=token, client_seed="ab" * 16)
        for _ in range(200):  # red's commands until blue has moved on the board
            view = socket.ok("game.view", game_id=game, token=token)
            if view["recent"] or view["result"] is not None:
                break
            if "red" not in view["acting"]:
                socket.ok("game.wait", game_id=game, version=view["version"], timeout=5)
                continue
            legal = socket.ok("game.legal_commands", game_id=game, token=token)
            socket.ok(
                "game.apply",
                game_id=game,
                token=token,
                command=legal["commands"][-1],
                expected_version=view["version"],
            )
        assert view["rules"] == "kaladan" and view["title"] == "Kaladan"
        drawn = {cell["id"] for board in view["board"]["boards"] for cell in board["cells"]}
        drawn |= {p["id"] for board in view["board"]["boards"] for p in board["pieces"]}
        assert view["recent"] and set(view["recent"]) <= drawn
        (picture,) = view["svg"]
        root = ET.fromstring(picture)
        cells = [g for g in root.iter(f"{SVG}g") if "cell" in g.get("class", "").split()]
        assert len(cells) == len(view["board"]["boards"][0]["cells"])
        panels = view["panels"]["seats"]
        assert [p["seat"] for p in panels] == ["red", "blue"]
        assert "hand" in panels[0] and "hand" not in panels[1]  # only the viewer's own cards
        spectator = socket.ok("game.view", game_id=game)
        assert all("hand" not in p for p in spectator["panels"]["seats"])
    finally:
        socket.close()


def test_server_info_offers_each_systems_choices(server_url: str) -> None:
    socket = Socket(server_url)
    try:
        systems = {s["id"]: s for s in socket.ok("server.info")["systems"]}
    finally:
        socket.close()
    scenarios = systems["battlelore"]["option_choices"]["scenario"]
    assert {"value": "agincourt", "words": "Agincourt (scenario 1)"} in scenarios
    assert {c["value"] for c in systems["nataterra"]["option_choices"]["mode"]} == {
        "learning",
        "advanced",
    }
    assert all(
        systems[i]["how_to_play"] for i in ("nataterra", "kaladan", "battlelore", "liars-dice")
    )


def test_each_games_how_to_play_page_is_served(server_url: str) -> None:
    with urllib.request.urlopen(server_url + "/how-to-play/kaladan.md") as answer:
        assert answer.headers["content-type"].startswith("text/markdown")
        assert answer.read().decode().startswith("# ")
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(server_url + "/how-to-play/no-such-game.md")
    assert missing.value.code == 404
