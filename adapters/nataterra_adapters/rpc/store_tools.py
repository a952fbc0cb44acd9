"""What an operator does with a store: list it, export games, copy games between stores
(each copy verified), and the servers' default store with its one-time import.

A copy is verified by re-executing the game's log with its secret seed, as a server does
when it serves the game (:func:`check_game`), and by reading it back byte for byte from the
target. A game this build cannot run (its rules version, a damaged record) is still copied
and exported as it is, said so.

A copy carries everything a client could still ask for: the games waiting for their seats'
contributions and the answers kept for ``command_id`` retries go with the games. A waiting
game that has expired is not copied (nobody can join it; the target would only remove it),
and is counted apart (:attr:`Copied.expired`). An export
is a game's public record: its log, and for a waiting game its setup; nothing secret (a
seat's token, a seed not yet revealed, a seat's own view in a kept answer) is written.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from nataterra_core.game import decider_for
from nataterra_core.kernel import LogError, Session, read_log
from nataterra_core.kernel.registry import system
from nataterra_core.kernel.seed_ceremony import SeedCeremony

from ..local_files import data_dir, write_private
from .store import (
    ANSWERS_KEPT,
    Answer,
    DamagedGame,
    GameExists,
    Listing,
    Pending,
    Store,
    StoredGame,
    StoreError,
    StoreUnavailable,
    read_game,
)
from .store_files import DirectoryStore
from .store_postgres import PostgresStore
from .store_sqlite import SqliteStore

__all__ = [
    "Copied",
    "check_game",
    "check_waiting",
    "copy_games",
    "default_store",
    "export_games",
    "kept_answers",
    "open_default_store",
    "open_store",
    "survey",
    "waiting_setup",
]

DEFAULT_STORE_NAME = "games.sqlite3"
OLD_DEFAULT_DIRECTORY = "rpc-games"
"""The servers' default store before SQLite: a directory store in the data folder."""


def default_store() -> Path:
    """``$XDG_DATA_HOME/nataterra/games.sqlite3`` (by default ``~/.local/share/…``)."""
    return data_dir() / DEFAULT_STORE_NAME


def open_store(where: str | Path) -> Store:
    """The store a ``--store`` value names: a ``postgresql://`` URL (PostgreSQL; without the
    ``postgres`` extra, :class:`~.store.StoreError` saying so), a path ending in ``.sqlite3``
    (SQLite), or a directory (the directory store)."""
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        return PostgresStore(text)
    if text.endswith(".sqlite3"):
        return SqliteStore(Path(text))
    return DirectoryStore(Path(text))


def check_game(stored: StoredGame) -> str | None:
    """Why the game does not re-execute from its log with its secret seed (``None``: it
    does, every record's bytes as logged; a log that a crash cut between its reveal and its
    end does too: a server resuming it writes the end)."""
    try:
        log = read_log(stored.log, decider_for)
        seed = stored.secret.server_seed
        Session.from_log(log.decider, log.header, log.records, log.lines, seed, finish=True)
    except (LogError, ValueError) as exc:
        return str(exc)
    return None


def survey(store: Store) -> list[Listing]:
    """Every game of ``store`` as it lists them, a game in play whose log this build cannot
    read shown set aside with the reason (nothing is changed in the store)."""
    listed = []
    for listing in store.games():
        if listing.status == "live":
            stored = read_game(store, listing.game_id)
            reason = (
                stored.reason
                if isinstance(stored, DamagedGame)
                else _header_problem(stored.log)
                if stored is not None
                else None
            )
            if reason is not None:
                listing = Listing(listing.game_id, "set aside", listing.records, False, reason)
        listed.append(listing)
    return listed


def _header_problem(log: bytes) -> str | None:
    """Why this build cannot run the game whose log is ``log`` (its header alone read)."""
    try:
        read_log(log.split(b"\n", 1)[0] + b"\n", decider_for)
    except (LogError, ValueError) as exc:
        return str(exc)
    return None


