"""Verify many logs: in this process, across local worker processes, or on a Dask cluster.

Every route runs the same function, :func:`verify_source`, and yields verdicts in the order
the logs were given, so the output of ``nataterra verify`` does not depend on how it ran.
Logs travel to workers in chunks (a few round trips, not one per log), and at most a few
chunks per worker are in flight at once: a tournament's folder need not fit in memory.
Local workers start once per run, forked from this process (or from a server that has
imported this module, see :mod:`nataterra_core.tools.workers`), and each loads a pack
once. This module imports no CLI library, so a worker started by a fork server does not
pay for one.

A user content pack travels as a :data:`PackBundle` (its TOML files' bytes) rather than a
path, since a cluster worker may not see this machine's files; each process writes it out
once and keeps the decider it builds, keyed by the bundle's digest.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import shutil
import tempfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from nataterra_core.game import check_log_header, decider_for
from nataterra_core.kernel import (
    ContentRef,
    Decider,
    EngineError,
    Header,
    RulesRef,
    Verdict,
    verify,
)
from nataterra_core.kernel.bounded import LOG_BYTES, read_regular_file
from nataterra_core.kernel.log import check_header
from nataterra_core.kernel.registry import systems
from nataterra_core.tools.workers import default_workers, guided_chunks, start_pool, stop_pool

if TYPE_CHECKING:
    from nataterra_core.kernel.receipts import Receipt

__all__ = [
    "EXIT_CODES",
    "ClusterUnavailable",
    "EngineId",
    "PackBundle",
    "auto_workers",
    "bundle_pack",
    "engine_id",
    "exit_code",
    "map_in_order",
    "verify_many",
    "verify_source",
]

EXIT_CODES: dict[str, int] = {
    "valid": 0,
    "incomplete": 2,
    "torn": 3,
    "version": 4,
    "content": 5,
    "read": 6,
    "header": 6,
    "head": 7,
    "seed": 8,
    "chain": 9,
    "replay": 10,
    "receipt": 11,
}
"""Exit codes of ``verify`` by verdict status or failure class; with several logs the highest
code wins. A forged log (``replay``, ``chain``, ``seed``) outranks a damaged or foreign one;
a valid log that a seat's signed receipt does not match (``receipt``) outranks them all."""

PackBundle = tuple[tuple[str, bytes], ...]
"""A user content pack as (relative POSIX path, bytes) pairs, sorted: what the pack hash covers."""

MAX_CHUNK = 16
"""Logs per chunk at most: a tournament's logs are large, and a chunk's bytes travel at once.
Chunks shrink towards the end of a batch (:func:`~nataterra_core.tools.workers.guided_chunks`)."""
CHUNKS_IN_FLIGHT_PER_WORKER = 2
"""Chunks queued per worker: enough to keep workers busy, few enough to bound memory."""
LOGS_PER_WORKER = 16
"""Logs that repay starting one more local worker (a short game verifies in ~30 ms)."""

T = TypeVar("T")
R = TypeVar("R")


class ClusterUnavailable(RuntimeError):
    """Dask is not installed, the scheduler cannot be reached, or its workers run another engine."""


def exit_code(verdict: Verdict) -> int:
    """The exit code of one verdict (:data:`EXIT_CODES`)."""
    return EXIT_CODES[verdict.failure or verdict.status]


def bundle_pack(directory: Path) -> PackBundle:
    """The files of the user pack in ``directory`` that its hash covers, with their bytes.

    Content packs are TOML files outside hidden folders (the ``nataterra_core.packs``
    format, docs/ARCHITECTURE.md §1); anything else in the folder is not part of the pack.
    """
    found = sorted(
        (path.relative_to(directory).as_posix(), path)
        for path in directory.rglob("*.toml")
        if path.is_file() and not any(p.startswith(".") for p in path.relative_to(directory).parts)
    )
    return tuple((rel, path.read_bytes()) for rel, path in found)


EngineId = tuple[tuple[str, int, str | None], ...]
"""Each registered rule system's id, version and own pack's sha256 (``None``: no pack)."""


