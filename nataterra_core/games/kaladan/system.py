"""Kaladan as a registered rule system (see ``kernel.registry``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nataterra_core.kernel.registry import Hooks, RuleSystem, package_text

from .bots import HeuristicPlayer, evaluate
from .content import load_pack
from .coverage import coverage_spec
from .decider import RULES, Kaladan, KaladanOptions
from .determinise import determinise
from .encoding import kaladan_codec, kaladan_observation
from .geometry import KaladanBoards, board_svg
from .panels import panels
from .presenter import KaladanPresenter
from .views import seat_view

__all__ = ["KALADAN"]

SEATS = ("red", "blue", "green", "yellow")
"""K-SET-3: the seats in order, as many as there are players."""


def _decider(content: Path | None) -> Kaladan:
    return Kaladan(load_pack(content))


def _heuristic(seed: int, *, content: Path | None = None) -> HeuristicPlayer:
    return HeuristicPlayer(seed, pack=load_pack(content))


def _option_choices() -> dict[str, tuple[tuple[Any, str], ...]]:
    """The lobby's map picker: the pack's maps, each for its player count."""
    maps = load_pack().maps
    return {
        "map": (
            (None, "the pack's map for the player count"),
            *((map_id, f"for {found.players} players") for map_id, found in maps.items()),
        )
    }


KALADAN = RuleSystem(
    rules=RULES,
    title="Kaladan",
    decider=_decider,
    player_counts=(2, 3, 4),
    default_seats={n: SEATS[:n] for n in (2, 3, 4)},
    options=KaladanOptions,
    seat_view=seat_view,
    presenter=KaladanPresenter(),
    players={"heuristic": _heuristic},
    load_pack=load_pack,
    hooks=Hooks(
        how_to_play=package_text("nataterra_core.games.kaladan", "how_to_play.md"),
        board_geometry=KaladanBoards(),
        svg=board_svg,
        panels=panels,
        option_choices=_option_choices,
        observation=kaladan_observation,
        action_codec=kaladan_codec,
        determiniser=determinise,
        evaluate=evaluate,
        coverage=coverage_spec,
    ),
)
"""Kaladan (``docs/rules/kaladan.md``)."""
