"""A command or event as one reader may see it: what a presenter is handed to word.

A presenter never receives a secret it may not print. Every sentence a seat or a spectator
reads is made from :func:`as_seen` of the record's command and events: the message itself
when the reader may see it whole (its class's visibility keeps every field, or the seed is
revealed), otherwise a :class:`Cut` of it, the same class's fields with the hidden ones
absent. The cut is made by the class's declared visibility
(:mod:`~nataterra_core.kernel.visibility`), the same rule that cuts the log's lines, so the
words can never say more than the record line the reader receives.

A presenter words a cut form by its class, reading the fields it still has as attributes::

    def event(self, event: Event | Cut[Event], view: Any = None) -> str:
        if isinstance(event, Cut):
            if event.of is m.CardDrawn:
                return f"{event.seat} draws a card"  # event.card: AttributeError
            ...
        match event:
            case m.CardDrawn(seat=seat, card=card):
                return f"{seat} draws {card}"  # only a reader who may see the card

Why a generic marker and not a cut class per message: the visibility is declared once, next to
the fields; a second class per secret would say the same thing again and could drift from it.
A :class:`Cut` is typed by the class it cuts (``Cut[CardDrawn]``), says which fields are
hidden, and fails loudly (``AttributeError`` naming the record and the field) when a
sentence reaches for one of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeGuard, TypeVar, cast

import attrs
import msgspec

from .messages import Command, Event
from .visibility import visibility_of

__all__ = ["Cut", "as_seen", "cut_of", "message_class"]

M = TypeVar("M", bound=Command | Event)

_OWN = frozenset({"of", "seen", "hidden"})


@attrs.frozen
class Cut(Generic[M]):
    """A command or event of class :attr:`of` as a reader sees it before the reveal: the
    fields its class's visibility lets that reader see (:attr:`seen`, each decoded to its
    declared type; read them as attributes, ``cut.seat``), and the names of those it may not
    (:attr:`hidden`, whose values a presenter is never given).

    A hidden order's length is seen as ``size`` (:func:`~.visibility.hidden_order`)."""

    of: type[M]
    """The message's class (compare with ``is``: ``cut.of is CardDrawn``)."""
    seen: Mapping[str, Any]
    """The fields the reader may see, by name."""
    hidden: tuple[str, ...]
    """The names of the fields cut for this reader, in declaration order."""

    @property
    def tag(self) -> str:
        """The message's type tag (``card_drawn.v1``), for error messages; never words."""
        return str(self.of.__struct_config__.tag)

    def __getattr__(self, name: str) -> Any:
        # Only called for names that are not Cut's own: a field the reader may see, or a
        # clear error naming the record and the field (never its value).
        if name.startswith("_") or name in _OWN:
            raise AttributeError(name)
        if name in self.seen:
            return self.seen[name]
        if name in self.hidden:
            raise AttributeError(f"{self.tag}: field {name!r} is hidden from this reader")
        raise AttributeError(f"{self.tag} has no field {name!r}")


def cut_of(message: object, cls: type[M]) -> TypeGuard[Cut[M]]:
    """Whether ``message`` is a :class:`Cut` of ``cls`` (a presenter's test for a cut form)."""
    return isinstance(message, Cut) and message.of is cls


def message_class(message: Command | Event | Cut[Any]) -> type[Command | Event]:
    """The class of ``message``, whole or cut."""
    return message.of if isinstance(message, Cut) else type(message)


def as_seen(
    message: M, reader: str | None, actor: str | None, *, revealed: bool = False
) -> M | Cut[M]:
    """``message`` as ``reader`` (``None``: a spectator) may see it: itself when its class's
    visibility keeps every field for ``reader``, or when the seed is ``revealed``; otherwise
    a :class:`Cut`. ``actor`` is the seat of the record holding it (``None``: the system),
    as :meth:`Visibility.redact <.messages.Visibility.redact>` takes it."""
    if revealed:
        return message
    cls = type(message)
    declared = cast("type[Command | Event]", cls)  # mypy cannot widen type[M] to its bound
    info = msgspec.structs.fields(cls)
    # Every field, defaults included (a line omits them): a default a visibility would cut
    # is hidden too, which says no more than the line does.
    whole: dict[str, Any] = {"type": cls.__struct_config__.tag}
    for field in info:
        whole[field.encode_name] = msgspec.to_builtins(getattr(message, field.name))
    cut = visibility_of(declared).redact(dict(whole), reader, actor)
    if cut == whole:
        return message
    seen: dict[str, Any] = {}
    hidden: list[str] = []
    for field in info:
        name = field.encode_name
        if name not in cut:
            hidden.append(field.name)
        elif cut[name] == whole[name]:
            seen[field.name] = getattr(message, field.name)
        else:  # a visibility that rewrites a value: only what it left, typed where it fits
            seen[field.name] = _typed(cut[name], field.type)
    known = {field.encode_name for field in info} | {"type", "redacted"}
    seen.update({name: value for name, value in cut.items() if name not in known})  # ``size``
    return Cut(of=cls, seen=seen, hidden=tuple(hidden))


def _typed(value: Any, kind: Any) -> Any:
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError:
        return value
