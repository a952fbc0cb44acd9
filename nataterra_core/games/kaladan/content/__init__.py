"""Kaladan's content packs: the schema (attrs), the loader on the shared toolkit, the checks."""

from .loader import PROVISIONAL_DIR, SCHEMA, load_pack
from .schema import KaladanPack

__all__ = ["PROVISIONAL_DIR", "SCHEMA", "KaladanPack", "load_pack"]
