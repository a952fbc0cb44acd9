"""What the multi-process tests share: the library's games, one rule system per game package
under ``nataterra_core.games`` (by registry id; the test-only systems the test process
registers, which a server subprocess does not run, left out), and a ``nataterra-rpc`` process
on a store, listening on a free port."""

from __future__ import annotations

import socket
import subprocess

from rpc_helpers import Client, start_server

from nataterra_core.kernel.registry import BUILTIN_PACKAGE, RuleSystem, systems

__all__ = ["GAMES", "SEATS", "listen"]


def _games() -> dict[str, RuleSystem]:
    by_package: dict[str, RuleSystem] = {}
    for record in systems():  # sorted by id: a package's main system before its variants
        module = record.decider.__module__
        if module.startswith(f"{BUILTIN_PACKAGE}."):
            by_package.setdefault(module.split(".")[2], record)
    return {record.id: record for record in by_package.values()}


GAMES = sorted(_games())
"""The registry id of each game the library ships (a server runs them all)."""
SEATS = {
    rules: record.default_seats[min(record.default_seats)] for rules, record in _games().items()
}
"""Each game's seats at its smallest number of players."""


def listen(url: str, *more: str) -> tuple[subprocess.Popen[bytes], Client, socket.socket]:
    """A ``nataterra-rpc --test-seeds`` on the store ``url``, listening on a free port, and
    a client of it (its socket, to close)."""
    process = start_server("--listen", "127.0.0.1:0", "--store", url, *more)
    assert process.stderr is not None
    announced = process.stderr.readline().decode()
    assert "listening on" in announced, announced
    sock = socket.create_connection(("127.0.0.1", int(announced.rsplit(":", 1)[1])), timeout=60)
    return process, Client(sock.makefile("rb"), sock.makefile("wb")), sock