@dataclass(frozen=True)
class Copied:
    """What became of one game copied or exported."""

    game_id: str
    done: bool
    """Copied (or written), read back the same."""
    verified: bool
    """Re-executed from its log with its secret seed (a waiting game: its setup and seed
    ceremony rebuilt, :func:`check_waiting`)."""
    note: str = ""
    """Why it was not copied or not verified (or that the target had it already)."""
    waiting: bool = False
    """A game still waiting for its seats' contributions (no log yet)."""
    answers: int = 0
    """The answers kept for its ``command_id`` retries: copied with it (migrate), left out
    (export)."""
    expired: bool = False
    """A waiting game that had expired: not copied (migrate), and not a failure."""


def copy_games(
    source: Store,
    target: Store,
    game_ids: Iterable[str] | None = None,
    *,
    told: Callable[[Copied], None] = lambda copied: None,
    resume: bool = False,
    now: float | None = None,
) -> list[Copied]:
    """Copy games (all by default, the games waiting for their seats too) from ``source``
    to ``target`` with their secrets and the answers kept for ``command_id`` retries, each
    verified and read back; a game the target has already is left there, said so (with
    ``resume``, one it has with the same log and secret, as an interrupted copy left it, is
    checked, given any kept answer it lacks, and counted as copied; a waiting game, one it
    has the same). A waiting game expired by ``now`` (Unix time; default: the clock's) is
    not copied (:attr:`Copied.expired`)."""
    at = time.time() if now is None else now
    return _each(
        source,
        game_ids,
        lambda stored: _copy(stored, target, resume),
        lambda game_id, pending: _copy_waiting(game_id, pending, target, resume, at),
        told,
    )


def export_games(
    store: Store,
    out: Path,
    game_ids: Iterable[str] | None = None,
    *,
    told: Callable[[Copied], None] = lambda copied: None,
) -> list[Copied]:
    """Write each game's log (all by default) as ``OUT/<game_id>.jsonl``, its exact bytes
    (no secret), each checked by re-executing it with its secret seed; a game waiting for
    its seats as ``OUT/<game_id>.waiting.json``, its setup without its secret
    (:func:`waiting_setup`). The answers kept for retries are not exported (each is a
    seat's view, of use to a server alone): ``Copied.answers`` counts them."""
    out.mkdir(parents=True, exist_ok=True)
    return _each(
        store,
        game_ids,
        lambda stored: _export(stored, out),
        lambda game_id, pending: _export_waiting(game_id, pending, out),
        told,
    )


def _each(
    store: Store,
    game_ids: Iterable[str] | None,
    action: Callable[[StoredGame], Copied],
    waiting: Callable[[str, Pending], Copied],
    told: Callable[[Copied], None],
) -> list[Copied]:
    """``action`` on each readable game, ``waiting`` on each readable game waiting for its
    seats (all by default: the games with records, then the waiting ones), the others said
    why not."""
    if game_ids is None:
        wanted = [listing.game_id for listing in store.games()] + store.waiting_games()
    else:
        wanted = list(game_ids)
    done = []
    for game_id in wanted:
        stored = read_game(store, game_id)
        if stored is None:
            copied = _read_waiting(store, game_id, waiting)
        elif isinstance(stored, DamagedGame):
            copied = Copied(game_id, False, False, stored.reason)
        else:
            copied = action(stored)
        told(copied)
        done.append(copied)
    return done


def _read_waiting(store: Store, game_id: str, waiting: Callable[[str, Pending], Copied]) -> Copied:
    """``waiting`` on the game of that id waiting for its seats, if one does."""
    try:
        pending = store.pending(game_id)
    except StoreUnavailable:
        raise
    except (StoreError, OSError) as exc:
        return Copied(game_id, False, False, str(exc), waiting=True)
    if pending is None:
        return Copied(game_id, False, False, "no such game")
    return waiting(game_id, pending)


