"""N-MAP-4 advanced map structuring: secret tile draws, the placing order, each placement
rule (checked against an independent oracle built on :class:`GameMap`), the views, and whole
structured games played by the bots that finish and verify."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from nataterra_core.game import GameSession, new_game, verify_log
from nataterra_core.games.nataterra.bots import HeuristicPlayer, RandomPlayer, play
from nataterra_core.games.nataterra.content.schema import ContentPack, MapDef, TilePlacement
from nataterra_core.games.nataterra.messages.structuring import (
    AttachMapTile,
    MapStructured,
    PlaceModifier,
    PlacePlayerTile,
    PlaceSharedTile,
)
from nataterra_core.games.nataterra.messages.turns import EndPhase, TurnStarted
from nataterra_core.games.nataterra.rules.hexmap import GameMap, Hex, build_map
from nataterra_core.games.nataterra.rules.map_layout import (
    PlacedModifier,
    PlacedTile,
    is_structured,
    layout_id,
    structured_map_def,
)
from nataterra_core.games.nataterra.rules.structuring import current_task, placing_order, schedule
from nataterra_core.games.nataterra.state import GameState
from nataterra_core.games.nataterra.views import seat_view
from nataterra_core.kernel import (
    Command,
    DiceStream,
    IllegalCommand,
    NotYourTurn,
    UndoRefused,
    events_of,
)
from nataterra_core.kernel.visibility import log_view

OPTIONS = {"map_structuring": True, "max_turns": 200}


def structured(players: int = 2, seed: int = 1) -> GameSession:
    return new_game(players, seed=seed, options=OPTIONS)


def decide(session: GameSession, seat: str, command: Command) -> Any:
    """The decider's answer without touching the session (so refusals name their rule)."""
    decider = session.decider
    dice = DiceStream(b"\0" * 32, session.header.game_id, "", session.state.counter)
    return events_of(decider.decide(session.state, command, dice, seat=seat))


def placer(session: GameSession) -> str:
    return session.acting_seats()[0]


def legal(session: GameSession) -> Sequence[Command]:
    return session.legal_commands(placer(session))


def first_of(session: GameSession, kind: type[Command]) -> Command:
    commands = legal(session)
    assert commands and all(isinstance(c, kind) for c in commands)
    return commands[0]


def advance_to(session: GameSession, task: str) -> None:
    """Place the first legal command until ``task`` is due."""
    while (due := current_task(session.state)) is not None and due[0] != task:
        session.apply(placer(session), legal(session)[0])


def start_events(session: GameSession) -> list[dict[str, Any]]:
    record: dict[str, Any] = msgspec.json.decode(session.lines[1])
    events: list[dict[str, Any]] = record["events"]
    return events


def current_map(session: GameSession) -> GameMap:
    return build_map(session.decider.pack, session.state.map_id)


# -- the option, the draws, the order -----------------------------------------------------


def test_N_MAP_4_structuring_is_a_header_option_and_excludes_a_fixed_map() -> None:
    session = structured()
    assert session.header.options["map_structuring"] is True
    assert session.state.structuring is not None
    assert is_structured(session.state.map_id)
    with pytest.raises(ValueError, match="N-MAP-4"):
        new_game(2, seed=1, options={"map_structuring": True, "map": "learning"})
    plain = new_game(2, seed=1)
    assert plain.state.structuring is None and plain.state.map_id == "learning"


def test_N_MAP_4_workers_wait_on_the_base_zone_of_the_player_tile() -> None:
    session = structured(3)
    for civ in session.header.seats:
        assert {(s.unit, s.zone, s.count) for s in session.state.stacks_of(civ)} == {
            (session.decider.pack.worker_of(civ).id, f"{civ}.z1", 3)
        }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_N_MAP_4_each_player_secretly_draws_two_random_map_tiles(players: int) -> None:
    session = structured(players, seed=players)
    pack = session.decider.pack
    draws = [e for e in start_events(session) if e["type"] == "map_tiles_drawn.v2"]
    assert [d["seat"] for d in draws] == list(session.header.seats)
    drawn = [t for d in draws for t in d["tiles"]]
    assert len(drawn) == 2 * players == len(set(drawn))
    assert all(pack.map_tiles[t].kind == "map" for t in drawn)
    assert session.state.structuring is not None
    assert session.state.structuring.hands == {d["seat"]: tuple(d["tiles"]) for d in draws}
    # The draws come after the first player, and the first turn waits for the map.
    types = [e["type"] for e in start_events(session)]
    assert types.index("first_player_drawn.v1") < types.index("map_tiles_drawn.v2")
    assert "turn_started.v1" not in types
    assert session.state.turn == 0 and session.state.phase == "setup"


