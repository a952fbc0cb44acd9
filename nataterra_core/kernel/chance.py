"""Random events: the typed base of every event that records randomness (docs/DICE.md).

Every draw a game makes is written into an event, with what an auditor needs to recompute it
from the revealed seed alone, without the game's rules (``docs/DICE.md`` §6). There are
three kinds, each a base class here:

* :class:`DrawEvent`: one ``draw(m)`` (a die roll, a first player): ``m`` and ``value``;
  a die's face, if the game records one, is a game field beside them.
* :class:`DrawsEvent`: several draws in a row: ``ms`` and ``values``, ``values[i]`` being
  ``draw(ms[i])``.
* :class:`ShuffleEvent`: a shuffle of ``deck``: the ids ``before`` and ``after`` it.

All carry ``counter_before`` and ``counter_after``: the stream's counter before the first
word and after the last word the event consumed. The helpers :func:`record_draw`,
:func:`record_draws` and :func:`record_shuffle` make the draws on a :class:`DiceStream` and
return exactly these fields, so every game computes and records randomness one way, and
:func:`recheck` is the auditor's side: it recomputes an event from a stream and says whether
it matches.

The bases declare their fields for type checkers only, and each concrete event declares them
itself: msgspec writes base-class fields first, and a game keeps its fields in the order its
log format already has. A subclass missing one of its kind's fields is refused when it is
defined.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypedDict

from .dice import DiceStream
from .messages import Event

__all__ = [
    "DrawEvent",
    "DrawFields",
    "DrawsEvent",
    "DrawsFields",
    "RandomEvent",
    "ShuffleEvent",
    "ShuffleFields",
    "recheck",
    "record_draw",
    "record_draws",
    "record_shuffle",
]


class RandomEvent(Event, frozen=True, kw_only=True):
    """Base of every event that records randomness; subclass one of its three kinds.

    ``counter_before`` and ``counter_after`` bound the words the event consumed. Both are
    ``None`` only in an event that records a draw some of the time (an attack's result
    that carries its die unless an earlier event already showed it): then all of its random
    fields are ``None`` and it drew nothing.
    """

    _random_fields: ClassVar[tuple[str, ...]] = ("counter_before", "counter_after")

    if TYPE_CHECKING:  # properties, not fields: each concrete event declares the fields

        @property
        def counter_before(self) -> int | None: ...

        @property
        def counter_after(self) -> int | None: ...

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__module__ == __name__:  # the kinds below declare no runtime fields
            return
        if not issubclass(cls, (DrawEvent, DrawsEvent, ShuffleEvent)):
            raise TypeError(f"{cls.__name__}: subclass DrawEvent, DrawsEvent or ShuffleEvent")
        declared: set[str] = set()
        for klass in cls.__mro__:
            declared.update(vars(klass).get("__annotations__", {}))
        missing = [name for name in cls._random_fields if name not in declared]
        if missing:
            raise TypeError(f"{cls.__name__} lacks the random-event fields {missing}")


class DrawEvent(RandomEvent, frozen=True, kw_only=True):
    """One ``draw(m)`` whose result is ``value`` (``0..m-1``): a die, a first player.

    A die event adds its face (``faces[value]``) as a game field: checking it needs the
    game's content, checking ``value`` needs only the stream.
    """

    _random_fields = ("m", "value", "counter_before", "counter_after")

    if TYPE_CHECKING:

        @property
        def m(self) -> int | None: ...

        @property
        def value(self) -> int | None: ...


class DrawsEvent(RandomEvent, frozen=True, kw_only=True):
    """Several draws in a row: ``values[i]`` is ``draw(ms[i])``, in order.

    For picks without replacement (``ms`` = n, n-1, …) ``values[i]`` indexes what is left
    after the earlier picks; which item that is, is the game's business.
    """

    _random_fields = ("ms", "values", "counter_before", "counter_after")

    if TYPE_CHECKING:

        @property
        def ms(self) -> tuple[int, ...]: ...

        @property
        def values(self) -> tuple[int, ...]: ...

        @property
        def counter_before(self) -> int: ...

        @property
        def counter_after(self) -> int: ...


class ShuffleEvent(RandomEvent, frozen=True, kw_only=True):
    """A shuffle of ``deck``: ``before`` became ``after`` (index 0 is the top)."""

    _random_fields = ("deck", "before", "after", "counter_before", "counter_after")

    if TYPE_CHECKING:

        @property
        def deck(self) -> str: ...

        @property
        def before(self) -> tuple[str, ...]: ...

        @property
        def after(self) -> tuple[str, ...]: ...

        @property
        def counter_before(self) -> int: ...

        @property
        def counter_after(self) -> int: ...


class DrawFields(TypedDict):
    """The fields of a :class:`DrawEvent`, as :func:`record_draw` made them."""

    m: int
    value: int
    counter_before: int
    counter_after: int


class DrawsFields(TypedDict):
    """The fields of a :class:`DrawsEvent`, as :func:`record_draws` made them."""

    ms: tuple[int, ...]
    values: tuple[int, ...]
    counter_before: int
    counter_after: int


class ShuffleFields(TypedDict):
    """The fields of a :class:`ShuffleEvent` but ``deck``, as :func:`record_shuffle` made them."""

    before: tuple[str, ...]
    after: tuple[str, ...]
    counter_before: int
    counter_after: int


def record_draw(dice: DiceStream, m: int) -> DrawFields:
    """``draw(m)`` on ``dice``, with the counters around it: ``Event(**record_draw(...))``."""
    before = dice.counter
    value = dice.draw(m)
    return {"m": m, "value": value, "counter_before": before, "counter_after": dice.counter}


def record_draws(dice: DiceStream, ms: Iterable[int]) -> DrawsFields:
    """``draw(m)`` for each of ``ms`` in turn, with the counters around all of them."""
    before = dice.counter
    ranges = tuple(ms)
    values = tuple(dice.draw(m) for m in ranges)
    return {"ms": ranges, "values": values, "counter_before": before, "counter_after": dice.counter}


def record_shuffle(dice: DiceStream, items: Sequence[str]) -> ShuffleFields:
    """Shuffle ``items`` (ids, in their starting order) on ``dice``; ``after[0]`` is the top."""
    before = dice.counter
    after = tuple(dice.shuffle(items))
    return {
        "before": tuple(items),
        "after": after,
        "counter_before": before,
        "counter_after": dice.counter,
    }


def recheck(dice: DiceStream, event: RandomEvent) -> str | None:
    """Recompute ``event`` from ``dice`` alone: ``None`` if it matches, else what differs.

    The auditor's side of this module, needing no game rules. ``dice`` must stand where the
    previous random event left it (the first one of a game at 0), so walking a log's random
    events in order with one stream also checks that each ``counter_before`` is the previous
    ``counter_after``. On a match the stream is left at ``event.counter_after``; an event that
    drew nothing leaves it where it was.
    """
    before, after = event.counter_before, event.counter_after
    if before is None or after is None:
        return None if before is None and after is None else "only one counter is set"
    if before != dice.counter:
        return f"counter_before is {before}, the stream stands at {dice.counter}"
    try:
        if isinstance(event, DrawEvent):
            if event.m is None or event.value is None:
                return "a draw without m or value"
            value = dice.draw(event.m)
            if value != event.value:
                return f"value is {event.value}, draw({event.m}) gives {value}"
        elif isinstance(event, DrawsEvent):
            if len(event.ms) != len(event.values):
                return f"{len(event.ms)} ranges but {len(event.values)} values"
            values = tuple(dice.draw(m) for m in event.ms)
            if values != event.values:
                return f"values are {list(event.values)}, the draws give {list(values)}"
        elif isinstance(event, ShuffleEvent):
            shuffled = tuple(dice.shuffle(event.before))
            if shuffled != event.after:
                return f"after is {list(event.after)}, the shuffle gives {list(shuffled)}"
        else:
            return f"{type(event).__name__} is no draw, draws or shuffle event"
    except ValueError as exc:  # a range outside 1..2**32
        return str(exc)
    if dice.counter != after:
        return f"counter_after is {after}, the stream ends at {dice.counter}"
    return None
