"""The Nataterra game state: immutable msgspec Structs, replaced (never mutated) by ``evolve``.

The state is the whole truth, hidden parts included (deck orders, hands); what a seat may
see is cut out by the player views. It holds the dice *counter*, never the seed. Seats are
civilisation ids (``"velathi"``): each civilisation is played by exactly one seat.

Units are counted per (owner, unit type, zone) in :class:`UnitStack`, with how many of them
already moved this turn (N-MOV-1); stacks are kept sorted so equal positions are equal values.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from typing import Annotated, Literal

import msgspec

from nataterra_core.kernel.secrets import PUBLIC, hidden, owned

from .rules.combat.model import Combat
from .rules.map_layout import Structuring
from .rules.stock import Resources

__all__ = [
    "PHASES",
    "GameState",
    "Marker",
    "Phase",
    "PlacedStructure",
    "PlayerState",
    "Resources",
    "UnitStack",
    "ZoneGrant",
    "add_units",
    "move_units",
    "remove_units",
]

Phase = Literal["setup", "movement", "resources", "combat", "development", "over"]
PHASES: tuple[Phase, ...] = ("movement", "resources", "combat", "development")
"""The four phases of a turn, in order (N-TURN-1)."""

_replace = msgspec.structs.replace


class UnitStack(msgspec.Struct, frozen=True, order=True, gc=False):
    """``count`` units of one type and owner in one zone; ``moved`` of them moved this turn."""

    owner: Annotated[str, PUBLIC]
    unit: Annotated[str, PUBLIC]
    zone: Annotated[str, PUBLIC]
    count: Annotated[int, PUBLIC]
    moved: Annotated[int, PUBLIC] = 0

    @property
    def key(self) -> tuple[str, str, str]:
        """(owner, unit, zone): what identifies a stack."""
        return (self.owner, self.unit, self.zone)

    @property
    def unmoved(self) -> int:
        """Units here that may still move this turn."""
        return self.count - self.moved


class PlacedStructure(msgspec.Struct, frozen=True, order=True, gc=False):
    """A structure on the map (N-STR-0..3): ``owner``'s ``structure`` in ``zone``; ``cubes``
    are the cubes in a Soul Prison's slots (N-STR-3)."""

    owner: Annotated[str, PUBLIC]
    structure: Annotated[str, PUBLIC]
    zone: Annotated[str, PUBLIC]
    cubes: Annotated[int, PUBLIC] = 0


