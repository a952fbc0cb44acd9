"""How long the search player thinks per decision: a number of iterations or a time.

A spec's budget is ``N`` (iterations: reproducible, the same choices on any machine) or a time,
``1s``, ``1.5s``, ``500ms`` (as many iterations as fit: the strength a person waiting expects,
not reproducible, since it depends on the machine's speed and load)::

    >>> Budget.parse("8")
    Budget(iterations=8, seconds=None)
    >>> Budget.parse("500ms")
    Budget(iterations=None, seconds=0.5)
    >>> Budget.parse("1s").words()
    '1 s per decision'

The core reads no clock: a time budget is measured on a clock the caller passes in (the CLI,
the servers and the tournament each pass theirs; ``docs/BOTS.md``). Every number is bounded,
since specs come from the command line and from clients.
"""

from __future__ import annotations

import math
import re

import attrs

__all__ = ["MAX_ITERATIONS", "MAX_SECONDS", "Budget"]

MAX_ITERATIONS = 1_000_000
"""The most iterations one decision may be given (a time budget stops there too)."""
MAX_SECONDS = 3600.0
"""The longest time budget per decision a spec may name."""

_TIME = re.compile(r"(?P<number>\d{1,7}(\.\d{1,6})?)(?P<unit>ms|s)")


@attrs.frozen
class Budget:
    """Iterations per decision, or seconds per decision on the caller's clock (one of the
    two)."""

    iterations: int | None = None
    seconds: float | None = None

    def __attrs_post_init__(self) -> None:
        if (self.iterations is None) == (self.seconds is None):
            raise ValueError("a budget is a number of iterations or a time, one of the two")
        if self.iterations is not None and not 1 <= self.iterations <= MAX_ITERATIONS:
            raise ValueError(f"iterations must be 1 to {MAX_ITERATIONS:,}, got {self.iterations}")
        if self.seconds is not None and not (
            math.isfinite(self.seconds) and 0 < self.seconds <= MAX_SECONDS
        ):
            raise ValueError(f"a time budget must be above 0 and at most {MAX_SECONDS:g} s")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``N`` iterations, or ``Ns`` / ``Nms`` (decimals allowed); ``ValueError`` naming
        the problem otherwise."""
        if text.isascii() and text.isdigit() and len(text) <= 7:
            return cls(iterations=int(text))
        found = _TIME.fullmatch(text)
        if found is None:
            raise ValueError(
                f"{text!r}: a budget is a number of iterations (8) or a time (1s, 500ms)"
            )
        number = float(found["number"])
        return cls(seconds=number / 1000 if found["unit"] == "ms" else number)

    @property
    def timed(self) -> bool:
        """Whether this is a time budget (not reproducible from a seed)."""
        return self.seconds is not None

    def words(self) -> str:
        """The budget for people: ``8 iterations per decision``, ``1 s per decision``."""
        if self.seconds is not None:
            return f"{self.seconds:g} s per decision"
        return f"{self.iterations} iterations per decision"
