"""Replaying and showing never raise on a log with forged events, in every registered game
(issue 32 item 5): the kernel, ``nataterra show`` and ``replay`` and ``log.replay`` name the
record whose events do not fold and why, as verification does, and show what comes before it.

The forgeries change one field of one event (a number, a name, a list) or drop an event, and
fix the chain after it, as a forger would; verification rejects them (``replay``), and the
folds, which trust logged events, break on some of them (a unit that is not there).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from every_game_logs import game_ids, short_log
from nataterra_adapters.cli import EXIT_CODES, app
from nataterra_adapters.rpc.server import Server
from typer.testing import CliRunner

from nataterra_core.game import decider_for, new_game, verify_log
from nataterra_core.kernel import (
    CommandRecord,
    LogError,
    Setup,
    StartRecord,
    read_log,
    replay_prefix,
)
from nataterra_core.kernel.registry import systems

runner = CliRunner()


def rechained(records: list[dict[str, Any]]) -> bytes:
    out, prev = [], "0" * 64
    for seq, record in enumerate(records):
        record["seq"], record["prev"] = seq, prev
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
        out.append(line)
        prev = hashlib.sha256(line).hexdigest()
    return b"".join(line + b"\n" for line in out)


def _changed(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1000, -1]
    if isinstance(value, str):
        return ["forged"]
    if isinstance(value, list):
        return [[], value * 2]
    return []


def forgeries(log: bytes) -> Iterator[bytes]:
    """Every log with one event field changed, or one event dropped, chain fixed."""
    records = [json.loads(line) for line in log.splitlines()]
    for seq, record in enumerate(records):
        for index, event in enumerate(record.get("events", [])):
            edits = [(key, alt) for key, v in event.items() if key != "type" for alt in _changed(v)]
            for key, alt in [*edits, (None, None)]:
                copy = json.loads(json.dumps(records))
                if key is None:
                    del copy[seq]["events"][index]
                else:
                    copy[seq]["events"][index][key] = alt
                yield rechained(copy)


def fold_failure(log: bytes) -> int | None:
    """The record whose events the decider cannot fold (this test's own loop), if any."""
    read = read_log(log, decider_for)
    header = read.header
    setup = Setup(game_id=header.game_id, seats=header.seats, options=header.options)
    state = read.decider.initial_state(setup)
    for record in read.records:
        if isinstance(record, StartRecord | CommandRecord):
            try:
                for event in record.events:
                    state = read.decider.evolve(state, event)
            except Exception:
                return record.seq
    return None


@cache
def forged(game: str) -> tuple[list[bytes], list[tuple[bytes, int]], list[tuple[bytes, int]]]:
    """The forgeries of ``game``'s short log that read, those whose folds break (with the
    record where they do) and those with a record that does not read (a changed name that
    is not one of its kind; with that record)."""
    readable, breaking, unreadable = [], [], []
    for log in forgeries(short_log(game)):
        try:
            seq = fold_failure(log)
        except LogError as exc:
            unreadable.append((log, exc.seq or 0))
            continue
        readable.append(log)
        if seq is not None:
            breaking.append((log, seq))
    return readable, breaking, unreadable


@pytest.mark.parametrize("game", game_ids())
def test_replay_folds_every_forgery_up_to_the_record_that_breaks(game: str) -> None:
    readable, breaking, _ = forged(game)
    assert readable, f"{game}: no forgery reads"
    broken = dict(breaking)
    for log in readable:
        read = read_log(log, decider_for)
        states, failure = replay_prefix(read.decider, read.header, read.records)
        if log not in broken:
            assert failure is None and len(states) == len(read.records)
            continue
        assert failure is not None and failure.seq == broken[log]
        assert len(states) == failure.seq
        assert "cannot be folded" in failure.reason


def _some(game: str, count: int) -> list[tuple[bytes, int]]:
    breaking = forged(game)[1]
    return breaking[:: max(1, len(breaking) // count)][:count]


def _rpc(method: str, **params: Any) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    reply = Server(test_seeds=True).dispatcher.handle(json.dumps(message).encode())
    assert reply is not None
    answer: dict[str, Any] = json.loads(reply)
    return answer


@pytest.mark.parametrize("game", game_ids())
def test_log_replay_shows_a_forged_log_up_to_the_record_that_breaks(game: str) -> None:
    for log, seq in _some(game, 4):
        verdict = verify_log(log)
        assert (verdict.status, verdict.failure) == ("invalid", "replay"), verdict
        answer = _rpc("log.replay", log=log.decode())
        assert "result" in answer, answer
        result = answer["result"]
        assert result["stopped"]["failure"] == "replay"
        assert result["stopped"]["seq"] == seq
        assert "cannot be folded" in result["stopped"]["reason"]
        assert result["records"] == seq and result["at"] == seq - 1
        assert len(result["words"]) == seq
        at_start = _rpc("log.replay", log=log.decode(), at=0, words=False)["result"]
        assert at_start["at"] == 0 and at_start["stopped"] == result["stopped"]


@pytest.mark.parametrize("game", game_ids())
def test_show_and_replay_print_what_folds_and_name_the_record(game: str, tmp_path: Path) -> None:
    for n, (log, seq) in enumerate(_some(game, 2)):
        path = tmp_path / f"forged-{n}.jsonl"
        path.write_bytes(log)
        for command in (
            ["show", str(path)],
            ["replay", str(path)],
            ["show", str(path), "--at", "0"],
        ):
            result = runner.invoke(app, command)
            said = " ".join(result.output.split())  # rich wraps long lines
            assert isinstance(result.exception, SystemExit | None), (command, said)
            assert result.exit_code == EXIT_CODES["replay"], (command, said)
            assert f"record {seq} does not fit the game before it" in said, (command, said)
            assert "cannot be folded" in said, (command, said)  # the auditor's detail
        shown = runner.invoke(app, ["replay", str(path)]).output
        assert f"{seq - 1:>5} " in shown and f"{seq:>5} " not in shown


@pytest.mark.parametrize("game", game_ids())
def test_log_replay_never_answers_an_internal_error_for_a_forgery(
    game: str, tmp_path: Path
) -> None:
    """Every forgery that reads: an answer, or the unreadable-log error naming a record (a
    state that folds but that the views cannot show), never -32603; ``show`` names it too."""
    server = Server(test_seeds=True)
    for log in forged(game)[0]:
        message = {"jsonrpc": "2.0", "id": 1, "method": "log.replay"}
        message["params"] = {"log": log.decode(), "words": False}
        reply = server.dispatcher.handle(json.dumps(message).encode())
        assert reply is not None
        answer = json.loads(reply)
        if "error" in answer:
            assert answer["error"]["data"]["error"] == "unreadable_log", answer["error"]
            assert answer["error"]["message"].startswith("record "), answer["error"]
            (tmp_path / "forged.jsonl").write_bytes(log)
            shown = runner.invoke(app, ["show", str(tmp_path / "forged.jsonl")])
            assert isinstance(shown.exception, SystemExit | None), shown.output
            assert shown.exit_code == EXIT_CODES["replay"], shown.output


def test_the_log_in_words_of_a_game_started_from_a_position_whose_start_has_no_events() -> None:
    """A mid-game export without a shuffle: the start record's events are omitted (empty)."""
    record = next(r for r in systems() if r.hooks.positions is not None)
    session = new_game(record.default_seats[min(record.default_seats)], game=record.id, seed=1)
    for _ in range(6):
        seat = session.acting_seats()[0]
        session.apply(seat, session.legal_commands(seat)[0])
    text = record.hooks.positions.export(session.state)
    server = Server(test_seeds=True)

    def call(method: str, **params: Any) -> dict[str, Any]:
        message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        reply = server.dispatcher.handle(json.dumps(message).encode())
        assert reply is not None
        answer: dict[str, Any] = json.loads(reply)
        assert "result" in answer, answer
        return answer["result"]  # type: ignore[no-any-return]

    made = call("game.create", rules=record.id, seed=2, position=text)
    start = json.loads(server.games.session(made["game_id"]).lines[1])
    assert "events" not in start
    log = call("game.log", game_id=made["game_id"], words=True)
    assert len(log["words"]) == len(log["records"]) == 2


@pytest.mark.parametrize("game", game_ids())
def test_a_forgery_with_a_record_that_does_not_read_is_shown_up_to_it(
    game: str, tmp_path: Path
) -> None:
    unreadable = [(log, seq) for log, seq in forged(game)[2] if seq >= 2]
    for log, seq in unreadable[:: max(1, len(unreadable) // 3)][:3]:
        result = _rpc("log.replay", log=log.decode())["result"]
        assert result["stopped"]["failure"] == "read" and result["stopped"]["seq"] == seq
        assert result["records"] == seq and len(result["words"]) == seq
        path = tmp_path / "forged.jsonl"
        path.write_bytes(log)
        for command in (["show", str(path)], ["replay", str(path)]):
            shown = runner.invoke(app, command)
            said = " ".join(shown.output.split())
            assert isinstance(shown.exception, SystemExit | None), (command, said)
            assert shown.exit_code == EXIT_CODES["read"], (command, said)
            assert f"record {seq} cannot be read" in said, (command, said)
        printed = runner.invoke(app, ["replay", str(path)]).output
        assert f"{seq - 1:>5} " in printed and f"{seq:>5} " not in printed
