"""Kaladan's commands and events, each with the visibility it declares (K-HID-1).

Every player decision is a command (K-TURN-1, §8); every change of the state is an event,
folded by :mod:`.rules.fold`. Magic hands, drawn magic cards, scouted event cards and deck
orders are hidden from the other seats; everything else (gold, reserves, graveyards, the
board, played cards) is public.
"""

from __future__ import annotations

from typing import ClassVar

from nataterra_core.kernel import Command, Event
from nataterra_core.kernel.chance import DrawEvent, DrawsEvent, ShuffleEvent
from nataterra_core.kernel.visibility import PUBLIC, Visibility, hidden_order, hide_from_others

from .state import Choice, Phase

__all__ = ["COMMANDS", "EVENTS"]

# --- commands -------------------------------------------------------------------------------


class StartGame(Command, frozen=True, tag="start.v1"):
    """The system starts the game: decks shuffled, first player drawn, magic dealt (K-SET-3)."""

    visibility = PUBLIC


class DrawEventCard(Command, frozen=True, tag="draw_event.v1"):
    """Draw the top event card and resolve it (K-EV-1)."""

    visibility = PUBLIC


class EndPhase(Command, frozen=True, tag="end_phase.v1"):
    """End an optional phase (K-TURN-1): income (after its magic window), action, buy,
    reinforcement (ending it ends the turn)."""

    visibility = PUBLIC
    phase: Phase


class Recruit(Command, frozen=True, tag="recruit.v1"):
    """Free recruitment (K-REC-1): one base unit from the reserve onto ``castle``."""

    visibility = PUBLIC
    castle: str
    unit: str


class DeclineRecruit(Command, frozen=True, tag="decline_recruit.v1"):
    """Decline the free recruitment of ``castle`` (K-REC-1)."""

    visibility = PUBLIC
    castle: str


class Move(Command, frozen=True, tag="move.v1"):
    """Move ``units`` from ``source`` to the adjacent ``target`` (K-ACT-1, K-REI-1);
    ``haste``: the extra move of a Haste card (K-CARD-2)."""

    visibility = PUBLIC
    source: str
    target: str
    units: tuple[str, ...]
    haste: bool = False


class Swap(Command, frozen=True, tag="swap.v1"):
    """Exchange ``give`` (on ``first``) with ``take`` (on ``second``) (K-ACT-2, K-REI-1)."""

    visibility = PUBLIC
    first: str
    second: str
    give: tuple[str, ...]
    take: tuple[str, ...]


class Fight(Command, frozen=True, tag="fight.v1"):
    """Attack the enemy tile ``target`` from ``source`` with ``units`` (K-ACT-3, K-FIG-2)."""

    visibility = PUBLIC
    source: str
    target: str
    units: tuple[str, ...]


class Place(Command, frozen=True, tag="place.v1"):
    """Buy ``unit`` from the reserve onto ``tile`` (K-BUY-2, K-BUY-3)."""

    visibility = PUBLIC
    tile: str
    unit: str


class Upgrade(Command, frozen=True, tag="upgrade.v1"):
    """Buy the upgrade of ``unit`` on ``tile`` (K-BUY-1, K-BUY-2)."""

    visibility = PUBLIC
    tile: str
    unit: str


class UpgradeCastle(Command, frozen=True, tag="upgrade_castle.v1"):
    """Upgrade the castle on ``tile`` for 4 gold (K-BUY-1)."""

    visibility = PUBLIC
    tile: str


class ExchangeMagic(Command, frozen=True, tag="exchange_magic.v1"):
    """Discard a ``card`` (kind) face up and draw one, for 2 gold (K-BUY-1)."""

    visibility = PUBLIC
    card: str


class BuyMagic(Command, frozen=True, tag="buy_magic.v1"):
    """Draw an extra magic card for 4 gold (K-BUY-1)."""

    visibility = PUBLIC


class BuyCaptured(Command, frozen=True, tag="buy_captured.v1"):
    """Buy the captured magic card at ``index`` (sorted) for 4 gold (K-CAS-6)."""

    visibility = PUBLIC
    index: int


class PlayMagic(Command, frozen=True, tag="play_magic.v1"):
    """Play a magic card of kind ``card`` (K-CARD-2); ``tile``/``unit``/``source`` name its
    target (Assassin: tile and unit; Sabotage: tile; Raise the Fallen: source and unit)."""

    visibility = PUBLIC
    card: str
    tile: str = ""
    unit: str = ""
    source: str = ""


