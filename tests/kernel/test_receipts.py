"""Receipts: view lines, view chains, signed receipts checked against a finished log
(docs/RECEIPTS.md), for every registered rule system."""

from __future__ import annotations

import json
from typing import Any

import pytest
from make_receipt_vectors import VECTORS, render

from nataterra_core.game import GameSession, new_game, verify_log
from nataterra_core.kernel import LogError, RandomPlayer, UnsupportedVersion
from nataterra_core.kernel.log import check_header
from nataterra_core.kernel.receipts import (
    SPECTATOR,
    KeyPair,
    Receipt,
    ReceiptRefused,
    ViewChains,
    check_certificate,
    check_signature,
    parse_receipt,
    view_heads,
    view_lines,
)
from nataterra_core.kernel.registry import RuleSystem, systems

GAME_KEY = KeyPair(bytes(range(32)))
OTHER_KEY = KeyPair(bytes(range(1, 33)))


def _ids() -> list[str]:
    return [record.id for record in systems()]


def _system(rules_id: str) -> RuleSystem:
    return next(record for record in systems() if record.id == rules_id)


def _game(
    rules_id: str, seed: int, commands: int = 12, key: KeyPair = GAME_KEY, game_id: str = "g-1"
) -> GameSession:
    """A game of ``rules_id`` with receipts: ``commands`` random commands, then closed."""
    record = _system(rules_id)
    seats = record.default_seats[min(record.default_seats)]
    server_seed = bytes([7]) * 32
    session = new_game(
        seats, game=rules_id, server_seed=server_seed, game_id=game_id, receipt_key=key.public
    )
    player = RandomPlayer(seed)
    for _ in range(commands):
        if session.outcome() is not None:
            break
        seat = session.acting_seats()[0]
        session.apply(seat, player.choose(None, session.legal_commands(seat)))
    session.close()
    return session


def _receipt(session: GameSession, seat: str, seq: int, key: KeyPair = GAME_KEY) -> Receipt:
    lines = view_lines(session.lines[: seq + 1], seat, session.decider)
    return key.receipt(session.header.game_id, seat, seq, view_heads("g-1", seat, lines)[-1])


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@pytest.mark.parametrize("rules_id", _ids())
def test_view_lines_are_the_canonical_json_of_the_record_views(rules_id: str) -> None:
    """msgspec's deterministic encoding of a view is ``json.dumps`` with sorted keys, for
    every record of a game of every registered system."""
    session = _game(rules_id, seed=1)
    for seat in (*session.header.seats, SPECTATOR):
        for line in view_lines(session.lines, seat, session.decider):
            assert _canonical(json.loads(line)) == line
            assert not line.endswith(b"\n")


@pytest.mark.parametrize("rules_id", _ids())
def test_every_receipt_of_a_finished_game_belongs_to_its_log(rules_id: str) -> None:
    session = _game(rules_id, seed=2)
    chains = ViewChains("g-1", session.header.seats, session.decider)
    chains.extend(session.lines)
    receipts = [
        chains.receipt(GAME_KEY, seat, seq)
        for seat in chains.viewers
        for seq in range(len(session.lines))
    ]
    assert receipts[-1] == _receipt(session, SPECTATOR, len(session.lines) - 1)
    verdict = verify_log(session.log_bytes(), receipts=receipts)
    assert verdict.valid, verdict
    assert verdict.reason == f"{len(receipts)} receipts checked"


@pytest.mark.parametrize("rules_id", _ids())
def test_a_log_altered_after_the_fact_fails_a_held_receipt(rules_id: str) -> None:
    """The server (which holds the seed and the game's key) publishes a valid log of another
    game under the same id: the receipt a seat holds from the game it was shown fails."""
    shown = _game(rules_id, seed=3, commands=6)
    published = _game(rules_id, seed=4, commands=6)
    assert verify_log(published.log_bytes()).valid
    last = min(len(shown.lines), len(published.lines)) - 1
    held = [
        _receipt(shown, seat, last)
        for seat in shown.header.seats
        if view_lines(shown.lines[: last + 1], seat, shown.decider)
        != view_lines(published.lines[: last + 1], seat, published.decider)
    ]
    assert held, "the two games look the same to every seat"
    verdict = verify_log(published.log_bytes(), receipts=held)
    assert verdict.failure == "receipt"
    assert verdict.seq == last
    assert "signed by this game's key" in verdict.reason
    assert "differs from what the seat was shown" in verdict.reason


