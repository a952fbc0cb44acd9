"""Load, overlay and validate a content pack against a game's schema (docs/ARCHITECTURE.md §1).

**Pack layout.** A pack is a directory of ``*.toml`` files, read recursively (names starting with
``.`` are skipped; which files, and the bounds on them: :mod:`nataterra_core.packs.files`).
``pack.toml`` at its root holds the ``[pack]`` table (the schema's ``info`` class, e.g. id and
version). Any file may hold the schema's *singleton* tables (each once per
pack) and arrays of tables for its *collections*; every collection entry has an ``id`` that is
unique in its collection across the pack's files.

**Overlay by id.** A user pack (``overlay_dir``) has the same layout. An overlay entry whose id
exists in the base pack is merged over that entry key by key before it is structured: tables merge
recursively, every other value (numbers, strings, arrays) replaces the base value whole. A new id
adds an entry. An overlay singleton merges over the base singleton the same way; the overlay's
``[pack]`` table is kept apart (it names the overlay). Entries cannot be removed, and a key
cannot be unset.

**Validation.** Everything is checked before anything is returned: TOML syntax, nesting depth
and integer range (``|n| < 2**31``, :data:`PACK_INTEGER`), the schema (strict
cattrs, :mod:`nataterra_core.packs.structuring`), duplicate ids, required singletons, then the
game's own checks (references, ranges, binding facts) through :attr:`PackSchema.check`. Every
problem is collected, named by file and path (a merged entry's problem is put in the file that
supplied the offending value), and raised at once as one
:class:`~nataterra_core.kernel.errors.ContentError`; checking stops at the first
:data:`MAX_PROBLEMS` (saying how many entries were then left unchecked).

**Effective SHA-256.** Over every pack file, named ``base/<relative POSIX path>`` for the base
pack and ``overlay/<relative POSIX path>`` for the user pack, sorted by name: one SHA-256 over
``name ‖ 0x00 ‖ bytes ‖ 0x00`` for each, lowercase hex (docs/ARCHITECTURE.md §1).
The pack files are the
``*.toml`` files the loader reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Generic, Literal, TypeVar

import attrs
import cattrs

# tomli, not the standard library's copy of it (tomllib is tomli, vendored): the same parser
# and errors, but its wheels are compiled with mypyc and parse about 2.5 times faster, and
# every process that verifies or plays a game parses the whole pack first.
import tomli as tomllib

from nataterra_core.kernel.bounded import InputRefused, check_depth, integers_outside
from nataterra_core.kernel.errors import ContentError, ContentProblem
from nataterra_core.packs.files import (
    hash_named,
    read_pack_file,
    walk_pack,
)
from nataterra_core.packs.structuring import make_converter, problems_of, toml_type

__all__ = [
    "PackContents",
    "PackInfo",
    "PackLocator",
    "PackSchema",
    "load",
]

P = TypeVar("P")
Layer = Literal["base", "overlay"]
INFO = "pack"
"""The table every pack's root ``pack.toml`` holds: which pack this is."""


PACK_INTEGER = 2**31
"""Every integer of a pack is ``|n| < 2**31`` (the shipped packs' are under 1,000): a
pack's numbers end up in log records, and loops and sums over them stay small."""
MAX_PROBLEMS = 100
"""Checking a pack stops at this many problems (the rest would bury the first)."""


# --- The schema a game declares -------------------------------------------------------------


@attrs.frozen
class PackInfo:
    """The ``[pack]`` table of a pack's ``pack.toml``: who made it and which version it is
    (a schema's ``info`` class unless a game needs more)."""

    id: str
    version: str
    title: str = ""
    provisional: bool = False


@attrs.frozen
class PackContents:
    """What the loader structured, handed to the game's ``build`` and ``check`` hooks.

    ``base_info``/``overlay_info`` are the ``[pack]`` tables (``None`` if missing or invalid);
    ``singletons`` maps each singleton name to its merged value or ``None``; ``collections`` maps
    each collection to its valid entries by id, in pack order (base files sorted by path, entries
    in file order, replaced entries keep their place, new overlay entries follow). ``raw_ids``
    are every id written, valid or not, so a reference to an invalid entry is not reported as
    unknown; ``incomplete`` names the collections with an invalid entry (checks counting entries
    skip them instead of repeating the problem); ``locator`` says where a value was written.
    """

    base_info: Any
    overlay_info: Any
    sha256: str
    singletons: Mapping[str, Any]
    collections: Mapping[str, Mapping[str, Any]]
    raw_ids: Mapping[str, frozenset[str]]
    incomplete: frozenset[str]
    locator: PackLocator


def _no_checks(pack: Any, contents: PackContents) -> Iterable[ContentProblem]:
    return ()


