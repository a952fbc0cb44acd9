"""The ``nataterra-rpc`` process: JSON-RPC 2.0 over stdio (default) or TCP.

    nataterra-rpc                                  # newline-delimited JSON on stdin/stdout
    nataterra-rpc --framing content-length         # LSP-style headers
    nataterra-rpc --listen 127.0.0.1:8765          # TCP, any number of connections

All connections of a TCP server share its games. Both transports run on an asyncio loop:
the games change only on it, one request at a time, in arrival order per connection; the
bots' decisions and the slow methods (``log.verify``, ``log.replay``) run in worker threads
(``background.py``), and ``game.wait`` waits on the loop, so their replies come when they are
ready (match them by id) while the connection's later requests are answered. stdout carries
only protocol replies; diagnostics go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import BinaryIO

from nataterra_core.search.budget import MAX_SECONDS

from .admission import (
    DEFAULT_CONNECTIONS_PER_ADDRESS,
    DEFAULT_MAX_CONNECTIONS,
    Admission,
    connection_cap,
)
from .background import (
    DEFAULT_BOT_SECONDS,
    DEFAULT_WORK_SECONDS,
    DEFAULT_WORKERS,
    Answering,
    Background,
)
from .bots import DEFAULT_MAX_BOT_TIME
from .errors import ProtocolCode
from .framing import DEFAULT_MAX_FRAME_BYTES, BadHeader, Frame, Framer, Oversized, make_framer
from .games import Games
from .lifecycle import DEFAULT_MAX_GAMES
from .protocol import DEFAULT_MAX_BATCH, Dispatcher, error_reply
from .store import Store, StoreError
from .store_tools import default_store, open_default_store, open_store
from .waiting import DEFAULT_WAITING_SECONDS, MAX_WAITING_SECONDS

__all__ = ["Admission", "Server", "connection_cap", "main", "parse_listen"]

READ_SIZE = 65536
DEFAULT_GAMES_PER_CLIENT = 100
"""Games one TCP connection may create (``--max-games-per-client``)."""
DEFAULT_IDLE_TIMEOUT = 30.0
"""Seconds a TCP client may take to send one whole frame once it has begun it."""


class Server:
    """A dispatcher over one game registry, answering framed byte streams."""

    def __init__(
        self,
        framing: str = "newline",
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        *,
        test_seeds: bool = False,
        max_games: int = DEFAULT_MAX_GAMES,
        max_batch: int = DEFAULT_MAX_BATCH,
        store: Store | None = None,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        games_per_client: int = DEFAULT_GAMES_PER_CLIENT,
        bots_inline: bool = True,
        workers: int = DEFAULT_WORKERS,
        bot_seconds: float = DEFAULT_BOT_SECONDS,
        max_bot_time: float = DEFAULT_MAX_BOT_TIME,
        work_seconds: float = DEFAULT_WORK_SECONDS,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        connections_per_address: int = DEFAULT_CONNECTIONS_PER_ADDRESS,
        waiting_seconds: float = DEFAULT_WAITING_SECONDS,
    ):
        """``bots_inline``: until a transport serves (which hands the bots to its worker
        pool), the bots play inside the call that gave them the turn, as the in-process
        :attr:`dispatcher` expects (``False``: resumed games' bots wait for the pool)."""
        self.idle_timeout = idle_timeout
        self.max_connections = max_connections
        self.connections_per_address = connections_per_address
        self.games_per_client = games_per_client
        self.max_batch = max_batch
        self.framing = framing
        self.max_frame_bytes = max_frame_bytes
        self.games = Games(
            test_seeds=test_seeds,
            max_games=max_games,
            store=store,
            bots_inline=bots_inline,
            max_bot_time=max_bot_time,
            waiting_seconds=waiting_seconds,
        )
        self.workers, self.bot_seconds, self.work_seconds = workers, bot_seconds, work_seconds
        self.dispatcher = Dispatcher(self.games.methods(), max_batch=max_batch)
        make_framer(framing, max_frame_bytes)  # an unknown framing fails here, not per client

    def announce_key(self) -> None:
        """Print the identity key that certifies every game's receipt key (a tournament
        publishes it beforehand) on stderr, after the address."""
        key = self.games.host.server_key.public
        print(f"nataterra-rpc: server key {key}", file=sys.stderr)
        sys.stderr.flush()

    def framer(self) -> Framer:
        """A fresh framer for one stream."""
        return make_framer(self.framing, self.max_frame_bytes)

    def answer(self, frame: Frame, dispatcher: Dispatcher | None = None) -> bytes | None:
        """The reply body to one frame (``None``: nothing to send), by ``dispatcher`` (a
        connection's own) or the server's, every method called here and now."""
        if isinstance(frame, Oversized | BadHeader):
            return self.framing_error(frame)
        return (dispatcher or self.dispatcher).handle(frame)

    def framing_error(self, frame: Oversized | BadHeader) -> bytes:
        """The reply to a frame the framer could not cut out whole."""
        if isinstance(frame, Oversized):
            return error_reply(
                ProtocolCode.INVALID_REQUEST,
                {"reason": f"frame of {frame.size} bytes exceeds {self.max_frame_bytes}"},
            )
        return error_reply(ProtocolCode.PARSE_ERROR, {"reason": frame.reason})

    def background(self) -> Background:
        """The worker pools for a transport's loop (:meth:`Background.start` it there)."""
        return Background(
            self.games.host,
            workers=self.workers,
            bot_seconds=self.bot_seconds,
            work_seconds=self.work_seconds,
        )

    def serve_stream(self, reader: BinaryIO, writer: BinaryIO) -> None:
        """Answer frames from ``reader`` on ``writer`` until end of input (and every request
        read is answered)."""
        asyncio.run(self._serve_stream(reader, writer))

    async def _serve_stream(self, reader: BinaryIO, writer: BinaryIO) -> None:
        background = self.background()
        background.start()
        framer = self.framer()

        async def send(reply: bytes) -> None:
            writer.write(framer.encode(reply))
            writer.flush()

        answering = Answering(self.dispatcher, background, send)
        try:
            async for data in _chunks(reader):
                for frame in framer.feed(data):
                    await self._start(answering, frame, send)
            await answering.finish()
        finally:
            await background.close()

    async def _start(
        self, answering: Answering, frame: Frame, send: Callable[[bytes], Awaitable[None]]
    ) -> None:
        if isinstance(frame, Oversized | BadHeader):
            await send(self.framing_error(frame))
        else:
            await answering.start(frame)

    async def serve_tcp(self, host: str, port: int) -> None:
        """Listen on ``host:port`` (port 0: any free port) until cancelled."""
        background = self.background()
        background.start()
        admission = Admission(connection_cap(self.max_connections), self.connections_per_address)

        async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            peer = writer.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
            refusal = admission.admit(address)
            if refusal is not None:
                await self._refuse(writer, refusal)
                return
            try:
                await self._connection(reader, writer, background)
            finally:
                admission.leave(address)

        server = await asyncio.start_server(connected, host, port)
        for sock in server.sockets:
            address = sock.getsockname()
            print(f"nataterra-rpc: listening on {address[0]}:{address[1]}", file=sys.stderr)
        self.announce_key()
        try:
            async with server:
                await server.serve_forever()
        finally:
            await background.close()

    async def _refuse(self, writer: asyncio.StreamWriter, reason: str) -> None:
        """Tell a connection over a cap why (a JSON-RPC error) and close it."""
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            writer.write(
                self.framer().encode(error_reply(ProtocolCode.INVALID_REQUEST, {"reason": reason}))
            )
            await asyncio.wait_for(writer.drain(), 1.0)
        writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await writer.wait_closed()

    async def _connection(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        background: Background,
    ) -> None:
        framer = self.framer()
        # Each connection has its own quota of games (--max-games-per-client).
        methods = self.games.methods(games_per_client=self.games_per_client)
        dispatcher = Dispatcher(methods, max_batch=self.max_batch)
        writing = asyncio.Lock()

        async def send(reply: bytes) -> None:
            async with writing:
                writer.write(framer.encode(reply))
                await writer.drain()

        answering = Answering(dispatcher, background, send)
        loop = asyncio.get_running_loop()
        # A frame must arrive whole within --idle-timeout of its first byte: the deadline is
        # not moved by each byte (a frame trickled a byte at a time would hold on forever).
        deadline: float | None = None
        try:
            while True:
                timeout = None if deadline is None else max(0.0, deadline - loop.time())
                try:
                    data = await asyncio.wait_for(reader.read(READ_SIZE), timeout)
                except TimeoutError:
                    reason = f"a frame was left half-sent: not whole within {self.idle_timeout:g} s"
                    await send(error_reply(ProtocolCode.INVALID_REQUEST, {"reason": reason}))
                    break
                if not data:
                    break
                frames = framer.feed(data)
                if not framer.pending:
                    deadline = None
                elif frames or deadline is None:  # a new frame began in this chunk
                    deadline = loop.time() + self.idle_timeout
                for frame in frames:
                    await self._start(answering, frame, send)
            await answering.finish()
        except (ConnectionError, OSError):
            pass  # the client went away; its games stay for the others
        finally:
            answering.abandon()
            writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()


async def _chunks(reader: BinaryIO) -> AsyncIterator[bytes]:
    """What ``reader`` gives, read by a thread of its own (reading blocks; the loop and the
    bots go on meanwhile), one chunk ahead at most, until end of input. The thread is a
    daemon: a server stopped with its input still open does not wait for it."""
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue(maxsize=1)
    read = getattr(reader, "read1", reader.read)  # read1: whatever is there, no waiting

    def pump() -> None:
        while True:
            try:
                data = read(READ_SIZE)
            except (OSError, ValueError):
                data = b""
            asyncio.run_coroutine_threadsafe(chunks.put(data), loop).result()
            if not data:
                return

    threading.Thread(target=pump, name="nataterra-stdin", daemon=True).start()
    while data := await chunks.get():
        yield data


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a host and a port."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.removeprefix("[").removesuffix("]"), int(port)


def open_chosen_store(where: str | None, say: Callable[[str], None]) -> Store:
    """The store a ``--store`` value names (``None``: the default, with its one-time
    import of the old default directory, said with ``say``)."""
    return open_default_store(say) if where is None else open_store(where)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return int(text)


def _seconds_up_to(most: float) -> Callable[[str], float]:
    """A parser of a positive number of seconds, at most ``most``."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and 0 < value <= most):
            shown = f"{most:.0f}" if most.is_integer() else f"{most:g}"
            raise argparse.ArgumentTypeError(
                f"expected seconds above 0 and at most {shown}, got {text!r}"
            )
        return value

    return seconds


_seconds = _seconds_up_to(MAX_SECONDS)
"""A positive number of seconds, at most an hour (``--max-bot-time``)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nataterra-rpc",
        description="Games of every registered rule system over JSON-RPC 2.0 (stdio by "
        "default). See docs/RPC.md.",
    )
    parser.add_argument(
        "--framing",
        choices=("newline", "content-length"),
        default="newline",
        help="newline-delimited JSON (default) or LSP-style Content-Length headers",
    )
    parser.add_argument(
        "--listen",
        metavar="HOST:PORT",
        type=parse_listen,
        help="serve TCP on HOST:PORT instead of stdio (port 0: any free port, printed on stderr)",
    )
    parser.add_argument(
        "--max-frame-bytes",
        type=_positive,
        default=DEFAULT_MAX_FRAME_BYTES,
        help=f"largest frame accepted (default {DEFAULT_MAX_FRAME_BYTES})",
    )
    parser.add_argument(
        "--store",
        metavar="STORE",
        help="keep every game here and serve the stored ones: a directory (a log and a 0600 "
        "secret file a game), a path ending in .sqlite3 (SQLite) or a postgresql:// URL "
        f"(default: {default_store()}; docs/SERVER.md)",
    )
    parser.add_argument(
        "--no-store",
        action="store_true",
        help="keep games in memory only (lost when the server stops)",
    )
    parser.add_argument(
        "--max-games",
        type=_positive,
        default=DEFAULT_MAX_GAMES,
        help=f"games held at once (default {DEFAULT_MAX_GAMES})",
    )
    parser.add_argument(
        "--max-batch",
        type=_positive,
        default=DEFAULT_MAX_BATCH,
        help=f"requests in one batch at most (default {DEFAULT_MAX_BATCH})",
    )
    parser.add_argument(
        "--max-games-per-client",
        type=_positive,
        default=DEFAULT_GAMES_PER_CLIENT,
        help=f"games one TCP connection may create (default {DEFAULT_GAMES_PER_CLIENT})",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=DEFAULT_IDLE_TIMEOUT,
        help="seconds a TCP client may take to send a whole frame once begun "
        f"(default {DEFAULT_IDLE_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-connections",
        type=_positive,
        default=DEFAULT_MAX_CONNECTIONS,
        help="TCP connections served at once; more are refused with -32600 (default "
        f"{DEFAULT_MAX_CONNECTIONS}, lowered to fit the descriptor limit)",
    )
    parser.add_argument(
        "--max-connections-per-address",
        type=_positive,
        default=DEFAULT_CONNECTIONS_PER_ADDRESS,
        help="TCP connections served at once from one client address (default "
        f"{DEFAULT_CONNECTIONS_PER_ADDRESS})",
    )
    parser.add_argument(
        "--workers",
        type=_positive,
        default=DEFAULT_WORKERS,
        help="threads for the bots' decisions, and as many for log.verify and log.replay "
        f"(default {DEFAULT_WORKERS})",
    )
    parser.add_argument(
        "--bot-seconds",
        type=float,
        default=DEFAULT_BOT_SECONDS,
        help="longest bot decision; an overrunning bot's seat goes to the random legal player "
        f"(default {DEFAULT_BOT_SECONDS:g})",
    )
    parser.add_argument(
        "--max-bot-time",
        type=_seconds,
        default=DEFAULT_MAX_BOT_TIME,
        help="longest a bot thinks per decision, in seconds: a search bot's time budget and "
        f"its iteration budget are cut there (default {DEFAULT_MAX_BOT_TIME:g})",
    )
    parser.add_argument(
        "--work-seconds",
        type=float,
        default=DEFAULT_WORK_SECONDS,
        help=f"longest log.verify or log.replay (default {DEFAULT_WORK_SECONDS:g})",
    )
    parser.add_argument(
        "--waiting-seconds",
        type=_seconds_up_to(MAX_WAITING_SECONDS),
        default=DEFAULT_WAITING_SECONDS,
        help="how long a game created with seat seeds may wait for its seats' game.join "
        f"before it expires (default {DEFAULT_WAITING_SECONDS:.0f}, at most "
        f"{MAX_WAITING_SECONDS:.0f})",
    )
    parser.add_argument(
        "--test-seeds",
        action="store_true",
        help="accept game.create's public seed (reproducible dice anyone can derive: for "
        "tests and demos only, never for real games)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server; the exit code (0 at end of input, 1 if it cannot start, 130 on
    Ctrl-C)."""
    args = _parser().parse_args(argv)

    def say(line: str) -> None:
        print(f"nataterra-rpc: {line}", file=sys.stderr)

    try:
        store = None if args.no_store else open_chosen_store(args.store, say)
        server = Server(
            args.framing,
            args.max_frame_bytes,
            test_seeds=args.test_seeds,
            max_games=args.max_games,
            max_batch=args.max_batch,
            store=store,
            idle_timeout=args.idle_timeout,
            games_per_client=args.max_games_per_client,
            bots_inline=False,
            workers=args.workers,
            bot_seconds=args.bot_seconds,
            max_bot_time=args.max_bot_time,
            work_seconds=args.work_seconds,
            max_connections=args.max_connections,
            connections_per_address=args.max_connections_per_address,
            waiting_seconds=args.waiting_seconds,
        )
    except (StoreError, OSError) as exc:  # a damaged key, an unreadable store: no traceback
        say(f"cannot open the store: {exc}")
        return 1
    try:
        if args.listen is None:
            server.announce_key()
            server.serve_stream(sys.stdin.buffer, sys.stdout.buffer)
        else:
            asyncio.run(server.serve_tcp(*args.listen))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0  # the client closed our stdout: nobody is left to answer
    return 0
