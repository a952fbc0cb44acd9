"""Helpers for ``test_rule_gaps.py``: a hand-made position driven through the Nataterra
decider, and a combat with tactic hands driven through the combat flow."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec
from combat_helpers import any_dice
from positions import Table, position

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.games.nataterra.messages.tactics import TacticCardDrawn
from nataterra_core.games.nataterra.rules.combat.flow import (
    CombatEnv,
    advance,
    combat_from_start,
    decide_combat,
    decision,
    evolve_with_host,
    start_combat,
)
from nataterra_core.games.nataterra.rules.combat.host import Answers
from nataterra_core.games.nataterra.rules.combat.model import Force, Group
from nataterra_core.games.nataterra.rules.hexmap import GameMap
from nataterra_core.games.nataterra.state import Phase, Resources
from nataterra_core.kernel import Command, DiceStream, Event

SEED_NUMBER = 31
TACTICS_PACK: ContentPack = load_pack(
    Path(__file__).resolve().parents[1] / "packs" / "made_up_tactics"
)
"""The provisional pack with made-up tactic options (``tests/packs/made_up_tactics``)."""


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
    ctx, state = position(game_map, units, seats=seats, active=active, phase=phase, pack=pack)
    for seat, changes in players.items():
        state = state.with_player(msgspec.structs.replace(state.player(seat), **changes))
    return Table(ctx, state, seed_number=SEED_NUMBER)


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
        started = start_combat(
            zone="test",
            biome="forest",
            attacker=attacker,
            defender=defender,
            forces=[Force(o, u, n) for o, u, n in forces],
            sides={attacker: {}, defender: {}},
            stocks={attacker: Resources(5, 5, 5), defender: Resources(5, 5, 5)},
        )
        self.env = CombatEnv(
            pack,
            host=Answers(
                draw_tactics=lambda seat, dice: (TacticCardDrawn(seat=seat, card="fearless"),),
                hands=dict(hands or {}),
                stocks=started.stocks,
                flare=started.flare,
            ),
        )
        self.combat = combat_from_start(started)
        self.events: list[Event] = [started]
        self._fold(advance(self.env, self.combat, any_dice())[0])

    def _fold(self, events: Sequence[Event]) -> None:
        for event in events:
            self.env, self.combat = evolve_with_host(self.env, self.combat, event)
            self.events.append(event)

    @property
    def pending(self) -> tuple[str, list[Command]]:
        found = decision(self.env, self.combat)
        assert found is not None, f"no decision pending in stage {self.combat.stage}"
        return found[0], list(found[1])

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
