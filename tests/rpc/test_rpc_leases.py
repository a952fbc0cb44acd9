"""Who asks the store for a bot's lease (issue 33, session 14): each ask costs a commit, so
only the processes that need it ask. Two servers on one SQLite file, in one event loop, the
store's notifications handed from one to the other by the test (PostgreSQL's NOTIFY in a
real deployment): the process that applies a person's command takes the lease for the bot's
turn it gives; the other, catching up from the notification, leaves the turn to it (one ask
per bot turn in all, every bot decision made once). A holder that dies: the next request
for the game after its lease expired takes the bots over (the sweep does the same, in
``test_rpc_postgres.py``)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from nataterra_adapters.rpc import sharing
from nataterra_adapters.rpc.background import Background
from nataterra_adapters.rpc.games import Games
from nataterra_adapters.rpc.store_sqlite import SqliteStore
from nataterra_adapters.rpc.wire import ApplyParams, CreateParams, SeatParams, ViewParams
from served_games import GAMES, SEATS

from nataterra_core.game import verify_log

BOT_TURNS = 3
"""The bot's turns each game is played to (a person's commands through either process
until then; a turn of some games takes many)."""


class Process:
    """One server's games, bots and store connection (as ``nataterra-rpc`` has them)."""

    def __init__(self, where: Path, bot_seconds: float = 30.0) -> None:
        self.store = SqliteStore(where)
        self.games = Games(test_seeds=True, store=self.store, bots_inline=False)
        self.background = Background(self.games.host, workers=1, bot_seconds=bot_seconds)
        self.methods = self.games.methods()

    async def call(self, method: str, params: msgspec.Struct) -> Any:
        return await self.background.invoke(self.methods[method], params)

    async def told(self, game_id: str) -> None:
        """The store's notification of the game's last append reaches this process."""
        sharing = self.background.sharing
        assert sharing is not None
        await sharing.told(game_id, self.store.records(game_id))

    async def settled(self) -> None:
        """Wait until no bot turn is under way here (its lease let go)."""
        await _until(lambda: not self.background.busy, "the bots' turns did not end")

    @property
    def tries(self) -> int:
        return self.games.host.lease_tries


async def _until(done: Callable[[], bool], why: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, why
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("rules", GAMES)
def test_only_the_process_that_gave_a_bot_its_turn_asks_for_the_lease(
    rules: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    person, bot = SEATS[rules][:2]
    monkeypatch.setattr(sharing, "SWEEP_SECONDS", 0.05)  # the sweeps do not ask either

    async def play() -> tuple[list[int], list[int], int, bytes]:
        processes = [Process(tmp_path / "games.sqlite3") for _ in range(2)]
        processes[0].background.start()
        made = await processes[0].call(
            "game.create", CreateParams(rules=rules, players=2, bots={bot: "random"}, seed=5)
        )
        game_id, token = made.game_id, made.tokens[person]
        await processes[0].settled()
        # The second starts now: starting, a process reads the stored games whose bots may
        # act and asks for their leases, knowing nothing of them (once).
        processes[1].background.start()
        await processes[1].call("game.view", ViewParams(game_id=game_id))  # both hold it
        rng, bot_turns = random.Random(3), int(processes[0].games.host.bot_moves > 0)
        try:
            for move in range(1000):
                if bot_turns >= BOT_TURNS:
                    break
                here, there = processes[move % 2], processes[1 - move % 2]
                view = await here.call("game.view", ViewParams(game_id=game_id, token=token))
                if view.result is not None:
                    break
                assert list(view.acting) == [person], view
                legal = await here.call(
                    "game.legal_commands", SeatParams(game_id=game_id, token=token)
                )
                command = msgspec.to_builtins(rng.choice(legal.commands))
                moved = here.games.host.bot_moves
                applied = ApplyParams(
                    game_id=game_id, token=token, command=command, expected_version=view.version
                )
                await here.call("game.apply", applied)
                asked = there.tries
                await there.told(game_id)  # the person's command, maybe a bot's turn after it
                await here.settled()
                await there.told(game_id)  # the bot's commands
                await there.settled()
                assert there.tries == asked, "a process told of a bot's turn asked for it"
                bot_turns += here.games.host.bot_moves > moved
            made_by = [process.games.host.bot_moves for process in processes]
            tries = [process.tries for process in processes]
            return made_by, tries, bot_turns, processes[0].store.log(game_id)
        finally:
            for process in processes:
                await process.background.close()

    made_by, tries, bot_turns, log = asyncio.run(play())
    records = [json.loads(line) for line in log.splitlines()]
    by_bot = [r for r in records if r["kind"] == "command" and r.get("seat") == bot]
    assert sum(made_by) == len(by_bot) > 0, (made_by, len(by_bot))
    assert sum(tries) == bot_turns, (tries, bot_turns)  # one ask a bot turn, by its giver
    assert verify_log(log).status != "invalid"


def test_a_dead_holders_lease_is_taken_over_by_the_next_request_once_it_expired(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process died holding the game's lease: the person's command through another process
    is refused it, and no request asks again while it may be live (the refused process
    counts a lease's length: each ask costs a commit); the first request after that takes
    the bots over (the sweep is kept away)."""
    monkeypatch.setattr(sharing, "SWEEP_SECONDS", 3600.0)
    monkeypatch.setattr(sharing, "LEASE_MARGIN_SECONDS", 1.5)
    rules = GAMES[0]
    person, bot = SEATS[rules][:2]

    async def play() -> None:
        where = tmp_path / "games.sqlite3"
        process = Process(where, bot_seconds=0.5)
        process.background.start()
        try:
            made = await process.call(
                "game.create", CreateParams(rules=rules, players=2, bots={bot: "random"}, seed=5)
            )
            game_id, token = made.game_id, made.tokens[person]
            await process.settled()
            assert process.store.lease(game_id, "a process that died", 600.0)
            asked, moved = process.tries, process.games.host.bot_moves
            rng = random.Random(4)
            while True:  # the person's commands, up to the one that gives the bot its turn
                view = await process.call("game.view", ViewParams(game_id=game_id, token=token))
                if bot in view.acting:
                    break
                legal = await process.call(
                    "game.legal_commands", SeatParams(game_id=game_id, token=token)
                )
                applied = ApplyParams(
                    game_id=game_id,
                    token=token,
                    command=msgspec.to_builtins(rng.choice(legal.commands)),
                    expected_version=view.version,
                )
                await process.call("game.apply", applied)
            refused_at = time.monotonic()
            await process.settled()
            assert process.tries == asked + 1 and process.games.host.bot_moves == moved
            with sqlite3.connect(where) as db:  # the dead holder's lease expires
                db.execute("UPDATE leases SET expires = 0 WHERE game_id = ?", (game_id,))
            await process.call("game.view", ViewParams(game_id=game_id))
            if time.monotonic() < refused_at + 1.0:  # (a machine this slow skips this check)
                assert process.tries == asked + 1, "asked while the lease may be live"

            async def taken_over() -> bool:
                await process.call("game.view", ViewParams(game_id=game_id))
                await process.settled()
                return process.games.host.bot_moves > moved

            deadline = time.monotonic() + 60
            while not await taken_over():
                assert time.monotonic() < deadline, "the bots were not taken over"
                await asyncio.sleep(0.1)
            assert process.tries == asked + 2  # the refusal, then the takeover
        finally:
            await process.background.close()

    asyncio.run(play())
