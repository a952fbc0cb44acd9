"""Worker processes for batch work (verifying logs, simulating battles): how many, how started.

Starting a worker costs more than verifying a short log: a fresh interpreter imports the
engine (about a second on a busy machine) and loads the content pack. So workers are started
from a *fork server* that has imported the worker's module once (``preload``): each worker is
then a fork of a process that already holds the code, and costs milliseconds. The fork server
runs no threads, so forking it is safe even when the parent runs a progress bar or a Dask
client (forking *those* could deadlock, which is why the parent itself is never forked).
Where the platform has no fork server (Windows), workers are spawned.

How many: never more than the cores this process may use, and none beyond the first when
the batch is too small to repay a worker's start.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Sequence
from multiprocessing.context import BaseContext

__all__ = ["default_workers", "process_context", "usable_cores"]


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def default_workers(jobs: int, *, jobs_per_worker: int) -> int:
    """A sensible number of processes for ``jobs`` independent jobs: one per usable core,
    but only as many as have at least ``jobs_per_worker`` jobs each (at least 1)."""
    return max(1, min(usable_cores(), jobs // max(1, jobs_per_worker)))


def process_context(preload: Sequence[str]) -> BaseContext:
    """A multiprocessing context whose workers start with the modules ``preload`` imported.

    The fork server is shared by the whole process: the modules given by the first caller
    that starts it are the ones preloaded (later callers' workers import theirs on demand).
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # ``__main__`` too: a worker would otherwise import the main script again (the CLI's
    # imports its whole command line), as a spawned one does.
    context.set_forkserver_preload(["__main__", *preload])
    return context
