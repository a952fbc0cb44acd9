"""Who may see each command and event, declared on its class, and the log as a seat sees it.

Every command and event class says, next to its fields, who may see it in a log before the
seed is revealed (docs/LOG_FORMAT.md)::

    class CardDrawn(Event, frozen=True, tag="card_drawn.v1"):
        visibility = hide_from_others("card")  # the drawer sees the card, others the draw

A class that declares nothing is :data:`HIDDEN`: its records show only their type, so a new
type fails closed until someone decides who may see it. :func:`record_view` and
:func:`log_view` cut a log's records for one seat by these declarations, so any rule system
gets redacted logs without a table of its own. Once the seed is revealed every secret is
public and :func:`log_view` gives the log whole.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import cache
from typing import Any, Protocol

import attrs
import msgspec

from .log import line_hash

# ``Visibility`` is declared beside the message base classes that hold it (messages.py), so
# this module imports messages and log and neither imports it back (no import circle).
from .messages import Command, Event, Visibility

__all__ = [
    "HIDDEN",
    "PUBLIC",
    "LogView",
    "MessageTypes",
    "Visibility",
    "hidden_order",
    "hide_from_others",
    "log_view",
    "record_view",
    "visibility_of",
]


@attrs.frozen
class _Public:
    """Everyone sees the whole value."""

    def redact(
        self, value: dict[str, Any], viewer: str | None, actor: str | None
    ) -> dict[str, Any]:
        return value


@attrs.frozen
class _Hidden:
    """Nobody sees more than the value's type."""

    def redact(
        self, value: dict[str, Any], viewer: str | None, actor: str | None
    ) -> dict[str, Any]:
        return {"type": value.get("type"), "redacted": True}


@attrs.frozen
class _HideFromOthers:
    """Drops ``fields`` unless the viewer is the seat named in the value's ``owner`` field
    (or, with ``when``, unless the value's field ``when[0]`` is none of ``when[1]``)."""

    fields: tuple[str, ...]
    owner: str = "seat"
    when: tuple[str, frozenset[Any]] | None = None

    def redact(
        self, value: dict[str, Any], viewer: str | None, actor: str | None
    ) -> dict[str, Any]:
        if viewer is not None and value.get(self.owner) == viewer:
            return value
        if self.when is not None and value.get(self.when[0]) not in self.when[1]:
            return value
        return _without(value, self.fields)


@attrs.frozen
class _HiddenOrder:
    """Drops ``fields`` for everyone and keeps only the length of ``size_of`` as ``size``."""

    fields: tuple[str, ...]
    size_of: str

    def redact(
        self, value: dict[str, Any], viewer: str | None, actor: str | None
    ) -> dict[str, Any]:
        return {**_without(value, self.fields), "size": len(value.get(self.size_of, ()))}


PUBLIC: Visibility = _Public()
"""Every seat (and a spectator) sees the value whole: moves, rolls, cards played face up."""

HIDDEN: Visibility = _Hidden()
"""The value shows only its type. What an undeclared class gets, so it fails closed."""


def hide_from_others(
    *fields: str, owner: str = "seat", when: tuple[str, Collection[Any]] | None = None
) -> Visibility:
    """``fields`` are seen only by the seat named in ``owner``; everyone else sees the rest.

    For values that show something to one seat only (a card drawn into a hand, say): the
    owner sees it, everyone else sees that it happened and which fields were cut. With
    ``when=(field, values)`` only values whose ``field`` is one of ``values`` are cut (one
    event class that sometimes names a secret: a bonus that draws a card or unlocks a tile).
    """
    condition = None if when is None else (when[0], frozenset(when[1]))
    return _HideFromOthers(fields, owner, condition)


def hidden_order(*fields: str, size_of: str) -> Visibility:
    """``fields`` are seen by nobody, not even their owner, until the seed is revealed.

    For shuffles: a deck's new order is hidden from everyone, and so is its old one (a
    reshuffle's input can itself be a hidden order or, for a private deck, reveal a hand by
    what is missing from it). The length of ``size_of`` stays visible as ``size``.
    """
    return _HiddenOrder(fields, size_of)


