"""The Nataterra decider: the rules modules combined behind the kernel's protocol.

Each rules module owns its commands, events, ``decide_*`` and ``evolve_*`` functions; this
module is the one place that joins them into the command and event unions and dispatches.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, cast

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel import (
    Command,
    ContentRef,
    Decided,
    DeciderDefaults,
    Decision,
    DiceStream,
    Event,
    IllegalCommand,
    MalformedCommand,
    Outcome,
    RandomEvent,
    RulesRef,
    Setup,
)

from .messages import COMMANDS, EVENTS
from .messages import combat as combat_messages
from .messages import scenarios as scenario_messages
from .messages import structuring as structuring_messages
from .messages.combat import PlayTactic
from .messages.development import (
    BonusResolved,
    Build,
    Recruit,
    Recruited,
    Research,
    Researched,
    ResourcesGathered,
    StructureBuilt,
    StructureDestroyed,
    StructureRecruited,
    StructuresProduced,
    TechResolved,
)
from .messages.movement import MoveUnits, UnitsMoved
from .messages.setup import (
    DeckShuffled,
    DiscardOpeningTactic,
    FirstPlayerDrawn,
    OpeningDiscardsAwaited,
    OpeningTacticDiscarded,
    StartFromPosition,
    StartGame,
    StartingBonus,
)
from .messages.turns import (
    EndPhase,
    GameEnded,
    PhaseFinished,
    PhaseStarted,
    PlayerEliminated,
    TurnStarted,
)
from .messages.victory import (
    BaseConquered,
    BaseDestroyed,
    BaseRetaken,
    CubeScored,
    OathSworn,
    SwearOath,
    VictoryConditionsDrawn,
)
from .rules import (
    combat_map,
    combat_phase,
    conquest,
    development,
    movement,
    positions,
    resources,
    scenarios,
    setup,
    structures,
    structuring,
    tactic_play,
    teams,
    turns,
    victory,
)
from .rules.context import Context
from .rules.hexmap import build_map
from .rules.map_layout import is_structured
from .rules.turn_hooks import on_enter, on_turn_end, on_turn_start
from .state import GameState

__all__ = ["RULES", "Nataterra"]

RULES = RulesRef(id="nataterra", version=8)

_STRUCTURED_CACHE = 16
"""Contexts of structured maps kept per decider (N-MAP-4: every structured game has its own
map; the oldest is dropped and rebuilt when needed again)."""

_POSITIONS_KEPT = 64
"""Starting positions kept checked per decider (the oldest is dropped and checked again when
needed): the provisional pack's decider is shared by every game of a process."""

_EVOLVE: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    FirstPlayerDrawn: setup.evolve_first_player,
    DeckShuffled: setup.evolve_deck_shuffled,
    StartingBonus: setup.evolve_starting_bonus,
    OpeningDiscardsAwaited: setup.evolve_discards_awaited,
    OpeningTacticDiscarded: setup.evolve_opening_discarded,
    TurnStarted: turns.evolve_turn_started,
    PhaseStarted: turns.evolve_phase_started,
    PhaseFinished: turns.evolve_phase_finished,
    GameEnded: turns.evolve_game_ended,
    PlayerEliminated: turns.evolve_player_eliminated,
    UnitsMoved: movement.evolve_units_moved,
    ResourcesGathered: resources.evolve_resources_gathered,
    VictoryConditionsDrawn: victory.evolve_conditions_drawn,
    CubeScored: victory.evolve_cube_scored,
    OathSworn: victory.evolve_oath_sworn,
    BaseDestroyed: victory.evolve_base_destroyed,
    BaseConquered: conquest.evolve_base_conquered,
    BaseRetaken: conquest.evolve_base_retaken,
    Recruited: development.evolve_recruited,
    Researched: development.evolve_researched,
    TechResolved: development.evolve_tech_resolved,
    BonusResolved: development.evolve_bonus_resolved,
    StructureBuilt: structures.evolve_structure_built,
    StructureDestroyed: structures.evolve_structure_destroyed,
    StructuresProduced: structures.evolve_structures_produced,
    StructureRecruited: structures.evolve_structure_recruited,
    **tactic_play.EVOLVE,
    **structuring.EVOLVE,
    **scenarios.play.EVOLVE,
}
assert set(_EVOLVE) | set(combat_phase.EVENTS) == set(EVENTS), "every event needs an evolve"
_DRAWING = frozenset(kind for kind in EVENTS if issubclass(kind, RandomEvent))
"""The events that record dice draws (``counter_after``): folding one moves the counter."""
_FOLDS: Mapping[type[Event], Callable[[GameState, Any], GameState]] = MappingProxyType(
    {kind: fold for kind, fold in _EVOLVE.items() if kind not in _DRAWING}
)
"""The events ``evolve`` folds with one function of (state, event) and nothing else: the
kernel calls these directly (``Nataterra.folds``, ``kernel.decider.direct_folds``)."""
_COMBAT_ONLY = {k: f for k, f in combat_map.COMBAT_ONLY.items() if k not in _DRAWING}
"""The combat events (most of them) that change only the combat and draw no dice, with their
folds: ``evolve`` folds them with one lookup and one copy of the state."""


