"""What one seat may see of a position (player views).

A seat sees the public state (the map, every unit, stocks, multipliers, flare, pools,
discard piles, phase, turn and any combat being fought), its own hands, and only *counts*
of every deck and of the other seats' hands. No deck order and no other seat's hand ever
appears in a view, so two positions that differ only in those give equal views
(boardgame.io's ``playerView``, whose known leaks through undo and the initial state we
avoid by deriving views from the state alone: the seed is never in the state).

The log is cut the same way by the kernel (:func:`nataterra_core.kernel.visibility.log_view`),
from the visibility each command and event class declares: until the seed is revealed a
seat gets the records without their ``prev`` hashes and with hidden facts (deck orders, the
other seats' drawn cards and tiles) removed.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from nataterra_core.kernel.secrets import sees

from .messages.combat import CombatEnded
from .rules.combat.model import Combat
from .rules.combat.sandbox_model import Battle, SandboxState
from .rules.structuring import StructuringView, structuring_view
from .state import (
    GameState,
    Marker,
    PlacedStructure,
    PlayerState,
    Resources,
    UnitStack,
    ZoneGrant,
)

__all__ = ["PlayerView", "SandboxView", "SeatView", "sandbox_view", "seat_view"]


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    """One civilisation as a given seat sees it; hands are ``None`` when not the seat's own."""

    civ: str
    stock: Resources
    multipliers: Resources
    flare: int
    pool: dict[str, int]
    locked: dict[str, int]
    worker_supply: int
    sides: dict[str, str]
    structures_unlocked: tuple[str, ...]
    tech_hand: tuple[str, ...] | None
    tech_hand_count: int
    tech_deck_count: int
    tactic_hand: tuple[str, ...] | None
    tactic_hand_count: int
    tactic_deck_count: int
    tactic_discard: tuple[str, ...]
    techs: tuple[str, ...] = ()
    cost_mods: dict[str, Resources] = msgspec.field(default_factory=dict)
    movement_mods: dict[str, int] = msgspec.field(default_factory=dict)
    initiative_mods: dict[str, int] = msgspec.field(default_factory=dict)
    tiles_unlocked: int = 0
    researching: tuple[tuple[str, Literal["a", "b"] | None], ...] = ()
    structure_discount: Resources = Resources()
    tech_discount: Resources = Resources()


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """A position as ``seat`` sees it (``seat`` None: a spectator, who sees no hand).

    Advanced mode: ``conditions`` are the victory conditions in play and ``condition_cubes``
    each seat's cubes on them (N-WIN-3); ``cubes`` is each seat's total. ``teams`` are the
    allied seats (N-TEAM-1) and ``bases_destroyed`` the civilisations whose base is gone.
    Each player's researched ``techs`` and the unit cost and movement changes they
    brought are public too (researches and tactic plays are made in the open). A scenario
    game (N-SCN-1) shows its ``scenario``, the ``markers`` on the map and its counts.

    Everything public in the state is in the view (the fields from ``strategised`` on are
    the turn's bookkeeping and the options): a determiniser rebuilds a whole state from a
    view and samples only what is hidden (``determinise.py``).
    """

    seat: str | None
    seats: tuple[str, ...]
    map_id: str
    mode: str
    max_turns: int
    turn: int
    phase: str
    active: str | None
    first: str | None
    players: tuple[PlayerView, ...]
    units: tuple[UnitStack, ...]
    structures: tuple[PlacedStructure, ...]
    biome_deck_counts: dict[str, int]
    biome_discards: dict[str, tuple[str, ...]]
    result_reason: str | None
    winners: tuple[str, ...]
    combat: Combat | None = None
    cubes: dict[str, int] = msgspec.field(default_factory=dict)
    conditions: tuple[str, ...] = ()
    condition_cubes: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    structuring: StructuringView | None = None
    teams: tuple[tuple[str, ...], ...] = ()
    bases_destroyed: tuple[str, ...] = ()
    strategised: tuple[tuple[str, str, str, int], ...] = ()
    dominance_cubes: int = 4
    eliminated: tuple[str, ...] = ()
    entered: dict[str, str] = msgspec.field(default_factory=dict)
    tactic_phases: tuple[str, ...] = ()
    zone_grants: tuple[ZoneGrant, ...] = ()
    phase_done: tuple[str, ...] = ()
    conquest: bool = False
    conquered: dict[str, str] = msgspec.field(default_factory=dict)
    turn_cubes: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    discarding: tuple[str, ...] = ()
    scenario: str | None = None
    markers: tuple[Marker, ...] = ()
    scenario_counts: dict[str, int] = msgspec.field(default_factory=dict)
    pack: str = ""
    """The effective SHA-256 of the content pack in play."""


