"""The error hierarchy shared by every layer (docs/ARCHITECTURE.md §5).

Every error the library raises on bad input derives from :class:`EngineError` (the
game-neutral name; ``NataterraError`` is kept as an alias).
Rejected commands are also :class:`ValueError` (a bad argument, as in python-chess's
``IllegalMoveError``); log problems name the record (``seq``) where they were found.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = [
    "ChainBroken",
    "CommandRejected",
    "ContentError",
    "ContentProblem",
    "EngineError",
    "GameOver",
    "HeadMismatch",
    "HeaderRefused",
    "IllegalCommand",
    "LogEndsEarly",
    "LogError",
    "MalformedCommand",
    "NataterraError",
    "NotYourTurn",
    "ReplayDiverged",
    "ReplayFailed",
    "SeedMismatch",
    "TornRecord",
    "UndoRefused",
    "UnknownContent",
    "UnsupportedVersion",
]


class EngineError(Exception):
    """Base class of every error raised by nataterra_core, whatever the game."""


NataterraError = EngineError
"""The base's former name, kept as an alias."""


# --- Commands -----------------------------------------------------------------------------


class CommandRejected(EngineError, ValueError):
    """A command was not accepted. State and log are unchanged."""

    rule_id: str | None = None


class MalformedCommand(CommandRejected):
    """The command could not be decoded or does not belong to this game."""


class IllegalCommand(CommandRejected):
    """The command is well formed but the rules forbid it now.

    ``rule_id`` names the clause of the rules (``N-MOV-2``) that forbids it.
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message


class NotYourTurn(CommandRejected):
    """The seat that sent the command may not act now."""

    def __init__(self, seat: str, message: str, rule_id: str | None = None) -> None:
        prefix = f"{rule_id}: " if rule_id else ""
        super().__init__(f"{prefix}{message}")
        self.seat = seat
        self.rule_id = rule_id


class GameOver(CommandRejected):
    """The game has ended; no command is accepted any more."""


class UndoRefused(CommandRejected):
    """Undo or redo is not allowed here (docs/LOG_FORMAT.md names when)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --- Content packs ------------------------------------------------------------------------


class ContentProblem:
    """One problem found in a content pack: the file, the path inside it and what is wrong."""

    __slots__ = ("file", "message", "path")

    def __init__(self, file: str, path: str, message: str) -> None:
        self.file = file
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return f"{self.file} @ {self.path}: {self.message}"

    def __repr__(self) -> str:
        return f"ContentProblem({self.file!r}, {self.path!r}, {self.message!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ContentProblem):
            return NotImplemented
        return (self.file, self.path, self.message) == (other.file, other.path, other.message)

    def __hash__(self) -> int:
        return hash((self.file, self.path, self.message))


class ContentError(EngineError):
    """A content pack is invalid. ``problems`` lists every problem found, not just the first."""

    def __init__(self, problems: Iterable[ContentProblem], stopped: str = "") -> None:
        self.problems: tuple[ContentProblem, ...] = tuple(problems)
        self.stopped = stopped
        """Why checking stopped before the end (too many problems), or ``""``."""
        lines = "\n".join(f"  - {p}" for p in self.problems)
        count = len(self.problems)
        tail = f"\n  ({stopped})" if stopped else ""
        super().__init__(
            f"{count} problem{'s' if count != 1 else ''} in content pack:\n{lines}{tail}"
        )


# --- Logs ---------------------------------------------------------------------------------


class LogError(EngineError):
    """A log could not be read or does not verify. ``seq`` is the first bad record, if known."""

    def __init__(self, message: str, seq: int | None = None) -> None:
        where = f"record {seq}: " if seq is not None else ""
        super().__init__(f"{where}{message}")
        self.seq = seq
        self.reason = message


class TornRecord(LogError):
    """Bytes after the last newline: a record cut short (a crash mid-write)."""


class ChainBroken(LogError):
    """A record's ``prev`` does not match the hash of the line before it, or the head differs."""


class HeadMismatch(ChainBroken):
    """The log's head differs from the published head it was checked against."""


class SeedMismatch(LogError):
    """The revealed seed does not hash to the header's seed commitment."""


class ReplayDiverged(LogError):
    """Re-executing the log produced different bytes (or a logged command is now rejected)."""

    def __init__(
        self, seq: int, path: str, logged: Any, recomputed: Any, message: str | None = None
    ) -> None:
        text = message or f"{path}: logged {logged!r}, recomputed {recomputed!r}"
        super().__init__(text, seq)
        self.path = path
        self.logged = logged
        self.recomputed = recomputed


class LogEndsEarly(ReplayDiverged):
    """The log stops where re-executing it writes one more record: the ``end`` that the
    rules write with the ``reveal`` before it (a log cut at the record boundary between the
    two). :func:`~.replay.verify` calls such a log incomplete, as one cut before its
    reveal; resuming the game (:meth:`~.session.Session.from_log` with ``finish``) writes
    the missing ``end``."""


class ReplayFailed(LogError):
    """The logged events cannot be folded (a forged or damaged log): replaying, which checks
    no rules, stops at the record named; verification calls it a ``replay`` failure.
    ``event`` is the index of the record's first event that does not fold, when known."""

    def __init__(self, message: str, seq: int | None = None, *, event: int | None = None):
        super().__init__(message, seq)
        self.event = event


class UnsupportedVersion(LogError):
    """The log was written for another format or rule-system version."""


class UnknownContent(LogError):
    """The log names a content pack whose effective hash is not available here."""


class HeaderRefused(LogError):
    """The header's seats or options are ones the rule system refuses (record 0)."""
