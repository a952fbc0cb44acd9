"""Load, overlay and validate content packs (design.md §1).

**Pack layout.** A pack is a directory of ``*.toml`` files, read recursively (names starting with
``.`` are skipped). ``pack.toml`` at its root holds the ``[pack]`` table (id, version). Any file
may hold a ``[die]`` table (once per pack) and arrays of tables for the collections
``essences``, ``civilisations``, ``units``, ``techs``, ``tactics``, ``structures``,
``biome_cards``, ``victory_conditions``, ``map_tiles`` and ``maps``; every entry has an ``id``
that is unique in its collection across the pack's files.

**Overlay by id.** A user pack (``overlay_dir``) has the same layout. An overlay entry whose id
exists in the provisional pack is merged over that entry key by key before it is structured:
tables (``cost``, ``side_a``, ``injury``, …) merge recursively, every other value (numbers,
strings, arrays such as ``abilities`` or ``tiles``) replaces the base value whole. So a user
enters only the printed values they have, e.g. ``[[units]] id = "orc"`` with
``side_a = { health = 10 }``. A new id adds an entry. The overlay's ``[die]`` merges over the
base die the same way. Entries cannot be removed, and a key cannot be unset (a side's
``injury``, for one, can be changed but not dropped).

**Validation.** Everything is checked before anything is returned: TOML syntax, the schema (via
cattrs, with exact TOML types: ``3.0`` is not an integer, ``"3"`` is not a number), duplicate
ids, references between entries, value ranges, map geometry and the rulebook's binding facts
(:mod:`nataterra_core.games.nataterra.content.binding`). Every problem is collected, named by file
and path (a merged entry's problem is put in the file that supplied the offending value), and raised
at once as one :class:`~nataterra_core.kernel.errors.ContentError`.

**Effective SHA-256.** Over every pack file, named ``base/<relative POSIX path>`` for the
provisional pack and ``overlay/<relative POSIX path>`` for the user pack, sorted by name: one
SHA-256 over ``name ‖ 0x00 ‖ bytes ‖ 0x00`` for each, lowercase hex (design.md §1). The pack files
are the ``*.toml`` files the loader reads.
"""

from __future__ import annotations

import functools
import hashlib
import re
import tomllib
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypeVar

import attrs
import cattrs
from cattrs.cols import homogenous_tuple_structure_factory, is_sequence
from cattrs.errors import ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, override

from nataterra_core.games.nataterra.content import binding, checks
from nataterra_core.games.nataterra.content.schema import (
    AttackDie,
    BiomeCard,
    Civilisation,
    ContentPack,
    Essence,
    MapDef,
    MapTile,
    PackInfo,
    Structure,
    TacticCard,
    TechCard,
    UnitType,
    VictoryCondition,
)
from nataterra_core.kernel.errors import ContentError, ContentProblem

__all__ = ["PROVISIONAL_DIR", "effective_sha256", "load_pack", "pack_files"]

PROVISIONAL_DIR = Path(__file__).resolve().parent / "packs" / "provisional"
"""The provisional pack shipped with the package."""

_COLLECTIONS: dict[str, type[Any]] = {
    "essences": Essence,
    "civilisations": Civilisation,
    "units": UnitType,
    "techs": TechCard,
    "tactics": TacticCard,
    "structures": Structure,
    "biome_cards": BiomeCard,
    "victory_conditions": VictoryCondition,
    "map_tiles": MapTile,
    "maps": MapDef,
}
_SINGLETONS = ("pack", "die")

T = TypeVar("T")
Layer = Literal["base", "overlay"]


# --- Public API ---------------------------------------------------------------------------


def load_pack(overlay_dir: Path | None = None) -> ContentPack:
    """Load the provisional pack, with the user pack in ``overlay_dir`` merged over it by id.

    The provisional pack alone is loaded once per process and shared (it is immutable).

    Raises:
        ContentError: listing every problem found, each with its file and path.
    """
    if overlay_dir is None:
        return _load_provisional()
    return _load(PROVISIONAL_DIR, Path(overlay_dir))


def pack_files(directory: Path) -> list[tuple[str, Path]]:
    """The pack files under ``directory``: (relative POSIX path, path), sorted by relative path."""
    found = [
        (path.relative_to(directory).as_posix(), path)
        for path in directory.rglob("*.toml")
        if path.is_file() and not any(p.startswith(".") for p in path.relative_to(directory).parts)
    ]
    return sorted(found)


