"""What one seat may see of a position (player views).

A seat sees the public state (the map, every unit, stocks, multipliers, flare, pools,
discard piles, phase, turn and any combat being fought), its own hands, and only *counts*
of every deck and of the other seats' hands. No deck order and no other seat's hand ever
appears in a view, so two positions that differ only in those give equal views
(boardgame.io's ``playerView``, whose known leaks through undo and the initial state we
avoid by deriving views from the state alone: the seed is never in the state).

The log is cut the same way (:func:`log_view`): until the seed is revealed a seat gets the
records without their ``prev`` hashes and with hidden facts (deck orders) removed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from nataterra_core.kernel.log import line_hash

from .rules.combat.model import Combat
from .rules.state import GameState, PlacedStructure, PlayerState, Resources, UnitStack
from .rules.structuring import StructuringView, structuring_view

__all__ = [
    "PUBLIC",
    "REDACTIONS",
    "LogView",
    "PlayerView",
    "Redactor",
    "SeatView",
    "hide_from_others",
    "log_view",
    "record_view",
    "seat_view",
]


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


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """A position as ``seat`` sees it (``seat`` None: a spectator, who sees no hand).

    Advanced mode: ``conditions`` are the victory conditions in play and ``condition_cubes``
    each seat's cubes on them (N-WIN-3); ``cubes`` is each seat's total. ``teams`` are the
    allied seats (N-TEAM-1) and ``bases_destroyed`` the civilisations whose base is gone.
    Each player's researched ``techs`` and the unit cost and movement changes they
    brought are public too (researches and tactic plays are made in the open).
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


def _player_view(player: PlayerState, own: bool) -> PlayerView:
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
        tech_hand=player.tech_hand if own else None,
        tech_hand_count=len(player.tech_hand),
        tech_deck_count=len(player.tech_deck),
        tactic_hand=player.tactic_hand if own else None,
        tactic_hand_count=len(player.tactic_hand),
        tactic_deck_count=len(player.tactic_deck),
        tactic_discard=player.tactic_discard,
        techs=player.techs,
        cost_mods=dict(player.cost_mods),
        movement_mods=dict(player.movement_mods),
    )


def seat_view(state: GameState, seat: str | None) -> SeatView:
    """What ``seat`` may see of ``state``."""
    return SeatView(
        seat=seat,
        seats=state.seats,
        map_id=state.map_id,
        mode=state.mode,
        max_turns=state.max_turns,
        turn=state.turn,
        phase=state.phase,
        active=state.active_seat if state.active >= 0 else None,
        first=state.seats[state.first] if state.first >= 0 else None,
        players=tuple(_player_view(p, p.civ == seat) for p in state.players),
        units=state.units,
        structures=state.structures,
        biome_deck_counts={biome: len(cards) for biome, cards in state.biome_decks.items()},
        biome_discards=dict(state.biome_discards),
        result_reason=state.result_reason,
        winners=state.winners,
        combat=combat_view(state.combat, seat),
        cubes=dict(state.cubes),
        conditions=state.conditions,
        condition_cubes={seat: dict(by) for seat, by in state.condition_cubes.items()},
        structuring=structuring_view(state, seat),
        teams=state.teams,
        bases_destroyed=state.bases_destroyed,
    )


def combat_view(combat: Combat | None, seat: str | None) -> Combat | None:
    """The combat is fought in the open (boards, groups, the biome card), but the hands it
    tracks are shown only to their owner."""
    if combat is None:
        return None
    own = {s: cards for s, cards in combat.hands.items() if s == seat}
    return msgspec.structs.replace(combat, hands=own)


# --- The log as a seat sees it ------------------------------------------------------------

Redactor = Callable[[dict[str, Any], str | None, str | None], dict[str, Any]]
"""``(value, viewer, actor) -> value``: a command or event (as JSON) cut down for ``viewer``;
``actor`` is the seat of the record holding it (``None`` in the ``start`` record)."""


