"""BattleLore as a registered rule system (see ``kernel.registry``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nataterra_core.kernel.registry import Hooks, RuleSystem, package_text

from .bots import evaluate, make
from .content import load_pack
from .coverage import coverage_spec
from .decider import RULES, BattleLore, GameOptions
from .determinise import determinise
from .encoding import codec, observation
from .geometry import BOARDS, board_svg
from .panels import panels
from .presenter import BattleLorePresenter
from .views import seat_view

__all__ = ["BATTLELORE"]


def _decider(content: Path | None) -> BattleLore:
    return BattleLore(load_pack(content))


def _option_choices() -> dict[str, tuple[tuple[Any, str], ...]]:
    """The lobby's scenario picker: the pack's scenarios by name."""
    return {"scenario": tuple((key, found.name) for key, found in load_pack().scenarios.items())}


BATTLELORE = RuleSystem(
    rules=RULES,
    title="BattleLore",
    decider=_decider,
    player_counts=(2,),
    default_seats={2: ("english", "french")},
    options=GameOptions,
    seat_view=seat_view,
    presenter=BattleLorePresenter(),
    players={"heuristic": make},
    load_pack=load_pack,
    hooks=Hooks(
        how_to_play=package_text("nataterra_core.games.battlelore", "how_to_play.md"),
        board_geometry=BOARDS,
        svg=board_svg,
        panels=panels,
        option_choices=_option_choices,
        determiniser=determinise,
        evaluate=evaluate,
        observation=observation,
        action_codec=codec,
        coverage=coverage_spec,
    ),
)
"""BattleLore (``docs/rules/battlelore.md``); the pack's scenarios are played by the
sides ``english`` and ``french`` (B-SEAT-1)."""
