"""Which connections a server serves: caps in all and per client address, fitted to the
process's descriptor limit, and refusals logged at a bounded rate.

Shared by ``nataterra-rpc --listen`` (TCP) and ``nataterra serve`` (HTTP and WebSockets,
``web/connections.py``): both must keep enough descriptors free to tell one more client
that it is refused, and a flood of refusals must not flood the log.
"""

from __future__ import annotations

import resource
import sys
import time
from collections import Counter
from collections.abc import Callable

__all__ = [
    "DEFAULT_CONNECTIONS_PER_ADDRESS",
    "DEFAULT_MAX_CONNECTIONS",
    "REFUSAL_LOG_SECONDS",
    "RESERVED_DESCRIPTORS",
    "Admission",
    "RateLimitedLog",
    "connection_cap",
]

DEFAULT_MAX_CONNECTIONS = 512
"""Connections served at once (``--max-connections``); lowered to fit the process's
descriptor limit (:func:`connection_cap`)."""
DEFAULT_CONNECTIONS_PER_ADDRESS = 32
"""Connections served at once from one client address (``--max-connections-per-address``)."""
RESERVED_DESCRIPTORS = 64
"""Descriptors kept out of the connection cap: the store's files, the worker threads, the
listening socket, the refusal of one more client."""
REFUSAL_LOG_SECONDS = 10.0
"""At most one log line about refused connections per this many seconds."""


def connection_cap(wanted: int) -> int:
    """``wanted``, lowered so that the connections and :data:`RESERVED_DESCRIPTORS` fit under
    the process's soft descriptor limit (at least 1): past it ``accept`` fails and no client
    could even be told it is refused."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - RESERVED_DESCRIPTORS))


class RateLimitedLog:
    """One stderr line per ``seconds`` at most, however often :meth:`note` is called: the
    first event of a period is written at once, with how many were left unwritten before it."""

    def __init__(self, prefix: str, seconds: float = REFUSAL_LOG_SECONDS) -> None:
        self.prefix, self.seconds = prefix, seconds
        self.count = 0
        self._logged_at: float | None = None

    def note(self, line: Callable[[int], str]) -> bool:
        """Count one event; ``line(count)`` is written when the period allows it (``count``:
        the events since the last line, this one included). ``True`` when it was written."""
        self.count += 1
        now = time.monotonic()
        if self._logged_at is not None and now - self._logged_at < self.seconds:
            return False
        self._logged_at = now
        print(f"{self.prefix}: {line(self.count)}", file=sys.stderr)
        sys.stderr.flush()
        self.count = 0
        return True


class Admission:
    """Which connections are served: at most ``total`` at once and ``per_address`` from one
    client address; the refused are counted and logged at most once per
    :data:`REFUSAL_LOG_SECONDS` (never a line per refusal). ``server`` prefixes the lines."""

    def __init__(self, total: int, per_address: int, server: str = "nataterra-rpc") -> None:
        self.total, self.per_address = total, per_address
        self.by_address: Counter[str] = Counter()
        self.log = RateLimitedLog(server)

    @property
    def serving(self) -> int:
        """Connections admitted and not yet left."""
        return sum(self.by_address.values())

    def admit(self, address: str) -> str | None:
        """``None``: served (call :meth:`leave` when it ends); else why it is refused."""
        if self.serving >= self.total:
            reason = f"server busy: {self.total} connections already (--max-connections)"
        elif self.by_address[address] >= self.per_address:
            reason = (
                f"server busy: {self.per_address} connections from {address} already "
                "(--max-connections-per-address)"
            )
        else:
            self.by_address[address] += 1
            return None
        self.log.note(lambda count: f"refused {count} connection(s): {reason}")
        return reason

    def leave(self, address: str) -> None:
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