_IN_COMBAT = frozenset(combat_messages.COMMANDS)
"""The commands of a combat in progress (tactic plays in its windows included)."""


def _no_commands(seat: str) -> tuple[Command, ...]:
    return ()


def _scenario_commands(
    ctx: Context, state: GameState, seat: str, commands: list[Command]
) -> list[Command]:
    """A scenario's commands added, and builds it forbids left out (N-SCN-FERGUS-4)."""
    allowed = []
    for command in commands:
        if isinstance(command, Build):
            try:
                scenarios.play.check_build(state, command)
            except IllegalCommand:
                continue
        allowed.append(command)
    return [*allowed, *scenarios.play.legal(ctx, state, seat)]


class Nataterra(DeciderDefaults):
    """Nataterra on the kernel: ``Session.new(Nataterra(pack), seats=..., ...)``."""

    rules = RULES
    turn_rule = "N-TURN-1"
    command_types: Sequence[type[Command]] = COMMANDS
    event_types: Sequence[type[Event]] = EVENTS
    folds = _FOLDS

    def __init__(self, pack: ContentPack, contexts: Sequence[Context] = ()) -> None:
        """``contexts`` adds maps that are not in the pack (hand-made positions in tests)."""
        self.pack = pack
        self.content = ContentRef(id=pack.pack_id, sha256=pack.sha256)
        self._contexts = {ctx.map.map_id: ctx for ctx in contexts}
        self._positions: dict[str, positions.Position] = {}

    def context(self, map_id: str) -> Context:
        """The pack and built map for ``map_id`` (built once per decider). A structured map's
        id is its layout (N-MAP-4), so it is built from the id like a map of the pack; only
        the latest few structured maps are kept."""
        ctx = self._contexts.get(map_id)
        if ctx is None:
            structured = [m for m in self._contexts if is_structured(m)]
            if len(structured) >= _STRUCTURED_CACHE:  # N-MAP-4: a map per structured game
                del self._contexts[structured[0]]
            ctx = self._contexts[map_id] = Context(self.pack, build_map(self.pack, map_id))
        return ctx

    # -- set-up ---------------------------------------------------------------------------

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """``ValueError`` for options Nataterra does not accept."""
        parsed = setup.parse_options(options)
        if parsed.position is not None:
            self.position(parsed.position)
        if parsed.scenario is not None and parsed.scenario not in scenarios.BOOK:
            raise ValueError(
                f"N-SCN-GEN-1: unknown scenario {parsed.scenario!r} "
                f"(known: {', '.join(scenarios.BOOK)})"
            )
        if parsed.map is not None and parsed.map not in self.pack.maps:
            raise ValueError(f"N-MAP-5: unknown map {parsed.map!r}")
        if (
            parsed.mode == "advanced"
            and parsed.map is not None
            and not setup.has_shared_tile(self.pack, parsed.map)
        ):
            raise ValueError(f"N-SETUP-8: map {parsed.map!r} has no shared tile 0")

    def initial_state(self, config: Setup) -> GameState:
        """N-SETUP-1/3..7: the position before any randomness."""
        options = setup.parse_options(config.options)
        text = self._position_text(options)
        if text is not None:
            return self._from_position(text, config.seats, options)
        setup.check_seats(self.pack, config.seats, options.mode)
        teams.check_teams(config.seats, options.team_seats())
        if options.structured:  # N-MAP-4: the players build the map
            return structuring.initial_state(self.pack, config.seats, options)
        map_id = options.map or setup.default_map(self.pack, config.seats, options.mode)
        return setup.initial_state(self.context(map_id), config.seats, options)

    def start_command(self, config: Setup) -> Command:
        """Record 1's system command (a position's names the SHA-256 of its public part)."""
        text = self._position_text(setup.parse_options(config.options))
        if text is not None:
            position = self.position(text)
            return StartFromPosition(
                public_sha256=positions.public_sha256(position), shuffle=position.shuffle
            )
        return StartGame()

    def position(self, text: str) -> positions.Position:
        """The position of a header's ``position`` option, checked against this pack
        (:class:`~.positions.PositionError` lists every problem); read once per decider."""
        found = self._positions.get(text)
        if found is None:
            found = positions.checked(self.pack, text)
            if found.scenario is not None and found.scenario not in scenarios.BOOK:
                problem = positions.Problem("$.scenario", "N-SCN-GEN-1: no such scenario")
                raise positions.PositionError([problem])
            if len(self._positions) >= _POSITIONS_KEPT:  # one decider serves the process
                del self._positions[next(iter(self._positions))]
            self._positions[text] = found
        return found

    def redact_options(self, options: Mapping[str, Any], seat: str | None) -> dict[str, Any]:
        """The header's options as ``seat`` may see them before the reveal: a starting
        position's hands and deck orders cut (``kernel.visibility.record_view``)."""
        text = options.get("position")
        if not isinstance(text, str):
            return dict(options)
        try:
            seen = positions.redacted(positions.parse(text), seat)
        except positions.PositionError:
            return {**options, "position": None}
        return {**options, "position": seen}

    def _position_text(self, options: setup.GameOptions) -> str | None:
        """The position a game starts from: the ``position`` option's, or its scenario's."""
        if options.scenario is not None:
            found = scenarios.scenario_position(self.pack, options.scenario)
            if options.max_turns:
                found = msgspec.structs.replace(found, max_turns=options.max_turns)
            return positions.canonical_json(found)
        return options.position

    def _from_position(
        self, text: str, seats: tuple[str, ...], options: setup.GameOptions
    ) -> GameState:
        position = self.position(text)
        if tuple(seats) != position.seats:
            raise ValueError(f"the position seats {list(position.seats)}, not {list(seats)}")
        self.context(position.map)
        return msgspec.structs.replace(positions.state_of(position), pack=self.pack.sha256)

    # -- the reducer ----------------------------------------------------------------------

    def decide(
        self,
        state: GameState,
        command: Command,
        dice: DiceStream,
        *,
        seat: str | None,
        legal: bool = False,
    ) -> tuple[Event, ...] | Decided[GameState, Event]:
        """The events of ``command``; ``IllegalCommand`` naming the rule it breaks.

        ``legal`` (the command came from this state's decision) spares a move its path
        checks (the list's path search is the check) and a combat decision its checks
        (membership is the check); other commands are still checked. A decision in a
        combat comes back with the state after it and that state's decision (the combat
        runs on to its next decision anyway: found once, with one combat environment)."""
        if (
            state.combat is not None
            and state.phase == "combat"
            and seat is not None
            and type(command) in _IN_COMBAT
        ):
            return self._decide_in_combat(state, command, dice, seat, legal)
        return self._team_wins(state, self._decide(state, command, dice, seat, legal))

    def _decide_in_combat(
        self, state: GameState, command: Command, dice: DiceStream, seat: str, legal: bool
    ) -> Decided[GameState, Event]:
        """A combat decision, as :meth:`decide` says: the events with the state after them
        and, while the combat goes on, its next decision (N-COMBAT-10)."""
        ctx = self.context(state.map_id)
        events, pending = combat_phase.decide_in_combat(
            ctx, state, seat, command, dice, listed=legal
        )
        events = self._team_wins(state, events)
        after = state
        for event in events:
            after = self.evolve(after, event)
        if pending is None or after.combat is None or after.phase != "combat":
            return Decided(events, after)
        return Decided(events, after, Decision.asking(*pending))

    @staticmethod
    def _team_wins(state: GameState, events: tuple[Event, ...]) -> tuple[Event, ...]:
        """N-TEAM-1: whatever a player wins, the team wins."""
        if not state.teams:
            return events
        return tuple(
            msgspec.structs.replace(e, winners=teams.team_winners(state, e.winners))
            if isinstance(e, GameEnded)
            else e
            for e in events
        )

    def _decide(
        self, state: GameState, command: Command, dice: DiceStream, seat: str | None, legal: bool
    ) -> tuple[Event, ...]:
        if state.structuring is not None and not isinstance(command, StartGame):
            return structuring.decide(self.pack, state, command, seat)
        if isinstance(command, StartFromPosition):
            if seat is not None:
                raise IllegalCommand("N-SETUP-2", "only the system starts the game")
            return positions.decide_start_position(self.context(state.map_id), state, command, dice)
        ctx = self.context(state.map_id)
        if isinstance(command, StartGame):
            if seat is not None:
                raise IllegalCommand("N-SETUP-2", "only the system starts the game")
            events = setup.decide_start(ctx, state, dice)
            if state.structuring is not None:  # N-MAP-4: tiles dealt, the map built first
                return structuring.deal(self.pack, state, events, dice)
            return events
        if seat is None:
            raise MalformedCommand(f"{type(command).__name__} needs a seat")
        if isinstance(command, DiscardOpeningTactic):
            return setup.decide_opening_discard(state, seat, command)
        if state.phase == "setup":
            raise IllegalCommand("N-SETUP-8", "the opening tactic cards are discarded first")
        if state.phase == "over":
            raise IllegalCommand("N-WIN-6", "the game is over")
        if state.phase == "combat" and not isinstance(command, EndPhase):
            return combat_phase.decide_combat_phase(ctx, state, seat, command, dice)
        if seat not in teams.turn_seats(state):
            raise IllegalCommand("N-TURN-1", f"it is {state.active_seat}'s turn, not {seat}'s")
        if seat in state.phase_done:
            raise IllegalCommand(
                "N-TURN-3", f"{seat} has ended the {state.phase} phase; its allies have not"
            )
        if isinstance(command, EndPhase):
            if state.phase == "combat" and (state.combat or combat_phase.contested(state, ctx)):
                raise IllegalCommand("N-COMBAT-1", "every contested zone must fight first")
            return turns.decide_end_phase(
                ctx, state, command, dice, on_enter, on_turn_end, on_turn_start, seat=seat
            )
        if isinstance(command, PlayTactic):  # N-TURN-2: one option per phase
            return tactic_play.decide_play(ctx, state, seat, command, dice, self.evolve)
        if isinstance(command, MoveUnits):
            return movement.decide_move(ctx, state, seat, command, listed=legal)
        if isinstance(command, (Recruit, Research)):
            return development.decide_development(ctx, state, seat, command)
        if isinstance(command, SwearOath):
            return victory.decide_oath(ctx, state, seat, command)
        if isinstance(command, Build):
            if state.phase != "development":
                raise IllegalCommand(
                    "N-TURN-1", f"structures are built in development, not {state.phase}"
                )
            scenarios.play.check_build(state, command)
            return structures.decide_build(ctx, state, seat, command)
        if isinstance(command, combat_phase.COMMANDS):
            raise IllegalCommand(
                "N-TURN-1", f"combat is fought in the combat phase, not {state.phase}"
            )
        if isinstance(command, structuring_messages.COMMANDS):
            raise IllegalCommand("N-MAP-4", "the map is built; tiles are placed only at set-up")
        if isinstance(command, scenario_messages.COMMANDS):
            return scenarios.play.decide(ctx, state, seat, command)
        raise MalformedCommand(f"{type(command).__name__} is not a Nataterra command")

    def evolve(self, state: GameState, event: Event) -> GameState:
        """Fold one event. Every map's context shares this decider's pack, so a combat event
        that changes only the combat needs no context."""
        kind = type(event)
        fold = _EVOLVE.get(kind)
        if fold is not None:
            after = fold(state, event)
        else:
            combat, in_combat = state.combat, _COMBAT_ONLY.get(kind)
            if in_combat is not None and combat is not None:
                return msgspec.structs.replace(state, combat=in_combat(self.pack, combat, event))
            ctx = self._contexts.get(state.map_id) or self.context(state.map_id)  # no call
            after = combat_map.evolve_combat_event(ctx, state, event)
        if kind in _DRAWING:  # the dice counter moves on to where the event's draws ended
            counter = cast(RandomEvent, event).counter_after
            if counter is not None and counter != after.counter:
                after = msgspec.structs.replace(after, counter=counter)
        return after

    # -- questions the kernel asks --------------------------------------------------------

    def decision(self, state: GameState) -> Decision[Command]:
        """Who may act in ``state`` and, on demand, with which commands. In a combat both
        come from the one pending combat decision (N-COMBAT-10)."""
        if state.combat is not None and state.structuring is None and state.phase == "combat":
            pending = combat_phase.combat_decision(self.context(state.map_id), state)
            if pending is None:
                return Decision((), _no_commands)
            return Decision.asking(*pending)
        return Decision(self._acting(state), lambda seat: self._legal(state, seat))

    def acting_seats(self, state: GameState) -> Sequence[str]:
        """Seats that may send a command now (see :meth:`decision`)."""
        return self._acting(state)

    def legal_commands(self, state: GameState, seat: str) -> Sequence[Command]:
        """Every command ``seat`` may send now (see :meth:`decision`)."""
        if seat not in self._acting(state):
            return ()
        return self._legal(state, seat)

    def _acting(self, state: GameState) -> tuple[str, ...]:
        """The active seat (with its allies in a team game, N-TURN-3, until each has ended
        the phase), or the seat a combat asks; at set-up, the seat placing a tile or a terrain
        modifier (N-MAP-4), then the seat whose opening discard is next (N-SETUP-8); nobody
        once the game is over."""
        if state.structuring is not None:
            return structuring.acting_seats(state)
        if state.phase == "setup":
            return tuple(state.discarding[:1])
        if state.phase == "over":
            return ()
        if state.combat is not None:
            pending = combat_phase.combat_decision(self.context(state.map_id), state)
            return (pending[0],) if pending else ()
        return tuple(s for s in teams.turn_seats(state) if s not in state.phase_done)

    def _legal(self, state: GameState, seat: str) -> Sequence[Command]:
        """Every command ``seat``, which may act, may send now."""
        if state.structuring is not None:
            return structuring.legal_commands(self.pack, state, seat)
        if state.phase == "setup":
            return setup.legal_opening_discards(state, seat)
        ctx = self.context(state.map_id)
        if state.combat is not None:
            pending = combat_phase.combat_decision(ctx, state)
            return pending[1] if pending else ()
        commands: list[Command] = list(tactic_play.legal_plays(ctx, state, seat))
        if state.phase == "movement":
            commands.extend(movement.legal_moves(ctx, state, seat))
        if state.phase == "development":
            commands.extend(development.legal_development(ctx, state, seat))
            commands.extend(structures.legal_builds(ctx, state, seat))
            commands.extend(victory.legal_oaths(ctx, state, seat))
        if state.scenario is not None:  # markers, recruits on markers, sacrifices (N-SCN)
            commands = _scenario_commands(ctx, state, seat, commands)
        if state.phase == "combat":
            commands.extend(combat_phase.legal_combat_phase(ctx, state))
            if commands:  # N-COMBAT-1: every contested zone fights before the phase ends
                return commands
        commands.append(EndPhase(phase=state.phase))
        return commands

    def dice_counter(self, state: GameState) -> int:
        """Dice words consumed so far."""
        return state.counter

    def turn_number(self, state: GameState) -> int:
        """Player turns since the start (undo never crosses one)."""
        return state.turn

    def outcome(self, state: GameState) -> Outcome | None:
        """The result once the game is over."""
        if state.phase != "over" or state.result_reason is None:
            return None
        return Outcome(
            winners=state.winners,
            draw=not state.winners,
            scores={seat: state.cubes.get(seat, 0) for seat in state.seats},
            reason=state.result_reason,
        )
