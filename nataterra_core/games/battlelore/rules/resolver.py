"""The resolver: events emitted one at a time and folded at once, so each rule sees the state
its earlier events made, and the automatic steps of a turn run until someone must choose.

The decider's ``decide`` builds a :class:`Resolver` and has :mod:`.turn` apply the command and
run the automatic steps up to the next choice (``turn.advance``); the events and the final
state go back to the kernel together.
"""

from __future__ import annotations

from nataterra_core.kernel import DiceStream, record_draws, record_shuffle

from .. import messages as m
from ..state import BattleLoreState
from .fold import evolve
from .world import World

__all__ = ["Resolver"]


class Resolver:
    """Emits events onto a working state; the turn's automatic steps (B-TURN-1)."""

    def __init__(self, world: World, state: BattleLoreState, dice: DiceStream) -> None:
        self.world = world
        self.state = state
        self.dice = dice
        self.events: list[m.Event] = []

    def emit(self, event: m.Event) -> None:
        """Record ``event`` and fold it into the working state."""
        self.events.append(event)
        self.state = evolve(self.world, self.state, event)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.phase == "over"

    # --- randomness ---------------------------------------------------------------------

    def roll(self, count: int, purpose: str, unit: str) -> tuple[str, ...]:
        """Roll ``count`` battle dice from the kernel stream, recorded with faces (B-DIE-1)."""
        if count <= 0:
            return ()
        fields = record_draws(self.dice, [6] * count)
        faces = tuple(self.world.pack.rules.die_faces[v] for v in fields["values"])
        self.emit(m.DiceRolled(**fields, faces=faces, purpose=purpose, unit=unit))  # type: ignore[arg-type]
        return faces

    def shuffle(self, deck: str, items: tuple[str, ...]) -> None:
        """A recorded shuffle of ``items`` into ``deck`` (B-CMD-2)."""
        self.emit(m.DeckShuffled(deck=deck, **record_shuffle(self.dice, items)))

    def draw(self, seat: str, count: int, *, pending: bool = False) -> None:
        """``seat`` draws ``count`` command cards, the discards reshuffled when the deck runs
        out (B-CMD-2)."""
        drawn = 0
        while drawn < count:
            if not self.state.deck:
                if not self.state.discard:
                    return
                self.shuffle("command", self.state.discard)
            cards = self.state.deck[: count - drawn]
            self.emit(m.CardsDrawn(seat=seat, deck="command", cards=cards, pending=pending))
            drawn += len(cards)

    # --- medals (B-WIN-1) ---------------------------------------------------------------

    def check_medals(self) -> None:
        """Objective medals follow the units; the first side to the scenario's medals wins
        at once, even in the middle of a turn (B-WIN-1)."""
        state = self.state
        for seat in state.seats:
            held = self.world.objectives_held(state, seat)
            if held != state.side_of(seat).objectives:
                reason = (
                    "objective taken" if held > state.side_of(seat).objectives else "objective lost"
                )
                self.emit(m.MedalsChanged(side=seat, objectives=held, reason=reason))
        if self.over:
            return
        for seat in self.state.seats:
            if self.state.side_of(seat).medals >= self.world.scenario.medals:
                self.emit(m.GameEnded(winner=seat, reason="medals"))
                return

    def destroy_if_empty(self, unit_id: str) -> None:
        """A unit with no figures left is destroyed; its enemy gains a medal (B-DIE-4)."""
        unit = self.state.unit(unit_id)
        if unit is not None and unit.figures <= 0:
            self.emit(m.UnitDestroyed(unit=unit_id, medal_to=self.state.other(unit.side)))
            lore = self.world.pack.rules.lore_tokens_per_creature
            if self.world.scenario.lore and self.world.type_of(unit).kind == "creature" and lore:
                self.gain_tokens(self.state.other(unit.side), lore, "creature killed")
        self.check_medals()

    def gain_tokens(self, seat: str, count: int, reason: str) -> None:
        """``seat`` gains lore tokens, capped (B-ADV-4)."""
        have = self.state.side_of(seat).lore_tokens
        tokens = max(0, min(self.world.pack.rules.lore_token_cap, have + count))
        if tokens != have:
            self.emit(m.LoreTokens(side=seat, tokens=tokens, reason=reason))
