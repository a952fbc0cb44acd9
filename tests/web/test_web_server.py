"""``nataterra serve`` without a browser: the JSON-RPC methods over its WebSocket, change
notifications, the origin check, and a client that ships whole and fetches nothing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest

websockets = pytest.importorskip("websockets.sync.client")

ROOT = Path(__file__).resolve().parents[2]
NATATERRA = str(Path(sys.executable).with_name("nataterra"))
STATIC = ROOT / "adapters" / "nataterra_adapters" / "web" / "static"


class Socket:
    """A JSON-RPC client on one WebSocket connection."""

    def __init__(self, url: str, **headers: str) -> None:
        self._connecting = websockets.connect(
            url.replace("http", "ws", 1) + "/rpc", additional_headers=headers
        )
        self.connection = self._connecting.__enter__()
        self.next_id = 0
        self.notes: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.connection.send(
            json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        )
        while True:
            message = json.loads(self.connection.recv(timeout=20))
            if message.get("id") == self.next_id:
                return message
            self.notes.append(message)

    def ok(self, method: str, **params: Any) -> Any:
        answer = self.call(method, **params)
        assert "result" in answer, answer
        return answer["result"]

    def close(self) -> None:
        self._connecting.__exit__(None, None, None)


def test_the_websocket_speaks_the_rpc_servers_methods(server_url: str) -> None:
    from nataterra_adapters.rpc.games import Games

    socket = Socket(server_url)
    info = socket.ok("server.info")
    assert info["methods"] == sorted(Games().methods())
    assert {"game.create", "log.replay", "game.log"} <= set(info["methods"])
    bad = socket.call("game.view", game_id=3)
    assert bad["error"]["code"] == -32602
    socket.connection.send("{not json")
    assert json.loads(socket.connection.recv(timeout=20))["error"]["code"] == -32700
    socket.close()


def test_a_watching_connection_is_told_when_another_changes_the_game(server_url: str) -> None:
    ann, watcher = Socket(server_url), Socket(server_url)
    made = ann.ok("game.create", players=2, bots={"beasts": "random"})
    token = made["tokens"]["velathi"]
    assert watcher.ok("game.view", game_id=made["game_id"])["waiting_for"] == ["velathi"]
    ann.ok("game.join", game_id=made["game_id"], token=token, client_seed="ann")
    note = json.loads(watcher.connection.recv(timeout=20))
    thinking = note["params"]["thinking"]
    assert note == {
        "jsonrpc": "2.0",
        "method": "game.changed",
        "params": {
            "game_id": made["game_id"],
            "version": note["params"]["version"],
            "thinking": thinking,
        },
    }
    assert thinking in ([], ["beasts"])
    view = watcher.ok("game.view", game_id=made["game_id"])
    # The bot's commands follow the start (issue 32 item 1): the view may be later still.
    assert view["version"] >= note["params"]["version"] > 0
    assert view["seat"] is None and "hand" not in json.dumps(view["board"])
    ann.close()
    watcher.close()


def test_a_bot_game_on_one_socket_stalls_no_other_and_is_followed_by_game_wait(
    server_url: str,
) -> None:
    """The web server runs its bots through the RPC server's worker pool (issue 32 item 1):
    a game of search bots is created at once, another socket is answered meanwhile, and
    ``game.wait`` follows the game to its end."""
    maker, other = Socket(server_url), Socket(server_url)
    seats = {"velathi": "search:2", "beasts": "search:2"}
    made = maker.ok("game.create", players=2, options={"max_turns": 3}, bots=seats)
    assert made["tokens"] == {}
    assert other.ok("server.info")["server"] == "nataterra-rpc"
    assert other.ok("game.view", game_id=made["game_id"])["result"] is None
    version = made["version"]
    for _ in range(400):
        answer = maker.ok("game.wait", game_id=made["game_id"], version=version)
        version = answer["version"]
        if answer["result"] is not None:
            break
    assert answer["result"] is not None
    assert maker.ok("game.log", game_id=made["game_id"])["revealed"]
    maker.close()
    other.close()


def test_a_watching_page_is_told_when_a_bot_starts_and_stops_thinking(server_url: str) -> None:
    """Issue 34 item 4: ``game.changed`` carries the bot seats thinking, told when a
    decision starts and when it ends, and ``game.view`` reports them."""
    socket = Socket(server_url)
    bots = {"velathi": "search:200ms", "beasts": "search:200ms"}
    made = socket.ok("game.create", players=2, options={"max_turns": 1}, bots=bots)
    version, answer = made["version"], None
    for _ in range(400):
        answer = socket.ok("game.wait", game_id=made["game_id"], version=version)
        version = answer["version"]
        if answer["result"] is not None:
            break
    assert answer is not None and answer["result"] is not None
    told = [n["params"]["thinking"] for n in socket.notes if n["method"] == "game.changed"]
    assert ["velathi"] in told or ["beasts"] in told, told
    assert socket.ok("game.view", game_id=made["game_id"])["thinking"] == []
    socket.close()


def test_a_page_of_another_site_may_not_open_the_socket(server_url: str) -> None:
    with pytest.raises(Exception, match=r"403|1008|rejected"):
        Socket(server_url, Origin="http://evil.example")
    same = Socket(server_url, Origin=server_url)
    assert same.ok("server.info")["server"] == "nataterra-rpc"
    same.close()


def test_the_client_is_served_and_fetches_nothing_from_elsewhere(server_url: str) -> None:
    page = urlopen(server_url + "/").read().decode()
    assert '<script type="module" src="/js/main.js">' in page
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            served = urlopen(f"{server_url}/{path.relative_to(STATIC).as_posix()}").read()
            assert served == path.read_bytes()
            text = served.decode()
            # No CDN, font or script from the internet; imports are relative modules.
            assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), path.name
            for module in re.findall(r'from "([^"]+)"', text):
                assert module.startswith("./") and (path.parent / module).is_file(), module


def test_every_client_file_ships_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["nataterra_adapters"]
    package = ROOT / "adapters" / "nataterra_adapters"
    shipped = {p for pattern in globs for p in package.glob(pattern) if p.is_file()}
    assert {p for p in STATIC.rglob("*") if p.is_file()} <= shipped
    web = config["project"]["optional-dependencies"]["web"]
    assert any(d.startswith("starlette") for d in web) and any(d.startswith("uvicorn") for d in web)


def test_nataterra_serve_starts_and_says_where() -> None:
    process = subprocess.Popen(
        [NATATERRA, "serve", "--listen", "127.0.0.1:0", "--no-store"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        match = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", line)
        assert match, line
        assert "<title>nataterra</title>" in urlopen(match.group(1), timeout=20).read().decode()
    finally:
        process.terminate()
        process.wait(timeout=20)


def _get(url: str, **headers: str) -> int:
    from urllib.error import HTTPError
    from urllib.request import Request

    try:
        with urlopen(Request(url + "/", headers=headers)) as answer:
            return int(answer.status)
    except HTTPError as refused:
        return refused.code


def _handshake(url: str, host: str, origin: str | None = None) -> int:
    """The HTTP status answering a WebSocket handshake that names ``host`` (101: accepted)."""
    import socket as sockets

    port = int(url.rsplit(":", 1)[1])
    lines = [
        "GET /rpc HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    with sockets.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status = connection.recv(4096).split(b"\r\n", 1)[0]
    return int(status.split()[1])


def test_a_rebound_host_name_is_refused_on_http_and_websocket(server_url: str) -> None:
    # DNS rebinding: evil.example resolves to 127.0.0.1, the browser sends its own name in
    # Host and Origin, which agree with each other.
    port = server_url.rsplit(":", 1)[1]
    rebound = f"evil.example:{port}"
    assert _get(server_url, Host=rebound) == 400
    assert _handshake(server_url, rebound, origin=f"http://{rebound}") == 400
    assert _handshake(server_url, rebound) == 400
    assert _get(server_url, Host=f"localhost:{port}") == 200
    assert _get(server_url, Host=f"[::1]:{port}") == 200
    assert _handshake(server_url, f"localhost:{port}", origin=f"http://localhost:{port}") == 101


def test_an_origin_outside_the_allowed_hosts_is_refused(server_url: str) -> None:
    port = server_url.rsplit(":", 1)[1]
    with pytest.raises(Exception, match=r"403|rejected"):
        Socket(server_url, Origin=f"http://evil.example:{port}")
    with pytest.raises(Exception, match=r"403|rejected"):
        Socket(server_url, Origin="null")
    assert _get(server_url, Origin=f"http://evil.example:{port}") == 403


def test_the_allowed_hosts_follow_the_listening_address() -> None:
    from nataterra_adapters.web.hosts import allowed_hosts, host_name

    assert allowed_hosts("127.0.0.1") >= {"127.0.0.1", "localhost", "::1"}
    assert allowed_hosts("::1") >= {"127.0.0.1", "localhost", "::1"}
    assert allowed_hosts("192.0.2.7") == {"192.0.2.7"}
    assert allowed_hosts("192.0.2.7", ["Games.Example.org"]) == {"192.0.2.7", "games.example.org"}
    assert "localhost" in allowed_hosts("0.0.0.0")
    with pytest.raises(ValueError, match="not a host name"):
        allowed_hosts("127.0.0.1", ["a b"])
    assert host_name("[::1]:8000") == "::1"
    assert host_name("Example.org.:80") == "example.org"
    assert host_name("evil.example@127.0.0.1") is None
