"""Read-only questions about a position: terrain, sections, orders, moves, targets and dice.

A :class:`World` is one scenario of one pack on its board; every rule the decider and the
bots share is asked here once (movement B-UNIT-2, ordering B-CMD-1, battle B-BAT-1/2,
terrain B-TER-1, morale B-RET-2).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from nataterra_core.boards.hexgrid import canonical_paths

from ..board import Board, Point, distance, to_hex
from ..content import load_pack
from ..content.schema import BattleLorePack, CommandCard, Scenario, Terrain, UnitType, Weapon
from ..state import BattleLoreState, Unit

__all__ = ["World", "world_in_play"]


class World:
    """The pack, the scenario and the board a game is played on."""

    def __init__(self, pack: BattleLorePack, scenario_id: str) -> None:
        if scenario_id not in pack.scenarios:
            known = ", ".join(sorted(pack.scenarios))
            raise ValueError(f"B-SCN-1: no scenario {scenario_id!r} (known: {known})")
        self.pack = pack
        self.scenario: Scenario = pack.scenarios[scenario_id]
        self.board = Board(pack.rules, self.scenario.sides[0])
        self.terrain: dict[Point, Terrain] = {
            _point(p.hex): pack.terrain[p.terrain] for p in self.scenario.terrain
        }
        self.plain = pack.terrain.get("countryside") or Terrain(
            id="countryside", name="", symbol="."
        )
        self.objectives: dict[str, tuple[Point, ...]] = {
            side: tuple(_point(p.hex) for p in self.scenario.objectives if p.side == side)
            for side in self.scenario.sides
        }
        self.lore_hexes = tuple(_point(p.hex) for p in self.scenario.lore_terrain)

    # --- units and terrain --------------------------------------------------------------

    def type_of(self, unit: Unit) -> UnitType:
        """The unit's type."""
        return self.pack.unit_types[unit.type]

    def weapon_of(self, unit: Unit) -> Weapon:
        """The unit's weapon."""
        return self.pack.weapons[self.type_of(unit).weapon]

    def terrain_at(self, hex_: Point) -> Terrain:
        """The terrain on ``hex_`` (countryside where the scenario puts none)."""
        return self.terrain.get(hex_, self.plain)

    def card(self, card_id: str) -> CommandCard | None:
        """A command card by id."""
        return self.pack.cards.get(card_id)

    def friends_around(self, state: BattleLoreState, unit: Unit) -> int:
        """Friendly units next to ``unit``."""
        return sum(
            1
            for n in self.board.neighbours(unit.hex)
            if (o := state.at(n)) is not None and o.side == unit.side
        )

    def bold(self, state: BattleLoreState, unit: Unit) -> bool:
        """B-RET-2: bold when next to two friends, by its type, or on bold terrain."""
        return (
            self.type_of(unit).bold
            or self.terrain_at(unit.hex).bold_occupant
            or self.friends_around(state, unit) >= 2
        )

    def ignorable_flags(self, state: BattleLoreState, unit: Unit) -> int:
        """Flags ``unit`` may choose to ignore (B-RET-2; dwarves two when supported, B-ADV-1)."""
        kind = self.type_of(unit)
        if kind.must_ignore_flags or not self.bold(state, unit):
            return 0  # a creature's one flag is ignored for it (B-ADV-2)
        if self.friends_around(state, unit) >= 2:
            return kind.flags_ignorable_supported
        return 1

    # --- orders (B-CMD-1) ---------------------------------------------------------------

    def slots(self, state: BattleLoreState) -> list[tuple[int, frozenset[str], frozenset[str]]]:
        """The ordering slots of this turn's card: (count, sections, kinds)."""
        card = self.card(state.card)
        found: list[tuple[int, frozenset[str], frozenset[str]]] = [
            (o.count, frozenset(o.sections), frozenset(o.kinds))
            for o in (card.orders if card else ())
        ]
        if state.extra_orders:
            found.append((state.extra_orders, frozenset(("left", "centre", "right")), frozenset()))
        return found

    def orderable(self, state: BattleLoreState) -> tuple[str, ...]:
        """Units the active side may order next: some assignment of the units ordered so far
        and this one to the card's slots exists (a unit on a section line fits either)."""
        seat = state.seat
        slots = self.slots(state)
        ordered = [state.unit(u) for u in state.ordered]
        base = [u for u in ordered if u is not None]
        return tuple(
            unit.id
            for unit in state.units
            if unit.side == seat
            and unit.id not in state.ordered
            and unit.id not in state.cancelled
            and self._assignable([*base, unit], slots)
        )

    def _assignable(
        self, units: Sequence[Unit], slots: list[tuple[int, frozenset[str], frozenset[str]]]
    ) -> bool:
        fits = [
            [
                i
                for i, (_, sections, kinds) in enumerate(slots)
                if (not kinds or self.type_of(u).kind in kinds)
                and sections.intersection(self.board.sections(u.hex, u.side))
            ]
            for u in units
        ]
        left = [count for count, _, _ in slots]

        def place(n: int) -> bool:
            if n == len(fits):
                return True
            for i in fits[n]:
                if left[i]:
                    left[i] -= 1
                    if place(n + 1):
                        return True
                    left[i] += 1
            return False

        return place(0)

    def order_capacity(self, state: BattleLoreState) -> int:
        """Orders the card gives in all."""
        return sum(count for count, _, _ in self.slots(state))

    # --- movement (B-UNIT-2, B-TER-1) ---------------------------------------------------

    def reach(self, state: BattleLoreState, unit: Unit) -> tuple[int, int]:
        """(hexes it may move and still battle, hexes it may move at most) this turn."""
        kind = self.type_of(unit)
        card = self.card(state.card)
        battle, most = kind.move, max(kind.move, kind.move_without_battle)
        if card is not None:
            battle, most = battle + card.move_bonus, most + card.move_bonus
            if card.max_move >= 0:
                battle, most = min(battle, card.max_move), min(most, card.max_move)
        return battle, most

    def destinations(self, state: BattleLoreState, unit: Unit) -> dict[Point, tuple[Point, ...]]:
        """Every hex ``unit`` may move to, with its canonical path (hexes entered)."""
        _, most = self.reach(state, unit)
        if most <= 0:
            return {}
        occupied = frozenset(u.hex for u in state.units)
        ignores = self.type_of(unit).ignores_stops

        def moves(hex_: Point) -> Iterator[tuple[Point, Point | None]]:
            for n in self.board.neighbours(hex_):
                terrain = self.terrain_at(n)
                if n in occupied or terrain.impassable:
                    continue
                stops = terrain.stops_movement and terrain.id not in ignores
                yield n, None if stops else n

        return canonical_paths(unit.hex, most, moves)

    def may_battle_after(self, state: BattleLoreState, unit: Unit, path: Sequence[Point]) -> bool:
        """Whether a unit that moved along ``path`` may still battle (B-UNIT-2, B-TER-1)."""
        battle, _ = self.reach(state, unit)
        return len(path) <= battle and not self.terrain_at(path[-1]).no_battle_after_entering

    # --- battle (B-BAT-1, B-BAT-2, B-TER-1) ---------------------------------------------

    def range_of(self, unit: Unit) -> int:
        """How far ``unit`` battles: its weapon, or a creature's hurl."""
        return max(self.weapon_of(unit).range, self.type_of(unit).hurl_range)

    def sight(self, state: BattleLoreState, a: Point, b: Point) -> bool:
        """B-BAT-2: no unit and no blocking terrain between ``a`` and ``b``."""
        return self._sight(frozenset(u.hex for u in state.units), a, b)

    def _sight(self, occupied: frozenset[Point], a: Point, b: Point) -> bool:
        return self.board.sight(a, b, lambda h: h in occupied or self.terrain_at(h).blocks_sight)

    def targets(self, state: BattleLoreState, unit: Unit) -> tuple[str, ...]:
        """Enemy units ``unit`` may battle from where it stands."""
        reach = self.range_of(unit)
        occupied: frozenset[Point] | None = None  # built once, if a target needs sight
        found = []
        for other in state.units:
            if other.side == unit.side or not 1 <= (d := distance(unit.hex, other.hex)) <= reach:
                continue
            if d > 1:
                if occupied is None:
                    occupied = frozenset(u.hex for u in state.units)
                if not self._sight(occupied, unit.hex, other.hex):
                    continue
            found.append(other.id)
        return tuple(found)

    def dice(self, state: BattleLoreState, unit: Unit, target: Unit, *, card_bonus: bool) -> int:
        """Battle dice: banner or type, terrain caps, the ranged penalty, then card bonuses."""
        kind = self.type_of(unit)
        melee = distance(unit.hex, target.hex) == 1
        base = kind.dice or self.pack.rules.banner_dice[kind.banner]
        if not melee and kind.hurl_range and self.weapon_of(unit).range < 2:
            base = kind.hurl_dice
        if not kind.ignores_dice_caps:
            into, out = self.terrain_at(target.hex), self.terrain_at(unit.hex)
            caps = [out.dice_cap_out] if out.dice_cap_out else []
            if into.dice_cap_into and not (into.cap_exempt_from_same and out.id == into.id):
                caps.append(into.dice_cap_into)
            base = min([base, *caps])
        if not melee:
            base = max(1, base - self.pack.rules.ranged_dice_penalty)
        card = self.card(state.card)
        if card_bonus and card is not None:
            base += card.melee_dice if melee else card.ranged_dice
        if card_bonus:
            base += state.charged.count(unit.id)  # Charge (B-ADV-5): one die per card
        return base

    def retreat_options(self, state: BattleLoreState, unit: Unit) -> tuple[Point, ...]:
        """Free hexes one step toward ``unit``'s own edge (B-RET-1; terrain stops do not stop
        a retreat, impassable terrain does)."""
        return tuple(
            n
            for n in self.board.toward_home(unit.hex, unit.side)
            if state.at(n) is None and not self.terrain_at(n).impassable
        )

    def pursuit_options(self, state: BattleLoreState, hex_: Point) -> tuple[Point, ...]:
        """Free, passable hexes next to ``hex_``: a pursuit is one hex (B-MOM-1)."""
        return tuple(
            n
            for n in self.board.neighbours(hex_)
            if state.at(n) is None and not self.terrain_at(n).impassable
        )

    def bonus_targets(self, state: BattleLoreState) -> tuple[str, ...]:
        """Enemies next to the battling unit that it may battle as its bonus battle
        (B-MOM-1); none from terrain that forbids battling this turn (B-MOM-3)."""
        combat = state.combat
        unit = state.unit(combat.attacker) if combat is not None else None
        if unit is None or self.terrain_at(unit.hex).no_battle_after_entering:
            return ()
        return tuple(
            o.id for o in state.units if o.side != unit.side and distance(o.hex, unit.hex) == 1
        )

    def objectives_held(self, state: BattleLoreState, side: str) -> int:
        """Objective hexes of ``side`` its units stand on (B-WIN-1)."""
        return sum(
            1 for h in self.objectives.get(side, ()) if (u := state.at(h)) and u.side == side
        )


_IN_PLAY: dict[tuple[str, str], World] = {}


def world_in_play(pack: str, scenario: str) -> World:
    """The world of ``scenario`` in the pack with SHA-256 ``pack`` (a seat view's), which views
    are drawn and told with: the pack this process loaded with that hash, else the provisional
    one (:meth:`~nataterra_core.packs.PackLoader.in_play`). Built once per pack and scenario."""
    found = load_pack.in_play(pack)
    key = (found.sha256, scenario)
    world = _IN_PLAY.get(key)
    if world is None:
        if len(_IN_PLAY) >= 64:  # a long-lived server meeting many packs: start afresh
            _IN_PLAY.clear()
        world = _IN_PLAY[key] = World(found, scenario)
    return world


@functools.cache
def _point_of(column: int, row: int) -> Point:
    hex_ = to_hex(column, row)
    return (hex_.q, hex_.r)


def _point(offset: tuple[int, int]) -> Point:
    return _point_of(*offset)