def _without(value: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    # The marker names every declared field, not those the value has: a field left out of
    # the line as its default (no card found to draw) would otherwise say what was cut.
    kept = {k: v for k, v in value.items() if k not in fields}
    return {**kept, "redacted": sorted(fields)}


class MessageTypes(Protocol):
    """Where the log views read declarations from: a rule system's command and event
    classes, and how its header options are cut. Every :class:`~.decider.Decider` is one."""

    @property
    def command_types(self) -> Sequence[type[Command]]:
        """Every concrete command class."""

    @property
    def event_types(self) -> Sequence[type[Event]]:
        """Every concrete event class."""

    def redact_options(self, options: Mapping[str, Any], seat: str | None) -> dict[str, Any]:
        """The header's options as ``seat`` may see them before the reveal."""


def visibility_of(cls: type[Command] | type[Event]) -> Visibility:
    """The class's declared visibility, or :data:`HIDDEN` when it declares none."""
    declared = cls.visibility
    return HIDDEN if declared is None else declared


def _table(messages: MessageTypes) -> Mapping[str, Visibility]:
    return _tag_table(tuple(messages.command_types), tuple(messages.event_types))


@cache
def _tag_table(
    commands: tuple[type[Command], ...], events: tuple[type[Event], ...]
) -> Mapping[str, Visibility]:
    # Built once per rule system, like its record decoder.
    classes: tuple[type[Command] | type[Event], ...] = (*commands, *events)
    return {str(cls.__struct_config__.tag): visibility_of(cls) for cls in classes}


def _value_view(
    value: Any, viewer: str | None, actor: str | None, table: Mapping[str, Visibility]
) -> Any:
    if not isinstance(value, dict):
        return value
    tag = value.get("type")
    visibility = table.get(tag, HIDDEN) if isinstance(tag, str) else HIDDEN
    return visibility.redact(value, viewer, actor)


def _record_view(
    line: bytes, seat: str | None, table: Mapping[str, Visibility], messages: MessageTypes
) -> dict[str, Any]:
    record: dict[str, Any] = msgspec.json.decode(line)
    record.pop("prev", None)
    if record.get("kind") == "header":
        # A header option may hold hidden facts (a starting position's hands and decks).
        record["options"] = messages.redact_options(record.get("options", {}), seat)
    actor = record.get("seat")
    if "command" in record:
        record["command"] = _value_view(record["command"], seat, actor, table)
    if "events" in record:
        record["events"] = [_value_view(e, seat, actor, table) for e in record["events"]]
    return record


def record_view(line: bytes, seat: str | None, messages: MessageTypes) -> dict[str, Any]:
    """One log line as ``seat`` may see it before the seed is revealed.

    ``messages`` names the rule system's classes (pass its decider). ``prev`` is dropped (a
    hash over hidden content lets a seat test guesses about it) and every command and event
    is cut by its class's declared visibility; a type that is not among ``messages``, or
    whose class declares nothing, shows only its type. The header's options go through
    ``messages.redact_options(options, seat)``.
    """
    return _record_view(line, seat, _table(messages), messages)


class LogView(msgspec.Struct, frozen=True, kw_only=True):
    """A log as a seat sees it.

    Until a ``reveal`` record exists: every record through :func:`record_view`, no head.
    Afterwards (the game is over, every secret is public): the records whole, ``prev``
    included, with the head and the exact JSON Lines text, so the log can be verified.
    """

    revealed: bool
    records: list[dict[str, Any]]
    head: str | None = None
    text: str | None = None


def log_view(lines: Sequence[bytes], seat: str | None, messages: MessageTypes) -> LogView:
    """``lines`` (a log's records, without newlines) as ``seat`` may see them, cut by the
    declarations of ``messages`` (the rule system's decider) until the seed is revealed."""
    if any(b'"kind":"reveal"' in line and _kind(line) == "reveal" for line in lines):
        return LogView(
            revealed=True,
            records=[msgspec.json.decode(line) for line in lines],
            head=line_hash(lines[-1]),
            text=b"".join(line + b"\n" for line in lines).decode(),
        )
    table = _table(messages)
    return LogView(
        revealed=False, records=[_record_view(line, seat, table, messages) for line in lines]
    )


def _kind(line: bytes) -> Any:
    return msgspec.json.decode(line).get("kind")
