"""BattleLore's research hooks: an observation encoder on seat views and a stable action
codec (``kernel/encoding.py``; issue 19 items 2 and 3).

Both are built for one set-up (the scenario fixes the units and their ids; the pack the
cards, hexes and terrain). The observation is from the observing seat's side ("mine" and
"theirs"; a spectator sees from the first side) and holds only what its view shows.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Setup
from nataterra_core.kernel.encoding import Block, FactoredCodec, Layout, Segment

from . import messages as m
from .board import Point, to_hex
from .decider import BattleLore
from .state import BattleLoreState
from .views import SeatView

__all__ = ["BattleLoreObservation", "codec", "observation"]

PHASES = ("setup", "card", "order", "move", "battle", "draw", "over")
STAGES = ("flags", "retreat", "take_ground", "pursuit", "bonus", "battle_back", "lore")
KINDS = ("foot", "archers", "mounted", "creature")
BANNERS = ("green", "blue", "red")
PER_HEX = ("mine", "theirs", "figures", *KINDS, *BANNERS, "ordered", "moved", "battled")


def _start(decider: BattleLore, setup: Setup) -> BattleLoreState:
    return decider.initial_state(setup)


def _hexes(decider: BattleLore, state: BattleLoreState) -> tuple[Point, ...]:
    rules = decider.pack.rules
    return tuple(
        (h.q, h.r)
        for r in range(rules.rows)
        for c in range(rules.columns - r % 2)
        if (h := to_hex(c, r))
    )


class BattleLoreObservation:
    """A seat view as features: per hex its terrain and unit, then cards, medals, lore,
    the step of the turn and the battle in progress."""

    def __init__(self, decider: BattleLore, setup: Setup) -> None:
        pack = decider.pack
        self._world = decider.world(_start(decider, setup).scenario)
        self._hexes = _hexes(decider, _start(decider, setup))
        self._hex_index = {h: i for i, h in enumerate(self._hexes)}
        self._terrain = tuple(sorted(pack.terrain))
        self._cards = tuple(sorted(pack.cards))
        self._lore = tuple(sorted(pack.lore))
        n = len(self._hexes)
        self.layout = Layout(
            (
                Segment("terrain", n * len(self._terrain), f"per hex, one-hot {self._terrain}"),
                Segment("units", n * len(PER_HEX), f"per hex: {', '.join(PER_HEX)}"),
                Segment("hand", len(self._cards), f"copies of each card in my hand {self._cards}"),
                Segment("card", len(self._cards), "one-hot: the card played this turn"),
                Segment(
                    "sides", 8, "mine/theirs: medals/10, hand size/8, lore tokens/10, lore cards/4"
                ),
                Segment(
                    "lore", len(self._lore), f"copies of each lore card in my hand {self._lore}"
                ),
                Segment("phase", len(PHASES), f"one-hot {PHASES}"),
                Segment("turn", 3, "turn/100, my turn, the deck size/40"),
                Segment(
                    "combat",
                    len(STAGES) + 4,
                    f"one-hot stage {STAGES}; flags/4, hits/4, I defend, I attack",
                ),
            )
        )

    def encode(self, view: Any) -> list[float]:
        """The features of a BattleLore seat view."""
        assert isinstance(view, SeatView)
        me = view.seat or view.sides[0].seat
        f = self.layout.features()
        for i, hex_ in enumerate(self._hexes):
            f.set(
                "terrain",
                i * len(self._terrain) + self._terrain.index(self._world.terrain_at(hex_).id),
                1,
            )
        width = len(PER_HEX)
        for unit in view.units:
            at = self._hex_index[unit.hex] * width
            kind = self._world.type_of(unit)
            f.set("units", at + (0 if unit.side == me else 1), 1)
            f.set("units", at + 2, unit.figures / 4)
            f.set("units", at + 3 + KINDS.index(kind.kind), 1)
            f.set("units", at + 7 + BANNERS.index(kind.banner), 1)
            for n, group in enumerate((view.ordered, view.moved, view.battled)):
                f.set("units", at + 10 + n, float(unit.id in group))
        sides = sorted(view.sides, key=lambda s: s.seat != me)
        for card in sides[0].hand or ():
            f.add("hand", self._cards.index(card), 1)
        if view.card in self._cards:
            f.set("card", self._cards.index(view.card), 1)
        for n, side in enumerate(sides):
            f.put(
                "sides",
                [
                    side.medals / 10,
                    side.hand_size / 8,
                    side.lore_tokens / 10,
                    side.lore_hand_size / 4,
                ],
                n * 4,
            )
        for card in sides[0].lore_hand or ():
            f.add("lore", self._lore.index(card), 1)
        f.set("phase", PHASES.index(view.phase), 1)
        f.put("turn", [view.turn / 100, float(view.active == me), view.deck_size / 40])
        combat = view.combat
        if combat is not None:
            units = {u.id: u for u in view.units}
            defender, attacker = units.get(combat.defender), units.get(combat.attacker)
            f.set("combat", STAGES.index(combat.stage), 1)
            f.put(
                "combat",
                [
                    combat.flags / 4,
                    combat.hits / 4,
                    float(defender is not None and defender.side == me),
                    float(attacker is not None and attacker.side == me),
                ],
                len(STAGES),
            )
        return f.values


def observation(decider: Any, setup: Setup) -> BattleLoreObservation:
    """The observation hook."""
    return BattleLoreObservation(decider, setup)


def codec(decider: Any, setup: Setup) -> FactoredCodec:
    """The action-codec hook: every command a seat sends, by its fields, for this set-up."""
    start = _start(decider, setup)
    pack = decider.pack
    units = tuple(u.id for u in start.units)
    hexes = _hexes(decider, start)
    cards = tuple(sorted(pack.cards))
    seats = start.seats
    blocks = [
        Block(m.PlayCard, (), (("card", cards),)),
        Block(m.OrderUnit, (), (("unit", units),)),
        Block(m.MoveUnit, (), (("unit", units), ("to", hexes))),
        Block(m.BattleUnit, (), (("unit", units), ("target", units))),
        Block(m.Retreat, (), (("to", hexes),)),
        Block(m.Pursue, (), (("to", hexes),)),
        Block(m.BonusBattle, (), (("target", units),)),
        Block(m.KeepCard, (), (("seat", seats), ("card", cards))),
        *(
            Block(c, (), ())
            for c in (
                m.FinishOrders,
                m.FinishMoves,
                m.FinishBattles,
                m.IgnoreFlag,
                m.AcceptFlags,
                m.TakeGround,
                m.BattleBack,
                m.Decline,
                m.SkipCard,
            )
        ),
    ]
    if decider.world(start.scenario).scenario.lore:
        lore = tuple(sorted(pack.lore))
        blocks.append(Block(m.KeepLore, (), (("seat", seats), ("card", lore))))
        for card in lore:
            effect = pack.lore[card].effect
            if effect == "teleport":
                blocks.append(
                    Block(m.PlayLore, (("card", card),), (("unit", units), ("to", hexes)))
                )
            elif effect in ("damage", "heal", "extra_die"):
                blocks.append(Block(m.PlayLore, (("card", card), ("to", None)), (("unit", units),)))
            else:
                blocks.append(Block(m.PlayLore, (("card", card), ("unit", ""), ("to", None)), ()))
    return FactoredCodec(blocks)
