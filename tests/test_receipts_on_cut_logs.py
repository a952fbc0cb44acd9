"""Receipts are checked on an incomplete log too (docs/RECEIPTS.md): every receipt whose
record the log holds against those records (a seat's view head needs no seed), one past the
log's end for its seat and signature, and named as not checked; a receipt that does not
belong to the records there makes the log invalid (``receipt``), named. Logs cut before the
reveal (a game in progress) and after it (no end record); kernel and ``nataterra verify``;
every registered game that keeps secrets."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from nataterra_adapters.cli import EXIT_CODES, app
from typer.testing import CliRunner

from nataterra_core.game import GameSession, new_game, verify_log
from nataterra_core.kernel.receipts import SPECTATOR, KeyPair, Receipt, ViewChains
from nataterra_core.kernel.registry import system, systems

runner = CliRunner()
KEY = KeyPair(bytes(range(32)))
SECRET_KEEPING = [record.id for record in systems() if not record.perfect_information]


def _played(game: str, commands: int = 14) -> tuple[GameSession, ViewChains]:
    """A game served with receipts, ``commands`` random commands in, still running, and
    every viewer's chain of it."""
    record = system(game)
    seats = record.default_seats[min(record.default_seats)]
    session = new_game(seats, game=game, seed=3, game_id="g-cut", receipt_key=KEY.public)
    rng = random.Random(3)
    for _ in range(commands):
        if session.outcome() is not None:
            break
        seat = rng.choice(list(session.acting_seats()))
        session.apply(seat, rng.choice(list(session.legal_commands(seat))))
    return session, _chains(session)


def _chains(session: GameSession) -> ViewChains:
    chains = ViewChains(session.header.game_id, session.header.seats, session.decider)
    chains.extend(session.lines)
    return chains


def _every_receipt(session: GameSession, chains: ViewChains) -> list[Receipt]:
    """One receipt per record, its viewer going round the seats and the spectator."""
    viewers = (*session.header.seats, SPECTATOR)
    return [
        chains.receipt(KEY, viewers[seq % len(viewers)], seq) for seq in range(len(session.lines))
    ]


