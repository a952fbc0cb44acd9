"""Sentences of the game around combat: set-up, map structuring, turns and phases, movement,
resources, tactic cards played in a phase, victory and bases.

    >>> from nataterra_core.games.nataterra.rules.movement import UnitsMoved
    >>> describe_event(UnitsMoved(seat="velathi", unit="hunter", origin="t1.z1", count=2,
    ...                           path=("t1.z2", "t1.z3")))
    'velathi moves 2 Hunters from t1.z1 to t1.z3 via t1.z2'

Descriptions never show a deck's order or another seat's drawn card: a log read before the
seed is revealed must not spoil it on screen.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Outcome
from nataterra_core.kernel.seen import Cut
from nataterra_core.kernel.wording import article, counted, outcome_text

from ..messages.combat import PassTactics, PlayTactic, StandingPass, StandingPassGiven
from ..messages.development import ResourcesGathered
from ..messages.movement import MoveUnits, UnitsMoved
from ..messages.setup import (
    DeckShuffled,
    DiscardOpeningTactic,
    FirstPlayerDrawn,
    OpeningDiscardsAwaited,
    OpeningTacticDiscarded,
    StartGame,
    StartingBonus,
)
from ..messages.structuring import (
    AttachMapTile,
    MapStructured,
    MapTileAttached,
    MapTilesDrawn,
    ModifierPlaced,
    PlaceModifier,
    PlacePlayerTile,
    PlaceSharedTile,
    PlayerTilePlaced,
    SharedTilePlaced,
)
from ..messages.tactics import (
    DiscountGranted,
    MovementGranted,
    ResourcesGained,
    StructureUnlocked,
    TacticCardDrawn,
    TacticOptionPlayed,
    UnitReplaced,
)
from ..messages.turns import (
    EndPhase,
    GameEnded,
    PhaseFinished,
    PhaseStarted,
    PlayerEliminated,
    TurnStarted,
)
from ..messages.victory import (
    BaseConquered,
    BaseDestroyed,
    BaseRetaken,
    CubeScored,
    OathSworn,
    SwearOath,
    VictoryConditionsDrawn,
)
from ..rules.stock import Resources
from .base import (
    cut_words,
    describe_command,
    describe_event,
    group_name,
    pack,
    resources_text,
    structure_title,
    subject,
    tactic_title,
    unit_title,
    units_text,
)

__all__ = ["condition_title", "describe_outcome", "tactic_option_text"]


describe_outcome = outcome_text
"""``won by velathi (target_reached)``, ``drawn (turn_limit)``, ``no winner (abandoned)``
(the kernel's words)."""


def condition_title(condition: str) -> str:
    """A victory condition's title (``Battlefield Dominance``)."""
    found = pack().victory_conditions.get(condition)
    return found.title if found is not None else condition


def tactic_option_text(card: str, option: int) -> str:
    """``Fearless, option 1 (movement): choose a swamp zone: ...; costs 1 metal``."""
    found = pack().tactics.get(card)
    head = f"{tactic_title(card)}, option {option + 1}"
    if found is None or not 0 <= option < len(found.options):
        return head
    chosen = found.options[option]
    paid = [resources_text(chosen.cost)] if resources_text(chosen.cost) != "nothing" else []
    paid += [f"{chosen.flare} flare"] if chosen.flare else []
    paid += [counted(chosen.discards, "other tactic card")] if chosen.discards else []
    window = chosen.window.replace("_", " ")
    text = f"{head} ({window})" + (f": {chosen.text}" if chosen.text else "")
    return text + (f"; costs {' and '.join(paid)}" if paid else "")


def _route(origin: str, path: tuple[str, ...]) -> str:
    via = f" via {', '.join(path[:-1])}" if len(path) > 1 else ""
    return f"from {origin} to {path[-1] if path else origin}{via}"


# -- commands ---------------------------------------------------------------------------------


@describe_command.register
def _(command: MoveUnits, seat: str | None = None, view: Any = None) -> str:
    return (
        f"{subject(seat, 'moves', 'move')} {units_text(command.count, command.unit)} "
        f"{_route(command.origin, command.path)}"
    )


@describe_command.register
def _(command: EndPhase, seat: str | None = None, view: Any = None) -> str:
    return f"{subject(seat, 'ends', 'end')} the {command.phase} phase"


@describe_command.register
def _(command: StartGame, seat: str | None = None, view: Any = None) -> str:
    return "the game is set up"


@describe_command.register
def _(command: PlayTactic, seat: str | None = None, view: Any = None) -> str:
    chosen = {
        "at": group_name(view, command.target) if command.target is not None else None,
        "player": command.player,
        "zone": command.zone,
        "structure": structure_title(command.structure) if command.structure else None,
        "discarding": tactic_title(command.discard) if command.discard else None,
    }
    extra = ", ".join(f"{k} {v}" for k, v in chosen.items() if v is not None)
    return (
        f"{subject(seat, 'plays', 'play')} {tactic_option_text(command.card, command.option)}"
        + (f" [{extra}]" if extra else "")
    )


@describe_command.register
def _(command: PassTactics, seat: str | None = None, view: Any = None) -> str:
    return f"{seat or 'the player'} passes in this tactic window"


@describe_command.register
def _(command: StandingPass, seat: str | None = None, view: Any = None) -> str:
    return f"{seat or 'the player'} passes in every tactic window left in this combat"


# Map structuring (N-MAP-4): the command and its event read alike.


@describe_command.register
def _(command: PlaceSharedTile, seat: str | None = None, view: Any = None) -> str:
    return f"{subject(seat, 'places', 'place')} shared tile 0 side {command.side} up in the middle"


@describe_command.register
def _(command: AttachMapTile, seat: str | None = None, view: Any = None) -> str:
    placed = _placed(command.at, command.rotation)
    return f"{subject(seat, 'attaches', 'attach')} map tile {command.tile} {placed}"


@describe_command.register
def _(command: PlacePlayerTile, seat: str | None = None, view: Any = None) -> str:
    placed = _placed(command.at, command.rotation)
    return f"{subject(seat, 'places', 'place')} the player tile {placed}"


@describe_command.register
def _(command: PlaceModifier, seat: str | None = None, view: Any = None) -> str:
    spot = _modifier_spot(command.zone, command.at)
    return f"{subject(seat, 'places', 'place')} {article(command.side)} modifier {spot}"


def _placed(at: tuple[int, int], rotation: int) -> str:
    turned = "not turned" if rotation % 6 == 0 else f"turned {rotation % 6 * 60}°"
    return f"at hex ({at[0]}, {at[1]}), {turned}"


def _modifier_spot(zone: str | None, at: tuple[int, int] | None) -> str:
    if zone is not None or at is None:
        return f"on {zone}"
    return f"beyond the edge at hex ({at[0]}, {at[1]})"


@describe_command.register
def _(command: DiscardOpeningTactic, seat: str | None = None, view: Any = None) -> str:
    card = tactic_title(command.card)
    return f"{subject(seat, 'discards', 'discard')} the opening tactic card {card}"


@describe_command.register
def _(command: SwearOath, seat: str | None = None, view: Any = None) -> str:
    paid = resources_text(Resources(wood=command.wood, metal=command.metal))
    return f"{subject(seat, 'swears', 'swear')} the Oath of Asha, paying {paid}"


# -- events -----------------------------------------------------------------------------------


@describe_event.register
def _(event: MapTilesDrawn, view: Any = None) -> str:
    return f"{event.seat} draws {len(event.tiles)} map tiles in secret"


@cut_words(MapTilesDrawn)
def _map_tiles_drawn_cut(event: Cut[MapTilesDrawn], view: Any = None) -> str:
    return f"{event.seat} draws {len(event.ms)} map tiles in secret"  # one draw per tile


@describe_event.register
def _(event: SharedTilePlaced, view: Any = None) -> str:
    return f"{event.seat} places shared tile {event.tile} in the middle"


@describe_event.register
def _(event: MapTileAttached, view: Any = None) -> str:
    return f"{event.seat} attaches map tile {event.tile} {_placed(event.at, event.rotation)}"


@describe_event.register
def _(event: PlayerTilePlaced, view: Any = None) -> str:
    return f"{event.seat} places player tile {event.tile} {_placed(event.at, event.rotation)}"


@describe_event.register
def _(event: ModifierPlaced, view: Any = None) -> str:
    return (
        f"{event.seat} places {article(event.side)} modifier {_modifier_spot(event.zone, event.at)}"
    )


@describe_event.register
def _(event: MapStructured, view: Any = None) -> str:
    return "the map is complete"


@describe_event.register
def _(event: UnitsMoved, view: Any = None) -> str:
    moved = units_text(event.count, event.unit)
    return f"{event.seat} moves {moved} {_route(event.origin, event.path)}"


@describe_event.register
def _(event: ResourcesGathered, view: Any = None) -> str:
    where = f" from {', '.join(event.zones)}" if event.zones else ""
    return f"{event.seat} gathers {resources_text(event.gain)}{where}"


@describe_event.register
def _(event: TacticOptionPlayed, view: Any = None) -> str:
    paid = [resources_text(event.cost)] if event.cost != Resources() else []
    paid += [f"{event.flare} flare"] if event.flare else []
    paid += [f"discarding {tactic_title(event.discarded)}"] if event.discarded else []
    costs = f", paying {' and '.join(paid)}" if paid else ""
    return f"{event.seat} plays option {event.option + 1} of {tactic_title(event.card)}{costs}"


@describe_event.register
def _(event: ResourcesGained, view: Any = None) -> str:
    parts = [resources_text(event.resources)] if event.resources != Resources() else []
    parts += [f"{event.flare} flare"] if event.flare else []
    return f"{event.seat} gains {' and '.join(parts) or 'nothing'}"


@describe_event.register
def _(event: MovementGranted, view: Any = None) -> str:
    gifts = [f"+{event.movement} movement"] if event.movement else []
    gifts += [f"+{event.stealth} Stealth"] if event.stealth else []
    return f"{event.seat}'s unmoved units in {event.zone} get {' and '.join(gifts)} this turn"


@describe_event.register
def _(event: UnitReplaced, view: Any = None) -> str:
    return (
        f"{event.seat} returns {article(unit_title(event.removed))} in {event.zone} to its pool "
        f"and recruits {article(unit_title(event.recruited))} there"
    )


@describe_event.register
def _(event: DiscountGranted, view: Any = None) -> str:
    return f"{event.seat}'s next {event.kind} costs {resources_text(event.amount)} less"


@describe_event.register
def _(event: StructureUnlocked, view: Any = None) -> str:
    return f"{event.seat} may now build the {structure_title(event.structure)}"


@describe_event.register
def _(event: TurnStarted, view: Any = None) -> str:
    return f"turn {event.turn} begins: {event.seat} to play"


@describe_event.register
def _(event: PhaseStarted, view: Any = None) -> str:
    return f"the {event.phase} phase begins"


@describe_event.register
def _(event: PhaseFinished, view: Any = None) -> str:
    return f"{event.seat} is done with the {event.phase} phase (its allies are not yet)"


@describe_event.register
def _(event: PlayerEliminated, view: Any = None) -> str:
    return f"{event.seat} has lost its base and is out of the game"


@describe_event.register
def _(event: GameEnded, view: Any = None) -> str:
    ended = Outcome(winners=event.winners, draw=not event.winners, reason=event.reason)
    return f"the game ends: {describe_outcome(ended)}"


@describe_event.register
def _(event: FirstPlayerDrawn, view: Any = None) -> str:
    return f"{event.seat} is drawn to play first (draw({event.m}) = {event.value})"


@describe_event.register
def _(event: DeckShuffled, view: Any = None) -> str:
    return f"the {event.deck} deck is shuffled ({len(event.after)} cards)"


@cut_words(DeckShuffled)
def _deck_shuffled_cut(event: Cut[DeckShuffled], view: Any = None) -> str:
    # The order is a secret until the seed is revealed: only its size is seen.
    return f"the {event.deck} deck is shuffled ({event.size} cards)"


@describe_event.register
def _(event: StartingBonus, view: Any = None) -> str:
    return f"{event.seat} receives a starting bonus of {resources_text(event.gain)}"


@describe_event.register
def _(event: TacticCardDrawn, view: Any = None) -> str:
    return f"{event.seat} draws a tactic card"


@cut_words(TacticCardDrawn)
def _tactic_card_drawn_cut(event: Cut[TacticCardDrawn], view: Any = None) -> str:
    # Which card is the drawer's secret until the seed is revealed.
    return f"{event.seat} draws a tactic card"


@describe_event.register
def _(event: VictoryConditionsDrawn, view: Any = None) -> str:
    return f"the victory conditions are {', '.join(map(condition_title, event.conditions))}"


@describe_event.register
def _(event: OpeningDiscardsAwaited, view: Any = None) -> str:
    return f"each player discards one opening tactic card: {', '.join(event.seats)}"


@describe_event.register
def _(event: OpeningTacticDiscarded, view: Any = None) -> str:
    return f"{event.seat} discards {tactic_title(event.card)}"


@describe_event.register
def _(event: CubeScored, view: Any = None) -> str:
    return f"{event.seat} places a cube on {condition_title(event.condition)} ({event.cubes} there)"


@describe_event.register
def _(event: OathSworn, view: Any = None) -> str:
    return f"{event.seat} swears the Oath of Asha and pays {resources_text(event.paid)}"


@describe_event.register
def _(event: BaseDestroyed, view: Any = None) -> str:
    return f"{event.by} destroys {event.owner}'s base (N-WIN-1)"


@describe_event.register
def _(event: BaseConquered, view: Any = None) -> str:
    return (
        f"{event.by} conquers {event.owner}'s base and takes {resources_text(event.taken)} "
        "(N-WIN-5)"
    )


@describe_event.register
def _(event: BaseRetaken, view: Any = None) -> str:
    return f"{event.owner} wins its base back and receives {resources_text(event.gain)}"


# Combat tactic windows (N-COMBAT-9): who is asked shows hand sizes, never hand contents.


@describe_event.register
def _(event: StandingPassGiven, view: Any = None) -> str:
    return f"{event.seat} will not be asked in this combat's tactic windows again"
