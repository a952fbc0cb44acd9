"""The BattleLore decider: the kernel's :class:`~nataterra_core.kernel.Decider` for one pack."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import msgspec

from nataterra_core.kernel import (
    Command,
    ContentRef,
    Decided,
    DeciderDefaults,
    Decision,
    DiceStream,
    Event,
    IllegalCommand,
    Outcome,
    RulesRef,
    Setup,
)

from . import messages as m
from .board import to_hex
from .content.schema import BattleLorePack
from .rules import lore, turn
from .rules.fold import evolve
from .rules.refusals import explain
from .rules.resolver import Resolver
from .rules.world import World
from .state import BattleLoreState, Side, Unit

__all__ = ["RULES", "BattleLore", "GameOptions"]

RULES = RulesRef(id="battlelore", version=1)


class GameOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """BattleLore's header options."""

    scenario: Annotated[
        str, msgspec.Meta(examples=["agincourt", "hired-swords", "war-council"])
    ] = "agincourt"
    """B-SCN-1: which scenario of the pack (the examples are the own pack's: what the leak
    test's sweep plays)."""
    max_turns: int = 0
    """B-TURN-2: player turns before the side with more medals wins (0: no limit)."""


class BattleLore(DeciderDefaults):
    """BattleLore on one content pack (``docs/rules/battlelore.md``)."""

    rules = RULES
    command_types: Sequence[type[Command]] = m.COMMANDS
    event_types: Sequence[type[Event]] = m.EVENTS
    turn_rule = "B-TURN-1"

    def __init__(self, pack: BattleLorePack) -> None:
        self.pack = pack
        self.content = ContentRef(id=pack.pack_id, sha256=pack.sha256)

    @functools.lru_cache(maxsize=8)  # noqa: B019  (one decider per pack; few scenarios)
    def world(self, scenario: str) -> World:
        """The scenario's world (pack, board, terrain)."""
        return World(self.pack, scenario)

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """Refuse unknown options, a scenario the pack lacks and a negative turn limit."""
        try:
            parsed = msgspec.convert(dict(options), GameOptions)
        except msgspec.ValidationError as exc:
            raise ValueError(f"bad options: {exc}") from exc
        if parsed.max_turns < 0:
            raise ValueError("B-TURN-2: max_turns must be 0 (none) or more")
        self.world(parsed.scenario)

    def initial_state(self, setup: Setup) -> BattleLoreState:
        """The scenario's units on their hexes; seats must be its two sides (B-SEAT-1)."""
        self.validate_options(setup.options)
        options = msgspec.convert(setup.options, GameOptions)
        world = self.world(options.scenario)
        sides = world.scenario.sides
        if tuple(setup.seats) != tuple(sides):
            raise ValueError(f"B-SEAT-1: {options.scenario} is played by {list(sides)}")
        counts: dict[str, int] = {}
        units: list[Unit] = []
        for placed in world.scenario.units:
            counts[placed.side] = counts.get(placed.side, 0) + 1
            kind = self.pack.unit_types[placed.unit]
            hex_ = to_hex(*placed.hex)
            units.append(
                Unit(
                    id=f"{placed.side[0]}{counts[placed.side]}",
                    side=placed.side,
                    type=placed.unit,
                    hex=(hex_.q, hex_.r),
                    figures=kind.figures,
                    start=kind.figures,
                )
            )
        return BattleLoreState(
            scenario=options.scenario,
            pack=self.pack.sha256,
            seats=(sides[0], sides[1]),
            sides=(Side(seat=sides[0]), Side(seat=sides[1])),
            units=tuple(units),
            max_turns=options.max_turns,
        )

    def start_command(self, setup: Setup) -> Command:
        """The system's start command."""
        return m.Start()

    def decide(
        self,
        state: BattleLoreState,
        command: Command,
        dice: DiceStream,
        *,
        seat: str | None,
        legal: bool = False,
    ) -> Decided[BattleLoreState, Event]:
        """The events of ``command`` and the automatic steps after it, with the state;
        ``IllegalCommand`` naming the clause it breaks otherwise (:mod:`.rules.refusals`)."""
        world = self.world(state.scenario)
        r = Resolver(world, state, dice)
        if isinstance(command, m.Start):
            if seat is not None or state.turn != 0 or state.phase != "setup" or state.deck:
                raise IllegalCommand("B-TURN-1", "the game has started already")
            self._start(r)
        else:
            if seat is None:
                raise IllegalCommand("B-TURN-1", f"{type(command).__name__} needs a seat")
            if not legal and command not in turn.legal(world, state, seat):
                raise explain(world, state, seat, command)
            turn.apply(r, seat, command)
        return Decided(tuple(r.events), r.state)

    def _start(self, r: Resolver) -> None:
        """Shuffle the deck, deal the hands, and the lore set-up of a lore scenario."""
        scenario = r.world.scenario
        deck = tuple(c.id for c in self.pack.cards.values() for _ in range(c.copies))
        r.shuffle("command", deck)
        for seat in r.state.seats:
            r.draw(seat, scenario.hands[seat])
        if scenario.lore:
            lore.lore_setup(r)
        turn.advance(r)

    def decision(self, state: BattleLoreState) -> Decision[Command]:
        """Who may act now and with which commands."""
        world = self.world(state.scenario)
        return Decision(turn.acting(world, state), lambda seat: turn.legal(world, state, seat))

    def evolve(self, state: BattleLoreState, event: Event) -> BattleLoreState:
        """The state after ``event``."""
        return evolve(self.world(state.scenario), state, event)

    def dice_counter(self, state: BattleLoreState) -> int:
        """Dice words consumed so far."""
        return state.counter

    def turn_number(self, state: BattleLoreState) -> int:
        """The player turn (undo never crosses a change of it)."""
        return state.turn

    def outcome(self, state: BattleLoreState) -> Outcome | None:
        """The winner once a side reaches its medals, or the turn limit's verdict."""
        if state.phase != "over":
            return None
        scores = {s.seat: s.medals for s in state.sides}
        if state.winner is None:
            return Outcome(draw=True, scores=scores, reason=state.ended)
        return Outcome(winners=(state.winner,), scores=scores, reason=state.ended)