def _log(lines: tuple[bytes, ...] | list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_every_receipt_of_a_log_cut_before_its_reveal_is_checked(game: str) -> None:
    session, chains = _played(game)
    receipts = _every_receipt(session, chains)
    verdict = verify_log(session.log_bytes(), receipts=receipts)
    assert verdict.status == "incomplete", verdict
    assert (verdict.checked, verdict.unchecked) == (len(receipts), ())
    # The log published shorter than the receipts: those past its end are named.
    cut = len(session.lines) - 3
    verdict = verify_log(_log(session.lines[:cut]), receipts=receipts)
    assert verdict.status == "incomplete" and verdict.seq == cut, verdict
    assert verdict.checked == cut
    assert verdict.unchecked == tuple(
        f"{'the spectator' if not r.seat else f'seat {r.seat!r}'}'s receipt at record {r.seq}"
        for r in receipts[cut:]
    )


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_every_receipt_of_a_log_cut_after_its_reveal_is_checked(game: str) -> None:
    session, _ = _played(game)
    session.close()
    chains = _chains(session)
    receipts = _every_receipt(session, chains)
    cut = _log(session.lines[:-1])  # the end record lost
    verdict = verify_log(cut, receipts=receipts[:-1])
    assert verdict.status == "incomplete" and verdict.checked == len(receipts) - 1, verdict
    verdict = verify_log(cut, receipts=receipts)
    assert verdict.status == "incomplete" and verdict.checked == len(receipts) - 1, verdict
    assert (
        len(verdict.unchecked) == 1 and f"record {len(session.lines) - 1}" in verdict.unchecked[0]
    )
    assert verify_log(session.log_bytes(), receipts=receipts).valid


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_a_receipt_that_does_not_belong_to_an_incomplete_log_is_named(game: str) -> None:
    session, chains = _played(game)
    seat = session.header.seats[0]
    data = session.log_bytes()
    good = chains.receipt(KEY, seat, 4)
    # Signed by another key: a forged receipt.
    forged = Receipt(seat=seat, seq=4, head=good.head, signature=KeyPair(bytes(32)).sign(b"x"))
    verdict = verify_log(data, receipts=[good, forged])
    assert (verdict.status, verdict.failure, verdict.seq) == ("invalid", "receipt", 4), verdict
    assert verdict.reason.startswith(f"seat {seat!r}'s receipt at record 4: ")
    assert "forged, or a receipt of another game" in verdict.reason
    # Another head, re-signed by no one: the signature no longer covers it.
    tampered = Receipt(seat=seat, seq=4, head="ab" * 32, signature=good.signature)
    verdict = verify_log(data, receipts=[tampered])
    assert (verdict.failure, verdict.seq) == ("receipt", 4), verdict
    # Past the log's end, a forged receipt is still refused (its seat and signature).
    late = Receipt(seat=seat, seq=len(session.lines) + 5, head=good.head, signature=good.signature)
    verdict = verify_log(data, receipts=[late])
    assert (verdict.failure, verdict.seq) == ("receipt", None), verdict
    assert f"record {late.seq}" in verdict.reason and "does not verify" in verdict.reason


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_an_incomplete_log_edited_where_a_seat_saw_it_fails_that_seats_receipt(game: str) -> None:
    """A command's seat changed, the chain rebuilt, every record canonical: nothing tells
    the log in progress from an honest one but a receipt of a viewer who saw that record."""
    session, chains = _played(game)
    lines = [json.loads(line) for line in session.lines]
    at = next(n for n, r in enumerate(lines) if n > 1 and r["kind"] == "command")
    other = next(s for s in session.header.seats if s != lines[at]["seat"])
    lines[at]["seat"] = other
    edited: list[bytes] = []
    for record in lines:
        if edited:
            record["prev"] = hashlib.sha256(edited[-1]).hexdigest()
        edited.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode())
    data = _log(edited)
    assert verify_log(data).status == "incomplete"  # no seed yet: the rules cannot tell
    receipt = chains.receipt(KEY, SPECTATOR, at)
    verdict = verify_log(data, receipts=[receipt])
    assert (verdict.status, verdict.failure, verdict.seq) == ("invalid", "receipt", at), verdict
    assert "the log differs from what the seat was shown" in verdict.reason


def test_nataterra_verify_checks_receipts_on_an_incomplete_log(tmp_path: Path) -> None:
    session, chains = _played("liars-dice")
    receipts = _every_receipt(session, chains)
    cut = len(session.lines) - 2
    path = tmp_path / "cut.jsonl"
    path.write_bytes(_log(session.lines[:cut]))
    given = [arg for receipt in receipts for arg in ("--receipt", receipt.text())]
    result = runner.invoke(app, ["verify", str(path), *given], terminal_width=1000)
    assert result.exit_code == EXIT_CODES["incomplete"], result.output
    said = " ".join(result.output.split())
    assert f"{cut} receipts checked: each belongs to the log" in said, said
    late = [f"receipt at record {seq}" for seq in (cut, cut + 1)]
    assert all(words in said for words in late), said
    assert "not checked, the log being incomplete" in said, said
    result = runner.invoke(app, ["verify", str(path), *given, "--json"])
    verdict = json.loads(result.stdout.splitlines()[0])
    assert (verdict["status"], verdict["checked"], len(verdict["unchecked"])) == (
        "incomplete",
        cut,
        2,
    )
    seat = session.header.seats[1]
    good = chains.receipt(KEY, seat, 3)
    tampered = f"{seat}:3:{'cd' * 32}:{good.signature}"
    result = runner.invoke(app, ["verify", str(path), "--receipt", tampered], terminal_width=1000)
    assert result.exit_code == EXIT_CODES["receipt"], result.output
    said = " ".join(result.output.split())
    assert "INVALID (receipt)" in said and f"seat {seat!r}'s receipt at record 3" in said, said
