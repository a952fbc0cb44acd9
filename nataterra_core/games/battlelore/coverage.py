"""BattleLore's rules coverage (``Hooks.coverage``, read by ``nataterra coverage``): the
``B-`` clauses of ``rules/battlelore.md`` and the pack's command cards, lore cards, unit
types and scenarios."""

from __future__ import annotations

from nataterra_core.tools.coverage import CoverageSpec

from .content import load_pack

__all__ = ["coverage_spec"]


def coverage_spec() -> CoverageSpec:
    """BattleLore's coverage description."""
    pack = load_pack()
    return CoverageSpec(
        rules="battlelore.md",
        prefix="B",
        items={
            "command_card": tuple(pack.cards),
            "lore_card": tuple(pack.lore),
            "unit_type": tuple(pack.unit_types),
            "scenario": tuple(pack.scenarios),
        },
        markers={
            "COVERS_ALL_COMMAND_CARDS": "command_card",
            "COVERS_ALL_LORE_CARDS": "lore_card",
            "COVERS_ALL_UNIT_TYPES": "unit_type",
        },
    )
