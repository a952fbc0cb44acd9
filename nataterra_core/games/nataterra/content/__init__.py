"""Content packs: the game's data (units, cards, structures, maps, the die) as validated TOML.

``load_pack()`` returns the provisional pack shipped with the engine; ``load_pack(dir)`` merges a
user pack over it by id (docs/ARCHITECTURE.md §1). Entries are frozen attrs classes from
:mod:`nataterra_core.games.nataterra.content.schema`, looked up by id (``pack.units["orc"]``). The
rulebook's binding facts are enforced by :mod:`nataterra_core.games.nataterra.content.binding`.
"""

from nataterra_core.games.nataterra.content.loader import (
    PROVISIONAL_DIR,
    effective_sha256,
    load_pack,
)
from nataterra_core.games.nataterra.content.schema import ContentPack

__all__ = ["PROVISIONAL_DIR", "ContentPack", "effective_sha256", "load_pack"]