def _player_view(player: PlayerState, seat: str | None, revealed: bool) -> PlayerView:
    def shown(field: str) -> bool:  # by the field's declaration (its owner's hands)
        return sees(player, field, seat, revealed=revealed)

    return PlayerView(
        civ=player.civ,
        stock=player.stock,
        multipliers=player.multipliers,
        flare=player.flare,
        pool=dict(player.pool),
        locked=dict(player.locked),
        worker_supply=player.worker_supply,
        sides=dict(player.sides),
        structures_unlocked=player.structures_unlocked,
        tech_hand=player.tech_hand if shown("tech_hand") else None,
        tech_hand_count=len(player.tech_hand),
        tech_deck_count=len(player.tech_deck),
        tactic_hand=player.tactic_hand if shown("tactic_hand") else None,
        tactic_hand_count=len(player.tactic_hand),
        tactic_deck_count=len(player.tactic_deck),
        tactic_discard=player.tactic_discard,
        techs=player.techs,
        cost_mods=dict(player.cost_mods),
        movement_mods=dict(player.movement_mods),
        initiative_mods=dict(player.initiative_mods),
        tiles_unlocked=player.tiles_unlocked,
        researching=player.researching,
        structure_discount=player.structure_discount,
        tech_discount=player.tech_discount,
    )


def seat_view(state: GameState, seat: str | None, *, revealed: bool = False) -> SeatView:
    """What ``seat`` may see of ``state``: each secret as its field is declared (a hand
    its civilisation's), all of them once the seed is ``revealed``."""
    return SeatView(
        seat=seat,
        seats=state.seats,
        map_id=state.map_id,
        pack=state.pack,
        mode=state.mode,
        max_turns=state.max_turns,
        turn=state.turn,
        phase=state.phase,
        active=state.active_seat if state.active >= 0 else None,
        first=state.seats[state.first] if state.first >= 0 else None,
        players=tuple(_player_view(p, seat, revealed) for p in state.players),
        units=state.units,
        structures=state.structures,
        biome_deck_counts={biome: len(cards) for biome, cards in state.biome_decks.items()},
        biome_discards=dict(state.biome_discards),
        result_reason=state.result_reason,
        winners=state.winners,
        combat=state.combat,  # fought in the open; hands are the players' (seen as above)
        cubes=dict(state.cubes),
        conditions=state.conditions,
        condition_cubes={seat: dict(by) for seat, by in state.condition_cubes.items()},
        structuring=structuring_view(state, seat, revealed=revealed),
        teams=state.teams,
        bases_destroyed=state.bases_destroyed,
        strategised=state.strategised,
        dominance_cubes=state.dominance_cubes,
        eliminated=state.eliminated,
        entered=dict(state.entered),
        tactic_phases=state.tactic_phases,
        zone_grants=state.zone_grants,
        phase_done=state.phase_done,
        conquest=state.conquest,
        conquered=dict(state.conquered),
        turn_cubes={seat: dict(by) for seat, by in state.turn_cubes.items()},
        discarding=state.discarding,
        scenario=state.scenario,
        markers=state.markers,
        scenario_counts=dict(state.scenario_counts),
    )


class SandboxView(msgspec.Struct, frozen=True, kw_only=True):
    """A sandbox battle as one seat sees it: all of it (a battle deals no hands).

    The described ``battle`` (the header's option), the ``result`` once it is over and the
    units ``lost_in_retreat`` are public too, so the view holds the whole state but its
    hidden part (a determiniser rebuilds the state from it)."""

    seat: str | None
    attacker: str
    defender: str
    combat: Combat | None
    winner: str | None
    battle: Battle | None = None
    result: CombatEnded | None = None
    lost_in_retreat: dict[str, int] = msgspec.field(default_factory=dict)
    stocks: dict[str, Resources] = msgspec.field(default_factory=dict)
    flare: dict[str, int] = msgspec.field(default_factory=dict)


def sandbox_view(state: SandboxState, seat: str | None, *, revealed: bool = False) -> SandboxView:
    """What ``seat`` may see of a sandbox battle: all of it, revealed or not (nothing in it
    is secret)."""
    return SandboxView(
        seat=seat,
        attacker=state.battle.attacker,
        defender=state.battle.defender,
        combat=state.combat,
        winner=state.result.winner if state.result is not None else None,
        battle=state.battle,
        result=state.result,
        lost_in_retreat=dict(state.lost_in_retreat),
        stocks=dict(state.stocks),
        flare=dict(state.flare),
    )
