"""Tournaments an organiser can leave running (issue 34 item 3), as a subprocess: logs kept
in a new dated folder with ``summary.json``, a secret seed by default, a line per finished
game when stderr is no terminal, Ctrl-C and SIGTERM stopping at once with the partial table
and every log whole, ``--resume`` finishing with the same games, Swiss rounds.

Games are combat-sandbox battles between ``random`` and a search player (a second or so
each on a loaded machine), so that a signal finds a game in flight."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from nataterra_core.game import verify_log

NATATERRA = str(Path(sys.executable).with_name("nataterra"))
SANDBOX = ["--game", "nataterra-combat-sandbox"]
SLOW = ["--players", "random,search:40:random"]


def _start(cwd: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [NATATERRA, "tournament", *SANDBOX, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: what is left of it can be seen
    )


def _run(cwd: Path, *args: str) -> tuple[int, str, str]:
    process = _start(cwd, *args)
    try:
        out, err = process.communicate(timeout=600)
    finally:
        _end(process)
    return process.returncode, out, err


def _end(process: subprocess.Popen[str]) -> None:
    """A tournament this test started and left running (a failed assertion) is killed."""
    if process.poll() is None:
        process.kill()
        process.communicate()


def _interrupt_after_first_game(process: subprocess.Popen[str], number: int) -> tuple[str, str]:
    """Send ``number`` once a game has finished; stdout and stderr."""
    assert process.stderr is not None
    seen = []
    try:
        for line in process.stderr:
            seen.append(line)
            if line.startswith("[1/"):
                break
        else:
            raise AssertionError("".join(seen))
        process.send_signal(number)
        out, err = process.communicate(timeout=120)
    finally:
        _end(process)
    return out, "".join(seen) + err


def _folder(stderr: str) -> str:
    match = re.search(r"tournament folder: (\S+)", stderr)
    assert match, stderr
    return match.group(1)


def _whole_and_valid(folder: Path) -> list[Path]:
    """Every log in ``folder`` verifies; no partial file is left."""
    assert not list(folder.glob(".*partial")), list(folder.iterdir())
    logs = sorted(folder.glob("*.jsonl"))
    for log in logs:
        verdict = verify_log(log.read_bytes())
        assert verdict.valid, (log, verdict)
    return logs


def _comparable(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("folder", "interrupted")}


def _group_ended(group: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_logs_are_kept_in_a_dated_folder_with_a_secret_seed(tmp_path: Path) -> None:
    code, out, err = _run(tmp_path, "--players", "random,search:1:random", "--games", "2")
    assert code == 0, err
    folder = tmp_path / _folder(err)
    assert re.fullmatch(r"tournament-\d{8}-\d{6}", folder.name)
    assert "(seed: secret)" in err and "seed: secret" in out
    # Not a terminal: one line per finished game, with the estimate of the time left.
    lines = [line for line in err.splitlines() if line.startswith("[")]
    assert [line[:5] for line in lines] == ["[1/2]", "[2/2]"] and "left" in lines[0]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["interrupted"] is False and summary["seed"] is None
    assert summary["seed_kind"] == "secret"
    logs = _whole_and_valid(folder)
    assert [g["log"] for g in summary["games"]] == [log.name for log in logs]
    assert (folder / "seed.secret").stat().st_mode & 0o077 == 0
    assert all(not g["game_id"].startswith("t0-") for g in summary["games"])
    # The secret is another for each tournament: another run, other dice.
    code, _, err2 = _run(tmp_path, "--players", "random,search:1:random", "--games", "2")
    assert code == 0 and _folder(err2) != _folder(err)


def test_sigint_prints_the_partial_table_and_resume_finishes_it(tmp_path: Path) -> None:
    args = [*SLOW, "--games", "6", "--seed", "5"]
    process = _start(tmp_path, *args, "--out", "cut")
    out, err = _interrupt_after_first_game(process, signal.SIGINT)
    assert process.returncode == 128 + signal.SIGINT, err
    assert "interrupted" in out and "win rate" in out, out
    assert "Traceback" not in err and "leaked" not in err, err
    folder = tmp_path / "cut"
    logs = _whole_and_valid(folder)
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["interrupted"] is True and summary["games_planned"] == 6
    assert 1 <= len(summary["games"]) == len(logs) < 6
    kept = {log.name: log.stat().st_mtime_ns for log in logs}

    code, out, err = _run(tmp_path, "--resume", "cut", "--json")
    assert code == 0, err
    resumed = json.loads(out)
    assert resumed["interrupted"] is False and len(resumed["games"]) == 6
    assert {log.name: log.stat().st_mtime_ns for log in logs} == kept  # not played again
    _whole_and_valid(folder)
    code, out, _ = _run(tmp_path, *args, "--out", "whole", "--json")
    assert code == 0
    assert _comparable(json.loads(out)) == _comparable(resumed)


def test_sigterm_stops_local_workers_and_leaks_nothing(tmp_path: Path) -> None:
    process = _start(tmp_path, *SLOW, "--games", "8", "--workers", "2", "--out", "cut")
    out, err = _interrupt_after_first_game(process, signal.SIGTERM)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "interrupted" in out, out
    assert "leaked" not in err and "Traceback" not in err, err
    assert _group_ended(process.pid), "a worker outlived the tournament"
    logs = _whole_and_valid(tmp_path / "cut")
    summary = json.loads((tmp_path / "cut" / "summary.json").read_text())
    assert summary["interrupted"] is True and len(summary["games"]) == len(logs)


def test_a_swiss_tournament_pairs_by_score_without_repeats(tmp_path: Path) -> None:
    players = "random,search:1:random,search:2:random,search:3:random,search:4:random"
    args = ["--players", players, "--format", "swiss", "--rounds", "3", "--games", "2"]
    code, out, err = _run(tmp_path, *args, "--seed", "2", "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["format"] == "swiss" and summary["rounds"] == 3
    games = summary["games"]
    assert len(games) == 3 * 2 * 2 == summary["games_planned"]
    pairings = {(g["round"], tuple(sorted(g["pairing"]))) for g in games}
    assert len({pair for _, pair in pairings}) == len(pairings) == 6  # none repeated
    assert sum(summary["byes"].values()) == 3  # five players: one sits out each round
    assert all(g["game_id"].startswith(f"t2-r{g['round']}-") for g in games)
    code, _, err = _run(tmp_path, "--players", players, "--format", "swiss")
    assert code == 2 and "--rounds" in err, err


def test_resume_reads_the_secret_seed_back(tmp_path: Path) -> None:
    """A game lost from a secret-seeded folder is played again with its own dice and bots:
    the same log, byte for byte."""
    code, _, err = _run(tmp_path, "--players", "random,search:2:random", "--games", "3")
    assert code == 0, err
    folder = tmp_path / _folder(err)
    lost = sorted(folder.glob("*.jsonl"))[1]
    played = lost.read_bytes()
    lost.unlink()
    code, out, err = _run(tmp_path, "--resume", str(folder), "--json")
    assert code == 0, err
    assert lost.read_bytes() == played
    assert len(json.loads(out)["games"]) == 3 and "1 game(s) already" not in err
    assert "2 game(s) already finished" in err
    code, _, err = _run(tmp_path, "--resume", str(folder), "--players", "random,search:2:random")
    assert code == 2 and "give none of them" in " ".join(err.replace("│", " ").split()), err


def test_resume_replays_the_swiss_pairings(tmp_path: Path) -> None:
    """Later Swiss rounds are paired from earlier results: a resumed run pairs them again
    from the kept logs, the same way."""
    players = "random,search:1:random,search:2:random,search:3:random"
    args = ["--players", players, "--format", "swiss", "--rounds", "3", "--games", "1"]
    code, out, err = _run(tmp_path, *args, "--seed", "6", "--out", "whole", "--json")
    assert code == 0, err
    whole = json.loads(out)
    for log in (tmp_path / "whole").glob("t6-r2-*.jsonl"):  # round 2 lost, round 3 kept
        log.unlink()
    code, out, err = _run(tmp_path, "--resume", "whole", "--json")
    assert code == 0, err
    assert _comparable(json.loads(out)) == _comparable(whole)
    assert err.count("2 game(s) already finished") == 2, err  # rounds 1 and 3 were kept
