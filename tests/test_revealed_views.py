"""After the reveal a replay shows what the revealed seed makes public (every seat's hand,
every cup), through the declared secrets (``kernel.secrets.sees``), in every game that keeps
secrets (the registry is iterated: a new one is covered with no edit): the kernel's
``RuleSystem.view_of``, RPC ``log.replay`` (the browser's replay view) and ``game.view`` of a
finished game, ``nataterra show``. Before the reveal, or for a log cut before it, the views
stay what the seat may know."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from every_game_logs import short_log
from nataterra_adapters.cli import app
from test_cut_logs import rpc_result
from typer.testing import CliRunner

from nataterra_core.game import decider_for
from nataterra_core.kernel import read_log, replay_states
from nataterra_core.kernel.registry import RuleSystem, system, systems
from nataterra_core.kernel.secrets import redact

runner = CliRunner()
SECRET_KEEPING = [record.id for record in systems() if not record.perfect_information]


def _covers(whole: Any, part: Any, path: str = "$") -> None:
    """Everything ``part`` (one seat's view, as builtins) shows, ``whole`` shows the same;
    what ``part`` does not show (``None``, empty) ``whole`` may show."""
    if part is None or part in ([], (), {}):
        return
    if isinstance(part, dict):
        assert isinstance(whole, dict), path
        for key, value in part.items():
            if path == "$" and key == "seat":  # the viewer's own name
                continue
            _covers(whole.get(key), value, f"{path}.{key}")
    elif isinstance(part, list | tuple):
        assert isinstance(whole, list | tuple) and len(whole) == len(part), path
        for index, (w, p) in enumerate(zip(whole, part, strict=True)):
            _covers(w, p, f"{path}[{index}]")
    else:
        assert whole == part, (path, whole, part)


def _states(game: str) -> tuple[RuleSystem, list[Any], bytes]:
    data = short_log(game)
    log = read_log(data, decider_for)
    states = [state for _, state in replay_states(log.decider, log.header, log.records)]
    return system(game), states, data


def _view(record: RuleSystem, state: Any, seat: str | None, revealed: bool) -> Any:
    """The view as JSON reads it (as the RPC sends it)."""
    return msgspec.json.decode(msgspec.json.encode(record.view_of(state, seat, revealed=revealed)))


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_a_revealed_view_shows_every_seats_secrets(game: str) -> None:
    record, states, data = _states(game)
    seats = json.loads(data.splitlines()[0])["seats"]
    differs = 0
    for state in states[1:]:
        whole = _view(record, state, None, True)
        for seat in seats:
            own = _view(record, state, seat, False)
            _covers(whole, own)  # every seat's secrets, as its own view shows them
            assert _view(record, state, seat, True) == {**whole, "seat": seat}
        spectator = _view(record, state, None, False)
        redacted = record.seat_view(redact(state, None), None)
        assert spectator == msgspec.json.decode(msgspec.json.encode(redacted))
        differs += whole != spectator
    assert differs, "no position of the game showed a secret once revealed"


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_rpc_replay_shows_the_revealed_secrets_after_the_reveal_only(game: str) -> None:
    record, states, data = _states(game)
    lines = data.splitlines(keepends=True)
    at = max(n for n, state in enumerate(states[:-2]) if
             _view(record, state, None, True) != _view(record, state, None, False))  # fmt: skip
    whole = rpc_result("log.replay", log=data.decode(), at=at, words=False)
    assert whole["view"] == _view(record, states[at], None, True)
    assert whole["text"] == record.presenter.view(record.view_of(states[at], None, revealed=True))
    cut = rpc_result("log.replay", log=b"".join(lines[:-2]).decode(), at=at, words=False)
    assert cut["view"] == _view(record, states[at], None, False)
    assert cut["text"] != whole["text"]
    seat = json.loads(lines[0])["seats"][0]
    as_seat = rpc_result("log.replay", log=b"".join(lines[:-2]).decode(), at=at, seat=seat)
    assert as_seat["view"] == _view(record, states[at], seat, False)


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_nataterra_show_shows_the_revealed_secrets(game: str, tmp_path: Path) -> None:
    record, states, data = _states(game)
    at = max(n for n, state in enumerate(states[:-2]) if
             _view(record, state, None, True) != _view(record, state, None, False))  # fmt: skip
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    whole.write_bytes(data)
    cut.write_bytes(b"".join(data.splitlines(keepends=True)[:-2]))
    shown = runner.invoke(app, ["show", str(whole), "--at", str(at)], terminal_width=400)
    assert shown.exit_code == 0, shown.output
    revealed = record.presenter.view(record.view_of(states[at], None, revealed=True))
    hidden = record.presenter.view(record.view_of(states[at], None))
    assert revealed != hidden
    assert " ".join(revealed.split()) in " ".join(shown.output.split())
    shown = runner.invoke(app, ["show", str(cut), "--at", str(at)], terminal_width=400)
    assert shown.exit_code == 0, shown.output
    assert " ".join(hidden.split()) in " ".join(shown.output.split())
