"""What a scenario is (N-SCN-GEN-1): a starting position plus its rules, as plain records.

A :class:`Scenario` names its kind, seats, map and goal, where its units and markers start
(:class:`Setup`), how its markers move and who may destroy them (:class:`MarkerRule`),
its per-turn effects (:class:`Effects`) and its victory conditions (the ``Win`` records),
each carrying the ``N-SCN-`` rule id it implements (``docs/SCENARIOS.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

__all__ = [
    "Effects",
    "HoldToTheEnd",
    "MarkerDestroyedWins",
    "MarkerInBase",
    "MarkerReaches",
    "MarkerRule",
    "PointsLead",
    "RoundsHeld",
    "Scenario",
    "Setup",
    "UnitsOnMarker",
    "Win",
]

Kind = Literal["story", "mission", "skirmish"]


@attrs.frozen
class MarkerRule:
    """How a marker behaves (N-SCN-GEN-4/5).

    ``moves`` gives each seat that may move it its movement per turn; ``control`` is
    ``"fixed"`` (``controller`` of the marker moves it) or ``"occupy"`` (at the start of a
    turn, the active seat controls it when one of its combat units stands on it).
    ``water`` markers (the ship) move only through lakes, the controller's base and the
    zone of ``dock`` (a marker the ship calls at). ``enemy_of`` names the seat for which it
    counts as an enemy structure, destroyed in that seat's combat phase; ``rule`` is the id
    of the scenario's clause that says so (or of the movement clause).
    """

    marker: str
    rule: str
    moves: Mapping[str, int] = attrs.field(factory=dict)
    control: Literal["fixed", "occupy"] = "fixed"
    water: bool = False
    dock: str | None = None
    enemy_of: str | None = None
    destroy_rule: str | None = None


@attrs.frozen
class UnitsOnMarker:
    """At the start of ``seat``'s turn, ``count`` of its combat units on ``marker``: it wins."""

    rule: str
    seat: str
    marker: str
    count: int


@attrs.frozen
class MarkerDestroyedWins:
    """When ``marker`` is destroyed, ``seat`` wins at once."""

    rule: str
    seat: str
    marker: str


@attrs.frozen
class MarkerReaches:
    """When ``marker`` is moved onto ``target``'s zone, ``seat`` wins at once."""

    rule: str
    seat: str
    marker: str
    target: str


@attrs.frozen
class RoundsHeld:
    """At the end of ``seat``'s ``rounds``-th turn with ``marker`` still standing, it wins."""

    rule: str
    seat: str
    marker: str
    rounds: int


@attrs.frozen
class MarkerInBase:
    """At the start of a seat's turn (one of ``seats``), ``marker`` in its base: it wins."""

    rule: str
    seats: tuple[str, ...]
    marker: str


@attrs.frozen
class PointsLead:
    """At the end of a seat's turn, ``lead`` points more than every other seat: it wins."""

    rule: str
    lead: int


@attrs.frozen
class HoldToTheEnd:
    """When the turn limit is reached, ``seat`` wins (it held out)."""

    rule: str
    seat: str


Win = (
    UnitsOnMarker
    | MarkerDestroyedWins
    | MarkerReaches
    | RoundsHeld
    | MarkerInBase
    | PointsLead
    | HoldToTheEnd
)


@attrs.frozen
class Effects:
    """Per-turn scenario effects, each with the rule id it implements (``None``: not used)."""

    flare_at_start: tuple[str, int, str] | None = None
    """(seat, flare, rule): at the start of its turn the seat has at least this much flare."""
    marker_recruit: tuple[str, str, str | None, int, str] | None = None
    """(seat, marker, unit or None for any, flare cost, rule): in its development phase the
    seat may recruit one unit per turn on a marker (a given ``unit`` for ``flare`` flare and
    no other cost; ``None``: any unit at its normal cost)."""
    draw_at_end: tuple[str, str] | None = None
    """(seat, rule): at the end of its turn the seat draws a tactic card."""
    single_structure: tuple[str, str] | None = None
    """(structure, rule): at most one of it on the map."""
    round_die: tuple[str, str] | None = None
    """(seat, rule): a die on 1, moved up 1 at the end of the seat's turn (count ``rounds``)."""
    sacrifice: tuple[str, str, str] | None = None
    """(marker, rule for resources, rule for points): workers on the marker may be sacrificed
    for 2 resources of the owner's choice, or (up to 2 a turn) for a point each."""
    cargo: tuple[str, str, int, str] | None = None
    """(seat, dock marker, wood, rule): the seat's ship loads a die at the dock at the end of
    its movement phase and unloads it at its base for ``wood`` wood (times its multiplier)."""


@attrs.frozen
class Setup:
    """Where a scenario starts: units (zone, owner, unit, count), markers (kind, zone,
    controller) and stocks per seat (the standard one, N-SETUP-3, where not given)."""

    units: tuple[tuple[str, str, str, int], ...] = ()
    markers: tuple[tuple[str, str, str | None], ...] = ()
    stocks: Mapping[str, tuple[int, int, int]] = attrs.field(factory=dict)


@attrs.frozen
class Scenario:
    """One scenario of the book (``docs/SCENARIOS.md``)."""

    id: str
    title: str
    title_de: str
    kind: Kind
    seats: tuple[str, ...]
    map: str
    goal: str
    first: str | None
    max_turns: int
    mode: Literal["learning", "advanced"] = "learning"
    setup: Setup = Setup()
    markers: tuple[MarkerRule, ...] = ()
    effects: Effects = Effects()
    wins: tuple[Win, ...] = ()

    def marker_rule(self, marker: str) -> MarkerRule | None:
        """How ``marker`` behaves here (``None``: it stays where it is)."""
        return next((m for m in self.markers if m.marker == marker), None)
