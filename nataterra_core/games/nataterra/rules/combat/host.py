"""The host of a combat (the game, the sandbox): what it answers about the world around the
combat (:class:`Host`), and :class:`Answers`, a host answering through given functions.

The host is the one store of the fighters' tactic hands, stocks and flare (the combat keeps
no copy): within one step the flow moves it on with :meth:`Host.folded` past each event that
changes them (:mod:`.holdings`).

Hosts stay interpreted (this module is not compiled), so a game's or the sandbox's host
may subclass :class:`Answers` for the answers it leaves at their defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from nataterra_core.kernel import DiceStream, Event

from ..stock import Resources
from .holdings import fold_hands, fold_stocks
from .model import Combat

__all__ = ["NO_HOST", "Answers", "BiomeDraw", "Host"]


BiomeDraw = Callable[[Combat, DiceStream], tuple[str | None, tuple[Event, ...]]]
"""Draws the combat's biome card: the card (or ``None``) and the events that drew it."""


class Host(Protocol):
    """What the host of a combat (the game, the sandbox) answers about the world around it;
    a host reads its own immutable state and is made once per state (no closures)."""

    def blocked(self, seat: str, zone: str) -> bool:
        """N-COMBAT-23: whether enemy units, structures or a base bar ``seat`` from
        retreating into ``zone``."""

    def draw_biome(self, combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
        """N-COMBAT-7: the combat's biome card (or ``None``) and the events that drew it."""

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        """Events that draw ``seat`` one tactic card (N-DEV-6 reshuffles an empty deck)."""

    def flare_cost(self, seat: str, zone: str) -> int | None:
        """N-COMBAT-8: flare ``seat`` pays to redirect a biome effect in ``zone``."""

    def ambush_unit(self, seat: str) -> str | None:
        """Ambush: the unit type whose token joins for ``seat`` (``None``: none can)."""

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        """Quick Gains: where ``seat``'s ``unit`` may move from the combat zone."""

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        """Zones next to the combat zone holding ``seat``'s units."""

    def strategists(self, seat: str, combat: Combat) -> list[tuple[str, str, int]]:
        """N-ABL-7: ``seat``'s (unit, zone, count) next door that may still join."""

    def has_strategists(self) -> bool:
        """Whether anyone could join by Strategise at all (only on the game's map)."""

    def deals_tactics(self) -> bool:
        """Whether anyone may hold tactic cards at all (a battle deals none)."""

    def hand(self, seat: str) -> tuple[str, ...]:
        """``seat``'s tactic hand (hidden information: only ``seat`` sees it, N-COMBAT-9)."""

    def stock(self, seat: str) -> Resources:
        """``seat``'s stock (injury fees, N-COMBAT-26; tactic costs, N-TAC-1)."""

    def flare(self, seat: str) -> int:
        """``seat``'s flare (N-CIV-3)."""

    def holds_flare(self) -> bool:
        """Whether anyone may hold flare now (``False``: nobody does, so no Spirit's Embrace
        can be paid for; asked once per round)."""

    def folded(self, combat: Combat, event: Event) -> Host:
        """This host after ``event``, one that may change a hand, a stock or flare
        (:func:`~.holdings.changes_holdings`); ``combat`` is the combat before it."""


class Answers:
    """A :class:`Host` answering through the functions it is given (tests, and a combat
    without a host: no card is drawn, nothing blocks a retreat, nobody joins), holding the
    ``hands``, ``stocks`` and ``flare`` it is given and folding them
    (:func:`~.holdings.fold_hands`, :func:`~.holdings.fold_stocks`)."""

    __slots__ = (
        "_after_win",
        "_ambush",
        "_blocked",
        "_draw_biome",
        "_draw_tactics",
        "_flare",
        "_flare_costs",
        "_hands",
        "_next_door",
        "_stocks",
        "_strategists",
    )

    def __init__(
        self,
        blocked: Callable[[str, str], bool] | None = None,
        draw_biome: BiomeDraw | None = None,
        draw_tactics: Callable[[str, DiceStream], tuple[Event, ...]] | None = None,
        flare_costs: Callable[[str, str], int | None] | None = None,
        ambush: Callable[[str], str | None] | None = None,
        after_win: Callable[[str, str], list[str]] | None = None,
        strategists: Callable[[str, Combat], list[tuple[str, str, int]]] | None = None,
        next_door: Callable[[str, Combat], list[str]] | None = None,
        *,
        hands: dict[str, tuple[str, ...]] | None = None,
        stocks: dict[str, Resources] | None = None,
        flare: dict[str, int] | None = None,
    ) -> None:
        self._blocked = blocked
        self._draw_biome = draw_biome
        self._draw_tactics = draw_tactics
        self._flare_costs = flare_costs
        self._ambush = ambush
        self._after_win = after_win
        self._strategists = strategists
        self._next_door = next_door
        self._hands = hands or {}
        self._stocks = stocks or {}
        self._flare = flare or {}

    def blocked(self, seat: str, zone: str) -> bool:
        return self._blocked is not None and self._blocked(seat, zone)

    def draw_biome(self, combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
        return (None, ()) if self._draw_biome is None else self._draw_biome(combat, dice)

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        return () if self._draw_tactics is None else self._draw_tactics(seat, dice)

    def flare_cost(self, seat: str, zone: str) -> int | None:
        return None if self._flare_costs is None else self._flare_costs(seat, zone)

    def ambush_unit(self, seat: str) -> str | None:
        return None if self._ambush is None else self._ambush(seat)

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        return [] if self._after_win is None else self._after_win(seat, unit)

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        return [] if self._next_door is None else self._next_door(seat, combat)

    def strategists(self, seat: str, combat: Combat) -> list[tuple[str, str, int]]:
        return [] if self._strategists is None else self._strategists(seat, combat)

    def has_strategists(self) -> bool:
        return self._strategists is not None

    def deals_tactics(self) -> bool:
        return bool(self._hands)

    def hand(self, seat: str) -> tuple[str, ...]:
        return self._hands.get(seat, ())

    def stock(self, seat: str) -> Resources:
        return self._stocks.get(seat, _NOTHING)

    def flare(self, seat: str) -> int:
        return self._flare.get(seat, 0)

    def holds_flare(self) -> bool:
        return any(self._flare.values())

    def folded(self, combat: Combat, event: Event) -> Answers:
        """The same answers, with the hands, stocks and flare after ``event``."""
        stocks, flare = fold_stocks(self._stocks, self._flare, combat, event)
        hands = fold_hands(self._hands, event)
        if hands is self._hands and stocks is self._stocks and flare is self._flare:
            return self
        return self.holding(hands, stocks, flare)

    def holding(
        self,
        hands: dict[str, tuple[str, ...]],
        stocks: dict[str, Resources],
        flare: dict[str, int],
    ) -> Answers:
        """These answers with other hands, stocks and flare."""
        return Answers(
            self._blocked,
            self._draw_biome,
            self._draw_tactics,
            self._flare_costs,
            self._ambush,
            self._after_win,
            self._strategists,
            self._next_door,
            hands=hands,
            stocks=stocks,
            flare=flare,
        )


_NOTHING = Resources()


NO_HOST = Answers()
"""The host of a combat with nothing around it (no map, decks or pools)."""
