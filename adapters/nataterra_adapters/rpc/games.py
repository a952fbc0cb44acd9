"""The method table: games of any registered rule system held in memory, one token per seat.

``game.create`` names the rule system (``rules``, a registry id); everything after that is
read from its :class:`~nataterra_core.kernel.registry.RuleSystem` record and its decider —
seats, options, the command union, the seat view — so this module knows no game.

Every game method names the game (``game_id``) and the caller's seat by its token; a view
or log without a token is a spectator's. Acting methods take ``expected_version`` (the last
``seq`` the client saw: a stale one is refused, so two clients cannot act on different
pictures of the game) and ``command_id`` (a retry with the same id returns the first
answer without acting twice). A game whose rules have ended is closed at once, which
appends the ``reveal`` and ``end`` records: from then on its full log can be had and
verified.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from nataterra_core import __version__
from nataterra_core.game import DEFAULT_GAME, GameSession, decider_for, new_game, verify_log
from nataterra_core.kernel import (
    CommandRejected,
    LogError,
    ReplayDiverged,
    Session,
    Verdict,
    read_log,
    seed_from_number,
)
from nataterra_core.kernel.registry import RuleSystem, system_for, systems
from nataterra_core.kernel.seed_ceremony import SeedCeremony
from nataterra_core.kernel.visibility import LogView, log_view, record_view

from ..record_words import appended_words, record_words
from .bots import Bots
from .checks import (
    checked_seats,
    command_union,
    describe_system,
    seat_of,
    set_up,
    system_named,
)
from .errors import GameError, GameErrorCode, rejected
from .protocol import Method
from .replays import Replays
from .store import GameStore, StoredGame
from .wire import (
    ActParams,
    ActResult,
    ApplyParams,
    CreateParams,
    CreateResult,
    JoinParams,
    JoinResult,
    LegalResult,
    LogParams,
    LogResult,
    NoParams,
    ReplayParams,
    SeatParams,
    VerifyParams,
    ViewParams,
    ViewResult,
)

__all__ = ["Games"]

DEFAULT_MAX_GAMES = 1000
"""Games one server holds at once (``--max-games``)."""


@dataclass
class _Waiting:
    """A game created with seat seeds: committed to its server seed, collecting one hidden
    contribution per seat (design.md §3) before its header can be written."""

    system: RuleSystem
    seats: tuple[str, ...]
    options: dict[str, Any] | None
    ceremony: SeedCeremony
    tokens: dict[str, str]
    bots: Bots


@dataclass
class _Game:
    system: RuleSystem
    session: GameSession
    tokens: dict[str, str]
    bots: Bots
    # (seat, command_id) -> (what was asked, the answer): successful acts only, since a
    # refused one changed nothing and may simply be tried again.
    done: dict[tuple[str, str], tuple[bytes, ActResult]] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return len(self.session.lines) - 1


class Games:
    """Games in memory and the JSON-RPC methods over them (:meth:`methods`)."""

    def __init__(
        self,
        *,
        test_seeds: bool = False,
        max_games: int = DEFAULT_MAX_GAMES,
        store: GameStore | None = None,
    ) -> None:
        """``test_seeds``: accept ``game.create``'s public ``seed`` (tests and demos only);
        ``max_games``: games held at once (started or waiting); ``store``: keep every started
        game on disk and resume the stored ones now (``None``: in memory only)."""
        self._games: dict[str, _Game] = {}
        self._waiting: dict[str, _Waiting] = {}
        self._test_seeds = test_seeds
        self._max_games = max_games
        self._store = store
        self._replays = Replays()
        if store is not None:
            for stored in store.games():
                self._resume(stored)

    def methods(self, *, games_per_client: int | None = None) -> dict[str, Method]:
        """The method table, by JSON-RPC method name; with ``games_per_client``, a table for
        one client (connection) that may create at most that many games."""
        create: Callable[[CreateParams], CreateResult] = self.create
        if games_per_client is not None:
            create = self._quota(games_per_client)
        table: dict[str, tuple[type[msgspec.Struct], Callable[[Any], Any]]] = {
            "game.create": (CreateParams, create),
            "game.join": (JoinParams, self.join),
            "game.view": (ViewParams, self.view),
            "game.legal_commands": (SeatParams, self.legal_commands),
            "game.apply": (ApplyParams, self.apply),
            "game.undo": (ActParams, self.undo),
            "game.redo": (ActParams, self.redo),
            "game.log": (LogParams, self.log),
            "log.verify": (VerifyParams, self.verify),
            "log.replay": (ReplayParams, self._replays.replay),
            "server.info": (NoParams, self.info),
        }
        return {name: Method(params, handler) for name, (params, handler) in table.items()}

    def _quota(self, cap: int) -> Callable[[CreateParams], CreateResult]:
        created = 0

        def create(params: CreateParams) -> CreateResult:
            nonlocal created
            if created >= cap:
                raise GameError(
                    GameErrorCode.SETUP_REJECTED,
                    f"this connection has created {cap} games, its cap (--max-games-per-client)",
                )
            answer = self.create(params)
            created += 1
            return answer

        return create

    def session(self, game_id: str) -> GameSession:
        """The live session of ``game_id`` (for embedding the server; clients never see it)."""
        return self._find(game_id, None)[0].session

    # -- methods ----------------------------------------------------------------------------

    def create(self, params: CreateParams) -> CreateResult:
        """Start a game of ``params.rules``; the answer holds every seat's token."""
        record = system_named(params.rules)
        params = set_up(record, params)
        if len(self._games) + len(self._waiting) >= self._max_games:
            raise GameError(
                GameErrorCode.SETUP_REJECTED,
                f"the server holds {self._max_games} games, its cap (--max-games)",
            )
        if params.players is not None and params.seats is not None:
            raise GameError(GameErrorCode.SETUP_REJECTED, "give players or seats, not both")
        seats: Sequence[str] | int = (
            params.seats
            if params.seats is not None
            else params.players or min(record.default_seats)
        )
        if params.seed is not None and not self._test_seeds:
            raise GameError(
                GameErrorCode.SETUP_REJECTED,
                "a chosen seed makes the dice public; this server refuses it (start it with "
                "--test-seeds for tests and demos)",
            )
        if params.seed is not None and params.seed >= 2**64:
            raise GameError(GameErrorCode.SETUP_REJECTED, "seed must be below 2**64")
        seat_seeds = params.seed is None if params.seat_seeds is None else params.seat_seeds
        if seat_seeds:
            return self._create_waiting(record, params, seats)
        if params.seed is not None:
            # Reproducible, and therefore not secret: anyone can derive the seed from N.
            server_seed = None
            game_id = params.game_id or f"seed-{params.seed}"
        else:
            server_seed = secrets.token_bytes(32)
            game_id = params.game_id or f"g-{secrets.token_hex(8)}"
        if game_id in self._games:
            raise GameError(GameErrorCode.GAME_EXISTS, f"game {game_id!r} exists already")
        chosen = checked_seats(record, params, seats, game_id)
        bots = Bots.named(record, chosen, params.bots)
        if server_seed is None:
            assert params.seed is not None
            server_seed = seed_from_number(params.seed)[0]
        tokens = {seat: secrets.token_hex(16) for seat in chosen}
        session = self._start(
            record, chosen, server_seed, game_id, params.client_seed, tokens, params.options, bots
        )
        game = self._games[game_id] = _Game(record, session, tokens, bots)
        self._play_bots(game)
        return CreateResult(
            game_id=game_id,
            seats=session.header.seats,
            tokens=bots.people(game.tokens),
            version=game.version,
            seed_commitment=session.header.seed_commitment,
            acting=tuple(session.acting_seats()),
            bots=dict(bots.names),
        )

    def join(self, params: JoinParams) -> JoinResult:
        """A seat's contribution to the dice; the game starts once every seat has sent one.

        No seat learns another's contribution before the header shows them all.
        """
        waiting = self._waiting.get(params.game_id)
        if waiting is None:
            if params.game_id in self._games:
                game = self._games[params.game_id]
                raise GameError(
                    GameErrorCode.SETUP_REJECTED, "the game has started", version=game.version
                )
            raise GameError(GameErrorCode.UNKNOWN_GAME, f"no game {params.game_id!r}")
        seat = seat_of(waiting.tokens, params.token, 0)
        if seat in waiting.bots.names:
            raise GameError(GameErrorCode.SETUP_REJECTED, f"the server plays {seat!r}")
        try:
            waiting.ceremony.contribute(seat, params.client_seed)
        except ValueError as exc:
            raise GameError(GameErrorCode.SETUP_REJECTED, str(exc)) from exc
        if not waiting.ceremony.complete:
            return JoinResult(
                waiting_for=waiting.ceremony.waiting_for, started=False, version=0, acting=()
            )
        game = self._begin(params.game_id, waiting)
        return JoinResult(
            waiting_for=(),
            started=True,
            version=game.version,
            acting=tuple(game.session.acting_seats()),
        )

    def _begin(self, game_id: str, waiting: _Waiting) -> _Game:
        """Start a game whose seats have all contributed, and let its bots act."""
        ceremony = waiting.ceremony
        session = self._start(
            waiting.system,
            waiting.seats,
            ceremony.server_seed,
            game_id,
            ceremony.client_seed(),
            waiting.tokens,
            waiting.options,
            waiting.bots,
        )
        del self._waiting[game_id]
        game = self._games[game_id] = _Game(waiting.system, session, waiting.tokens, waiting.bots)
        self._play_bots(game)
        return game

    def view(self, params: ViewParams) -> ViewResult:
        """What the seat (or a spectator) sees of the position."""
        waiting = self._waiting.get(params.game_id)
        if waiting is not None:
            if params.token is not None:
                seat_of(waiting.tokens, params.token, 0)
            return ViewResult(
                version=0,
                view=None,
                acting=(),
                can_undo=False,
                can_redo=False,
                result=None,
                waiting_for=waiting.ceremony.waiting_for,
                seat=None if params.token is None else seat_of(waiting.tokens, params.token, 0),
                bots=dict(waiting.bots.names),
            )
        game, seat = self._find(params.game_id, params.token)
        session, record = game.session, game.system
        view = record.seat_view(session.state, seat)
        boards = record.hooks.board_geometry
        return ViewResult(
            version=game.version,
            view=msgspec.to_builtins(view),
            acting=tuple(session.acting_seats()),
            can_undo=seat is not None and session.can_undo(seat),
            can_redo=seat is not None and session.can_redo(seat),
            result=session.outcome(),
            board=boards.geometry(view) if boards is not None else None,
            text=record.presenter.view(view),
            seat=seat,
            bots=dict(game.bots.names),
        )

    def legal_commands(self, params: SeatParams) -> LegalResult:
        """Every command the seat may send now."""
        waiting = self._waiting.get(params.game_id)
        if waiting is not None:
            seat_of(waiting.tokens, params.token, 0)
            return LegalResult(version=0, commands=(), waiting_for=waiting.ceremony.waiting_for)
        game, seat = self._find_seat(params.game_id, params.token)
        record, commands = game.system, game.session.legal_commands(seat)
        view = record.seat_view(game.session.state, seat)
        boards = record.hooks.board_geometry
        return LegalResult(
            version=game.version,
            commands=commands,
            words=tuple(record.presenter.command(c, seat, view) for c in commands),
            targets=tuple(boards.targets(view, c) for c in commands) if boards else None,
        )

    def apply(self, params: ApplyParams) -> ActResult:
        """Apply the seat's command (at most once per ``command_id``)."""
        game, seat = self._find_seat(params.game_id, params.token)
        key = msgspec.json.encode(["apply", params.command], order="sorted")
        cached = self._cached(game, seat, params.command_id, key)
        if cached is not None:
            return cached
        self._check_version(game, params.expected_version)
        command_type = command_union(tuple(game.session.decider.command_types))
        try:
            command = msgspec.convert(params.command, command_type)
        except msgspec.ValidationError as exc:
            raise GameError(
                GameErrorCode.MALFORMED_COMMAND, f"bad command: {exc}", version=game.version
            ) from exc

        def act() -> None:
            game.session.apply(seat, command)
            game.bots.play(game.system, game.session)

        return self._act(game, seat, params.command_id, key, act)

    def undo(self, params: ActParams) -> ActResult:
        """Take back the seat's last command (design.md §4 says when that is allowed)."""
        return self._undo_or_redo(params, "undo")

    def redo(self, params: ActParams) -> ActResult:
        """Apply the seat's last undone command again."""
        return self._undo_or_redo(params, "redo")

    def log(self, params: LogParams) -> LogResult:
        """The log as the seat may see it: redacted until the seed is revealed; with
        ``words``, every record in the presenter's words, cut the same way; with ``since``,
        only the records from that seq on (a client that has the others)."""
        game, seat = self._find(params.game_id, params.token)
        lines, since = game.session.lines, params.since
        view: LogView = log_view(lines[since:], seat, game.session.decider)
        # A slice after the reveal holds only the end record: the log is revealed all the same.
        revealed = view.revealed or (since > 0 and game.session.closed)
        words = None
        if params.words or revealed:  # once revealed nothing is hidden: always in words
            decider = game.session.decider
            words = record_words(game.system, decider, lines, seat, revealed=revealed, first=since)
        whole = since == 0
        return LogResult(
            version=game.version,
            revealed=revealed,
            records=view.records,
            head=view.head if whole else None,
            log=view.text if whole else None,
            words=words,
        )

    def verify(self, params: VerifyParams) -> Verdict:
        """Verify a log (a verdict for any input, valid or not)."""
        data = params.log.encode("utf-8", "surrogatepass")
        return verify_log(data, expect_head=params.expect_head)

    def info(self, params: NoParams) -> dict[str, Any]:
        """The server, every rule system it can run (what ``game.create`` accepts) and its
        methods."""
        return {
            "server": "nataterra-rpc",
            "version": __version__,
            "default_rules": DEFAULT_GAME,
            "systems": [describe_system(record) for record in systems()],
            "methods": sorted(self.methods()),
        }

    # -- internals --------------------------------------------------------------------------

    def _start(
        self,
        record: RuleSystem,
        seats: Sequence[str],
        server_seed: bytes,
        game_id: str,
        client_seed: str,
        tokens: dict[str, str],
        options: dict[str, Any] | None,
        bots: Bots,
    ) -> GameSession:
        """Write a checked game's header and start record (to the store, if there is one)."""
        sink = None
        if self._store is not None:
            sink = self._store.create(game_id, server_seed, tokens, bots.names).write
        try:
            return new_game(
                seats,
                game=record.id,
                server_seed=server_seed,
                game_id=game_id,
                client_seed=client_seed,
                options=options,
                sink=sink,
            )
        except (ValueError, CommandRejected) as exc:
            raise rejected(exc) from exc

    def _resume(self, stored: StoredGame) -> None:
        """Rebuild a stored game by re-executing its log; its seats' tokens work again."""
        assert self._store is not None
        try:
            log = read_log(stored.log, decider_for)
            session = Session.from_log(
                log.decider, log.header, log.records, log.lines, stored.server_seed
            )
        except (LogError, ReplayDiverged, ValueError) as exc:
            print(f"nataterra-rpc: not resuming {stored.game_id}: {exc}", file=sys.stderr)
            return
        session.attach_sink(self._store.append(stored.game_id).write)
        record = system_for(log.header)
        bots = Bots.named(record, log.header.seats, stored.bots)
        game = self._games[stored.game_id] = _Game(record, session, stored.tokens, bots)
        self._play_bots(game)  # the crash may have come before the bots' answer

    def _create_waiting(
        self, record: RuleSystem, params: CreateParams, seats: Sequence[str] | int
    ) -> CreateResult:
        """A game that waits for every seat's contribution: seats and options are checked
        now, the header and start record are written by the last ``game.join``."""
        if params.client_seed:
            raise GameError(
                GameErrorCode.SETUP_REJECTED,
                "with seat seeds the client seed is the seats' contributions; give no client_seed",
            )
        game_id = params.game_id or f"g-{secrets.token_hex(8)}"
        if game_id in self._games or game_id in self._waiting:
            raise GameError(GameErrorCode.GAME_EXISTS, f"game {game_id!r} exists already")
        chosen = checked_seats(record, params, seats, game_id)
        bots = Bots.named(record, chosen, params.bots)
        ceremony = SeedCeremony(secrets.token_bytes(32), chosen)
        for seat in bots.names:  # the server's own seats contribute at once
            ceremony.contribute(seat, secrets.token_hex(16))
        tokens = {seat: secrets.token_hex(16) for seat in chosen}
        waiting = _Waiting(record, chosen, params.options, ceremony, tokens, bots)
        self._waiting[game_id] = waiting
        started = self._begin(game_id, waiting) if ceremony.complete else None
        return CreateResult(
            game_id=game_id,
            seats=chosen,
            tokens=bots.people(tokens),
            version=0 if started is None else started.version,
            seed_commitment=ceremony.commitment,
            acting=() if started is None else tuple(started.session.acting_seats()),
            bots=dict(bots.names),
        )

    def _find(self, game_id: str, token: str | None) -> tuple[_Game, str | None]:
        game = self._games.get(game_id)
        if game is None:
            if game_id in self._waiting:
                waiting = self._waiting[game_id].ceremony.waiting_for
                raise GameError(
                    GameErrorCode.SETUP_REJECTED,
                    f"the game waits for the contributions of {list(waiting)} (game.join)",
                    waiting_for=list(waiting),
                )
            raise GameError(GameErrorCode.UNKNOWN_GAME, f"no game {game_id!r}")
        if token is None:
            return game, None
        return game, seat_of(game.tokens, token, game.version)

    def _find_seat(self, game_id: str, token: str) -> tuple[_Game, str]:
        game, seat = self._find(game_id, token)
        assert seat is not None  # a token was given, so _find named a seat or raised
        return game, seat

    @staticmethod
    def _play_bots(game: _Game) -> None:
        """Let the server's seats act, and close the game if that ended it."""
        game.bots.play(game.system, game.session)
        Games._close_if_over(game)

    @staticmethod
    def _close_if_over(game: _Game) -> None:
        session = game.session
        if session.outcome() is not None and not session.closed:
            session.close()  # the rules ended the game: publish the seed and the result

    def version_of(self, game_id: str) -> int | None:
        """The version of a game held here (0 while it waits for seat seeds; ``None``: no
        such game), for servers that tell watching clients about changes."""
        if game_id in self._waiting:
            return 0
        game = self._games.get(game_id)
        return None if game is None else game.version

    @staticmethod
    def _cached(game: _Game, seat: str, command_id: str | None, key: bytes) -> ActResult | None:
        if command_id is None or (seat, command_id) not in game.done:
            return None
        asked, answer = game.done[seat, command_id]
        if asked != key:
            raise GameError(
                GameErrorCode.COMMAND_ID_REUSED,
                f"command_id {command_id!r} was used for another request",
                version=game.version,
            )
        return answer

    @staticmethod
    def _check_version(game: _Game, expected: int | None) -> None:
        if expected is not None and expected != game.version:
            raise GameError(
                GameErrorCode.VERSION_CONFLICT,
                f"the game is at version {game.version}, not {expected}",
                version=game.version,
                expected_version=expected,
            )

    def _undo_or_redo(self, params: ActParams, what: str) -> ActResult:
        game, seat = self._find_seat(params.game_id, params.token)
        key = msgspec.json.encode([what])
        cached = self._cached(game, seat, params.command_id, key)
        if cached is not None:
            return cached
        self._check_version(game, params.expected_version)
        session = game.session

        def act() -> int | None:
            if what == "undo":
                return session.undo(seat)
            session.redo(seat)
            game.bots.play(game.system, session)
            return None

        return self._act(game, seat, params.command_id, key, act)

    def _act(
        self,
        game: _Game,
        seat: str,
        command_id: str | None,
        key: bytes,
        action: Callable[[], int | None],
    ) -> ActResult:
        session = game.session
        start, before = len(session.lines), session.state
        try:
            undone = action()
        except CommandRejected as exc:
            raise rejected(exc, game.version) from exc
        self._close_if_over(game)
        lines = session.lines[start:]
        records = (
            [msgspec.json.decode(line) for line in lines]
            if session.closed
            else [record_view(line, seat, session.decider) for line in lines]
        )
        answer = ActResult(
            version=game.version,
            records=records,
            acting=tuple(session.acting_seats()),
            result=session.outcome(),
            undone=undone,
            words=appended_words(
                game.system,
                session.decider,
                session.lines,
                seat,
                revealed=session.closed,
                first=start,
                before=before,
            ),
        )
        if command_id is not None:
            game.done[seat, command_id] = (key, answer)
        return answer
