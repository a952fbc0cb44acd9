"""``nataterra play``, ``show`` and ``replay``, and the sentences they print."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from nataterra_adapters.cli import EXIT_CODES, app
from typer.testing import CliRunner

import nataterra_core.games.nataterra.words.presenter
from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.messages.combat import PlayTactic
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.tactics import (
    MovementGranted,
    ResourcesGained,
    TacticOptionPlayed,
)
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.games.nataterra.state import Resources
from nataterra_core.games.nataterra.words import describe_command, describe_event
from nataterra_core.kernel import Event, UndoRecord
from nataterra_core.kernel.registry import system
from nataterra_core.kernel.wording import describe_record

runner = CliRunner()


def played(tmp_path: Path, answers: list[str], *args: str) -> tuple[str, Path]:
    out = tmp_path / "hot-seat.jsonl"
    result = runner.invoke(
        app,
        ["play", "--seed", "3", "--out", str(out), *args],
        input="".join(f"{a}\n" for a in answers),
    )
    assert result.exit_code == 0, result.output
    return result.output, out


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("logs") / "seed3.jsonl"
    result = runner.invoke(
        app, ["demo", "--seed", "3", "--out", str(out), "--turns", "4", "--bot", "random"]
    )
    assert result.exit_code == 0, result.output
    return out


# -- play -------------------------------------------------------------------------------------

OWN_HAND = "Food multiplier I, Wood multiplier I, Metal multiplier I"
"""The first three tech cards, by title: each civilisation's opening tech hand."""


def hands(output: str) -> dict[str, str]:
    """Each player's tech hand as the player panels of the first screen show it."""
    found: dict[str, str] = {}
    civ = ""
    for line in output.splitlines():
        if line[:1] in ("*", " ") and line[1:].split(":")[0] in ("velathi", "beasts"):
            civ = line[1:].split(":")[0]
        if line.strip().startswith("tech hand:"):
            found.setdefault(civ, line.split("tech hand: ")[1].split(" · ")[0])
    return found


def test_play_applies_undoes_redoes_and_quits(tmp_path: Path) -> None:
    output, out = played(tmp_path, ["1", "u", "r", "q"])
    assert "beasts to play" in output  # seed 3: the Beasts are drawn to play first
    assert "(as seen by beasts)" in output
    assert "  1 move 1 Woodcutter from beasts.z1 to beasts.z2" in output
    assert "undone: record 2" in output
    assert "redone: beasts moves 1 Woodcutter from beasts.z1 to beasts.z2" in output
    assert "result: no winner (abandoned)" in output
    kinds = [line.split(b'"kind":"')[1].split(b'"')[0] for line in out.read_bytes().splitlines()]
    assert kinds == [b"header", b"start", b"command", b"undo", b"command", b"reveal", b"end"]
    verdict = verify_log(out.read_bytes())
    assert verdict.valid and verdict.result is not None
    assert verdict.result.reason == "abandoned"


def test_play_shows_only_the_acting_seats_hand(tmp_path: Path) -> None:
    output, _ = played(tmp_path, ["q"])
    assert hands(output) == {"beasts": OWN_HAND, "velathi": "3 hidden"}


def test_play_reprompts_on_bad_input_and_refuses_an_empty_undo(tmp_path: Path) -> None:
    output, _ = played(tmp_path, ["x", "999", "u", "q"])
    assert output.count("type a number from the menu (1, 2, 3, …), u, r or q") == 2
    assert "nothing to undo" in output


def menus(output: str) -> list[dict[str, int]]:
    """Each screen's menu: sentence -> number."""
    screens: list[dict[str, int]] = []
    for line in output.splitlines():
        if " to play ─" in line:
            screens.append({})
        for number, sentence in re.findall(r"(?:^|\s{2,})(\d+) (\S.*?)(?=\s{2,}\d+ |$)", line):
            if screens and not sentence.startswith(("of ", "food", "wood")):
                screens[-1][sentence.strip()] = int(number)
    return screens


def test_play_keeps_each_commands_number_within_a_step(tmp_path: Path) -> None:
    """Issue 17 item 3: after a move the commands still offered keep their numbers (no
    silent renumbering); a new phase starts a new menu from 1 and says so."""
    session = new_game(2, seed=3)
    before = session.legal_commands("beasts")
    output, _ = played(tmp_path, ["1", str(len(before) + 5), "q", "a", "y"])
    first, second = menus(output)[:2]
    kept = set(first) & set(second)
    assert len(kept) > 5
    assert all(first[sentence] == second[sentence] for sentence in kept)
    assert "1 move 1 Woodcutter from beasts.z1 to beasts.z2" not in " ".join(second)


