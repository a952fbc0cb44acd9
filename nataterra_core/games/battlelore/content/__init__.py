"""BattleLore's content pack: schema, loader and the provisional pack (B-CMD-2, B-SCN-1)."""

from .loader import PROVISIONAL_DIR, SCHEMA, load_pack
from .schema import BattleLorePack

__all__ = ["PROVISIONAL_DIR", "SCHEMA", "BattleLorePack", "load_pack"]
