"""Nataterra's and the combat sandbox's observation encoders (the registry's ``observation``).

An encoder turns a **seat view** (never the state) into a flat list of floats whose layout is
fixed for a game set-up (pack, seats, options): ``encoder.layout.describe()`` prints every
segment with its offset, size and meaning. Values are raw counts and flags (no scaling), so
nothing is lost; indices follow the set-up's orders: seats as seated, unit types and cards
in pack order, zones sorted by id (see :class:`~.actions.Universe`).

A game view holds the map (each zone's biome and resource), every stack on it (count and
units not yet moved), structures, each player's public state, the seat's own hands, biome
decks and discards, victory cubes, teams and the combat being fought; a sandbox view holds
its combat. Other seats' hands appear only as counts, as in the view itself.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Any

from nataterra_core.games.nataterra.content.schema import Biome, ContentPack, Resource
from nataterra_core.kernel import Setup
from nataterra_core.kernel.encoding import Features, Layout, Segment

from ..decider import Nataterra
from ..rules.combat.model import Combat, Stage
from ..rules.combat.sandbox import Sandbox
from ..rules.hexmap import build_map
from ..state import Phase
from ..views import SeatView
from .actions import Universe, battle_universe, game_universe

__all__ = ["BattleEncoder", "GameEncoder", "nataterra_observation", "sandbox_observation"]

BIOMES: tuple[str, ...] = typing.get_args(Biome)
RESOURCES: tuple[str, ...] = typing.get_args(Resource)
PHASES: tuple[str, ...] = typing.get_args(Phase)
STAGES: tuple[str, ...] = typing.get_args(Stage)
SLOTS = ("melee", "ranged", "flex")
GROUP_STATS = (
    "units",
    "attack",
    "armor",
    "health",
    "damage",
    "injury",
    "initiative",
    "attack_bonus",
    "armor_bonus",
    "acted_this_round",
)
PLAYER_STATS = (
    *(f"stock_{r}" for r in RESOURCES),
    *(f"multiplier_{r}" for r in RESOURCES),
    "flare",
    "worker_supply",
    "tech_hand_count",
    "tech_deck_count",
    "tactic_hand_count",
    "tactic_deck_count",
    "cubes",
    "base_destroyed",
)


def _index(values: Sequence[str]) -> dict[str, int]:
    return {v: i for i, v in enumerate(values)}


class _CombatPart:
    """The segments of a combat, shared by the game's combat phase and the sandbox."""

    def __init__(self, u: Universe, pack: ContentPack) -> None:
        self.u = u
        self.seat = _index(u.seats)
        self.zone = _index(u.zones)
        self.fighter = _index(tuple(u.tokens))
        self.card = _index(u.tactics)
        self.biome_card = _index(tuple(pack.biome_cards))
        self.stage = _index(STAGES)
        self.group_width = len(u.seats) + len(self.fighter) + len(SLOTS) + len(GROUP_STATS)

    def segments(self) -> list[Segment]:
        n, g = len(self.u.seats), self.u.groups
        return [
            Segment("combat_on", 1, "1 while a combat is fought"),
            Segment("combat_zone", len(self.u.zones), "one-hot: the combat's zone"),
            Segment("combat_biome", len(BIOMES), f"one-hot: its biome ({', '.join(BIOMES)})"),
            Segment("combat_sides", n * 2, "per seat: attacks, defends (allies too)"),
            Segment("combat_stage", len(STAGES), "one-hot: the combat's stage"),
            Segment("combat_round", 1, "the round (0 before the first)"),
            Segment(
                "combat_biome_card", len(self.biome_card), "one-hot: the biome card, once revealed"
            ),
            Segment(
                "combat_groups",
                g * self.group_width,
                f"per group id 0..{g - 1}: owner one-hot (seats), unit one-hot (unit types "
                f"and fighting structures), slot one-hot ({', '.join(SLOTS)}), then "
                f"{', '.join(GROUP_STATS)}",
            ),
            Segment("combat_active", g, "one-hot: the group acting"),
            Segment("combat_target", g, "one-hot: the group attacked"),
            Segment(
                "combat_reserve",
                n * len(self.fighter),
                "per seat and unit type: units not on a board",
            ),
            Segment("combat_hand", len(self.card), "the seat's own tactic cards in the combat"),
            Segment("combat_hand_counts", n, "per seat: tactic cards held in the combat"),
            Segment("combat_winner", n, "one-hot: the combat's winner, once decided"),
        ]

    def write(
        self,
        f: Features,
        combat: Combat | None,
        me: str | None,
        hand: tuple[str, ...] = (),
        hand_counts: dict[str, int] | None = None,
    ) -> None:
        """The combat's features; ``hand`` is ``me``'s tactic hand and ``hand_counts`` the
        fighters' hand sizes (the players', a combat keeps no copy; a battle has none)."""
        hand_counts = hand_counts or {}
        if combat is None:
            return
        f.set("combat_on", 0, 1)
        if combat.zone in self.zone:
            f.set("combat_zone", self.zone[combat.zone], 1)
        if combat.biome in BIOMES:
            f.set("combat_biome", BIOMES.index(combat.biome), 1)
        for seat in combat.seats:
            if seat in self.seat:
                side = 0 if combat.side(seat) == combat.attacker else 1
                f.set("combat_sides", self.seat[seat] * 2 + side, 1)
        f.set("combat_stage", self.stage[combat.stage], 1)
        f.set("combat_round", 0, combat.round)
        if combat.revealed and combat.biome_card in self.biome_card:
            f.set("combat_biome_card", self.biome_card[combat.biome_card], 1)
        n, units = len(self.u.seats), len(self.fighter)
        for group in combat.groups:
            base = group.id * self.group_width
            f.set("combat_groups", base + self.seat[group.owner], 1)
            f.set("combat_groups", base + n + self.fighter[group.unit], 1)
            f.set("combat_groups", base + n + units + SLOTS.index(group.slot), 1)
            stats = base + n + units + len(SLOTS)
            values = (
                group.units,
                group.attack,
                group.armor,
                group.health,
                group.damage,
                group.injury,
                group.initiative,
                group.attack_bonus,
                group.armor_bonus,
                int(group.acted == combat.round and combat.round > 0),
            )
            for i, value in enumerate(values):
                f.set("combat_groups", stats + i, value)
        if combat.active >= 0:
            f.set("combat_active", combat.active, 1)
        if combat.target >= 0:
            f.set("combat_target", combat.target, 1)
        for force in combat.reserve:
            at = self.seat[force.owner] * units + self.fighter[force.unit]
            f.add("combat_reserve", at, force.count)
        for card in hand:
            f.add("combat_hand", self.card[card], 1)
        for seat, count in hand_counts.items():
            f.set("combat_hand_counts", self.seat[seat], count)
        if combat.winner in self.seat:
            f.set("combat_winner", self.seat[combat.winner], 1)