class Revive(Command, frozen=True, tag="revive.v1"):
    """Revive your ``unit`` from ``source``'s graveyard into your reserve (K-EV-3)."""

    visibility = PUBLIC
    source: str
    unit: str


class FreeUpgrade(Command, frozen=True, tag="free_upgrade.v1"):
    """Take an event's free upgrade on ``unit`` at ``tile`` (K-EV-4)."""

    visibility = PUBLIC
    tile: str
    unit: str


class LoseUnit(Command, frozen=True, tag="lose_unit.v1"):
    """The unit an event takes from you: ``unit`` on ``tile`` (K-EV-6)."""

    visibility = PUBLIC
    tile: str
    unit: str


class ScoutOrder(Command, frozen=True, tag="scout_order.v1"):
    """Put the scouted event cards back, in their order or ``swap``ped (K-CARD-2)."""

    visibility = PUBLIC
    swap: bool


class Pass(Command, frozen=True, tag="pass.v1"):
    """Play no magic card in this combat window (K-CARD-2)."""

    visibility = PUBLIC


class TakeLoss(Command, frozen=True, tag="take_loss.v1"):
    """The unit your side loses this round (K-FIG-3)."""

    visibility = PUBLIC
    unit: str


class ContinueFight(Command, frozen=True, tag="continue_fight.v1"):
    """Fight another round (K-FIG-4)."""

    visibility = PUBLIC


class Withdraw(Command, frozen=True, tag="withdraw.v1"):
    """End the fight; the committed units stay on the attacking tile (K-FIG-4)."""

    visibility = PUBLIC


class MoveIn(Command, frozen=True, tag="move_in.v1"):
    """Move ``units`` of the survivors into the conquered tile (K-FIG-5)."""

    visibility = PUBLIC
    units: tuple[str, ...]


# --- events ---------------------------------------------------------------------------------


class DeckShuffled(ShuffleEvent, frozen=True, tag="deck_shuffled.v1"):
    """The ``deck`` (``events`` or ``magic``) was shuffled (K-SET-3, K-HID-1)."""

    visibility = hidden_order("before", "after", size_of="after")
    deck: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    counter_before: int
    counter_after: int


class FirstPlayerDrawn(DrawEvent, frozen=True, tag="first_player_drawn.v1"):
    """The first player, drawn from the dice stream (K-SET-3)."""

    visibility = PUBLIC
    m: int
    value: int
    counter_before: int
    counter_after: int
    seat: str


class MagicDrawn(Event, frozen=True, tag="magic_drawn.v1"):
    """``seat`` draws ``cards`` from the top of the magic deck (only it sees which)."""

    reveals_information: ClassVar[bool] = True
    visibility: ClassVar[Visibility | None] = hide_from_others("cards")
    seat: str
    cards: tuple[str, ...]


class TurnStarted(Event, frozen=True, tag="turn_started.v1"):
    """``seat``'s turn ``turn`` begins; ``final`` in the last round (K-END-1)."""

    visibility = PUBLIC
    seat: str
    turn: int
    final: bool = False


class PhaseStarted(Event, frozen=True, tag="phase_started.v1"):
    """The active player's next phase begins (K-TURN-1)."""

    visibility = PUBLIC
    phase: Phase


class GoldChanged(Event, frozen=True, tag="gold_changed.v1"):
    """``seat``'s gold changes by ``amount`` under ``rule`` (never below 0)."""

    visibility = PUBLIC
    seat: str
    amount: int
    rule: str


class EventCardDrawn(Event, frozen=True, tag="event_card_drawn.v1"):
    """``seat`` draws the event card ``card`` (K-EV-1); ``last``: the deck is used up."""

    reveals_information: ClassVar[bool] = True
    visibility = PUBLIC
    seat: str
    card: str
    last: bool = False


class ChoiceAwaited(Event, frozen=True, tag="choice_awaited.v1"):
    """A card's effect awaits ``choice.seat``'s decision (K-EV-3, K-EV-4, K-EV-6)."""

    visibility = PUBLIC
    choice: Choice


class ChoiceMade(Event, frozen=True, tag="choice_made.v1"):
    """The first awaited choice is settled."""

    visibility = PUBLIC
    seat: str


