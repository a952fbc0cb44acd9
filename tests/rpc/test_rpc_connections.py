"""Issue 32 item 2: a TCP server's connections are bounded (a whole frame within the idle
timeout; caps on connections, in all and per client address, with a clear refusal).

All traffic stays on loopback addresses (127.0.0.x); every loop is bounded."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
from rpc_helpers import start_server, stop_server

INFO = b'{"jsonrpc":"2.0","method":"server.info","id":1}\n'


@pytest.fixture
def capped() -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    process = start_server(
        "--listen",
        "127.0.0.1:0",
        "--no-store",
        "--max-connections",
        "4",
        "--max-connections-per-address",
        "2",
    )
    try:
        assert process.stderr is not None
        port = int(process.stderr.readline().decode().rsplit(":", 1)[1])
        yield process, port
    finally:
        stop_server(process)


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def _served(connection: socket.socket) -> bool:
    connection.sendall(INFO)
    return b'"result"' in connection.makefile("rb").readline()


def _refusal(connection: socket.socket) -> str:
    """The reason of the refusal the server sent before closing (it must close)."""
    reader = connection.makefile("rb")
    reply = json.loads(reader.readline())
    assert reply["error"]["code"] == -32600, reply
    assert reader.read() == b""  # closed by the server
    return str(reply["error"]["data"]["reason"])


def test_connections_are_capped_per_address_and_in_all(
    capped: tuple[subprocess.Popen[bytes], int],
) -> None:
    process, port = capped
    first, second = _connect(port), _connect(port)
    assert _served(first) and _served(second)
    assert "--max-connections-per-address" in _refusal(_connect(port))
    others = [_connect(port, "127.0.0.2"), _connect(port, "127.0.0.2")]
    assert all(_served(other) for other in others)
    assert "--max-connections" in _refusal(_connect(port, "127.0.0.3"))
    first.close()
    deadline = time.monotonic() + 10
    while True:  # the server notices the close on its next read
        again = _connect(port)
        again.sendall(INFO)
        answer = json.loads(again.makefile("rb").readline())
        if "result" in answer:
            break
        assert time.monotonic() < deadline, answer
        again.close()
        time.sleep(0.1)
    for connection in [second, again, *others]:
        connection.close()
    process.terminate()
    logged = process.communicate(timeout=10)[1].decode()
    # Two refusals within the rate window: one line, not a line per refusal.
    assert logged.count("refused") == 1, logged


def test_a_frame_trickled_byte_by_byte_is_cut_at_the_idle_timeout() -> None:
    """The timeout bounds the whole frame: today's timer restarted at every byte."""
    process = start_server("--listen", "127.0.0.1:0", "--no-store", "--idle-timeout", "1")
    try:
        assert process.stderr is not None
        port = int(process.stderr.readline().decode().rsplit(":", 1)[1])
        with _connect(port) as trickling:
            trickling.settimeout(0.3)
            started, reply = time.monotonic(), b""
            for byte in INFO[:-1][:20]:  # 20 bytes at 0.3 s each: 6 s, never the newline
                try:
                    trickling.sendall(bytes([byte]))
                    reply += trickling.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if reply.endswith(b"\n"):
                    break
            assert b"half-sent" in reply, reply
            assert json.loads(reply)["error"]["code"] == -32600
            assert time.monotonic() - started < 3.0
    finally:
        stop_server(process)
