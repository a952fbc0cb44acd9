"""Kaladan's rules coverage (``Hooks.coverage``): its clauses (``K-…``) and its cards.

Every clause of ``docs/rules/kaladan.md`` and every event card and magic card kind of
the provisional pack is an item of ``nataterra coverage``; a test module sets
``COVERS_ALL_EVENT_CARDS = True`` or ``COVERS_ALL_MAGIC_CARDS = True`` when it exercises the
whole deck.
"""

from __future__ import annotations

from nataterra_core.tools.coverage import CoverageSpec

from .content import load_pack

__all__ = ["coverage_spec"]


def coverage_spec() -> CoverageSpec:
    """Kaladan's coverage description."""
    pack = load_pack()
    return CoverageSpec(
        rules="kaladan.md",
        prefix="K",
        items={"event_card": tuple(pack.events), "magic_card": tuple(pack.magic)},
        markers={
            "COVERS_ALL_EVENT_CARDS": "event_card",
            "COVERS_ALL_MAGIC_CARDS": "magic_card",
        },
    )
