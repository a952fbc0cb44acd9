"""What combat reads besides its own state (:class:`CombatEnv`): the pack, the map if there
is one, and how biome and tactic cards are drawn."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel import DiceStream, Event

from ..hexmap import GameMap
from .folds import FOLDS
from .model import (
    Combat,
    Group,
)

__all__ = ["BiomeDraw", "CombatEnv", "no_strategists"]

_replace = msgspec.structs.replace


BiomeDraw = Callable[[Combat, DiceStream], tuple[str | None, tuple[Event, ...]]]
"""Draws the combat's biome card: the card (or ``None``) and the events that drew it."""


def no_strategists(seat: str, combat: Combat) -> list[tuple[str, str, int]]:
    return []


def _no_biome_card(combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
    return None, ()


class CombatEnv:
    """What combat reads besides its own state: the pack, the map if there is one, and
    how a biome card is drawn (the game's decks; the sandbox names one or none).

    ``blocked(seat, zone)`` says whether an enemy unit, structure or base bars ``seat``
    from retreating into ``zone`` (N-COMBAT-23); without a map (the sandbox) retreating
    units simply leave the combat.
    """

    __slots__ = (
        "_picked",
        "after_win",
        "ambush",
        "blocked",
        "civ_ability",
        "draw_biome",
        "draw_tactics",
        "essences",
        "faces",
        "flare_costs",
        "map",
        "next_door",
        "pack",
        "strategists",
    )

    def __init__(
        self,
        pack: ContentPack,
        game_map: GameMap | None = None,
        blocked: Callable[[str, str], bool] | None = None,
        draw_biome: BiomeDraw | None = None,
        *,
        draw_tactics: Callable[[str, DiceStream], tuple[Event, ...]] | None = None,
        flare_costs: Callable[[str, str], int | None] | None = None,
        ambush: Callable[[str], str | None] | None = None,
        after_win: Callable[[str, str], list[str]] | None = None,
        strategists: Callable[[str, Combat], list[tuple[str, str, int]]] | None = None,
        next_door: Callable[[str, Combat], list[str]] | None = None,
    ) -> None:
        # The pick stage's candidates that :func:`decision` found (both sides standing).
        self._picked: tuple[Combat, list[Group]] | None = None
        self.pack = pack
        self.map = game_map
        self.blocked = blocked or (lambda seat, zone: False)
        self.draw_biome = draw_biome or _no_biome_card
        # Without a game (the sandbox) there are no hands, decks, pools or map to act on.
        self.draw_tactics = draw_tactics or (lambda seat, dice: ())
        self.flare_costs = flare_costs or (lambda seat, zone: None)
        self.ambush = ambush or (lambda seat: None)
        self.after_win = after_win or (lambda seat, unit: [])
        self.strategists = strategists or no_strategists
        self.next_door = next_door or (lambda seat, combat: [])
        self.faces = pack.die.faces
        self.civ_ability = {civ.id: civ.ability for civ in pack.civilisations.values()}
        self.essences = {civ.id: frozenset(civ.essences) for civ in pack.civilisations.values()}

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        """Events that draw ``seat`` one tactic card (N-DEV-6 reshuffles an empty deck)."""
        return self.draw_tactics(seat, dice)

    def flare_cost(self, seat: str, zone: str) -> int | None:
        """N-COMBAT-8: flare ``seat`` pays to redirect a biome effect in ``zone``."""
        return self.flare_costs(seat, zone)

    def ambush_unit(self, seat: str) -> str | None:
        """Ambush: the unit type whose token joins for ``seat`` (``None``: none can)."""
        return self.ambush(seat)

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        """Quick Gains: where ``seat``'s ``unit`` may move from the combat zone."""
        return self.after_win(seat, unit)

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        """Zones next to the combat zone holding ``seat``'s units (none without a map)."""
        return self.next_door(seat, combat)

    def fold(self, combat: Combat, event: Event) -> Combat:
        """:func:`evolve_combat` with this environment's pack."""
        fold = FOLDS.get(type(event))  # evolve_combat, inlined (hot path)
        return combat if fold is None else fold(self.pack, combat, event)
