"""``nataterra play`` on a terminal (issue 31 item 8): one screen of 80x24 redrawn in place,
its status line and last error on screen, the other seat's moves shown, the regions that
do not fit scrolled by keys. Run through a real pseudo-terminal; what is checked is what
the screen shows after the output is interpreted (:mod:`terminal_screen`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from terminal_screen import Terminal

from nataterra_core.game import new_game, verify_log

CLI = [sys.executable, "-c", "from nataterra_adapters.cli import app; app()"]
ERROR = "type a number from the menu"


def play(tmp_path: Path, *args: str) -> tuple[Terminal, Path]:
    out = tmp_path / "screen.jsonl"
    command = [*CLI, "play", "--seed", "3", "--out", str(out), *args]
    return Terminal(command, dict(os.environ), columns=80, rows=24), out


def rows(screen: str) -> list[str]:
    return screen.split("\n")


def test_the_status_line_and_the_last_error_stay_on_an_80x24_screen(tmp_path: Path) -> None:
    terminal, out = play(tmp_path, "--game", "kaladan")
    try:
        first = terminal.wait_for("red >")
        assert rows(first)[0].startswith(" red to play  Kaladan, turn 1")  # the status line
        assert "── board" in first and "── choices" in first
        terminal.send("x\n")
        screen = terminal.wait_for(ERROR)
        lines = rows(screen)
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        assert lines[0].startswith(" red to play  Kaladan, turn 1")  # still at the top
        assert ERROR in lines[-2] and lines[-1].startswith("red >")  # just above the prompt
        terminal.send("1\n")  # an accepted key clears the error; the move is told
        screen = terminal.wait_for("you: red draws the top event card")
        assert ERROR not in screen and rows(screen)[0].startswith(" red to play")
        terminal.send("q\na\ny\n")
        assert terminal.finish() == 0
    finally:
        terminal.process.kill()
    assert "result: no winner (abandoned)" in terminal.screen.text()  # left the alt screen
    assert verify_log(out.read_bytes()).valid


def test_the_board_scrolls_and_the_next_seat_sees_the_last_moves(tmp_path: Path) -> None:
    terminal, _ = play(tmp_path)  # Nataterra: a 40-line view and 16 choices
    try:
        screen = terminal.wait_for("beasts >")
        board_rule = next(line for line in rows(screen) if line.startswith("── board"))
        assert "lines 1-" in board_rule and "j/k" in board_rule  # the map does not fit
        terminal.send("j\n")
        scrolled = rows(terminal.wait_for("beasts >"))
        assert scrolled[0].startswith(" beasts to play")
        assert next(line for line in scrolled if line.startswith("── board")) != board_rule
        assert not any("lines 1-" in line for line in scrolled)
        # end the four phases of the beasts' turn: the last choice of each menu, typed
        # whether or not its page is the one shown
        session = new_game(2, seed=3)
        for phase in range(4):
            commands = session.legal_commands("beasts")
            session.apply("beasts", commands[-1])
            terminal.send(f"{len(commands)}\n")
            terminal.wait_for("you: " if phase < 3 else "hand over to velathi")
        terminal.send("\n")
        screen = terminal.wait_for("velathi >")
        assert "you: " not in screen  # the beasts' own echo is not for velathi
        assert "since your move" in screen or "(+" in screen
        assert "beasts ends the development phase" in screen or "l lists them" in screen
        terminal.send("l\n")
        moves = terminal.wait_for("── moves")
        assert "1. beasts" in moves
        terminal.send("q\ns\n")
        assert terminal.finish() == 0
    finally:
        terminal.process.kill()
    assert "suspended after record" in terminal.screen.text()
