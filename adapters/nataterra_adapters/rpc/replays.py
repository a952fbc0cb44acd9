"""``log.replay``: step through a finished (or any) log, the board and the words at each record.

The log comes whole from the client (a file it opened, or ``game.log``'s ``log`` of a
finished game). It is read and folded once (:func:`~nataterra_core.kernel.replay_states`: the
events as logged, no dice, no rules checks; ``log.verify`` is the auditor's check) and kept
in a small cache by its hash, so stepping a slider through it costs one view per step.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import msgspec

from nataterra_core.game import decider_for
from nataterra_core.kernel import (
    LogError,
    ReadLog,
    RevealRecord,
    read_log_prefix,
    replay_prefix,
)
from nataterra_core.kernel.failure_words import stopped_words
from nataterra_core.kernel.registry import RuleSystem, system_for

from ..record_words import record_words
from .errors import GameError, GameErrorCode
from .table import board_pictures, panels_of
from .wire import ReplayParams, ReplayResult, Stopped

__all__ = ["Replays"]

CACHED_LOGS = 8
"""Logs kept folded at once."""


@dataclass(frozen=True)
class _Folded:
    system: RuleSystem
    log: ReadLog
    states: tuple[Any, ...]
    revealed: bool
    failure: Stopped | None
    """The record whose events do not fold (a forged log): ``states`` end before it."""


class Replays:
    """The ``log.replay`` method, with its cache of folded logs."""

    def __init__(self) -> None:
        self._cache: OrderedDict[bytes, _Folded] = OrderedDict()

    def replay(self, params: ReplayParams) -> ReplayResult:
        """The view at record ``at`` of the log as ``seat`` sees it (a spectator by default)."""
        folded = self._fold(params.log.encode("utf-8", "surrogatepass"))
        last = len(folded.states) - 1
        at = last if params.at is None else params.at
        if at > last:
            stop = folded.failure
            reach = "has" if stop is None else f"stops at record {stop.seq}: {stop.said};"
            raise GameError(
                GameErrorCode.UNREADABLE_LOG, f"the log {reach} records 0 to {last}, not {at}"
            )
        header = folded.log.header
        if params.seat is not None and params.seat not in header.seats:
            raise GameError(
                GameErrorCode.BAD_TOKEN,
                f"no seat {params.seat!r} in this log (seats: {list(header.seats)})",
            )
        try:
            return self._answer(folded, at, params)
        except Exception as exc:  # a forged log's state that folds but breaks the views
            raise GameError(
                GameErrorCode.UNREADABLE_LOG,
                f"record {at}: the position after it cannot be shown (does the log verify?): "
                f"{type(exc).__name__}: {exc}",
            ) from exc

    @staticmethod
    def _answer(folded: _Folded, at: int, params: ReplayParams) -> ReplayResult:
        header, failure = folded.log.header, folded.failure
        # Once the log holds its reveal every secret is public, as its records are (the
        # declarations decide what the seat would see before: kernel.secrets.sees).
        seen = folded.system.view_of(folded.states[at], params.seat, revealed=folded.revealed)
        boards = folded.system.hooks.board_geometry
        geometry = boards.geometry(seen) if boards is not None else None
        words: list[list[str]] | None = None
        if params.words:
            words = record_words(
                folded.system,
                folded.log.decider,
                folded.log.lines[: len(folded.states)],
                params.seat,
                revealed=folded.revealed,
                states=folded.states,
            )
        return ReplayResult(
            rules=header.rules.id,
            seats=header.seats,
            records=len(folded.states),
            at=at,
            seat=params.seat,
            view=msgspec.to_builtins(seen),
            board=geometry,
            text=folded.system.presenter.view(seen),
            result=folded.log.decider.outcome(folded.states[-1]),
            words=words,
            stopped=failure,
            svg=board_pictures(geometry),
            panels=panels_of(folded.system, seen),
        )

    def _fold(self, data: bytes) -> _Folded:
        key = hashlib.sha256(data).digest()
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return found
        try:
            log, unread = read_log_prefix(data, decider_for)
            states, unfolded = replay_prefix(log.decider, log.header, log.records)
            record = system_for(log.header)
        except (LogError, ValueError) as exc:
            raise GameError(
                GameErrorCode.UNREADABLE_LOG, f"the log cannot be replayed: {exc}"
            ) from exc
        revealed = any(isinstance(r, RevealRecord) for r in log.records)
        failure = _stopped("replay", unfolded) or _stopped("read", unread)
        folded = _Folded(record, log, tuple(states), revealed, failure)
        self._cache[key] = folded
        while len(self._cache) > CACHED_LOGS:
            self._cache.popitem(last=False)
        return folded


def _stopped(failure: str, error: LogError | None) -> Stopped | None:
    """Where replaying stopped, in the shape of a verdict's failure (class, record, reason),
    and in words, as ``nataterra replay`` says it."""
    if error is None:
        return None
    said = stopped_words(error, failure)
    return Stopped(failure=failure, seq=error.seq or 0, reason=error.reason, said=said)
