"""How many idle connections does ``nataterra serve`` survive at a small descriptor limit?

    python benchmarks/web_connections.py [--limit 256] [--bound 600] [-- serve options...]

Starts ``nataterra serve --listen 127.0.0.1:0 --no-store`` with its descriptor limit lowered
to ``--limit`` and, for each kind of idle client, opens connections one at a time (from
loopback addresses 127.0.0.10 onwards, 20 per address, so that a per-address cap does not
hide the total) up to ``--bound``:

- *slow-header*: an HTTP request whose head never ends (``GET / HTTP/1.1``, a ``Host``
  line, then nothing);
- *idle-websocket*: a WebSocket upgraded on ``/rpc`` that sends nothing.

After every 10 connections a new client (from 127.0.0.2) asks for ``GET /``; printed are
the number of idle connections tried when it was first refused with a 503
(``first_refused_at``: a cap, a clear answer) and when it first got no answer within 3 s
(``first_silent_at``: the server out of descriptors; ``>BOUND``: never), then how it is
answered a second after the idle connections are closed (``after_close``). Each kind runs
against a fresh server; the lines the server wrote on stderr are counted after it stops
(``stderr_lines=``).
Options after ``--`` are passed to ``nataterra serve`` (``--max-connections 150``).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

PER_ADDRESS = 20


def _limit_descriptors(limit: int) -> Callable[[], None]:
    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    return lower


def start_server(limit: int, options: list[str]) -> tuple[subprocess.Popen[bytes], int, str]:
    """The server, its port and the file its stderr goes to."""
    handle, log = tempfile.mkstemp(prefix="serve-", suffix=".log")
    code = "import sys; from nataterra_adapters.cli import main; sys.exit(main())"
    server = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "--listen", "127.0.0.1:0", "--no-store", *options],
        stderr=handle,
        preexec_fn=_limit_descriptors(limit),
    )
    os.close(handle)
    deadline = time.monotonic() + 60
    while True:
        with open(log, encoding="utf-8") as shown:
            for line in shown:
                if "open http://" in line:
                    port = int(line.split("http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
                    return server, port, log
        if time.monotonic() > deadline or server.poll() is not None:
            raise RuntimeError("the server did not start")
        time.sleep(0.1)


def _connect(port: int, source: str, timeout: float = 3.0) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout, (source, 0))


def slow_header(port: int, source: str) -> socket.socket:
    """A connection whose request head never ends."""
    connection = _connect(port, source)
    connection.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
    return connection


def idle_websocket(port: int, source: str) -> socket.socket:
    """A WebSocket on ``/rpc``, upgraded, that sends nothing (or the refusal's socket)."""
    connection = _connect(port, source)
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall(
        (
            f"GET /rpc HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    with contextlib.suppress(OSError):
        connection.recv(4096)  # the 101 (or a refusal)
    return connection


def probe(port: int) -> str:
    """How a new client's ``GET /`` is answered within 3 s: ``served`` (200), ``refused``
    (503, a clear answer) or ``silent`` (nothing, a reset, or another status)."""
    try:
        with _connect(port, "127.0.0.2") as client:
            client.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            status = client.recv(64)[:12]
    except OSError:
        return "silent"
    return {b"HTTP/1.1 200": "served", b"HTTP/1.1 503": "refused"}.get(status, "silent")


def measure(
    kind: str, opener: Callable[[int, str], socket.socket], args: argparse.Namespace
) -> None:
    server, port, log = start_server(args.limit, args.serve)
    opened: list[socket.socket] = []
    first: dict[str, int] = {}
    started = time.monotonic()
    try:
        for index in range(args.bound):
            source = f"127.0.{index // PER_ADDRESS // 240}.{10 + index // PER_ADDRESS % 240}"
            with contextlib.suppress(OSError):  # refused or timed out: still counted as tried
                opened.append(opener(port, source))
            if (index + 1) % 10 == 0:
                first.setdefault(probe(port), index + 1)
                if "silent" in first:
                    break
    finally:
        for connection in opened:
            connection.close()
        time.sleep(1.0)
        after = probe(port)
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    with open(log, encoding="utf-8", errors="replace") as written:
        lines = written.read().splitlines()
    os.unlink(log)
    refused, silent = first.get("refused", "none"), first.get("silent", f">{args.bound}")
    busy = sum("Too many open files" in line for line in lines)
    print(
        f"{kind}: limit={args.limit} first_refused_at={refused} first_silent_at={silent} "
        f"after_close={after} "
        f"stderr_lines={len(lines)} too_many_open_files_lines={busy} "
        f"seconds={time.monotonic() - started:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=256, help="the server's descriptor limit")
    parser.add_argument("--bound", type=int, default=600, help="idle connections tried at most")
    parser.add_argument("serve", nargs="*", help="options for nataterra serve (after --)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.bound)), hard))
    measure("slow-header", slow_header, args)
    measure("idle-websocket", idle_websocket, args)


if __name__ == "__main__":
    main()
