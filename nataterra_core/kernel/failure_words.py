"""Why a log does not verify or replay, in words a player reads, the auditor's detail after.

A verdict's reason (:attr:`Verdict.reason <nataterra_core.kernel.replay.Verdict.reason>`)
and a log error's are written for an auditor: a JSON path and both values, an event's tag,
an exception. What a player reads first says what went wrong in words (``record 23 is not
what the rules give``); the auditor's detail follows in one parenthesis
(``($.events[0].path[0]: logged None, recomputed [5, 4])``). A log that stops before its
end (incomplete) says what was checked and what was not. Machine output keeps the reason
as it is (``verify --json``; the RPC server's ``log.verify`` and ``log.replay``'s ``stopped``
give it as ``reason``, and these words beside it as ``said``).
"""

from __future__ import annotations

from .errors import LogError, ReplayFailed
from .replay import NO_END, Verdict

__all__ = [
    "failure_words",
    "incomplete_words",
    "receipts_words",
    "stopped_words",
    "verdict_words",
]

_SAID = {
    "torn": "{r} is cut short (a write that did not finish)",
    "read": "{r} cannot be read",
    "version": "{r} is written for another version of the rules or of the log format",
    "content": "{r} needs a content pack that is not available here",
    "header": "the rules refuse the players or the options of {r}",
    "chain": "{r} breaks the chain of hashes that links the records: the log was edited",
    "seed": "the seed revealed at {r} is not the one promised at the start, so the dice "
    "cannot be trusted",
    "replay": "{r} is not what the rules give",
    "head": "the log does not end at the published head",
    "receipt": "a player's signed receipt does not match {r}",
}

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def failure_words(failure: str | None, seq: int | None, reason: str, *, named: bool = True) -> str:
    """A failure of class ``failure`` at record ``seq`` in words, then ``reason`` as the
    auditor's detail in a parenthesis: ``record 23 is not what the rules give
    ($.events[0].path[0]: logged None, recomputed [5, 4])``. ``named=False`` when the
    record is named just before (``INVALID at record 23 (replay): the record is ...``);
    ``seq`` ``None``: the log as a whole.

    >>> failure_words("read", 4, "unreadable record: missing field `seat`")
    'record 4 cannot be read (unreadable record: missing field `seat`)'
    >>> failure_words("replay", 4, "$.result: logged None, recomputed 1", named=False)
    'the record is not what the rules give ($.result: logged None, recomputed 1)'
    """
    where = f"record {seq}" if seq is not None and named else "the record"
    if seq is None:
        where = "the log"
    said = _SAID.get(failure or "", "{r} does not verify").format(r=where)
    return f"{said} ({reason})" if reason else said


def verdict_words(verdict: Verdict) -> str:
    """A verdict in the words every reader is given (``nataterra replay`` and ``show``, RPC
    ``log.verify``'s ``said``, the browser's replay view), the auditor's reason after them in
    a parenthesis; an invalid log's record is named just before by the reader
    (``INVALID at record 23: the record is not what the rules give (...)``).

    >>> verdict_words(Verdict(status="invalid", failure="chain", seq=2, reason="prev"))
    'the record breaks the chain of hashes that links the records: the log was edited (prev)'
    """
    if verdict.status == "valid":
        return (
            f"all {verdict.records} records re-execute under the rules, with the dice of the "
            "revealed seed"
        )
    if verdict.status == "incomplete":
        return incomplete_words(verdict.seq, verdict.reason)
    return failure_words(verdict.failure, verdict.seq, verdict.reason, named=False)


def incomplete_words(seq: int | None, reason: str) -> str:
    """An incomplete verdict (missing record ``seq``) in words, ``reason`` after them in a
    parenthesis: what was checked of a log that stops before its end, and what was not.

    >>> incomplete_words(6, "no reveal record: the seed is not published yet")
    'the log stops after record 5, before the seed is revealed: nothing is wrong in what is there, but the dice cannot be checked yet (no reveal record: the seed is not published yet)'
    """  # noqa: E501 (a doctest's output is one line)
    last = max((seq or 0) - 1, 0)
    if reason == NO_END:
        said = (
            f"the log stops after the seed is revealed at record {last}, before its end "
            "record: every record there re-executes under the rules, dice included, but its "
            "result is not written"
        )
    else:
        said = (
            f"the log stops after record {last}, before the seed is revealed: nothing is "
            "wrong in what is there, but the dice cannot be checked yet"
        )
    return f"{said} ({reason})" if reason else said


def receipts_words(verdict: Verdict) -> str:
    """What a verdict says of the receipts checked with it, in words (``""``: none given, or
    none checked: an invalid log's are not): how many belong to the log, and which could not
    be checked because the log stops before their record.

    >>> receipts_words(Verdict(status="incomplete", checked=1, unchecked=("seat 'red''s receipt at record 9",)))
    "1 receipt checked: it belongs to the log; not checked, the log being incomplete: seat 'red''s receipt at record 9 (signed by the game's key for its seat, but the log stops before its record)"
    """  # noqa: E501 (a doctest's output is one line)
    said = []
    if verdict.checked:
        many = verdict.checked > 1
        said.append(
            f"{verdict.checked} receipt{'s' if many else ''} checked: "
            f"{'each belongs' if many else 'it belongs'} to the log"
        )
    if verdict.unchecked:
        said.append(
            "not checked, the log being incomplete: "
            + ", ".join(verdict.unchecked)
            + " (signed by the game's key for "
            + (
                "their seats, but the log stops before their records)"
                if len(verdict.unchecked) > 1
                else "its seat, but the log stops before its record)"
            )
        )
    return "; ".join(said)


def stopped_words(failure: LogError, failure_class: str) -> str:
    """Why replaying stopped at ``failure``'s record, in words, the detail after: a record
    whose events do not fold (a :class:`ReplayFailed`, ``replay``) names the event by its
    place, its tag only in the parenthesis; one that cannot be read (``read``) says so.

    >>> stopped_words(ReplayFailed("event 1 (moved.v1) cannot be folded", 7, event=1), "replay")
    'the second event of record 7 does not fit the game before it, so the log was forged or damaged (event 1 (moved.v1) cannot be folded)'
    """  # noqa: E501 (a doctest's output is one line)
    seq = failure.seq if failure.seq is not None else 0
    if isinstance(failure, ReplayFailed):
        index = failure.event
        what = (
            f"the {_ordinal(index)} event of record {seq} does not fit"
            if index is not None
            else f"record {seq} does not fit"
        )
        return f"{what} the game before it, so the log was forged or damaged ({failure.reason})"
    return failure_words(failure_class, seq, failure.reason)


def _ordinal(index: int) -> str:
    """``first`` for event 0, …; ``number 12`` past the words."""
    return _ORDINALS[index] if index < len(_ORDINALS) else f"number {index + 1}"
