"""No game lost (issue 14 item 5): ``kill -9`` the server in the middle of several games over
TCP, restart it on the same store, and finish every game with the same tokens; every log
verifies and nothing a client was acknowledged is missing."""

from __future__ import annotations

import random
import socket
import stat
import subprocess
from pathlib import Path
from typing import Any

from rpc_helpers import Client, start_server, stop_server

from nataterra_core.game import verify_log


def _listen(store: Path) -> tuple[subprocess.Popen[bytes], int]:
    process = start_server("--listen", "127.0.0.1:0", "--store", str(store))
    assert process.stderr is not None
    announced = process.stderr.readline().decode()
    assert "listening on" in announced, announced
    return process, int(announced.rsplit(":", 1)[1])


def _connect(port: int) -> tuple[socket.socket, Client]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    return sock, Client(sock.makefile("rb"), sock.makefile("wb"))


def _step(client: Client, game: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """One random legal command of the acting seat; the reply (``None``: nothing to do)."""
    view = client.ok("game.view", game_id=game["game_id"])
    if view["result"] is not None:
        return None
    seat = view["acting"][0]
    token = game["tokens"][seat]
    commands = client.ok("game.legal_commands", game_id=game["game_id"], token=token)["commands"]
    reply: dict[str, Any] = client.ok(
        "game.apply", game_id=game["game_id"], token=token, command=rng.choice(commands)
    )
    return reply


def test_a_killed_server_resumes_every_game_with_nothing_acknowledged_lost(tmp_path: Path) -> None:
    store = tmp_path / "store"
    rng = random.Random(7)
    process, port = _listen(store)
    try:
        sock, client = _connect(port)
        games = [
            client.ok("game.create", players=2, seed=seed, options={"max_turns": 4})
            for seed in (21, 22, 23)
        ]
        acknowledged = {}
        for game in games:
            version = game["version"]
            for _ in range(rng.randrange(3, 12)):
                reply = _step(client, game, rng)
                if reply is None:
                    break
                version = reply["version"]
            acknowledged[game["game_id"]] = version
        sock.close()
    finally:
        process.kill()  # kill -9: no clean shutdown, no flush beyond what was fsynced
        process.communicate(timeout=10)

    secrets = sorted(store.glob("*.secret"))
    assert len(secrets) == 3
    assert all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in secrets)

    process, port = _listen(store)
    try:
        sock, client = _connect(port)
        for game in games:
            seat = game["seats"][0]
            view = client.ok("game.view", game_id=game["game_id"], token=game["tokens"][seat])
            assert view["version"] >= acknowledged[game["game_id"]]  # nothing acknowledged lost
            while _step(client, game, rng) is not None:
                pass
            log = client.ok("game.log", game_id=game["game_id"])
            assert log["revealed"]
            assert verify_log(log["log"].encode(), expect_head=log["head"])
            on_disk = (store / f"{game['game_id']}.jsonl").read_text()
            assert on_disk == log["log"]
        sock.close()
    finally:
        stop_server(process)


def test_a_torn_last_record_is_cut_and_the_game_resumes(tmp_path: Path) -> None:
    """A record half-written when the server died was never acknowledged: it is dropped."""
    import msgspec
    from nataterra_adapters.rpc.games import (
        ApplyParams,
        CreateParams,
        Games,
        SeatParams,
        ViewParams,
    )
    from nataterra_adapters.rpc.store_files import DirectoryStore

    games = Games(test_seeds=True, store=DirectoryStore(tmp_path))
    game = games.create(CreateParams(players=2, seed=4))
    seat = game.acting[0]
    legal = games.legal_commands(SeatParams(game_id=game.game_id, token=game.tokens[seat]))
    command = msgspec.to_builtins(legal.commands[0])
    applied = games.apply(
        ApplyParams(game_id=game.game_id, token=game.tokens[seat], command=command)
    )
    log = tmp_path / f"{game.game_id}.jsonl"
    with log.open("ab") as file:
        file.write(b'{"kind":"command","seq":')  # the crash, mid-record
    again = Games(test_seeds=True, store=DirectoryStore(tmp_path))
    view = again.view(ViewParams(game_id=game.game_id, token=game.tokens[seat]))
    assert view.version == applied.version
    assert log.read_bytes().endswith(b"\n")
