"""Games waiting for their seats' ``game.join`` expire (issue 33), in memory and in every
store alike: the expiry is kept with the waiting game (the creating server's clock plus its
``--waiting-seconds``); an expired one goes on its next use or by the periodic sweep, each
removed from a store by one process only, and a client asking for it is told it expired, by
any process sharing the store (which remembers the expired ids for a week). Every clock here
is a test's own: nothing sleeps."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from nataterra_adapters.rpc.errors import GameError, GameErrorCode
from nataterra_adapters.rpc.games import CreateParams, Games, JoinParams, SeatParams, ViewParams
from nataterra_adapters.rpc.store import EXPIRED_KEPT_SECONDS, Pending, Secret, Store
from nataterra_adapters.rpc.store_files import DirectoryStore
from nataterra_adapters.rpc.store_postgres import PostgresStore
from nataterra_adapters.rpc.store_sqlite import SqliteStore

HOUR = 3600.0
SECRET = Secret(b"\x01" * 32, {"a": "t-a", "b": "t-b"})


class Clock:
    """Unix time as a test sets it."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


Opener = Callable[[], Store | None]
"""Opens the place under test once more (another process's view of it; ``None``: memory)."""


def _place(request: pytest.FixtureRequest, tmp_path: Path, kind: str) -> Opener:
    if kind == "memory":
        return lambda: None
    if kind == "directory":
        return lambda: DirectoryStore(tmp_path / "games")
    if kind == "sqlite":
        return lambda: SqliteStore(tmp_path / "games.sqlite3")
    url = request.getfixturevalue("postgres_url")
    return lambda: PostgresStore(url)


