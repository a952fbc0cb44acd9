"""The Nataterra position format ``nataterra-position`` v1: a whole position outside combat.

A position describes everything a game needs to go on from a point: the map, the seats in
turn order, every unit stack (per zone, owner and type), structure and scenario marker, each
player's stock, multipliers, flare, pools, group-card sides, hands, decks and discard pile,
the biome decks, cubes and victory conditions, turn, phase, first and active player, and the
dice counter. It is JSON or TOML (``docs/POSITIONS.md``); the fields below are the format.

Decks are ordered top card first. A deck named in ``shuffle`` (``"tactic:velathi"``,
``"biome:forest"``) is shuffled by the game's start record with the game's dice, so a
position can leave any deck's order to chance. ``first`` may be left out for turn 0: the
start record then draws the first player (N-SETUP-2).

``turn`` 0 means "set up, turn 1 not yet begun": the start record begins the first player's
turn 1 (unless opening discards are awaited, N-SETUP-8). A position with ``turn`` ≥ 1 is in
the middle of that turn, at ``phase``, with ``active`` to act.

The ``turn_state`` table holds what lasts only until the end of the current turn (units
that moved, who entered a zone last, tactic options played, techs being researched and the
like); a position between turns leaves it empty.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from ...state import Marker
from ..stock import Resources

__all__ = [
    "FORMAT",
    "MARKERS",
    "VERSION",
    "PlayerEntry",
    "Position",
    "StructureEntry",
    "TurnState",
    "UnitEntry",
]

FORMAT = "nataterra-position"
VERSION = 1

MARKERS: tuple[str, ...] = (
    "fragment",
    "carriage",
    "village",
    "portal",
    "ship",
    "crown",
    "cyclops",
)
"""The scenario markers (N-SCN-1; the cyclops of "What We Do Best" is a marker too)."""

PositionPhase = Literal["setup", "movement", "resources", "combat", "development"]


class _Entry(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """Base of the format's tables: unknown keys are refused, defaults are left out."""


class UnitEntry(_Entry, frozen=True, order=True):
    """``count`` units of type ``unit`` owned by ``owner`` in ``zone``; ``moved`` of them have
    moved this turn (N-MOV-1)."""

    zone: str
    owner: str
    unit: str
    count: int
    moved: int = 0


class StructureEntry(_Entry, frozen=True):
    """``owner``'s ``structure`` in ``zone``; ``cubes`` in a Soul Prison's slots (N-STR-3)."""

    zone: str
    owner: str
    structure: str
    cubes: int = 0


class PlayerEntry(_Entry, frozen=True):
    """One civilisation off the map (see ``PlayerState``): stock and multipliers, flare,
    recruitable ``pool``, ``locked`` supply, workers not yet in the pool, its hands, decks
    (top card first) and discard pile, the group-card ``sides`` techs chose, its unlocked
    structures and civilisation tiles, researched techs and their unit modifiers."""

    stock: Resources
    multipliers: Resources = Resources(1, 1, 1)
    flare: int = 0
    pool: dict[str, int] = msgspec.field(default_factory=dict)
    locked: dict[str, int] = msgspec.field(default_factory=dict)
    worker_supply: int = 0
    tech_hand: tuple[str, ...] = ()
    tech_deck: tuple[str, ...] = ()
    tactic_hand: tuple[str, ...] = ()
    tactic_deck: tuple[str, ...] = ()
    tactic_discard: tuple[str, ...] = ()
    sides: dict[str, Literal["a", "b"]] = msgspec.field(default_factory=dict)
    structures_unlocked: tuple[str, ...] = ()
    tiles_unlocked: int = 0
    techs: tuple[str, ...] = ()
    cost_mods: dict[str, Resources] = msgspec.field(default_factory=dict)
    movement_mods: dict[str, int] = msgspec.field(default_factory=dict)
    initiative_mods: dict[str, int] = msgspec.field(default_factory=dict)
    structure_discount: Resources = Resources()
    tech_discount: Resources = Resources()


class ZoneGrantEntry(_Entry, frozen=True, order=True):
    """A movement tactic option's gift this turn (N-MOV-6)."""

    seat: str
    zone: str
    movement: int = 0
    stealth: int = 0


class ResearchEntry(_Entry, frozen=True):
    """A tech researched this turn, resolved at its end (N-DEV-4)."""

    seat: str
    tech: str
    option: Literal["a", "b"] | None = None


class StrategisedEntry(_Entry, frozen=True):
    """Units that joined a combat by Strategise this turn (N-ABL-7)."""

    owner: str
    unit: str
    zone: str
    count: int


class TurnState(_Entry, frozen=True):
    """What lasts until the end of the current turn (empty between turns)."""

    entered: dict[str, str] = msgspec.field(default_factory=dict)
    tactic_phases: tuple[str, ...] = ()
    zone_grants: tuple[ZoneGrantEntry, ...] = ()
    phase_done: tuple[str, ...] = ()
    researching: tuple[ResearchEntry, ...] = ()
    strategised: tuple[StrategisedEntry, ...] = ()
    turn_cubes: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    discarding: tuple[str, ...] = ()


class Position(_Entry, frozen=True):
    """A Nataterra position (``nataterra-position`` v1); see the module docstring."""

    map: str
    seats: tuple[str, ...]
    players: dict[str, PlayerEntry]
    format: str = FORMAT
    version: int = VERSION
    mode: Literal["learning", "advanced"] = "learning"
    scenario: str | None = None
    turn: int = 0
    phase: PositionPhase = "setup"
    first: str | None = None
    active: str | None = None
    dice_counter: int = 0
    max_turns: int = 0
    dominance_cubes: int = 4
    conquest: bool = False
    teams: tuple[tuple[str, ...], ...] = ()
    units: tuple[UnitEntry, ...] = ()
    structures: tuple[StructureEntry, ...] = ()
    markers: tuple[Marker, ...] = ()
    biome_decks: dict[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    biome_discards: dict[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    shuffle: tuple[str, ...] = ()
    cubes: dict[str, int] = msgspec.field(default_factory=dict)
    conditions: tuple[str, ...] = ()
    condition_cubes: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    scenario_counts: dict[str, int] = msgspec.field(default_factory=dict)
    bases_destroyed: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()
    conquered: dict[str, str] = msgspec.field(default_factory=dict)
    turn_state: TurnState = TurnState()
