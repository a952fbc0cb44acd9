"""Nataterra and its combat sandbox as registered rule systems (see ``kernel.registry``).

Everything generic code needs — the decider for a pack, seats, the options schema, the seat
view, the presenter and the named players — is declared here once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from nataterra_core.kernel.registry import Hooks, RuleSystem, package_text

from .battles import standard_battle
from .content import load_pack
from .coverage import coverage_spec
from .decider import RULES, Nataterra
from .determinise import determinise, determinise_sandbox
from .encoding import nataterra_codec, nataterra_observation, sandbox_codec, sandbox_observation
from .geometry import NataterraBoards
from .panels import panels
from .rules.combat.sandbox import SANDBOX_RULES, Sandbox
from .rules.combat.sandbox_model import Battle, battle_option
from .rules.positions import POSITIONS
from .rules.scenarios import SCENARIOS
from .rules.setup import GameOptions
from .views import sandbox_view, seat_view
from .words.combat import battle_text
from .words.presenter import NataterraPresenter

if TYPE_CHECKING:
    from .bots import HeuristicPlayer

__all__ = ["NATATERRA", "SANDBOX"]

DEFAULT_SEATS: dict[int, tuple[str, ...]] = {
    2: ("velathi", "beasts"),
    3: ("velathi", "beasts", "humans"),
    4: ("velathi", "beasts", "humans", "naga"),
}
"""The learning seating (N-SETUP-1) for each player count."""


def _decider(content: Path | None) -> Nataterra:
    return _provisional_decider() if content is None else Nataterra(load_pack(content))


@functools.cache
def _provisional_decider() -> Nataterra:
    """One decider for the provisional pack, shared by every game and log of this process:
    its maps are built once, not once per log verified (the pack and maps are immutable;
    the decider keeps only what it built from them)."""
    return Nataterra(load_pack(None))


def _sandbox(content: Path | None) -> Sandbox:
    return Sandbox(load_pack(content))


# The bots and the SVG drawing are imported when first asked for: a process that verifies
# logs needs neither (the SVG module's XML escaping alone imports urllib, http and ssl).


def _heuristic(seed: int, *, content: Path | None = None) -> HeuristicPlayer:
    from .bots import HeuristicPlayer

    return HeuristicPlayer(seed, pack=load_pack(content))


def _evaluate(state: Any, seat: str) -> float:
    """The search player's winning-chance estimate (``bots/evaluate.py``)."""
    from .bots.evaluate import evaluate

    return evaluate(state, seat)


BOARDS = NataterraBoards()
"""The board-geometry hook of both systems (``geometry.py``)."""


def _svg(view: Any) -> str:
    """A seat view's boards as SVG (``nataterra_core.boards.svg``)."""
    from nataterra_core.boards.svg import geometry_svg

    return geometry_svg(BOARDS.geometry(view))


def _option_choices() -> dict[str, tuple[tuple[Any, str], ...]]:
    """The lobby's pickers: the modes, the pack's maps and the scenario book's scenarios."""
    pack = load_pack()
    return {
        "mode": (("learning", "learning game"), ("advanced", "advanced game")),
        "map": (
            (None, "the mode's own map"),
            *((map_id, found.title or map_id) for map_id, found in pack.maps.items()),
        ),
        "scenario": (
            (None, "no scenario"),
            *((entry.id, entry.title) for entry in SCENARIOS.values()),
        ),
    }


def _cli_commands() -> Sequence[Callable[..., Any]]:
    """``nataterra odds`` (imported here: only the CLI needs typer)."""
    from .cli_commands import commands

    return commands()


NATATERRA = RuleSystem(
    rules=RULES,
    title="Nataterra",
    decider=_decider,
    player_counts=(2, 3, 4),
    default_seats=DEFAULT_SEATS,
    options=GameOptions,
    seat_view=seat_view,
    presenter=NataterraPresenter(),
    players={"heuristic": _heuristic},
    load_pack=load_pack,
    hooks=Hooks(
        how_to_play=package_text("nataterra_core.games.nataterra", "how_to_play.md"),
        cli_commands=_cli_commands,
        board_geometry=BOARDS,
        svg=_svg,
        panels=panels,
        option_choices=_option_choices,
        observation=nataterra_observation,
        action_codec=nataterra_codec,
        coverage=coverage_spec,
        determiniser=determinise,
        evaluate=_evaluate,
        positions=POSITIONS,
        scenarios=SCENARIOS,
    ),
)
"""Nataterra (``docs/rules/nataterra.md``)."""


class SandboxOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The sandbox's header options: the battle as canonical JSON (``battle_option``)."""

    battle: str


def _battle_words(options: Mapping[str, Any]) -> str:
    """The sandbox's setup: the battle its header describes, in words (``battle_text``)."""
    return battle_text(msgspec.json.decode(options["battle"], type=Battle))


STANDARD_BATTLE = standard_battle()
"""The battle a sandbox game fights when none is described (``battles.STANDARD_BATTLE_FILE``)."""

SANDBOX = RuleSystem(
    rules=SANDBOX_RULES,
    title="Nataterra combat sandbox",
    decider=_sandbox,
    player_counts=(2,),
    default_seats={2: ("velathi", "beasts")},
    options=SandboxOptions,
    default_options={"battle": battle_option(STANDARD_BATTLE)},
    seat_view=sandbox_view,
    presenter=NataterraPresenter(),
    load_pack=load_pack,
    hooks=Hooks(
        how_to_play=package_text("nataterra_core.games.nataterra", "how_to_play_sandbox.md"),
        board_geometry=BOARDS,
        svg=_svg,
        panels=panels,
        observation=sandbox_observation,
        action_codec=sandbox_codec,
        determiniser=determinise_sandbox,
        setup_words=_battle_words,
    ),
    perfect_information=True,  # a battle deals no hands (sandbox_view shows all)
)
"""One described battle fought to its end (``docs/COMBAT_SANDBOX.md``)."""
