"""A stored game whose log a crash cut between its ``reveal`` and its ``end`` (the directory
store fsyncs record by record) is resumed, not set aside: the server writes the end record as
a game that never stopped writes it, so the stored log is the uncut log byte for byte and
verifies as complete. Each store (directory, SQLite, PostgreSQL) read embedded, and a
``nataterra-rpc`` process reading one off its loop; every registered game that keeps secrets."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from every_game_logs import short_log
from nataterra_adapters.rpc.games import Games, LogParams, ViewParams
from nataterra_adapters.rpc.store import Secret, Store, StoredGame
from nataterra_adapters.rpc.store_files import DirectoryStore
from nataterra_adapters.rpc.store_postgres import PostgresStore
from nataterra_adapters.rpc.store_sqlite import SqliteStore
from nataterra_adapters.rpc.store_tools import check_game
from rpc_helpers import Client, start_server

from nataterra_core.game import verify_log
from nataterra_core.kernel.registry import systems

SECRET_KEEPING = [record.id for record in systems() if not record.perfect_information]
BACKENDS: dict[str, Callable[[pytest.FixtureRequest, Path], Store]] = {
    "directory": lambda request, path: DirectoryStore(path / "games"),
    "sqlite": lambda request, path: SqliteStore(path / "games.sqlite3"),
    "postgres": lambda request, path: PostgresStore(request.getfixturevalue("postgres_url")),
}


@pytest.fixture(params=BACKENDS.values(), ids=BACKENDS.keys())
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    made: Store = request.param(request, tmp_path)
    yield made
    made.close()


def _finished(game: str) -> list[bytes]:
    """A finished game of ``game`` played by the library (its lines, without newlines),
    with the game id ``cut-GAME``."""
    lines = short_log(game, game_id=f"cut-{game}").splitlines()
    assert [json.loads(line)["kind"] for line in lines[-2:]] == ["reveal", "end"]
    return lines


def _store_cut(store: Store, game_id: str, lines: list[bytes]) -> None:
    """``lines`` stored without the end record, as a crash after the reveal's append left them."""
    seed = bytes.fromhex(json.loads(lines[-2])["server_seed"])
    seats = json.loads(lines[0])["seats"]
    store.create(game_id, Secret(seed, {seat: f"token-{seat}" for seat in seats}), lines[:-1])


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_a_store_load_writes_the_missing_end(store: Store, game: str) -> None:
    lines = _finished(game)
    whole = b"".join(line + b"\n" for line in lines)
    game_id = f"cut-{game}"
    _store_cut(store, game_id, lines)
    assert verify_log(store.log(game_id)).status == "incomplete"
    assert check_game(StoredGame(game_id, store.secret(game_id), store.log(game_id))) is None

    games = Games(test_seeds=True, store=store)
    view = games.view(ViewParams(game_id=game_id))
    assert view.version == len(lines) - 1
    assert not games.host.reader.set_aside
    assert store.log(game_id) == whole
    assert verify_log(store.log(game_id)).valid
    assert [(g.game_id, g.status) for g in store.games()] == [(game_id, "finished")]
    assert games.log(LogParams(game_id=game_id)).log == whole.decode()
    # Read again (another process, a restart): the whole log, nothing appended twice.
    again = Games(test_seeds=True, store=store)
    assert again.view(ViewParams(game_id=game_id)).version == len(lines) - 1
    assert store.log(game_id) == whole


def test_a_server_process_writes_the_missing_end(tmp_path: Path) -> None:
    """The server's own path: the game read in the store's thread, re-executed in a worker
    thread, the end record written by the store thread before the reply."""
    directory = tmp_path / "games"
    store = DirectoryStore(directory)
    wanted = {}
    for game in SECRET_KEEPING:
        lines = _finished(game)
        game_id = f"cut-{game}"
        _store_cut(store, game_id, lines)
        wanted[game_id] = b"".join(line + b"\n" for line in lines)
    store.close()
    process = start_server("--store", str(directory))
    assert process.stdin is not None and process.stdout is not None
    client = Client(process.stdout, process.stdin)
    try:
        for game_id, whole in wanted.items():
            view = client.ok("game.view", game_id=game_id)
            assert view["version"] == whole.count(b"\n") - 1
            assert client.ok("game.log", game_id=game_id)["log"] == whole.decode()
    finally:
        _, stderr = process.communicate(timeout=30)
    assert "not resuming" not in stderr.decode() and "Traceback" not in stderr.decode()
    for game_id, whole in wanted.items():
        assert (directory / f"{game_id}.jsonl").read_bytes() == whole
        assert verify_log(whole).valid
