"""A temporary copy of the repository to run commands in, as an author runs them in a checkout
(the game author's guide and ``nataterra new-game`` write into the library; never this one)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("nataterra_core", "adapters", "tests", "pyproject.toml")
CLI = "import sys; from nataterra_adapters.cli import main; sys.argv[0] = 'nataterra'; main()"


def repository_copy(target: Path) -> Path:
    """The library's packages, tests and project file copied under ``target``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "build")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)
    return target


def environment(root: Path, extra: Sequence[Path] = ()) -> dict[str, str]:
    """The environment a command of the copy runs in: the copy's packages first, then
    ``extra`` folders."""
    env = dict(os.environ)
    paths = (root, root / "adapters", *extra)
    env["PYTHONPATH"] = os.pathsep.join(str(path) for path in paths)
    env.update(COLUMNS="200", NO_COLOR="1", XDG_DATA_HOME=str(root / "data"))
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


def nataterra(*args: str) -> list[str]:
    """The command line of ``nataterra ARGS`` (the CLI of whatever library is on the path)."""
    return [sys.executable, "-c", CLI, *args]


def run(root: Path, argv: Sequence[str], extra: Sequence[Path] = ()) -> str:
    """Run ``argv`` in the copy; its output, or a failure naming the command."""
    done = subprocess.run(
        list(argv),
        cwd=root,
        env=environment(root, extra),
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{shlex.join(argv)} exited {done.returncode}:\n{output}"
    return output
