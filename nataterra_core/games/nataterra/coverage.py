"""Nataterra's rules coverage: its clauses (``N-…``) and content kinds, on the kernel's
game-neutral report (:mod:`nataterra_core.tools.coverage`).

Every rule ID defined in ``docs/rules/nataterra.md`` and every tactic, biome and tech card,
structure and victory condition of a content pack is an item; :data:`COVERS_ALL_MARKERS` are
the module markers by which a test file covers a whole collection. The functions here are the
kernel's, bound to Nataterra's prefix and pack:

    >>> rule_ids_in_name("test_N_WIN_2_N_WIN_4_both_win_at_once")
    ('N-WIN-2', 'N-WIN-4')
    >>> rule_ids_in_text("assert why == 'N-COMBAT-11a'  # N-FAQ-9, not XN-FAQ-1")
    ('N-COMBAT-11a', 'N-FAQ-9')
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from nataterra_core.tools import coverage as _tool
from nataterra_core.tools.coverage import (
    STATUSES,
    CoverageError,
    CoverageReport,
    CoverageSpec,
    Evidence,
    Item,
    PendingEntry,
    RuleClause,
    Status,
    TestFunction,
    collect_tests,
    load_pending,
)

from .content import load_pack
from .content.schema import ContentPack

__all__ = [
    "COVERS_ALL_MARKERS",
    "KINDS",
    "PREFIX",
    "RULES_FILE",
    "STATUSES",
    "CoverageError",
    "CoverageReport",
    "Evidence",
    "Item",
    "PendingEntry",
    "RuleClause",
    "Status",
    "TestFunction",
    "collect_tests",
    "coverage_report",
    "coverage_spec",
    "load_pending",
    "parse_rules",
    "rule_ids_in_name",
    "rule_ids_in_text",
]

PREFIX = "N"
RULES_FILE = "nataterra.md"

_PACK_COLLECTIONS: Mapping[str, str] = {
    "tactic_card": "tactics",
    "biome_card": "biome_cards",
    "tech_card": "techs",
    "structure": "structures",
    "victory_condition": "victory_conditions",
}

KINDS: tuple[str, ...] = ("rule", *_PACK_COLLECTIONS)
"""Every kind of item, in report order."""

COVERS_ALL_MARKERS: Mapping[str, str] = {
    "COVERS_ALL_TACTIC_CARDS": "tactic_card",
    "COVERS_ALL_BIOME_CARDS": "biome_card",
    "COVERS_ALL_TECH_CARDS": "tech_card",
    "COVERS_ALL_STRUCTURES": "structure",
    "COVERS_ALL_VICTORY_CONDITIONS": "victory_condition",
}
"""Module-level markers (set to ``True``) by which a test file covers a whole collection."""


DOCUMENTS: tuple[str, ...] = ("docs/SCENARIOS.md",)
"""The project's own rule documents: the scenario book's ``N-SCN-`` IDs (N-SCN-1 restated)."""


def coverage_spec(
    pack: ContentPack | None = None, documents: tuple[str, ...] = DOCUMENTS
) -> CoverageSpec:
    """Nataterra's coverage description (``Hooks.coverage``): the provisional pack's items
    and the rules of the project's ``documents``."""
    pack = pack or load_pack()
    items = {kind: tuple(getattr(pack, name)) for kind, name in _PACK_COLLECTIONS.items()}
    return CoverageSpec(
        rules=RULES_FILE,
        prefix=PREFIX,
        items=items,
        markers=COVERS_ALL_MARKERS,
        documents=documents,
    )


def rule_ids_in_name(name: str) -> tuple[str, ...]:
    """Nataterra rule IDs a test name holds as whole ``_``-separated tokens, in order."""
    return _tool.rule_ids_in_name(name, PREFIX)


def rule_ids_in_text(text: str) -> tuple[str, ...]:
    """Nataterra rule IDs a text names as whole words, in order."""
    return _tool.rule_ids_in_text(text, PREFIX)


def parse_rules(text: str) -> tuple[RuleClause, ...]:
    """The Nataterra rule clauses defined in a rules text (``* N-XXX-N ...`` bullets)."""
    return _tool.parse_rules(text, PREFIX)


def coverage_report(
    rules_path: Path,
    tests_dir: Path,
    pack: ContentPack,
    *,
    pending_path: Path | None = None,
    documents: tuple[str, ...] = (),
) -> CoverageReport:
    """Match every rule of ``rules_path`` (and of ``documents``) and every card, structure
    and victory condition of ``pack`` with the tests under ``tests_dir`` (see
    :func:`nataterra_core.tools.coverage.coverage_report`)."""
    return _tool.coverage_report(
        coverage_spec(pack, documents), rules_path, tests_dir, pending_path=pending_path
    )
