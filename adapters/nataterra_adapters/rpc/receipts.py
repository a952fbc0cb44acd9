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
from pathlib import Path

from nataterra_core.kernel.receipts import SPECTATOR, KeyPair, Receipt, ViewChains
from nataterra_core.kernel.visibility import MessageTypes

from ..local_files import write_private

__all__ = ["GameReceipts", "KeyFileError", "server_key"]

SERVER_KEY_FILE = "server.key"
"""The server's long-term identity key in its store directory (hex, mode 0600)."""


class KeyFileError(ValueError):
    """The store's ``server.key`` cannot be read as a key (the message names the file)."""


def server_key(directory: Path | None) -> KeyPair:
    """The server's long-term identity key: kept in ``directory`` (the store), made there
    on the first start; a server without a store gets a new one each run.

    Raises :class:`KeyFileError` for a key file that is not 64 hex digits: the server
    refuses to start rather than make a new identity its players do not know.
    """
    if directory is None:
        return KeyPair.generate()
    path = directory / SERVER_KEY_FILE
    if path.exists():
        try:
            text = path.read_text(encoding="ascii").strip()
            if len(text) != 64:
                raise ValueError(f"{len(text)} characters")
            return KeyPair(bytes.fromhex(text))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise KeyFileError(
                f"{path}: not this server's identity key (64 hex digits): {exc}; restore it "
                "from a backup (a new key would be another server to the players)"
            ) from None
    key = KeyPair.generate()
    write_private(path, key.secret.hex().encode())
    return key


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
