"""A server's work off its event loop: the bots' decisions and the slow methods, in worker
threads, each within a time bound.

One request never stalls a server: ``game.create`` and ``game.apply`` answer as soon as the
caller's command is stored, and the bots' commands follow one decision at a time. For each
game with a bot seat that may act, one task on the loop takes the state (immutable), has a
worker thread choose the bot's command on its seat's view (:meth:`~.bots.Bots.choose`), and
applies it on the loop (:meth:`~.lifecycle.GameHost.bot_move`, which refuses it if a person
acted meanwhile: the bot looks again). The games are only ever changed on the loop, so they
need no locks. ``log.verify`` and ``log.replay`` (``Method.offload``) run in a second pool.

Why threads, not processes: the engine is pure Python, so a thread that thinks holds the GIL
— but CPython hands it over every switch interval (5 ms), so the loop still answers between a
bot's slices (``benchmarks/rpc_stall.py``: another client's ``server.info`` in milliseconds
while a game of search bots plays, against the whole game's length inside ``game.create``
before). Processes would use a second core but would have to ship every player (its seeded
stream, its caches) and every state across on each decision.

While a bot's decision is worked on (one with a choice: a forced one is answered at once),
its seat is in the game's ``thinking`` (:meth:`~.lifecycle.GameHost.think`), told to the
watchers when it starts and when it ends. A search bot thinks within its budget, capped at
the server's ``--max-bot-time`` (:data:`~.bots.DEFAULT_MAX_BOT_TIME`, wall clock).

Bounds: a bot decision that overruns ``bot_seconds`` is dropped and the seat is played by the
random legal player for the rest of the game, which the store keeps (a restart or another
process does not bring the slow bot back; a thread cannot be stopped: its late answer is
ignored; its decision has a bounded size anyway, the search player's iterations); a slow
method that overruns ``work_seconds`` is answered with ``too_long``; a game's bots send at
most :data:`~.bots.MAX_BOT_COMMANDS` commands after a person's. A periodic sweep lets the
games that waited too long for their seats expire (:meth:`~.waiting.WaitingGames.expire`).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from nataterra_core.kernel import CommandRejected

from .bots import MAX_BOT_COMMANDS
from .errors import GameError, GameErrorCode
from .held import Game
from .lifecycle import GameHost
from .protocol import Dispatcher, Method
from .sharing import SWEEP_SECONDS, Sharing
from .store import StoreError

__all__ = [
    "DEFAULT_BOT_SECONDS",
    "DEFAULT_WORKERS",
    "DEFAULT_WORK_SECONDS",
    "MAX_PENDING",
    "Answering",
    "Background",
]

MAX_PENDING = 16
"""Requests of one connection under way at once (waiting, or in the worker pool); reading
its next frames waits for one of them to end."""
DEFAULT_WORKERS = 2
"""Threads for the bots' decisions, and as many for the slow methods (``--workers``)."""
DEFAULT_BOT_SECONDS = 60.0
"""The longest one bot decision may take (``--bot-seconds``)."""
DEFAULT_WORK_SECONDS = 60.0
"""The longest a ``log.verify`` or ``log.replay`` may take, waiting included
(``--work-seconds``)."""