def test_N_MAP_4_draws_differ_between_seeds() -> None:
    hands = set()
    for seed in range(8):
        state = structured(2, seed=seed).state
        assert state.structuring is not None
        hands.add(tuple(sorted(state.structuring.hands.items())))
    assert len(hands) == 8


def test_N_MAP_4_drawn_tiles_are_hidden_from_the_other_seats() -> None:
    session = structured(3, seed=4)
    state = session.state
    assert state.structuring is not None
    for seat in session.header.seats:
        view = seat_view(state, seat)
        assert view.structuring is not None
        assert view.structuring.hand == state.structuring.hands[seat]
        assert view.structuring.hand_counts == dict.fromkeys(session.header.seats, 2)
        text = msgspec.json.encode(view)
        for other in session.header.seats:
            if other != seat:
                for tile in state.structuring.hands[other]:
                    if tile not in state.structuring.hands[seat]:
                        assert f'"{tile}"'.encode() not in text
        logged = log_view(session.lines, seat, session.decider)
        draws = [e for e in logged.records[1]["events"] if e["type"] == "map_tiles_drawn.v2"]
        for draw in draws:
            assert ("tiles" in draw) == ("values" in draw) == (draw["seat"] == seat)
    spectator = seat_view(state, None)
    assert spectator.structuring is not None and spectator.structuring.hand is None


def test_N_MAP_4_views_do_not_depend_on_the_other_seats_tiles() -> None:
    state = structured(3, seed=5).state
    assert state.structuring is not None
    hands = state.structuring.hands
    seat, other, third = state.seats
    swapped = {**hands, other: hands[third], third: hands[other]}
    twin = msgspec.structs.replace(
        state, structuring=msgspec.structs.replace(state.structuring, hands=swapped)
    )
    assert msgspec.json.encode(seat_view(state, seat)) == msgspec.json.encode(seat_view(twin, seat))
    assert seat_view(state, other) != seat_view(twin, other)


@pytest.mark.parametrize("players", [3, 4])
def test_N_MAP_4_every_step_offers_a_placement(players: int) -> None:
    """Random placements never leave a seat without a legal one (player tiles included)."""
    for seed in range(4):
        session = structured(players, seed=200 + seed)
        bot = RandomPlayer(seed)
        while session.state.structuring is not None:
            seat, commands = placer(session), legal(session)
            assert commands, (seed, current_task(session.state))
            session.apply(seat, bot.choose(seat_view(session.state, seat), commands))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_N_MAP_4_rounds_start_right_of_the_first_player_counter_clockwise(players: int) -> None:
    session = structured(players, seed=7)
    state = session.state
    seats, first = state.seats, state.first
    order = placing_order(state)
    assert order[0] == seats[(first - 1) % players]  # to the first player's right
    assert order[-1] == seats[first]  # the first player places last
    assert order == tuple(seats[(first - 1 - i) % players] for i in range(players))
    tasks = [task for task, _ in schedule(state)]
    assert tasks == (
        ["shared_tile"]
        + ["map_tile"] * 2 * players
        + ["player_tile"] * players
        + ["modifier"] * 2 * players
    )
    assert [seat for _, seat in schedule(state)] == [order[0], *order * 5]
    # The seats place in that order, and only the seat due may place.
    for task, seat in schedule(state):
        assert session.acting_seats() == (seat,)
        assert current_task(session.state) == (task, seat)
        command = legal(session)[0]
        for other in seats:
            if other != seat:
                assert session.legal_commands(other) == ()
                with pytest.raises(NotYourTurn):
                    session.apply(other, command)
                with pytest.raises(IllegalCommand, match=r"N-MAP-4.*turn to"):
                    decide(session, other, command)
        session.apply(seat, command)
    assert session.state.structuring is None


# -- tile 0 -------------------------------------------------------------------------------


