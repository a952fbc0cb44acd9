"""BattleLore as a registered rule system (see ``kernel.registry``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from nataterra_core.kernel.registry import Hooks, RuleSystem, package_text
from nataterra_core.kernel.wording import counted, reason_words

from .bots import PLAYOUT_DEPTH, evaluate, make
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


def setup_words(options: Mapping[str, Any]) -> str:
    """The scenario played, by its title, who moves first, the medals that win, and the
    turn limit (the defaults when the header leaves them out).

    >>> setup_words({})
    'scenario Agincourt (scenario 1): french moves first, 4 medals win; no turn limit'
    """
    chosen = msgspec.convert(dict(options), GameOptions)
    limit = f"turn limit {chosen.max_turns}" if chosen.max_turns else "no turn limit"
    scenario = load_pack().scenarios.get(chosen.scenario)
    if scenario is None:  # a user pack's scenario: the header names it
        return f"scenario {reason_words(chosen.scenario)}; {limit}"
    return (
        f"scenario {scenario.name}: {scenario.first} moves first, "
        f"{counted(scenario.medals, 'medal')} win; {limit}"
    )


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
        setup_words=setup_words,
        determiniser=determinise,
        evaluate=evaluate,
        playout_depth=PLAYOUT_DEPTH,
        observation=observation,
        action_codec=codec,
        coverage=coverage_spec,
    ),
)
"""BattleLore (``docs/rules/battlelore.md``); the pack's scenarios are played by the
sides ``english`` and ``french`` (B-SEAT-1)."""
