"""Liar's Dice's rules coverage (``Hooks.coverage``): the clauses (``L-…``) of its rules
text, ``docs/rules/liars_dice.md``. It has no content pack, so no other items."""

from __future__ import annotations

from nataterra_core.kernel.coverage import CoverageSpec

__all__ = ["RULES_TEXT", "coverage_spec"]

RULES_TEXT = "docs/rules/liars_dice.md"
"""The rules text, a repository path (it ships in the repository, not the shared folder)."""


def coverage_spec() -> CoverageSpec:
    """Liar's Dice's coverage description."""
    return CoverageSpec(rules=RULES_TEXT, prefix="L")