@pytest.mark.parametrize("side", ["a", "b"])
def test_N_MAP_4_tile_0_goes_in_the_middle_side_of_choice(side: str) -> None:
    session = structured()
    assert list(legal(session)) == [PlaceSharedTile(side="a"), PlaceSharedTile(side="b")]
    session.apply(placer(session), PlaceSharedTile(side=side))
    game_map = current_map(session)
    assert set(game_map.zone_ids) == {f"t0{side}.z{i}" for i in range(1, 5)}
    assert game_map.zones[f"t0{side}.z1"].hex == Hex(0, 0)
    assert game_map.strategy_zone == f"t0{side}.z1"  # the strategy marker's zone
    # Nothing hidden was shown: the placer may take tile 0 back and choose again.
    seat = session.header.seats[(session.state.first - 1) % 2]
    session.undo(seat)
    assert session.state.map_id == "structured:|" and placer(session) == seat


def test_N_MAP_4_tiles_are_placed_in_order_tile_0_first() -> None:
    session = structured()
    seat = placer(session)
    assert session.state.structuring is not None
    tile = session.state.structuring.hands[seat][0]
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*place tile 0"):
        decide(session, seat, AttachMapTile(tile=tile, at=(3, 0), rotation=0))
    with pytest.raises(IllegalCommand, match="N-MAP-4"):
        decide(session, seat, EndPhase(phase="movement"))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*sides a and b"):
        decide(session, seat, PlaceSharedTile(side="c"))  # type: ignore[arg-type]


# -- attaching map tiles ------------------------------------------------------------------


Placement = tuple[tuple[int, int], int]


def oracle_placements(
    pack: ContentPack, state: GameState, tile: str, player: bool
) -> set[Placement]:
    """Every placement of ``tile`` the rules allow, found by building each candidate map."""
    touching = attached(pack, state, tile)
    if not player:
        return set(touching)
    return {
        p for p, kinds in touching.items() if "map" in kinds and not kinds & {"shared", "player"}
    }


def attached(pack: ContentPack, state: GameState, tile: str) -> dict[Placement, set[str]]:
    """Every placement of ``tile`` next to the placed tiles without overlap, with the kinds
    of the tiles it touches."""
    assert state.structuring is not None
    before = build_map(pack, state.map_id)
    kinds = {z.id: pack.map_tiles[z.tile or ""].kind for z in before.zones.values()}
    hexes = [z.hex for z in before.zones.values()]
    # A tile's zones lie at most 2 steps from its anchor, so a tile touching the map has its
    # anchor at most 3 steps beyond the map's bounding box.
    span = range(min(h.q for h in hexes) - 3, max(h.q for h in hexes) + 4)
    rows = range(min(h.r for h in hexes) - 3, max(h.r for h in hexes) + 4)
    found: dict[Placement, set[str]] = {}
    for q, r, rotation in itertools.product(span, rows, range(6)):
        placement = TilePlacement(tile=tile, at=(q, r), rotation=rotation)
        one = MapDef(id="candidate", title="", players=(), tiles=(placement,))
        cells = [Hex(*z.at) for z in one.placed_zones(pack.map_tiles)]
        if any(before.zone_at(c) is not None for c in cells):  # an overlap
            continue
        touched = {
            kinds[zone.id]
            for c in cells
            for n in c.neighbours()
            if (zone := before.zone_at(n)) is not None
        }
        if touched:
            found[((q, r), rotation)] = touched
    return found