@attrs.frozen
class PackSchema(Generic[P]):
    """A game's pack format: its tables, their attrs classes, and how to assemble and check them.

    ``info`` structures ``[pack]``; ``singletons`` and ``collections`` map top-level TOML keys to
    attrs classes (in the order unknown-table messages list them); ``required`` names singletons
    the base pack must have. ``build`` assembles the game's pack object; ``check`` returns the
    game's own problems (references, binding facts), located with ``contents.locator``.
    ``converter_hooks`` registers extra cattrs hooks (see
    :func:`~nataterra_core.packs.structuring.make_converter`).
    """

    info: type[Any]
    singletons: Mapping[str, type[Any]]
    collections: Mapping[str, type[Any]]
    build: Callable[[PackContents], P]
    check: Callable[[P, PackContents], Iterable[ContentProblem]] = _no_checks
    required: frozenset[str] = frozenset()
    converter_hooks: Callable[[cattrs.Converter], None] | None = None
    converter: cattrs.Converter = attrs.field(init=False, eq=False, repr=False)

    @converter.default
    def _converter(self) -> cattrs.Converter:
        return make_converter(self.converter_hooks)

    def __attrs_post_init__(self) -> None:
        names = [INFO, *self.singletons, *self.collections]
        if len(set(names)) != len(names):
            msg = f"table names must be distinct (and not {INFO!r}): {names}"
            raise ValueError(msg)
        if not self.required <= set(self.singletons):
            msg = f"required tables must be singletons: {sorted(self.required)}"
            raise ValueError(msg)


# --- Sources, entries and the locator -------------------------------------------------------


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


class PackLocator:
    """Maps (collection or singleton, id, keys) to (file, path) for problems found after loading."""

    def __init__(
        self, entries: Mapping[str, Mapping[str, _Entry]], singletons: Mapping[str, _Entry | None]
    ) -> None:
        self._entries = entries
        self._singletons = singletons

    def entry(self, collection: str, entry_id: str, *keys: str | int) -> tuple[str, str]:
        """Where the value at ``keys`` of entry ``entry_id`` was written (a singleton's table
        for a singleton name, whatever ``entry_id``)."""
        singleton = self._singletons.get(collection)
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
        info = self._singletons.get(INFO)
        if info is not None:
            return info.locate(())
        return "base/pack.toml", "$"


class _TooMany(Exception):
    """Raised by :class:`_Problems` at :data:`MAX_PROBLEMS`: loading stops there."""


class _Problems:
    """Collects problems; :meth:`raise_if_any` raises them as one ContentError. At
    :data:`MAX_PROBLEMS` it stops the load (:class:`_TooMany`); ``unchecked`` says how many
    entries were then left (set by the loop structuring them)."""

    def __init__(self) -> None:
        self.items: list[ContentProblem] = []
        self.unchecked = 0

    def add(self, file: str, path: str, message: str) -> None:
        self.items.append(ContentProblem(file, path, message))
        if len(self.items) >= MAX_PROBLEMS:
            raise _TooMany

    def raise_if_any(self) -> None:
        if self.items:
            raise ContentError(self.items)

    def too_many(self) -> ContentError:
        left = f"; {self.unchecked:,} entries were not checked" if self.unchecked else ""
        return ContentError(
            self.items, f"checking stopped after the first {MAX_PROBLEMS} problems{left}"
        )


# --- Loading --------------------------------------------------------------------------------


class PackLoader(Generic[P]):
    """A game's ``load_pack``: its provisional pack in ``base_dir``, or a user pack overlaid on
    it by id. The provisional pack alone is loaded once per process and shared (it is
    immutable); each overlay is loaded afresh.

    The loader remembers the packs it returned by their effective SHA-256 (the provisional
    one and the latest :data:`REMEMBERED` overlays), so that whatever only holds a game's pack
    hash, a seat view say, finds the pack that game is played with: :meth:`in_play`.
    """

    REMEMBERED = 16
    """Overlays remembered for :meth:`in_play` (the oldest is forgotten first)."""

    def __init__(self, schema: PackSchema[P], base_dir: Path) -> None:
        self._schema = schema
        self._base_dir = base_dir
        self._provisional: P | None = None
        self._overlays: dict[str, P] = {}

    def __call__(self, overlay_dir: Path | None = None) -> P:
        """The provisional pack, with the user pack in ``overlay_dir`` merged over it by id.

        Raises:
            ContentError: listing every problem found, each with its file and path.
        """
        if overlay_dir is not None:
            pack, sha256 = _load_hashed(self._schema, self._base_dir, Path(overlay_dir))
            self._overlays.pop(sha256, None)
            self._overlays[sha256] = pack
            while len(self._overlays) > self.REMEMBERED:
                del self._overlays[next(iter(self._overlays))]
            return pack
        return self._provisional_pack()

    def in_play(self, sha256: str) -> P:
        """The pack whose effective SHA-256 is ``sha256``, if this loader loaded it in this
        process; otherwise the provisional pack."""
        found = self._overlays.get(sha256)
        return found if found is not None else self._provisional_pack()

    def _provisional_pack(self) -> P:
        if self._provisional is None:
            self._provisional = load(self._schema, self._base_dir)
        return self._provisional


