"""Research interfaces: observation encoders and stable action codecs (the registry's hooks).

Learning agents and search libraries (PettingZoo, OpenSpiel) want two fixed things of a game:
an observation of fixed shape, and a fixed, finite set of actions. A rule system offers them
through two hooks of :class:`~nataterra_core.kernel.registry.Hooks`, each a factory called
with the decider and the game's :class:`~nataterra_core.kernel.decider.Setup` (seats and
options), because the sizes depend on the game: its map, its seats, its content pack.

* :class:`ObservationEncoder` maps a **seat view** (never the state, so nothing hidden can
  leak into it) to a flat list of floats of a fixed length, laid out in named
  :class:`Segment` s that document what each position means.
* :class:`ActionCodec` maps commands to indices ``0 .. size - 1``. The same index means the
  same command in every state of every game with that set-up: an index names the command's
  *fields* (a unit, a zone, a count ...), never a position in today's legal list. Legal
  lists become masks; ``decode`` picks the legal command an index names.

:class:`FactoredCodec` builds a codec from :class:`Block` s (one command type, some fields
fixed, the others ranging over finite domains, numbered in mixed radix), so a game only
declares its domains. A command may be keyed by derived values (``key``): a move is named by
its endpoints, its canonical path being the rules' business; ``decode`` then returns the
listed command with that key.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from .decider import Decider, Setup
from .errors import EngineError
from .messages import Command

__all__ = [
    "ActionCodec",
    "Block",
    "CodecError",
    "CodecFactory",
    "FactoredCodec",
    "Features",
    "Layout",
    "ObservationEncoder",
    "ObservationFactory",
    "Segment",
]


class CodecError(EngineError, ValueError):
    """A command the codec has no index for, or an index no legal command has."""


# -- observations -------------------------------------------------------------------------


@attrs.frozen
class Segment:
    """A named run of ``size`` features of an observation; ``doc`` says what they mean."""

    name: str
    size: int
    doc: str


@attrs.frozen
class Layout:
    """An observation's segments in order, with their offsets (a documented, fixed shape)."""

    segments: tuple[Segment, ...]
    offsets: Mapping[str, int] = attrs.field(init=False)
    sizes: Mapping[str, int] = attrs.field(init=False)
    size: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        offsets: dict[str, int] = {}
        at = 0
        for segment in self.segments:
            if segment.name in offsets:
                raise ValueError(f"segment {segment.name!r} twice in a layout")
            offsets[segment.name] = at
            at += segment.size
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "sizes", {s.name: s.size for s in self.segments})
        object.__setattr__(self, "size", at)

    def describe(self) -> str:
        """One line per segment: offset, size, name and meaning."""
        return "\n".join(
            f"{self.offsets[s.name]:>6} {s.size:>5}  {s.name}: {s.doc}" for s in self.segments
        )

    def features(self) -> Features:
        """A zeroed feature vector to fill."""
        return Features(self)


class Features:
    """A feature vector being filled segment by segment (positions checked against sizes)."""

    __slots__ = ("layout", "values")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.values = [0.0] * layout.size

    def _at(self, name: str, index: int) -> int:
        size = self.layout.sizes[name]
        if not 0 <= index < size:
            raise IndexError(f"{name}[{index}] is outside its {size} features")
        return self.layout.offsets[name] + index

    def set(self, name: str, index: int, value: float) -> None:
        """Feature ``index`` of segment ``name`` becomes ``value``."""
        self.values[self._at(name, index)] = float(value)

    def add(self, name: str, index: int, value: float) -> None:
        """Add ``value`` to feature ``index`` of segment ``name``."""
        self.values[self._at(name, index)] += float(value)

    def put(self, name: str, values: Sequence[float], start: int = 0) -> None:
        """Write ``values`` into segment ``name`` from feature ``start`` on."""
        if not values:
            return
        at = self._at(name, start)
        self._at(name, start + len(values) - 1)
        for i, value in enumerate(values):
            self.values[at + i] = float(value)


class ObservationEncoder(Protocol):
    """A seat view as a fixed-length feature vector with a documented layout."""

    @property
    def layout(self) -> Layout:
        """The segments, in order; ``layout.size`` is the vector's length."""

    def encode(self, view: Any) -> list[float]:
        """The features of ``view`` (a seat's view, or a spectator's), ``layout.size`` long."""


ObservationFactory = Callable[[Decider[Any, Any, Any], Setup], ObservationEncoder]
"""The observation hook: the encoder for one game set-up (decider, seats and options)."""


# -- actions ------------------------------------------------------------------------------


class ActionCodec(Protocol):
    """Commands as indices ``0 .. size - 1``; the same index names the same command in
    every state (never a position in the legal list)."""

    @property
    def size(self) -> int:
        """How many distinct actions there are."""

    def encode(self, command: Command) -> int:
        """The index of ``command``; :class:`CodecError` if it has none."""

    def decode(self, index: int, legal: Sequence[Command]) -> Command:
        """The command of ``legal`` that ``index`` names; :class:`CodecError` if none."""

    def mask(self, legal: Sequence[Command]) -> bytearray:
        """``size`` bytes, 1 where an action is legal (its command is in ``legal``)."""

    def describe(self, index: int) -> str:
        """What ``index`` means, in any state (``move_units.v1 unit=orc ...``)."""


CodecFactory = Callable[[Decider[Any, Any, Any], Setup], ActionCodec]
"""The action-codec hook: the codec for one game set-up (decider, seats and options)."""


KeyFunction = Callable[[Command], Mapping[str, Any]]
"""A command's key fields: what its index names (by default, all its fields)."""


def fields_of(command: Command) -> dict[str, Any]:
    """Every field of ``command`` by name (the default key)."""
    return {name: getattr(command, name) for name in command.__struct_fields__}