class PlayerState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Everything one civilisation owns off the map.

    ``pool`` holds recruitable tokens by unit type (workers included), ``locked`` those still
    in the locked supply or under a civilisation tile (N-SETUP-6), ``worker_supply`` the
    workers not yet in the pool (N-SETUP-5). ``sides`` maps a unit type to the group-card
    side a researched tech selected (no entry: side A without tech abilities, N-DEV-5).
    ``structures_unlocked`` lists the structures it may build (N-SETUP-6: face-down tiles
    are locked; the Humans' Farm starts unlocked); ``tiles_unlocked`` counts civilisation
    tiles turned (left first). ``researching`` holds the techs researched this turn (tech,
    option) until the end of the turn; ``techs`` the unit techs in play; the ``*_mods`` are
    their changes to a unit type's cost, movement and initiative (N-DEV-3..5).
    ``structure_discount`` and ``tech_discount`` lower the next structure built and the
    next tech researched (tactic cards, N-TAC-3); they are used up by it.
    """

    civ: Annotated[str, PUBLIC]
    stock: Annotated[Resources, PUBLIC]
    multipliers: Annotated[Resources, PUBLIC] = Resources(1, 1, 1)
    flare: Annotated[int, PUBLIC] = 0
    pool: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    locked: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    worker_supply: Annotated[int, PUBLIC] = 0
    tech_hand: Annotated[tuple[str, ...], owned("civ", pool="tech", local=True)] = ()
    tech_deck: Annotated[tuple[str, ...], hidden(pool="tech", local=True)] = ()
    tactic_deck: Annotated[tuple[str, ...], hidden(pool="tactic", local=True)] = ()
    tactic_hand: Annotated[tuple[str, ...], owned("civ", pool="tactic", local=True)] = ()
    tactic_discard: Annotated[tuple[str, ...], PUBLIC] = ()
    sides: Annotated[dict[str, Literal["a", "b"]], PUBLIC] = msgspec.field(default_factory=dict)
    structures_unlocked: Annotated[tuple[str, ...], PUBLIC] = ()
    tiles_unlocked: Annotated[int, PUBLIC] = 0
    researching: Annotated[tuple[tuple[str, Literal["a", "b"] | None], ...], PUBLIC] = ()
    techs: Annotated[tuple[str, ...], PUBLIC] = ()
    cost_mods: Annotated[dict[str, Resources], PUBLIC] = msgspec.field(default_factory=dict)
    movement_mods: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    initiative_mods: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    structure_discount: Annotated[Resources, PUBLIC] = Resources()
    tech_discount: Annotated[Resources, PUBLIC] = Resources()


class Marker(
    msgspec.Struct,
    frozen=True,
    order=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    gc=False,
):
    """A scenario marker on the map (N-SCN-1): ``marker`` is its kind (crown, carriage, ...),
    ``controller`` the seat that moves it (carriage, ship), ``cubes`` a civilisation die on
    it (the ship's cargo)."""

    marker: Annotated[str, PUBLIC]
    zone: Annotated[str, PUBLIC]
    controller: Annotated[str | None, PUBLIC] = None
    cubes: Annotated[int, PUBLIC] = 0


class ZoneGrant(msgspec.Struct, frozen=True, order=True, gc=False):
    """A movement tactic option's gift for this turn (N-MOV-6): ``seat``'s units in ``zone``
    that have not moved yet get ``movement`` more points and ``stealth`` more Stealth."""

    seat: Annotated[str, PUBLIC]
    zone: Annotated[str, PUBLIC]
    movement: Annotated[int, PUBLIC] = 0
    stealth: Annotated[int, PUBLIC] = 0


class GameState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A Nataterra position.

    ``turn`` counts player turns from 1; ``active`` indexes ``seats`` (turn order is seat
    order, clockwise, N-TURN-1). ``combat`` is the combat being fought in the combat phase;
    ``strategised`` counts (owner, unit, zone, count) units that joined a combat by
    Strategise this turn (N-ABL-7: once per turn). ``cubes`` are each seat's victory cubes
    (N-WIN-2: ``dominance_cubes`` win); ``bases_destroyed`` lists destroyed bases (N-WIN-1);
    ``entered`` names, per zone, the seat whose units moved in last (N-COMBAT-3).
    ``structures`` are the structures on the map, in the order they were built (N-STR-1; a
    zone holds at least one). ``result_reason`` is set once the game is over.
    ``tactic_phases`` lists the phases in which the active player has played a tactic
    option this turn (N-TURN-2); ``zone_grants`` the movement options played (N-MOV-6).
    ``teams`` holds the teams of a team game (empty: every player for themselves); allies
    take their turn together and ``phase_done`` lists those who ended the current phase
    (N-TURN-3). In conquest mode (``conquest``, N-WIN-5) ``conquered`` maps each player
    whose base is conquered to its conqueror.

    Advanced mode (N-SETUP-8, N-WIN-3): ``conditions`` are the victory conditions drawn
    (strategy, war, glory); ``condition_cubes`` each seat's cubes per condition (``cubes``
    then holds each seat's total); ``turn_cubes`` the cubes each seat placed per condition
    during the current turn (the per-turn caps); ``discarding`` the seats, in turn order,
    still to discard one of their three opening tactic cards before the first turn.

    ``structuring`` is the map being built at set-up (N-MAP-4), ``None`` once it is
    complete or when the game is played on a map of the pack.

    A scenario game (N-SCN-1) names its ``scenario``; ``markers`` are the scenario markers on
    the map and ``scenario_counts`` the counts its rules keep (rounds, points).

    States (and player states) are values built from values, never part of a reference
    cycle, so the garbage collector does not track them (``gc=False``): every event's fold
    makes one, and tracking each cost more than its share of the copy.
    """

    seats: Annotated[tuple[str, ...], PUBLIC]
    map_id: Annotated[str, PUBLIC]
    mode: Annotated[str, PUBLIC]
    max_turns: Annotated[int, PUBLIC]
    players: Annotated[tuple[PlayerState, ...], PUBLIC]
    units: Annotated[tuple[UnitStack, ...], PUBLIC] = ()
    biome_decks: Annotated[dict[str, tuple[str, ...]], hidden()] = msgspec.field(
        default_factory=dict
    )
    biome_discards: Annotated[dict[str, tuple[str, ...]], PUBLIC] = msgspec.field(
        default_factory=dict
    )
    first: Annotated[int, PUBLIC] = -1
    active: Annotated[int, PUBLIC] = -1
    turn: Annotated[int, PUBLIC] = 0
    phase: Annotated[Phase, PUBLIC] = "setup"
    counter: Annotated[int, PUBLIC] = 0
    result_reason: Annotated[str | None, PUBLIC] = None
    winners: Annotated[tuple[str, ...], PUBLIC] = ()
    combat: Annotated[Combat | None, PUBLIC] = None
    strategised: Annotated[tuple[tuple[str, str, str, int], ...], PUBLIC] = ()
    dominance_cubes: Annotated[int, PUBLIC] = 4
    cubes: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    bases_destroyed: Annotated[tuple[str, ...], PUBLIC] = ()
    eliminated: Annotated[tuple[str, ...], PUBLIC] = ()
    entered: Annotated[dict[str, str], PUBLIC] = msgspec.field(default_factory=dict)
    structures: Annotated[tuple[PlacedStructure, ...], PUBLIC] = ()
    tactic_phases: Annotated[tuple[str, ...], PUBLIC] = ()
    zone_grants: Annotated[tuple[ZoneGrant, ...], PUBLIC] = ()
    teams: Annotated[tuple[tuple[str, ...], ...], PUBLIC] = ()
    phase_done: Annotated[tuple[str, ...], PUBLIC] = ()
    conquest: Annotated[bool, PUBLIC] = False
    conquered: Annotated[dict[str, str], PUBLIC] = msgspec.field(default_factory=dict)
    conditions: Annotated[tuple[str, ...], PUBLIC] = ()
    condition_cubes: Annotated[dict[str, dict[str, int]], PUBLIC] = msgspec.field(
        default_factory=dict
    )
    turn_cubes: Annotated[dict[str, dict[str, int]], PUBLIC] = msgspec.field(default_factory=dict)
    discarding: Annotated[tuple[str, ...], PUBLIC] = ()
    structuring: Annotated[Structuring | None, PUBLIC] = None
    scenario: Annotated[str | None, PUBLIC] = None
    markers: Annotated[tuple[Marker, ...], PUBLIC] = ()
    scenario_counts: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    pack: Annotated[str, PUBLIC] = ""
    """The effective SHA-256 of the content pack in play (views carry it, so that words and
    drawings read that pack's maps, units and cards)."""

    @property
    def active_seat(self) -> str:
        """The civilisation whose turn it is."""
        return self.seats[self.active]

    def player(self, civ: str) -> PlayerState:
        """The player state of ``civ``."""
        return self.players[self.seats.index(civ)]

    def with_player(
        self, player: PlayerState, units: tuple[UnitStack, ...] | None = None
    ) -> GameState:
        """A copy with ``player`` replacing the state of the same civilisation (and the
        stacks replaced by ``units``: one copy of the state for both)."""
        players = list(self.players)
        players[self.seats.index(player.civ)] = player
        if units is None:  # named, not ``**changes``: a keyword dict costs about 1.7k
            return _replace(self, players=tuple(players))
        return _replace(self, players=tuple(players), units=units)

    def stacks_of(self, owner: str) -> Iterator[UnitStack]:
        """``owner``'s stacks in canonical order."""
        return (s for s in self.units if s.owner == owner)

    def stacks_in(self, zone: str) -> Iterator[UnitStack]:
        """The stacks in ``zone``."""
        return (s for s in self.units if s.zone == zone)

    def structure_in(self, zone: str) -> PlacedStructure | None:
        """The structure in ``zone``, if any (N-STR-1: at most one)."""
        return next((s for s in self.structures if s.zone == zone), None)

    def owners_in(self, zone: str) -> set[str]:
        """Civilisations with units in ``zone``."""
        return {s.owner for s in self.units if s.zone == zone}


def add_units(
    units: tuple[UnitStack, ...], owner: str, unit: str, zone: str, count: int, moved: int = 0
) -> tuple[UnitStack, ...]:
    """Stacks with ``count`` more units (``moved`` of them having moved) at ``zone``."""
    stacks = list(units)
    _add(stacks, owner, unit, zone, count, moved)
    return tuple(stacks)


def remove_units(
    units: tuple[UnitStack, ...], owner: str, unit: str, zone: str, count: int, moved: int = 0
) -> tuple[UnitStack, ...]:
    """Stacks with ``count`` fewer units at ``zone`` (``moved`` of them from the moved ones)."""
    stacks = list(units)
    _remove(stacks, owner, unit, zone, count, moved)
    return tuple(stacks)


def move_units(
    units: tuple[UnitStack, ...], owner: str, unit: str, origin: str, destination: str, count: int
) -> tuple[UnitStack, ...]:
    """Stacks with ``count`` unmoved units taken from ``origin`` and added, moved, at
    ``destination`` (N-MOV-1): one copy of the stacks, the commonest fold. (``_remove`` and
    ``_add`` written out: a Python call costs more than either's key test.)"""
    stacks = list(units)
    i = bisect_left(stacks, UnitStack(owner, unit, origin, -1))  # see _add
    stack = stacks[i] if i < len(stacks) else None
    if stack is None or stack.zone != origin or stack.unit != unit or stack.owner != owner:
        raise ValueError(f"no {unit} of {owner} in {origin}")
    if stack.count < count:
        raise ValueError(f"cannot remove {count} {unit} from {origin}: only {stack.count}")
    if stack.count == count:
        del stacks[i]
        k = i  # the first stack after the origin's
    else:
        stacks[i] = UnitStack(owner, unit, origin, stack.count - count, stack.moved)
        k = i + 1
    # The destination's stack, if there is one, is in the origin's run of (owner, unit)
    # stacks, a step or two away: walk to the first stack not below the destination's key
    # (``k``) instead of searching again (each Struct comparison costs about 0.5k).
    n = len(stacks)
    if destination > origin:
        while k < n:
            stack = stacks[k]
            if stack.zone >= destination or stack.unit != unit or stack.owner != owner:
                break
            k += 1
    else:
        k = i  # every stack from the origin's place on sorts after the destination's key
        while k > 0:
            stack = stacks[k - 1]
            if stack.zone < destination or stack.unit != unit or stack.owner != owner:
                break
            k -= 1
    if k < n:
        stack = stacks[k]
        if stack.zone == destination and stack.unit == unit and stack.owner == owner:
            stacks[k] = UnitStack(
                owner, unit, destination, stack.count + count, stack.moved + count
            )
            return tuple(stacks)
    stacks.insert(k, UnitStack(owner, unit, destination, count, count))
    return tuple(stacks)


def _add(stacks: list[UnitStack], owner: str, unit: str, zone: str, count: int, moved: int) -> None:
    # Stacks are sorted by their fields, key first, and a count is never below zero, so a
    # probe with count -1 sorts just before the stack of its key: one binary search with C
    # comparisons instead of a walk over every stack. (The search and the key test are
    # written out here and in ``_remove``: a call costs more than either.)
    i = bisect_left(stacks, UnitStack(owner, unit, zone, -1))
    if i < len(stacks):
        stack = stacks[i]
        if stack.zone == zone and stack.unit == unit and stack.owner == owner:
            stacks[i] = UnitStack(owner, unit, zone, stack.count + count, stack.moved + moved)
            return
    if count > 0:
        stacks.insert(i, UnitStack(owner, unit, zone, count, moved))


def _remove(
    stacks: list[UnitStack], owner: str, unit: str, zone: str, count: int, moved: int
) -> None:
    i = bisect_left(stacks, UnitStack(owner, unit, zone, -1))  # see _add
    stack = stacks[i] if i < len(stacks) else None
    if stack is None or stack.zone != zone or stack.unit != unit or stack.owner != owner:
        raise ValueError(f"no {unit} of {owner} in {zone}")
    if stack.count < count or stack.moved < moved:
        raise ValueError(f"cannot remove {count} {unit} from {zone}: only {stack.count}")
    if stack.count == count:
        del stacks[i]
    else:
        stacks[i] = UnitStack(owner, unit, zone, stack.count - count, stack.moved - moved)