def test_N_MAP_4_map_tiles_attach_to_the_placed_tiles_without_overlap() -> None:
    session = structured(2, seed=11)
    pack = session.decider.pack
    session.apply(placer(session), PlaceSharedTile(side="a"))
    for _ in range(4):  # both rounds of both seats
        seat = placer(session)
        state = session.state
        assert state.structuring is not None
        commands = legal(session)
        assert all(isinstance(c, AttachMapTile) for c in commands)
        for tile in state.structuring.hands[seat]:
            offered = {
                (c.at, c.rotation)
                for c in commands
                if isinstance(c, AttachMapTile) and c.tile == tile
            }
            assert offered == oracle_placements(pack, state, tile, player=False)
        session.apply(seat, commands[len(commands) // 2])
    assert current_map(session).is_connected()


def test_N_MAP_4_overlapping_detached_and_foreign_tiles_are_refused() -> None:
    session = structured(2, seed=12)
    session.apply(placer(session), PlaceSharedTile(side="a"))
    seat = placer(session)
    state = session.state
    assert state.structuring is not None
    mine = state.structuring.hands[seat][0]
    theirs = next(t for s, h in state.structuring.hands.items() if s != seat for t in h)
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*overlap"):
        decide(session, seat, AttachMapTile(tile=mine, at=(0, 0), rotation=0))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*attached"):
        decide(session, seat, AttachMapTile(tile=mine, at=(10, 10), rotation=0))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*not in"):
        decide(session, seat, AttachMapTile(tile=theirs, at=(1, 1), rotation=0))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*rotation"):
        decide(session, seat, AttachMapTile(tile=mine, at=(1, 1), rotation=6))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*attach a map tile"):
        decide(session, seat, PlacePlayerTile(at=(1, 1), rotation=0))
    # A legal one goes down and leaves the hand; the tile is shown, so it cannot be undone.
    attach = first_of(session, AttachMapTile)
    session.apply(seat, attach)
    assert session.state.structuring is not None
    assert isinstance(attach, AttachMapTile)
    assert attach.tile not in session.state.structuring.hands[seat]
    with pytest.raises(UndoRefused):
        session.undo(seat)


# -- player tiles -------------------------------------------------------------------------


def test_N_MAP_4_player_tiles_touch_a_map_tile_but_not_tile_0_or_each_other() -> None:
    session = structured(4, seed=13)
    pack = session.decider.pack
    advance_to(session, "player_tile")
    for _ in range(4):
        seat = placer(session)
        commands = legal(session)
        offered = {(c.at, c.rotation) for c in commands if isinstance(c, PlacePlayerTile)}
        assert offered and offered == oracle_placements(pack, session.state, seat, player=True)
        session.apply(seat, commands[-1])
    game_map = current_map(session)
    assert set(game_map.bases) == set(session.header.seats)
    for zone in game_map.zones.values():
        if zone.tile in session.header.seats:
            kinds = {game_map.zones[n].tile for n in game_map.neighbours(zone.id)}
            assert not kinds & ({"t0a", "t0b"} | set(session.header.seats) - {zone.tile})


def test_N_MAP_4_player_tile_next_to_tile_0_or_another_player_tile_is_refused() -> None:
    session = structured(2, seed=14)
    pack = session.decider.pack
    advance_to(session, "player_tile")
    seat = placer(session)
    touching = attached(pack, session.state, seat)
    cases = {
        "may not touch tile 0": lambda kinds: kinds == {"map", "shared"},
        "must touch a placed map tile": lambda kinds: kinds == {"shared"},
    }
    for message, match in cases.items():
        at, rotation = min(p for p, kinds in touching.items() if match(kinds))
        with pytest.raises(IllegalCommand, match=rf"N-MAP-4.*{message}"):
            decide(session, seat, PlacePlayerTile(at=at, rotation=rotation))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*overlap"):
        decide(session, seat, PlacePlayerTile(at=(0, 0), rotation=0))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*attached"):
        decide(session, seat, PlacePlayerTile(at=(30, 0), rotation=0))
    session.apply(seat, first_of(session, PlacePlayerTile))
    other = placer(session)
    touching = attached(pack, session.state, other)
    at, rotation = min(p for p, kinds in touching.items() if kinds == {"map", "player"})
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*may not touch another player tile"):
        decide(session, other, PlacePlayerTile(at=at, rotation=rotation))


# -- terrain modifiers --------------------------------------------------------------------


def oracle_modifiers(game_map: GameMap) -> set[tuple[str, str | None, tuple[int, int] | None]]:
    barriers = [z for z in game_map.zones.values() if z.biome in ("mountain", "lake")]
    cells = {z.hex for z in game_map.zones.values()}
    edge = {n for c in cells for n in c.neighbours() if n not in cells}
    found: set[tuple[str, str | None, tuple[int, int] | None]] = set()
    for side in ("mountain", "lake"):
        for zone in game_map.zones.values():
            if zone.base_owner or zone.id == game_map.strategy_zone:
                continue
            if all(zone.hex.distance(b.hex) >= 2 for b in barriers):
                found.add((side, zone.id, None))
        for cell in edge:
            if all(cell.distance(b.hex) >= 2 for b in barriers):
                found.add((side, None, (cell.q, cell.r)))
    return found


def test_N_MAP_4_modifiers_lie_two_zones_from_every_mountain_and_lake() -> None:
    session = structured(3, seed=15)
    advance_to(session, "modifier")
    for _ in range(6):  # both rounds of three seats
        game_map = current_map(session)
        commands = legal(session)
        offered = {(c.side, c.zone, c.at) for c in commands if isinstance(c, PlaceModifier)}
        assert offered == oracle_modifiers(game_map)
        # Spread the tokens over zones and edge hexes, both sides.
        pick = commands[(len(commands) * 3) // 5 - _ * 7]
        session.apply(placer(session), pick)
    final = current_map(session)
    tokens = [z for z in final.zones.values() if z.modifier is not None]
    assert len(tokens) == 6
    for a, b in itertools.combinations(tokens, 2):
        assert a.hex.distance(b.hex) >= 2


def test_N_MAP_4_modifiers_on_bases_next_to_lakes_or_off_the_edge_are_refused() -> None:
    session = structured(2, seed=16)
    advance_to(session, "modifier")
    seat = placer(session)
    game_map = current_map(session)
    base = game_map.bases[seat]
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*base"):
        decide(session, seat, PlaceModifier(side="mountain", zone=base))
    assert game_map.strategy_zone is not None
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*strategy marker"):
        decide(session, seat, PlaceModifier(side="lake", zone=game_map.strategy_zone))
    barrier = next(z for z in game_map.zones.values() if z.biome in ("mountain", "lake"))
    next_door = next(
        n
        for n in game_map.neighbours(barrier.id)
        if not game_map.zones[n].base_owner and n != game_map.strategy_zone
    )
    for zone in (barrier.id, next_door):
        with pytest.raises(IllegalCommand, match=r"N-MAP-4.*two zones"):
            decide(session, seat, PlaceModifier(side="mountain", zone=zone))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*edge"):
        decide(session, seat, PlaceModifier(side="mountain", at=(40, 40)))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*not on the map"):
        decide(session, seat, PlaceModifier(side="mountain", zone="t99.z1"))
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*mountain or a lake"):
        decide(session, seat, PlaceModifier(side="forest", zone="t1.z1"))  # type: ignore[arg-type]
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*exactly one"):
        decide(session, seat, PlaceModifier(side="mountain"))
    hex_of = next(iter(game_map.zones.values())).hex
    with pytest.raises(IllegalCommand, match=r"N-MAP-4.*holds a zone"):
        decide(session, seat, PlaceModifier(side="lake", at=(hex_of.q, hex_of.r)))
    # A token beyond the edge extends the map as zone m1, a lake no one may enter.
    edge = next(
        c for c in legal(session) if isinstance(c, PlaceModifier) and c.at and c.side == "lake"
    )
    session.apply(seat, edge)
    extended = current_map(session)
    assert extended.zones["m1"].biome == "lake" and extended.zones["m1"].tile is None
    later = placer(session)
    assert isinstance(edge, PlaceModifier) and edge.at is not None
    for n in Hex(*edge.at).neighbours():
        zone = extended.zone_at(n)
        if zone is not None:
            with pytest.raises(IllegalCommand, match=r"N-MAP-4.*two zones"):
                decide(session, later, PlaceModifier(side="mountain", zone=zone.id))


def test_N_MAP_4_placements_are_refused_once_the_map_is_built() -> None:
    session = structured(2, seed=17)
    advance_to(session, "never")
    seat = placer(session)
    with pytest.raises(IllegalCommand, match="N-MAP-4"):
        decide(session, seat, PlaceSharedTile(side="a"))
    plain = new_game(2, seed=17)
    with pytest.raises(IllegalCommand, match="N-MAP-4"):
        decide(plain, placer(plain), PlaceModifier(side="lake", zone="t1.z1"))


# -- whole structured games ---------------------------------------------------------------


def test_N_MAP_4_a_complete_structured_set_up_hands_over_to_turn_1() -> None:
    session = structured(4, seed=18)
    pack = session.decider.pack
    bots = {s: HeuristicPlayer(i, pack=pack) for i, s in enumerate(session.header.seats)}
    events: list[Any] = []
    while session.state.structuring is not None:
        seat = placer(session)
        events += session.apply(
            seat, bots[seat].choose(seat_view(session.state, seat), legal(session))
        )
    state = session.state
    done = [e for e in events if isinstance(e, MapStructured)]
    assert len(done) == 1 and done[0].map_id == state.map_id
    assert isinstance(events[-1], TurnStarted) and events[-1].turn == 1
    assert state.active_seat == state.seats[state.first] and state.phase == "movement"
    game_map = session.decider.context(state.map_id).map
    # 4 zones of tile 0, 8 map tiles of 6, 4 player tiles of 4, 8 modifiers at most beyond.
    covering = len(game_map.zones) - 4 - 8 * 6 - 4 * 4
    assert 0 <= covering <= 8
    assert sum(1 for z in game_map.zones.values() if z.modifier) == 8
    assert game_map.is_connected()
    assert set(game_map.bases) == set(state.seats)
    for civ in state.seats:
        assert state.owners_in(game_map.base_of(civ)) == {civ}
    assert state.map_id == layout_id(
        [PlacedTile(t.tile, t.at, t.rotation) for t in _tiles(state.map_id, pack)],
        [PlacedModifier(m.side, m.zone, m.at) for m in _modifiers(state.map_id, pack)],
    )
    assert seat_view(state, state.seats[0]).structuring is None


def _tiles(map_id: str, pack: ContentPack) -> Any:
    return structured_map_def(map_id, pack.map_tiles).tiles


def _modifiers(map_id: str, pack: ContentPack) -> Any:
    return structured_map_def(map_id, pack.map_tiles).modifiers


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (2, 1), (3, 2), (4, 3)])
def test_N_MAP_4_heuristic_games_on_structured_maps_finish_and_verify(
    players: int, seed: int
) -> None:
    session = structured(players, seed=seed)
    pack = session.decider.pack
    bots = {
        s: HeuristicPlayer(seed * 16 + i, pack=pack) for i, s in enumerate(session.header.seats)
    }
    play(session, bots)
    outcome = session.close()
    assert outcome.reason != "abandoned"
    verdict = verify_log(session.log_bytes())
    assert verdict.status == "valid", verdict
    # The structured map is the one played on: moves, gathering and bases use its zones.
    game_map = session.decider.context(session.state.map_id).map
    records = [msgspec.json.decode(line) for line in session.lines]
    events = [e for r in records for e in r.get("events", ())]
    moved = [
        z
        for r in records
        if r.get("command", {}).get("type") == "move_units.v1"
        for z in r["command"]["path"]
    ]
    assert moved and set(moved) <= set(game_map.zone_ids)
    gathered = [e for e in events if e["type"] == "resources_gathered.v1"]
    assert gathered
    assert any(z.startswith("t") and not z.startswith("t0") for z in moved)


@pytest.mark.parametrize("seed", range(3))
def test_N_MAP_4_random_players_structure_and_play_verifiable_games(seed: int) -> None:
    session = structured(2 + seed % 2, seed=100 + seed)
    bots = {s: RandomPlayer(seed * 16 + i) for i, s in enumerate(session.header.seats)}
    play(session, bots, max_commands=600)
    assert session.state.structuring is None
    session.close()
    assert verify_log(session.log_bytes()).status == "valid"


def test_N_MAP_4_a_seeded_structured_game_is_reproduced_byte_for_byte() -> None:
    def log(seed: int) -> bytes:
        session = structured(2, seed=seed)
        bots = {s: HeuristicPlayer(i) for i, s in enumerate(session.header.seats)}
        play(session, bots)
        session.close()
        return session.log_bytes()

    assert log(31) == log(31)
    assert log(31) != log(32)


@pytest.mark.parametrize(("players", "seed"), [(2, 40), (3, 41), (4, 42)])
def test_N_MAP_4_advanced_mode_builds_the_map_then_discards_then_plays(
    players: int, seed: int
) -> None:
    """N-SETUP-8 with N-MAP-4: conditions and first player, the map (any 2 to 4 players:
    no fixed advanced map is needed), then the opening discards, then turn 1."""
    options = {**OPTIONS, "mode": "advanced"}
    session = new_game(players, seed=seed, options=options)
    pack = session.decider.pack
    bots = {
        s: HeuristicPlayer(seed * 16 + i, pack=pack) for i, s in enumerate(session.header.seats)
    }
    events: list[Any] = []
    while session.state.turn == 0:
        seat = placer(session)
        events += session.apply(
            seat, bots[seat].choose(seat_view(session.state, seat), legal(session))
        )
    kinds = [type(e).__name__ for e in events]
    structured_at = kinds.index("MapStructured")
    assert "TurnStarted" not in kinds[: structured_at + 1]
    discards = [i for i, k in enumerate(kinds) if k == "OpeningTacticDiscarded"]
    assert len(discards) == players and min(discards) > structured_at
    assert kinds[-1] == "TurnStarted"
    game_map = session.decider.context(session.state.map_id).map
    assert game_map.strategy_zone is not None and set(game_map.bases) == set(session.header.seats)
    play(session, bots)
    outcome = session.close()
    assert outcome.reason != "abandoned"
    assert verify_log(session.log_bytes()).status == "valid"
