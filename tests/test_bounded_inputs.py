"""Positions, packs and logs are bounded where they are read (issue 32 item 6): integers,
file kinds and sizes, nesting depth, the number of problems a pack reports."""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from every_game_logs import short_log
from nataterra_adapters.batch_verify import verify_many

from nataterra_core.boards.hexgrid import canonical_paths
from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.rules.positions import POSITIONS, PositionError, parse
from nataterra_core.kernel import ContentError
from nataterra_core.kernel.bounded import MAX_DEPTH, SAFE_INTEGER
from nataterra_core.kernel.registry import system

# -- positions --------------------------------------------------------------------------------


def _position() -> dict[str, Any]:
    session = new_game(2, seed=4, options={"max_turns": 10})
    for _ in range(3):
        seat = session.acting_seats()[0]
        session.apply(seat, session.legal_commands(seat)[0])
    position: dict[str, Any] = json.loads(POSITIONS.export(session.state))
    return position


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("dice_counter",), 2**67),
        (("dice_counter",), SAFE_INTEGER + 5),
        (("turn",), -(2**40)),
        (("players", "beasts", "stock", "food"), 10**30),
    ],
)
def test_an_integer_out_of_range_in_a_position_is_one_problem_naming_its_path(
    path: tuple[str | int, ...], value: int
) -> None:
    position = _position()
    node = position
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]
    with pytest.raises(PositionError) as raised:
        new_game(seed=4, position=json.dumps(position))
    (problem,) = raised.value.problems
    where = "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)
    assert problem.path == where, problem
    assert "out of range" in problem.message


def test_a_position_text_nested_100000_deep_is_refused_for_its_depth() -> None:
    text = '{"format":' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(PositionError, match=f"deeper than {MAX_DEPTH}"):
        parse(text)


def test_a_toml_position_nested_5000_deep_is_refused_for_its_depth(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(PositionError, match=f"deeper than {MAX_DEPTH}"):
        parse(path)


def _parse_within(path: Path, seconds: float) -> BaseException | None:
    """Parse ``path`` on a thread; the error it raised, or fail if it is still reading."""
    raised: list[BaseException | None] = []

    def run() -> None:
        try:
            parse(path)
            raised.append(None)
        except BaseException as exc:
            raised.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    return raised[0] if raised else pytest.fail(f"still reading {path} after {seconds} s")


def test_a_position_file_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "position.json"
    os.mkfifo(fifo)
    try:
        raised = _parse_within(fifo, 5)
    finally:  # release a reader that waits for a writer (today's code)
        descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK) if not raised else None
        if descriptor is not None:
            os.close(descriptor)
    assert isinstance(raised, PositionError) and "FIFO" in str(raised), raised


def test_a_position_file_that_links_to_an_endless_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "position.json"
    link.symlink_to("/dev/zero")
    raised = _parse_within(link, 5)
    assert isinstance(raised, PositionError) and "not a regular file" in str(raised), raised


def test_a_position_file_larger_than_the_cap_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_bytes(b" " * (64 << 20))
    raised = _parse_within(path, 5)
    assert isinstance(raised, PositionError) and "larger than" in str(raised), raised


# -- logs ----------------------------------------------------------------------------------


def _rechained(lines: list[bytes]) -> bytes:
    out, prev = [], "0" * 64
    for seq, line in enumerate(lines):
        record = json.loads(line)
        record["seq"], record["prev"] = seq, prev
        encoded = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
        out.append(encoded)
        prev = hashlib.sha256(encoded).hexdigest()
    return b"".join(line + b"\n" for line in out)


@pytest.mark.parametrize("value", [SAFE_INTEGER, -SAFE_INTEGER, 2**67])
def test_a_record_holding_an_integer_outside_the_safe_range_fails_to_read(value: int) -> None:
    lines = short_log("pig").splitlines()
    seq = next(s for s, line in enumerate(lines) if b'"events":[{' in line and s > 1)
    record = json.loads(lines[seq])
    event = record["events"][0]
    key = next(k for k, v in event.items() if isinstance(v, int) and not isinstance(v, bool))
    event[key] = value
    lines[seq] = json.dumps(record).encode()
    verdict = verify_log(_rechained(lines))
    assert (verdict.failure, verdict.seq) == ("read", seq), verdict
    assert f"$.events[0].{key}" in verdict.reason and "2**53" in verdict.reason


