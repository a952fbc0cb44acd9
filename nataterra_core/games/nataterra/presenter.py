"""One English sentence per command, event and log record, for ``play`` and ``replay``.

    >>> from nataterra_core.games.nataterra.rules.movement import UnitsMoved
    >>> describe_event(UnitsMoved(seat="velathi", unit="hunter", origin="t1.z1", count=2,
    ...                           path=("t1.z2", "t1.z3")))
    'velathi moves 2 hunter from t1.z1 to t1.z3 via t1.z2'

A type with no sentence here (say, an event added by a rules module later) is described by
its tag and fields, so a log with new event types still prints. Descriptions never show a
deck's order: a log read before the seed is revealed must not spoil it on screen.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any

import msgspec

from nataterra_core.games.nataterra.rules.combat.messages import (
    PassTactics,
    PlayTactic,
    StandingPass,
    StandingPassGiven,
    WindowOpened,
)
from nataterra_core.games.nataterra.rules.movement import MoveUnits, UnitsMoved
from nataterra_core.games.nataterra.rules.resources import ResourcesGathered
from nataterra_core.games.nataterra.rules.setup import (
    DeckShuffled,
    DiscardOpeningTactic,
    FirstPlayerDrawn,
    OpeningDiscardsAwaited,
    OpeningTacticDiscarded,
    StartGame,
    StartingBonus,
)
from nataterra_core.games.nataterra.rules.state import Resources
from nataterra_core.games.nataterra.rules.structuring import (
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
from nataterra_core.games.nataterra.rules.tactic_play import MovementGranted, TacticOptionPlayed
from nataterra_core.games.nataterra.rules.tactics import ResourcesGained, TacticCardDrawn
from nataterra_core.games.nataterra.rules.turns import (
    EndPhase,
    GameEnded,
    PhaseStarted,
    TurnStarted,
)
from nataterra_core.games.nataterra.rules.victory import (
    CubeScored,
    OathSworn,
    SwearOath,
    VictoryConditionsDrawn,
)
from nataterra_core.kernel import (
    Command,
    CommandRecord,
    EndRecord,
    Event,
    Header,
    Outcome,
    Record,
    RevealRecord,
    StartRecord,
    UndoRecord,
    Wire,
)

__all__ = [
    "describe_command",
    "describe_event",
    "describe_outcome",
    "describe_record",
    "fallback",
    "resources_text",
]


def fallback(value: Wire) -> str:
    """The tag and fields of any command or event: ``tag (field=value, ...)``."""
    tag = type(value).__struct_config__.tag
    fields = msgspec.to_builtins(value)
    fields.pop("type", None)
    body = ", ".join(f"{key}={_plain(item)}" for key, item in fields.items())
    return f"{tag} ({body})" if body else str(tag)


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) + "}"
    return str(value)


def resources_text(amount: Resources) -> str:
    """``2 food, 1 wood`` (the non-zero parts), or ``nothing``."""
    parts = [
        f"{count} {name}"
        for name, count in (("food", amount.food), ("wood", amount.wood), ("metal", amount.metal))
        if count
    ]
    return ", ".join(parts) or "nothing"


def _route(origin: str, path: tuple[str, ...]) -> str:
    via = f" via {', '.join(path[:-1])}" if len(path) > 1 else ""
    return f"from {origin} to {path[-1] if path else origin}{via}"


# -- commands ---------------------------------------------------------------------------------


@singledispatch
def describe_command(command: Command, seat: str | None = None) -> str:
    """What ``seat`` (``None``: the system) asks for, as a sentence."""
    return f"{seat}: {fallback(command)}" if seat else fallback(command)


@describe_command.register
def _(command: MoveUnits, seat: str | None = None) -> str:
    who = f"{seat} moves" if seat else "move"
    return f"{who} {command.count} {command.unit} {_route(command.origin, command.path)}"


@describe_command.register
def _(command: EndPhase, seat: str | None = None) -> str:
    who = f"{seat} ends" if seat else "end"
    return f"{who} the {command.phase} phase"


@describe_command.register
def _(command: StartGame, seat: str | None = None) -> str:
    return "the game is set up"


@describe_command.register
def _(command: PlayTactic, seat: str | None = None) -> str:
    who = f"{seat} plays" if seat else "play"
    chosen = {
        "group": command.target,
        "player": command.player,
        "zone": command.zone,
        "structure": command.structure,
        "discarding": command.discard,
    }
    extra = ", ".join(f"{k} {v}" for k, v in chosen.items() if v is not None)
    return f"{who} option {command.option + 1} of {command.card}" + (f" ({extra})" if extra else "")


@describe_command.register
def _(command: PassTactics, seat: str | None = None) -> str:
    return f"{seat or 'the player'} passes in this tactic window"


@describe_command.register
def _(command: StandingPass, seat: str | None = None) -> str:
    return f"{seat or 'the player'} passes in every tactic window left in this combat"


# Map structuring (N-MAP-4): the command and its event read alike.


@describe_command.register
def _(command: PlaceSharedTile, seat: str | None = None) -> str:
    who = f"{seat} places" if seat else "place"
    return f"{who} shared tile 0 side {command.side} up in the middle"


@describe_command.register
def _(command: AttachMapTile, seat: str | None = None) -> str:
    who = f"{seat} attaches" if seat else "attach"
    return f"{who} map tile {command.tile} {_placed(command.at, command.rotation)}"


@describe_command.register
def _(command: PlacePlayerTile, seat: str | None = None) -> str:
    who = f"{seat} places" if seat else "place"
    return f"{who} the player tile {_placed(command.at, command.rotation)}"


@describe_command.register
def _(command: PlaceModifier, seat: str | None = None) -> str:
    who = f"{seat} places" if seat else "place"
    return f"{who} a {command.side} modifier {_modifier_spot(command.zone, command.at)}"


def _placed(at: tuple[int, int], rotation: int) -> str:
    turned = "not turned" if rotation % 6 == 0 else f"turned {rotation % 6 * 60}°"
    return f"at hex ({at[0]}, {at[1]}), {turned}"


def _modifier_spot(zone: str | None, at: tuple[int, int] | None) -> str:
    if zone is not None or at is None:
        return f"on {zone}"
    return f"beyond the edge at hex ({at[0]}, {at[1]})"


@describe_command.register
def _(command: DiscardOpeningTactic, seat: str | None = None) -> str:
    who = f"{seat} discards" if seat else "discard"
    return f"{who} the opening tactic card {command.card}"


@describe_command.register
def _(command: SwearOath, seat: str | None = None) -> str:
    who = f"{seat} swears" if seat else "swear"
    paid = resources_text(Resources(wood=command.wood, metal=command.metal))
    return f"{who} the Oath of Asha, paying {paid}"


# -- events -----------------------------------------------------------------------------------


@singledispatch
def describe_event(event: Event) -> str:
    """What happened, as a sentence."""
    return fallback(event)


@describe_event.register
def _(event: MapTilesDrawn) -> str:
    return f"{event.seat} draws {len(event.tiles)} map tiles in secret"  # never which


@describe_event.register
def _(event: SharedTilePlaced) -> str:
    return f"{event.seat} places shared tile {event.tile} in the middle"


@describe_event.register
def _(event: MapTileAttached) -> str:
    return f"{event.seat} attaches map tile {event.tile} {_placed(event.at, event.rotation)}"


@describe_event.register
def _(event: PlayerTilePlaced) -> str:
    return f"{event.seat} places player tile {event.tile} {_placed(event.at, event.rotation)}"


@describe_event.register
def _(event: ModifierPlaced) -> str:
    return f"{event.seat} places a {event.side} modifier {_modifier_spot(event.zone, event.at)}"


@describe_event.register
def _(event: MapStructured) -> str:
    return "the map is complete"


@describe_event.register
def _(event: UnitsMoved) -> str:
    return f"{event.seat} moves {event.count} {event.unit} {_route(event.origin, event.path)}"


@describe_event.register
def _(event: ResourcesGathered) -> str:
    where = f" from {', '.join(event.zones)}" if event.zones else ""
    return f"{event.seat} gathers {resources_text(event.gain)}{where}"


@describe_event.register
def _(event: TacticOptionPlayed) -> str:
    paid = [resources_text(event.cost)] if event.cost != Resources() else []
    paid += [f"{event.flare} flare"] if event.flare else []
    paid += [f"discarding {event.discarded}"] if event.discarded else []
    costs = f", paying {' and '.join(paid)}" if paid else ""
    return f"{event.seat} plays option {event.option + 1} of {event.card}{costs}"


@describe_event.register
def _(event: ResourcesGained) -> str:
    parts = [resources_text(event.resources)] if event.resources != Resources() else []
    parts += [f"{event.flare} flare"] if event.flare else []
    return f"{event.seat} gains {' and '.join(parts) or 'nothing'}"


@describe_event.register
def _(event: MovementGranted) -> str:
    gifts = [f"+{event.movement} movement"] if event.movement else []
    gifts += [f"+{event.stealth} Stealth"] if event.stealth else []
    return f"{event.seat}'s unmoved units in {event.zone} get {' and '.join(gifts)} this turn"


@describe_event.register
def _(event: TurnStarted) -> str:
    return f"turn {event.turn} begins: {event.seat} to play"


@describe_event.register
def _(event: PhaseStarted) -> str:
    return f"the {event.phase} phase begins"


@describe_event.register
def _(event: GameEnded) -> str:
    return f"the game ends: {describe_outcome(Outcome(winners=event.winners, reason=event.reason))}"


@describe_event.register
def _(event: FirstPlayerDrawn) -> str:
    return f"{event.seat} is drawn to play first (draw({event.m}) = {event.value})"


@describe_event.register
def _(event: DeckShuffled) -> str:
    # The order is a secret until the seed is revealed: say only that it happened.
    return f"the {event.deck} deck is shuffled ({len(event.after)} cards)"


@describe_event.register
def _(event: StartingBonus) -> str:
    return f"{event.seat} receives a starting bonus of {resources_text(event.gain)}"


@describe_event.register
def _(event: TacticCardDrawn) -> str:
    # Which card is the drawer's secret until the seed is revealed (as a deck's order).
    return f"{event.seat} draws a tactic card"


@describe_event.register
def _(event: VictoryConditionsDrawn) -> str:
    return f"the victory conditions are {', '.join(event.conditions)}"


@describe_event.register
def _(event: OpeningDiscardsAwaited) -> str:
    return f"each player discards one opening tactic card: {', '.join(event.seats)}"


@describe_event.register
def _(event: OpeningTacticDiscarded) -> str:
    return f"{event.seat} discards {event.card}"


@describe_event.register
def _(event: CubeScored) -> str:
    return f"{event.seat} places a cube on {event.condition} ({event.cubes} there)"


@describe_event.register
def _(event: OathSworn) -> str:
    return f"{event.seat} swears the Oath of Asha and pays {resources_text(event.paid)}"


# Combat tactic windows (N-COMBAT-9): who is asked shows hand sizes, never hand contents.


@describe_event.register
def _(event: WindowOpened) -> str:
    return f"the {event.window} tactic window asks {', '.join(event.seats)}"


@describe_event.register
def _(event: StandingPassGiven) -> str:
    return f"{event.seat} will not be asked in this combat's tactic windows again"


# -- results and records ----------------------------------------------------------------------


def describe_outcome(result: Outcome) -> str:
    """``won by velathi (target_reached)``, ``drawn (turn_limit)``."""
    if result.winners:
        text = f"won by {', '.join(result.winners)} ({result.reason})"
    else:
        text = f"drawn ({result.reason})"
    if result.scores:
        text += "; scores " + ", ".join(f"{s} {n}" for s, n in result.scores.items())
    return text


def describe_record(record: Record) -> tuple[str, tuple[str, ...]]:
    """A record's one-line summary and its events' sentences."""
    if isinstance(record, Header):
        options = ", ".join(f"{k}={v}" for k, v in record.options.items()) or "none"
        pack = f"{record.content.id} {record.content.sha256[:12]}" if record.content else "none"
        return (
            f"game {record.game_id}: {', '.join(record.seats)}; rules {record.rules.id} "
            f"v{record.rules.version}; content {pack}; options {options}",
            (),
        )
    if isinstance(record, StartRecord):
        return describe_command(record.command), _events(record.events)
    if isinstance(record, CommandRecord):
        return describe_command(record.command, record.seat), _events(record.events)
    if isinstance(record, UndoRecord):
        return f"{record.seat} undoes record {record.undoes}", ()
    if isinstance(record, RevealRecord):
        return f"the server seed is revealed: {record.server_seed}", ()
    if isinstance(record, EndRecord):
        return f"result: {describe_outcome(record.result)}", ()
    return fallback(record), ()


def _events(events: tuple[Any, ...]) -> tuple[str, ...]:
    return tuple(describe_event(event) for event in events)
