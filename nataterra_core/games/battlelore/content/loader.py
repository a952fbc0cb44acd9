"""BattleLore's pack format on the shared toolkit (:mod:`nataterra_core.packs`).

A pack is a directory of ``*.toml`` files: ``[pack]``, one ``[rules]`` table and the
collections ``terrain``, ``weapons``, ``unit_types``, ``cards``, ``lore``, ``council_levels``
and ``scenarios``, each entry with an ``id``; a user pack overlays entries by id. Besides the
schema, the checks here resolve every reference (a unit's weapon, a scenario's unit types and
terrain, hexes on the board) and name the file and key of each problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import cattrs

from nataterra_core.kernel.errors import ContentProblem
from nataterra_core.packs import PackContents, PackLoader, PackSchema, SchemaValueError

from .schema import (
    BattleLorePack,
    CommandCard,
    CouncilLevel,
    LoreCard,
    PackInfo,
    Rules,
    Scenario,
    Terrain,
    UnitType,
    Weapon,
)

__all__ = ["PROVISIONAL_DIR", "SCHEMA", "load_pack", "on_board"]

FACES = ("green", "blue", "red", "flag", "bonus_strike", "lore")
"""B-DIE-1: the six faces of the battle die, each once."""

PROVISIONAL_DIR = Path(__file__).resolve().parent / "packs" / "provisional"
"""The provisional pack shipped with the package."""


def _is_pair(tp: Any) -> bool:
    return bool(tp in (tuple[int, int], tuple[str, str]))


def _structure_pair(value: Any, tp: Any) -> tuple[Any, Any]:
    kind = tp.__args__[0]
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is kind for v in value)):
        raise SchemaValueError(f"expected an array of two {kind.__name__}s, got {value!r}")
    return (value[0], value[1])


def _hooks(converter: cattrs.Converter) -> None:
    converter.register_structure_hook_func(_is_pair, _structure_pair)


def _build(contents: PackContents) -> BattleLorePack:
    rules = contents.singletons["rules"]
    return BattleLorePack(
        base=contents.base_info or PackInfo(id="", version=""),
        overlay=contents.overlay_info,
        sha256=contents.sha256,
        rules=rules,
        **{name: dict(entries) for name, entries in contents.collections.items()},
    )


def on_board(rules: Rules, hex_: tuple[int, int]) -> bool:
    """Whether ``[column, row]`` is a hex of the board (B-BOARD-1: odd rows one shorter)."""
    column, row = hex_
    return 0 <= row < rules.rows and 0 <= column < rules.columns - (row % 2)


def _check(pack: BattleLorePack, contents: PackContents) -> Iterator[ContentProblem]:
    where = contents.locator

    def problem(table: str, entry: str, message: str, *keys: str | int) -> ContentProblem:
        file, path = where.entry(table, entry, *keys)
        return ContentProblem(file, path, message)

    if sorted(pack.rules.die_faces) != sorted(FACES):
        yield problem("rules", "", "B-DIE-1: the die has the six faces once each", "die_faces")
    for unit in pack.unit_types.values():
        if unit.weapon not in pack.weapons:
            yield problem("unit_types", unit.id, f"unknown weapon {unit.weapon!r}", "weapon")
        if unit.figures < 1 or unit.move < 0:
            yield problem("unit_types", unit.id, "figures must be >= 1, move >= 0", "figures")
    yield from _check_scenarios(pack, problem)


def _check_scenarios(pack: BattleLorePack, problem: Any) -> Iterable[ContentProblem]:
    for scenario in pack.scenarios.values():
        sid = scenario.id
        if scenario.first not in scenario.sides or set(scenario.hands) != set(scenario.sides):
            yield problem("scenarios", sid, "first and hands must name the two sides", "first")
        taken: set[tuple[int, int]] = set()
        for n, unit in enumerate(scenario.units):
            if unit.unit not in pack.unit_types:
                yield problem("scenarios", sid, f"unknown unit type {unit.unit!r}", "units", n)
            if unit.side not in scenario.sides:
                yield problem("scenarios", sid, f"unknown side {unit.side!r}", "units", n)
            if not on_board(pack.rules, unit.hex) or unit.hex in taken:
                yield problem(
                    "scenarios", sid, f"hex {list(unit.hex)} off board or taken", "units", n
                )
            taken.add(unit.hex)
        for n, tile in enumerate(scenario.terrain):
            if tile.terrain not in pack.terrain or not on_board(pack.rules, tile.hex):
                yield problem(
                    "scenarios", sid, f"bad terrain {tile.terrain!r} or hex", "terrain", n
                )
        for n, goal in enumerate((*scenario.objectives, *scenario.lore_terrain)):
            if not on_board(pack.rules, goal.hex):
                yield problem("scenarios", sid, "objective off the board", "objectives", n)
        for side, members in scenario.council.items():
            if side not in scenario.sides:
                yield problem("scenarios", sid, f"unknown side {side!r}", "council")
            levels = {c.level for c in pack.council_levels.values()}
            if any(level not in levels for level in members.values()):
                yield problem("scenarios", sid, "a council level the pack lacks", "council")


SCHEMA: PackSchema[BattleLorePack] = PackSchema(
    info=PackInfo,
    singletons={"rules": Rules},
    collections={
        "terrain": Terrain,
        "weapons": Weapon,
        "unit_types": UnitType,
        "cards": CommandCard,
        "lore": LoreCard,
        "council_levels": CouncilLevel,
        "scenarios": Scenario,
    },
    build=_build,
    check=_check,
    required=frozenset({"rules"}),
    converter_hooks=_hooks,
)
"""BattleLore's pack format, for :func:`nataterra_core.packs.load`."""


load_pack: PackLoader[BattleLorePack] = PackLoader(SCHEMA, PROVISIONAL_DIR)
"""The provisional pack, or ``load_pack(overlay_dir)``: a user pack merged over it by id
(``ContentError`` lists every problem with its file and path)."""
