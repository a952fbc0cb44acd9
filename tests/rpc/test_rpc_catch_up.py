"""A copy of a game behind the shared store catches up in place (issue 33, session 13): it
reads only the records it lacks and re-executes them, each compared with its stored bytes,
with the answers kept for their acts; a copy that cannot take them is read again whole, and
a stored record that does not re-execute sets the game aside, as a whole read does."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path

import msgspec
import pytest
from nataterra_adapters.rpc import sharing
from nataterra_adapters.rpc.games import ApplyParams, CreateParams, Games, SeatParams, ViewParams
from nataterra_adapters.rpc.held import Game
from nataterra_adapters.rpc.sharing import Sharing
from nataterra_adapters.rpc.store_sqlite import SqliteStore
from nataterra_adapters.rpc.writes import Writes
from served_games import GAMES

MOVES = 5


def _two_servers(tmp_path: Path, rules: str) -> tuple[Games, Games, CreateParams, str]:
    """Two servers on one SQLite file and a game made on the first, read by the second."""
    where = tmp_path / "games.sqlite3"
    one = Games(test_seeds=True, store=SqliteStore(where))
    two = Games(test_seeds=True, store=SqliteStore(where))
    made = one.create(CreateParams(rules=rules, seed=7))
    two.session(made.game_id)  # the second holds a copy now
    return one, two, made, made.game_id


def _move(
    games: Games, game_id: str, tokens: dict[str, str], command_id: str
) -> tuple[ApplyParams, object] | None:
    """A random legal act of the acting seat through ``games`` (``None``: the game is over)."""
    view = games.view(ViewParams(game_id=game_id))
    if view.result is not None:
        return None
    token = tokens[view.acting[0]]
    legal = games.legal_commands(SeatParams(game_id=game_id, token=token)).commands
    command = msgspec.to_builtins(random.Random(command_id).choice(legal))
    params = ApplyParams(game_id=game_id, token=token, command=command, command_id=command_id)
    return params, games.apply(params)


def _catch_up(games: Games, game_id: str) -> None:
    shared = Sharing.of(games.host, bot_seconds=60)
    assert shared is not None
    asyncio.run(shared.catch_up(game_id))


def _held(games: Games, game_id: str) -> Game:
    game = games.host.held(game_id)
    assert game is not None
    return game


@pytest.mark.parametrize("rules", GAMES)
def test_a_copy_behind_takes_the_records_it_lacks_in_place(tmp_path: Path, rules: str) -> None:
    one, two, made, game_id = _two_servers(tmp_path, rules)
    tokens = dict(made.tokens)
    copy = _held(two, game_id)
    acts = [_move(one, game_id, tokens, f"c-{n}") for n in range(MOVES)]
    _catch_up(two, game_id)
    assert _held(two, game_id) is copy  # not read again: the same copy, caught up
    assert copy.session.lines == one.session(game_id).lines
    assert copy.log is not None and copy.log.stored == len(copy.session.lines)
    for act in acts:  # a retry through the second process gets the first answer
        if act is not None:
            params, answer = act
            assert two.apply(params) == answer
    assert copy.session.lines == one.session(game_id).lines  # and acts no more


def test_a_copy_far_behind_is_read_again_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sharing, "MAX_FOLDED", 1)
    one, two, made, game_id = _two_servers(tmp_path, "liars-dice")
    copy = _held(two, game_id)
    _move(one, game_id, dict(made.tokens), "c-0")
    _catch_up(two, game_id)
    again = _held(two, game_id)
    assert again is not copy and again.session.lines == one.session(game_id).lines
    assert copy.log is not None and copy.log.lost is not None  # the old copy writes nothing


def test_a_stored_record_out_of_place_sets_the_game_aside_as_a_whole_read_does(
    tmp_path: Path,
) -> None:
    _, two, _, game_id = _two_servers(tmp_path, "liars-dice")
    copy = _held(two, game_id)
    store = SqliteStore(tmp_path / "games.sqlite3")
    forged = copy.session.lines[-1].replace(b'"seq":', b'"seq": ', 1)  # not what re-executes
    store.append(game_id, len(copy.session.lines), [forged])
    _catch_up(two, game_id)
    assert two.host.held(game_id) is None
    assert game_id in two.host.reader.set_aside


class _SlowStore:
    """An append that waits for the test (a batch in flight)."""

    location = "memory"
    shared = True

    def __init__(self) -> None:
        self.started, self.go = threading.Event(), threading.Event()

    def append(self, game_id: str, seq: int, lines: object, answers: object = ()) -> None:
        self.started.set()
        assert self.go.wait(30)


def test_a_batch_stored_after_a_catch_up_in_place_does_not_count_the_copy_back() -> None:
    """A copy caught up in place while its own batch was in flight counts the records
    another process stored after it; the batch's success must not count them back (the next
    append then named a seq the store had passed, and was refused)."""

    async def run() -> None:
        store = _SlowStore()
        writes = Writes(store, stored=lambda log: None)  # type: ignore[arg-type]
        writes.defer()
        log = writes.log("g", 9)
        log.write(b"nine")
        assert await asyncio.get_running_loop().run_in_executor(None, store.started.wait, 30)
        log.stored = 11  # a catch-up in place took record 10, stored after nine
        store.go.set()
        await writes.durable()
        assert log.stored == 11 and log.lost is None
        await writes.close()

    asyncio.run(run())
