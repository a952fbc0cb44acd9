"""How batch work is cut for worker processes (`nataterra_core.tools.workers`, issue 20 #5)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nataterra_core.tools.workers import default_workers, guided_chunks


@settings(deadline=None)
@given(
    jobs=st.integers(0, 5000),
    workers=st.integers(1, 64),
    largest=st.integers(1, 300),
)
def test_guided_chunks_cover_every_job_once_in_order_and_shrink(
    jobs: int, workers: int, largest: int
) -> None:
    chunks = guided_chunks(jobs, workers, largest=largest)
    assert [job for chunk in chunks for job in chunk] == list(range(jobs))
    sizes = [len(chunk) for chunk in chunks]
    assert all(1 <= size <= largest for size in sizes)
    assert sizes == sorted(sizes, reverse=True)  # large chunks first, single jobs last
    if jobs:
        assert sizes[-1] == 1  # the workers finish together to within about one job


def test_guided_chunks_send_a_large_batch_in_few_round_trips() -> None:
    """200 logs on 2 workers: a few dozen chunks, not 200 (MAX_CHUNK 16, as batch_verify)."""
    chunks = guided_chunks(200, 2, largest=16)
    assert len(chunks) <= 40
    assert len(chunks[0]) == 16


def test_default_workers_never_exceed_the_jobs_that_repay_them() -> None:
    assert default_workers(1, jobs_per_worker=16) == 1
    assert default_workers(0, jobs_per_worker=16) == 1
    assert default_workers(10_000, jobs_per_worker=16) >= 1
