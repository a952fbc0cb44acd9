"""Batch verification for the CLI: :mod:`nataterra_adapters.batch_verify`, under the name the
``verify`` command and its tests use (kept apart so that worker processes need no CLI library)."""

from __future__ import annotations

from nataterra_adapters.batch_verify import (
    EXIT_CODES,
    ClusterUnavailable,
    EngineId,
    PackBundle,
    auto_workers,
    bundle_pack,
    chunk_size,
    engine_id,
    exit_code,
    verify_many,
    verify_source,
)

__all__ = [
    "EXIT_CODES",
    "ClusterUnavailable",
    "EngineId",
    "PackBundle",
    "auto_workers",
    "bundle_pack",
    "chunk_size",
    "engine_id",
    "exit_code",
    "verify_many",
    "verify_source",
]
