"""Receipts a seat can check: a view chain per seat, signed (docs/RECEIPTS.md, binding).

A head over the whole log leaks: two heads bracketing an opponent's hidden draw let a seat
hash each candidate forward. A receipt therefore commits only to what its seat was shown.

* ``line_i(s)`` (:func:`view_line`) is record ``i`` as seat ``s`` sees it before the reveal
  (:func:`~.visibility.record_view`: ``prev`` dropped, commands and events cut by their
  declared visibility), as compact JSON with every object's keys sorted by code point,
  UTF-8, no trailing newline. A spectator is seat ``""`` (viewer ``None``).
* The chain: ``g(s) = SHA-256("nataterra-view-chain-v1\\n" ‖ game_id ‖ "\\n" ‖ s)``,
  ``vh_i(s) = SHA-256(vh_{i-1}(s) ‖ SHA-256(line_i(s)))`` with ``vh_{-1}(s) = g(s)``.
* A receipt ``{seat, seq, head, signature}`` is a pure Ed25519 signature by the game's key
  over ``"nataterra-receipt-v1\\n" ‖ game_id ‖ "\\n" ‖ s ‖ "\\n" ‖ seq ‖ "\\n" ‖ head``.
* The game's public key (the header's ``receipt_key``) is certified by the server's
  long-term key: a signature over ``"nataterra-game-key-v1\\n" ‖ game_id ‖ "\\n" ‖ key``.

Signing and key handling use the ``cryptography`` library (a kept, audited Ed25519).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .errors import EngineError
from .messages import encode
from .visibility import MessageTypes, record_view

if TYPE_CHECKING:
    from .log import Header

__all__ = [
    "SPECTATOR",
    "KeyPair",
    "Receipt",
    "ReceiptRefused",
    "ViewChains",
    "certificate_message",
    "chain_start",
    "chain_step",
    "check_certificate",
    "check_receipt",
    "check_signature",
    "check_signed",
    "parse_receipt",
    "receipt_message",
    "view_heads",
    "view_line",
    "view_lines",
]

SPECTATOR = ""
"""The seat name of a spectator's chain and receipts (its viewer is ``None``)."""

_CHAIN_DOMAIN = b"nataterra-view-chain-v1\n"
_RECEIPT_DOMAIN = b"nataterra-receipt-v1\n"
_CERTIFICATE_DOMAIN = b"nataterra-game-key-v1\n"
_MAX_SEQ = 2**53 - 1


class ReceiptRefused(EngineError):
    """A receipt (or a game key's certificate) does not hold; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Receipt(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat holds after one of its calls: its head at record ``seq``, signed."""

    seat: str
    seq: int
    head: str
    signature: str

    def text(self) -> str:
        """``SEAT:SEQ:HEAD:SIGNATURE``, the form ``nataterra verify --receipt`` reads."""
        return f"{self.seat}:{self.seq}:{self.head}:{self.signature}"


def _viewer(seat: str) -> str | None:
    return None if seat == SPECTATOR else seat


def view_line(line: bytes, seat: str, messages: MessageTypes) -> bytes:
    """``line_i(seat)``: one log line (without its newline) as ``seat`` sees it before the
    reveal, in the canonical form a client hashes (``""``: a spectator).

    msgspec's deterministic order sorts plain objects' keys by code point and escapes only
    ``"``, ``\\`` and U+0000-U+001F: the bytes of Python's ``json.dumps(v, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False)`` (a test checks this on every game's logs).
    """
    return encode(record_view(line, _viewer(seat), messages))


def view_lines(lines: Iterable[bytes], seat: str, messages: MessageTypes) -> list[bytes]:
    """Every ``line_i(seat)`` of a log's lines."""
    viewer = _viewer(seat)
    return [encode(record_view(line, viewer, messages)) for line in lines]


def chain_start(game_id: str, seat: str) -> bytes:
    """``g(seat)``: the chain's value before record 0 (a raw 32-byte digest)."""
    return hashlib.sha256(_CHAIN_DOMAIN + f"{game_id}\n{seat}".encode()).digest()


def chain_step(previous: bytes, line: bytes) -> bytes:
    """``vh_i`` from ``vh_{i-1}`` (or ``g``) and ``line_i`` (raw digests)."""
    return hashlib.sha256(previous + hashlib.sha256(line).digest()).digest()


def view_heads(game_id: str, seat: str, lines: Iterable[bytes]) -> list[str]:
    """``hex(vh_i(seat))`` for every view line ``line_i(seat)`` given, in order."""
    value = chain_start(game_id, seat)
    heads = []
    for line in lines:
        value = chain_step(value, line)
        heads.append(value.hex())
    return heads