def test_a_forged_signature_fails() -> None:
    session = _game("kaladan", seed=5)
    seat = session.header.seats[0]
    good = _receipt(session, seat, 3)
    forged = Receipt(seat=seat, seq=3, head=good.head, signature=OTHER_KEY.sign(b"x"))
    verdict = verify_log(session.log_bytes(), receipts=[forged])
    assert verdict.failure == "receipt" and verdict.seq == 3
    assert "does not verify under game g-1's receipt_key" in verdict.reason
    assert "forged, or a receipt of another game" in verdict.reason


def test_another_games_receipt_fails() -> None:
    """The same seats and seed, another game id and key: its receipts are not this log's."""
    session = _game("kaladan", seed=6)
    other = _game("kaladan", seed=6, key=OTHER_KEY, game_id="g-2")
    seat = session.header.seats[1]
    lines = view_lines(other.lines[:4], seat, other.decider)
    foreign = OTHER_KEY.receipt("g-2", seat, 3, view_heads("g-2", seat, lines)[-1])
    verdict = verify_log(session.log_bytes(), receipts=[foreign])
    assert verdict.failure == "receipt"
    assert "forged, or a receipt of another game" in verdict.reason


def test_a_receipt_for_another_seat_fails_naming_whose_it_is() -> None:
    session = _game("kaladan", seed=7)
    red, blue = session.header.seats
    reds = _receipt(session, red, 4)
    claimed = Receipt(seat=blue, seq=4, head=reds.head, signature=reds.signature)
    verdict = verify_log(session.log_bytes(), receipts=[claimed])
    assert verdict.failure == "receipt"
    assert f"the receipt is seat {red!r}'s, not seat {blue!r}'s" in verdict.reason


def test_receipts_naming_no_seat_or_record_of_the_log_fail() -> None:
    session = _game("kaladan", seed=8)
    good = _receipt(session, SPECTATOR, 2)
    unknown_seat = Receipt(seat="nobody", seq=2, head=good.head, signature=good.signature)
    too_late = Receipt(seat="", seq=999, head=good.head, signature=good.signature)
    data = session.log_bytes()
    assert "not a seat of game g-1" in verify_log(data, receipts=[unknown_seat]).reason
    verdict = verify_log(data, receipts=[too_late])
    assert verdict.seq is None and "record 999 is not in the log" in verdict.reason
    assert verify_log(data, receipts=[good]).valid


def test_a_log_without_receipt_key_has_no_receipts() -> None:
    session = new_game(2, game="kaladan", seed=1)
    session.close()
    assert session.header.format_version == 1
    assert b"receipt_key" not in session.lines[0]
    receipt = GAME_KEY.receipt(session.header.game_id, "", 0, "0" * 64)
    verdict = verify_log(session.log_bytes(), receipts=[receipt])
    assert verdict.failure == "receipt"
    assert "no receipt_key (format_version 1)" in verdict.reason


def test_receipts_are_not_checked_on_an_invalid_log() -> None:
    """(An incomplete log's are: tests/test_receipts_on_cut_logs.py.)"""
    session = _game("kaladan", seed=9)
    damaged = session.log_bytes().replace(b'"seq":3', b'"seq":4', 1)
    verdict = verify_log(damaged, receipts=[_receipt(session, "", 2)])
    assert verdict.failure == "read"