def engine_id() -> EngineId:
    """The rule systems and their own packs this process verifies with.

    Two processes with equal ids give equal verdicts; a cluster worker with another id would
    judge logs by other rules, so :func:`verify_many` refuses such a cluster.
    """
    return tuple(
        (record.id, record.rules.version, _pack_sha(record.load_pack)) for record in systems()
    )


def _pack_sha(load: Callable[[Path | None], Any] | None) -> str | None:
    if load is None:
        return None
    sha: str = load(None).sha256
    return sha


# -- one log, in whatever process ------------------------------------------------------------

_deciders: dict[tuple[RulesRef, ContentRef | None, str | None], Decider[Any, Any, Any]] = {}
_pack_dirs: dict[str, Path] = {}


def _bundle_digest(bundle: PackBundle) -> str:
    digest = hashlib.sha256()
    for rel, data in bundle:
        digest.update(rel.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def _pack_dir(bundle: PackBundle, digest: str) -> Path:
    """Write ``bundle`` out once per process (the loader reads packs from a directory)."""
    directory = _pack_dirs.get(digest)
    if directory is None:
        directory = Path(tempfile.mkdtemp(prefix="nataterra-pack-"))
        atexit.register(shutil.rmtree, directory, True)
        for rel, data in bundle:
            target = directory / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        _pack_dirs[digest] = directory
    return directory


def _decider(header: Header, bundle: PackBundle | None) -> Decider[Any, Any, Any]:
    # Content-addressed, so a kept decider is exactly the one decider_for would build
    # (loading a user pack costs ~10x a whole verification); every header is still checked
    # on its own, so a verdict never depends on the logs verified before it.
    digest = _bundle_digest(bundle) if bundle is not None else None
    key = (header.rules, header.content, digest)
    decider = _deciders.get(key)
    if decider is None:
        directory = _pack_dir(bundle, digest) if bundle is not None and digest else None
        decider = _deciders[key] = decider_for(header, directory)
    else:
        check_log_header(header, decider, user_pack=bundle is not None)
    return decider


def _prepare(paths: Sequence[Path], content: PackBundle | None) -> None:
    """Import the rule systems the logs' headers name and build their deciders here, before
    workers fork from this process, so that they inherit them instead of each building its
    own while this process builds them once more to word the verdicts. Best effort: a log
    whose header fails is judged, with its reason, by the worker that verifies it."""
    built: set[tuple[RulesRef, ContentRef | None]] = set()
    for path in paths:
        if not path.is_file():  # a FIFO would block here; its worker gives the verdict
            continue
        try:
            with path.open("rb") as file:
                header = check_header(file.readline().rstrip(b"\n"))
            if (header.rules, header.content) not in built:  # one check per decider here
                _decider(header, content)
                built.add((header.rules, header.content))
        except (OSError, EngineError):
            continue


def verify_source(
    source: bytes | str | Path,
    content: PackBundle | None = None,
    expect_head: str | None = None,
    receipts: Sequence[Receipt] = (),
) -> Verdict:
    """Verify one log, given as its bytes or as a path to read (and seats' ``receipts``
    against it, docs/RECEIPTS.md).

    A file that cannot be read is an ``invalid`` / ``read`` verdict, not an exception, so
    one missing log does not stop a tournament's run.
    """
    if isinstance(source, bytes):
        data = source
    else:
        try:
            data = read_regular_file(source, LOG_BYTES)  # never a FIFO, never /dev/zero
        except OSError as exc:
            return Verdict(status="invalid", failure="read", reason=f"cannot read the file: {exc}")
    return verify(
        data, lambda header: _decider(header, content), expect_head=expect_head, receipts=receipts
    )


# -- many logs --------------------------------------------------------------------------------


def _verify_chunk(
    sources: Sequence[bytes | str | Verdict], content: PackBundle | None, expect_head: str | None
) -> list[Verdict]:
    """The verdicts of one chunk of logs (what a worker is sent); a verdict already known
    (a file this machine could not read) passes through."""
    return [
        source if isinstance(source, Verdict) else verify_source(source, content, expect_head)
        for source in sources
    ]


def auto_workers(logs: int) -> int:
    """The default number of local worker processes for ``logs`` logs on this machine."""
    return default_workers(logs, jobs_per_worker=LOGS_PER_WORKER)


_Result = Callable[[], list[Verdict]]


def _chunks_in_order(
    paths: Sequence[Path], workers: int, submit: Callable[[Sequence[Path]], _Result], window: int
) -> Iterator[Verdict]:
    """Submit ``paths`` in chunks for ``workers`` (guided: shrinking to single logs at the
    end), at most ``window`` chunks in flight; yield the verdicts in path order."""
    chunks = (
        paths[c.start : c.stop] for c in guided_chunks(len(paths), workers, largest=MAX_CHUNK)
    )
    pending = deque(submit(chunk) for chunk in islice(chunks, window))
    while pending:
        verdicts = pending.popleft()()
        following = next(chunks, None)
        if following is not None:
            pending.append(submit(following))
        yield from verdicts


def verify_many(
    paths: Sequence[Path],
    *,
    content: PackBundle | None = None,
    expect_head: str | None = None,
    workers: int = 1,
    scheduler: str | None = None,
) -> Iterator[Verdict]:
    """Verdicts for ``paths``, in order.

    ``workers`` > 1 verifies in up to that many local processes (never more than there are
    chunks; :func:`auto_workers` suggests a number for the machine). They start when this
    is called, not when the verdicts are first asked for, so that a caller that then starts
    a thread (a progress bar) still gets workers forked from its own process (see
    :mod:`nataterra_core.tools.workers`); iterate the verdicts to the end to shut them down.
    ``scheduler`` (a Dask scheduler address) verifies on a Dask cluster instead, sending the
    logs' bytes, since its workers may not share this machine's files. Raises
    :class:`ClusterUnavailable` before verifying anything if the cluster cannot be used.
    """
    if scheduler is not None:
        return _on_dask(paths, scheduler, content, expect_head)
    processes = min(workers, len(paths))
    if processes <= 1:
        return (verify_source(path, content, expect_head) for path in paths)
    _prepare(paths, content)
    pool = start_pool(processes, ["nataterra_adapters.verify_worker"])
    return _on_pool(pool, processes, paths, content, expect_head)


def _on_pool(
    pool: ProcessPoolExecutor,
    processes: int,
    paths: Sequence[Path],
    content: PackBundle | None,
    expect_head: str | None,
) -> Iterator[Verdict]:
    with pool:

        def submit(chunk: Sequence[Path]) -> _Result:
            sources = [str(path) for path in chunk]
            future: Future[list[Verdict]] = pool.submit(
                _verify_chunk, sources, content, expect_head
            )
            return future.result

        window = processes * CHUNKS_IN_FLIGHT_PER_WORKER
        yield from _chunks_in_order(paths, processes, submit, window)


def _on_dask(
    paths: Sequence[Path], scheduler: str, content: PackBundle | None, expect_head: str | None
) -> Iterator[Verdict]:
    with _dask_client(scheduler) as client:
        threads = _threads(client)

        def submit(chunk: Sequence[Path]) -> _Result:
            sources: list[bytes | str | Verdict] = []
            for path in chunk:
                try:
                    sources.append(read_regular_file(path, LOG_BYTES))
                except OSError:  # the same read verdict as any other route
                    sources.append(verify_source(path))
            future = client.submit(_verify_chunk, sources, content, expect_head, pure=False)
            return lambda: _as_verdicts(future.result())

        window = threads * CHUNKS_IN_FLIGHT_PER_WORKER
        yield from _chunks_in_order(paths, threads, submit, window)


def _dask_client(scheduler: str) -> Any:
    """A client of the Dask cluster at ``scheduler`` whose workers run this engine, or
    :class:`ClusterUnavailable` (a context manager: ``with _dask_client(...) as client``)."""
    try:  # imported here: Dask is an optional extra, and untyped (hence Any)
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError as exc:
        raise ClusterUnavailable(
            "--dask-scheduler needs Dask: pip install 'nataterra-core[cluster]'"
        ) from exc
    try:
        client = distributed.Client(scheduler, timeout=10, set_as_default=False)
    except OSError as exc:  # distributed raises OSError (and TimeoutError) when unreachable
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from exc
    try:
        _check_workers(client)
    except ClusterUnavailable:
        client.close()
        raise
    return client


def _threads(client: Any) -> int:
    return max(int(sum(client.nthreads().values())), 1)


def _in_order(
    items: Sequence[T], submit: Callable[[T], Callable[[], R]], window: int
) -> Iterator[R]:
    """Submit ``items`` keeping at most ``window`` in flight; yield results in item order."""
    queued = iter(items)
    pending = deque(submit(item) for item in islice(queued, window))
    while pending:
        result = pending.popleft()()
        following = next(queued, None)
        if following is not None:
            pending.append(submit(following))
        yield result


def map_in_order(
    function: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    initializer: Callable[[], object] | None = None,
) -> Iterator[R]:
    """``function`` of each item, yielded in ``items`` order: here, in ``workers`` local
    processes (each running ``initializer`` first), or on the Dask cluster at ``scheduler``
    (``function`` and the items must pickle; :class:`ClusterUnavailable` before anything
    runs if the cluster cannot be used). At most a few items per worker are in flight. Local
    workers start when this is called, as in :func:`verify_many`. Closing the iterator
    early, or an exception (Ctrl-C) while it waits, stops the local workers at once (their
    items in flight are dropped) and releases the cluster's futures."""
    if scheduler is not None:
        return _map_on_dask(function, items, scheduler)
    if workers > 1:
        pool = start_pool(workers, [], initializer)
        return _map_on_pool(function, items, pool, workers * CHUNKS_IN_FLIGHT_PER_WORKER)
    return (function(item) for item in items)


def _map_on_dask(function: Callable[[T], R], items: Sequence[T], scheduler: str) -> Iterator[R]:
    with _dask_client(scheduler) as client:
        submitted: list[Any] = []

        def remote(item: T) -> Callable[[], R]:
            future = client.submit(function, item, pure=False)
            submitted.append(future)
            return lambda: future.result()

        window = _threads(client) * CHUNKS_IN_FLIGHT_PER_WORKER
        try:
            yield from _in_order(items, remote, window)
        finally:
            client.cancel(submitted)  # the rest of an interrupted run is not computed


def _map_on_pool(
    function: Callable[[T], R], items: Sequence[T], pool: ProcessPoolExecutor, window: int
) -> Iterator[R]:
    def local(item: T) -> Callable[[], R]:
        return pool.submit(function, item).result

    try:
        yield from _in_order(items, local, window)
    except BaseException:  # Ctrl-C, or the consumer closed us: no waiting for the rest
        stop_pool(pool)
        raise
    pool.shutdown()


def _as_verdicts(value: object) -> list[Verdict]:
    if not isinstance(value, list):  # Dask futures are untyped
        raise TypeError(f"a Dask worker returned {type(value).__name__}, not verdicts")
    return [_as_verdict(verdict) for verdict in value]


def _as_verdict(value: object) -> Verdict:
    if not isinstance(value, Verdict):  # Dask futures are untyped
        raise TypeError(f"a Dask worker returned {type(value).__name__}, not a Verdict")
    return value


def _as_id(ident: Any) -> EngineId:
    # A worker's id may come back with lists for tuples (Dask serialises it).
    return tuple((str(i), int(v), None if sha is None else str(sha)) for i, v, sha in ident)


def _check_workers(client: Any) -> None:
    here = engine_id()
    theirs: dict[str, Any] = client.run(engine_id)
    if not theirs:
        raise ClusterUnavailable("the Dask cluster has no workers")
    other = {address: _as_id(ident) for address, ident in theirs.items() if _as_id(ident) != here}
    if other:
        address, ident = next(iter(other.items()))
        raise ClusterUnavailable(
            f"{len(other)} Dask worker(s) run another engine (e.g. {address}: {ident}, "
            f"here {here}); install the same nataterra-core on every worker"
        )