def test_play_hands_over_between_seats_and_asks_before_quitting(tmp_path: Path) -> None:
    """Issue 17 item 3: a hand-over screen between the players (the next one's panel shows
    its own hand, the previous hand as a count only); q asks, c goes back to the game, an
    abandon needs a yes."""
    session = new_game(2, seed=3)
    picks = []
    for _ in range(4):  # movement, resources, combat, development
        commands = session.legal_commands("beasts")
        picks.append(str(len(commands)))  # a new menu each phase: ending it is the last
        session.apply("beasts", commands[-1])
    answers = [*picks, "", "q", "c", "q", "a", "n", "q", "s"]
    output, out = played(tmp_path, answers)
    assert "hand over to velathi" in output
    after = output.split("hand over to velathi")[1]
    assert hands(after) == {"velathi": OWN_HAND, "beasts": "3 hidden"}
    assert "beasts, press Enter" not in output  # no hand-over before the first screen
    assert after.count("velathi to play") == 3  # back after c, and after n
    assert "suspended after record" in output
    assert verify_log(out.read_bytes()).status == "incomplete"


def test_play_to_the_turn_limit(tmp_path: Path) -> None:
    session = new_game(2, seed=3, options={"max_turns": 1})
    picks = []
    for phase in ("movement", "resources", "combat", "development"):
        commands = session.legal_commands("beasts")
        assert commands[-1] == EndPhase(phase=phase)  # ending the phase is listed last
        picks.append(str(len(commands)))
        session.apply("beasts", commands[-1])
    output, out = played(tmp_path, picks, "--turns", "1")
    assert "the resources phase begins" in output
    assert "result: drawn (turn limit)" in output
    assert verify_log(out.read_bytes()).valid


def test_play_ends_cleanly_when_input_runs_out(tmp_path: Path) -> None:
    output, out = played(tmp_path, ["1"])
    assert "result: no winner (abandoned)" in output
    assert verify_log(out.read_bytes()).valid


# -- show -------------------------------------------------------------------------------------


def _unrevealed(game_log: Path, tmp_path: Path) -> Path:
    """The finished log cut before its reveal: the game as it stood in play."""
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(game_log.read_bytes().splitlines(keepends=True)[:-2]))
    return cut


def test_show_at_a_record_as_a_seat(game_log: Path, tmp_path: Path) -> None:
    in_play = _unrevealed(game_log, tmp_path)
    result = runner.invoke(app, ["show", str(in_play), "--at", "2", "--as", "beasts"])
    assert result.exit_code == 0, result.output
    assert "seed-3, after record 2 of" in result.output
    assert "(as seen by beasts)" in result.output
    assert hands(result.output) == {"beasts": OWN_HAND, "velathi": "3 hidden"}
    assert "(2 moved)" in result.output  # record 2 moved two woodcutters
    # The finished game's log holds its reveal: every hand is public.
    result = runner.invoke(app, ["show", str(game_log), "--at", "2", "--as", "beasts"])
    assert hands(result.output) == {"beasts": OWN_HAND, "velathi": OWN_HAND}


def test_show_defaults_to_the_spectator_after_the_last_record(
    game_log: Path, tmp_path: Path
) -> None:
    result = runner.invoke(app, ["show", str(game_log)])
    assert result.exit_code == 0, result.output
    assert "(as seen by spectator)" in result.output
    assert "game over after turn 4: drawn (turn limit)" in result.output
    assert "hidden" not in " ".join(hands(result.output).values())  # revealed: all public
    result = runner.invoke(app, ["show", str(_unrevealed(game_log, tmp_path))])
    assert "(as seen by spectator)" in result.output
    assert set(hands(result.output).values()) == {"3 hidden"}


def test_show_honours_undo(tmp_path: Path) -> None:
    _, out = played(tmp_path, ["1", "u", "q"])
    lines = out.read_bytes().splitlines()
    assert b'"kind":"undo"' in lines[3]
    after_move = runner.invoke(app, ["show", str(out), "--at", "2"]).output
    after_undo = runner.invoke(app, ["show", str(out), "--at", "3"]).output
    assert "(1 moved)" in after_move and "moved)" not in after_undo


def test_show_refuses_bad_arguments(game_log: Path) -> None:
    too_far = runner.invoke(app, ["show", str(game_log), "--at", "999"])
    assert too_far.exit_code == 2 and "records 0 to" in too_far.output
    nobody = runner.invoke(app, ["show", str(game_log), "--as", "elves"])
    assert nobody.exit_code == 2 and "velathi, beasts" in nobody.output


