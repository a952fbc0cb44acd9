"""The content-pack toolkit: TOML packs overlaid by id and structured strictly, for any game.

A game declares its pack format once as a :class:`PackSchema` (which top-level tables are
singletons and which are collections, the attrs class of each, how to assemble the game's pack
object and which extra checks to run) and calls :func:`load`. The effective SHA-256 that logs
record (docs/ARCHITECTURE.md §1) is :func:`effective_sha256`. This package imports only the kernel.
"""

from nataterra_core.packs.files import effective_sha256, pack_files, walk_pack
from nataterra_core.packs.loader import (
    PackContents,
    PackInfo,
    PackLoader,
    PackLocator,
    PackSchema,
    load,
)
from nataterra_core.packs.structuring import SchemaValueError, structure_int_pairs

__all__ = [
    "PackContents",
    "PackInfo",
    "PackLoader",
    "PackLocator",
    "PackSchema",
    "SchemaValueError",
    "effective_sha256",
    "load",
    "pack_files",
    "structure_int_pairs",
    "walk_pack",
]