@pytest.fixture(params=["directory", "sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    return _place(request, tmp_path, request.param)


@pytest.fixture(params=["memory", "directory", "sqlite", "postgres"])
def anywhere(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    return _place(request, tmp_path, request.param)


@pytest.fixture
def store(opener: Opener) -> Iterator[Store]:
    opened = opener()
    assert opened is not None
    yield opened
    opened.close()


def _pending(expires: float | None) -> Pending:
    return Pending("liars-dice", ("a", "b"), None, SECRET, {}, expires)


def test_the_store_removes_a_waiting_game_once_it_has_expired_and_only_then(
    store: Store,
) -> None:
    store.wait("early", _pending(100.0))
    store.wait("late", _pending(200.0))
    store.wait("kept-before", _pending(None))  # kept before waiting games expired
    assert store.expire_waiting(99.5) == []
    assert store.pending("early") == _pending(100.0)
    after, added = store.contribute("late", "a", "x")  # a contribution keeps the expiry
    assert added and after.expires == 200.0 and store.pending("late") == after
    assert store.expire_waiting(100.0) == ["early"]
    assert store.expire_waiting(100.0) == []  # another process's sweep finds it gone
    assert store.pending("early") is None
    assert store.expire_waiting(300.0, "kept-before") == []
    assert store.expire_waiting(300.0, "late") == ["late"]
    assert store.expire_waiting(1e12) == []
    assert store.waiting_games() == ["kept-before"]
    store.wait("early", _pending(400.0))  # its id is free again
    assert store.pending("early") == _pending(400.0)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_two_processes_sweeping_at_once_remove_each_expired_game_once(
    request: pytest.FixtureRequest, tmp_path: Path, backend: str
) -> None:
    opener = _place(request, tmp_path, backend)
    stores = [opener(), opener()]
    first = stores[0]
    assert first is not None
    ids = [f"w-{n:02}" for n in range(24)]
    for game_id in ids:
        first.wait(game_id, _pending(100.0))
    first.wait("alive", _pending(500.0))
    start = threading.Barrier(len(stores))
    removed: list[list[str]] = [[] for _ in stores]

    def sweep(index: int, store: Store) -> None:
        start.wait()
        for game_id in ids[index::2]:  # one by one (a read's removal) and all at once
            removed[index] += store.expire_waiting(150.0, game_id)
        removed[index] += store.expire_waiting(150.0)

    threads = [
        threading.Thread(target=sweep, args=(index, store))
        for index, store in enumerate(stores)
        if store is not None
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(removed[0] + removed[1]) == ids  # each once, by one of the two
    assert first.waiting_games() == ["alive"]
    for store in stores:
        assert store is not None
        store.close()


def _games(where: Opener, clock: Clock, **config: Any) -> Games:
    return Games(store=where(), waiting_seconds=HOUR, clock=clock, **config)


def _expired(call: Callable[[], object]) -> GameError:
    with pytest.raises(GameError) as refused:
        call()
    error = refused.value
    assert error.code == GameErrorCode.UNKNOWN_GAME, error.message
    assert "expired" in error.message and "--waiting-seconds" in error.message
    assert error.data["expired"] is True
    return error


def test_a_waiting_game_expires_on_its_next_use_with_one_clear_error(
    anywhere: Opener, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = Clock()
    games = _games(anywhere, clock, max_games=1)
    made = games.create(CreateParams(rules="liars-dice", players=2, seat_seeds=True))
    game_id, (first, second) = made.game_id, list(made.tokens)
    games.join(JoinParams(game_id=game_id, token=made.tokens[first], client_seed="f"))
    clock.now += HOUR - 1
    assert games.view(ViewParams(game_id=game_id)).waiting_for == (second,)
    clock.now += 1  # its hour is up
    error = _expired(lambda: games.view(ViewParams(game_id=game_id)))
    again = _expired(
        lambda: games.join(JoinParams(game_id=game_id, token=made.tokens[second], client_seed="s"))
    )
    assert again.message == error.message
    _expired(lambda: games.legal_commands(SeatParams(game_id=game_id, token=made.tokens[first])))
    assert capsys.readouterr().err.count(f"{game_id} expired waiting for its seats") == 1
    store = games.host.store
    if store is not None:
        assert store.pending(game_id) is None and store.waiting_games() == []
        restarted = _games(anywhere, clock)  # a restart, or another process: it expired
        assert (
            _expired(lambda: restarted.view(ViewParams(game_id=game_id))).message == error.message
        )
    # The slot it held in --max-games (1 here) is free, and so is its id.
    again_made = games.create(
        CreateParams(rules="liars-dice", players=2, seat_seeds=True, game_id=game_id)
    )
    assert games.view(ViewParams(game_id=again_made.game_id)).waiting_for == (first, second)


def test_a_copy_read_from_the_store_after_its_expiry_is_refused_and_removed(
    opener: Opener, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another process (or a restart) reads the expired game from the store: the client is
    told it expired, and the store's copy goes."""
    clock = Clock()
    one = _games(opener, clock)
    made = one.create(CreateParams(rules="kaladan", players=2, seat_seeds=True))
    clock.now += 2 * HOUR
    other = _games(opener, clock)
    seat = next(iter(made.tokens))
    _expired(
        lambda: other.join(
            JoinParams(game_id=made.game_id, token=made.tokens[seat], client_seed="x")
        )
    )
    assert capsys.readouterr().err.count(f"{made.game_id} expired waiting for its seats") == 1
    store = other.host.store
    assert store is not None and store.pending(made.game_id) is None


def test_the_sweep_removes_expired_games_once_across_processes(
    opener: Opener, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = Clock()
    one = _games(opener, clock)
    created = [
        one.create(CreateParams(rules="liars-dice", players=2, seat_seeds=True)).game_id
        for _ in range(3)
    ]
    clock.now += HOUR / 2
    young = one.create(CreateParams(rules="liars-dice", players=2, seat_seeds=True)).game_id
    shared = one.host.store is not None and one.host.store.shared
    sweepers = [one, _games(opener, clock)] if shared else [one]
    assert [asyncio.run(games.host.seeds.expire()) for games in sweepers] == [[]] * len(sweepers)
    clock.now += HOUR / 2
    removed = [asyncio.run(games.host.seeds.expire()) for games in sweepers]
    assert sorted(g for ids in removed for g in ids) == sorted(created)  # each by one process
    said = capsys.readouterr().err
    assert all(said.count(f"{game_id} expired waiting for its seats") == 1 for game_id in created)
    assert one.host.games_in_play() == 1
    for game_id in created:
        _expired(lambda game_id=game_id: one.view(ViewParams(game_id=game_id)))
    store = one.host.store
    assert store is not None and store.waiting_games() == [young]
    assert one.view(ViewParams(game_id=young)).waiting_for


def test_a_game_started_before_its_expiry_never_expires(anywhere: Opener) -> None:
    clock = Clock()
    games = _games(anywhere, clock)
    made = games.create(CreateParams(rules="liars-dice", players=2, seat_seeds=True))
    for seat, token in made.tokens.items():
        games.join(JoinParams(game_id=made.game_id, token=token, client_seed=seat))
    clock.now += 10 * HOUR
    assert asyncio.run(games.host.seeds.expire()) == []
    view = games.view(ViewParams(game_id=made.game_id))
    assert view.version >= 1 and view.waiting_for == ()


def test_the_store_remembers_an_expired_game_for_a_week_then_lets_it_go(
    store: Store, opener: Opener
) -> None:
    store.wait("early", _pending(100.0))
    store.wait("late", _pending(200.0))
    assert store.expired("early") is None  # waiting, not expired
    assert store.expire_waiting(150.0, "early") == ["early"]
    assert store.expire_waiting(250.0) == ["late"]
    other = opener()  # another process, or a restart
    assert other is not None
    assert (other.expired("early"), other.expired("late"), other.expired("never")) == (
        100.0,
        200.0,
        None,
    )
    store.expire_waiting(100.0 + EXPIRED_KEPT_SECONDS - 1)  # a week less a second: kept
    assert other.expired("early") == 100.0
    other.expire_waiting(100.0 + EXPIRED_KEPT_SECONDS)  # a sweep a week after: let go
    assert (store.expired("early"), store.expired("late")) == (None, 200.0)
    store.wait("late", _pending(900.0))  # its id is used again: no longer expired
    assert other.expired("late") is None
    store.wait("gone", _pending(100.0))
    store.expire_waiting(100.0, "gone")
    store.create("gone", SECRET, [b'{"kind":"header"}'])  # a game started under its id
    assert other.expired("gone") is None
    other.close()


def test_every_process_answers_expired_for_a_game_another_process_swept(
    opener: Opener, capsys: pytest.CaptureFixture[str]
) -> None:
    """A process that never held the game (another one, or a restart) answers as the one
    that swept it: error 7 with ``expired``, on a read and on a ``game.join``, until the
    store lets the expired id go a week later (then: no such game)."""
    clock = Clock()
    one = _games(opener, clock)
    made = one.create(CreateParams(rules="liars-dice", players=2, seat_seeds=True))
    game_id, token = made.game_id, next(iter(made.tokens.values()))
    clock.now += HOUR
    assert asyncio.run(one.host.seeds.expire()) == [game_id]
    swept = _expired(lambda: one.view(ViewParams(game_id=game_id)))
    other = _games(opener, clock)
    assert _expired(lambda: other.view(ViewParams(game_id=game_id))).message == swept.message
    joining = _games(opener, clock)
    _expired(lambda: joining.join(JoinParams(game_id=game_id, token=token, client_seed="x")))
    served = _games(opener, clock)  # a server reads the game off its loop first
    asyncio.run(served.host.reader.ready(game_id))
    _expired(lambda: served.legal_commands(SeatParams(game_id=game_id, token=token)))
    assert capsys.readouterr().err.count(f"{game_id} expired waiting for its seats") == 1
    clock.now += EXPIRED_KEPT_SECONDS
    asyncio.run(one.host.seeds.expire())
    with pytest.raises(GameError) as unknown:
        _games(opener, clock).view(ViewParams(game_id=game_id))
    assert unknown.value.code == GameErrorCode.UNKNOWN_GAME
    assert "expired" not in unknown.value.data


def test_a_sqlite_file_of_schema_3_gains_the_expired_table(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    SqliteStore(path).close()
    with sqlite3.connect(path) as db:  # as a build before expired games were kept left it
        db.execute("DROP TABLE expired")
        db.execute("PRAGMA user_version = 3")
    store = SqliteStore(path)
    store.wait("w", _pending(100.0))
    assert store.expire_waiting(100.0) == ["w"] and store.expired("w") == 100.0
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (4,)