def kept_answers(stored: StoredGame) -> set[Answer]:
    """The answers of ``stored`` a store keeps: those of the acts of its last
    :data:`~.store.ANSWERS_KEPT` records (older ones, which a store lets go at its next
    append, are of no use to a retry)."""
    records = len(stored.log.splitlines())
    return {a for a in stored.answers if records - ANSWERS_KEPT <= a.version < records}


def _copy(stored: StoredGame, target: Store, resume: bool = False) -> Copied:
    game_id = stored.game_id
    problem = check_game(stored)
    answers = kept_answers(stored)
    ordered = sorted(answers, key=lambda a: (a.version, a.seat, a.command_id))
    lines = stored.log.splitlines()
    there = ""
    try:
        target.create(game_id, stored.secret, lines, ordered)
    except GameExists:
        if not resume or not _holds(target, stored):
            return Copied(game_id, False, False, "the target has a game of this id already")
        missing = answers - set(target.answers(game_id))
        if missing:  # copied by a migration that did not carry them
            target.append(game_id, len(lines), [], [a for a in ordered if a in missing])
        there = "in the target already"
    except StoreError as exc:
        return Copied(game_id, False, False, str(exc))
    if (
        target.log(game_id) != stored.log
        or target.secret(game_id) != stored.secret
        or set(target.answers(game_id)) != answers
    ):
        return Copied(game_id, False, False, "read back differently from the target")
    if problem is not None:
        target.set_aside(game_id, problem)
    return Copied(game_id, True, problem is None, problem or there, answers=len(answers))


def _holds(target: Store, stored: StoredGame) -> bool:
    """Whether ``target`` has ``stored``'s game with the same log and secret."""
    try:
        return target.log(stored.game_id) == stored.log and (
            target.secret(stored.game_id) == stored.secret
        )
    except StoreError:
        return False


def check_waiting(pending: Pending) -> str | None:
    """Why a server of this build could not take up the waiting game ``pending`` (``None``:
    its rules are run here, its seats have tokens, its receipt key and contributions are
    there and its seed ceremony is rebuilt from them)."""
    try:
        system(pending.rules)
    except KeyError:
        return f"its rules {pending.rules!r} are not run by this build"
    secret = pending.secret
    if secret.receipt_key is None:
        return "no receipt key stored"
    untokened = [seat for seat in pending.seats if seat not in secret.tokens]
    if untokened:
        return f"no token for seat(s) {', '.join(untokened)}"
    strangers = [seat for seat in pending.contributions if seat not in pending.seats]
    if strangers:
        return f"a contribution from seat(s) {', '.join(strangers)}, not of the game"
    try:
        ceremony = SeedCeremony(secret.server_seed, pending.seats)
        for seat, contribution in pending.contributions.items():
            ceremony.contribute(seat, contribution)
    except ValueError as exc:
        return str(exc)
    return None


def _copy_waiting(
    game_id: str, pending: Pending, target: Store, resume: bool, now: float
) -> Copied:
    if pending.expired(now):
        note = "expired waiting for its seats: not copied"
        return Copied(game_id, False, False, note, waiting=True, expired=True)
    problem = check_waiting(pending)
    there = ""
    try:
        target.wait(game_id, pending)
    except GameExists:
        if not resume or not _waits(target, game_id, pending):
            return Copied(
                game_id, False, False, "the target has a game of this id already", waiting=True
            )
        there = "in the target already"
    except StoreError as exc:
        return Copied(game_id, False, False, str(exc), waiting=True)
    if target.pending(game_id) != pending:
        return Copied(game_id, False, False, "read back differently from the target", waiting=True)
    return Copied(game_id, True, problem is None, problem or there, waiting=True)


def _waits(target: Store, game_id: str, pending: Pending) -> bool:
    """Whether ``target`` has the waiting game ``pending`` as it is."""
    try:
        return target.pending(game_id) == pending
    except StoreError:
        return False


