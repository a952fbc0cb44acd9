"""The hex model and the maps of the provisional pack (rules §2, §2a)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nataterra_core.games.nataterra.content import ContentPack, load_pack
from nataterra_core.games.nataterra.content.schema import rotate_offset
from nataterra_core.games.nataterra.rules.hexmap import (
    DIRECTIONS,
    GameMap,
    Hex,
    Zone,
    build_map,
    hex_distance,
)
from nataterra_core.kernel.errors import ContentError

hexes = st.builds(Hex, st.integers(-60, 60), st.integers(-60, 60))


@pytest.fixture(scope="module")
def pack() -> ContentPack:
    return load_pack()


@pytest.fixture(scope="module")
def learning(pack: ContentPack) -> GameMap:
    return build_map(pack, "learning")


def plain_zone(zone_id: str, q: int, r: int, biome: str = "hills") -> Zone:
    return Zone(zone_id, Hex(q, r), "t", biome, None, biome, None)  # type: ignore[arg-type]


# --- Hex geometry -------------------------------------------------------------------------


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Hex, b: Hex) -> None:
    assert hex_distance(a, b) == hex_distance(b, a) == b.distance(a)
    assert (hex_distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@given(hexes)
def test_N_MAP_1_six_neighbours_at_distance_one(h: Hex) -> None:
    neighbours = h.neighbours()

    assert len(set(neighbours)) == 6
    assert all(hex_distance(h, n) == 1 for n in neighbours)
    assert all(h in n.neighbours() for n in neighbours)
    assert [h.neighbour(i) for i in range(6)] == list(neighbours)


@given(hexes, hexes)
def test_distance_is_the_fewest_neighbour_steps(a: Hex, b: Hex) -> None:
    steps, here = 0, a
    while here != b:
        here = min(here.neighbours(), key=lambda n: hex_distance(n, b))
        steps += 1

    assert steps == hex_distance(a, b)


@given(hexes, st.integers(0, 11))
def test_rotation_keeps_distances_and_cycles(h: Hex, k: int) -> None:
    turned = Hex(*rotate_offset(h, k))

    assert hex_distance(turned, Hex(0, 0)) == hex_distance(h, Hex(0, 0))
    assert rotate_offset(h, k + 6) == turned
    assert Hex(*rotate_offset(DIRECTIONS[0], k)) == DIRECTIONS[k % 6]


# --- GameMap ------------------------------------------------------------------------------


def test_game_map_refuses_duplicate_hexes() -> None:
    with pytest.raises(ValueError, match="unique"):
        GameMap("bad", [plain_zone("a", 0, 0), plain_zone("b", 0, 0)])


def test_N_MOV_1_shortest_path_breaks_ties_by_smallest_zone_ids() -> None:
    # A ring of four hexes around a gap: two shortest paths from "a" to "d".
    game_map = GameMap(
        "ring",
        [
            plain_zone("a", 0, 0),
            plain_zone("c", 1, 0),
            plain_zone("b", 0, 1),
            plain_zone("d", 1, 1),
        ],
    )

    assert game_map.neighbours("a") == ("b", "c")
    assert game_map.shortest_path("a", "d") == ("a", "b", "d")
    assert game_map.shortest_path("a", "d", lambda z: z.id != "b") == ("a", "c", "d")
    assert game_map.shortest_path("a", "d", lambda z: z.id not in ("b", "c")) is None
    assert game_map.shortest_path("a", "a") == ("a",)


def test_steps_from_counts_breadth_first(learning: GameMap) -> None:
    base = learning.base_of("velathi")
    steps = learning.steps_from(base)

    assert steps[base] == 0
    assert all(steps[n] == 1 for n in learning.neighbours(base))
    assert set(steps) == set(learning.zone_ids)
    for zone_id, count in steps.items():
        assert count >= learning.distance(base, zone_id)


@given(st.data())
def test_shortest_path_is_a_shortest_walk(data: st.DataObject) -> None:
    game_map = build_map(load_pack(), "four_players")
    start = data.draw(st.sampled_from(game_map.zone_ids))
    goal = data.draw(st.sampled_from(game_map.zone_ids))
    path = game_map.shortest_path(start, goal)

    assert path is not None
    assert path[0] == start and path[-1] == goal
    assert len(path) - 1 == game_map.steps_from(start)[goal]
    assert all(game_map.adjacent(x, y) for x, y in itertools.pairwise(path))


# --- The pack's maps ----------------------------------------------------------------------


def test_N_SETUP_1_learning_map_tiles_and_bases(learning: GameMap) -> None:
    tiles = {z.tile for z in learning.zones.values()}

    assert tiles == {"t1", "t2", "velathi", "beasts"}
    assert len(learning.zone_ids) == 6 + 6 + 4 + 4
    assert dict(learning.bases) == {"velathi": "velathi.z1", "beasts": "beasts.z1"}
    assert learning.zones["velathi.z1"].biome == "swamp"
    assert learning.zones["beasts.z1"].biome == "forest"
    assert learning.is_connected()
    assert learning.strategy_zone is None
    assert list(learning.zone_ids) == sorted(learning.zone_ids)


def test_N_SETUP_1_mountains_on_the_forest_food_and_swamp_food_zones(learning: GameMap) -> None:
    covered = {z.id: z for z in learning.zones.values() if z.modifier is not None}
    on_map_tiles = [z for z in learning.zones.values() if z.tile in ("t1", "t2")]

    assert sorted((z.printed_biome, z.printed_resource) for z in covered.values()) == [
        ("forest", "food"),
        ("swamp", "food"),
    ]
    assert all(z.modifier == z.biome == "mountain" and z.resource is None for z in covered.values())
    for biome in ("forest", "swamp"):
        food = [
            z.id for z in on_map_tiles if (z.printed_biome, z.printed_resource) == (biome, "food")
        ]
        assert len(food) == 1 and food[0] in covered


def test_N_MAP_1_zones_are_adjacent_across_tiles(learning: GameMap) -> None:
    crossings = {
        (learning.zones[a].tile, learning.zones[b].tile)
        for a in learning.zone_ids
        for b in learning.neighbours(a)
        if learning.zones[a].tile != learning.zones[b].tile
    }

    assert ("t1", "t2") in crossings
    assert ("velathi", "t1") in crossings
    assert ("beasts", "t2") in crossings
    assert ("velathi", "beasts") not in crossings
    for a in learning.zone_ids:
        for b in learning.neighbours(a):
            assert learning.adjacent(b, a) and learning.distance(a, b) == 1


@pytest.mark.parametrize(
    ("map_id", "players"),
    [
        ("learning", ("velathi", "beasts")),
        ("three_players", ("velathi", "beasts", "humans")),
        ("four_players", ("velathi", "beasts", "humans", "naga")),
    ],
)
def test_N_MAP_5_maps_are_connected_with_one_base_per_player(
    pack: ContentPack, map_id: str, players: tuple[str, ...]
) -> None:
    game_map = build_map(pack, map_id)
    player_tiles = {z.tile for z in game_map.zones.values() if z.tile in players}

    assert game_map.is_connected()
    assert sorted(game_map.bases) == sorted(players)
    assert player_tiles == set(players)
    for a, b in itertools.combinations(players, 2):
        # N-MAP-4's placement rule, kept by the provisional layouts: player tiles never touch.
        assert not any(
            game_map.zones[n].tile == b
            for z in game_map.zone_ids
            if game_map.zones[z].tile == a
            for n in game_map.neighbours(z)
        )
        assert game_map.distance(game_map.base_of(a), game_map.base_of(b)) >= 5


def test_N_FAQ_1_naga_base_is_a_lake(pack: ContentPack) -> None:
    game_map = build_map(pack, "four_players")

    assert game_map.zones[game_map.base_of("naga")].biome == "lake"


def test_N_MAP_3_modifier_beyond_the_edge_and_shared_tile(
    tmp_path: Path, pack: ContentPack
) -> None:
    (tmp_path / "pack.toml").write_text('[pack]\nid = "maps"\nversion = "1"\n', encoding="utf-8")
    (tmp_path / "maps.toml").write_text(
        """
        [[maps]]
        id = "duel_on_tile_0"
        title = "Duel around the shared tile"
        players = ["velathi", "beasts"]
        tiles = [
          { tile = "t0a", at = [0, 0] },
          { tile = "velathi", at = [3, -2] },
          { tile = "t1", at = [2, 0] },
        ]
        modifiers = [{ side = "lake", at = [-1, 0] }, { side = "mountain", zone = "t1.z6" }]
        """,
        encoding="utf-8",
    )
    game_map = build_map(load_pack(tmp_path), "duel_on_tile_0")
    extension = game_map.zones["m1"]

    assert game_map.strategy_zone == "t0a.z1"
    assert (extension.hex, extension.biome, extension.tile) == (Hex(-1, 0), "lake", None)
    assert game_map.zone_at(Hex(-1, 0)) == extension
    assert game_map.zone_at(Hex(40, 40)) is None
    assert game_map.adjacent("m1", "t0a.z1")
    assert game_map.zones["t1.z6"].biome == "mountain"


def test_modifier_on_an_occupied_hex_is_a_content_error(tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text('[pack]\nid = "maps"\nversion = "1"\n', encoding="utf-8")
    (tmp_path / "maps.toml").write_text(
        '[[maps]]\nid = "m"\ntitle = "m"\nplayers = ["naga"]\n'
        'tiles = [{ tile = "t3", at = [0, 0] }, { tile = "t3", at = [5, 5] }]\n'
        'modifiers = [{ side = "lake", at = [0, 0] }, { side = "lake", zone = "t9.z1" }]\n',
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as caught:
        load_pack(tmp_path)
    messages = {(p.path, p.message.split(";")[0]) for p in caught.value.problems}

    assert ("$.maps[0].tiles[1].tile", "tile 't3' placed twice") in messages
    assert ("$.maps[0].modifiers[0].at", "hex (0, 0) is zone 't3.z1'") in messages
    assert ("$.maps[0].modifiers[1].zone", "no zone 't9.z1' on this map") in messages


def test_N_MAP_4_a_map_holds_one_side_of_tile_0(tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text('[pack]\nid = "maps"\nversion = "1"\n', encoding="utf-8")
    (tmp_path / "maps.toml").write_text(
        '[[maps]]\nid = "m"\ntitle = "m"\nplayers = []\n'
        'tiles = [{ tile = "t0a", at = [0, 0] }, { tile = "t0b", at = [5, 5] }]\n',
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as caught:
        load_pack(tmp_path)

    assert [(p.path, p.message) for p in caught.value.problems] == [
        ("$.maps[0].tiles", "tile 0 is one tile: place one of its sides at most")
    ]