def test_show_reads_the_intact_part_of_a_torn_log(game_log: Path, tmp_path: Path) -> None:
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(game_log.read_bytes()[:-5])
    result = runner.invoke(app, ["show", str(torn)])
    assert result.exit_code == EXIT_CODES["torn"], result.output  # once shown, as verify
    assert result.output.startswith("INVALID at record ")
    assert "torn record" in result.output and "after record" in result.output


def test_show_names_an_unreadable_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"kind":"header"}\n')
    result = runner.invoke(app, ["show", str(bad)])
    assert result.exit_code == EXIT_CODES["read"]
    assert "cannot read" in result.output


# -- replay -----------------------------------------------------------------------------------


def test_replay_describes_every_record_without_spoiling_decks(game_log: Path) -> None:
    result = runner.invoke(app, ["replay", str(game_log)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "game seed-3: velathi, beasts" in text
    assert "beasts is drawn to play first" in text
    assert "the tactic:velathi deck is shuffled (15 cards)" in text
    assert "beasts ends the movement phase" in text and "the resources phase begins" in text
    assert "the server seed is revealed" in text and "result: drawn (turn limit)" in text
    first_card = b'"after":["'
    data = game_log.read_bytes()
    card = data[data.index(first_card) + len(first_card) :].split(b'"')[0].decode()
    assert card not in text  # no deck order is printed


def test_replay_from_to(game_log: Path) -> None:
    result = runner.invoke(app, ["replay", str(game_log), "--from", "4", "--to", "5"])
    assert result.exit_code == 0, result.output
    verdict, *records = result.output.splitlines()
    assert verdict.startswith("verified: all ")
    numbered = [line.split()[0] for line in records if line[:5].strip()]
    assert numbered == ["4", "5"]


# -- describe ---------------------------------------------------------------------------------


class Mystery(Event, frozen=True, tag="mystery.v1"):
    """An event type the describer has never heard of (as combat's will be)."""

    zone: str
    sides: tuple[str, ...]


def test_unknown_types_fall_back_to_tag_and_fields() -> None:
    text = describe_event(Mystery(zone="t1.z3", sides=("velathi", "beasts")))
    assert text == "mystery.v1 (zone=t1.z3, sides=[velathi, beasts])"


def test_sentences() -> None:
    move = MoveUnits(unit="hunter", origin="t1.z1", count=2, path=("t1.z2", "t1.z3"))
    assert describe_command(move, "velathi") == (
        "velathi moves 2 Hunters from t1.z1 to t1.z3 via t1.z2"
    )
    assert describe_command(EndPhase(phase="combat")) == "end the combat phase"
    undo = UndoRecord(seq=4, prev="0" * 64, seat="beasts", undoes=3)
    assert describe_record(system("nataterra"), undo, reader=None, revealed=False) == (
        "beasts undoes record 3",
        (),
    )
    play = PlayTactic(card="in_this_together", option=2, discard="unstoppable")
    assert describe_command(play, "velathi") == (
        "velathi plays In This Together, option 3 (development): discard a tactic card; "
        "draw 2 tactic cards; costs 1 other tactic card [discarding Unstoppable]"
    )
    played = TacticOptionPlayed(
        seat="naga", card="chosen", option=2, phase="development", cost=Resources(metal=1)
    )
    assert describe_event(played) == "naga plays option 3 of Chosen, paying 1 metal"
    gained = ResourcesGained(seat="naga", resources=Resources(food=2), flare=1)
    assert describe_event(gained) == "naga gains 2 food and 1 flare"
    granted = MovementGranted(seat="beasts", zone="t2.z4", movement=2)
    assert describe_event(granted) == "beasts's unmoved units in t2.z4 get +2 movement this turn"


def test_describe_doctest() -> None:
    assert doctest.testmod(nataterra_core.games.nataterra.words.presenter).failed == 0


def test_play_structured_builds_the_map_first(tmp_path: Path) -> None:
    output, out = played(tmp_path, ["1", "1", "q"], "--structured")
    assert "  1 place shared tile 0 side a up in the middle" in output
    assert "-> velathi places shared tile t0a in the middle" in output
    assert "  1 attach map tile t14 at hex (-4, 1), not turned" in output
    assert "draws 2 map tiles in secret" not in output  # drawn before the first prompt
    header = out.read_bytes().splitlines()[0]
    assert b'"map_structuring":true' in header
    verdict = verify_log(out.read_bytes())
    assert verdict.valid, verdict
