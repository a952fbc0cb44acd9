"""A throwaway PostgreSQL cluster for the tests (issue 33 item 6): ``initdb`` in a temporary
directory, a Unix socket there and no TCP, ``pg_ctl`` to start and stop it; as the
``postgres`` user when the tests run as root (``initdb`` refuses root). Without the binaries
or the driver the tests that use it skip, saying why.

``postgres_cluster`` is one cluster per test process; ``postgres_url`` a fresh database in
it for each test.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["Cluster", "postgres_cluster", "postgres_url"]


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _version(path: str) -> int:
    part = Path(path).parent.parent.name
    return int(part) if part.isdigit() else 0


class Cluster:
    """A running cluster: its socket directory and how to reach it. ``fsync`` off (the
    tests' default) makes commits cost no disk flush; a benchmark turns it on."""

    def __init__(self, binaries: Path, root: Path, *, fsync: bool = False) -> None:
        self.binaries, self.root, self.fsync = binaries, root, fsync
        self.data, self.socket = root / "data", root / "socket"
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            entry = pwd.getpwnam(self.user)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        self._run("mkdir", "-p", str(self.socket))
        self._run(str(binaries / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")
        self.start()

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        done = subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip() or done.stdout}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket}"

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def start(self) -> None:
        fsync = "on" if self.fsync else "off"
        options = f"-k {self.socket} -c listen_addresses='' -c fsync={fsync} -c max_connections=200"
        self._run(
            str(self.binaries / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-w",
            "-l",
            str(self.root / "server.log"),
            "start",
        )

    def new_database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    binaries = _binaries()
    if binaries is None:
        pytest.skip(
            "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin or on "
            "PATH): .ci/install installs Debian's postgresql"
        )
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("the postgres extra is not installed (psycopg): pip install -e '.[postgres]'")
    root = Path(tempfile.mkdtemp(prefix="nataterra-pg-"))
    os.chmod(root, 0o755)
    cluster = Cluster(binaries, root)
    try:
        yield cluster
    finally:
        try:
            cluster.stop("immediate")
        finally:
            shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    return postgres_cluster.new_database()
