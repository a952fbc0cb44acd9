"""Nataterra and its combat sandbox as registered rule systems (see ``kernel.registry``).

Everything generic code needs — the decider for a pack, seats, the options schema, the seat
view, the presenter and the named players — is declared here once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from nataterra_core.boards.svg import geometry_svg
from nataterra_core.kernel import Command, Event, Outcome
from nataterra_core.kernel.registry import Hooks, RuleSystem

from .board import NataterraBoards
from .bots import HeuristicPlayer
from .content import load_pack
from .encoding import nataterra_codec, nataterra_observation, sandbox_codec, sandbox_observation
from .presenter import describe_command, describe_event, describe_outcome
from .rules.combat.sandbox import (
    SANDBOX_RULES,
    Battle,
    ForceSpec,
    Sandbox,
    battle_option,
)
from .rules.game import RULES, Nataterra
from .rules.hexmap import GameMap, build_map
from .rules.setup import GameOptions
from .text_view import group_line, view_text
from .views import SandboxView, SeatView, sandbox_view, seat_view

__all__ = ["NATATERRA", "SANDBOX", "NataterraPresenter", "SandboxView"]

DEFAULT_SEATS: dict[int, tuple[str, ...]] = {
    2: ("velathi", "beasts"),
    3: ("velathi", "beasts", "humans"),
    4: ("velathi", "beasts", "humans", "naga"),
}
"""The learning seating (N-SETUP-1) for each player count."""


class NataterraPresenter:
    """Nataterra's words: the sentences of :mod:`.presenter` and the text of :mod:`.text_view`."""

    def command(self, command: Command, seat: str | None = None, view: Any = None) -> str:
        """One sentence for a command (groups named from ``view``'s combat)."""
        return describe_command(command, seat, view)

    def event(self, event: Event, view: Any = None) -> str:
        """One sentence for an event (never a hidden card or deck order)."""
        return describe_event(event, view)

    def outcome(self, outcome: Outcome) -> str:
        """The result in words, with the scores."""
        return describe_outcome(outcome)

    def view(self, view: Any) -> str:
        """A Nataterra seat view, or a sandbox battle view, as text."""
        if isinstance(view, SeatView):
            return view_text(view, _map_of(view.map_id))
        if isinstance(view, SandboxView):
            return _sandbox_text(view)
        raise TypeError(f"not a Nataterra view: {type(view).__name__}")


@functools.lru_cache(maxsize=8)
def _map_of(map_id: str) -> GameMap | None:
    """The provisional pack's map (or a structured layout) for a view, ``None`` if unknown."""
    try:
        return build_map(load_pack(), map_id)
    except (KeyError, ValueError):
        return None


def _decider(content: Path | None) -> Nataterra:
    return Nataterra(load_pack(content))


def _sandbox(content: Path | None) -> Sandbox:
    return Sandbox(load_pack(content))


def _heuristic(seed: int, *, content: Path | None = None) -> HeuristicPlayer:
    return HeuristicPlayer(seed, pack=load_pack(content))


BOARDS = NataterraBoards()
"""The board-geometry hook of both systems (``board.py``)."""


def _svg(view: Any) -> str:
    """A seat view's boards as SVG (``nataterra_core.boards.svg``)."""
    return geometry_svg(BOARDS.geometry(view))


def _cli_commands() -> Sequence[Callable[..., Any]]:
    """``nataterra odds`` and ``nataterra coverage`` (imported here: only the CLI needs typer)."""
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
        cli_commands=_cli_commands,
        board_geometry=BOARDS,
        svg=_svg,
        observation=nataterra_observation,
        action_codec=nataterra_codec,
    ),
)
"""Nataterra (``../shared/rules/nataterra.md``)."""


class SandboxOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The sandbox's header options: the battle as canonical JSON (``battle_option``)."""

    battle: str
    tournament: bool = False


def _sandbox_text(view: SandboxView) -> str:
    head = f"battle: {view.attacker} attacks {view.defender}"
    if view.winner:
        head += f"; won by {view.winner}"
    if view.combat is None:
        return head + " (not started)"
    return "\n".join([head, *(group_line(n, g) for n, g in enumerate(view.combat.groups))])


STANDARD_BATTLE = Battle(
    attacker="velathi",
    defender="beasts",
    biome="hills",
    forces=(
        ForceSpec(owner="velathi", unit="disciple", count=3),
        ForceSpec(owner="velathi", unit="zealot", count=3, side="a"),
        ForceSpec(owner="velathi", unit="cave_golem", count=2),
        ForceSpec(owner="velathi", unit="hunter", count=3),
        ForceSpec(owner="beasts", unit="orc", count=3, side="b"),
        ForceSpec(owner="beasts", unit="goblin", count=4, side="a"),
        ForceSpec(owner="beasts", unit="ditcher", count=3),
        ForceSpec(owner="beasts", unit="woodcutter", count=3),
    ),
)
"""The battle a sandbox game fights when none is described (``examples/standard_battle.json``)."""

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
        board_geometry=BOARDS,
        svg=_svg,
        observation=sandbox_observation,
        action_codec=sandbox_codec,
    ),
)
"""One described battle fought to its end (``docs/COMBAT_SANDBOX.md``)."""
