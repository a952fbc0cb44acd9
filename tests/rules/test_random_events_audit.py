"""Nataterra's random events carry what an auditor needs (docs/DICE.md §6).

The golden logs are rechecked from the dice stream alone: the revealed seed, the header's
``game_id`` and ``client_seed``, and each event's ``counter_before`` and ranges; no rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec
import pytest

from nataterra_core.game import decider_for
from nataterra_core.games.nataterra.rules.combat.sandbox import Sandbox
from nataterra_core.kernel import DiceStream, Event, RandomEvent, read_log, recheck

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GOLDENS = sorted(GOLDEN.glob("game-*.jsonl"))
ADVANCED = GOLDEN / "game-advanced-structured-seed-2.jsonl"
Stream = Callable[[int], DiceStream]


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [msgspec.json.decode(line) for line in path.read_bytes().splitlines()]


def stream_of(path: Path) -> Stream:
    """The log's dice stream at a given counter: revealed seed, header game_id, client_seed."""
    lines = lines_of(path)
    header = lines[0]
    seed = bytes.fromhex(next(r for r in lines if r["kind"] == "reveal")["server_seed"])
    return lambda counter: DiceStream(seed, header["game_id"], header["client_seed"], counter)


def logged(path: Path, tag: str) -> tuple[list[dict[str, Any]], Stream]:
    """The events tagged ``tag`` in a log (as JSON), and its stream."""
    events = [e for r in lines_of(path) for e in r.get("events", ()) if e["type"] == tag]
    return events, stream_of(path)


def rederived(stream: Stream, event: dict[str, Any]) -> tuple[list[int], int]:
    """``draw(m)`` for each of the event's ``ms``, from its ``counter_before``; the end."""
    dice = stream(event["counter_before"])
    return [dice.draw(m) for m in event["ms"]], dice.counter


def test_N_SETUP_8_victory_conditions_drawn_rederived_from_the_stream_alone() -> None:
    (event,), stream = logged(ADVANCED, "victory_conditions_drawn.v2")
    assert len(event["ms"]) == len(event["values"]) == len(event["conditions"]) == 3
    assert rederived(stream, event) == (event["values"], event["counter_after"])
    # The first random event of the game (it comes before the first player).
    assert event["counter_before"] == 0


def test_N_MAP_4_map_tiles_drawn_rederived_from_the_stream_alone() -> None:
    events, stream = logged(ADVANCED, "map_tiles_drawn.v2")
    assert [e["seat"] for e in events] == ["velathi", "beasts", "humans"]
    for event in events:
        assert len(event["ms"]) == len(event["values"]) == len(event["tiles"]) == 2
        assert rederived(stream, event) == (event["values"], event["counter_after"])
    # One pile, without replacement: every pick is from one tile fewer than the last.
    ranges = [m for e in events for m in e["ms"]]
    assert ranges == list(range(ranges[0], ranges[0] - len(ranges), -1))
    assert all(b["counter_before"] == a["counter_after"] for a, b in pairwise(events))


def test_N_MAP_4_a_tampered_tile_draw_is_caught_from_the_stream() -> None:
    (event, *_), stream = logged(ADVANCED, "map_tiles_drawn.v2")
    forged = {**event, "values": [(event["values"][0] + 1) % event["ms"][0], event["values"][1]]}
    assert rederived(stream, forged)[0] != forged["values"]


def random_events(path: Path) -> Iterator[tuple[int, RandomEvent]]:
    log = read_log(path.read_bytes(), decider_for)
    for record in log.records:
        for event in getattr(record, "events", ()):
            if isinstance(event, RandomEvent):
                yield record.seq, event


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.stem)
def test_every_random_event_of_a_golden_log_rechecks_in_order(path: Path) -> None:
    dice = stream_of(path)(0)
    kinds: set[str] = set()
    for seq, event in random_events(path):
        assert recheck(dice, event) is None, (seq, event)
        kinds.add(type(event).__name__)
    # Both the set-up's draws and the play's are rechecked (Liar's Dice has no deck).
    setup = {"OpenerDrawn", "CupRolled"} if "liars-dice" in path.stem else {"FirstPlayerDrawn"}
    assert dice.counter > 0 and setup <= kinds
    assert "DeckShuffled" in kinds or "liars-dice" in path.stem


def all_event_classes() -> Iterator[type[Event]]:
    pending: list[type[Event]] = [Event]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith("nataterra_core.games.") and cls.__struct_config__.tag:
            yield cls


def test_every_event_class_with_dice_counters_is_a_random_event() -> None:
    classes = list(all_event_classes())
    drawing = [c for c in classes if "counter_before" in c.__struct_fields__]
    assert {c.__name__ for c in drawing} >= {
        "FirstPlayerDrawn",
        "DeckShuffled",
        "AttackRolled",
        "AttackResolved",
        "VictoryConditionsDrawn",
        "MapTilesDrawn",
    }
    assert [c.__name__ for c in drawing if not issubclass(c, RandomEvent)] == []


def test_the_combat_sandbox_shares_the_game_s_random_events() -> None:
    # Its events are unchanged by the random-event bases: its rules version stays.
    names = {c.__name__ for c in Sandbox.event_types if issubclass(c, RandomEvent)}
    assert names == {"AttackRolled", "AttackResolved"}
