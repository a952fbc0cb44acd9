"""Strict cattrs structuring of TOML values into a game's attrs classes, with readable errors.

cattrs coerces by default (``"3"`` -> 3, ``2.5`` -> 2, ``1`` -> ``"1"``, a string into a tuple of
its letters); a content pack must say what it means, so the converter built here accepts only the
exact TOML type: ``3.0`` and ``"3"`` are not integers, ``1`` is not a string, a ``Literal``
field takes one of its values of the same type, an array field takes only an array, a table field
only a table, and unknown keys are errors. An attribute named after a Python keyword plus ``_``
(``class_``) is written without the ``_`` in TOML (``class``).
"""

from __future__ import annotations

import keyword
import re
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import attrs
import cattrs
from cattrs.cols import homogenous_tuple_structure_factory, is_sequence
from cattrs.errors import ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, override

__all__ = [
    "SchemaValueError",
    "make_converter",
    "parse_path",
    "problems_of",
    "structure_int_pairs",
    "toml_type",
]

T = TypeVar("T")


class SchemaValueError(ValueError):
    """A value of the wrong TOML type or outside a closed vocabulary; the message says which.

    A game's own structure hooks raise it so their message is reported as written.
    """


_TOML_TYPES: dict[type, str] = {
    bool: "boolean",
    int: "integer",
    float: "float",
    str: "string",
    list: "array",
    dict: "table",
}


def toml_type(value: Any) -> str:
    """The TOML name of ``value``'s type (``integer``, ``table``, …), for messages."""
    return _TOML_TYPES.get(type(value), type(value).__name__)


def _strict(expected: type[T]) -> Callable[[Any, Any], T]:
    def hook(value: Any, _: Any) -> T:
        if type(value) is not expected:
            msg = f"expected {_TOML_TYPES[expected]}, got {toml_type(value)} {value!r}"
            raise SchemaValueError(msg)
        checked: T = value
        return checked

    return hook


def _is_literal(tp: Any) -> bool:
    return typing.get_origin(tp) is Literal


def _structure_literal(value: Any, tp: Any) -> Any:
    allowed = typing.get_args(tp)
    if value not in allowed or type(value) is not type(allowed[0]):
        msg = f"expected one of {', '.join(map(repr, allowed))}, got {value!r}"
        raise SchemaValueError(msg)
    return value


def _array_factory(tp: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    # cattrs takes any iterable, so a string would become a tuple of its letters.
    elements = homogenous_tuple_structure_factory(tp, converter)

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, list):
            msg = f"expected an array, got {toml_type(value)} {value!r}"
            raise SchemaValueError(msg)
        return elements(value, tp)

    return hook


def _is_keyword_attribute(name: str) -> bool:
    return name.endswith("_") and keyword.iskeyword(name[:-1])


def _table_factory(cls: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    renames: dict[str, Any] = {
        name: override(rename=name[:-1])
        for name in attrs.fields_dict(cls)
        if _is_keyword_attribute(name)
    }
    fields = make_dict_structure_fn(cls, converter, **renames)

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            msg = f"expected a table, got {toml_type(value)} {value!r}"
            raise SchemaValueError(msg)
        return fields(value, cls)

    return hook


def _is_int_pair(tp: Any) -> bool:
    return bool(tp == tuple[int, int])


def _structure_int_pair(value: Any, _: Any) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        msg = f"expected an array of two integers [q, r], got {value!r}"
        raise SchemaValueError(msg)
    return (value[0], value[1])


def structure_int_pairs(converter: cattrs.Converter) -> None:
    """Read ``tuple[int, int]`` fields as TOML arrays of exactly two integers (map
    coordinates ``[q, r]``): a game's ``converter_hooks``, or part of them."""
    converter.register_structure_hook_func(_is_int_pair, _structure_int_pair)


def make_converter(
    extra_hooks: Callable[[cattrs.Converter], None] | None = None,
) -> cattrs.Converter:
    """A strict converter for a pack's attrs classes.

    ``extra_hooks`` registers a game's own hooks after the value and array hooks, so they take
    precedence for the types they claim (a fixed-length tuple such as a coordinate pair).
    """
    converter = cattrs.Converter(forbid_extra_keys=True)
    for tp in (int, str, bool):
        converter.register_structure_hook(tp, _strict(tp))
    converter.register_structure_hook_func(_is_literal, _structure_literal)
    converter.register_structure_hook_factory(is_sequence, _array_factory)
    if extra_hooks is not None:
        extra_hooks(converter)
    converter.register_structure_hook_factory(attrs.has, _table_factory)
    return converter


# cattrs paths look like "$.side_a.abilities[0].id"; schemas use attrs classes and arrays, not
# free-form mappings, so a dot always introduces an attribute.
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _format_exception(exc: BaseException, tp: Any) -> str:
    if isinstance(exc, SchemaValueError):
        return str(exc)
    if isinstance(exc, ForbiddenExtraKeysError):
        return f"unknown key(s): {', '.join(sorted(exc.extra_fields))}"
    if isinstance(exc, KeyError):
        return "required key missing"
    return cattrs.v.format_exception(exc, tp)


def parse_path(path: str) -> tuple[str | int, ...]:
    """The TOML keys of a cattrs path (``"$.a[0].class_"`` -> ``("a", 0, "class")``)."""
    keys: list[str | int] = []
    for name, index in _PATH_PART.findall(path.removeprefix("$")):
        if index:
            keys.append(int(index))
        else:
            keys.append(name[:-1] if _is_keyword_attribute(name) else name)
    return tuple(keys)


def problems_of(exc: cattrs.BaseValidationError) -> list[tuple[tuple[str | int, ...], str]]:
    """Every problem in a cattrs validation error: (TOML keys of the value, message)."""
    found: list[tuple[tuple[str | int, ...], str]] = []
    for line in cattrs.transform_error(exc, "$", _format_exception):
        message, _, where = line.rpartition(" @ ")
        found.append((parse_path(where), message))
    return found
