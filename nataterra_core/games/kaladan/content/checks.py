"""The checks a Kaladan pack must pass beyond its schema: references, ranges, the closed set
of effect primitives, and the seed's binding facts (terrain table, costs, prices).

Every problem is a :class:`ContentProblem` named by file and path, so a bad pack is refused
with one error listing each problem (the shared loader collects them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from nataterra_core.kernel.errors import ContentProblem
from nataterra_core.packs import PackContents

from .schema import Effect, KaladanPack

__all__ = ["DICE", "EVENT_EFFECTS", "FORBIDDEN_EFFECTS", "MAGIC_EFFECTS", "check_pack"]

DICE = (6, 8, 10, 12)
"""The die sizes of the game (§0)."""

EVENT_EFFECTS = frozenset({"gold", "revive", "upgrade", "lose_unit", "draw_magic"})
"""The primitives an event card may use (K-CARD-1)."""

MAGIC_EFFECTS: Mapping[str, frozenset[str]] = {
    "assassinate": frozenset({"action"}),
    "combat_die": frozenset({"attack", "defence"}),
    "extra_move": frozenset({"action"}),
    "gold": frozenset({"income"}),
    "remove_castle_upgrade": frozenset({"action"}),
    "scout": frozenset({"event"}),
    "revive": frozenset({"buy"}),
}
"""The primitives a magic card may use, with the timings each makes sense at (K-CARD-2)."""

FORBIDDEN_EFFECTS: Mapping[str, str] = {
    "capacity": "K-TER-1: capacity is never exceeded, for any reason",
    "extra_capacity": "K-TER-1: capacity is never exceeded, for any reason",
    "remove_crown": "K-EV-6: no event removes or harms a crown",
    "harm_crown": "K-EV-6: no event removes or harms a crown",
    "scalp": "K-EV-6: units removed by an event card are never scalps",
}
"""Effects refused on principle, with the binding clause each would break (K-CARD-2)."""

BINDING_TERRAIN: Mapping[str, tuple[int, int, bool, int]] = {
    "plain": (4, 0, False, 0),
    "mountain": (3, 10, True, 0),
    "forest": (3, 0, False, 10),
}
"""§3 (binding): capacity, defence die, drop lowest, attack die."""

BINDING_COSTS: Mapping[str, tuple[int, int]] = {
    "base": (1, 2),
    "elite": (2, 3),
    "general": (2, 4),
    "special": (2, 2),
}
"""K-BUY-2 (binding): place / upgrade cost by unit class."""

BINDING_PRICES: Mapping[str, int | tuple[int, ...]] = {
    "castle_upgrade_cost": 4,
    "castle_upgrade_die": 8,
    "magic_exchange_cost": 2,
    "magic_buy_cost": 4,
    "captured_magic_cost": 4,
    "tie_break_dice": (6, 8, 10, 12),
}
"""K-BUY-1, K-CAS-6 and K-END-3 (binding)."""


def check_pack(pack: KaladanPack, contents: PackContents) -> Iterator[ContentProblem]:
    """Every problem of ``pack`` beyond its schema, located in its files."""
    yield from _units(pack, contents)
    yield from _terrains(pack, contents)
    yield from _economy(pack, contents)
    yield from _seats(pack, contents)
    yield from _maps(pack, contents)
    yield from _events(pack, contents)
    yield from _magic(pack, contents)


def _problem(contents: PackContents, table: str, entry: str, *keys: str | int) -> tuple[str, str]:
    return contents.locator.entry(table, entry, *keys)


def _units(pack: KaladanPack, contents: PackContents) -> Iterator[ContentProblem]:
    for unit in pack.units.values():
        for side in ("attack", "defence"):
            if getattr(unit, side) not in DICE:
                file, path = _problem(contents, "units", unit.id, side)
                yield ContentProblem(file, path, f"K-FIG-1: a die is one of {DICE}")
        costs = BINDING_COSTS.get(unit.class_)
        if costs is not None and (unit.place_cost, unit.upgrade_cost) != costs:
            file, path = _problem(contents, "units", unit.id, "place_cost")
            yield ContentProblem(
                file, path, f"K-BUY-2 (binding): a {unit.class_} unit costs {costs[0]} / {costs[1]}"
            )
        if unit.trait is not None and unit.trait.die and unit.trait.die not in DICE:
            file, path = _problem(contents, "units", unit.id, "trait", "die")
            yield ContentProblem(file, path, f"K-CARD-3: a die is one of {DICE}")
    for cls in ("crown", "general"):
        if (
            "units" not in contents.incomplete
            and [u.class_ for u in pack.units.values()].count(cls) != 1
        ):
            file, path = contents.locator.collection("units")
            yield ContentProblem(file, path, f"K-SET-2: exactly one {cls} unit type")


def _terrains(pack: KaladanPack, contents: PackContents) -> Iterator[ContentProblem]:
    for tid, (capacity, defence, drop, attack) in BINDING_TERRAIN.items():
        terrain = pack.terrains.get(tid)
        if terrain is None:
            if "terrains" not in contents.incomplete:
                file, path = contents.locator.collection("terrains")
                yield ContentProblem(file, path, f"§3 (binding): the terrain {tid!r} is missing")
            continue
        if terrain.capacity != capacity:
            file, path = _problem(contents, "terrains", tid, "capacity")
            yield ContentProblem(
                file,
                path,
                f"K-TER-1 (binding): a {tid} holds {capacity} units, not {terrain.capacity}",
            )
        if (terrain.defence_die, terrain.drop_lowest, terrain.attack_die) != (
            defence,
            drop,
            attack,
        ):
            file, path = _problem(contents, "terrains", tid)
            yield ContentProblem(
                file, path, f"§3 (binding): the {tid}'s combat dice differ from the seed"
            )


def _economy(pack: KaladanPack, contents: PackContents) -> Iterator[ContentProblem]:
    economy = pack.economy
    for key, value in BINDING_PRICES.items():
        if getattr(economy, key) != value:
            file, path = _problem(contents, "economy", "", key)
            yield ContentProblem(file, path, f"K-BUY-1 (binding): {key} is {value}")
    for index, unit in enumerate(economy.start_board):
        if unit not in pack.units:
            file, path = _problem(contents, "economy", "", "start_board", index)
            yield ContentProblem(file, path, f"unknown unit {unit!r}")
    if len(economy.start_board) > BINDING_TERRAIN["plain"][0]:
        file, path = _problem(contents, "economy", "", "start_board")
        yield ContentProblem(file, path, "K-TER-1: more starting units than a castle holds")
    if "crown" not in economy.start_board:
        file, path = _problem(contents, "economy", "", "start_board")
        yield ContentProblem(file, path, "K-SET-2: the crown starts on the castle")
    for unit, count in economy.start_reserve.items():
        if unit not in pack.units or count < 0:
            file, path = _problem(contents, "economy", "", "start_reserve", unit)
            yield ContentProblem(file, path, f"unknown unit {unit!r} or a negative count")


def _seats(pack: KaladanPack, contents: PackContents) -> Iterator[ContentProblem]:
    for seat in pack.seats.values():
        unit = pack.units.get(seat.special)
        if unit is None or unit.class_ != "special":
            file, path = _problem(contents, "seats", seat.id, "special")
            yield ContentProblem(file, path, f"K-CARD-3: {seat.special!r} is no special unit")
    if len(pack.seats) < 4 and "seats" not in contents.incomplete:
        file, path = contents.locator.collection("seats")
        yield ContentProblem(file, path, "K-SET-3: four seats are needed")


def _maps(pack: KaladanPack, contents: PackContents) -> Iterator[ContentProblem]:
    seats = list(pack.seats)
    for game_map in pack.maps.values():
        at = {tile.at for tile in game_map.tiles}
        if len(at) != len(game_map.tiles):
            file, path = _problem(contents, "maps", game_map.id, "tiles")
            yield ContentProblem(file, path, "two tiles at the same place")
        castles = [t.castle for t in game_map.tiles if t.castle]
        if sorted(castles) != sorted(seats[: game_map.players]) or not 2 <= game_map.players <= 4:
            file, path = _problem(contents, "maps", game_map.id, "tiles")
            yield ContentProblem(
                file, path, f"K-SET-1: one castle for each of {seats[: game_map.players]}"
            )
        for index, tile in enumerate(game_map.tiles):
            if tile.castle and tile.terrain != "plain":
                file, path = _problem(contents, "maps", game_map.id, "tiles", index, "terrain")
                yield ContentProblem(file, path, "K-SET-1: a castle tile is a plain")
        if at and not _connected(at):
            file, path = _problem(contents, "maps", game_map.id, "tiles")
            yield ContentProblem(file, path, "K-SET-1: the map's tiles must be connected")
    if "maps" not in contents.incomplete:
        for players in (2, 3, 4):
            if not any(m.players == players for m in pack.maps.values()):
                file, path = contents.locator.collection("maps")
                yield ContentProblem(file, path, f"K-SET-1: no map for {players} players")


def _connected(cells: set[tuple[int, int]]) -> bool:
    start = min(cells)
    seen, todo = {start}, [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)):
            nxt = (q + dq, r + dr)
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen == cells


def _effect(
    pack: KaladanPack,
    contents: PackContents,
    table: str,
    entry: str,
    keys: tuple[str | int, ...],
    effect: Effect,
    allowed: frozenset[str] | set[str],
) -> Iterator[ContentProblem]:
    file, path = _problem(contents, table, entry, *keys, "kind")
    if effect.kind in FORBIDDEN_EFFECTS:
        yield ContentProblem(
            file, path, f"the effect {effect.kind!r} breaks {FORBIDDEN_EFFECTS[effect.kind]}"
        )
    elif effect.kind not in allowed:
        yield ContentProblem(
            file,
            path,
            f"unknown effect {effect.kind!r}; expected one of {', '.join(sorted(allowed))}",
        )
    if effect.unit:
        file, path = _problem(contents, table, entry, *keys, "unit")
        unit = pack.units.get(effect.unit)
        if unit is None:
            yield ContentProblem(file, path, f"unknown unit {effect.unit!r}")
        elif unit.class_ == "crown":
            yield ContentProblem(file, path, "K-EV-6: no event removes or harms a crown")
    if effect.die and effect.die not in DICE:
        file, path = _problem(contents, table, entry, *keys, "die")
        yield ContentProblem(file, path, f"a die is one of {DICE}")
    if (effect.amount < 0 and effect.kind != "gold") or effect.amount == 0:
        file, path = _problem(contents, table, entry, *keys, "amount")
        yield ContentProblem(file, path, "only gold may be lost; an amount is never 0")


def _events(pack: KaladanPack, contents: PackContents) -> Iterator[ContentProblem]:
    for card in pack.events.values():
        if (card.scope == "personal") != (card.target == "active"):
            file, path = _problem(contents, "events", card.id, "target")
            yield ContentProblem(
                file,
                path,
                "K-EV-1: a personal event targets the active player, a global one others",
            )
        if not card.effects:
            file, path = _problem(contents, "events", card.id, "effects")
            yield ContentProblem(file, path, "an event card needs an effect")
        for index, effect in enumerate(card.effects):
            yield from _effect(
                pack, contents, "events", card.id, ("effects", index), effect, EVENT_EFFECTS
            )
        cond = card.condition
        if cond is not None:
            if cond.kind == "unit_on_board" and cond.unit not in pack.units:
                file, path = _problem(contents, "events", card.id, "condition", "unit")
                yield ContentProblem(file, path, f"unknown unit {cond.unit!r}")
            if cond.kind == "terrain" and cond.terrain not in BINDING_TERRAIN:
                file, path = _problem(contents, "events", card.id, "condition", "terrain")
                yield ContentProblem(file, path, f"unknown terrain {cond.terrain!r}")


def _magic(pack: KaladanPack, contents: PackContents) -> Iterator[ContentProblem]:
    for card in pack.magic.values():
        yield from _effect(
            pack, contents, "magic", card.id, ("effect",), card.effect, set(MAGIC_EFFECTS)
        )
        timings = MAGIC_EFFECTS.get(card.effect.kind)
        if timings is not None and card.timing not in timings:
            file, path = _problem(contents, "magic", card.id, "timing")
            yield ContentProblem(
                file,
                path,
                f"K-CARD-2: {card.effect.kind!r} is played at {', '.join(sorted(timings))}",
            )
        if card.copies < 1:
            file, path = _problem(contents, "magic", card.id, "copies")
            yield ContentProblem(file, path, "at least one copy")
