"""BattleLore's commands and events, each with its tag and its visibility declared.

Hexes are axial ``(q, r)`` points (:mod:`.board`). Every die is recorded in a
:class:`DiceRolled` event with its draws and faces (B-DIE-1); hands and draws are seen by their
owner only, deck orders by nobody (B-CMD-2).
"""

from __future__ import annotations

from typing import Literal

from nataterra_core.kernel import Command, DrawEvent, DrawsEvent, Event, ShuffleEvent
from nataterra_core.kernel.visibility import PUBLIC, hidden_order, hide_from_others

Point = tuple[int, int]

__all__ = ["COMMANDS", "EVENTS", "Command", "Event"]

# --- commands -------------------------------------------------------------------------------


class Start(Command, frozen=True, tag="bl_start.v1"):
    """The system's start command: shuffle the deck and deal the hands."""

    visibility = PUBLIC


class PlayCard(Command, frozen=True, tag="bl_play_card.v1"):
    """Step 1: play a command card from the hand (B-TURN-1, B-CMD-1)."""

    visibility = PUBLIC
    card: str


class OrderUnit(Command, frozen=True, tag="bl_order_unit.v1"):
    """Step 2: order one unit the card allows (B-CMD-1)."""

    visibility = PUBLIC
    unit: str


class FinishOrders(Command, frozen=True, tag="bl_finish_orders.v1"):
    """Step 2 ends; orders not given are lost (B-CMD-1)."""

    visibility = PUBLIC


class MoveUnit(Command, frozen=True, tag="bl_move_unit.v1"):
    """Step 3: move an ordered unit to a hex (its canonical path is in the event, B-UNIT-2)."""

    visibility = PUBLIC
    unit: str
    to: Point


class FinishMoves(Command, frozen=True, tag="bl_finish_moves.v1"):
    """Step 3 ends; no ordered unit must move (B-UNIT-2)."""

    visibility = PUBLIC


class BattleUnit(Command, frozen=True, tag="bl_battle.v1"):
    """Step 4: an ordered unit battles an enemy unit (B-BAT-1)."""

    visibility = PUBLIC
    unit: str
    target: str


class FinishBattles(Command, frozen=True, tag="bl_finish_battles.v1"):
    """Step 4 ends; step 5 draws (B-TURN-1)."""

    visibility = PUBLIC


class IgnoreFlag(Command, frozen=True, tag="bl_ignore_flag.v1"):
    """A bold defender ignores one flag (B-RET-2)."""

    visibility = PUBLIC


class AcceptFlags(Command, frozen=True, tag="bl_accept_flags.v1"):
    """A bold defender ignores no (more) flags and retreats (B-RET-2)."""

    visibility = PUBLIC


class Retreat(Command, frozen=True, tag="bl_retreat.v1"):
    """The retreating unit's owner picks its next hex (B-RET-1)."""

    visibility = PUBLIC
    to: Point


class TakeGround(Command, frozen=True, tag="bl_take_ground.v1"):
    """The attacker moves into the hex its melee target vacated (B-MOM-1)."""

    visibility = PUBLIC


class Pursue(Command, frozen=True, tag="bl_pursue.v1"):
    """A mounted unit that took ground moves one more hex (B-MOM-1)."""

    visibility = PUBLIC
    to: Point


class BonusBattle(Command, frozen=True, tag="bl_bonus_battle.v1"):
    """A mounted unit that took ground battles an adjacent enemy once more (B-MOM-1)."""

    visibility = PUBLIC
    target: str


class BattleBack(Command, frozen=True, tag="bl_battle_back.v1"):
    """A bold defender that held its hex battles its attacker back (B-MOM-2)."""

    visibility = PUBLIC


class Decline(Command, frozen=True, tag="bl_decline.v1"):
    """Pass on the choice offered (take ground, pursuit, bonus battle, battle back, lore)."""

    visibility = PUBLIC


class KeepCard(Command, frozen=True, tag="bl_keep_card.v1"):
    """A Scout's draw: keep one of the cards drawn (B-CMD-2); the others are discarded."""

    visibility = hide_from_others("card")
    seat: str
    card: str


class PlayLore(Command, frozen=True, tag="bl_play_lore.v1"):
    """Play a lore card in its window (B-ADV-3, B-ADV-5), with its target if it has one."""

    visibility = PUBLIC
    card: str
    unit: str = ""
    to: Point | None = None


class SkipCard(Command, frozen=True, tag="bl_skip_card.v1"):
    """Play no command card this turn: a lore card was played instead (B-ADV-4)."""

    visibility = PUBLIC


class KeepLore(Command, frozen=True, tag="bl_keep_lore.v1"):
    """At the start of a lore game: keep one of the lore cards offered (B-ADV-3)."""

    visibility = hide_from_others("card")
    seat: str
    card: str


# --- events ---------------------------------------------------------------------------------


