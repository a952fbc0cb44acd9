"""The method table: JSON-RPC params in, results out, over the games of :mod:`.lifecycle`.

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

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from nataterra_core import __version__
from nataterra_core.game import DEFAULT_GAME, GameSession, verify_log
from nataterra_core.kernel import seed_from_number
from nataterra_core.kernel.failure_words import verdict_words
from nataterra_core.kernel.receipts import (
    SPECTATOR,
    KeyPair,
    ReceiptRefused,
    parse_receipt,
    view_lines,
)
from nataterra_core.kernel.registry import RuleSystem, systems
from nataterra_core.kernel.visibility import LogView, log_view, record_view

from ..record_words import appended_words, record_words
from .bots import DEFAULT_MAX_BOT_TIME, Bots
from .checks import (
    checked_seats,
    command_union,
    describe_system,
    seat_of,
    set_up,
    system_named,
)
from .errors import PROTOCOL_MESSAGES, GameError, GameErrorCode, ProtocolCode, RpcError
from .held import Game, Waiting
from .lifecycle import DEFAULT_MAX_GAMES, GameHost
from .protocol import Method
from .replays import Replays
from .store import Store
from .table import board_pictures, panels_of, recent_places
from .waiting import DEFAULT_WAITING_SECONDS, Clock
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
    ReceiptResult,
    ReplayParams,
    SeatParams,
    VerifyParams,
    VerifyResult,
    ViewParams,
    ViewResult,
    WaitParams,
    WaitResult,
)

__all__ = ["DEFAULT_MAX_GAMES", "Games"]


class Games:
    """The JSON-RPC methods (:meth:`methods`) over the games of one :class:`GameHost`."""

    def __init__(
        self,
        *,
        test_seeds: bool = False,
        max_games: int = DEFAULT_MAX_GAMES,
        store: Store | None = None,
        bots_inline: bool = True,
        max_bot_time: float = DEFAULT_MAX_BOT_TIME,
        waiting_seconds: float = DEFAULT_WAITING_SECONDS,
        clock: Clock = time.time,
    ) -> None:
        """``test_seeds``: accept ``game.create``'s public ``seed`` (tests and demos only);
        ``max_games``: games in play held at once (started or waiting); ``store``: keep every
        started game there and serve the stored ones (``None``: in memory only);
        ``bots_inline``: the bots play inside the call that gave them the turn (``False``: a
        server's :class:`~.background.Background` plays them); ``max_bot_time``: the longest
        a bot thinks per decision (``--max-bot-time``); ``waiting_seconds``: how long a game
        may wait for its seats' ``game.join`` (``--waiting-seconds``), by ``clock``."""
        self.host = GameHost(
            max_games=max_games,
            store=store,
            bots_inline=bots_inline,
            max_bot_time=max_bot_time,
            waiting_seconds=waiting_seconds,
            clock=clock,
        )
        self._test_seeds = test_seeds
        self._replays = Replays()

    def methods(self, *, games_per_client: int | None = None) -> dict[str, Method]:
        """The method table, by JSON-RPC method name; with ``games_per_client``, a table for
        one client (connection) that may create at most that many games."""
        create: Callable[[CreateParams], CreateResult] = self.create
        if games_per_client is not None:
            create = self._quota(games_per_client)
        table: dict[str, Method] = {
            "game.create": Method(CreateParams, create),
            "game.join": Method(JoinParams, self.join, waits=self.join_async),
            "game.view": Method(ViewParams, self.view),
            "game.legal_commands": Method(SeatParams, self.legal_commands),
            "game.apply": Method(ApplyParams, self.apply, acts=True),
            "game.undo": Method(ActParams, self.undo, acts=True),
            "game.redo": Method(ActParams, self.redo, acts=True),
            "game.wait": Method(WaitParams, self.wait, waits=self.wait_for_change),
            "game.log": Method(LogParams, self.log),
            "game.receipt": Method(ViewParams, self.receipt),
            "log.verify": Method(VerifyParams, self.verify, offload=True),
            "log.replay": Method(ReplayParams, self._replays.replay, offload=True),
            "server.info": Method(NoParams, self.info),
            "server.health": Method(NoParams, self.health),
        }
        return table

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
        return self.host.session(game_id)

    def version_of(self, game_id: str) -> int | None:
        """The version of a game held here (0 while it waits for seat seeds; ``None``: no
        such game), for servers that tell watching clients about changes."""
        return self.host.version_of(game_id)

    # -- methods ----------------------------------------------------------------------------

    def create(self, params: CreateParams) -> CreateResult:
        """Start a game of ``params.rules``; the answer holds every seat's token."""
        record = system_named(params.rules)
        params = set_up(record, params)
        self.host.check_room()
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
            server_seed = seed_from_number(params.seed)[0]
            game_id = params.game_id or f"seed-{params.seed}"
        else:
            server_seed = secrets.token_bytes(32)
            game_id = params.game_id or f"g-{secrets.token_hex(8)}"
        self.host.check_new(game_id)
        chosen = checked_seats(record, params, seats, game_id)
        bots = Bots.named(record, chosen, params.bots, max_seconds=self.host.max_bot_time)
        tokens = {seat: secrets.token_hex(16) for seat in chosen}
        key = KeyPair.generate()
        game = self.host.start(
            record,
            chosen,
            server_seed,
            game_id,
            params.client_seed,
            tokens,
            params.options,
            bots,
            key,
        )
        session = game.session
        return CreateResult(
            game_id=game_id,
            seats=session.header.seats,
            tokens=bots.people(game.tokens),
            version=game.version,
            seed_commitment=session.header.seed_commitment,
            acting=tuple(session.acting_seats()),
            bots=dict(bots.names),
            receipt_key=key.public,
            receipt_key_signature=self.host.server_key.certify(game_id, key.public),
        )

    def join(self, params: JoinParams) -> JoinResult:
        """A seat's contribution to the dice; the game starts once every seat has sent one.

        No seat learns another's contribution before the header shows them all.
        """
        return _joined(*self.host.join(params.game_id, params.token, params.client_seed))

    async def join_async(self, params: JoinParams) -> JoinResult:
        """``game.join`` in a server: the contribution is added in the store off the loop."""
        joined = await self.host.join_async(params.game_id, params.token, params.client_seed)
        return _joined(*joined)

    def view(self, params: ViewParams) -> ViewResult:
        """What the seat (or a spectator) sees of the position."""
        waiting = self.host.waiting(params.game_id)
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
                receipt_key=waiting.key.public,
                receipt_key_signature=self.host.server_key.certify(
                    params.game_id, waiting.key.public
                ),
                rules=waiting.system.id,
                title=waiting.system.title,
            )
        game, seat = self.host.find(params.game_id, params.token)
        session, record = game.session, game.system
        # A closed game's log holds its reveal: every secret is public (kernel.secrets.sees).
        view = record.view_of(session.state, seat, revealed=session.closed)
        boards = record.hooks.board_geometry
        geometry = boards.geometry(view) if boards is not None else None
        receipts = game.receipts
        return ViewResult(
            version=game.version,
            view=msgspec.to_builtins(view),
            acting=tuple(session.acting_seats()),
            can_undo=seat is not None and session.can_undo(seat),
            can_redo=seat is not None and session.can_redo(seat),
            result=session.outcome(),
            board=geometry,
            text=record.presenter.view(view),
            seat=seat,
            bots=dict(game.bots.names),
            thinking=game.thinking_seats(),
            receipt_key=None if receipts is None else receipts.key.public,
            receipt_key_signature=None if receipts is None else receipts.certificate,
            svg=board_pictures(geometry),
            panels=panels_of(record, view),
            recent=recent_places(record, session.decider, session.lines, seat, view, geometry),
            rules=record.id,
            title=record.title,
        )

    def legal_commands(self, params: SeatParams) -> LegalResult:
        """Every command the seat may send now."""
        waiting = self.host.waiting(params.game_id)
        if waiting is not None:
            seat_of(waiting.tokens, params.token, 0)
            return LegalResult(version=0, commands=(), waiting_for=waiting.ceremony.waiting_for)
        game, seat = self.host.find_seat(params.game_id, params.token)
        record, commands = game.system, game.session.legal_commands(seat)
        view = record.seat_view(game.session.state, seat)
        boards = record.hooks.board_geometry
        return LegalResult(
            version=game.version,
            commands=commands,
            words=tuple(record.presenter.offer(c, seat, view) for c in commands),
            targets=tuple(boards.targets(view, c) for c in commands) if boards else None,
        )

    def apply(self, params: ApplyParams) -> ActResult:
        """Apply the seat's command (at most once per ``command_id``)."""
        game, seat = self.host.find_seat(params.game_id, params.token)
        key = msgspec.json.encode(["apply", params.command], order="sorted")
        cached = game.cached(seat, params.command_id, key)
        if cached is not None:
            return cached
        game.check_version(params.expected_version)
        command_type = command_union(tuple(game.session.decider.command_types))
        try:
            command = msgspec.convert(params.command, command_type)
        except msgspec.ValidationError as exc:
            raise GameError(
                GameErrorCode.MALFORMED_COMMAND, f"bad command: {exc}", version=game.version
            ) from exc
        return self._act(
            game, seat, params.command_id, key, lambda: self.host.apply(game, seat, command)
        )

    def undo(self, params: ActParams) -> ActResult:
        """Take back the seat's last command (docs/LOG_FORMAT.md says when that is allowed)."""
        return self._undo_or_redo(params, "undo")

    def redo(self, params: ActParams) -> ActResult:
        """Apply the seat's last undone command again."""
        return self._undo_or_redo(params, "redo")

    def wait(self, params: WaitParams) -> WaitResult:
        """Where the game stands now, and whether it is past ``params.version`` (the answer
        of ``game.wait`` without waiting: :meth:`wait_for_change` waits)."""
        waiting = self.host.waiting(params.game_id)
        if waiting is not None:
            if params.token is not None:
                seat_of(waiting.tokens, params.token, 0)
            return WaitResult(
                version=0,
                passed=False,
                acting=(),
                result=None,
                waiting_for=waiting.ceremony.waiting_for,
            )
        game, _ = self.host.find(params.game_id, params.token)
        session = game.session
        return WaitResult(
            version=game.version,
            passed=game.version > params.version,
            acting=tuple(session.acting_seats()),
            result=session.outcome(),
            thinking=game.thinking_seats(),
        )

    async def wait_for_change(self, params: WaitParams) -> WaitResult:
        """``game.wait``: answer once the game is past ``params.version``, is over, or
        ``params.timeout`` seconds have gone by; with ``params.thinking``, also once the bot
        seats thinking are not those thinking when it was called."""
        changed = asyncio.Event()
        stop = self.host.watch(params.game_id, lambda _: changed.set())
        first: tuple[str, ...] | None = None
        try:
            async with asyncio.timeout(params.timeout):
                while True:
                    answer = self.wait(params)
                    first = answer.thinking if first is None else first
                    if answer.passed or self.host.over(params.game_id):
                        return answer
                    if params.thinking and answer.thinking != first:
                        return answer
                    changed.clear()
                    await changed.wait()
        except TimeoutError:
            return self.wait(params)
        finally:
            stop()

    def log(self, params: LogParams) -> LogResult:
        """The log as the seat may see it: redacted until the seed is revealed; with
        ``words``, every record in the presenter's words, cut the same way; with ``since``,
        only the records from that seq on (a client that has the others)."""
        game, seat = self.host.find(params.game_id, params.token)
        lines, since = game.session.lines, params.since
        view: LogView = log_view(lines[since:], seat, game.session.decider)
        # A slice after the reveal holds only the end record: the log is revealed all the same.
        revealed = view.revealed or (since > 0 and game.session.closed)
        words = None
        if params.words or revealed:  # once revealed nothing is hidden: always in words
            decider = game.session.decider
            words = record_words(game.system, decider, lines, seat, revealed=revealed, first=since)
        whole = since == 0
        seen = view_lines(lines[since:], SPECTATOR if seat is None else seat, game.session.decider)
        return LogResult(
            version=game.version,
            revealed=revealed,
            records=view.records,
            head=view.head if whole else None,
            log=view.text if whole else None,
            words=words,
            lines=[line.decode() for line in seen],
        )

    def receipt(self, params: ViewParams) -> ReceiptResult:
        """The caller's (a seat's, or with no token a spectator's) signed view head at the
        last record, the end of a game included (docs/RECEIPTS.md)."""
        game, seat = self.host.find(params.game_id, params.token)
        receipts, lines = game.receipts, game.session.lines
        receipt = None if receipts is None else receipts.receipt(lines, seat, len(lines) - 1)
        return ReceiptResult(version=game.version, receipt=receipt)

    def verify(self, params: VerifyParams) -> VerifyResult:
        """Verify a log (a verdict for any input, valid or not) and the receipts given with
        it, as ``nataterra verify --receipt`` does, and say it in words. A receipt that is not
        one (its head or signature not lowercase hex) is refused as invalid params."""
        receipts = []
        for n, receipt in enumerate(params.receipts):
            try:
                receipts.append(parse_receipt(receipt.text()))
            except ReceiptRefused as exc:
                raise RpcError(
                    ProtocolCode.INVALID_PARAMS,
                    PROTOCOL_MESSAGES[ProtocolCode.INVALID_PARAMS],
                    {"reason": f"{exc.reason} - at `$.receipts[{n}]`"},
                ) from exc
        data = params.log.encode("utf-8", "surrogatepass")
        verdict = verify_log(data, expect_head=params.expect_head, receipts=receipts)
        return VerifyResult(**msgspec.structs.asdict(verdict), said=verdict_words(verdict))

    def info(self, params: NoParams) -> dict[str, Any]:
        """The server, every rule system it can run (what ``game.create`` accepts) and its
        methods."""
        return {
            "server": "nataterra-rpc",
            "version": __version__,
            "default_rules": DEFAULT_GAME,
            "systems": [describe_system(record) for record in systems()],
            "methods": sorted(self.methods()),
            "server_key": self.host.server_key.public,
        }

    def health(self, params: NoParams) -> dict[str, Any]:
        """For a load balancer: the process answers, without touching a game (with the bot
        commands it has applied and the bot leases it asked the store for, so an operator
        sees which processes move the bots, and at what cost)."""
        host = self.host
        return {
            "status": "ok",
            "games_in_play": host.games_in_play(),
            "bot_moves": host.bot_moves,
            "lease_tries": host.lease_tries,
        }

    # -- internals --------------------------------------------------------------------------

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
        self.host.check_new(game_id)
        chosen = checked_seats(record, params, seats, game_id)
        bots = Bots.named(record, chosen, params.bots, max_seconds=self.host.max_bot_time)
        waiting, started = self.host.seeds.add(record, game_id, chosen, params.options, bots)
        return CreateResult(
            game_id=game_id,
            seats=chosen,
            tokens=bots.people(waiting.tokens),
            version=0 if started is None else started.version,
            seed_commitment=waiting.ceremony.commitment,
            acting=() if started is None else tuple(started.session.acting_seats()),
            bots=dict(bots.names),
            receipt_key=waiting.key.public,
            receipt_key_signature=self.host.server_key.certify(game_id, waiting.key.public),
        )

    def _undo_or_redo(self, params: ActParams, what: str) -> ActResult:
        game, seat = self.host.find_seat(params.game_id, params.token)
        key = msgspec.json.encode([what])
        cached = game.cached(seat, params.command_id, key)
        if cached is not None:
            return cached
        game.check_version(params.expected_version)

        def act() -> int | None:
            if what == "undo":
                return self.host.undo(game, seat)
            self.host.redo(game, seat)
            return None

        return self._act(game, seat, params.command_id, key, act)

    def _act(
        self,
        game: Game,
        seat: str,
        command_id: str | None,
        key: bytes,
        action: Callable[[], int | None],
    ) -> ActResult:
        """Run ``action`` and answer with the records it appended, as the seat sees them
        (embedded, the records and the answer kept for a retry are stored together at the
        end; a server sends this answer only once they are: Background.invoke waits for the
        store's thread)."""
        with self.host.acting(game):
            session = game.session
            start, before = len(session.lines), session.state
            undone = action()
            lines = session.lines[start:]
            receipts = game.receipts
            receipt = None if receipts is None else receipts.receipt(session.lines, seat, start)
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
                receipt=receipt,
                lines=[line.decode() for line in view_lines(lines, seat, session.decider)],
            )
            game.remember(seat, command_id, key, answer)
            return answer


def _joined(waiting: Waiting, game: Game | None) -> JoinResult:
    if game is None:
        return JoinResult(
            waiting_for=waiting.ceremony.waiting_for, started=False, version=0, acting=()
        )
    return JoinResult(
        waiting_for=(),
        started=True,
        version=game.version,
        acting=tuple(game.session.acting_seats()),
    )
