"""The reverse-proxy examples of docs/SERVER.md (issue 33 item 3) say what the web server
serves: every path they route is one of the application's routes (the WebSocket's with the
upgrade headers), the health check asks ``/healthz``, the upstreams are the ``nataterra
serve --listen`` addresses of the example, no sticky sessions, and a server started as the
example starts it answers the proxied WebSocket (the public name in ``Host`` and
``Origin``) and a health check naming the upstream's own address."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.request import Request, urlopen

import pytest
from serving import serving
from starlette.routing import Mount, Route, WebSocketRoute

from .test_web_server import _handshake

DOC = (Path(__file__).resolve().parents[2] / "docs" / "SERVER.md").read_text()
SECTION = DOC.split("### Behind a reverse proxy", 1)[1].split("\n## ", 1)[0]
STICKY = ("ip_hash", "hash ", "sticky", "lb_policy cookie", "lb_policy ip_hash", "client_ip")


def _block(language: str) -> str:
    """The example in ``language``, its comments left out."""
    [block] = re.findall(rf"```{language}\n(.*?)```", SECTION, re.S)
    return re.sub(r"#.*", "", str(block))


def _servers() -> list[list[str]]:
    """Each ``nataterra serve`` command of the example, as words."""
    commands = _block("sh").replace("\\\n", " ").splitlines()
    return [line.split() for line in commands if line.startswith("nataterra serve")]


def _flag(words: list[str], flag: str) -> str:
    return words[words.index(flag) + 1]


def _routes() -> dict[str, str]:
    """The application's paths: ``http``, ``websocket`` or ``mount``."""
    from nataterra_adapters.web import create_app

    kinds = {}
    for route in create_app().routes:
        if isinstance(route, WebSocketRoute):
            kinds[route.path] = "websocket"
        elif isinstance(route, Route):
            kinds[route.path] = "http"
        elif isinstance(route, Mount):
            kinds[route.path or "/"] = "mount"
    return kinds


def test_the_example_servers_share_one_database_and_allow_the_public_name() -> None:
    servers = _servers()
    assert len(servers) >= 2
    assert len({_flag(words, "--store") for words in servers}) == 1
    assert all(_flag(words, "--store").startswith("postgresql://") for words in servers)
    for words in servers:  # every connection comes from the proxy: one address
        cap = _flag(words, "--max-connections")
        assert _flag(words, "--max-connections-per-address") == cap


def test_the_caddy_example_routes_every_server_and_checks_healthz() -> None:
    from nataterra_adapters.web.hosts import HEALTH_PATH

    caddy = _block("caddy")
    site = caddy.split()[0]
    assert all(_flag(words, "--allow-host") == site for words in _servers())
    upstream = re.search(r"reverse_proxy ([^{]+)\{", caddy)
    assert upstream is not None
    assert upstream.group(1).split() == [_flag(words, "--listen") for words in _servers()]
    health = re.search(r"health_uri (\S+)", caddy)
    assert health is not None and health.group(1) == HEALTH_PATH
    assert _routes()[HEALTH_PATH] == "http"
    assert not any(word in caddy for word in STICKY)


def test_the_nginx_example_routes_only_the_apps_paths_with_the_websocket_upgrade() -> None:
    nginx = _block("nginx")
    name = re.search(r"server_name (\S+);", nginx)
    assert name is not None
    assert all(_flag(words, "--allow-host") == name.group(1) for words in _servers())
    upstream = re.search(r"upstream (\w+) \{(.*?)\}", nginx, re.S)
    assert upstream is not None
    servers = re.findall(r"^\s*server (\S+)", upstream.group(2), re.M)
    assert servers == [_flag(words, "--listen") for words in _servers()]
    assert not any(word in upstream.group(2) for word in STICKY)
    routes = _routes()
    locations = re.findall(r"location (= )?(\S+) \{(.*?)\}", nginx, re.S)
    assert {path for _, path, _ in locations} == set(routes) - {"/how-to-play/{rules}.md"}
    for exact, path, body in locations:
        assert f"proxy_pass http://{upstream.group(1)};" in body
        assert "proxy_set_header Host $host;" in body  # the name --allow-host allows
        assert bool(exact) == (routes[path] != "mount")
        if routes[path] == "websocket":
            assert "proxy_http_version 1.1;" in body
            assert "proxy_set_header Upgrade $http_upgrade;" in body
            assert "proxy_set_header Connection $connection_upgrade;" in body


@pytest.fixture
def proxied_server() -> Iterator[str]:
    """The web server as the example starts it (its public name allowed), in a thread."""
    pytest.importorskip("uvicorn")
    from nataterra_adapters.web import create_app
    from nataterra_adapters.web.hosts import allowed_hosts

    [public] = {_flag(words, "--allow-host") for words in _servers()}
    with serving(create_app(hosts=allowed_hosts("127.0.0.1", [public]))) as url:
        yield url


def test_a_server_started_as_the_example_answers_what_the_proxy_sends(
    proxied_server: str,
) -> None:
    from nataterra_adapters.web.hosts import HEALTH_PATH

    [public] = {_flag(words, "--allow-host") for words in _servers()}
    assert _handshake(proxied_server, public, origin=f"https://{public}") == 101
    upstream = _flag(_servers()[0], "--listen")  # a health checker names the upstream
    request = Request(proxied_server + HEALTH_PATH, headers={"Host": upstream})
    with urlopen(request, timeout=30) as answer:
        assert answer.status == 200
