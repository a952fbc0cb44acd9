"""A state's :class:`Decision`: who may act, and each acting seat's legal commands.

Kept apart from :mod:`.decider` (whose records are msgspec structs) so that the compiled
build compiles it: a decider makes one per state, and the session, the bots and the
benchmarks ask it for lists, so it is on every decision's path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from .messages import Command

__all__ = ["Decision"]

C = TypeVar("C", bound=Command)


class Decision(Generic[C]):
    """Who may act in one state, and each acting seat's legal commands (built on demand, once).

    ``legal`` is a function of the seat, called at most once per seat; the lists are kept.
    A front end, a bot and the session asking about the same state share one instance.
    """

    __slots__ = ("_lister", "_lists", "acting")

    def __init__(
        self,
        acting: Sequence[str],
        legal: Callable[[str], Sequence[C]],
        lists: dict[str, tuple[C, ...]] | None = None,
    ) -> None:
        """``lists``: lists already made, by seat (``legal`` is not asked for them)."""
        self.acting: tuple[str, ...] = tuple(acting)
        self._lister: Callable[[str], Sequence[C]] = legal
        self._lists: dict[str, tuple[C, ...]] = {} if lists is None else lists

    @classmethod
    def asking(cls, seat: str, commands: Sequence[C]) -> Decision[C]:
        """One seat's decision whose list is already made (no lister is kept)."""
        return cls((seat,), _nothing, {seat: tuple(commands)})

    def legal(self, seat: str) -> tuple[C, ...]:
        """Every command ``seat`` may send now (empty when it may not act)."""
        found = self._lists.get(seat)
        if found is None:
            found = tuple(self._lister(seat)) if seat in self.acting else ()
            self._lists[seat] = found
        return found

    def find(self, seat: str, command: C) -> C | None:
        """The listed instance equal to ``command``, or ``None`` when it is not listed.

        ``tuple.index`` compares in C, identity first: a bot's pick from the list is found
        without hashing or comparing field by field.
        """
        listed = self.legal(seat)
        try:
            return listed[listed.index(command)]
        except ValueError:
            return None


def _nothing(seat: str) -> tuple[Any, ...]:
    return ()
