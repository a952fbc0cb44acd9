"""Every error code the JSON-RPC server answers with, in one table (documented in docs/RPC.md).

Protocol errors use the JSON-RPC 2.0 codes and messages exactly. Game errors use stable
positive codes; their ``data`` is an object with at least ``error`` (the stable name below)
and ``rule_id`` (the rule clause, or ``null``), plus ``version`` (the game's last seq)
whenever a game is known.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any

from nataterra_core.kernel import (
    CommandRejected,
    GameOver,
    IllegalCommand,
    MalformedCommand,
    NotYourTurn,
    UndoRefused,
)

__all__ = [
    "PROTOCOL_MESSAGES",
    "GameError",
    "GameErrorCode",
    "ProtocolCode",
    "RpcError",
    "rejected",
]


class ProtocolCode(IntEnum):
    """The JSON-RPC 2.0 specification's reserved codes."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603


PROTOCOL_MESSAGES: dict[ProtocolCode, str] = {
    ProtocolCode.PARSE_ERROR: "Parse error",
    ProtocolCode.INVALID_REQUEST: "Invalid Request",
    ProtocolCode.METHOD_NOT_FOUND: "Method not found",
    ProtocolCode.INVALID_PARAMS: "Invalid params",
    ProtocolCode.INTERNAL_ERROR: "Internal error",
}
"""The messages the specification gives; details go into ``data``."""


class GameErrorCode(IntEnum):
    """Stable codes of game errors. Never renumber: clients switch on them."""

    ILLEGAL_COMMAND = 1
    NOT_YOUR_TURN = 2
    MALFORMED_COMMAND = 3
    GAME_OVER = 4
    UNDO_REFUSED = 5
    VERSION_CONFLICT = 6
    UNKNOWN_GAME = 7
    BAD_TOKEN = 8
    SETUP_REJECTED = 9
    GAME_EXISTS = 10
    COMMAND_ID_REUSED = 11
    UNREADABLE_LOG = 12
    TOO_LONG = 13
    """A slow method (``log.verify``, ``log.replay``) overran the server's time bound."""
    STORE_FAILED = 14
    """The store did not keep a change (down, full): nothing was done, try again."""

    @property
    def label(self) -> str:
        """The stable name sent as ``data.error`` (``illegal_command``)."""
        return self.name.lower()


class RpcError(Exception):
    """An error reply: raised by a method, turned into the response's ``error`` member."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class GameError(RpcError):
    """A game error: positive code, ``data`` naming the error and the rule."""

    def __init__(
        self,
        code: GameErrorCode,
        message: str,
        *,
        rule_id: str | None = None,
        version: int | None = None,
        **extra: Any,
    ) -> None:
        data: dict[str, Any] = {"error": code.label, "rule_id": rule_id}
        if version is not None:
            data["version"] = version
        data.update(extra)
        super().__init__(int(code), message, data)


_REJECTIONS: tuple[tuple[type[CommandRejected], GameErrorCode], ...] = (
    (IllegalCommand, GameErrorCode.ILLEGAL_COMMAND),
    (NotYourTurn, GameErrorCode.NOT_YOUR_TURN),
    (MalformedCommand, GameErrorCode.MALFORMED_COMMAND),
    (GameOver, GameErrorCode.GAME_OVER),
    (UndoRefused, GameErrorCode.UNDO_REFUSED),
)

_RULE_PREFIX = re.compile(r"\A([A-Z]+-[A-Z]+-[0-9]+): ")


def rejected(exc: CommandRejected | ValueError, version: int | None = None) -> GameError:
    """The game error for a rejected command, undo or set-up.

    The message is the library's own: the rules never put hidden facts into one, and the
    hidden-information tests hold them to that.
    """
    code = GameErrorCode.SETUP_REJECTED
    for kind, kind_code in _REJECTIONS:
        if isinstance(exc, kind):
            code = kind_code
            break
    rule_id = getattr(exc, "rule_id", None)
    if rule_id is None:  # set-up errors cite their clause in the message ("N-SETUP-1: ...")
        match = _RULE_PREFIX.match(str(exc))
        rule_id = match.group(1) if match else None
    return GameError(code, str(exc), rule_id=rule_id, version=version)
