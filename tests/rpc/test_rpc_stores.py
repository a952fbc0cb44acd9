"""The store interface and its backends (issue 33 items 1 and 5): the directory store and
SQLite behave alike; an append at a seq the store has passed loses (nothing doubled); the
stored lines are the log's bytes; a game whose rules version this build does not run is set
aside, listed and exportable; games are read when asked for, not when the server starts;
finished games leave the games in play; the old default directory is imported once."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from nataterra_adapters.rpc import store_tools
from nataterra_adapters.rpc.errors import GameError, GameErrorCode
from nataterra_adapters.rpc.games import (
    ApplyParams,
    CreateParams,
    Games,
    JoinParams,
    LogParams,
    SeatParams,
    ViewParams,
)
from nataterra_adapters.rpc.sharing import Sharing
from nataterra_adapters.rpc.store import (
    ANSWERS_KEPT,
    Answer,
    GameExists,
    NotWaiting,
    Pending,
    Secret,
    SharedStore,
    StaleAppend,
    Store,
    StoredGame,
    StoreUnavailable,
    Tail,
)
from nataterra_adapters.rpc.store_files import DirectoryStore
from nataterra_adapters.rpc.store_postgres import PostgresStore
from nataterra_adapters.rpc.store_sqlite import SqliteStore
from nataterra_adapters.rpc.store_tools import (
    check_game,
    copy_games,
    export_games,
    open_store,
    survey,
)
from served_games import GAMES

from nataterra_core.game import verify_log
from nataterra_core.kernel.registry import system, systems

BACKENDS: dict[str, Callable[[pytest.FixtureRequest, Path], Store]] = {
    "directory": lambda request, path: DirectoryStore(path / "games"),
    "sqlite": lambda request, path: SqliteStore(path / "games.sqlite3"),
    "postgres": lambda request, path: PostgresStore(request.getfixturevalue("postgres_url")),
}
SECRET = Secret(b"\x01" * 32, {"a": "t"}, {"b": "random"})


@pytest.fixture(params=BACKENDS.values(), ids=BACKENDS.keys())
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    made: Store = request.param(request, tmp_path)
    yield made
    made.close()


def test_open_store_picks_the_backend_by_its_name(tmp_path: Path) -> None:
    assert isinstance(open_store(tmp_path / "dir"), DirectoryStore)
    assert isinstance(open_store(str(tmp_path / "x" / "games.sqlite3")), SqliteStore)


def test_records_are_appended_at_their_seq_and_a_stale_append_loses(store: Store) -> None:
    store.create("g", SECRET, [b'{"seq":0}'])
    store.append("g", 1, [b'{"seq":1}', b'{"seq":2}'])
    with pytest.raises(StaleAppend) as lost:
        store.append("g", 2, [b'{"seq":2,"other":true}'])
    assert lost.value.stored == 3
    assert store.log("g") == b'{"seq":0}\n{"seq":1}\n{"seq":2}\n'
    with pytest.raises(GameExists):
        store.create("g", SECRET, [b"{}"])
    assert store.secret("g") == SECRET
    [listing] = store.games()
    assert (listing.game_id, listing.status, listing.records, listing.bots) == (
        "g",
        "live",
        3,
        True,
    )
    store.append("g", 3, [b'{"kind":"end","seq":3}'])
    assert store.games()[0].status == "finished"
    store.set_aside("g", "its rules are not run here")
    assert store.games()[0].reason == "its rules are not run here"
    store.set_aside("g", None)
    assert store.games()[0].status == "finished"


def test_the_first_server_key_kept_wins(store: Store) -> None:
    assert store.server_key() is None
    assert store.keep_server_key(b"\x02" * 32) == b"\x02" * 32
    assert store.keep_server_key(b"\x03" * 32) == b"\x02" * 32


def test_two_writers_on_one_sqlite_file_never_both_append_a_record(tmp_path: Path) -> None:
    """Two connections (as two processes have): exactly one append of record 1 wins."""
    path = tmp_path / "games.sqlite3"
    first, second = SqliteStore(path), SqliteStore(path)
    first.create("g", SECRET, [b"h"])
    first.append("g", 1, [b"mine"])
    with pytest.raises(StaleAppend):
        second.append("g", 1, [b"theirs"])
    assert second.log("g") == b"h\nmine\n"
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def _play(games: Games, made: Any, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        view = games.view(ViewParams(game_id=made.game_id))
        if view.result is not None:
            return
        seat = view.acting[0]
        token = made.tokens[seat]
        legal = games.legal_commands(SeatParams(game_id=made.game_id, token=token))
        command = msgspec.to_builtins(rng.choice(legal.commands))
        games.apply(ApplyParams(game_id=made.game_id, token=token, command=command))


@pytest.mark.parametrize("rules", [record.id for record in systems()])
def test_every_game_served_from_sqlite_exports_the_log_byte_for_byte(
    tmp_path: Path, rules: str
) -> None:
    store = SqliteStore(tmp_path / "games.sqlite3")
    games = Games(test_seeds=True, store=store)
    made = games.create(CreateParams(rules=rules, seed=3))
    _play(games, made, random.Random(5), 6)
    lines = games.session(made.game_id).lines
    assert store.log(made.game_id) == b"".join(line + b"\n" for line in lines)
    [copied] = export_games(store, tmp_path / "out", [made.game_id])
    assert copied.done and copied.verified
    exported = (tmp_path / "out" / f"{made.game_id}.jsonl").read_bytes()
    assert verify_log(exported).status in ("valid", "incomplete")
    resumed = Games(test_seeds=True, store=SqliteStore(tmp_path / "games.sqlite3"))
    assert resumed.session(made.game_id).lines == lines


@pytest.mark.parametrize("rules", GAMES)
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_two_servers_racing_on_one_record_append_it_once(
    backend: str, rules: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Two servers on one database, both copies at the same version, both act: exactly one
    append wins, the other answers version_conflict and drops its copy (its next answer is
    read from the store); nothing is doubled and the game re-executes."""
    where = (
        str(tmp_path / "games.sqlite3")
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    one = Games(test_seeds=True, store=open_store(where))
    two = Games(test_seeds=True, store=open_store(where))
    made = one.create(CreateParams(rules=rules, seed=4))
    token = made.tokens[made.acting[0]]
    legal = two.legal_commands(SeatParams(game_id=made.game_id, token=token)).commands
    command = msgspec.to_builtins(legal[0])
    one.apply(ApplyParams(game_id=made.game_id, token=token, command=command))
    with pytest.raises(GameError) as refused:
        two.apply(ApplyParams(game_id=made.game_id, token=token, command=command))
    assert refused.value.code == GameErrorCode.VERSION_CONFLICT
    store = open_store(where)
    stored = store.log(made.game_id)
    assert len(stored.splitlines()) == made.version + 2
    assert two.log(LogParams(game_id=made.game_id)).version == len(stored.splitlines()) - 1
    assert check_game(StoredGame(made.game_id, store.secret(made.game_id), stored)) is None


def _unknown_version(store: Store, game_id: str) -> None:
    """Rewrite a stored game's header as if a later build had written it."""
    log = store.log(game_id).splitlines()
    header = json.loads(log[0])
    header["rules"]["version"] = 999
    secret = store.secret(game_id)
    target = SqliteStore(Path(store.location).parent / "later.sqlite3")
    target.create(game_id, secret, [json.dumps(header).encode(), *log[1:]])


def test_a_game_of_a_rules_version_not_run_here_is_set_aside_listed_and_exported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SqliteStore(tmp_path / "games.sqlite3")
    made = Games(test_seeds=True, store=store).create(CreateParams(rules="kaladan", seed=6))
    _unknown_version(store, made.game_id)
    later = SqliteStore(tmp_path / "later.sqlite3")
    [listing] = survey(later)
    assert listing.status == "set aside" and "999" in (listing.reason or ""), listing
    games = Games(store=later)
    with pytest.raises(GameError) as unknown:
        games.view(ViewParams(game_id=made.game_id))
    assert unknown.value.code == GameErrorCode.UNKNOWN_GAME
    assert f"not resuming {made.game_id}: " in capsys.readouterr().err
    assert later.games()[0].status == "set aside"
    [exported] = export_games(later, tmp_path / "out")
    assert exported.done and not exported.verified and "999" in exported.note
    assert (tmp_path / "out" / f"{made.game_id}.jsonl").read_bytes() == later.log(made.game_id)


def test_games_are_read_when_asked_for_not_when_the_server_starts(tmp_path: Path) -> None:
    store = DirectoryStore(tmp_path)
    made = Games(test_seeds=True, store=store).create(CreateParams(rules="kaladan", seed=7))
    again = Games(test_seeds=True, store=DirectoryStore(tmp_path))
    assert again.host.version_of(made.game_id) is None  # nothing read yet
    assert again.view(ViewParams(game_id=made.game_id)).version == made.version
    assert again.host.version_of(made.game_id) == made.version


class _Away(SqliteStore):
    """A SQLite store whose database is away (as PostgreSQL restarting) while ``away``."""

    away = False

    def secret(self, game_id: str) -> Secret:
        if self.away:
            raise StoreUnavailable("the database: the database system is starting up")
        return super().secret(game_id)


def test_a_store_away_refuses_the_read_and_sets_no_game_aside(tmp_path: Path) -> None:
    """A game read while the store cannot be reached is a STORE_FAILED error, not a
    damaged game set aside for good (a PostgreSQL restart made games unknown so)."""
    where = tmp_path / "g.sqlite3"
    made = Games(test_seeds=True, store=SqliteStore(where)).create(
        CreateParams(rules="liars-dice", seed=3)
    )
    store = _Away(where)
    games = Games(test_seeds=True, store=store)
    store.away = True
    with pytest.raises(GameError) as away:
        games.view(ViewParams(game_id=made.game_id))
    assert away.value.code == GameErrorCode.STORE_FAILED, away.value
    assert "starting up" in str(away.value)
    store.away = False
    assert games.view(ViewParams(game_id=made.game_id)).version == made.version


def test_finished_games_leave_the_games_in_play(tmp_path: Path) -> None:
    """--max-games counts games in play: games the bots finished make room (the cap was
    full for good before, even after a restart)."""
    games = Games(test_seeds=True, max_games=3, store=SqliteStore(tmp_path / "g.sqlite3"))
    bots = {"red": "random", "blue": "random"}
    finished = [
        games.create(CreateParams(rules="liars-dice", seed=seed, bots=bots)) for seed in range(5)
    ]
    for made in finished:  # stored, and served read-only on demand
        log = games.log(LogParams(game_id=made.game_id))
        assert log.revealed and verify_log(log.log.encode()).valid  # type: ignore[union-attr]
    live = [games.create(CreateParams(rules="kaladan", seed=seed)) for seed in range(10, 13)]
    with pytest.raises(GameError) as full:
        games.create(CreateParams(rules="kaladan", seed=9))
    assert full.value.code == GameErrorCode.SETUP_REJECTED and "--max-games" in full.value.message
    assert len(live) == 3


def test_the_old_default_directory_is_imported_once_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    old = DirectoryStore(tmp_path / "nataterra" / "rpc-games")
    games = Games(test_seeds=True, store=old)
    made = games.create(CreateParams(rules="kaladan", seed=8))
    said: list[str] = []
    store = store_tools.open_default_store(said.append)
    assert said == [
        f"imported 1 games from {old.directory} into {tmp_path / 'nataterra' / 'games.sqlite3'}"
        " (the directory is left as it was)"
    ]
    assert store.log(made.game_id) == old.log(made.game_id)
    assert store.server_key() == old.server_key()
    store.close()
    said.clear()
    store_tools.open_default_store(said.append).close()
    assert said == []


def test_migrate_copies_every_game_verified_between_any_two_stores(tmp_path: Path) -> None:
    source = DirectoryStore(tmp_path / "dir")
    games = Games(test_seeds=True, store=source)
    made = [
        games.create(CreateParams(rules=rules, seed=2, game_id=rules))
        for rules in ("kaladan", "liars-dice")
    ]
    target = SqliteStore(tmp_path / "games.sqlite3")
    copied = copy_games(source, target)
    assert [(c.game_id, c.done, c.verified) for c in copied] == sorted(
        (m.game_id, True, True) for m in made
    )
    again = copy_games(source, target)
    assert not any(c.done for c in again)
    back = DirectoryStore(tmp_path / "back")
    assert all(c.verified for c in copy_games(target, back))
    assert back.log(made[0].game_id) == source.log(made[0].game_id)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_servers_starting_at_once_make_the_schema_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Eight stores opened at the same moment on one new database: each opens, one server
    key is kept, and a game created through one is read through all."""
    from concurrent.futures import ThreadPoolExecutor

    where = (
        str(tmp_path / "games.sqlite3")
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    with ThreadPoolExecutor(8) as pool:
        stores = list(pool.map(lambda _: open_store(where), range(8)))
    keys = {store.keep_server_key(bytes([n]) * 32) for n, store in enumerate(stores)}
    assert len(keys) == 1
    stores[3].create("g", SECRET, [b"h"])
    assert all(store.log("g") == b"h\n" for store in stores)
    for store in stores:
        store.close()


_WRITER = """
import sys, time
from nataterra_adapters.rpc.store import Secret
from nataterra_adapters.rpc.store_sql import SqlStore
from nataterra_adapters.rpc.store_tools import open_store

store = open_store(sys.argv[1])
store.create("g", Secret(b"\\x01" * 32, {"a": "t"}), [b"h"])
run = SqlStore._run

def run_then_hang(self, db, query, *args):
    answer = run(self, db, query, *args)
    one_statement = "INSERT INTO records" in query and "WITH moved" in query  # PostgreSQL
    if one_statement or query.startswith("INSERT INTO records") and args[1] == 2:
        print("inside", flush=True)  # record 1 written, record 2 too: the commit never comes
        time.sleep(60)
    return answer

SqlStore._run = run_then_hang
store.append("g", 1, [b"one", b"two", b"three"])
"""


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_writer_killed_inside_its_transaction_leaves_no_half_append(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """kill -9 of a process in the middle of a three-record append: none of them is stored,
    and the next append at that seq is taken (a torn append cannot exist)."""
    import subprocess
    import sys

    where = (
        str(tmp_path / "games.sqlite3")
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    writer = subprocess.Popen(
        [sys.executable, "-c", _WRITER, where], stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "inside\n"
    finally:
        writer.kill()
        writer.wait(timeout=10)
    store = open_store(where)
    assert store.log("g") == b"h\n" and store.records("g") == 1
    store.append("g", 1, [b"again"])
    assert store.log("g") == b"h\nagain\n"
    store.close()


def test_a_waiting_game_takes_each_seats_contribution_once_and_goes_when_it_starts(
    store: Store,
) -> None:
    """Issue 33 item 2: a game waiting for its seats is kept in the store (secret, apart from
    any log); a contribution is added once, whoever asks; the first records replace it."""
    pending = Pending("liars-dice", ("a", "b"), {"dice": 3}, SECRET, {"b": "bot-1"})
    store.wait("w", pending)
    assert store.pending("w") == pending
    with pytest.raises(GameExists):
        store.wait("w", pending)
    after, added = store.contribute("w", "a", "mine")
    assert added and after.complete and after.contributions == {"b": "bot-1", "a": "mine"}
    again, added = store.contribute("w", "a", "other")
    assert not added and again.contributions["a"] == "mine"
    assert store.games() == []  # no records yet: not a game to list or export
    other = Secret(b"\x09" * 32, {"a": "t"})
    with pytest.raises(GameExists):  # another game cannot take the waiting game's id
        store.create("w", other, [b"h"])
    store.create("w", SECRET, [b"h"])
    assert store.pending("w") is None
    with pytest.raises(NotWaiting):
        store.contribute("w", "b", "late")
    with pytest.raises(GameExists):
        store.wait("w", pending)


def test_answers_are_kept_with_their_records_for_the_last_records(store: Store) -> None:
    """Answers for command_id retries go in the append of the records they answer; those of
    acts older than the last ANSWERS_KEPT records are let go."""
    first = Answer("a", "c-0", 1, b'["apply"]', b'{"version":1}')
    store.create("g", SECRET, [b"h", b"r1"], [first])
    assert store.answers("g") == [first]
    for seq in range(2, ANSWERS_KEPT + 3):
        answer = Answer("a", f"c-{seq}", seq, b"[]", b"{}")
        store.append("g", seq, [b"r"], [answer])
    records = ANSWERS_KEPT + 3
    kept = store.answers("g")  # the acts of the last ANSWERS_KEPT records
    assert [answer.version for answer in kept] == list(range(records - ANSWERS_KEPT, records))
    assert kept[-1].command_id == f"c-{records - 1}"
    assert b"c-" not in store.log("g")  # never through the log


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_copy_behind_reads_only_the_records_past_it_and_their_answers(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Issue 33 (catch-up): a shared store gives a game's records from a seq on, in order,
    and the answers of the acts among them; nothing past the last record."""
    store = BACKENDS[backend](request, tmp_path)
    assert isinstance(store, SharedStore)
    first = Answer("a", "c-1", 1, b"[]", b"{}")
    store.create("g", SECRET, [b"h", b"r1"], [first])
    later = Answer("a", "c-3", 3, b"[]", b'{"version":3}')
    store.append("g", 2, [b"r2", b"r3"], [later])
    assert store.since("g", 1) == Tail((b"r1", b"r2", b"r3"), (first, later))
    assert store.since("g", 2) == Tail((b"r2", b"r3"), (later,))
    assert store.since("g", 4) == store.since("g", 9) == store.since("none", 0) == Tail((), ())
    store.close()


def test_a_bot_seat_given_up_is_kept_in_the_secret(store: Store) -> None:
    store.create("g", SECRET, [b"h"])
    store.give_up("g", "b", "random")
    store.give_up("g", "c", "random")
    assert store.secret("g").bots == {"b": "random", "c": "random"}
    assert store.secret("g").server_seed == SECRET.server_seed


def test_a_waiting_game_and_a_kept_answer_outlive_the_process(tmp_path: Path) -> None:
    """Embedded, on SQLite: a second Games on the file (a restart, or another process)
    completes a game created waiting by the first, and answers a retry of a command_id
    applied through the first with the first answer, applying nothing twice."""
    where = str(tmp_path / "games.sqlite3")
    one = Games(store=open_store(where))
    made = one.create(CreateParams(rules="kaladan", players=2, seat_seeds=True))
    seats = list(made.seats)
    one.join(JoinParams(game_id=made.game_id, token=made.tokens[seats[0]], client_seed="x1"))
    two = Games(store=open_store(where))
    with pytest.raises(GameError) as twice:
        two.join(JoinParams(game_id=made.game_id, token=made.tokens[seats[0]], client_seed="x2"))
    assert twice.value.code == GameErrorCode.SETUP_REJECTED
    joined = two.join(
        JoinParams(game_id=made.game_id, token=made.tokens[seats[1]], client_seed="y1")
    )
    assert joined.started
    client_seed = msgspec.json.decode(open_store(where).log(made.game_id).splitlines()[0])
    assert client_seed["client_seed"] == f"{seats[0]}:x1;{seats[1]}:y1"
    acting = joined.acting[0]
    token = made.tokens[acting]
    legal = two.legal_commands(SeatParams(game_id=made.game_id, token=token)).commands
    params = ApplyParams(
        game_id=made.game_id,
        token=token,
        command=msgspec.to_builtins(legal[0]),
        expected_version=joined.version,
        command_id="c-1",
    )
    first = two.apply(params)
    three = Games(store=open_store(where))
    assert three.apply(params) == first
    assert open_store(where).records(made.game_id) == first.version + 1
    with pytest.raises(GameError) as reused:
        three.apply(msgspec.structs.replace(params, command={"type": "other.v1"}))
    assert reused.value.code == GameErrorCode.COMMAND_ID_REUSED


class _Kept(SqliteStore):
    """A SQLite store that notes the waiting games it is asked to keep."""

    waited: list[str]

    def wait(self, game_id: str, pending: Pending) -> None:
        self.waited.append(game_id)
        super().wait(game_id, pending)


@pytest.mark.parametrize("rules", GAMES)
def test_a_game_of_bots_alone_with_seat_seeds_starts_without_waiting_in_the_store(
    rules: str, tmp_path: Path
) -> None:
    """Its seats all contribute at once: nothing waits, so nothing is kept as waiting (a
    waiting row and the game's first records in one batch would race for the id), while
    a game with a person's seat is kept."""
    store = _Kept(tmp_path / "games.sqlite3")
    store.waited = []
    games = Games(store=store)
    record = next(record for record in systems() if record.id == rules)
    seats = record.default_seats[min(record.default_seats)]
    made = games.create(
        CreateParams(rules=rules, seat_seeds=True, bots=dict.fromkeys(seats, "random"))
    )
    assert store.waited == [] and store.pending(made.game_id) is None
    assert store.records(made.game_id) == len(games.session(made.game_id).lines) > 1
    person = games.create(
        CreateParams(rules=rules, seat_seeds=True, bots=dict.fromkeys(seats[1:], "random"))
    )
    assert store.waited == [person.game_id] and store.pending(person.game_id) is not None


def test_a_process_taking_a_bots_lease_plays_a_seat_given_up_elsewhere_randomly(
    tmp_path: Path,
) -> None:
    """Two processes hold one game; one hands a slow bot's seat to the random player. The
    other, taking the game's lease afresh, reads that from the store: it does not bring the
    slow bot back (its copy was read before the hand-over)."""
    where = str(tmp_path / "games.sqlite3")
    one, two = (Games(store=open_store(where), bots_inline=False) for _ in range(2))
    record = system(GAMES[0])
    bot = record.default_seats[min(record.default_seats)][1]
    bots = {bot: "search:1000000"}
    made = one.create(CreateParams(rules=record.id, bots=bots, seat_seeds=False))
    held_there = two.host.find(made.game_id, None)[0]  # read before the hand-over
    one.host.give_up(one.host.find(made.game_id, None)[0], bot)
    assert held_there.bots.names[bot] == "search:1000000"
    sharing = Sharing(two.host, bot_seconds=1.0)
    assert asyncio.run(sharing.lease(held_there))
    assert held_there.bots.names[bot] == "random"
    assert type(held_there.bots.players[bot]).__name__ == "RandomPlayer"