class DeckShuffled(ShuffleEvent, frozen=True, tag="bl_deck_shuffled.v1"):
    """The command deck (or a lore deck) is shuffled: nobody sees the order (B-CMD-2)."""

    visibility = hidden_order("before", "after", size_of="after")
    deck: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    counter_before: int
    counter_after: int


class CardsDrawn(Event, frozen=True, tag="bl_cards_drawn.v1"):
    """``seat`` draws cards from the top of a deck: only it sees which (B-CMD-2)."""

    reveals_information = True
    visibility = hide_from_others("cards")
    seat: str
    deck: str
    cards: tuple[str, ...]
    pending: bool = False
    """Drawn to choose from (a Scout's draw, a lore offer), not into the hand."""


class CardPlayed(Event, frozen=True, tag="bl_card_played.v1"):
    """A command card is played face up (step 1); ``acts_as`` for a copying card."""

    visibility = PUBLIC
    seat: str
    card: str
    acts_as: str


class CardsDiscarded(Event, frozen=True, tag="bl_cards_discarded.v1"):
    """Cards leave a hand (or a draw to choose from) for the discard pile, face up."""

    visibility = PUBLIC
    seat: str
    deck: str
    cards: tuple[str, ...]
    source: Literal["hand", "draw"] = "hand"


class CardKept(Event, frozen=True, tag="bl_card_kept.v1"):
    """A card of a draw is kept in the hand (its owner alone sees which)."""

    visibility = hide_from_others("card")
    seat: str
    deck: str
    card: str


class UnitOrdered(Event, frozen=True, tag="bl_unit_ordered.v1"):
    """A unit takes its order for this turn (B-CMD-1)."""

    visibility = PUBLIC
    unit: str


class StepEnded(Event, frozen=True, tag="bl_step_ended.v1"):
    """A step of the turn ends (B-TURN-1); ``lost`` orders were not given (B-CMD-1)."""

    visibility = PUBLIC
    step: Literal["order", "move", "battle"]
    lost: int = 0


class UnitMoved(Event, frozen=True, tag="bl_unit_moved.v1"):
    """A unit moves along ``path`` (hexes entered, in order); ``why`` says how."""

    visibility = PUBLIC
    unit: str
    path: tuple[Point, ...]
    why: Literal["move", "retreat", "take_ground", "pursuit", "teleport"] = "move"
    may_battle: bool = True
    """False when the move rules out battling this turn (too far, a building: B-UNIT-2, B-TER-1)."""


class BattleDeclared(Event, frozen=True, tag="bl_battle_declared.v1"):
    """A battle: ``dice`` after caps, penalty and bonuses (B-BAT-1, B-TER-1)."""

    visibility = PUBLIC
    unit: str
    target: str
    dice: int
    melee: bool
    kind: Literal["battle", "bonus", "battle_back", "lore"] = "battle"


class DiceRolled(DrawsEvent, frozen=True, tag="bl_dice_rolled.v1"):
    """Battle dice drawn from the kernel stream (m = 6) with their faces (B-DIE-1)."""

    visibility = PUBLIC
    ms: tuple[int, ...]
    values: tuple[int, ...]
    counter_before: int
    counter_after: int
    faces: tuple[str, ...]
    purpose: Literal["battle", "bonus_strike", "critical", "retreat", "blocked", "lore"] = "battle"
    unit: str = ""


class FiguresLost(Event, frozen=True, tag="bl_figures_lost.v1"):
    """A unit loses figures (B-UNIT-1): to hits, a blocked retreat hex or its own roll."""

    visibility = PUBLIC
    unit: str
    count: int
    cause: Literal["hits", "blocked", "retreat_roll", "critical", "lore"] = "hits"


class FiguresRegained(Event, frozen=True, tag="bl_figures_regained.v1"):
    """A unit regains figures, never above its start (Rally, Healing Prayer)."""

    visibility = PUBLIC
    unit: str
    count: int


class UnitDestroyed(Event, frozen=True, tag="bl_unit_destroyed.v1"):
    """A unit's last figure is removed; the other side gains a medal (B-DIE-4)."""

    visibility = PUBLIC
    unit: str
    medal_to: str


class FlagIgnored(Event, frozen=True, tag="bl_flag_ignored.v1"):
    """A flag is ignored: by a bold unit's choice or a creature's nature (B-RET-2, B-ADV-2)."""

    visibility = PUBLIC
    unit: str
    forced: bool = False


class FlagsRolled(Event, frozen=True, tag="bl_flags_rolled.v1"):
    """The flags a battle's roll left to resolve, and how many the defender may ignore."""

    visibility = PUBLIC
    unit: str
    flags: int
    ignorable: int


class RetreatBegun(Event, frozen=True, tag="bl_retreat_begun.v1"):
    """A unit must retreat ``hexes`` hexes for its flags (B-RET-1)."""

    visibility = PUBLIC
    unit: str
    hexes: int


