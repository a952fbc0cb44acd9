"""Worker processes for batch work (verifying logs, simulating battles): how many, how started.

Starting a worker costs more than verifying a short log: a fresh interpreter imports the
engine (about a second) and loads the content pack. So a worker is a *fork* of a process that
already holds the code, and costs milliseconds. Forking is safe only while the forking process
runs no other thread (a thread holding a lock at the fork leaves the child deadlocked), so:

- a process running one thread forks its workers itself (the fastest start, and the workers
  inherit everything it has imported and loaded); :func:`start_pool` starts them at once, so a
  caller can start its pool *before* a progress bar or a Dask client starts a thread;
- a process already running threads starts its workers from a *fork server*, a fresh process
  that imports the worker's module once (``preload``) and runs no thread; the fork server
  itself costs one interpreter start;
- where the platform has neither (Windows, macOS by default), workers are spawned.

How many: never more than the cores this process may use, and none beyond the first when
the batch is too small to repay a worker's start.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Any

__all__ = [
    "default_workers",
    "guided_chunks",
    "process_context",
    "start_pool",
    "stop_pool",
    "usable_cores",
]


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


def guided_chunks(jobs: int, workers: int, *, largest: int) -> list[range]:
    """``range(jobs)`` cut into consecutive chunks for ``workers`` processes, each about a
    quarter of a worker's share of the jobs not yet handed out, at most ``largest`` ("guided"
    scheduling; a quarter, since a caller keeps a few chunks per worker queued). The bulk
    travels in few large chunks, and the chunks shrink to single jobs at the end, so that
    the workers finish together to within about one job rather than one large chunk.

    >>> [len(chunk) for chunk in guided_chunks(40, 2, largest=8)]
    [5, 5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]
    """
    chunks = []
    start = 0
    while start < jobs:
        size = min(largest, -(-(jobs - start) // (workers * 4)))  # the ceiling: at least 1
        chunks.append(range(start, start + size))
        start += size
    return chunks


def process_context(preload: Sequence[str]) -> BaseContext:
    """A multiprocessing context whose workers start with the modules ``preload`` imported.

    Plain fork while this process runs a single thread (on Linux); otherwise the fork
    server, shared by the whole process: the modules given by the first caller that starts it
    are the ones preloaded (later callers' workers import theirs on demand).
    """
    methods = multiprocessing.get_all_start_methods()
    if sys.platform == "linux" and "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # ``__main__`` too: a worker would otherwise import the main script again (the CLI's
    # imports its whole command line), as a spawned one does.
    context.set_forkserver_preload(["__main__", *preload])
    return context


def start_pool(
    workers: int,
    preload: Sequence[str],
    initializer: Callable[..., object] | None = None,
    initargs: tuple[Any, ...] = (),
) -> ProcessPoolExecutor:
    """A process pool whose ``workers`` processes are already running when it is returned.

    Started now rather than at the first task, so that they fork from this process while it
    still runs one thread (see :func:`process_context`); the caller may then start threads.
    The caller shuts the pool down (``with pool:``).
    """
    pool = ProcessPoolExecutor(
        workers,
        mp_context=process_context(preload),
        initializer=initializer,
        initargs=initargs,
    )
    # A pool of forked workers starts all of them with its first task; a trivial one does.
    pool.submit(os.getpid).result()
    return pool


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: queued work is cancelled and the workers are terminated, not
    waited for (a game in flight may take minutes); then the pool's queues and threads are
    released, so nothing is leaked (no semaphore warning at exit)."""
    # The executor has no public way to end running work before Python 3.14
    # (terminate_workers); its processes are the documented multiprocessing objects
    # (taken before shutdown, which forgets them).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(10)
    pool.shutdown(wait=True)