@attrs.frozen
class Block:
    """The indices of one command type with ``fixed`` key fields set and ``fields`` ranging
    over their domains; its ``size`` is the product of the domain sizes (mixed radix, the
    last field varying fastest)."""

    command: type[Command]
    fixed: tuple[tuple[str, Any], ...]
    fields: tuple[tuple[str, tuple[Any, ...]], ...]
    _index: tuple[dict[Any, int], ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        index = []
        for name, domain in self.fields:
            positions = {_hashable(v): i for i, v in enumerate(domain)}
            if len(positions) != len(domain):
                raise ValueError(f"{self.tag}.{name}: a domain value appears twice")
            index.append(positions)
        object.__setattr__(self, "_index", tuple(index))

    @property
    def tag(self) -> str:
        """The command type's wire tag."""
        return str(self.command.__struct_config__.tag)

    @property
    def size(self) -> int:
        """How many indices the block holds."""
        size = 1
        for _, domain in self.fields:
            size *= len(domain)
        return size

    def position(self, key: Mapping[str, Any]) -> int | None:
        """The key's place in the block, or ``None`` when the block does not hold it."""
        for name, value in self.fixed:
            if key.get(name) != value or type(key.get(name)) is not type(value):
                return None
        at = 0
        for (name, domain), positions in zip(self.fields, self._index, strict=True):
            found = positions.get(_hashable(key.get(name)))
            if found is None:
                return None
            at = at * len(domain) + found
        return at

    def key_at(self, position: int) -> dict[str, Any]:
        """The key fields of the block's ``position``-th index."""
        values: dict[str, Any] = {}
        for name, domain in reversed(self.fields):
            position, digit = divmod(position, len(domain))
            values[name] = domain[digit]
        return {**dict(self.fixed), **dict(reversed(list(values.items())))}


def _hashable(value: Any) -> Any:
    """A dictionary key that keeps ``True`` apart from ``1`` and ``None`` apart from ``0``."""
    return (type(value).__name__, value)


class FactoredCodec:
    """An :class:`ActionCodec` made of blocks laid end to end (block order is the index
    order). ``keys`` overrides the key of some command types (by default all their fields)."""

    def __init__(
        self, blocks: Iterable[Block], keys: Mapping[type[Command], KeyFunction] | None = None
    ) -> None:
        self.blocks = tuple(b for b in blocks if b.size > 0)
        self._keys = dict(keys or {})
        self._starts: list[int] = []
        by_type: dict[type[Command], dict[tuple[str, ...], dict[Any, list[int]]]] = {}
        at = 0
        for number, block in enumerate(self.blocks):
            self._starts.append(at)
            at += block.size
            names = tuple(name for name, _ in block.fixed)
            values = tuple(_hashable(v) for _, v in block.fixed)
            groups = by_type.setdefault(block.command, {})
            groups.setdefault(names, {}).setdefault(values, []).append(number)
        self._size = at
        self._by_type = by_type

    @property
    def size(self) -> int:
        """How many distinct actions there are."""
        return self._size

    def key(self, command: Command) -> Mapping[str, Any]:
        """The fields an index names for ``command``."""
        derive = self._keys.get(type(command))
        return derive(command) if derive is not None else fields_of(command)

    def encode(self, command: Command) -> int:
        """The index of ``command``; :class:`CodecError` if no block holds it."""
        groups = self._by_type.get(type(command))
        if groups is not None:
            key = self.key(command)
            for names, by_values in groups.items():
                candidates = by_values.get(tuple(_hashable(key.get(n)) for n in names), ())
                for number in candidates:
                    found = self.blocks[number].position(key)
                    if found is not None:
                        return self._starts[number] + found
        raise CodecError(f"the action codec has no index for {command!r}")

    def meaning(self, index: int) -> tuple[type[Command], dict[str, Any]]:
        """The command type and key fields ``index`` names, whatever the state."""
        if not 0 <= index < self._size:
            raise CodecError(f"action {index} is outside 0..{self._size - 1}")
        number = bisect.bisect_right(self._starts, index) - 1
        block = self.blocks[number]
        return block.command, block.key_at(index - self._starts[number])

    def decode(self, index: int, legal: Sequence[Command]) -> Command:
        """The command of ``legal`` with this index; :class:`CodecError` if none has it."""
        command_type, key = self.meaning(index)
        for command in legal:
            if type(command) is command_type and self._same_key(command, key):
                return command
        raise CodecError(f"action {index} ({self.describe(index)}) is not legal now")

    def _same_key(self, command: Command, key: Mapping[str, Any]) -> bool:
        mine = self.key(command)
        return all(_hashable(mine.get(n)) == _hashable(v) for n, v in key.items())

    def indices(self, legal: Sequence[Command]) -> list[int]:
        """The index of each legal command, in the list's order."""
        return [self.encode(command) for command in legal]

    def mask(self, legal: Sequence[Command]) -> bytearray:
        """``size`` bytes, 1 where the action is legal."""
        mask = bytearray(self._size)
        for index in self.indices(legal):
            mask[index] = 1
        return mask

    def describe(self, index: int) -> str:
        """``tag field=value ...`` for ``index``."""
        command_type, key = self.meaning(index)
        words = " ".join(f"{name}={value}" for name, value in key.items())
        return f"{command_type.__struct_config__.tag} {words}".rstrip()

    def summary(self) -> list[tuple[str, int]]:
        """How many indices each command type holds, in index order (for documentation)."""
        sizes: dict[str, int] = {}
        for block in self.blocks:
            sizes[block.tag] = sizes.get(block.tag, 0) + block.size
        return list(sizes.items())