def load(schema: PackSchema[P], base_dir: Path, overlay_dir: Path | None = None) -> P:
    """Load the pack in ``base_dir``, with the user pack in ``overlay_dir`` merged over it by id.

    Raises:
        ContentError: listing every problem found, each with its file and path.
    """
    return _load_hashed(schema, base_dir, overlay_dir)[0]


def _load_hashed(schema: PackSchema[P], base_dir: Path, overlay_dir: Path | None) -> tuple[P, str]:
    """:func:`load`, and the pack's effective SHA-256."""
    try:
        return _load(schema, base_dir, overlay_dir)
    except ContentError:
        raise
    except RecursionError:
        raise ContentError(
            [ContentProblem("overlay/", "$", "the pack's values are nested too deeply")]
        ) from None
    except Exception as exc:  # a loader bug must still name the pack, never a traceback
        where = "overlay/" if overlay_dir is not None else "base/"
        raise ContentError(
            [
                ContentProblem(
                    where, "$", f"the pack could not be loaded: {type(exc).__name__}: {exc}"
                )
            ]
        ) from exc


def _load(schema: PackSchema[P], base_dir: Path, overlay_dir: Path | None) -> tuple[P, str]:
    problems = _Problems()
    try:
        return _load_checked(schema, base_dir, overlay_dir, problems)
    except _TooMany:
        raise problems.too_many() from None


def _load_checked(
    schema: PackSchema[P], base_dir: Path, overlay_dir: Path | None, problems: _Problems
) -> tuple[P, str]:
    base = _read_layer(schema, "base", base_dir, problems)
    overlay = None
    if overlay_dir is not None:
        overlay = _read_layer(schema, "overlay", Path(overlay_dir), problems)
    sha256 = hash_named(base.named_bytes + (overlay.named_bytes if overlay else []))

    info_entry = _merge_singleton(base.info, None)
    singleton_entries = {
        name: _merge_singleton(base.singletons[name], overlay.singletons[name] if overlay else None)
        for name in schema.singletons
    }
    entries = {name: _merge_collection(name, base, overlay) for name in schema.collections}

    structure = schema.converter.structure
    base_info = _structure(structure, info_entry, schema.info, problems) if info_entry else None
    overlay_info = None
    if overlay is not None and overlay.info is not None:
        only = _Entry(dict(overlay.info.raw), overlay=overlay.info)
        overlay_info = _structure(structure, only, schema.info, problems)
    singletons: dict[str, Any] = {}
    for name, cls in schema.singletons.items():
        entry = singleton_entries[name]
        singletons[name] = _structure(structure, entry, cls, problems) if entry else None
        if entry is None and name in schema.required:
            problems.add("base/pack.toml", f"$.{name}", f"the pack has no [{name}] table")

    collections: dict[str, Mapping[str, Any]] = {}
    incomplete: set[str] = set()
    problems.unchecked = sum(map(len, entries.values()))
    for name, cls in schema.collections.items():
        values: dict[str, Any] = {}
        for entry_id, entry in entries[name].items():
            problems.unchecked -= 1
            value = _structure(structure, entry, cls, problems)
            if value is None:
                incomplete.add(name)
            else:
                values[entry_id] = value
        collections[name] = MappingProxyType(values)

    contents = PackContents(
        base_info=base_info,
        overlay_info=overlay_info,
        sha256=sha256,
        singletons=MappingProxyType(singletons),
        collections=MappingProxyType(collections),
        raw_ids=MappingProxyType({name: frozenset(found) for name, found in entries.items()}),
        incomplete=frozenset(incomplete),
        locator=PackLocator(entries, {**singleton_entries, INFO: info_entry}),
    )
    pack = schema.build(contents)
    for problem in schema.check(pack, contents):
        problems.add(problem.file, problem.path, problem.message)
    problems.raise_if_any()
    return pack, sha256


@attrs.define
class _LayerData:
    """What one pack directory holds, before merging."""

    named_bytes: list[tuple[str, bytes]] = attrs.Factory(list)
    info: _Source | None = None
    singletons: dict[str, _Source | None] = attrs.Factory(dict)
    entries: dict[str, dict[str, _Source]] = attrs.Factory(dict)


