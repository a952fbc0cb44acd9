"""Receipts over JSON-RPC (docs/RECEIPTS.md, ``docs/RPC.md``), for every registered system.

Each seat's client (and a spectator's) keeps the lines it is given and checks every receipt
on arrival (:mod:`receipt_client`, which does not import our library); once the game is over,
every receipt held belongs to the final log, and the failures a seat may meet afterwards
(a log altered after the fact, a forged signature, another game's receipt, a receipt passed
off as another seat's) each fail with their reason.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from nataterra_adapters.rpc.server import Server
from nataterra_adapters.rpc.store_files import DirectoryStore
from nataterra_adapters.rpc.wire import MAX_RECEIPT_SEAT, MAX_RECEIPTS
from receipt_client import Holder, check_game_key

from nataterra_core.game import new_game, verify_log
from nataterra_core.kernel import RandomPlayer
from nataterra_core.kernel.receipts import KeyPair, Receipt, parse_receipt
from nataterra_core.kernel.registry import RuleSystem, systems

QUICK: dict[str, dict[str, Any]] = {
    "nataterra": {"max_turns": 2},
    "battlelore": {"max_turns": 6},
}
"""Options that keep a game short (the same for a system added later: its defaults)."""
MAX_CALLS = 4000


def call(server: Server, method: str, **params: Any) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
    reply = server.dispatcher.handle(json.dumps(message).encode())
    assert reply is not None
    answer: dict[str, Any] = json.loads(reply)
    return answer


def ok(server: Server, method: str, **params: Any) -> Any:
    answer = call(server, method, **params)
    assert "result" in answer, answer
    return answer["result"]


class Table:
    """A game over one server, with a holder per seat and one for a spectator."""

    def __init__(self, server: Server, record: RuleSystem, seed: int, **create: Any) -> None:
        self.server = server
        options = {**record.default_options, **QUICK.get(record.id, {})}
        game = ok(server, "game.create", rules=record.id, seed=seed, options=options, **create)
        self.game_id, self.tokens = game["game_id"], game["tokens"]
        self.version, self.acting = game["version"], game["acting"]
        info = ok(server, "server.info")
        check_game_key(
            info["server_key"], self.game_id, game["receipt_key"], game["receipt_key_signature"]
        )
        view = ok(server, "game.view", game_id=self.game_id)
        assert view["receipt_key"] == game["receipt_key"]
        assert view["receipt_key_signature"] == game["receipt_key_signature"]
        self.holders = {
            seat: Holder(self.game_id, seat, game["receipt_key"]) for seat in (*self.tokens, "")
        }
        self.rng = random.Random(seed)

    def sync(self, seat: str) -> None:
        """Fetch the records ``seat`` has not been shown yet (another seat's, a bot's)."""
        holder = self.holders[seat]
        token = {"token": self.tokens[seat]} if seat else {}
        log = ok(self.server, "game.log", game_id=self.game_id, since=len(holder.lines), **token)
        holder.take(log["lines"])

    def act(self, seat: str, method: str, **params: Any) -> dict[str, Any] | None:
        """Call ``method`` for ``seat``; check its receipt on arrival (``None``: refused)."""
        self.sync(seat)
        holder = self.holders[seat]
        before = len(holder.lines)
        answer = call(
            self.server,
            method,
            game_id=self.game_id,
            token=self.tokens[seat],
            expected_version=self.version,
            **params,
        )
        if "error" in answer:
            return None
        result: dict[str, Any] = answer["result"]
        assert result["receipt"]["seq"] == before  # the record this call appended
        holder.take(result["lines"])
        assert len(holder.lines) == result["version"] + 1
        holder.check(result["receipt"])
        self.version, self.acting = result["version"], result["acting"]
        return result

    def spectate(self) -> None:
        """The spectator asks for a receipt of the last record and checks it."""
        self.sync("")
        answer = ok(self.server, "game.receipt", game_id=self.game_id)
        self.holders[""].check(answer["receipt"])

    def play(self) -> dict[str, Any]:
        """Random legal commands (with an undo and a redo now and then) to the end; the
        final ``game.log``."""
        for _ in range(MAX_CALLS):
            if not self.acting:
                break
            seat = self.acting[0]
            legal = ok(
                self.server, "game.legal_commands", game_id=self.game_id, token=self.tokens[seat]
            )
            result = self.act(seat, "game.apply", command=self.rng.choice(legal["commands"]))
            assert result is not None
            if self.acting and self.rng.random() < 0.1 and self.act(seat, "game.undo"):
                assert self.act(seat, "game.redo") is not None
            if self.rng.random() < 0.1:
                self.spectate()
        assert not self.acting, "the game did not end"
        for seat in self.holders:
            self.sync(seat)
            if seat:
                receipt = ok(
                    self.server, "game.receipt", game_id=self.game_id, token=self.tokens[seat]
                )
                self.holders[seat].check(receipt["receipt"])
        self.spectate()
        log: dict[str, Any] = ok(self.server, "game.log", game_id=self.game_id)
        assert log["revealed"]
        return log

    def receipts(self) -> list[Receipt]:
        return [parse_receipt(text) for holder in self.holders.values() for text in holder.texts()]


def _ids() -> list[str]:
    return [record.id for record in systems()]


def _system(rules_id: str) -> RuleSystem:
    return next(record for record in systems() if record.id == rules_id)


@pytest.mark.parametrize("rules_id", _ids())
def test_every_receipt_checks_on_arrival_and_belongs_to_the_final_log(rules_id: str) -> None:
    table = Table(Server(test_seeds=True), _system(rules_id), seed=3)
    log = table.play()
    receipts = table.receipts()
    assert len(receipts) > len(table.holders)
    verdict = verify_log(log["log"].encode(), receipts=receipts)
    assert verdict.valid, verdict
    # After the reveal, game.log's lines are still the views each seat was shown.
    for seat, holder in table.holders.items():
        token = {"token": table.tokens[seat]} if seat else {}
        assert ok(table.server, "game.log", game_id=table.game_id, **token)["lines"] == holder.lines


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Table, dict[str, Any], Path]:
    """A Kaladan game played to its end on a server with a store."""
    store = tmp_path_factory.mktemp("store")
    table = Table(Server(test_seeds=True, store=DirectoryStore(store)), _system("kaladan"), seed=8)
    return table, table.play(), store


def test_a_log_altered_after_the_fact_fails_a_held_receipt(
    finished: tuple[Table, dict[str, Any], Path],
) -> None:
    table, log, store = finished
    data = log["log"].encode()
    seat = next(iter(table.tokens))
    held = [parse_receipt(text) for text in table.holders[seat].texts()]
    # A byte changed: the chain fails before any receipt is looked at.
    changed = data.replace(b'"client_seed":""', b'"client_seed":"x"', 1)
    assert changed != data
    assert verify_log(changed, receipts=held).failure == "chain"
    # The server rewrites the game: it holds the seed and the game's key (its store), so it
    # can publish a valid log of another game under the same id and key. The receipts fail.
    secret = json.loads((store / f"{table.game_id}.secret").read_text())
    key = KeyPair(bytes.fromhex(secret["receipt_key"]))
    first = json.loads(data.split(b"\n")[0])
    other = new_game(
        tuple(first["seats"]),
        game="kaladan",
        server_seed=bytes.fromhex(secret["server_seed"]),
        game_id=table.game_id,
        receipt_key=key.public,
    )
    player = RandomPlayer(99)
    while other.outcome() is None:
        acting = other.acting_seats()[0]
        other.apply(acting, player.choose(None, other.legal_commands(acting)))
    other.close()
    assert verify_log(other.log_bytes()).valid
    verdict = verify_log(other.log_bytes(), receipts=held)
    assert verdict.failure == "receipt"
    assert "differs from what the seat was shown" in verdict.reason


def test_forged_foreign_and_misattributed_receipts_fail_with_their_reason(
    finished: tuple[Table, dict[str, Any], Path],
) -> None:
    table, log, _ = finished
    data = log["log"].encode()
    red, blue = table.tokens
    held = parse_receipt(table.holders[red].texts()[-1])
    forged = Receipt(
        seat=red, seq=held.seq, head=held.head, signature=KeyPair.generate().sign(b"x")
    )
    verdict = verify_log(data, receipts=[forged])
    assert verdict.failure == "receipt" and "forged" in verdict.reason
    claimed = Receipt(seat=blue, seq=held.seq, head=held.head, signature=held.signature)
    verdict = verify_log(data, receipts=[claimed])
    assert verdict.failure == "receipt"
    assert f"the receipt is seat {red!r}'s, not seat {blue!r}'s" in verdict.reason
    elsewhere = Table(table.server, _system("kaladan"), seed=9, game_id="another")
    elsewhere.act(
        elsewhere.acting[0],
        "game.apply",
        command=ok(
            table.server,
            "game.legal_commands",
            game_id="another",
            token=elsewhere.tokens[elsewhere.acting[0]],
        )["commands"][0],
    )
    foreign = [parse_receipt(text) for h in elsewhere.holders.values() for text in h.texts()]
    verdict = verify_log(data, receipts=foreign)
    assert verdict.failure == "receipt"
    assert "forged, or a receipt of another game" in verdict.reason


def test_receipts_survive_a_restart_and_keys_stay_in_the_store(
    finished: tuple[Table, dict[str, Any], Path],
) -> None:
    table, log, store = finished
    key_file = store / "server.key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert (store / f"{table.game_id}.secret").stat().st_mode & 0o777 == 0o600
    secret = json.loads((store / f"{table.game_id}.secret").read_text())
    assert secret["receipt_key"] not in log["log"] and key_file.read_text() not in log["log"]
    again = Server(test_seeds=True, store=DirectoryStore(store))
    assert ok(again, "server.info")["server_key"] == ok(table.server, "server.info")["server_key"]
    view = ok(again, "game.view", game_id=table.game_id)
    old = ok(table.server, "game.view", game_id=table.game_id)
    assert view["receipt_key_signature"] == old["receipt_key_signature"]
    spectator = ok(again, "game.receipt", game_id=table.game_id)["receipt"]
    table.holders[""].check(spectator)


def test_a_damaged_server_key_stops_the_server_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new identity would be another server to the players: the server does not start."""
    from nataterra_adapters.rpc.server import main

    (tmp_path / "server.key").write_text("not a key\n")
    assert main(["--store", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert "server.key: not this server's identity key (64 hex digits)" in error
    assert "Traceback" not in error


def _sent(receipt: Receipt) -> dict[str, Any]:
    """A receipt as a client sends it: the object ``game.receipt`` answered."""
    sent: dict[str, Any] = msgspec.to_builtins(receipt)
    return sent


def test_log_verify_checks_the_receipts_given_with_the_log(
    finished: tuple[Table, dict[str, Any], Path],
) -> None:
    """RPC ``log.verify`` checks receipts as ``nataterra verify --receipt`` does: each one
    counted in ``checked``, a tampered one the verdict's failure, named by its record."""
    table, log, _ = finished
    held = table.receipts()
    verdict = ok(table.server, "log.verify", log=log["log"], receipts=[_sent(r) for r in held])
    assert verdict["status"] == "valid" and verdict["checked"] == len(held) > 1
    assert verdict["unchecked"] == []
    # An incomplete log (cut before its reveal): the receipts past its end are named.
    cut = "".join(log["log"].splitlines(keepends=True)[:-2])
    verdict = ok(table.server, "log.verify", log=cut, receipts=[_sent(r) for r in held])
    assert verdict["status"] == "incomplete" and verdict["unchecked"]
    assert verdict["checked"] + len(verdict["unchecked"]) == len(held)
    # One head changed: the verdict is invalid, naming that receipt's record.
    tampered = held[len(held) // 2]
    head = ("0" if tampered.head[0] != "0" else "1") + tampered.head[1:]
    sent = [_sent(r) for r in held]
    sent[len(held) // 2]["head"] = head
    verdict = ok(table.server, "log.verify", log=log["log"], receipts=sent)
    assert verdict["status"] == "invalid" and verdict["failure"] == "receipt"
    assert verdict["seq"] == tampered.seq and verdict["checked"] == 0
    assert f"record {tampered.seq}" in verdict["said"]
    # What the CLI's kernel function says of the same receipt.
    same = msgspec.structs.replace(tampered, head=head)
    assert verify_log(log["log"].encode(), receipts=[same]).reason == verdict["reason"]


def test_log_verify_refuses_too_many_too_large_or_malformed_receipts(
    finished: tuple[Table, dict[str, Any], Path],
) -> None:
    table, log, _ = finished
    one = _sent(table.receipts()[0])
    cases = [
        ([one] * (MAX_RECEIPTS + 1), f"length <= {MAX_RECEIPTS}", "$.receipts"),
        ([{**one, "signature": one["signature"] * 2}], "length <= 128", "signature"),
        ([{**one, "seat": "x" * (MAX_RECEIPT_SEAT + 1)}], f"<= {MAX_RECEIPT_SEAT}", "seat"),
        ([{**one, "head": one["head"].upper()}], "64 lowercase hex digits", "HEAD"),
        ([{**one, "seq": -1}], ">= 0", "seq"),
    ]
    for receipts, limit, where in cases:
        answer = call(table.server, "log.verify", log=log["log"], receipts=receipts)
        assert answer["error"]["code"] == -32602, answer
        reason = answer["error"]["data"]["reason"]
        assert limit in reason and where in reason, reason
