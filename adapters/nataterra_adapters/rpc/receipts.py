"""Signed receipts for a served game's seats (docs/RECEIPTS.md; ``docs/RPC.md``).

Each game has its own Ed25519 key pair, drawn at ``game.create``; its private half is kept
with the game's secret in the store (never in a log) and its public half goes into the
log's header (``receipt_key``). The server's long-term identity key certifies it
(``receipt_key_signature``). After every call that appends a record, the calling seat gets
its view head at that record, signed, and its lines of the records the call appended, so
it can check the receipt with no other call.
"""

from __future__ import annotations

from collections.abc import Sequence

from nataterra_core.kernel.receipts import SPECTATOR, KeyPair, Receipt, ViewChains
from nataterra_core.kernel.visibility import MessageTypes

from .store import Store

__all__ = ["GameReceipts", "server_key"]


def server_key(store: Store | None) -> KeyPair:
    """The server's long-term identity key: kept in ``store``, made there on the first
    start (when several processes start at once, the first kept wins); a server without a
    store gets a new one each run.

    A damaged key raises :class:`~.store.KeyFileError`: the server refuses to start rather
    than make a new identity its players do not know.
    """
    if store is None:
        return KeyPair.generate()
    kept = store.server_key()
    if kept is None:
        kept = store.keep_server_key(KeyPair.generate().secret)
    return KeyPair(kept)


class GameReceipts:
    """One game's receipt key, the server's certificate of it, and its seats' view chains
    (grown on demand from the session's lines: only a call that hands out a receipt pays;
    after a restart they are rebuilt from the log)."""

    __slots__ = ("_chains", "certificate", "key")

    def __init__(
        self,
        key: KeyPair,
        certificate: str,
        game_id: str,
        seats: Sequence[str],
        messages: MessageTypes,
    ) -> None:
        self.key = key
        self.certificate = certificate
        self._chains = ViewChains(game_id, seats, messages)

    def receipt(self, lines: Sequence[bytes], seat: str | None, seq: int) -> Receipt:
        """The signed receipt of ``seat`` (``None``: a spectator) at record ``seq`` of a
        game whose log is ``lines`` so far."""
        chains = self._chains
        if len(chains) < len(lines):
            chains.extend(lines[len(chains) :])
        return chains.receipt(self.key, SPECTATOR if seat is None else seat, seq)
