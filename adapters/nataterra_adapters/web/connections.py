"""The web server's connections are bounded: caps in all and per client address, a deadline
for each request head, and no log flood when descriptors run out.

uvicorn has none of these: its ``limit_concurrency`` is checked only once a request head has
arrived (a client that never finishes its head is never refused), ``timeout_keep_alive`` is
armed only after a response (and cancelled by any byte), and asyncio's accept loop logs a
traceback for each of up to ``backlog`` failed ``accept`` calls a second once the process is
out of descriptors. So the server's protocols are uvicorn's own (``AutoHTTPProtocol``, its
WebSocket protocol) with a mixin each: the HTTP one admits a connection by
:class:`~..rpc.admission.Admission` (the same caps and refusal log as ``nataterra-rpc``) or
answers 503 and closes it, and closes with 408 a connection whose request head is not whole
within ``--header-timeout`` of its start or of the previous response; the WebSocket one
(the same transport, handed over at the upgrade) gives the admission back when it closes.
"""

from __future__ import annotations

import asyncio
import errno
import socket
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

from ..rpc.admission import Admission, RateLimitedLog, connection_cap

__all__ = ["DEFAULT_HEADER_TIMEOUT", "ConnectionGuard", "GuardedServer"]

DEFAULT_HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a whole request head (``--header-timeout``)."""
LINGER_SECONDS = 0.5
"""How long a refused connection stays open after its 503, reading and dropping what the
client sent: closing a socket with unread bytes resets it, and the client would see the
reset instead of the answer."""
MAX_LINGERING = 16
"""Refused connections lingering at once at most (each holds a descriptor); more are closed
at once."""
_OUT_OF_DESCRIPTORS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


def _plain_answer(status: str, reason: str) -> bytes:
    body = (reason + "\n").encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def _address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) else str(peer)


class ConnectionGuard:
    """The connections of one web server: who is admitted (by transport, which outlives an
    upgrade from HTTP to WebSocket), the refusals and the request-head deadline."""

    def __init__(self, max_connections: int, per_address: int, header_timeout: float) -> None:
        self.admission = Admission(
            connection_cap(max_connections), per_address, server="nataterra serve"
        )
        self.header_timeout = header_timeout
        self.timeouts = RateLimitedLog("nataterra serve")
        self.accept_failures = RateLimitedLog("nataterra serve")
        self._served: dict[asyncio.BaseTransport, str] = {}
        self._lingering = 0

    def enter(self, transport: asyncio.BaseTransport) -> bool:
        """Admit a new connection, or answer it 503 and close it (``False``)."""
        address = _address(transport)
        reason = self.admission.admit(address)
        if reason is None:
            self._served[transport] = address
            return True
        self._close(transport, _plain_answer("503 Service Unavailable", reason))
        return False

    def leave(self, transport: asyncio.BaseTransport) -> None:
        """A connection ended (said again by the WebSocket protocol after an upgrade: once
        is counted)."""
        address = self._served.pop(transport, None)
        if address is not None:
            self.admission.leave(address)

    def head_too_slow(self, transport: asyncio.BaseTransport) -> None:
        """Close a connection whose request head did not come whole in time, with a 408."""
        seconds = f"{self.header_timeout:g}"
        self.timeouts.note(
            lambda count: (
                f"closed {count} connection(s) that sent no whole request head "
                f"within {seconds} s (--header-timeout)"
            )
        )
        reason = f"no whole request head within {seconds} s (--header-timeout)"
        self._close(transport, _plain_answer("408 Request Timeout", reason))

    def _close(self, transport: asyncio.BaseTransport, answer: bytes) -> None:
        """Answer and close; the connection's place is free at once (its descriptor once
        it has lingered)."""
        assert isinstance(transport, asyncio.Transport)
        self.leave(transport)
        transport.write(answer)
        if self._lingering >= MAX_LINGERING or not transport.can_write_eof():
            transport.close()
            return
        try:
            transport.write_eof()
        except OSError:  # the client is gone already
            transport.close()
            return
        self._lingering += 1

        def close() -> None:
            self._lingering -= 1
            transport.close()

        asyncio.get_running_loop().call_later(LINGER_SECONDS, close)

    def accept_failed(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The loop's exception handler: a failed ``accept`` for want of descriptors is a
        line at a bounded rate (asyncio writes a traceback for each, up to ``backlog`` a
        second); anything else goes to the default handler."""
        exc = context.get("exception")
        if _retry_after_close(context):
            return
        if not isinstance(exc, OSError) or exc.errno not in _OUT_OF_DESCRIPTORS:
            loop.default_exception_handler(context)
            return
        self.accept_failures.note(
            lambda count: (
                f"{count} connection(s) not accepted: {exc.strerror or exc} "
                "(the process's descriptor limit; lower --max-connections)"
            )
        )

    def protocols(self) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
        """uvicorn's HTTP and WebSocket protocol classes, guarded by this guard
        (``uvicorn.Config(http=..., ws=...)``)."""
        websocket = AutoWebSocketsProtocol  # typed a callable: it is the class chosen
        if not isinstance(websocket, type):  # the web extra installs websockets
            raise RuntimeError("nataterra serve needs the websockets library")
        http = type("GuardedHTTPProtocol", (_GuardedHTTP, AutoHTTPProtocol), {"guard": self})
        ws = type("GuardedWebSocketProtocol", (_GuardedWebSocket, websocket), {"guard": self})
        return http, ws