class GameEncoder:
    """A Nataterra seat view as features (an ``ObservationEncoder``)."""

    def __init__(self, pack: ContentPack, universe: Universe) -> None:
        u = self.u = universe
        self.pack = pack
        self.seat = _index(u.seats)
        self.zone = _index(u.zones)
        self.unit = _index(u.units)
        self.structure = _index(u.structures)
        self.card = _index(u.tactics)
        self.tech = _index(u.techs)
        self.condition = _index(tuple(pack.victory_conditions))
        self.biome_card = _index(tuple(pack.biome_cards))
        self.combat = _CombatPart(u, pack)
        self._maps: dict[str, tuple[tuple[int, float], ...]] = {}
        n, z, un, s = len(u.seats), len(u.zones), len(u.units), len(u.structures)
        self._layout = Layout(
            (
                Segment("me", n, "one-hot: the observing seat (all 0 for a spectator)"),
                Segment("turn", 2, "the turn, and the turn limit (0: none)"),
                Segment("phase", len(PHASES), f"one-hot: the phase ({', '.join(PHASES)})"),
                Segment("active", n, "one-hot: the seat whose turn it is"),
                Segment("first", n, "one-hot: the first player"),
                Segment("zone_on_map", z, "1 for each zone on the map (structured maps grow)"),
                Segment("zone_biome", z * len(BIOMES), "per zone: biome one-hot"),
                Segment("zone_resource", z * len(RESOURCES), "per zone: resource one-hot"),
                Segment("zone_base", z * n, "per zone: whose base it is"),
                Segment("units", z * n * un, "per zone, owner and unit type: units"),
                Segment("unmoved", z * n * un, "per zone, owner and unit type: not yet moved"),
                Segment("structures", z * n * s, "per zone, owner and structure: 1 if built"),
                Segment("structure_cubes", z, "per zone: cubes on its structure (Soul Prison)"),
                Segment(
                    "players",
                    n * len(PLAYER_STATS),
                    f"per seat: {', '.join(PLAYER_STATS)}",
                ),
                Segment("pool", n * un, "per seat and unit type: recruitable tokens"),
                Segment("locked", n * un, "per seat and unit type: locked tokens"),
                Segment("sides", n * un * 2, "per seat and unit type: group card side a, b"),
                Segment("movement_mods", n * un, "per seat and unit type: movement change"),
                Segment(
                    "cost_mods", n * un * len(RESOURCES), "per seat and unit type: cost change"
                ),
                Segment("unlocked", n * s, "per seat and structure: may build it"),
                Segment("techs", n * len(self.tech), "per seat and tech: researched"),
                Segment("tactic_discards", n * len(self.card), "per seat and card: discarded"),
                Segment("my_tactics", len(self.card), "the seat's own tactic hand"),
                Segment("my_techs", len(self.tech), "the seat's own tech hand"),
                Segment("biome_decks", len(BIOMES), "per biome: cards left in its deck"),
                Segment("biome_discards", len(self.biome_card), "per biome card: discarded"),
                Segment("conditions", len(self.condition), "victory conditions in play"),
                Segment(
                    "condition_cubes",
                    n * len(self.condition),
                    "per seat and victory condition: cubes",
                ),
                Segment("allies", n * n, "per pair of seats: 1 when in one team"),
                Segment("structuring", 3, "map structuring: going on, tiles placed, modifiers"),
                Segment(
                    "my_map_tiles",
                    len(u.structuring.map_tiles) if u.structuring else 0,
                    "the seat's own map tiles while structuring",
                ),
                *self.combat.segments(),
                Segment("over", 1, "1 once the game is over"),
                Segment("winners", n, "per seat: among the winners"),
            )
        )
        self._map_tile = _index(u.structuring.map_tiles if u.structuring else ())

    @property
    def layout(self) -> Layout:
        """The segments, in order."""
        return self._layout

    def _map_features(self, map_id: str) -> tuple[tuple[int, float], ...]:
        """The map's features (zones, biomes, resources, bases) as (position, value) pairs,
        worked out once per map (a structured map's id changes as it is built)."""
        found = self._maps.get(map_id)
        if found is None:
            if len(self._maps) > 8:
                self._maps.clear()
            found = self._maps[map_id] = self._map_pairs(map_id)
        return found

    def _map_pairs(self, map_id: str) -> tuple[tuple[int, float], ...]:
        try:
            game_map = build_map(self.pack, map_id)
        except (KeyError, ValueError):
            return ()
        f = self._layout.features()
        n = len(self.u.seats)
        for zone in game_map.zones.values():
            z = self.zone.get(zone.id)
            if z is None:
                continue
            f.set("zone_on_map", z, 1)
            f.set("zone_biome", z * len(BIOMES) + BIOMES.index(zone.biome), 1)
            if zone.resource is not None:
                f.set("zone_resource", z * len(RESOURCES) + RESOURCES.index(zone.resource), 1)
            if zone.base_owner in self.seat:
                f.set("zone_base", z * n + self.seat[zone.base_owner], 1)
        return tuple((i, v) for i, v in enumerate(f.values) if v)

    def encode(self, view: Any) -> list[float]:
        """The features of a :class:`~..views.SeatView`."""
        if not isinstance(view, SeatView):
            raise TypeError(f"not a Nataterra seat view: {type(view).__name__}")
        f = self._layout.features()
        n, un, s = len(self.u.seats), len(self.unit), len(self.structure)
        seat = self.seat
        if view.seat in seat:
            f.set("me", seat[view.seat], 1)
        f.put("turn", (view.turn, view.max_turns))
        f.set("phase", PHASES.index(view.phase), 1)
        if view.active in seat:
            f.set("active", seat[view.active], 1)
        if view.first in seat:
            f.set("first", seat[view.first], 1)
        self._write_map(f, view)
        for stack in view.units:
            at = (self.zone[stack.zone] * n + seat[stack.owner]) * un + self.unit[stack.unit]
            f.add("units", at, stack.count)
            f.add("unmoved", at, stack.unmoved)
        for placed in view.structures:
            z = self.zone[placed.zone]
            f.set(
                "structures", (z * n + seat[placed.owner]) * s + self.structure[placed.structure], 1
            )
            f.add("structure_cubes", z, placed.cubes)
        for player in view.players:
            self._write_player(f, view, player)
        for biome, count in view.biome_deck_counts.items():
            f.set("biome_decks", BIOMES.index(biome), count)
        for cards in view.biome_discards.values():
            for card in cards:
                f.add("biome_discards", self.biome_card[card], 1)
        for condition in view.conditions:
            f.set("conditions", self.condition[condition], 1)
        for owner, by in view.condition_cubes.items():
            for condition, cubes in by.items():
                f.set(
                    "condition_cubes",
                    seat[owner] * len(self.condition) + self.condition[condition],
                    cubes,
                )
        for team in view.teams:
            for a in team:
                for b in team:
                    f.set("allies", seat[a] * n + seat[b], 1)
        self._write_structuring(f, view)
        combat = view.combat
        if combat is not None:  # the fighters' hands are their players' (own: seen)
            fighters = combat.seats
            players = {p.civ: p for p in view.players if p.civ in fighters}
            own = players.get(view.seat or "")
            hand = own.tactic_hand if own is not None and own.tactic_hand else ()
            counts = {civ: p.tactic_hand_count for civ, p in players.items()}
            self.combat.write(f, combat, view.seat, hand, counts)
        f.set("over", 0, int(view.phase == "over"))
        for winner in view.winners:
            f.set("winners", seat[winner], 1)
        return f.values

    def _write_map(self, f: Features, view: SeatView) -> None:
        values = f.values
        for position, value in self._map_features(view.map_id):
            values[position] = value

    def _write_player(self, f: Features, view: SeatView, player: Any) -> None:
        i, un = self.seat[player.civ], len(self.unit)
        width = len(PLAYER_STATS)
        stats = (
            player.stock.food,
            player.stock.wood,
            player.stock.metal,
            player.multipliers.food,
            player.multipliers.wood,
            player.multipliers.metal,
            player.flare,
            player.worker_supply,
            player.tech_hand_count,
            player.tech_deck_count,
            player.tactic_hand_count,
            player.tactic_deck_count,
            view.cubes.get(player.civ, 0),
            int(player.civ in view.bases_destroyed),
        )
        for k, value in enumerate(stats):
            f.set("players", i * width + k, value)
        for unit, count in player.pool.items():
            f.set("pool", i * un + self.unit[unit], count)
        for unit, count in player.locked.items():
            f.set("locked", i * un + self.unit[unit], count)
        for unit, side in player.sides.items():
            f.set("sides", (i * un + self.unit[unit]) * 2 + ("a", "b").index(side), 1)
        for unit, change in player.movement_mods.items():
            f.set("movement_mods", i * un + self.unit[unit], change)
        for unit, cost in player.cost_mods.items():
            at = (i * un + self.unit[unit]) * len(RESOURCES)
            f.put("cost_mods", (cost.food, cost.wood, cost.metal), at)
        for structure in player.structures_unlocked:
            f.set("unlocked", i * len(self.structure) + self.structure[structure], 1)
        for tech in player.techs:
            f.set("techs", i * len(self.tech) + self.tech[tech], 1)
        for card in player.tactic_discard:
            f.add("tactic_discards", i * len(self.card) + self.card[card], 1)
        for card in player.tactic_hand or ():
            f.add("my_tactics", self.card[card], 1)
        for tech in player.tech_hand or ():
            f.add("my_techs", self.tech[tech], 1)

    def _write_structuring(self, f: Features, view: SeatView) -> None:
        s = view.structuring
        if s is None:
            return
        f.put("structuring", (1, len(s.tiles), len(s.modifiers)))
        for tile in s.hand or ():
            if tile in self._map_tile:
                f.add("my_map_tiles", self._map_tile[tile], 1)