def receipt_message(game_id: str, seat: str, seq: int, head: str) -> bytes:
    """The bytes a receipt's signature covers."""
    return _RECEIPT_DOMAIN + f"{game_id}\n{seat}\n{seq}\n{head}".encode()


def certificate_message(game_id: str, receipt_key: str) -> bytes:
    """The bytes the server's long-term key signs to certify a game's ``receipt_key``."""
    return _CERTIFICATE_DOMAIN + f"{game_id}\n{receipt_key}".encode()


class KeyPair:
    """An Ed25519 key pair: a game's receipt key or a server's long-term identity key.

    ``secret`` (32 raw bytes) is what a store keeps; ``public`` (64 lowercase hex digits)
    is what a header, ``game.create`` or ``server.info`` publishes.
    """

    __slots__ = ("_key", "public")

    def __init__(self, secret: bytes) -> None:
        if len(secret) != 32:
            raise ValueError(f"an Ed25519 private key is 32 bytes, got {len(secret)}")
        self._key = Ed25519PrivateKey.from_private_bytes(secret)
        self.public = self._key.public_key().public_bytes_raw().hex()

    @classmethod
    def generate(cls) -> KeyPair:
        """A new key pair from the operating system's randomness."""
        return cls(Ed25519PrivateKey.generate().private_bytes_raw())

    @property
    def secret(self) -> bytes:
        """The 32-byte private key (keep it out of every log)."""
        return self._key.private_bytes_raw()

    def sign(self, message: bytes) -> str:
        """A pure Ed25519 signature of ``message``, 128 lowercase hex digits."""
        return self._key.sign(message).hex()

    def receipt(self, game_id: str, seat: str, seq: int, head: str) -> Receipt:
        """``seat``'s receipt for its head ``head`` at record ``seq``."""
        signature = self.sign(receipt_message(game_id, seat, seq, head))
        return Receipt(seat=seat, seq=seq, head=head, signature=signature)

    def certify(self, game_id: str, receipt_key: str) -> str:
        """The server's certificate of a game's ``receipt_key`` (with its identity key)."""
        return self.sign(certificate_message(game_id, receipt_key))

    def __repr__(self) -> str:  # never the secret
        return f"KeyPair(public={self.public!r})"


def _hex(value: str, size: int, what: str) -> bytes:
    if len(value) != 2 * size or value != value.lower():
        raise ReceiptRefused(f"{what} must be {2 * size} lowercase hex digits")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ReceiptRefused(f"{what} must be {2 * size} lowercase hex digits") from None


def _signed(public: str, signature: str, message: bytes) -> bool:
    key = Ed25519PublicKey.from_public_bytes(_hex(public, 32, "the public key"))
    try:
        key.verify(_hex(signature, 64, "the signature"), message)
    except InvalidSignature:
        return False
    return True


def check_signature(receipt_key: str, game_id: str, receipt: Receipt) -> None:
    """Raise :class:`ReceiptRefused` unless ``receipt`` is signed by the game's key.

    What a client does on arrival, with ``receipt.head`` recomputed from its own lines.
    """
    _hex(receipt.head, 32, "the head")
    message = receipt_message(game_id, receipt.seat, receipt.seq, receipt.head)
    if not _signed(receipt_key, receipt.signature, message):
        raise ReceiptRefused(
            f"the signature does not verify under game {game_id}'s receipt_key for seat "
            f"{receipt.seat!r} at record {receipt.seq}"
        )


def check_certificate(server_key: str, game_id: str, receipt_key: str, signature: str) -> None:
    """Raise :class:`ReceiptRefused` unless ``signature`` (``receipt_key_signature``) shows
    that the server with identity ``server_key`` issued ``receipt_key`` for ``game_id``."""
    if not _signed(server_key, signature, certificate_message(game_id, receipt_key)):
        raise ReceiptRefused(
            f"receipt_key {receipt_key} is not certified for game {game_id} by server key "
            f"{server_key}"
        )


def parse_receipt(text: str) -> Receipt:
    """A receipt from ``SEAT:SEQ:HEAD:SIGNATURE`` (the seat may be empty: a spectator's;
    a seat name may itself hold ``:``, so the last three fields are split off the end)."""
    parts = text.rsplit(":", 3)
    if len(parts) != 4:
        raise ReceiptRefused(f"a receipt is SEAT:SEQ:HEAD:SIGNATURE, got {text[:80]!r}")
    seat, seq, head, signature = parts
    if not seq.isdigit() or not seq.isascii() or len(seq) > 16 or int(seq) > _MAX_SEQ:
        raise ReceiptRefused(f"the receipt's SEQ must be a record number, got {seq[:20]!r}")
    _hex(head, 32, "the receipt's HEAD")
    _hex(signature, 64, "the receipt's SIGNATURE")
    return Receipt(seat=seat, seq=int(seq), head=head, signature=signature)