def _retry_after_close(context: dict[str, Any]) -> bool:
    """Whether this is asyncio's retry of ``accept`` firing after the server was closed.

    Out of descriptors, asyncio stops listening and schedules ``_start_serving`` a second
    later; if the server shuts down in that second, the retry finds the listening socket
    closed (descriptor -1) and raises ``ValueError``. Nothing is lost by dropping it: the
    server is gone on purpose.
    """
    handle = context.get("handle")
    callback = getattr(handle, "_callback", None)
    return isinstance(context.get("exception"), ValueError) and (
        getattr(callback, "__name__", "") == "_start_serving"
    )


class _GuardedHTTP(asyncio.Protocol):
    """Put before uvicorn's HTTP protocol: admission, the request-head deadline."""

    guard: ClassVar[ConnectionGuard]
    transport: asyncio.Transport
    cycle: Any
    _refused: bool = False
    _head_deadline: asyncio.TimerHandle | None = None
    _waiting_since: object = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if not self.guard.enter(transport):
            self._refused = True
            return
        self._await_head()

    def data_received(self, data: bytes) -> None:
        if not self._refused:  # a refused client's request is read and dropped
            super().data_received(data)

    def on_response_complete(self) -> None:
        self._await_head()  # before uvicorn reads a pipelined request: it counts as come
        super().on_response_complete()  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
        self.guard.leave(self.transport)
        super().connection_lost(exc)

    def _await_head(self) -> None:
        """The next request head must be whole within the timeout: uvicorn starts a new
        ``cycle`` when one is, so the cycle seen now tells whether one came meanwhile."""
        if self._head_deadline is not None:
            self._head_deadline.cancel()
        self._waiting_since = self.cycle
        loop = asyncio.get_running_loop()
        self._head_deadline = loop.call_later(self.guard.header_timeout, self._head_late)

    def _head_late(self) -> None:
        self._head_deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return  # closed, or upgraded to a WebSocket
        if self.cycle is self._waiting_since:
            self.guard.head_too_slow(self.transport)


class _GuardedWebSocket(asyncio.Protocol):
    """Put before uvicorn's WebSocket protocol: the admission of the HTTP connection it
    was upgraded from is given back when it ends."""

    guard: ClassVar[ConnectionGuard]
    _guarded: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._guarded = transport
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._guarded is not None:
            self.guard.leave(self._guarded)
        super().connection_lost(exc)


class GuardedServer(uvicorn.Server):
    """A uvicorn server whose loop reports running out of descriptors at a bounded rate."""

    def __init__(self, config: uvicorn.Config, guard: ConnectionGuard) -> None:
        super().__init__(config)
        self.guard = guard

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(self.guard.accept_failed)
        await super().serve(sockets)
