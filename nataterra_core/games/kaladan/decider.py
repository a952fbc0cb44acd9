"""The Kaladan decider: set-up (K-SET-1..3) and the dispatch of every command, behind the
kernel's protocol. The rules live in :mod:`.rules.flow`, :mod:`.rules.actions`,
:mod:`.rules.effects` and :mod:`.rules.combat`; the fold in :mod:`.rules.fold`; this module
joins them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
    MalformedCommand,
    Outcome,
    RulesRef,
    Setup,
)
from nataterra_core.kernel.chance import record_draw, record_shuffle

from . import messages as m
from .board import board_for, map_for
from .content.schema import KaladanPack
from .rules import actions, combat, effects, refusals
from .rules.flow import Play, Table, settle, start_turn
from .rules.fold import fold
from .state import Army, GameState, PlayerState

__all__ = ["RULES", "Kaladan", "KaladanOptions"]

RULES = RulesRef(id="kaladan", version=2)


class KaladanOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Kaladan's header options: ``map`` (a pack map for the player count; by default the
    pack's first)."""

    map: str | None = None


class Kaladan(DeciderDefaults):
    """Kaladan on the kernel: ``Session.new(Kaladan(pack), seats=..., ...)``."""

    rules = RULES
    turn_rule = "K-TURN-1"
    command_types: Sequence[type[Command]] = m.COMMANDS
    event_types: Sequence[type[Event]] = m.EVENTS

    def __init__(self, pack: KaladanPack) -> None:
        self.pack = pack
        self.content = ContentRef(id=pack.pack_id, sha256=pack.sha256)

    def table(self, map_id: str) -> Table:
        """The pack and the built map of a game."""
        return Table(self.pack, board_for(self.pack, map_id))

    # -- set-up ---------------------------------------------------------------------------

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """``ValueError`` for options Kaladan does not accept."""
        try:
            parsed = msgspec.convert(dict(options), KaladanOptions)
        except msgspec.ValidationError as exc:
            raise ValueError(f"bad Kaladan options: {exc}") from exc
        if parsed.map is not None and parsed.map not in self.pack.maps:
            raise ValueError(f"K-SET-1: unknown map {parsed.map!r}")

    def initial_state(self, setup: Setup) -> GameState:
        """K-SET-1, K-SET-2: the position before any randomness."""
        seats = tuple(setup.seats)
        known = tuple(self.pack.seats)
        if seats != known[: len(seats)] or not 2 <= len(seats) <= 4:
            raise ValueError(
                f"K-SET-3: the seats are {list(known[: len(seats)])} in that order, 2 to 4"
            )
        options = msgspec.convert(dict(setup.options), KaladanOptions)
        map_id = options.map or map_for(self.pack, len(seats))
        if self.pack.maps[map_id].players != len(seats):
            raise ValueError(
                f"K-SET-1: map {map_id!r} is for {self.pack.maps[map_id].players} players"
            )
        board = board_for(self.pack, map_id)
        economy = self.pack.economy
        players = []
        armies = {}
        for seat in seats:
            reserve = dict(economy.start_reserve)
            special = self.pack.seats[seat].special
            reserve[special] = reserve.get(special, 0) + 1
            players.append(PlayerState(seat=seat, gold=economy.start_gold, reserve=reserve))
            armies[board.home(seat)] = Army(seat, tuple(sorted(economy.start_board)))
        return GameState(
            seats=seats,
            map_id=map_id,
            pack=self.pack.sha256,
            board=armies,
            players=tuple(players),
            event_deck=tuple(self.pack.events),
            magic_deck=self.pack.magic_cards(),
        )

    def start_command(self, setup: Setup) -> Command:
        """Record 1's system command."""
        return m.StartGame()

    def _start(self, play: Play) -> None:
        """K-SET-3: both decks shuffled, the first player drawn, magic cards dealt."""
        state = play.state
        play.emit(m.DeckShuffled(deck="events", **record_shuffle(play.dice, state.event_deck)))
        play.emit(m.DeckShuffled(deck="magic", **record_shuffle(play.dice, state.magic_deck)))
        drawn = record_draw(play.dice, len(state.seats))
        play.emit(m.FirstPlayerDrawn(seat=state.seats[drawn["value"]], **drawn))
        for seat in state.seats:
            effects.draw_magic(play, seat, self.pack.economy.start_magic)
        start_turn(play, play.state.active)

    # -- the reducer ----------------------------------------------------------------------

    def decide(
        self,
        state: GameState,
        command: Command,
        dice: DiceStream,
        *,
        seat: str | None,
        legal: bool = False,
    ) -> Decided[GameState, Event]:
        """The events of ``command`` and the state after them; ``IllegalCommand`` naming the
        rule it breaks otherwise."""
        play = Play(self.table(state.map_id), state, dice)
        if isinstance(command, m.StartGame):
            if seat is not None or state.phase != "setup":
                raise IllegalCommand("K-SET-3", "only the system starts the game, once")
            self._start(play)
        else:
            if seat is None:
                raise MalformedCommand(f"{type(command).__name__} needs a seat")
            self._check(play.table, state, seat, command, legal)
            self._dispatch(play, seat, command)
        effects.prune(play)
        settle(play, waits=lambda s: self._waits(play.table, s))
        return Decided(tuple(play.events), play.state)

    def _check(
        self, table: Table, state: GameState, seat: str, command: Command, legal: bool
    ) -> None:
        if state.phase == "over":
            raise IllegalCommand("K-END-1", "the game is over")
        decision = self.decision(state)
        if seat not in decision.acting:
            raise IllegalCommand(
                "K-TURN-1", f"{seat} may not act now ({', '.join(decision.acting)} may)"
            )
        if legal or decision.find(seat, command) is not None:
            return
        raise refusals.explain(table, state, seat, command)

    def _dispatch(self, play: Play, seat: str, command: Command) -> None:
        state = play.state
        if state.combat is not None:
            combat.combat_command(play, seat, command)
        elif state.pending:
            effects.resolve_choice(play, seat, command)
        elif isinstance(command, m.DrawEventCard):
            effects.draw_event(play, seat)
        elif isinstance(command, m.PlayMagic):
            effects.play_magic(play, seat, command)
        elif isinstance(command, (m.ExchangeMagic, m.BuyMagic, m.BuyCaptured)):
            effects.buy_magic(play, seat, command)
        elif isinstance(command, m.Fight):
            combat.start_fight(play, seat, command)
        else:
            actions.apply(play, seat, command)

    def evolve(self, state: GameState, event: Event) -> GameState:
        """Fold one event."""
        return fold(state, event)

    # -- who acts, with what -----------------------------------------------------------------

    def _waits(self, table: Table, state: GameState) -> bool:
        """Whether the active player's phase has a decision (K-TURN-1: never skipped then).
        A seat holding magic cards is asked in phases its cards may name: hand sizes are
        public, so asking reveals nothing (K-HID-1)."""
        seat = state.active
        holds = bool(state.player(seat).hand) and seat not in state.magic_played
        if state.phase == "income":
            return holds
        if state.phase in ("action", "buy"):
            return holds or bool(actions.phase_options(table, state, seat))
        return bool(actions.phase_options(table, state, seat))

    def _acting(self, state: GameState) -> tuple[str, ...]:
        if state.phase in ("over", "setup"):
            return ()
        if state.combat is not None:
            return (combat.combat_acting(state),)
        if state.pending:
            return (state.pending[0].seat,)
        return (state.active,)

    def _legal(self, state: GameState, seat: str) -> list[Command]:
        table = self.table(state.map_id)
        if state.combat is not None:
            return combat.combat_options(table, state)
        if state.pending:
            return effects.choice_options(table, state, state.pending[0])
        phase = state.phase
        found = actions.phase_options(table, state, seat)
        if phase == "event":
            return [m.DrawEventCard(), *effects.magic_plays(table, state, seat, "event")]
        if phase == "recruit":
            return found
        found += effects.magic_plays(table, state, seat, phase)
        found.append(m.EndPhase(phase=phase))
        return found

    def decision(self, state: GameState) -> Decision[Command]:
        """Who may act in ``state`` and, on demand, with which commands."""
        return Decision(self._acting(state), lambda seat: self._legal(state, seat))

    def dice_counter(self, state: GameState) -> int:
        """Dice words consumed so far."""
        return state.counter

    def turn_number(self, state: GameState) -> int:
        """Player turns since the start (undo never crosses one)."""
        return state.turn

    def outcome(self, state: GameState) -> Outcome | None:
        """The result once the game is over (K-END-1..4)."""
        if state.phase != "over":
            return None
        return Outcome(winners=state.winners, scores=dict(state.scores), reason=state.reason)