def _export(stored: StoredGame, out: Path) -> Copied:
    path = out / f"{stored.game_id}.jsonl"
    path.write_bytes(stored.log)
    problem = check_game(stored)
    same = path.read_bytes() == stored.log
    answers = len(kept_answers(stored))
    return Copied(stored.game_id, same, problem is None, problem or "", answers=answers)


def waiting_setup(game_id: str, pending: Pending) -> dict[str, object]:
    """What a person needs to set a waiting game up again, and nothing secret: its rules,
    seats and options, the commitment to its server seed its seats were shown, and which
    seats have sent their contribution (not the contributions, the seed or the tokens: the
    tokens would let whoever reads an export take the seats)."""
    ceremony = SeedCeremony(pending.secret.server_seed, pending.seats)
    return {
        "game_id": game_id,
        "rules": pending.rules,
        "seats": list(pending.seats),
        "options": pending.options,
        "bots": dict(pending.secret.bots),
        "server_seed_commitment": ceremony.commitment,
        "contributed": [seat for seat in pending.seats if seat in pending.contributions],
        "waiting_for": [seat for seat in pending.seats if seat not in pending.contributions],
    }


def _export_waiting(game_id: str, pending: Pending, out: Path) -> Copied:
    problem = check_waiting(pending)
    data = (json.dumps(waiting_setup(game_id, pending), indent=2) + "\n").encode()
    path = out / f"{game_id}{WAITING_SUFFIX}"
    path.write_bytes(data)
    same = path.read_bytes() == data
    return Copied(game_id, same, problem is None, problem or "", waiting=True)


WAITING_SUFFIX = ".waiting.json"
"""An exported waiting game's setup: ``OUT/<game_id>.waiting.json``."""


def open_default_store(say: Callable[[str], None]) -> Store:
    """The servers' default store (:func:`default_store`); on its first start, the games of
    the old default directory (``rpc-games``, left as it was) and the server's identity key
    are copied into it, said with ``say``.

    The import is resumable: a marker file (``games.sqlite3.importing``) is made, durably,
    before the store and removed once every game is in, so a start after an interrupted
    import (killed, power lost) finishes it. Each game is copied in one transaction (it is
    in the new store whole or not at all) and a game found there with the same log and
    secret counts as imported, so nothing is copied twice; processes starting at once may
    both import, each game landing once."""
    path = default_store()
    old = data_dir() / OLD_DEFAULT_DIRECTORY
    marker = path.with_name(path.name + IMPORTING_SUFFIX)
    pending = old.is_dir() and (not path.exists() or marker.exists())
    if pending:
        _mark_import(marker, old)
    store = open_store(path)
    if pending:
        _import(old, store, say)
        marker.unlink(missing_ok=True)
    return store


IMPORTING_SUFFIX = ".importing"
"""The default store's name with this suffix: its import from the old directory is not done."""


def _mark_import(marker: Path, old: Path) -> None:
    """Make ``marker`` (if it is not there) and its directory entry durable."""
    marker.parent.mkdir(parents=True, exist_ok=True)
    if not marker.exists():
        text = f"importing the games of {old}: the next server start finishes it\n"
        write_private(marker, text.encode())
    directory = os.open(marker.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def _import(old: Path, store: Store, say: Callable[[str], None]) -> None:
    source = open_store(old)
    try:
        key = source.server_key()
        if key is not None:
            store.keep_server_key(key)  # the players know this server by it
        copied = copy_games(source, store, resume=True)
    finally:
        source.close()
    moved = sum(1 for copy in copied if copy.done and not copy.waiting)
    waiting = sum(1 for copy in copied if copy.done and copy.waiting)
    also = f" and {waiting} waiting for their seats" if waiting else ""
    say(
        f"imported {moved} games{also} from {old} into {store.location} (the directory is "
        "left as it was)"
    )
    for copy in copied:
        if not copy.done or not copy.verified:
            what = "copied, set aside" if copy.done else "not imported"
            say(f"{copy.game_id}: {what}: {copy.note}")