def _read_layer(
    schema: PackSchema[Any], layer: Layer, directory: Path, problems: _Problems
) -> _LayerData:
    data = _LayerData(
        singletons=dict.fromkeys(schema.singletons),
        entries={name: {} for name in schema.collections},
    )
    if not directory.is_dir():
        problems.add(f"{layer}/", "$", f"not a directory: {directory}")
        return data
    files, refused = walk_pack(directory)
    for rel, why in refused:
        problems.add(f"{layer}/{rel}", "$", why)
    for rel, path in files:
        name = f"{layer}/{rel}"
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:  # the pack hash names files in UTF-8 (docs/ARCHITECTURE.md §1)
            shown = name.encode("utf-8", "backslashreplace").decode("ascii", "replace")
            problems.add(shown, "$", "the file name is not valid UTF-8; rename the file")
            continue
        try:
            content = read_pack_file(path)
        except InputRefused as exc:
            problems.add(name, "$", f"cannot read the file: {exc}")
            continue
        except OSError as exc:
            problems.add(name, "$", f"cannot read the file: {exc.strerror or exc}")
            continue
        data.named_bytes.append((name, content))
        try:
            document = tomllib.loads(content.decode("utf-8"))
        except UnicodeDecodeError as exc:
            problems.add(name, "$", f"not UTF-8: {exc}")
            continue
        except tomllib.TOMLDecodeError as exc:
            problems.add(name, "$", f"invalid TOML: {exc}")
            continue
        except RecursionError:
            problems.add(name, "$", "invalid TOML: arrays or tables nested too deeply")
            continue
        if _out_of_bounds(name, document, problems):
            continue
        _read_document(schema, name, rel, document, data, problems)
    if data.info is None:
        fields = ", ".join(a.name for a in attrs.fields(schema.info) if a.default is attrs.NOTHING)
        problems.add(
            f"{layer}/pack.toml", f"$.{INFO}", f"required [{INFO}] table ({fields}) missing"
        )
    return data


def _out_of_bounds(name: str, document: dict[str, Any], problems: _Problems) -> bool:
    """Add a problem for a document nested too deeply or for each integer out of range
    (:data:`PACK_INTEGER`), naming its path; whether there was any."""
    try:
        check_depth(document, "the file")
    except InputRefused as exc:
        problems.add(name, "$", f"invalid TOML: {exc}")
        return True
    found = False
    for path, value in integers_outside(document, PACK_INTEGER):
        problems.add(name, path, f"{value} is out of range (a pack's integers are within ±2**31)")
        found = True
    return found


def _read_document(
    schema: PackSchema[Any],
    name: str,
    rel: str,
    document: dict[str, Any],
    data: _LayerData,
    problems: _Problems,
) -> None:
    for key, value in document.items():
        if key == INFO or key in schema.singletons:
            if not isinstance(value, dict):
                problems.add(name, f"$.{key}", f"expected a table, got {toml_type(value)}")
            elif key == INFO and rel != "pack.toml":
                problems.add(name, f"$.{INFO}", f"[{INFO}] belongs in the pack's root pack.toml")
            elif key == INFO:
                data.info = _Source(name, f"$.{INFO}", value)
            elif (first := data.singletons[key]) is not None:
                problems.add(
                    name, f"$.{key}", f"second [{key}] table (first at {first.file} {first.path})"
                )
            else:
                data.singletons[key] = _Source(name, f"$.{key}", value)
        elif key in schema.collections:
            _read_collection(name, key, value, data.entries[key], problems)
        else:
            expected = ", ".join([INFO, *schema.singletons, *schema.collections])
            problems.add(name, f"$.{key}", f"unknown table {key!r}; expected one of: {expected}")


def _read_collection(
    name: str, key: str, value: Any, seen: dict[str, _Source], problems: _Problems
) -> None:
    if not isinstance(value, list):
        problems.add(
            name, f"$.{key}", f"expected an array of tables ([[{key}]]), got {toml_type(value)}"
        )
        return
    for index, item in enumerate(value):
        path = f"$.{key}[{index}]"
        if not isinstance(item, dict):
            problems.add(name, path, f"expected a table, got {toml_type(item)}")
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


def _structure(
    structure: Callable[[Any, type[Any]], Any], entry: _Entry, cls: type[Any], problems: _Problems
) -> Any:
    try:
        return structure(entry.raw, cls)
    except cattrs.BaseValidationError as exc:
        for keys, message in problems_of(exc):
            file, path = entry.locate(keys)
            problems.add(file, path, message)
        return None