class CombatStage(Event, frozen=True, tag="bl_combat_stage.v1"):
    """The battle in progress reaches a stage where someone may choose."""

    visibility = PUBLIC
    stage: Literal["flags", "retreat", "take_ground", "pursuit", "bonus", "battle_back", "lore"]


class CombatEnded(Event, frozen=True, tag="bl_combat_ended.v1"):
    """The battle in progress is over."""

    visibility = PUBLIC


class OrderCancelled(Event, frozen=True, tag="bl_order_cancelled.v1"):
    """A unit will lose its next order (the Spider's hit, B-ADV-2)."""

    visibility = PUBLIC
    unit: str


class MedalsChanged(Event, frozen=True, tag="bl_medals_changed.v1"):
    """An objective hex is taken or lost (B-WIN-1)."""

    visibility = PUBLIC
    side: str
    objectives: int
    """Objective medals the side now holds."""
    reason: str


class LoreTokens(Event, frozen=True, tag="bl_lore_tokens.v1"):
    """A side's lore tokens change (B-ADV-3, B-ADV-4), capped."""

    visibility = PUBLIC
    side: str
    tokens: int
    reason: str


class LorePlayed(Event, frozen=True, tag="bl_lore_played.v1"):
    """A lore card is played and paid for (B-ADV-3)."""

    visibility = PUBLIC
    seat: str
    card: str
    unit: str = ""
    to: Point | None = None


class CardSkipped(Event, frozen=True, tag="bl_card_skipped.v1"):
    """No command card this turn: no units are ordered (B-ADV-4)."""

    visibility = PUBLIC
    seat: str


class RollRead(Event, frozen=True, tag="bl_roll_read.v1"):
    """What a battle roll does to its target before any reaction: hits and flags."""

    visibility = PUBLIC
    unit: str
    hits: int
    flags: int


class CouncilSeated(Event, frozen=True, tag="bl_council_seated.v1"):
    """A side's war council: its highest level, lore cards kept and hand limit (B-ADV-4)."""

    visibility = PUBLIC
    side: str
    level: int
    keep: int
    hand_limit: int


class RandomDiscard(DrawEvent, frozen=True, tag="bl_random_discard.v1"):
    """A command card discarded at random from ``seat``'s hand (Sabotage), face up."""

    visibility = PUBLIC
    m: int
    value: int
    counter_before: int
    counter_after: int
    seat: str
    card: str


class ExtraOrders(Event, frozen=True, tag="bl_extra_orders.v1"):
    """More units may be ordered this turn, in any section (Rally the Troops)."""

    visibility = PUBLIC
    count: int


class Ambush(Event, frozen=True, tag="bl_ambush.v1"):
    """The defender may battle back even if it is not bold (Ambush, B-ADV-5c)."""

    visibility = PUBLIC
    unit: str


class LoreWindowClosed(Event, frozen=True, tag="bl_lore_window_closed.v1"):
    """A lore window passes without (more) lore (B-ADV-5a)."""

    visibility = PUBLIC
    window: str


class TurnEnded(Event, frozen=True, tag="bl_turn_ended.v1"):
    """The turn passes to ``next_seat`` (B-TURN-1)."""

    visibility = PUBLIC
    next_seat: str
    turn: int


class GameEnded(Event, frozen=True, tag="bl_game_ended.v1"):
    """The battle ends: ``winner`` (or a draw at the turn limit, B-TURN-2) (B-WIN-1)."""

    visibility = PUBLIC
    winner: str | None
    reason: str


COMMANDS: tuple[type[Command], ...] = (
    Start,
    PlayCard,
    OrderUnit,
    FinishOrders,
    MoveUnit,
    FinishMoves,
    BattleUnit,
    FinishBattles,
    IgnoreFlag,
    AcceptFlags,
    Retreat,
    TakeGround,
    Pursue,
    BonusBattle,
    BattleBack,
    Decline,
    KeepCard,
    PlayLore,
    SkipCard,
    KeepLore,
)
EVENTS: tuple[type[Event], ...] = (
    DeckShuffled,
    CardsDrawn,
    CardPlayed,
    CardsDiscarded,
    CardKept,
    UnitOrdered,
    StepEnded,
    UnitMoved,
    BattleDeclared,
    DiceRolled,
    FiguresLost,
    FiguresRegained,
    UnitDestroyed,
    FlagIgnored,
    FlagsRolled,
    RetreatBegun,
    CombatStage,
    CombatEnded,
    OrderCancelled,
    MedalsChanged,
    LoreTokens,
    LorePlayed,
    CardSkipped,
    RollRead,
    CouncilSeated,
    RandomDiscard,
    ExtraOrders,
    Ambush,
    LoreWindowClosed,
    TurnEnded,
    GameEnded,
)