class BattleEncoder:
    """A sandbox battle view as features: its combat, and who won."""

    def __init__(self, pack: ContentPack, universe: Universe) -> None:
        self.u = universe
        self.seat = _index(universe.seats)
        self.combat = _CombatPart(universe, pack)
        n = len(universe.seats)
        self._layout = Layout(
            (
                Segment("me", n, "one-hot: the observing seat (all 0 for a spectator)"),
                *self.combat.segments(),
                Segment("over", 1, "1 once the battle is decided"),
                Segment("winners", n, "one-hot: the battle's winner"),
            )
        )

    @property
    def layout(self) -> Layout:
        """The segments, in order."""
        return self._layout

    def encode(self, view: Any) -> list[float]:
        """The features of a sandbox view (``SandboxView``)."""
        f = self._layout.features()
        if view.seat in self.seat:
            f.set("me", self.seat[view.seat], 1)
        self.combat.write(f, view.combat, view.seat)  # a battle deals no hands
        ended = view.combat is not None and view.combat.stage == "end"
        if view.winner is not None or ended:
            f.set("over", 0, 1)
            if view.winner in self.seat:
                f.set("winners", self.seat[view.winner], 1)
        return f.values


def nataterra_observation(decider: Any, setup: Setup) -> GameEncoder:
    """The observation encoder of a Nataterra game with this set-up."""
    assert isinstance(decider, Nataterra)
    return GameEncoder(decider.pack, game_universe(decider, setup))


def sandbox_observation(decider: Any, setup: Setup) -> BattleEncoder:
    """The observation encoder of a sandbox battle with this set-up."""
    assert isinstance(decider, Sandbox)
    return BattleEncoder(decider.pack, battle_universe(decider, setup))