def hide_from_others(*fields: str, owner: str = "seat") -> Redactor:
    """A redactor that drops ``fields`` unless the viewer is the seat named in ``owner``.

    For events that show a card to one seat only (a card drawn into a hand, say): the owner
    sees it, everyone else sees that it happened.
    """

    def redact(value: dict[str, Any], viewer: str | None, actor: str | None) -> dict[str, Any]:
        if viewer is not None and value.get(owner) == viewer:
            return value
        return _without(value, fields)

    return redact


def _redact_shuffle(value: dict[str, Any], viewer: str | None, actor: str | None) -> dict[str, Any]:
    # Nobody sees a deck's order before the seed is revealed, not even the deck's owner.
    # ``before`` goes too: a reshuffle's input can itself be a hidden order or, for a
    # private deck, reveal the owner's hand by what is missing from it.
    return {**_without(value, ("before", "after")), "size": len(value.get("after", ()))}


def _without(value: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    kept = {k: v for k, v in value.items() if k not in fields}
    return {**kept, "redacted": sorted(f for f in fields if f in value)}


REDACTIONS: dict[str, Redactor] = {
    "deck_shuffled.v1": _redact_shuffle,
    "tactic_card_drawn.v1": hide_from_others("card"),
    "map_tiles_drawn.v2": hide_from_others("tiles", "values"),  # N-MAP-4: drawn in secret
}
"""How each command or event holding hidden information is cut down, by ``type`` tag."""

PUBLIC: frozenset[str] = frozenset(
    {
        # set-up, turns, movement, resources
        "start_game.v1",
        "end_phase.v1",
        "phase_finished.v1",
        "base_conquered.v1",
        "base_retaken.v1",
        "move_units.v1",
        "first_player_drawn.v1",
        "starting_bonus.v1",
        "turn_started.v1",
        "phase_started.v1",
        "game_ended.v1",
        "units_moved.v1",
        "resources_gathered.v1",
        "recruit.v1",
        "research.v1",
        "recruited.v1",
        "researched.v1",
        "tech_resolved.v1",
        "bonus_resolved.v1",
        "cube_scored.v1",
        # advanced mode (N-SETUP-8, N-WIN-3): conditions are laid out face up; an opening
        # tactic card is discarded face up; the oath is sworn in the open
        "victory_conditions_drawn.v2",
        "opening_discards_awaited.v1",
        "discard_opening_tactic.v1",
        "opening_tactic_discarded.v1",
        "swear_oath.v1",
        "oath_sworn.v1",
        "base_destroyed.v1",
        "player_eliminated.v1",
        # structures stand in the open (N-STR-0..3)
        "build.v1",
        "structure_built.v1",
        "structure_destroyed.v1",
        "structures_produced.v1",
        "structure_recruited.v1",
        # combat: every decision and die roll is made in the open; a biome card is drawn
        # face up (N-COMBAT-7)
        "start_combat.v1",
        "deploy_group.v1",
        "choose_group.v1",
        "heal_group.v1",
        "attack.v1",
        "support.v1",
        "reroll.v1",
        "claim_armor.v1",
        "retreat.v1",
        "backstab.v1",
        "retreat_units.v1",
        "pay_injury.v1",
        "biome_card_drawn.v1",
        "combat_started.v1",
        "group_deployed.v1",
        "deployment_ended.v1",
        "combat_opened.v1",
        "group_activated.v1",
        "healed.v1",
        "attack_rolled.v1",
        "attack_resolved.v2",
        "armor_claimed.v1",
        "extra_attack_begun.v1",
        "supported.v1",
        "activation_ended.v1",
        "round_ended.v1",
        "retreat_chosen.v1",
        "backstab_declared.v1",
        "backstab_declined.v1",
        "backstab_ended.v1",
        "combat_decided.v1",
        "injury_resolved.v1",
        "retreat_move_started.v1",
        "units_retreated.v1",
        "combat_ended.v1",
        # biome-card effects and the Naga's flare: played in the open; a discarded tactic
        # card goes face up on the discard pile
        "redirect_biome.v1",
        "discard_tactic.v1",
        "raise_initiative.v1",
        "choose_effect_group.v1",
        "choose_player.v1",
        "spirits_embrace.v1",
        "move_after_win.v1",
        "finish_moves.v1",
        "biome_card_revealed.v1",
        "biome_target_fixed.v1",
        "effect_damage.v1",
        "bonus_granted.v1",
        "initiative_raised.v1",
        "ability_granted.v1",
        "withdrawal_declared.v1",
        "embrace_granted.v1",
        "move_after_win_granted.v1",
        "strategise_granted.v1",
        "damage_removed.v1",
        "ambush_joined.v1",
        "player_chosen.v1",
        "choice_resolved.v1",
        "strategise.v1",
        "strategise_done.v1",
        "strategise_offered.v1",
        "strategise_joined.v1",
        "play_tactic.v1",
        "pass_tactics.v1",
        "window_opened.v1",
        "tactic_played.v1",
        "deferred_resolved.v1",
        "stoneskin_hardened.v1",
        "tactic_discarded.v1",
        # tactic options outside combat (played cards and discards are shown face up)
        "tactic_option_played.v1",
        "movement_granted.v1",
        "resources_gained.v1",
        "unit_replaced.v1",
        "discount_granted.v1",
        "structure_unlocked.v1",
        "spirits_embraced.v1",
        "units_moved_after_win.v1",
        "round_closing.v1",
        "round_effects_resolved.v1",
        "aftermath.v1",
        # map structuring (N-MAP-4): every placement is made in the open
        "place_shared_tile.v1",
        "attach_map_tile.v1",
        "place_player_tile.v1",
        "place_modifier.v1",
        "shared_tile_placed.v1",
        "map_tile_attached.v1",
        "player_tile_placed.v1",
        "modifier_placed.v1",
        "map_structured.v1",
    }
)
"""Commands and events every seat may see whole, by tag. A type in neither this set nor
:data:`REDACTIONS` is shown as its tag alone, so a new type fails closed until it is
classified here (a test checks that every type of the decider is)."""


def _value_view(value: Any, viewer: str | None, actor: str | None) -> Any:
    if not isinstance(value, dict):
        return value
    tag = value.get("type")
    redactor = REDACTIONS.get(tag) if isinstance(tag, str) else None
    if redactor is not None:
        return redactor(value, viewer, actor)
    if tag in PUBLIC:
        return value
    return {"type": tag, "redacted": True}


def record_view(line: bytes, seat: str | None) -> dict[str, Any]:
    """One log line as ``seat`` may see it before the seed is revealed.

    ``prev`` is dropped (a hash over hidden content lets a seat test guesses about it) and
    every command and event goes through :data:`REDACTIONS` (or :data:`PUBLIC`, or is hidden).
    """
    record: dict[str, Any] = msgspec.json.decode(line)
    record.pop("prev", None)
    actor = record.get("seat")
    if "command" in record:
        record["command"] = _value_view(record["command"], seat, actor)
    if "events" in record:
        record["events"] = [_value_view(e, seat, actor) for e in record["events"]]
    return record


class LogView(msgspec.Struct, frozen=True, kw_only=True):
    """A log as a seat sees it.

    Until a ``reveal`` record exists: every record through :func:`record_view`, no head.
    Afterwards (the game is over, every secret is public): the records whole, ``prev``
    included, with the head and the exact JSON Lines text, so the log can be verified.
    """

    revealed: bool
    records: list[dict[str, Any]]
    head: str | None = None
    text: str | None = None


def log_view(lines: Sequence[bytes], seat: str | None) -> LogView:
    """``lines`` (a log's records, without newlines) as ``seat`` may see them."""
    if any(b'"kind":"reveal"' in line and _kind(line) == "reveal" for line in lines):
        return LogView(
            revealed=True,
            records=[msgspec.json.decode(line) for line in lines],
            head=line_hash(lines[-1]),
            text=b"".join(line + b"\n" for line in lines).decode(),
        )
    return LogView(revealed=False, records=[record_view(line, seat) for line in lines])


def _kind(line: bytes) -> Any:
    return msgspec.json.decode(line).get("kind")