def test_a_receipt_checks_on_arrival_from_the_lines_alone() -> None:
    session = _game("kaladan", seed=10)
    seat = session.header.seats[0]
    receipt = _receipt(session, seat, 5)
    check_signature(GAME_KEY.public, "g-1", receipt)
    with pytest.raises(ReceiptRefused, match="does not verify"):
        check_signature(GAME_KEY.public, "g-2", receipt)
    with pytest.raises(ReceiptRefused, match="does not verify"):
        check_signature(OTHER_KEY.public, "g-1", receipt)


def test_the_server_key_certifies_a_game_key() -> None:
    server = KeyPair.generate()
    signature = server.certify("g-1", GAME_KEY.public)
    check_certificate(server.public, "g-1", GAME_KEY.public, signature)
    with pytest.raises(ReceiptRefused, match="not certified"):
        check_certificate(server.public, "g-2", GAME_KEY.public, signature)
    with pytest.raises(ReceiptRefused, match="not certified"):
        check_certificate(OTHER_KEY.public, "g-1", GAME_KEY.public, signature)
    assert server.public in repr(server) and server.secret.hex() not in repr(server)


def test_receipt_text_round_trips_and_bad_text_is_refused() -> None:
    receipt = Receipt(seat="", seq=12, head="ab" * 32, signature="cd" * 64)
    assert parse_receipt(receipt.text()) == receipt
    named = Receipt(seat="a:b", seq=0, head="ab" * 32, signature="cd" * 64)
    assert parse_receipt(named.text()) == named
    for bad, reason in [
        ("red:1:ab", "SEAT:SEQ:HEAD:SIGNATURE"),
        (f"red:-1:{'ab' * 32}:{'cd' * 64}", "SEQ must be a record number"),
        (f"red:1:{'AB' * 32}:{'cd' * 64}", "HEAD must be 64 lowercase hex"),
        (f"red:1:{'ab' * 32}:{'cd' * 63}", "SIGNATURE must be 128 lowercase hex"),
        (f"red:1:{'ab' * 32}:{'zz' * 64}", "SIGNATURE must be 128 lowercase hex"),
    ]:
        with pytest.raises(ReceiptRefused, match=reason):
            parse_receipt(bad)


def test_the_header_version_follows_the_receipt_key() -> None:
    session = _game("kaladan", seed=1, commands=0)
    header = session.lines[0]
    assert check_header(header).format_version == 2
    assert check_header(header).receipt_key == GAME_KEY.public
    without_key = header.replace(b',"receipt_key":"' + GAME_KEY.public.encode() + b'"', b"")
    with pytest.raises(LogError, match="a header with no receipt_key has format_version 1"):
        check_header(without_key)
    # An unknown version is refused as unsupported before the strict schema sees a new field.
    future = header.replace(b'"format_version":2', b'"format_version":3').replace(
        b'"client_seed"', b'"salt":"x","client_seed"'
    )
    with pytest.raises(UnsupportedVersion, match="v3 is not supported"):
        check_header(future)
    with pytest.raises(ValueError, match="receipt_key must be 64 lowercase hex"):
        new_game(2, game="kaladan", seed=1, receipt_key="AB" * 32)


def test_view_chains_grow_like_the_formula() -> None:
    session = _game("kaladan", seed=12)
    chains = ViewChains("g-1", session.header.seats, session.decider)
    chains.extend(session.lines[:3])
    chains.extend(session.lines[3:])
    assert len(chains) == len(session.lines)
    for seat in chains.viewers:
        lines = view_lines(session.lines, seat, session.decider)
        heads = view_heads("g-1", seat, lines)
        assert [chains.head(seat, seq) for seq in range(len(heads))] == heads


def test_the_vectors_file_is_what_the_library_produces() -> None:
    """``docs/receipt-vectors.json`` is regenerated by ``make_receipt_vectors.py``."""
    assert VECTORS.read_text(encoding="utf-8") == render()


def test_the_visibility_tables_are_those_of_the_registered_systems() -> None:
    """``docs/VISIBILITY.md`` is regenerated by ``make_visibility_table.py`` (every
    registered system's declarations: an auditor's cut of each record)."""
    import make_visibility_table

    assert make_visibility_table.DOC.read_text(encoding="utf-8") == make_visibility_table.render()