def effective_sha256(base_dir: Path, overlay_dir: Path | None = None) -> str:
    """The effective SHA-256 of a base pack with an optional overlay (design.md §1)."""
    named = [(f"base/{rel}", path.read_bytes()) for rel, path in pack_files(base_dir)]
    if overlay_dir is not None:
        named += [(f"overlay/{rel}", path.read_bytes()) for rel, path in pack_files(overlay_dir)]
    return _hash_named(named)


# --- Loading ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _load_provisional() -> ContentPack:
    return _load(PROVISIONAL_DIR, None)


def _hash_named(named: list[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in sorted(named):
        digest.update(name.encode("utf-8") + b"\x00" + data + b"\x00")
    return digest.hexdigest()


@attrs.frozen
class _Source:
    """Where a table came from: the file's hash name, the path of the table in it, its raw value."""

    file: str
    path: str
    raw: Mapping[str, Any]


@attrs.define
class _Entry:
    """One entry (or singleton table) after the overlay merge, remembering its sources."""

    raw: dict[str, Any]
    base: _Source | None = None
    overlay: _Source | None = None

    def locate(self, keys: tuple[str | int, ...]) -> tuple[str, str]:
        """File and path of the value at ``keys``: the overlay's if it supplied that value."""
        source = self._owner(keys)
        return source.file, source.path + "".join(
            f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys
        )

    def _owner(self, keys: tuple[str | int, ...]) -> _Source:
        if self.overlay is None:
            assert self.base is not None
            return self.base
        if self.base is None:
            return self.overlay
        node: Any = self.overlay.raw
        for key in keys:
            if not isinstance(node, Mapping):
                return self.overlay  # inside a value the overlay replaced whole
            if key not in node:
                return self.base
            node = node[key]
        return self.overlay


@attrs.define
class _LayerData:
    """What one pack directory holds, before merging."""

    named_bytes: list[tuple[str, bytes]] = attrs.Factory(list)
    info: _Source | None = None
    die: _Source | None = None
    entries: dict[str, dict[str, _Source]] = attrs.Factory(
        lambda: {name: {} for name in _COLLECTIONS}
    )


class _Problems:
    """Collects problems; :meth:`raise_if_any` raises them as one ContentError."""

    def __init__(self) -> None:
        self.items: list[ContentProblem] = []

    def add(self, file: str, path: str, message: str) -> None:
        self.items.append(ContentProblem(file, path, message))

    def raise_if_any(self) -> None:
        if self.items:
            raise ContentError(self.items)


def _load(base_dir: Path, overlay_dir: Path | None) -> ContentPack:
    problems = _Problems()
    base = _read_layer("base", base_dir, problems)
    overlay = _read_layer("overlay", overlay_dir, problems) if overlay_dir is not None else None
    sha256 = _hash_named(base.named_bytes + (overlay.named_bytes if overlay else []))

    info_entry = _merge_singleton(base.info, None)
    die_entry = _merge_singleton(base.die, overlay.die if overlay else None)
    entries = {name: _merge_collection(name, base, overlay) for name in _COLLECTIONS}

    base_info = _structure(info_entry, PackInfo, problems) if info_entry else None
    overlay_info = None
    if overlay is not None and overlay.info is not None:
        overlay_info = _structure(
            _Entry(dict(overlay.info.raw), overlay=overlay.info), PackInfo, problems
        )
    die = _structure(die_entry, AttackDie, problems) if die_entry else None
    if die_entry is None:
        problems.add("base/pack.toml", "$.die", "the pack has no [die] table")

    structured: dict[str, dict[str, Any]] = {}
    incomplete: set[str] = set()
    for name, cls in _COLLECTIONS.items():
        structured[name] = {}
        for entry_id, entry in entries[name].items():
            value = _structure(entry, cls, problems)
            if value is None:
                incomplete.add(name)
            else:
                structured[name][entry_id] = value

    locator = _Locator(entries, die_entry, info_entry)
    pack = ContentPack(
        base=base_info or PackInfo(id="", version=""),
        overlay=overlay_info,
        sha256=sha256,
        die=die or AttackDie(faces=()),
        **{name: MappingProxyType(values) for name, values in structured.items()},
    )
    raw_ids = {name: frozenset(values) for name, values in entries.items()}
    problems.items += checks.check_pack(pack, raw_ids, locator)
    problems.items += binding.check_binding_facts(pack, locator, incomplete)
    problems.raise_if_any()
    return pack


def _read_layer(layer: Layer, directory: Path, problems: _Problems) -> _LayerData:
    data = _LayerData()
    if not directory.is_dir():
        problems.add(f"{layer}/", "$", f"not a directory: {directory}")
        return data
    for rel, path in pack_files(directory):
        name = f"{layer}/{rel}"
        content = path.read_bytes()
        data.named_bytes.append((name, content))
        try:
            document = tomllib.loads(content.decode("utf-8"))
        except UnicodeDecodeError as exc:
            problems.add(name, "$", f"not UTF-8: {exc}")
            continue
        except tomllib.TOMLDecodeError as exc:
            problems.add(name, "$", f"invalid TOML: {exc}")
            continue
        _read_document(name, rel, document, data, problems)
    if data.info is None:
        problems.add(f"{layer}/pack.toml", "$.pack", "required [pack] table (id, version) missing")
    return data


def _read_document(
    name: str, rel: str, document: dict[str, Any], data: _LayerData, problems: _Problems
) -> None:
    for key, value in document.items():
        if key in _SINGLETONS:
            if not isinstance(value, dict):
                problems.add(name, f"$.{key}", f"expected a table, got {_toml_type(value)}")
            elif key == "pack" and rel != "pack.toml":
                problems.add(name, "$.pack", "[pack] belongs in the pack's root pack.toml")
            elif key == "pack":
                data.info = _Source(name, "$.pack", value)
            elif data.die is not None:
                first = data.die
                problems.add(
                    name, "$.die", f"second [die] table (first at {first.file} {first.path})"
                )
            else:
                data.die = _Source(name, "$.die", value)
        elif key in _COLLECTIONS:
            _read_collection(name, key, value, data.entries[key], problems)
        else:
            expected = ", ".join([*_SINGLETONS, *_COLLECTIONS])
            problems.add(name, f"$.{key}", f"unknown table {key!r}; expected one of: {expected}")


def _read_collection(
    name: str, key: str, value: Any, seen: dict[str, _Source], problems: _Problems
) -> None:
    if not isinstance(value, list):
        problems.add(
            name, f"$.{key}", f"expected an array of tables ([[{key}]]), got {_toml_type(value)}"
        )
        return
    for index, item in enumerate(value):
        path = f"$.{key}[{index}]"
        if not isinstance(item, dict):
            problems.add(name, path, f"expected a table, got {_toml_type(item)}")
            continue
        entry_id = item.get("id")
        if not isinstance(entry_id, str) or not entry_id:
            problems.add(name, f"{path}.id", "every entry needs a non-empty string id")
            continue
        if entry_id in seen:
            first = seen[entry_id]
            problems.add(
                name,
                f"{path}.id",
                f"duplicate id {entry_id!r} (first at {first.file} {first.path})",
            )
            continue
        seen[entry_id] = _Source(name, path, item)


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        old = merged.get(key)
        if isinstance(value, Mapping) and isinstance(old, Mapping):
            merged[key] = _merge(old, value)
        else:
            merged[key] = value
    return merged


def _merge_singleton(base: _Source | None, over: _Source | None) -> _Entry | None:
    if base is None and over is None:
        return None
    raw = _merge(base.raw if base else {}, over.raw if over else {})
    return _Entry(raw, base=base, overlay=over)


def _merge_collection(name: str, base: _LayerData, overlay: _LayerData | None) -> dict[str, _Entry]:
    merged = {
        entry_id: _Entry(dict(src.raw), base=src) for entry_id, src in base.entries[name].items()
    }
    if overlay is not None:
        for entry_id, src in overlay.entries[name].items():
            old = merged.get(entry_id)
            if old is None:
                merged[entry_id] = _Entry(dict(src.raw), overlay=src)
            else:
                merged[entry_id] = _Entry(_merge(old.raw, src.raw), base=old.base, overlay=src)
    return merged


# --- Structuring (cattrs) -----------------------------------------------------------------


class _SchemaValueError(ValueError):
    """A value of the wrong TOML type or outside a closed vocabulary; the message says which."""


_TOML_TYPES: dict[type, str] = {
    bool: "boolean",
    int: "integer",
    float: "float",
    str: "string",
    list: "array",
    dict: "table",
}


def _toml_type(value: Any) -> str:
    return _TOML_TYPES.get(type(value), type(value).__name__)


def _strict(expected: type[T]) -> Callable[[Any, Any], T]:
    # cattrs would coerce ("3" -> 3, 2.5 -> 2, 1 -> "1"); a pack must say what it means.
    def hook(value: Any, _: Any) -> T:
        if type(value) is not expected:
            msg = f"expected {_TOML_TYPES[expected]}, got {_toml_type(value)} {value!r}"
            raise _SchemaValueError(msg)
        checked: T = value
        return checked

    return hook


def _is_literal(tp: Any) -> bool:
    return typing.get_origin(tp) is Literal


def _structure_literal(value: Any, tp: Any) -> Any:
    allowed = typing.get_args(tp)
    if value not in allowed or type(value) is not type(allowed[0]):
        msg = f"expected one of {', '.join(map(repr, allowed))}, got {value!r}"
        raise _SchemaValueError(msg)
    return value


def _is_pair(tp: Any) -> bool:
    return bool(tp == tuple[int, int])


def _structure_pair(value: Any, _: Any) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        msg = f"expected an array of two integers [q, r], got {value!r}"
        raise _SchemaValueError(msg)
    return (value[0], value[1])


def _array_factory(tp: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    # cattrs takes any iterable, so a string would become a tuple of its letters.
    elements = homogenous_tuple_structure_factory(tp, converter)

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, list):
            msg = f"expected an array, got {_toml_type(value)} {value!r}"
            raise _SchemaValueError(msg)
        return elements(value, tp)

    return hook


def _table_factory(cls: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    # ``class`` is a Python keyword: the attribute is ``class_``, the TOML key ``class``.
    if "class_" in attrs.fields_dict(cls):
        fields = make_dict_structure_fn(cls, converter, class_=override(rename="class"))
    else:
        fields = make_dict_structure_fn(cls, converter)

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            msg = f"expected a table, got {_toml_type(value)} {value!r}"
            raise _SchemaValueError(msg)
        return fields(value, cls)

    return hook


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True)
    for tp in (int, str, bool):
        converter.register_structure_hook(tp, _strict(tp))
    converter.register_structure_hook_func(_is_literal, _structure_literal)
    converter.register_structure_hook_factory(is_sequence, _array_factory)
    converter.register_structure_hook_func(_is_pair, _structure_pair)
    converter.register_structure_hook_factory(attrs.has, _table_factory)
    return converter


_CONVERTER = _make_converter()
# cattrs paths look like "$.side_a.abilities[0].id" (no mapping keys in this schema).
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _format_exception(exc: BaseException, tp: Any) -> str:
    if isinstance(exc, _SchemaValueError):
        return str(exc)
    if isinstance(exc, ForbiddenExtraKeysError):
        return f"unknown key(s): {', '.join(sorted(exc.extra_fields))}"
    if isinstance(exc, KeyError):
        return "required key missing"
    return cattrs.v.format_exception(exc, tp)


def _parse_path(path: str) -> tuple[str | int, ...]:
    keys: list[str | int] = []
    for name, index in _PATH_PART.findall(path.removeprefix("$")):
        if index:
            keys.append(int(index))
        else:
            keys.append("class" if name == "class_" else name)
    return tuple(keys)


def _structure(entry: _Entry, cls: type[T], problems: _Problems) -> T | None:
    try:
        return _CONVERTER.structure(entry.raw, cls)
    except cattrs.BaseValidationError as exc:
        for line in cattrs.transform_error(exc, "$", _format_exception):
            message, _, where = line.rpartition(" @ ")
            file, path = entry.locate(_parse_path(where))
            problems.add(file, path, message)
        return None


# --- Locating problems ------------------------------------------------------------------


class _Locator:
    """Maps (collection, id, keys) to (file, path) for problems found after structuring."""

    def __init__(
        self, entries: dict[str, dict[str, _Entry]], die: _Entry | None, info: _Entry | None
    ) -> None:
        self._entries = entries
        self._die = die
        self._info = info

    def entry(self, collection: str, entry_id: str, *keys: str | int) -> tuple[str, str]:
        """Where the value at ``keys`` of entry ``entry_id`` was written."""
        singleton = {"die": self._die, "pack": self._info}.get(collection)
        if singleton is not None:
            return singleton.locate(keys)
        found = self._entries.get(collection, {}).get(entry_id)
        if found is None:
            return self.collection(collection)
        return found.locate(keys)

    def collection(self, collection: str) -> tuple[str, str]:
        """Where a collection as a whole is (the file of its first entry)."""
        first = next(iter(self._entries.get(collection, {}).values()), None)
        if first is not None:
            file, _ = first.locate(())
            return file, f"$.{collection}"
        if self._info is not None:
            return self._info.locate(())
        return "base/pack.toml", "$"