class Background:
    """The worker pools of one server, the bots' turns of its games and the calls of its
    methods (:meth:`invoke`, the dispatcher's :data:`~.protocol.Invoke`).

    Start it on the running loop (:meth:`start`); :meth:`close` stops the bots' turns (their
    games stay as they are, resumed from the store by the next server).
    """

    def __init__(
        self,
        host: GameHost,
        *,
        workers: int = DEFAULT_WORKERS,
        bot_seconds: float = DEFAULT_BOT_SECONDS,
        work_seconds: float = DEFAULT_WORK_SECONDS,
    ) -> None:
        self._host = host
        self._bot_pool = ThreadPoolExecutor(workers, thread_name_prefix="nataterra-bot")
        self._work_pool = ThreadPoolExecutor(workers, thread_name_prefix="nataterra-work")
        self._bot_seconds = bot_seconds
        self._work_seconds = work_seconds
        self._turns: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()  # turns given while a game's bot task was ending
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sharing = Sharing.of(host, bot_seconds=bot_seconds)
        self._chores: list[asyncio.Task[None]] = []

    @property
    def sharing(self) -> Sharing | None:
        """This server's part in a store other processes write too (``None``: not shared)."""
        return self._sharing

    @property
    def busy(self) -> bool:
        """Whether a game's bot turns are under way here."""
        return bool(self._turns)

    def start(self) -> None:
        """Take over the store's writes and the bots' turns (those already due first), and
        wake the stored games whose bots were to move; call on the running loop."""
        loop = self._loop = asyncio.get_running_loop()
        self._host.serve()
        self._host.run_bots_with(self._turn)
        self._chores.append(loop.create_task(self._host.reader.wake(), name="waking stored games"))
        self._chores.append(loop.create_task(self._expiring(), name="expiring waiting games"))
        if self._sharing is not None:
            self._chores.append(loop.create_task(self._sharing.sweep(self._turn), name="sweep"))
            self._chores.append(loop.create_task(self._sharing.listen(), name="listen"))

    async def _expiring(self) -> None:
        """Every :data:`~.sharing.SWEEP_SECONDS`: the waiting games that expired go."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self._host.seeds.expire()
            except (StoreError, OSError) as exc:  # the store away: the next sweep tries again
                print(f"nataterra-rpc: the sweep could not expire games: {exc}", file=sys.stderr)

    async def close(self) -> None:
        """Stop the bots' turns and let the pools go (a running decision ends on its own)."""
        turns = [*self._turns.values(), *self._chores]
        for task in turns:
            task.cancel()
        for task in turns:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
        self._work_pool.shutdown(wait=False, cancel_futures=True)
        await self._host.close()

    async def invoke(self, method: Method, params: Any) -> Any:
        """Call a method as a server does: the game it names read from the store first (off
        the loop), waiting ones awaited, slow ones in the work pool within ``work_seconds``,
        the rest here on the loop; the answer once every record it may show is stored."""
        host = self._host
        named = getattr(params, "game_id", None)
        if isinstance(named, str):
            if method.acts and self._sharing is not None:
                await self._sharing.catch_up(named)
            elif self._sharing is not None:
                await self._sharing.settled(named)
            await host.reader.ready(named)
            self._resume(named)
        mark = host.mark()
        result = await self._call(method, params)
        await host.durable()
        if not isinstance(named, str):
            named = getattr(result, "game_id", None)  # game.create without an id
        refusal = host.refusal(named if isinstance(named, str) else None, mark)
        if refusal is not None:
            raise refusal
        return result

    async def _call(self, method: Method, params: Any) -> Any:
        if method.waits is not None:
            return await method.waits(params)
        if not method.offload:
            return method.handler(params)
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self._work_pool, method.handler, params), self._work_seconds
            )
        except TimeoutError:
            raise GameError(
                GameErrorCode.TOO_LONG,
                f"the work took longer than the server's bound of {self._work_seconds:g} s",
            ) from None

    def _resume(self, game_id: str) -> None:
        """A request for ``game_id``, held here: if one of its bots may act and nobody is
        known to move it (a lease elsewhere may have expired: its holder died), take the
        bots' turns over here."""
        game, sharing = self._host.held(game_id), self._sharing
        if (
            game is None
            or sharing is None
            or game_id in self._turns
            or game.bots.acting(game.session) is None
            or not sharing.may_lease(game_id)
        ):
            return
        self._turn(game)

    def _turn(self, game: Game, here: bool = False) -> None:
        """A bot seat of ``game`` may act: play its turns, unless that is under way already
        (the running task looks again after every command). ``here``: the command that gave
        the turn was applied by this process (with a shared store, it takes the lease at
        once; a turn given by another process's command is that one's)."""
        if here and self._sharing is not None:
            self._sharing.claim(game.game_id)
        running = self._turns.get(game.game_id)
        if running is not None and not running.done():
            self._again.add(game.game_id)  # looked at again once the running task ends
            return
        assert self._loop is not None
        task = self._loop.create_task(self._play(game), name=f"bots of {game.game_id}")
        self._turns[game.game_id] = task
        task.add_done_callback(lambda done: self._forget(game.game_id, done))

    def _forget(self, game_id: str, task: asyncio.Task[None]) -> None:
        if self._turns.get(game_id) is task:
            del self._turns[game_id]
        if game_id in self._again and not task.cancelled():
            # A turn given after the task's last look (while it stored its last move and
            # let the lease go): without this the bot waited for the next sweep.
            self._again.discard(game_id)
            game = self._host.held(game_id)
            if game is not None and game.bots.acting(game.session) is not None:
                self._turn(game)

    async def _play(self, game: Game) -> None:
        """The bots' commands, one decision at a time, until none of them may act (with a
        shared store, under the game's lease, on the game as the store has it)."""
        sharing = self._sharing
        if sharing is None:
            await self._decide(game)
            return
        try:
            await self._decide(game, sharing)
        finally:
            held = self._host.held(game.game_id)
            looked = 0 if held is None else len(held.session.lines)
            # The lease goes only once the last move is stored: the next holder, reading
            # the store after taking it, must see that move.
            with contextlib.suppress(asyncio.CancelledError):
                await self._host.durable()
            if await sharing.release(game, looked):
                self._again.add(game.game_id)  # a person's command came meanwhile

    async def _decide(self, game: Game, sharing: Sharing | None = None) -> None:
        loop = asyncio.get_running_loop()
        sent = 0
        game_id = game.game_id
        while sent < MAX_BOT_COMMANDS:
            self._again.discard(game_id)  # this look covers the turns given so far
            held = self._host.held(game_id)
            if held is None or (seat := held.bots.acting(held.session)) is None:
                return
            if sharing is not None:
                if not await sharing.lease(held):
                    return  # another process moves this game's bots
                # Read the store after taking the lease, not before: the last holder may
                # have moved the bot and let the lease go in between.
                await sharing.catch_up(game_id)  # a copy behind is read again
                held = self._host.held(game_id)  # (a copy dropped: the one read again)
                if held is None or (seat := held.bots.acting(held.session)) is None:
                    return
            game = held
            version, state, decider = game.version, game.session.state, game.session.decider
            thinking = loop.run_in_executor(
                self._bot_pool, game.bots.choose, game.system, decider, state, seat
            )
            self._host.think(game, seat, not game.bots.forced(decider, state, seat))
            try:
                command = await asyncio.wait_for(thinking, self._bot_seconds)
            except TimeoutError:
                _say(
                    f"{game.game_id}: {seat}'s bot overran {self._bot_seconds:g} s; "
                    "the random legal player takes the seat"
                )
                self._host.give_up(game, seat)
                continue
            except Exception as exc:  # a bot's failure stops its game's bots, not the server
                _say(f"{game.game_id}: {seat}'s bot failed ({exc!r}); its bots stop")
                return
            finally:
                self._host.think(game, seat, False)
            try:
                if self._host.bot_move(game, seat, command, version):
                    sent += 1
            except CommandRejected as exc:
                _say(f"{game.game_id}: {seat}'s bot chose a refused command ({exc}); its bots stop")
                return


