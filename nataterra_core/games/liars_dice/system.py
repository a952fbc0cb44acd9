"""Liar's Dice as a registered rule system (see ``kernel.registry``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from nataterra_core.kernel.registry import Hooks, RuleSystem, package_text
from nataterra_core.kernel.wording import counted

from .bots import HeuristicPlayer, evaluate
from .coverage import coverage_spec
from .decider import RULES, LiarsDice, LiarsOptions
from .determinise import determinise
from .encoding import liars_codec, liars_observation
from .geometry import SEAT_COLOURS, LiarsTable, panels, table_svg
from .presenter import LiarsPresenter
from .views import seat_view

__all__ = ["LIARS_DICE"]

SEATS = tuple(SEAT_COLOURS)
"""The default seats, in table order (L-SET-1), as many as there are players."""


def _decider(content: Path | None) -> LiarsDice:
    return LiarsDice()


def _heuristic(seed: int, *, content: Path | None = None) -> HeuristicPlayer:
    return HeuristicPlayer(seed)


def setup_words(options: Mapping[str, Any]) -> str:
    """The dice each cup starts with and the two variants, the defaults included.

    >>> setup_words({})
    '5 dice in each cup; ones are wild; no spot-on calls'
    """
    chosen = msgspec.convert(dict(options), LiarsOptions)
    wild = "ones are wild" if chosen.wild_ones else "ones are not wild"
    spot = "spot-on calls allowed" if chosen.spot_on else "no spot-on calls"
    return f"{counted(chosen.dice, 'die')} in each cup; {wild}; {spot}"


LIARS_DICE = RuleSystem(
    rules=RULES,
    title="Liar's Dice",
    decider=_decider,
    player_counts=(2, 3, 4, 5, 6),
    default_seats={n: SEATS[:n] for n in (2, 3, 4, 5, 6)},
    options=LiarsOptions,
    seat_view=seat_view,
    presenter=LiarsPresenter(),
    players={"heuristic": _heuristic},
    hooks=Hooks(
        how_to_play=package_text("nataterra_core.games.liars_dice", "how_to_play.md"),
        setup_words=setup_words,
        board_geometry=LiarsTable(),
        panels=panels,
        svg=table_svg,
        observation=liars_observation,
        action_codec=liars_codec,
        determiniser=determinise,
        evaluate=evaluate,
        coverage=coverage_spec,
    ),
)
"""Liar's Dice (``docs/rules/liars_dice.md``)."""
