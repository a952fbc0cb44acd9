"""``nataterra tournament --dask-scheduler`` against a real cluster (issue 34 item 3): a
``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, started here. The same
seed gives the same pairings, results and table as ``--workers 2``, every log is kept and
verified, and a worker killed mid-run neither loses nor doubles a game (Dask runs the
game it held again elsewhere; only this process writes logs, in plan order)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nataterra_core.game import verify_log

distributed = pytest.importorskip("dask.distributed", reason="the cluster extra is not installed")

BIN = Path(sys.executable).parent
NATATERRA = str(BIN / "nataterra")
DASK = shutil.which("dask", path=str(BIN)) or shutil.which("dask")
ARGS = ["--game", "nataterra-combat-sandbox", "--players", "random,search:30:random"]


def _quiet(command: list[str]) -> subprocess.Popen[bytes]:
    """A process of the cluster, in its own process group (killed whole), its output dropped."""
    return subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )


class Cluster:
    """A scheduler and two workers, each in its own process group (killable whole)."""

    def __init__(self) -> None:
        if DASK is None:
            pytest.skip("no dask command (the cluster extra installs it)")
        assert DASK is not None
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{port}"
        self.scheduler = _quiet(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
        )
        worker = [DASK, "worker", self.address, "--nthreads", "1", "--host", "127.0.0.1"]
        self.workers = [_quiet([*worker, "--no-dashboard", "--name", f"w{i}"]) for i in range(2)]
        with distributed.Client(self.address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)

    def kill_worker(self, index: int) -> None:
        os.killpg(self.workers[index].pid, signal.SIGKILL)  # the nanny and its worker

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in [*self.workers, self.scheduler]:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    started = Cluster()
    try:
        yield started
    finally:
        started.stop()


def _tournament(cwd: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [NATATERRA, "tournament", *ARGS, "--seed", "7", "--json", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finished(process: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = process.communicate(timeout=900)
    assert process.returncode == 0, err
    return dict(json.loads(out))


def _same_games(summary: dict[str, Any], folder: Path) -> dict[str, Any]:
    """The summary without its folder, after checking its logs: one per game, valid."""
    ids = [game["game_id"] for game in summary["games"]]
    assert len(ids) == len(set(ids)) == summary["games_planned"]
    assert sorted(p.stem for p in folder.glob("*.jsonl")) == sorted(ids)
    for game_id in ids:
        assert verify_log((folder / f"{game_id}.jsonl").read_bytes()).valid
    return {k: v for k, v in summary.items() if k != "folder"}


def test_a_cluster_plays_the_same_tournament_as_two_local_workers(
    cluster: Cluster, tmp_path: Path
) -> None:
    local = _finished(_tournament(tmp_path, "--games", "4", "--workers", "2", "--out", "local"))
    remote = ["--dask-scheduler", cluster.address, "--out", "remote"]
    on_cluster = _finished(_tournament(tmp_path, "--games", "4", *remote))
    assert _same_games(on_cluster, tmp_path / "remote") == _same_games(local, tmp_path / "local")


def test_a_worker_killed_mid_run_loses_and_doubles_no_game(
    cluster: Cluster, tmp_path: Path
) -> None:
    remote = ["--dask-scheduler", cluster.address, "--out", "remote"]
    process = _tournament(tmp_path, "--games", "8", *remote)
    folder = tmp_path / "remote"
    deadline = time.monotonic() + 300
    while not list(folder.glob("*.jsonl")):  # a game is done, others are in flight
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    cluster.kill_worker(0)
    on_cluster = _finished(process)
    local = _finished(_tournament(tmp_path, "--games", "8", "--workers", "2", "--out", "local"))
    assert _same_games(on_cluster, folder) == _same_games(local, tmp_path / "local")


def _scheduler_tasks(address: str) -> int:
    """Tasks the scheduler still holds (a client's futures, running or waiting)."""
    with distributed.Client(address, timeout=60) as client:
        return int(client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_an_interrupted_cluster_tournament_stops_cleanly(
    cluster: Cluster, tmp_path: Path, number: int
) -> None:
    """Ctrl-C or SIGTERM while games are in flight on the cluster: the tournament exits at
    once with the table of the games finished, ``summary.json`` says ``interrupted``, every
    log written is whole and valid, nothing leaks, and the games it had sent are dropped
    (the scheduler holds no task of it; its workers, the cluster's, go on)."""
    remote = ["--dask-scheduler", cluster.address, "--out", "cut"]
    process = _tournament(tmp_path, "--games", "8", *remote)
    folder = tmp_path / "cut"
    try:
        deadline = time.monotonic() + 300
        while not list(folder.glob("*.jsonl")):  # a game is done, others are in flight
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        process.send_signal(number)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 128 + number, err
    assert "Traceback" not in err and "leaked" not in err, err
    summary = json.loads(out)
    assert summary["interrupted"] is True and summary["games_planned"] == 8
    assert summary == json.loads((folder / "summary.json").read_text())
    assert not list(folder.glob(".*partial")), list(folder.iterdir())
    logs = sorted(folder.glob("*.jsonl"))
    assert 1 <= len(summary["games"]) == len(logs) < 8
    assert sorted(g["log"] for g in summary["games"]) == [log.name for log in logs]
    for log in logs:
        assert verify_log(log.read_bytes()).valid, log
    assert all(worker.poll() is None for worker in cluster.workers)
    deadline = time.monotonic() + 60
    while _scheduler_tasks(cluster.address):  # the client's futures were released
        assert time.monotonic() < deadline, "the interrupted games still run on the cluster"
        time.sleep(0.5)