class Recruited(Event, frozen=True, tag="recruited.v1"):
    """``seat`` brings ``unit`` onto ``castle`` for free (K-REC-1), or declines (unit "")."""

    visibility = PUBLIC
    seat: str
    castle: str
    unit: str = ""


class UnitsMoved(Event, frozen=True, tag="units_moved.v1"):
    """``units`` of ``seat`` go from ``source`` to ``target``."""

    visibility = PUBLIC
    seat: str
    source: str
    target: str
    units: tuple[str, ...]
    rule: str


class UnitsSwapped(Event, frozen=True, tag="units_swapped.v1"):
    """``give`` on ``first`` and ``take`` on ``second`` change places (K-ACT-2, K-REI-1)."""

    visibility = PUBLIC
    seat: str
    first: str
    second: str
    give: tuple[str, ...]
    take: tuple[str, ...]


class UnitPlaced(Event, frozen=True, tag="unit_placed.v1"):
    """``seat`` places ``unit`` from its reserve on ``tile`` for ``cost`` gold."""

    visibility = PUBLIC
    seat: str
    tile: str
    unit: str
    cost: int
    rule: str


class UnitUpgraded(Event, frozen=True, tag="unit_upgraded.v1"):
    """``unit`` on ``tile`` is flipped to its upgraded side for ``cost`` gold (K-EV-4)."""

    visibility = PUBLIC
    seat: str
    tile: str
    unit: str
    cost: int


class CastleUpgraded(Event, frozen=True, tag="castle_upgraded.v1"):
    """The castle on ``tile`` is upgraded (``cost`` > 0) or loses its upgrade (Sabotage)."""

    visibility = PUBLIC
    seat: str
    tile: str
    cost: int
    removed: bool = False


class UnitRemoved(Event, frozen=True, tag="unit_removed.v1"):
    """``owner``'s ``unit`` leaves ``tile``: into ``scalp_of``'s graveyard when defeated in
    a fight or by an assassin (K-FIG-5), else back to its owner's reserve (K-EV-6, K-CAS-4);
    either way without its upgrade."""

    visibility = PUBLIC
    owner: str
    tile: str
    unit: str
    scalp_of: str = ""


class UnitRevived(Event, frozen=True, tag="unit_revived.v1"):
    """``seat`` takes its ``unit`` from ``source``'s graveyard into its reserve (K-EV-3)."""

    visibility = PUBLIC
    seat: str
    source: str
    unit: str


class MagicPlayed(Event, frozen=True, tag="magic_played.v1"):
    """``seat`` plays the magic card ``card`` face up (K-CARD-2); it is discarded."""

    visibility = PUBLIC
    seat: str
    card: str


class MagicDiscarded(Event, frozen=True, tag="magic_discarded.v1"):
    """``seat`` pays ``cost`` and discards ``card`` face up to exchange it (K-BUY-1)."""

    visibility = PUBLIC
    seat: str
    card: str
    cost: int


class MagicBought(Event, frozen=True, tag="magic_bought.v1"):
    """``seat`` pays ``cost`` for an extra magic card (K-BUY-1)."""

    visibility = PUBLIC
    seat: str
    cost: int


class CapturedBought(Event, frozen=True, tag="captured_bought.v1"):
    """``seat`` pays ``cost`` for a captured magic card, now in its hand (K-CAS-6)."""

    visibility: ClassVar[Visibility | None] = hide_from_others("card")
    seat: str
    card: str
    cost: int


class Scouted(Event, frozen=True, tag="scouted.v1"):
    """``seat`` looks at the top event ``cards`` (K-CARD-2 Scout; only it sees them)."""

    reveals_information: ClassVar[bool] = True
    visibility: ClassVar[Visibility | None] = hide_from_others("cards")
    seat: str
    cards: tuple[str, ...]


class ScoutOrdered(Event, frozen=True, tag="scout_ordered.v1"):
    """The scouted ``cards`` go back on top in this order (only the scout sees it)."""

    visibility: ClassVar[Visibility | None] = hide_from_others("cards")
    seat: str
    cards: tuple[str, ...]


class MovesGranted(Event, frozen=True, tag="moves_granted.v1"):
    """``seat`` may make ``amount`` extra moves this phase (Haste, K-CARD-2)."""

    visibility = PUBLIC
    seat: str
    amount: int