def test_a_record_whose_strings_hold_long_digit_runs_still_verifies() -> None:
    """The range check looks at numbers, not at digits inside strings."""
    log = short_log("pig")
    assert verify_log(log).valid


# -- packs ---------------------------------------------------------------------------------


def _pack(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    (folder / "pack.toml").write_text('[pack]\nid = "user"\nversion = "1"\n')
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def _load(folder: Path) -> ContentError:
    with pytest.raises(ContentError) as raised:
        system("nataterra").load_pack(folder)
    return raised.value


def test_a_pack_integer_out_of_range_is_refused_naming_its_path(tmp_path: Path) -> None:
    folder = _pack(
        tmp_path / "p",
        {"units.toml": '[[units]]\nid = "hunter"\nmovement = ' + "1" + "0" * 30 + "\n"},
    )
    error = _load(folder)
    assert [(p.file, p.path) for p in error.problems] == [
        ("overlay/units.toml", "$.units[0].movement")
    ]
    assert "out of range" in error.problems[0].message


def test_a_pack_of_100000_entries_stops_after_a_hundred_problems(tmp_path: Path) -> None:
    entries = "".join(f'[[units]]\nid = "u{i}"\nciv = "nobody"\n' for i in range(100_000))
    error = _load(_pack(tmp_path / "p", {"units.toml": entries}))
    assert len(error.problems) == 100
    assert "stopped after the first 100 problems" in str(error)
    unchecked = re.search(r"([0-9,]+) entries were not checked", str(error))
    assert unchecked is not None and int(unchecked[1].replace(",", "")) > 99_000


@pytest.mark.parametrize("kind", ["fifo", "loop", "dangling", "directory", "device"])
def test_a_pack_entry_that_is_not_a_regular_toml_file_is_reported(
    kind: str, tmp_path: Path
) -> None:
    folder = _pack(tmp_path / "p", {})
    odd = folder / "odd.toml"
    if kind == "fifo":
        os.mkfifo(odd)
    elif kind == "loop":
        odd.symlink_to(odd)
    elif kind == "dangling":
        odd.symlink_to(folder / "missing.toml")
    elif kind == "directory":
        odd.mkdir()
    else:
        odd.symlink_to("/dev/zero")
    started = time.monotonic()
    error = _load(folder)
    assert time.monotonic() - started < 30  # not a timing test: a FIFO must not hang it
    assert [p.file for p in error.problems] == ["overlay/odd.toml"], error


def test_a_directory_loop_in_a_pack_is_reported(tmp_path: Path) -> None:
    folder = _pack(tmp_path / "p", {})
    (folder / "sub").mkdir()
    (folder / "sub" / "back").symlink_to(folder, target_is_directory=True)
    error = _load(folder)
    assert [p.file for p in error.problems] == ["overlay/sub/back"], error
    assert "loop" in error.problems[0].message


def test_a_pack_file_larger_than_the_cap_is_refused(tmp_path: Path) -> None:
    folder = _pack(tmp_path / "p", {"big.toml": "# " + "x" * (8 << 20) + "\n"})
    error = _load(folder)
    assert [p.file for p in error.problems] == ["overlay/big.toml"], error
    assert "larger than" in error.problems[0].message


def test_a_path_search_with_the_largest_step_budget_ends_when_nothing_is_left_to_enter() -> None:
    """A pack may give ``movement = 2**31 - 1``: the search stops once no state is new (it
    looped over every step, and ``nataterra demo`` with such a pack never finished)."""

    def moves(state: int) -> list[tuple[int, int]]:
        return [(state + 1, state + 1)] if state < 3 else []

    found: list[dict[int, tuple[int, ...]]] = []
    thread = threading.Thread(
        target=lambda: found.append(canonical_paths(0, 2**31 - 1, moves)), daemon=True
    )
    thread.start()
    thread.join(30)
    assert found == [{1: (1,), 2: (1, 2), 3: (1, 2, 3)}]


def test_a_log_that_is_a_fifo_is_a_read_verdict_and_the_batch_goes_on(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    (tmp_path / "good.jsonl").write_bytes(short_log("pig"))
    found: list[list[str]] = []

    def run() -> None:
        verdicts = verify_many([fifo, tmp_path / "good.jsonl"])
        found.append([v.failure or v.status for v in verdicts])

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(30)
    if not found:  # release today's reader, which waits for a writer
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert found == [["read", "valid"]]
