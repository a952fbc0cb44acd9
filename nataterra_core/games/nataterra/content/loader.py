"""Nataterra's content packs: its pack schema, loaded by the packs toolkit
(docs/ARCHITECTURE.md §1).

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
SHA-256 over ``name ‖ 0x00 ‖ bytes ‖ 0x00`` for each, lowercase hex (docs/ARCHITECTURE.md §1).
The pack files are the ``*.toml`` files the loader reads.

Reading, merging, structuring, locating and hashing are game-neutral and live in
:mod:`nataterra_core.packs`; this module declares :data:`SCHEMA` (the tables and their classes,
how a :class:`ContentPack` is assembled, and the checks above) and keeps the public names.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

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
from nataterra_core.kernel.errors import ContentProblem
from nataterra_core.packs import PackContents, PackLoader, PackSchema, structure_int_pairs
from nataterra_core.packs import effective_sha256 as effective_sha256
from nataterra_core.packs import pack_files as pack_files

__all__ = ["PROVISIONAL_DIR", "SCHEMA", "effective_sha256", "load_pack", "pack_files"]

PROVISIONAL_DIR = Path(__file__).resolve().parent / "packs" / "provisional"
"""The provisional pack shipped with the package."""


def _build(contents: PackContents) -> ContentPack:
    die = contents.singletons["die"]
    return ContentPack(
        base=contents.base_info or PackInfo(id="", version=""),
        overlay=contents.overlay_info,
        sha256=contents.sha256,
        die=die or AttackDie(faces=()),
        **contents.collections,
    )


def _check(pack: ContentPack, contents: PackContents) -> Iterable[ContentProblem]:
    where = contents.locator
    yield from checks.check_pack(pack, contents.raw_ids, where)
    yield from binding.check_binding_facts(pack, where, contents.incomplete)


SCHEMA: PackSchema[ContentPack] = PackSchema(
    info=PackInfo,
    singletons={"die": AttackDie},
    collections={
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
    },
    build=_build,
    check=_check,
    required=frozenset({"die"}),
    converter_hooks=structure_int_pairs,
)
"""Nataterra's pack format, for :func:`nataterra_core.packs.load`."""


load_pack: PackLoader[ContentPack] = PackLoader(SCHEMA, PROVISIONAL_DIR)
"""The provisional pack, or ``load_pack(overlay_dir)``: a user pack merged over it by id
(``ContentError`` lists every problem with its file and path)."""
