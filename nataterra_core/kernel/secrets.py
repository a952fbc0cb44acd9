"""Secrets declared once, next to the data: what each field of a state may show to whom.

Every field of a game's state class (and of every struct it nests) carries one declaration in
its annotation (``typing.Annotated``; msgspec ignores metadata that is not its own ``Meta``)::

    hand: Annotated[tuple[str, ...], owned("seat", pool="magic", sort=True)] = ()
    magic_deck: Annotated[tuple[str, ...], hidden(pool="magic")] = ()
    turn: Annotated[int, PUBLIC] = 0

* :data:`PUBLIC`: everyone sees it (nested structs keep their own declarations);
* :func:`owned`: the secret of the seat named by another field (``by``), by the parallel
  tuple of seats (``index``) or by the dict's keys (``key=True``);
* :func:`hidden`: nobody sees its contents, everyone its size (a deck's order; ``keep`` says how
  many leading items a seat knows, such as the cards it scouted);
* :func:`visible_if`: a conditional secret, seen by a seat when a small predicate says so.

From the declarations: :func:`sees` says whether a seat may see one field (a view shows a
field by it, never by a rule of its own), :func:`redact` gives the state a seat may know
(every secret it may not see blanked, sizes kept), :func:`twins` a state that differs from
the first only in what that seat may not see (a leak test's perturbation: cards in one
``pool`` re-dealt among the slots a seat cannot see, sizes kept; ``values`` drawn afresh,
such as dice), and :func:`undeclared` the fields that lack a declaration (a test fails
closed on them). A ``None`` seat is a spectator: it sees the public fields only. Once the
log's seed is revealed (its ``reveal`` record) every secret is public, as the log is
(docs/LOG_FORMAT.md §7): ``revealed=True`` makes :func:`sees` true for every field and seat,
so a replay of a finished game shows what the seed made public (every hand, every cup)
through the same views.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any, Literal, Protocol

import attrs
import msgspec

from .messages import Command, Event

__all__ = [
    "PUBLIC",
    "Dealer",
    "Secrecy",
    "declarations",
    "hidden",
    "owned",
    "redact",
    "secret_fields",
    "sees",
    "struct_classes",
    "twins",
    "undeclared",
    "visible_if",
]


class Dealer(Protocol):
    """What :func:`twins` needs of a seeded ``random.Random`` (the caller's, never global)."""

    def shuffle(self, x: list[Any], /) -> None:
        """Shuffle ``x`` in place."""

    def choice(self, seq: Sequence[Any], /) -> Any:
        """One item of ``seq``."""


Predicate = Callable[[Any, str | None], bool]
"""``(struct, seat) -> bool``: whether ``seat`` may see the field of ``struct``."""


@attrs.frozen
class Secrecy:
    """One field's declaration (build it with :data:`PUBLIC`, :func:`owned`, :func:`hidden`
    or :func:`visible_if`)."""

    kind: Literal["public", "owned", "hidden", "conditional"]
    by: str = ""
    """``owned``: the sibling field naming the owning seat."""
    index: str = ""
    """``owned``: the sibling tuple of seats this tuple runs parallel to."""
    key: bool = False
    """``owned``: the dict's keys are the owning seats."""
    pool: str = ""
    """What a twin re-deals among: slots of one pool share their items."""
    local: bool = False
    """The pool is this struct's own (each player's deck), not the whole state's."""
    sort: bool = False
    """The field is kept sorted (a twin sorts what it deals)."""
    values: tuple[Any, ...] = ()
    """A twin draws each item afresh from these (dice faces) instead of re-dealing."""
    keep: Callable[[Any, str | None], int] | None = None
    """``hidden``: how many leading items ``seat`` knows."""
    visible: Predicate | None = None
    """``conditional``: whether ``seat`` sees the field."""


PUBLIC = Secrecy("public")
"""Seen by every seat and spectator."""


def owned(
    by: str = "",
    *,
    index: str = "",
    key: bool = False,
    pool: str = "",
    local: bool = False,
    sort: bool = False,
    values: Sequence[Any] = (),
) -> Secrecy:
    """The secret of one seat (its size public): named by the field ``by``, by the parallel
    tuple of seats ``index``, or by the dict's keys (``key=True``)."""
    if sum((bool(by), bool(index), key)) != 1:
        raise ValueError("owned() takes exactly one of by, index, key")
    return Secrecy(
        "owned", by=by, index=index, key=key, pool=pool, local=local, sort=sort,
        values=tuple(values),
    )  # fmt: skip


def hidden(
    *, pool: str = "", local: bool = False, keep: Callable[[Any, str | None], int] | None = None
) -> Secrecy:
    """Hidden from everyone, its size public (a deck's order); ``keep(struct, seat)`` leading
    items known to ``seat``."""
    return Secrecy("hidden", pool=pool, local=local, keep=keep)


def visible_if(predicate: Predicate, *, pool: str = "", local: bool = False) -> Secrecy:
    """Seen by ``seat`` when ``predicate(struct, seat)`` holds, by nobody else (size public)."""
    return Secrecy("conditional", pool=pool, local=local, visible=predicate)


def sees(
    struct: msgspec.Struct,
    field: str,
    seat: str | None,
    *,
    item: Any = None,
    revealed: bool = False,
) -> bool:
    """Whether ``seat`` (``None``: a spectator) may see ``struct``'s ``field`` by its
    declaration: always once the seed is ``revealed``; a public field always; an owned one
    when ``seat`` owns it (``item``: the index into a tuple ``owned(index=...)`` or the
    key of a dict ``owned(key=True)``); a conditional one when its predicate says so; a
    hidden one (a deck's order) never (its known prefix, ``keep``, is the view's to show)."""
    if revealed:
        return True
    decl = declarations(type(struct)).get(field)
    if decl is None:
        raise TypeError(f"{type(struct).__qualname__}.{field} declares no secrecy")
    if decl.kind == "public":
        return True
    if decl.kind == "owned":
        if decl.index:
            return seat is not None and getattr(struct, decl.index)[item] == seat
        if decl.key:
            return seat is not None and item == seat
        return seat is not None and getattr(struct, decl.by) == seat
    if decl.kind == "conditional":
        return decl.visible is not None and decl.visible(struct, seat)
    return False


def _structs_in(hint: Any) -> Iterator[type[msgspec.Struct]]:
    if isinstance(hint, type) and issubclass(hint, msgspec.Struct):
        yield hint
        return
    for arg in typing.get_args(hint):
        yield from _structs_in(arg)


def _declared(hint: Any) -> Secrecy | None:
    if typing.get_origin(hint) is typing.Annotated:
        for meta in hint.__metadata__:
            if isinstance(meta, Secrecy):
                return meta
    return None


@cache
def _hints(cls: type[msgspec.Struct]) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


@cache
def declarations(cls: type[msgspec.Struct]) -> dict[str, Secrecy]:
    """Each declared field of ``cls`` with its declaration."""
    hints = _hints(cls)
    found = {name: _declared(hints[name]) for name in cls.__struct_fields__}
    return {name: d for name, d in found.items() if d is not None}


def _is_message(cls: type) -> bool:
    # Commands and events nested in a state keep their own field-level visibility.
    return issubclass(cls, (Command, Event))


def struct_classes(root: type[msgspec.Struct]) -> list[type[msgspec.Struct]]:
    """``root`` and every struct class its fields nest (messages excepted), in walk order."""
    seen: list[type[msgspec.Struct]] = []
    todo = [root]
    while todo:
        cls = todo.pop()
        if cls in seen or _is_message(cls):
            continue
        seen.append(cls)
        for hint in _hints(cls).values():
            todo.extend(_structs_in(hint))
    return seen


def undeclared(root: type[msgspec.Struct]) -> list[str]:
    """``Class.field`` for every field of ``root`` and its nested structs with no declaration
    (a state is checked closed: an undeclared field is a failure, never public by default)."""
    return [
        f"{cls.__qualname__}.{name}"
        for cls in struct_classes(root)
        for name in cls.__struct_fields__
        if name not in declarations(cls)
    ]


def secret_fields(root: type[msgspec.Struct]) -> list[str]:
    """``Class.field`` for every field declared secret in ``root`` and what it nests."""
    return [
        f"{cls.__qualname__}.{name}"
        for cls in struct_classes(root)
        for name, d in declarations(cls).items()
        if d.kind != "public"
    ]


Path = tuple[Any, ...]


@attrs.frozen
class _Slot:
    path: Path
    value: Any
    keep: int
    pool: tuple[Any, ...]
    decl: Secrecy


def _slots(value: Any, seat: str | None, path: Path, out: list[_Slot]) -> None:
    if isinstance(value, msgspec.Struct):
        if _is_message(type(value)):
            return
        decls = declarations(type(value))
        for name in value.__struct_fields__:
            field = getattr(value, name)
            decl = decls.get(name)
            if decl is None:
                raise TypeError(f"{type(value).__qualname__}.{name} declares no secrecy")
            here = (*path, name)
            if decl.kind == "public":
                _slots(field, seat, here, out)
            else:
                _secret(value, field, decl, seat, here, out)
    elif isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            _slots(item, seat, (*path, i), out)
    elif isinstance(value, dict):
        for k, item in value.items():
            _slots(item, seat, (*path, k), out)


def _secret(
    struct: Any, field: Any, decl: Secrecy, seat: str | None, path: Path, out: list[_Slot]
) -> None:
    base = (path[:-1], decl.pool) if decl.local else (decl.pool or path,)
    if decl.kind == "owned" and decl.index:
        owners = getattr(struct, decl.index)
        for i, item in enumerate(field):
            if owners[i] != seat:
                out.append(_Slot((*path, i), item, 0, base, decl))
        return
    if decl.kind == "owned" and decl.key:
        for k, item in field.items():
            if k != seat:
                out.append(_Slot((*path, k), item, 0, base, decl))
        return
    if decl.kind == "owned" and getattr(struct, decl.by) == seat:
        return
    if decl.kind == "conditional" and decl.visible is not None and decl.visible(struct, seat):
        return
    keep = decl.keep(struct, seat) if decl.keep is not None else 0
    if isinstance(field, dict):  # one deck per key, each its own pool
        for k, item in field.items():
            out.append(_Slot((*path, k), item, keep, (*base, k), decl))
    else:
        out.append(_Slot(path, field, keep, base, decl))


def _with(value: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    step, rest = path[0], path[1:]
    if isinstance(value, msgspec.Struct):
        return msgspec.structs.replace(value, **{step: _with(getattr(value, step), rest, new)})
    if isinstance(value, dict):
        return {**value, step: _with(value[step], rest, new)}
    items = list(value)
    items[step] = _with(items[step], rest, new)
    return type(value)(items)


def _blank(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return type(value)(type(item)() for item in value)
    return type(value)()


def redact(state: Any, seat: str | None) -> Any:
    """``state`` as ``seat`` may know it: every secret it may not see blanked (each item an
    empty string or zero, sizes kept); ``None`` is a spectator (public fields only)."""
    slots: list[_Slot] = []
    _slots(state, seat, (), slots)
    for slot in slots:
        value = slot.value
        if isinstance(value, (tuple, list)):
            new = type(value)((*value[: slot.keep], *_blank(value[slot.keep :])))
        else:
            new = _blank(value)
        state = _with(state, slot.path, new)
    return state


def twins(state: Any, seat: str | None, rng: Dealer) -> Any:
    """A state that differs from ``state`` only in what ``seat`` may not see: each pool's
    unseen items re-dealt among its unseen slots (sizes and seen prefixes kept), items with
    declared ``values`` drawn afresh."""
    slots: list[_Slot] = []
    _slots(state, seat, (), slots)
    pools: dict[tuple[Any, ...], list[_Slot]] = {}
    for slot in slots:
        if isinstance(slot.value, (tuple, list)):
            pools.setdefault(slot.pool, []).append(slot)
    for members in pools.values():
        shared = [item for slot in members for item in slot.value[slot.keep :]]
        rng.shuffle(shared)
        for slot in members:
            n = len(slot.value) - slot.keep
            dealt, shared = shared[:n], shared[n:]
            if slot.decl.values:
                dealt = [rng.choice(slot.decl.values) for _ in dealt]
            if slot.decl.sort:
                dealt.sort()
            new = type(slot.value)((*slot.value[: slot.keep], *dealt))
            state = _with(state, slot.path, new)
    return state
