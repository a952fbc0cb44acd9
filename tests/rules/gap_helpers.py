"""Helpers for ``test_rule_gaps.py``: a hand-made position driven through the Nataterra
decider, and a combat with tactic hands driven through the combat flow."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec
from combat_helpers import any_dice

from nataterra_core.content import load_pack
from nataterra_core.content.schema import ContentPack
from nataterra_core.kernel import Command, DiceStream, Event, seed_from_number
from nataterra_core.rules.combat.flow import (
    CombatEnv,
    advance,
    combat_from_start,
    decide_combat,
    decision,
    evolve_combat,
    start_combat,
)
from nataterra_core.rules.combat.model import Force, Group
from nataterra_core.rules.combat.policies import DefaultPolicy
from nataterra_core.rules.context import Context
from nataterra_core.rules.game import Nataterra
from nataterra_core.rules.hexmap import GameMap
from nataterra_core.rules.setup import GameOptions, initial_state
from nataterra_core.rules.state import GameState, Phase, Resources, UnitStack
from nataterra_core.rules.tactics import TacticCardDrawn

SEED, GAME = seed_from_number(31)
TACTICS_PACK: ContentPack = load_pack(
    Path(__file__).resolve().parents[1] / "packs" / "made_up_tactics"
)
"""The provisional pack with made-up tactic options (``tests/packs/made_up_tactics``)."""


class Table:
    """A hand-made position played through the Nataterra decider."""

    def __init__(self, ctx: Context, state: GameState) -> None:
        self.ctx = ctx
        self.state = msgspec.structs.replace(state, counter=0)
        self.decider = Nataterra(ctx.pack, contexts=[ctx])
        self.events: list[Event] = []

    @property
    def seat(self) -> str:
        return self.decider.acting_seats(self.state)[0]

    def legal(self, seat: str | None = None) -> list[Command]:
        return list(self.decider.legal_commands(self.state, seat or self.seat))

    def play(
        self, command: Command, seat: str | None = None, dice: DiceStream | None = None
    ) -> list[Event]:
        """Play ``command``; ``dice`` forces the die faces (default: the game's stream)."""
        seat = seat or self.seat
        dice = dice or DiceStream(SEED, GAME, "", self.state.counter)
        events = list(self.decider.decide(self.state, command, dice, seat=seat))
        for event in events:
            self.state = self.decider.evolve(self.state, event)
        self.events.extend(events)
        return events

    def fight_out(self, choose: object = None) -> None:
        """Play the combat in progress: ``choose(combat, seat, options)`` first (``None``:
        no preference), else the default policy."""
        policy = DefaultPolicy(self.ctx.pack)
        while self.state.combat is not None:
            seat = self.seat
            options = self.legal(seat)
            chosen = choose(self.state.combat, seat, options) if callable(choose) else None
            self.play(chosen or policy.choose(self.state.combat, seat, options), seat)

    def of(self, kind: type[Event]) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]

    def count(self, owner: str, unit: str, zone: str) -> int:
        return sum(
            s.count for s in self.state.units if (s.owner, s.unit, s.zone) == (owner, unit, zone)
        )


def table(
    game_map: GameMap,
    units: Iterable[tuple[str, str, str, int]],
    *,
    seats: tuple[str, ...] = ("velathi", "beasts"),
    active: str = "velathi",
    phase: Phase = "movement",
    pack: ContentPack | None = None,
    **players: dict[str, object],
) -> Table:
    """A :class:`Table` with exactly ``units`` on ``game_map``; ``players`` maps a seat to
    fields of its player state to replace (``velathi={"flare": 3}``)."""
    ctx = Context(pack or load_pack(), game_map)
    state = initial_state(ctx, seats, GameOptions())
    stacks = tuple(sorted(UnitStack(o, u, z, n) for o, u, z, n in units))
    state = msgspec.structs.replace(
        state, units=stacks, active=seats.index(active), turn=1, phase=phase
    )
    for seat, changes in players.items():
        state = state.with_player(msgspec.structs.replace(state.player(seat), **changes))
    return Table(ctx, state)


class HandFight:
    """One combat through the combat flow with tactic hands (cards drawn are ``fearless``)."""

    def __init__(
        self,
        attacker: str,
        defender: str,
        forces: Iterable[tuple[str, str, int]],
        *,
        hands: dict[str, tuple[str, ...]] | None = None,
        pack: ContentPack = TACTICS_PACK,
    ) -> None:
        self.pack = pack
        self.env = CombatEnv(
            pack,
            draw_tactics=lambda seat, dice: (TacticCardDrawn(seat=seat, card="fearless"),),
        )
        started = start_combat(
            zone="test",
            biome="forest",
            attacker=attacker,
            defender=defender,
            forces=[Force(o, u, n) for o, u, n in forces],
            sides={attacker: {}, defender: {}},
            stocks={attacker: Resources(5, 5, 5), defender: Resources(5, 5, 5)},
        )
        self.combat = combat_from_start(started, dict(hands or {}))
        self.events: list[Event] = [started]
        self._fold(advance(self.env, self.combat, any_dice())[0])

    def _fold(self, events: Sequence[Event]) -> None:
        for event in events:
            self.combat = evolve_combat(self.pack, self.combat, event)
            self.events.append(event)

    @property
    def pending(self) -> tuple[str, list[Command]]:
        found = decision(self.env, self.combat)
        assert found is not None, f"no decision pending in stage {self.combat.stage}"
        return found

    def decide(self, command: Command, dice: DiceStream | None = None) -> list[Event]:
        seat = self.pending[0]
        events = decide_combat(self.env, self.combat, seat, command, dice or any_dice())
        self._fold(events)
        return list(events)

    def group(self, owner: str, unit: str) -> Group:
        return next(g for g in self.combat.groups if g.owner == owner and g.unit == unit)

    def set_group(self, group_id: int, **changes: object) -> None:
        group = msgspec.structs.replace(self.combat.groups[group_id], **changes)
        groups = list(self.combat.groups)
        groups[group_id] = group
        self.combat = msgspec.structs.replace(self.combat, groups=tuple(groups))

    def of(self, kind: type[Event]) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]