class Answering:
    """The requests of one connection under way: each frame is answered by a task of its own
    (at most :data:`MAX_PENDING` at once), so a request that waits or works in a pool does
    not hold up the connection's next ones; the others are answered in arrival order."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        background: Background,
        send: Callable[[bytes], Awaitable[None]],
        answered: Callable[[bytes], None] | None = None,
    ) -> None:
        """``send``: writes one reply; ``answered``: told each frame once it is answered."""
        self._dispatcher = dispatcher
        self._background = background
        self._send = send
        self._answered = answered
        self._slots = asyncio.Semaphore(MAX_PENDING)
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, frame: bytes) -> None:
        """Start answering ``frame`` (after waiting for a free slot)."""
        await self._slots.acquire()
        task = asyncio.get_running_loop().create_task(self._answer(frame))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._slots.release()

    async def _answer(self, frame: bytes) -> None:
        reply = await self._dispatcher.handle_async(frame, self._background.invoke)
        if self._answered is not None:
            self._answered(frame)
        if reply is not None:
            with contextlib.suppress(ConnectionError, OSError):
                await self._send(reply)

    async def finish(self) -> None:
        """Wait until every request started is answered."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def abandon(self) -> None:
        """The client is gone: stop what its requests still wait for."""
        for task in list(self._tasks):
            task.cancel()


def _say(line: str) -> None:
    """The operator's stream (stderr), never a client's."""
    print(f"nataterra-rpc: {line}", file=sys.stderr)
