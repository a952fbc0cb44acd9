"""``nataterra tournament`` (issue 19 item 4): every pairing, seats rotated, each log written
and verified, a table with intervals and ratings; the same seed gives the same table for any
number of workers. Smoke-sized here (combat-sandbox battles, tiny search budgets)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from nataterra_adapters.cli import app
from nataterra_adapters.cli.tournament import report
from nataterra_adapters.cli.tournament_games import GameResult, plan
from typer.testing import CliRunner

from nataterra_core.game import verify_log

runner = CliRunner()
SANDBOX = "nataterra-combat-sandbox"


@pytest.fixture(autouse=True)
def _in_a_temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tournaments keep their logs in a new folder of the current directory."""
    monkeypatch.chdir(tmp_path)


def _table(output: str) -> dict[str, object]:
    """The ``--json`` table without the run's folder (each run has its own)."""
    table = json.loads(output)
    del table["folder"]
    for game in table["games"]:
        del game["log"]
    return dict(table)


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", *args])
    # --json: stdout alone (stderr names the folder and the seed)
    return result.exit_code, result.stdout if "--json" in args else result.output


def test_every_pairing_plays_with_seats_rotated_and_mirrored_dice() -> None:
    planned = plan(SANDBOX, ["a", "b", "c"], 4, seed=9)
    assert [g.pairing for g in planned[::4]] == [("a", "b"), ("a", "c"), ("b", "c")]
    first = planned[:4]
    assert [g.players for g in first] == [("a", "b"), ("b", "a"), ("a", "b"), ("b", "a")]
    assert first[0].server_seed == first[1].server_seed != first[2].server_seed
    assert len({g.game_id for g in planned}) == len(planned)
    assert plan(SANDBOX, ["a", "b", "c"], 4, seed=9) == planned


def test_a_small_tournament_writes_verified_logs_and_a_json_table(tmp_path: Path) -> None:
    code, output = _run(
        "--game", SANDBOX, "--players", "random,search:2:random", "--games", "2",
        "--seed", "3", "--json", "--out", str(tmp_path),
    )  # fmt: skip
    assert code == 0, output
    table = json.loads(output)
    assert table["logs_verified"] == 2 and table["logs_invalid"] == []
    assert {s["player"] for s in table["standings"]} == {"random", "search:2:random"}
    for standing in table["standings"]:
        assert standing["games"] == 2
        assert standing["interval"][0] <= standing["win_rate"] <= standing["interval"][1]
        assert standing["elo_interval"][0] <= standing["elo"] <= standing["elo_interval"][1]
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 2 and all(verify_log(p.read_bytes()).valid for p in logs)


def test_the_same_seed_gives_the_same_table_for_any_number_of_workers() -> None:
    args = ("--game", SANDBOX, "--players", "random,search:1:random", "--games", "2", "--json")
    alone = _run(*args, "--seed", "5")
    two = _run(*args, "--seed", "5", "--workers", "2")
    assert alone[0] == two[0] == 0, (alone, two)
    assert _table(alone[1]) == _table(two[1])


def test_a_dask_cluster_gives_the_same_table_as_one_process() -> None:
    distributed = pytest.importorskip("dask.distributed")
    args = ("--game", SANDBOX, "--players", "random,search:1:random", "--games", "2", "--json")
    alone = _run(*args, "--seed", "5")
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        remote = _run(*args, "--seed", "5", "--dask-scheduler", cluster.scheduler_address)
    assert alone[0] == remote[0] == 0, (alone, remote)
    assert _table(alone[1]) == _table(remote[1])


def test_a_table_for_people_and_clear_refusals() -> None:
    code, output = _run("--game", SANDBOX, "--players", "random,search:1:random", "--games", "1")
    assert code == 0, output
    assert "win rate" in output and "Elo" in output and "2 of 2 logs verified" not in output
    assert "1 of 1 logs verified" in output
    code, output = _run("--game", SANDBOX, "--players", "random,nobody")
    assert code == 2 and "nobody" in output
    code, output = _run("--game", SANDBOX, "--players", "random")
    assert code == 2 and "two or more" in output


def test_the_table_counts_wins_draws_and_losses() -> None:
    def result(index: int, pairing: tuple[str, str], winners: tuple[str, ...]) -> GameResult:
        return GameResult(
            index=index, game_id=f"g{index}", pairing=pairing, players=pairing,
            winners=winners, reason="r", commands=1, valid=True, verdict="valid",
            seats=("x", "y"), records=3,
        )  # fmt: skip

    results = [
        result(0, ("a", "b"), ("a",)),
        result(1, ("a", "b"), ()),
        result(2, ("a", "c"), ("c",)),
        result(3, ("b", "c"), ("b",)),
    ]
    table = report("g", ["a", "b", "c"], 2, 0, {}, results)
    by = {s.player: s for s in table.standings}
    assert (by["a"].wins, by["a"].draws, by["a"].losses, by["a"].score) == (1, 1, 1, 1.5)
    assert (by["b"].wins, by["b"].draws, by["b"].losses) == (1, 1, 1)
    assert (by["c"].wins, by["c"].losses) == (1, 1)
    assert [p.wins for p in table.pairings] == [(1, 0), (0, 1), (1, 0)]


def test_a_time_budget_is_said_not_to_be_reproducible() -> None:
    """search:1s thinks on the process's clock: the seed fixes the dice, not the search."""
    code, output = _run("--game", SANDBOX, "--players", "random,search:20ms:random",
                        "--games", "1", "--seed", "4", "--json")  # fmt: skip
    assert code == 0, output
    assert json.loads(output)["reproducible"] is False
    code, output = _run("--game", SANDBOX, "--players", "random,search:20ms:random", "--games", "1")
    assert code == 0 and "not reproducible from its seed" in output, output
    code, output = _run("--game", SANDBOX, "--players", "random,search:2:random",
                        "--games", "1", "--seed", "4", "--json")  # fmt: skip
    assert json.loads(output)["reproducible"] is True