def check_receipt(
    header: Header, lines: Sequence[bytes], messages: MessageTypes, receipt: Receipt
) -> None:
    """Raise :class:`ReceiptRefused` unless ``receipt`` belongs to this log.

    ``lines`` are the whole log's (a finished, verified one); ``receipt`` must name one of
    its seats (or ``""``), a record of it, be signed by the header's ``receipt_key`` and
    carry that seat's view head at that record, recomputed here from the log. A signed
    receipt whose head the log does not give is evidence that the server showed the seat
    another game than the one it published.
    """
    if receipt.seq >= len(lines):
        raise ReceiptRefused(
            f"record {receipt.seq} is not in the log (it has {len(lines)} records)"
        )
    check_signed(header, receipt)
    game_id = header.game_id
    heads = view_heads(
        game_id, receipt.seat, view_lines(lines[: receipt.seq + 1], receipt.seat, messages)
    )
    if heads[-1] != receipt.head:
        who = "the spectator" if receipt.seat == SPECTATOR else f"seat {receipt.seat!r}"
        raise ReceiptRefused(
            f"signed by this game's key, but {who}'s view of this log at record "
            f"{receipt.seq} hashes to {heads[-1]}, not the receipt's {receipt.head}: the log "
            "differs from what the seat was shown (altered after the fact)"
        )


def check_signed(header: Header, receipt: Receipt) -> None:
    """Raise :class:`ReceiptRefused` unless ``receipt`` names a seat of the game of
    ``header`` (or ``""``) and is signed by its ``receipt_key``: all of :func:`check_receipt`
    that needs no record of the log, so what a log that stops before the receipt's record
    (incomplete) can still check; the head is checked against the records by
    :func:`check_receipt`."""
    game_id, key = header.game_id, header.receipt_key
    if key is None:
        raise ReceiptRefused("the log has no receipt_key (format_version 1): no receipts")
    seats = (*header.seats, SPECTATOR)
    if receipt.seat not in seats:
        raise ReceiptRefused(f"seat {receipt.seat!r} is not a seat of game {game_id}")
    try:
        check_signature(key, game_id, receipt)
    except ReceiptRefused:
        raise ReceiptRefused(_misattributed(key, game_id, seats, receipt)) from None


def _misattributed(key: str, game_id: str, seats: Sequence[str], receipt: Receipt) -> str:
    """Why a receipt's signature fails: it is another seat's, or not this game's at all."""
    for seat in seats:
        if seat != receipt.seat:
            message = receipt_message(game_id, seat, receipt.seq, receipt.head)
            if _signed(key, receipt.signature, message):
                return (
                    f"the receipt is seat {seat!r}'s, not seat {receipt.seat!r}'s: its signature "
                    f"verifies only for seat {seat!r} at record {receipt.seq}"
                )
    return (
        f"the signature does not verify under game {game_id}'s receipt_key for seat "
        f"{receipt.seat!r} at record {receipt.seq}: forged, or a receipt of another game"
    )


class ViewChains:
    """Every seat's and the spectator's view chain of one game, grown record by record.

    What a server keeps to hand out receipts: for each viewer the head after every record
    (``lines`` never change once written, so a chain only grows, and it is rebuilt from the
    log alone after a restart).
    """

    __slots__ = ("_heads", "_last", "_messages", "game_id")

    def __init__(self, game_id: str, seats: Sequence[str], messages: MessageTypes) -> None:
        self.game_id = game_id
        self._messages = messages
        viewers = (*seats, SPECTATOR)
        self._last = {seat: chain_start(game_id, seat) for seat in viewers}
        self._heads: dict[str, list[str]] = {seat: [] for seat in viewers}

    @property
    def viewers(self) -> tuple[str, ...]:
        """The seats, then ``""`` (the spectator)."""
        return tuple(self._heads)

    def __len__(self) -> int:
        """How many records the chains cover."""
        return len(self._heads[SPECTATOR])

    def extend(self, lines: Iterable[bytes]) -> None:
        """Add log lines (without newlines), in order, to every viewer's chain."""
        for line in lines:
            for seat, heads in self._heads.items():
                value = chain_step(self._last[seat], view_line(line, seat, self._messages))
                self._last[seat] = value
                heads.append(value.hex())

    def head(self, seat: str, seq: int) -> str:
        """``hex(vh_seq(seat))``."""
        return self._heads[seat][seq]

    def receipt(self, key: KeyPair, seat: str, seq: int) -> Receipt:
        """``seat``'s signed receipt at record ``seq``."""
        return key.receipt(self.game_id, seat, seq, self.head(seat, seq))