class AssassinRolled(DrawsEvent, frozen=True, tag="assassin_rolled.v1"):
    """An assassin's die against the target's defence die: ``ms`` = (assassin, defence),
    faces ``values[i] + 1``; strictly higher kills (K-CARD-2)."""

    visibility = PUBLIC
    ms: tuple[int, ...]
    values: tuple[int, ...]
    counter_before: int
    counter_after: int
    seat: str
    tile: str
    unit: str


class CombatStarted(Event, frozen=True, tag="combat_started.v1"):
    """``attacker`` attacks ``target`` (``defender``'s) from ``source`` with ``units``."""

    visibility = PUBLIC
    attacker: str
    defender: str
    source: str
    target: str
    units: tuple[str, ...]


class CombatDieAdded(Event, frozen=True, tag="combat_die_added.v1"):
    """A magic card adds a d``die`` to the ``side`` pool of this fight (K-CARD-2)."""

    visibility = PUBLIC
    side: str
    die: int


class CombatStep(Event, frozen=True, tag="combat_step.v1"):
    """The fight moves on to its next ``stage``; ``loser`` chooses a loss at stage loss."""

    visibility = PUBLIC
    stage: str
    loser: str = ""


class CombatRolled(DrawsEvent, frozen=True, tag="combat_rolled.v1"):
    """One round's dice (K-FIG-2, K-FIG-3, K-FIG-6): ``ms``/``values`` are every draw in
    order (attack pool, defence pool, then re-rolls); ``attack``/``defence`` the faces
    counted, ``dropped`` a face the mountain dropped (0: none), ``loser`` the side that
    loses a unit (a tie goes to the defender's favour)."""

    visibility = PUBLIC
    ms: tuple[int, ...]
    values: tuple[int, ...]
    counter_before: int
    counter_after: int
    round: int
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    dropped: int
    loser: str


class CombatEnded(Event, frozen=True, tag="combat_ended.v1"):
    """The fight is over: ``winner`` holds or takes the tile (K-ACT-3), ``how``."""

    visibility = PUBLIC
    winner: str
    how: str


class PlayerEliminated(Event, frozen=True, tag="player_eliminated.v1"):
    """``seat``'s crown fell to ``by`` (K-CAS-4..6): its army goes to its reserve, its
    special unit to ``by``'s reserve, its magic cards face down to ``by``."""

    visibility = PUBLIC
    seat: str
    by: str
    special: str = ""


class FinalRound(Event, frozen=True, tag="final_round.v1"):
    """The event deck is used up: ``order`` plays one last turn each (K-END-1)."""

    visibility = PUBLIC
    order: tuple[str, ...]


class TieRolled(DrawsEvent, frozen=True, tag="tie_rolled.v1"):
    """``seat``'s final tie-break roll, d6 + d8 + d10 + d12 (K-END-3)."""

    visibility = PUBLIC
    ms: tuple[int, ...]
    values: tuple[int, ...]
    counter_before: int
    counter_after: int
    seat: str
    total: int


class GameEnded(Event, frozen=True, tag="game_ended.v1"):
    """The game is over (K-END-1..4): ``winners``, every seat's ``scores``, ``reason``."""

    visibility = PUBLIC
    winners: tuple[str, ...]
    scores: dict[str, int]
    reason: str


COMMANDS: tuple[type[Command], ...] = (
    StartGame, DrawEventCard, EndPhase, Recruit, DeclineRecruit, Move, Swap, Fight, Place,
    Upgrade, UpgradeCastle, ExchangeMagic, BuyMagic, BuyCaptured, PlayMagic, Revive,
    FreeUpgrade, LoseUnit, ScoutOrder, Pass, TakeLoss, ContinueFight, Withdraw, MoveIn,
)  # fmt: skip
EVENTS: tuple[type[Event], ...] = (
    DeckShuffled, FirstPlayerDrawn, MagicDrawn, TurnStarted, PhaseStarted, GoldChanged,
    EventCardDrawn, ChoiceAwaited, ChoiceMade, Recruited, UnitsMoved, UnitsSwapped,
    UnitPlaced, UnitUpgraded, CastleUpgraded, UnitRemoved, UnitRevived, MagicPlayed,
    MagicDiscarded, MagicBought, CapturedBought, Scouted, ScoutOrdered, MovesGranted,
    AssassinRolled, CombatStarted, CombatDieAdded, CombatStep, CombatRolled, CombatEnded,
    PlayerEliminated, FinalRound, TieRolled, GameEnded,
)  # fmt: skip
