"""The combat sandbox's decisions (compiled in the compiled build): a battle's environment,
and one battle command to its events, the state after them and that state's decision."""

from __future__ import annotations

from typing import Any, Final

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel import Command, Decided, Decision, DiceStream, Event

from ...messages import combat as messages
from ..hexmap import GameMap, Hex, Zone
from ..stock import Resources
from .env import CombatEnv
from .flow import Pending, Stepped, run_on, step
from .holdings import fold_stocks
from .model import Combat
from .sandbox_model import Battle, SandboxState

__all__ = ["SandboxHost", "as_decision", "battle_env", "decided", "opened"]

_replace: Final = msgspec.structs.replace


class SandboxHost:
    """A battle's host: its biome card is the one drawn, and on its small map only the two
    sides stand (a base bars the other side's retreat, N-COMBAT-23); there are no decks,
    pools, hands or units next door. It holds the sides' ``stocks`` and ``flare`` (the
    sandbox state's), folded by :func:`~.holdings.fold_stocks` as ``evolve`` folds them."""

    __slots__ = ("battle", "flare_of", "stocks")

    def __init__(self, battle: Battle, stocks: dict[str, Resources], flare: dict[str, int]) -> None:
        self.battle = battle
        self.stocks = stocks
        self.flare_of = flare

    def blocked(self, seat: str, zone: str) -> bool:
        """Only another side's base bars a retreat on a battle's map (N-COMBAT-23)."""
        return any(z.id == zone and z.base not in (None, seat) for z in self.battle.map)

    def draw_biome(self, combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
        """The battle's biome card, if it names one (N-COMBAT-7)."""
        return self.battle.biome_card, ()

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        """No tactic decks in a battle."""
        return ()

    def flare_cost(self, seat: str, zone: str) -> int | None:
        """No lakes or prisons around a battle: no redirection (N-COMBAT-8)."""
        return None

    def ambush_unit(self, seat: str) -> str | None:
        """No pools: no Ambush."""
        return None

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        """Nowhere to move after a win."""
        return []

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        """No units next door."""
        return []

    def strategists(self, seat: str, combat: Combat) -> list[tuple[str, str, int]]:
        """Nobody joins by Strategise (N-ABL-7 needs the game's map)."""
        return []

    def has_strategists(self) -> bool:
        """Nobody joins by Strategise."""
        return False

    def deals_tactics(self) -> bool:
        """No tactic cards in a battle."""
        return False

    def hand(self, seat: str) -> tuple[str, ...]:
        """No hands in a battle."""
        return ()

    def stock(self, seat: str) -> Resources:
        return self.stocks.get(seat, _NOTHING)

    def flare(self, seat: str) -> int:
        return self.flare_of.get(seat, 0)

    def holds_flare(self) -> bool:
        """Only the Naga gain flare, by defeating units (N-CIV-3); a battle starts with none."""
        return any(self.flare_of.values())

    def folded(self, combat: Combat, event: Event) -> SandboxHost:
        """The host with the stocks and flare after ``event``."""
        stocks, flare = fold_stocks(self.stocks, self.flare_of, combat, event)
        if stocks is self.stocks and flare is self.flare_of:
            return self
        return SandboxHost(self.battle, stocks, flare)


_NOTHING: Final = Resources()


def _battle_map(battle: Battle) -> GameMap | None:
    """A battle's small map (``None`` without one)."""
    if not battle.map:
        return None
    return GameMap(
        "sandbox",
        [Zone.plain(z.id, Hex(z.q, z.r), z.biome, base_owner=z.base) for z in battle.map],
    )


def battle_env(pack: ContentPack, state: SandboxState) -> CombatEnv:
    """The battle's environment: its biome card (or none) is drawn, retreats use its small
    map when it has one, and the state's stocks and flare are the sides'."""
    battle = state.battle
    return CombatEnv(pack, _battle_map(battle), SandboxHost(battle, state.stocks, state.flare))


def opened(
    env: CombatEnv,
    state: SandboxState,
    started: messages.CombatStarted,
    combat: Combat,
    dice: DiceStream,
) -> Decided[SandboxState, Event]:
    """The battle opened by ``started`` (``combat`` is what it opens), run on to the first
    decision."""
    drawn = dice.counter
    stepped = run_on(env, combat, dice)
    return _decided(env, state, stepped, (started, *stepped[0]), drawn, dice)


def decided(
    env: CombatEnv,
    state: SandboxState,
    combat: Combat,
    seat: str,
    command: Command,
    dice: DiceStream,
    legal: bool,
) -> Decided[SandboxState, Event]:
    """One combat decision of the battle, in its ``combat`` (``legal``: the command was taken
    from the decision's list)."""
    drawn = dice.counter
    stepped = step(env, combat, seat, command, dice, listed=legal)
    return _decided(env, state, stepped, stepped[0], drawn, dice)


def _decided(
    env: CombatEnv,
    state: SandboxState,
    stepped: Stepped,
    events: tuple[Event, ...],
    drawn: int,
    dice: DiceStream,
) -> Decided[SandboxState, Event]:
    """``events`` with the state after them, as the sandbox's ``evolve`` would fold them
    (the combat and the stocks and flare of ``env``'s host ``stepped`` already folded),
    and the decision reached. Every draw is
    recorded in an event (docs/DICE.md), so the stream's counter is the state's; units are
    lost in a retreat, and the result is known, only once the combat is decided."""
    folded, combat, pending, after_env = stepped
    counter = dice.counter
    if counter == drawn:
        counter = state.counter
    if after_env is not env:  # its host folded events that changed stocks or flare
        host: Any = after_env.host  # a SandboxHost
        state = _replace(state, stocks=host.stocks, flare=host.flare_of)
    if not combat.decided:
        after = _replace(state, combat=combat, counter=counter)
        if pending is None:
            return _new_decided(Decided, (events, after, as_decision(None)))
        seat, options = pending  # Decision.asking, inlined: once per decision
        decision = Decision((seat,), _no_commands, {seat: tuple(options)})
        return _new_decided(Decided, (events, after, decision))
    result, lost = state.result, state.lost_in_retreat
    for event in folded:
        kind = type(event)
        if kind is _ENDED:
            result = event  # type: ignore[assignment]
        elif kind is _RETREATED:
            retreated: Any = event
            if retreated.lost:
                lost = {**lost, retreated.seat: lost.get(retreated.seat, 0) + retreated.count}
    after = _replace(state, combat=combat, counter=counter, result=result, lost_in_retreat=lost)
    return Decided(events, after, as_decision(pending if result is None else None))


_ENDED: Final = messages.CombatEnded
_RETREATED: Final = messages.UnitsRetreated

# Decided(...) without the NamedTuple's generated Python-level __new__ (once per decision).
_new_decided: Final = tuple.__new__


def _no_commands(seat: str) -> tuple[Command, ...]:
    return ()


def as_decision(pending: Pending) -> Decision[Command]:
    """A combat's pending decision as the kernel's :class:`Decision`."""
    if pending is None:
        return Decision((), _no_commands)
    return Decision.asking(pending[0], pending[1])
