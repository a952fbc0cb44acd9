"""Liar's Dice's rules coverage (``Hooks.coverage``): the clauses (``L-…``) of its rules
text, ``docs/rules/liars_dice.md``. It has no content pack, so no other items."""

from __future__ import annotations

from nataterra_core.tools.coverage import CoverageSpec

__all__ = ["coverage_spec"]


def coverage_spec() -> CoverageSpec:
    """Liar's Dice's coverage description."""
    return CoverageSpec(rules="liars_dice.md", prefix="L")
