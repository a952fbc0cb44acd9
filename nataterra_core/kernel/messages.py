"""Base types of commands and events, and the one deterministic encoder.

Commands and events are frozen msgspec Structs in tagged unions. Each concrete type
declares a stable tag of the form ``<name>.v<version>`` (``move_units.v1``): the version
is part of the tag, so a changed schema is a new type and old logs keep decoding.

Structs are declared with ``omit_defaults`` so that an optional field added later does
not change the bytes of records written before it existed (docs/LOG_FORMAT.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, Union

import msgspec

from .bounded import MAX_DEPTH, nesting_depth
from .errors import MalformedCommand

__all__ = [
    "ENCODER",
    "MAX_COMMAND_BYTES",
    "TAG_PATTERN",
    "Command",
    "Event",
    "Visibility",
    "Wire",
    "check_tags",
    "decode_command",
    "encode",
]

TAG_PATTERN = re.compile(r"^[a-z][a-z0-9_]*\.v[1-9][0-9]*$")


class Visibility(Protocol):
    """How one command or event (as JSON) is cut down for a viewer before the reveal."""

    def redact(
        self, value: dict[str, Any], viewer: str | None, actor: str | None
    ) -> dict[str, Any]:
        """``value`` as ``viewer`` may see it (``None``: a spectator); ``actor`` is the seat
        of the record holding it (``None`` for the system)."""


class Wire(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    omit_defaults=True,
    forbid_unknown_fields=True,
    gc=False,
):
    """Base of every value written to a log: frozen, unknown fields refused, defaults omitted.

    Wire values are data decoded from JSON or built from other data, never part of a
    reference cycle, so the garbage collector does not track them (``gc=False``): a log's
    thousands of records and events no longer fill its young generation as they are decoded.
    """


class Command(Wire, tag_field="type", frozen=True, kw_only=True):
    """A player's (or the system's) decision. Subclasses set ``tag="<name>.v<n>"``.

    ``visibility`` says who may see the command in a log before the seed is revealed
    (:mod:`.visibility`); ``None`` (undeclared) hides all but its type.
    """

    visibility: ClassVar[Visibility | None] = None


class Event(Wire, tag_field="type", frozen=True, kw_only=True):
    """A fact produced by ``decide`` and folded by ``evolve``.

    ``reveals_information`` marks events that disclose hidden information without
    consuming dice (a card drawn from a shuffled deck, say): undo never crosses them.
    ``visibility`` says who may see the event in a log before the seed is revealed
    (:mod:`.visibility`); ``None`` (undeclared) hides all but its type.
    """

    reveals_information: ClassVar[bool] = False
    visibility: ClassVar[Visibility | None] = None


ENCODER = msgspec.json.Encoder(order="deterministic")
"""The only encoder records are written with: fixed field order, sorted dict keys."""


def encode(value: Any) -> bytes:
    """Encode one value with :data:`ENCODER`."""
    return ENCODER.encode(value)


def check_tags(*types: type[Wire]) -> None:
    """Raise ``ValueError`` if a type has no tag of the form ``<name>.v<n>`` or two share one."""
    seen: dict[str, type[Wire]] = {}
    for cls in types:
        tag = cls.__struct_config__.tag
        if not isinstance(tag, str) or not TAG_PATTERN.fullmatch(tag):
            raise ValueError(f"{cls.__name__}: tag {tag!r} is not of the form <name>.v<n>")
        if tag in seen:
            raise ValueError(f"{cls.__name__} and {seen[tag].__name__} share the tag {tag!r}")
        seen[tag] = cls


MAX_COMMAND_BYTES = 65536
"""The longest command JSON :func:`decode_command` reads (every game's commands are far
shorter)."""


def decode_command(
    types: Sequence[type[Command]], data: bytes | str | Mapping[str, Any]
) -> Command:
    """The command that ``data`` spells, as a log writes it (``{"type": "bid.v1", ...}``),
    one of ``types`` (a decider's ``command_types``); text or bytes of JSON, or the decoded
    object. :class:`~.errors.MalformedCommand` names what is wrong: not JSON, too long or
    too deep, no such type, a missing or mistyped field (strictly: no ``true`` for a number).
    """
    union: Any = Union[tuple(types)]  # noqa: UP007 - a runtime union of the system's types
    try:
        if isinstance(data, Mapping):
            return msgspec.convert(dict(data), union, strict=True)  # type: ignore[no-any-return]
        raw = data.encode() if isinstance(data, str) else bytes(data)
        if len(raw) > MAX_COMMAND_BYTES:
            raise MalformedCommand(f"a command is at most {MAX_COMMAND_BYTES} bytes of JSON")
        if nesting_depth(raw) > MAX_DEPTH:
            raise MalformedCommand(f"a command nests at most {MAX_DEPTH} levels")
        return msgspec.json.decode(raw, type=union, strict=True)  # type: ignore[no-any-return]
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise MalformedCommand(f"not a command of this rule system: {exc}") from exc
