"""A forged or edited log's failure reads as words (issue 31 items 3 and 6): what ``replay``,
``show`` and ``verify`` print about it names no event tag or ``snake_case`` id outside the
auditor's detail, which comes last, in a parenthesis, after the words.

Forgeries of every registered system's short log (:mod:`test_forged_events`): a field
changed so that re-execution differs, events that no longer fold, a record that no longer
reads; and a record edited without fixing the chain.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from every_game_logs import game_ids, short_log
from nataterra_adapters.cli import EXIT_CODES, app
from nataterra_adapters.cli.common import console, err_console
from test_forged_events import forged
from test_no_raw_ids import raw_ids
from typer.testing import CliRunner

from nataterra_core.game import verify_log
from nataterra_core.kernel.failure_words import failure_words

runner = CliRunner()

_INNERMOST = re.compile(r"\([^()]*\)")


def outside_parentheses(text: str) -> str:
    """``text`` without its parenthesised parts (nested ones too): the words a player reads
    before the auditor's detail."""
    while True:
        shorter = _INNERMOST.sub("", text)
        if shorter == text:
            return text
        text = shorter


def check_said(text: str, where: str) -> None:
    """No id outside the parentheses, and words before the first one."""
    words = outside_parentheses(text)
    found = raw_ids(words)
    assert not found, f"{where}: {found} outside the detail in {text!r}"
    assert len(words.split()) >= 4, f"{where}: no words before the detail in {text!r}"


def test_the_check_finds_a_tag_outside_the_detail() -> None:
    assert raw_ids(outside_parentheses("event 0 (bl_unit_moved.v1) cannot be folded")) == []
    said = "cannot replay f past record 2: event 0 of record 3, bl_unit_moved.v1, breaks"
    with pytest.raises(AssertionError):
        check_said(said, "old words")
    check_said(
        "the first event of record 3 does not fit the game before it "
        "(event 0 (bl_unit_moved.v1) cannot be folded: IndexError)",
        "new words",
    )


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """One line per message: rich wraps at 80 columns when not on a terminal."""
    for out in (console, err_console):
        monkeypatch.setattr(out, "_width", 2000)


def _printed(path: Path) -> dict[str, list[str]]:
    """The verdict and failure lines of ``replay``, ``show`` and ``verify`` for ``path``."""
    printed = {}
    for command in (["replay", str(path)], ["show", str(path)], ["verify", str(path)]):
        result = runner.invoke(app, command, terminal_width=2000)
        assert isinstance(result.exception, SystemExit | None), (command, result.output)
        assert result.exit_code != 0, (command, result.output)
        output = result.output.replace(str(path), "the log")  # a tmp path may read as an id
        printed[command[0]] = [
            " ".join(line.split())
            for line in output.splitlines()
            if line.lstrip().startswith(("INVALID", "INCOMPLETE", "cannot", "!! INVALID"))
        ]
    return printed


@pytest.mark.parametrize("game", game_ids())
def test_a_forged_logs_failure_reads_as_words(game: str, tmp_path: Path) -> None:
    readable, breaking, unreadable = forged(game)
    diverging = [log for log in readable if log not in dict(breaking)]
    chosen = [
        *diverging[:1],
        *(log for log, _ in breaking[:2]),
        *(log for log, _ in unreadable[:1]),
    ]
    assert len(chosen) >= 3, game
    for n, log in enumerate(chosen):
        path = tmp_path / f"forged-{n}.jsonl"
        path.write_bytes(log)
        printed = _printed(path)
        for command, lines in printed.items():
            assert lines, (game, command)
            for line in lines:
                check_said(line, f"{game} {command}")
        assert printed["show"][0] == printed["replay"][0]  # verified first, as replay
        assert printed["replay"][0].startswith("INVALID at record ")


@pytest.mark.parametrize("game", game_ids())
def test_an_edited_record_reads_as_words(game: str, tmp_path: Path) -> None:
    lines = short_log(game).splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"seq":2', b'"seq":2 ')  # the chain no longer holds
    path = tmp_path / "edited.jsonl"
    path.write_bytes(b"".join(lines))
    verdict = verify_log(path.read_bytes())
    assert verdict.failure in {"chain", "read"}, verdict
    for command, said in _printed(path).items():
        for line in said:
            check_said(line, f"{game} {command}")


def test_show_says_a_valid_log_is_verified_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(short_log(game_ids()[0]))
    result = runner.invoke(app, ["show", str(path)], terminal_width=400)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("verified: all ")


def test_show_exits_as_verify_once_the_position_is_shown(tmp_path: Path) -> None:
    game = game_ids()[0]
    readable, breaking, _ = forged(game)
    log = next(log for log in readable if log not in dict(breaking))
    path = tmp_path / "forged.jsonl"
    path.write_bytes(log)
    result = runner.invoke(app, ["show", str(path)], terminal_width=400)
    assert result.exit_code == EXIT_CODES["replay"], result.output
    first, *rest = result.output.splitlines()
    assert first.startswith("INVALID at record ") and "not what the rules give" in first
    assert any("after record" in line for line in rest)  # the position is still shown


def test_every_failure_class_has_words() -> None:
    for failure in EXIT_CODES:
        if failure in {"valid", "incomplete"}:
            continue
        said = failure_words(failure, 3, "x_y.v1 detail")
        assert "does not verify" not in said, failure
        check_said(said, failure)
