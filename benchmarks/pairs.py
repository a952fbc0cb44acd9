"""Interleaved pairs: how every benchmark compares two sides on a shared, loaded machine.

A ratio measured once, side after side, follows whatever else the machine did meanwhile
(the combat ratio read anywhere from 7 to 13 that way). Here the two sides run in turns,
``pairs`` times, alternating which goes first, each turn timed on its own; each pair gives
one ratio, and the figure is their median with the range beside it. Single-process sides are
timed in CPU seconds of this process (:func:`time.process_time`), which other processes'
load changes far less than wall-clock time; multi-process sides are timed by the wall clock
(``clock=time.perf_counter``), since their work is spread over other processes.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence

__all__ = ["MIN_PAIRS", "Side", "build_name", "interleaved", "load_note", "summary"]

MIN_PAIRS = 6

Side = Callable[[], float]
"""One turn of one side: does its work and returns how much (decisions, battles, events)."""


def interleaved(
    first: Side,
    second: Side,
    pairs: int = MIN_PAIRS,
    clock: Callable[[], float] = time.process_time,
) -> list[tuple[float, float]]:
    """Each pair's (first's rate, second's rate) in work per second of ``clock``.

    The sides take turns, the first going first in even pairs and second in odd ones, so
    that neither always runs on a warmer (or busier) machine.
    """
    if pairs < 1:
        raise ValueError(f"pairs must be at least 1, got {pairs}")
    rates: list[tuple[float, float]] = []
    for index in range(pairs):
        order = (first, second) if index % 2 == 0 else (second, first)
        measured: dict[int, float] = {}
        for side in order:
            start = clock()
            work = side()
            measured[id(side)] = work / max(clock() - start, 1e-9)
        rates.append((measured[id(first)], measured[id(second)]))
    return rates


def summary(name: str, values: Sequence[float], digits: int = 2) -> str:
    """``name=<median> name_min=<lowest> name_max=<highest>``: one figure with its range."""
    low, high = min(values), max(values)
    middle = statistics.median(values)
    return f"{name}={middle:.{digits}f} {name}_min={low:.{digits}f} {name}_max={high:.{digits}f}"


def build_name() -> str:
    """Which build of the engine runs: ``compiled`` (mypyc) or ``pure`` (Python)."""
    from nataterra_core.kernel import build  # the package's own answer (``nataterra --version``)

    return build.BUILD


def load_note() -> str:
    """The machine's load averages and cores, printed with every result."""
    one, five, _ = os.getloadavg()
    return f"load {one:.1f}/{five:.1f} on {os.cpu_count()} cores"
