"""Kaladan's research hooks: an observation encoder and a stable action codec (the registry's
``observation`` and ``action_codec``, :mod:`nataterra_core.kernel.encoding`).

Both are fixed for a game set-up (pack, seats, map). Orders: seats as seated, tiles sorted
by id, unit *kinds* (a unit type, with ``+`` for its upgraded side; crowns have none) in pack
order, magic card kinds and event cards in pack order.

**Observation** (from a seat view only): the phase, the active and observing seats, each
tile's terrain, castle, upgrade, owner and units by kind, each player's public counts, the
observer's own magic cards (hand and captured, by kind), the decks' sizes and the event
cards drawn, the awaited choice, the scouted cards the observer knows, the fight.

**Actions** (a :class:`~nataterra_core.kernel.encoding.FactoredCodec`, one block per command
type, in this order):

===================  ==================================================================
command              fields and their domains
===================  ==================================================================
draw_event           (one action)
end_phase            phase
recruit              castle x base unit; decline_recruit: castle
move                 directed edge (source, target) x units x haste
swap                 tile pair x (one kind x units, or units of 2+ x one kind)
fight                directed edge x units
place                tile x unit type (not the crown); upgrade: tile x kind (not upgraded)
upgrade_castle       castle; exchange_magic: card kind; buy_magic; buy_captured: 0..15
play_magic           per card kind, the target its effect names: none; tile x kind
                     (Assassin); castle (Sabotage); seat x unit type (Raise the Fallen)
revive               seat x unit type; free_upgrade, lose_unit: tile x kind
scout_order          swap; pass; take_loss: kind; continue_fight; withdraw
move_in              units
===================  ==================================================================

``units`` ranges over every group one army can hold: sorted kinds, one to four of them (the
largest capacity, K-TER-1), at most one crown, one general and one of each special unit
(an army is one player's, and a player has one of each).
"""

from __future__ import annotations

import typing
from collections.abc import Iterator, Mapping
from itertools import combinations_with_replacement
from typing import Any

import attrs

from nataterra_core.kernel import Command, Setup
from nataterra_core.kernel.encoding import (
    Block,
    FactoredCodec,
    Features,
    KeyFunction,
    Layout,
    Segment,
)

from . import messages as m
from .board import Board
from .decider import Kaladan
from .state import Phase, base_of
from .views import SeatView

__all__ = ["KaladanEncoder", "Universe", "kaladan_codec", "kaladan_observation"]

ALL_PHASES: tuple[str, ...] = typing.get_args(Phase)
STAGES = ("attack_magic", "defence_magic", "loss", "continue", "move_in")
CHOICES = ("revive", "upgrade", "lose_unit", "scout", "garrison")
MOST = 4
"""The largest group of units a command names: the largest capacity (K-TER-1)."""


@attrs.frozen
class Universe:
    """Every value a command field can take in games of one set-up (the codec's domains)."""

    seats: tuple[str, ...]
    tiles: tuple[str, ...]
    castles: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    pairs: tuple[tuple[str, str], ...]
    types: tuple[str, ...]
    kinds: tuple[str, ...]
    bases: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...]
    magic: tuple[str, ...]
    events: tuple[str, ...]
    board: Board


