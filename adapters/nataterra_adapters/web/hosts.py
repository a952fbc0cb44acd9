"""Which ``Host`` and ``Origin`` the web server answers (against DNS rebinding).

A page of another site can make its own name resolve to this machine (DNS rebinding): its
requests then carry its ``Host`` and its ``Origin``, both chosen by the attacker, so
comparing one with the other proves nothing. Both are checked against one list instead: the
name the server listens on (with ``localhost``, ``127.0.0.1`` and ``[::1]`` when that is a
loopback address) and the names given with ``--allow-host``.

Starlette's ``TrustedHostMiddleware`` checks ``Host`` (for WebSockets too, with a denial
response) but not ``Origin``, so this one ASGI middleware checks both with the same list: a
bad ``Host`` gets an HTTP 400, a bad ``Origin`` an HTTP 403 (a WebSocket handshake is
refused with the same status, before it is accepted). A request without ``Origin`` (a
script, a same-origin ``GET``) is judged by its ``Host`` alone.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["HEALTH_PATH", "LOOPBACK_NAMES", "HostGuard", "allowed_hosts", "host_name"]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
"""Names a loopback server answers to besides the one it listens on."""

_HOST = re.compile(
    r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[^:\[\]/@\s]+))(?::(?P<port>\d{1,5}))?"
)


def host_name(text: str) -> str | None:
    """The host of a ``Host`` header or URL netloc, lower case, IPv6 without brackets
    (``None``: not a host)."""
    match = _HOST.fullmatch(text.strip())
    if match is None:
        return None
    return (match["ipv6"] or match["name"]).lower().rstrip(".")


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def allowed_hosts(listen_host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a server listening on ``listen_host`` answers to: that host, the loopback
    names when it is a loopback address, the loopback names and this machine's name when it
    is every address (``0.0.0.0``, ``::``), and ``extra`` (``*``: any)."""
    listen = listen_host.strip("[]").lower()
    names = {listen}
    address = _address(listen)
    if listen == "localhost" or (address is not None and address.is_loopback):
        names.update(LOOPBACK_NAMES)
    elif address is not None and address.is_unspecified:
        names.update(LOOPBACK_NAMES)
        names.add(socket.gethostname().lower())
    for name in extra:
        parsed = "*" if name == "*" else host_name(name)
        if parsed is None:
            raise ValueError(f"not a host name: {name!r}")
        names.add(parsed)
    return frozenset(names)


HEALTH_PATH = "/healthz"
"""Answered whatever the ``Host``: it tells that the process serves, and nothing else."""


class HostGuard:
    """ASGI middleware: HTTP and WebSocket requests whose ``Host`` or ``Origin`` names a
    host outside ``allowed`` are refused (``*`` in ``allowed``: every host)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = frozenset(allowed)

    def _allows(self, host: str | None) -> bool:
        return host is not None and ("*" in self.allowed or host in self.allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope.get("path") == HEALTH_PATH:
            await self.app(scope, receive, send)  # a load balancer's check names no host of ours
            return
        headers = {key.lower(): value for key, value in scope["headers"]}
        host = headers.get(b"host", b"").decode("latin-1")
        if not self._allows(host_name(host)):
            refusal = PlainTextResponse("this server does not answer to that Host", 400)
            await refusal(scope, receive, send)
            return
        origin = headers.get(b"origin")
        if origin is not None and not self._allows_origin(origin.decode("latin-1")):
            refusal = PlainTextResponse("a page of another site may not use this server", 403)
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _allows_origin(self, origin: str) -> bool:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False  # "null" (a sandboxed page, a file) or anything else
        return self._allows(host_name(parts.netloc))
