"""Provably fair dice: the server commits to its seed, then every seat contributes (docs/DICE.md).

The order is what makes it fair. The server draws its secret seed and publishes only the
commitment; each seat then sends a contribution it chose after seeing the commitment, and no
seat sees another's contribution before all have sent theirs. Only then is the game's
``client_seed`` fixed (:func:`~nataterra_core.kernel.dice.join_client_seeds`), so neither the
server (already committed) nor any single seat (blind to the others) could steer the dice::

    >>> ceremony = SeedCeremony(bytes(range(32)), ("ann", "bob"))
    >>> ceremony.commitment[:16]
    '630dcd2966c43366'
    >>> ceremony.contribute("bob", "x-1")
    >>> ceremony.waiting_for
    ('ann',)
    >>> ceremony.contribute("ann", "k3J9")
    >>> ceremony.client_seed()
    'ann:k3J9;bob:x-1'

The ceremony holds no game: the front end starts the session with the joined client seed
once :attr:`complete` is true. Collusion between the server and another seat is the residual
risk (``docs/DICE.md`` §6a).
"""

from __future__ import annotations

from collections.abc import Sequence

from .dice import check_contribution, join_client_seeds, seed_commitment

__all__ = ["SeedCeremony"]


class SeedCeremony:
    """Collects one contribution per seat after the server's seed is committed."""

    __slots__ = ("_contributions", "_seed", "commitment", "seats")

    def __init__(self, server_seed: bytes, seats: Sequence[str]) -> None:
        if len(server_seed) != 32:
            raise ValueError("the server seed is 32 bytes")
        if not seats or len(set(seats)) != len(seats):
            raise ValueError(f"seats must be distinct and not empty, got {list(seats)}")
        self._seed = server_seed
        self.seats: tuple[str, ...] = tuple(seats)
        self.commitment = seed_commitment(server_seed)
        """What every seat sees before it contributes."""
        self._contributions: dict[str, str] = {}

    def contribute(self, seat: str, contribution: str) -> None:
        """Record ``seat``'s contribution; ``ValueError`` for an unknown seat, a second
        contribution or one that is not ASCII ``[A-Za-z0-9._-]{1,64}``."""
        if seat not in self.seats:
            raise ValueError(f"unknown seat {seat!r}; seats are {list(self.seats)}")
        if seat in self._contributions:
            raise ValueError(f"seat {seat!r} has already contributed")
        check_contribution(contribution)
        self._contributions[seat] = contribution

    def contributed(self, seat: str) -> bool:
        """Whether ``seat`` has sent its contribution (the contribution itself stays hidden)."""
        return seat in self._contributions

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The seats that have not contributed yet, in seat order."""
        return tuple(seat for seat in self.seats if seat not in self._contributions)

    @property
    def complete(self) -> bool:
        """True once every seat has contributed."""
        return not self.waiting_for

    def client_seed(self) -> str:
        """The joined client seed; ``ValueError`` while a seat has not contributed."""
        if not self.complete:
            raise ValueError(f"waiting for contributions from {list(self.waiting_for)}")
        return join_client_seeds(self.seats, self._contributions)

    @property
    def server_seed(self) -> bytes:
        """The secret seed, for starting the session (never shown to a seat before the end)."""
        return self._seed