def _groups(kinds: tuple[str, ...], single: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Every sorted group of 1..MOST kinds with at most one of each type in ``single``."""
    found = []
    for size in range(1, MOST + 1):
        for group in combinations_with_replacement(sorted(kinds), size):
            types = [base_of(k) for k in group if base_of(k) in single]
            if len(types) == len(set(types)):
                found.append(group)
    return tuple(found)


def universe(decider: Kaladan, setup: Setup) -> Universe:
    """The domains of a game with this set-up (built from its initial state's map)."""
    state = decider.initial_state(setup)
    table = decider.table(state.map_id)
    pack, board = decider.pack, table.board
    specials = {pack.seats[s].special for s in setup.seats}
    types = tuple(u.id for u in pack.units.values() if u.class_ != "special" or u.id in specials)
    kinds = tuple(
        k for t in types for k in ((t,) if pack.units[t].class_ == "crown" else (t, f"{t}+"))
    )
    single = frozenset(u for u in types if pack.units[u].class_ in ("crown", "general", "special"))
    edges = tuple((a, b) for a in board.tiles for b in board.neighbours[a])
    return Universe(
        seats=tuple(setup.seats),
        tiles=board.tiles,
        castles=tuple(sorted(board.castle_of)),
        edges=edges,
        pairs=tuple((a, b) for a, b in edges if a < b),
        types=types,
        kinds=kinds,
        bases=pack.base_units(),
        groups=_groups(kinds, single),
        magic=tuple(pack.magic),
        events=tuple(pack.events),
        board=board,
    )


# -- actions -----------------------------------------------------------------------------


def _edge_key(command: Command) -> Mapping[str, Any]:
    assert isinstance(command, (m.Move, m.Fight))
    key: dict[str, Any] = {"edge": (command.source, command.target), "units": command.units}
    if isinstance(command, m.Move):
        key["haste"] = command.haste
    return key


def _pair_key(command: Command) -> Mapping[str, Any]:
    assert isinstance(command, m.Swap)
    return {"pair": (command.first, command.second), "give": command.give, "take": command.take}


def _blocks(decider: Kaladan, u: Universe) -> Iterator[Block]:
    singles = tuple((k,) for k in u.kinds)
    several = tuple(g for g in u.groups if len(g) > 1)
    placeable = tuple(t for t in u.types if decider.pack.units[t].class_ != "crown")
    plain = tuple(k for k in u.kinds if not k.endswith("+") and k in placeable)
    yield Block(m.DrawEventCard, (), ())
    yield Block(m.EndPhase, (), (("phase", ALL_PHASES),))
    yield Block(m.Recruit, (), (("castle", u.castles), ("unit", u.bases)))
    yield Block(m.DeclineRecruit, (), (("castle", u.castles),))
    yield Block(m.Move, (), (("edge", u.edges), ("units", u.groups), ("haste", (False, True))))
    yield Block(m.Swap, (), (("pair", u.pairs), ("give", singles), ("take", u.groups)))
    yield Block(m.Swap, (), (("pair", u.pairs), ("give", several), ("take", singles)))
    yield Block(m.Fight, (), (("edge", u.edges), ("units", u.groups)))
    yield Block(m.Place, (), (("tile", u.tiles), ("unit", placeable)))
    yield Block(m.Upgrade, (), (("tile", u.tiles), ("unit", plain)))
    yield Block(m.UpgradeCastle, (), (("tile", u.castles),))
    yield Block(m.ExchangeMagic, (), (("card", u.magic),))
    yield Block(m.BuyMagic, (), ())
    yield Block(m.BuyCaptured, (), (("index", tuple(range(len(decider.pack.magic_cards())))),))
    for card in u.magic:
        effect = decider.pack.magic[card].effect.kind
        fixed: tuple[tuple[str, Any], ...] = (("card", card),)
        if effect == "assassinate":
            yield Block(
                m.PlayMagic, (*fixed, ("source", "")), (("tile", u.tiles), ("unit", u.kinds))
            )
        elif effect == "remove_castle_upgrade":
            yield Block(m.PlayMagic, (*fixed, ("unit", ""), ("source", "")), (("tile", u.castles),))
        elif effect == "revive":
            yield Block(
                m.PlayMagic, (*fixed, ("tile", "")), (("unit", u.types), ("source", u.seats))
            )
        else:
            yield Block(m.PlayMagic, (*fixed, ("tile", ""), ("unit", ""), ("source", "")), ())
    yield Block(m.Revive, (), (("source", u.seats), ("unit", u.types)))
    yield Block(m.FreeUpgrade, (), (("tile", u.tiles), ("unit", plain)))
    yield Block(m.LoseUnit, (), (("tile", u.tiles), ("unit", u.kinds)))
    yield Block(m.ScoutOrder, (), (("swap", (False, True)),))
    yield Block(m.Pass, (), ())
    yield Block(m.TakeLoss, (), (("unit", u.kinds),))
    yield Block(m.ContinueFight, (), ())
    yield Block(m.Withdraw, (), ())
    yield Block(m.MoveIn, (), (("units", u.groups),))


def kaladan_codec(decider: Any, setup: Setup) -> FactoredCodec:
    """The action codec of a Kaladan game with this set-up (see the module's table)."""
    assert isinstance(decider, Kaladan)
    keys: dict[type[Command], KeyFunction] = {
        m.Move: _edge_key,
        m.Fight: _edge_key,
        m.Swap: _pair_key,
    }
    return FactoredCodec(_blocks(decider, universe(decider, setup)), keys=keys)


# -- observations ------------------------------------------------------------------------


def _index(values: tuple[str, ...]) -> dict[str, int]:
    return {v: i for i, v in enumerate(values)}


class KaladanEncoder:
    """A Kaladan seat view as features (an ``ObservationEncoder``)."""

    def __init__(self, decider: Kaladan, u: Universe) -> None:
        self.u = u
        self.pack = decider.pack
        self.seat = _index(u.seats)
        self.tile = _index(u.tiles)
        self.kind = _index(u.kinds)
        self.type = _index(u.types)
        self.card = _index(u.magic)
        self.event = _index(u.events)
        n, t, k = len(u.seats), len(u.tiles), len(u.kinds)
        self._layout = Layout(
            (
                Segment("me", n, "one-hot: the observing seat (all 0 for a spectator)"),
                Segment("phase", len(ALL_PHASES), f"one-hot: the phase ({', '.join(ALL_PHASES)})"),
                Segment("active", n, "one-hot: the seat whose turn it is"),
                Segment("turn", 4, "turn, action taken, extra moves, an empty tile taken"),
                Segment("terrain", t * 3, "per tile: plain, mountain, forest"),
                Segment("castle", t * (n + 1), "per tile: castle, then whose home it is"),
                Segment("upgraded", t, "per tile: 1 for an upgraded castle"),
                Segment("owner", t * n, "per tile: one-hot owner (none: empty)"),
                Segment("units", t * k, "per tile and unit kind: units"),
                Segment("players", n * 6, "per seat: gold, scalps, crowns, out, hand, captured"),
                Segment("reserve", n * len(u.types), "per seat and unit type: in reserve"),
                Segment("hand", len(u.magic), "the observer's magic cards by kind"),
                Segment("captured", len(u.magic), "the observer's captured cards by kind"),
                Segment("decks", 4, "event deck, magic deck, magic discard, last round"),
                Segment("events_drawn", len(u.events), "1 for each event card drawn"),
                Segment("scouted", len(u.events), "1 for each event card the observer scouted"),
                Segment("choice", len(CHOICES) + n, "the awaited choice: kind, then seat"),
                Segment("fight", len(STAGES) + 2 * n + 2 * t + k + 3, _FIGHT),
            )
        )

    @property
    def layout(self) -> Layout:
        """The segments, in order."""
        return self._layout

    def encode(self, view: Any) -> list[float]:
        """The features of a Kaladan seat view."""
        assert isinstance(view, SeatView)
        u, f = self.u, self._layout.features()
        n = len(u.seats)
        if view.seat in self.seat:
            f.set("me", self.seat[view.seat], 1)
        f.set("phase", ALL_PHASES.index(view.phase), 1)
        if view.active in self.seat:
            f.set("active", self.seat[view.active], 1)
        f.put("turn", [view.turn, view.action_done, view.extra_moves, bool(view.placed_empty)])
        for tile, i in self.tile.items():
            f.set(
                "terrain", i * 3 + ("plain", "mountain", "forest").index(u.board.terrain[tile]), 1
            )
            home = u.board.castle_of.get(tile)
            if home is not None:
                f.set("castle", i * (n + 1), 1)
                f.set("castle", i * (n + 1) + 1 + self.seat[home], 1)
            if tile in view.castle_upgrades:
                f.set("upgraded", i, 1)
        for tile, army in view.board.items():
            i = self.tile[tile]
            f.set("owner", i * n + self.seat[army.owner], 1)
            for unit in army.units:
                f.add("units", i * len(u.kinds) + self.kind[unit], 1)
        for p in view.players:
            s = self.seat[p.seat]
            stats = [
                p.gold,
                len(p.graveyard),
                p.crowns,
                p.eliminated,
                p.hand_count,
                p.captured_count,
            ]
            f.put("players", stats, s * 6)
            for unit, count in p.reserve.items():
                f.add("reserve", s * len(u.types) + self.type[unit], count)
            for name, cards in (("hand", p.hand), ("captured", p.captured)):
                for card in cards or ():
                    f.add(name, self.card[card], 1)
        final = view.final_order is not None
        f.put(
            "decks", [view.event_deck_count, view.magic_deck_count, len(view.magic_discard), final]
        )
        for card in view.event_discard:
            f.set("events_drawn", self.event[card], 1)
        for card in view.scouted:
            f.set("scouted", self.event[card], 1)
        if view.pending:
            choice = view.pending[0]
            f.set("choice", CHOICES.index(choice.kind), 1)
            f.set("choice", len(CHOICES) + self.seat[choice.seat], 1)
        if view.combat is not None:
            self._fight(f, view)
        return f.values

    def _fight(self, f: Features, view: SeatView) -> None:
        c = view.combat
        assert c is not None
        n, t = len(self.u.seats), len(self.u.tiles)
        at = len(STAGES)
        f.set("fight", STAGES.index(c.stage), 1)
        f.set("fight", at + self.seat[c.attacker], 1)
        f.set("fight", at + n + self.seat[c.defender], 1)
        f.set("fight", at + 2 * n + self.tile[c.source], 1)
        f.set("fight", at + 2 * n + t + self.tile[c.target], 1)
        for unit in c.committed:
            f.add("fight", at + 2 * n + 2 * t + self.kind[unit], 1)
        end = at + 2 * n + 2 * t + len(self.u.kinds)
        f.put("fight", [c.round, len(c.attack_bonus), len(c.defence_bonus)], end)


_FIGHT = (
    "the fight: stage one-hot, attacker, defender, source tile, target tile, committed units "
    "by kind, round, attack and defence dice added by cards"
)


def kaladan_observation(decider: Any, setup: Setup) -> KaladanEncoder:
    """The observation encoder of a Kaladan game with this set-up."""
    assert isinstance(decider, Kaladan)
    return KaladanEncoder(decider, universe(decider, setup))
