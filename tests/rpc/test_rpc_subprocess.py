"""``nataterra-rpc`` as a subprocess: full bot games over stdio and TCP, framings, abuse."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rpc_helpers import Client, play_bot_game, read_content_length, start_server, stop_server

from nataterra_core.game import verify_log


@pytest.fixture
def stdio_server() -> Iterator[Client]:
    process = start_server()
    assert process.stdin is not None and process.stdout is not None
    try:
        yield Client(process.stdout, process.stdin)
    finally:
        stop_server(process)


def test_full_bot_game_over_stdio(stdio_server: Client) -> None:
    log = play_bot_game({"velathi": stdio_server, "beasts": stdio_server}, seed=11)
    verdict = stdio_server.ok("log.verify", log=log["log"], expect_head=log["head"])
    assert verdict["status"] == "valid" and verdict["result"]["reason"] == "turn_limit"
    assert verify_log(log["log"].encode(), expect_head=log["head"]).valid  # not just our word


def test_full_bot_game_over_tcp_one_connection_per_seat() -> None:
    process = start_server("--listen", "127.0.0.1:0")
    try:
        assert process.stderr is not None
        announced = process.stderr.readline().decode()
        assert "listening on" in announced, announced
        port = int(announced.rsplit(":", 1)[1])
        with (
            socket.create_connection(("127.0.0.1", port), timeout=30) as one,
            socket.create_connection(("127.0.0.1", port), timeout=30) as two,
        ):
            first = Client(one.makefile("rb"), one.makefile("wb"))
            second = Client(two.makefile("rb"), two.makefile("wb"))
            log = play_bot_game({"velathi": first, "beasts": second}, seed=5)
            verdict = second.ok("log.verify", log=log["log"])
            assert verdict["status"] == "valid"
    finally:
        stop_server(process)


def test_content_length_framing() -> None:
    process = start_server("--framing", "content-length", "--max-frame-bytes", "4096")
    assert process.stdin is not None and process.stdout is not None
    client = Client(process.stdout, process.stdin, framing="content-length")
    try:
        game = client.ok("game.create", players=2, seed=3)
        view = client.ok("game.view", game_id=game["game_id"])
        assert view["view"]["seat"] is None and view["acting"] == game["acting"]
        client.send_raw(b'{"jsonrpc": "2.0", "method"')  # a body that is not JSON
        assert client.receive_raw()["error"]["code"] == -32700
        client.send_raw(b"x" * 5000)  # over the cap: skipped by its declared length
        assert client.receive_raw()["error"]["code"] == -32600
        process.stdin.write(b"Garbage: yes\r\n\r\n")  # a header block without a length
        process.stdin.flush()
        assert client.receive_raw()["error"]["code"] == -32700
        assert client.ok("server.info")["server"] == "nataterra-rpc"
    finally:
        stop_server(process)


def test_oversized_and_garbage_frames_never_stop_the_server() -> None:
    process = start_server("--max-frame-bytes", "1000")
    assert process.stdin is not None and process.stdout is not None
    client = Client(process.stdout, process.stdin)
    try:
        client.send_raw(b'{"jsonrpc":"2.0","method":"server.info","id":1,"pad":"' + b"a" * 5000)
        reply = client.receive_raw()
        assert reply["error"]["code"] == -32600 and reply["id"] is None
        garbage = [
            b"\xff\xfe\x00 not utf-8",
            b"{{{{",
            b"[" * 900,  # nesting deep enough to trouble a recursive reader
            b'{"jsonrpc":"2.0","method":"server.info","id":1e400}',  # a number beyond range
            b"null",
            b'"\\ud800"',
        ]
        for junk in garbage:
            client.send_raw(junk)
            assert client.receive_raw()["error"]["code"] in (-32700, -32600), junk
        client.send_raw(os.urandom(800).replace(b"\n", b" "))
        assert client.receive_raw()["error"]["code"] in (-32700, -32600)
        assert client.ok("server.info")["server"] == "nataterra-rpc"
        assert process.poll() is None
    finally:
        stop_server(process)


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("nataterra-rpc")
    if not script.exists():
        pytest.skip("the console script appears after `pip install -e .`")
    done = subprocess.run(
        [str(script)],
        input=b'{"jsonrpc":"2.0","method":"server.info","id":7}\n',
        capture_output=True,
        timeout=30,
        check=True,
    )
    assert b'"id":7' in done.stdout and b"nataterra-rpc" in done.stdout


def test_a_half_sent_frame_is_dropped_after_the_idle_timeout() -> None:
    """Issue 14 item 6: a client that starts a frame and stalls is answered and disconnected;
    an idle client between frames is not."""
    import json
    import time

    process = start_server("--listen", "127.0.0.1:0", "--idle-timeout", "0.5")
    try:
        assert process.stderr is not None
        port = int(process.stderr.readline().decode().rsplit(":", 1)[1])
        with (
            socket.create_connection(("127.0.0.1", port), timeout=10) as stalled,
            socket.create_connection(("127.0.0.1", port), timeout=10) as idle,
        ):
            stalled.sendall(b'{"jsonrpc":"2.0","meth')
            reply = stalled.makefile("rb").readline()
            assert json.loads(reply)["error"]["code"] == -32600
            assert b"half-sent" in reply
            assert stalled.recv(1) == b""  # closed by the server
            time.sleep(1.0)
            idle.sendall(b'{"jsonrpc":"2.0","method":"server.info","id":1}\n')
            assert b'"result"' in idle.makefile("rb").readline()
    finally:
        stop_server(process)


def test_each_connection_has_its_own_quota_of_games() -> None:
    """Issue 14 item 6: --max-games-per-client caps what one TCP connection creates."""
    process = start_server("--listen", "127.0.0.1:0", "--max-games-per-client", "2", "--no-store")
    try:
        assert process.stderr is not None
        port = int(process.stderr.readline().decode().rsplit(":", 1)[1])
        with (
            socket.create_connection(("127.0.0.1", port), timeout=30) as one,
            socket.create_connection(("127.0.0.1", port), timeout=30) as two,
        ):
            first = Client(one.makefile("rb"), one.makefile("wb"))
            second = Client(two.makefile("rb"), two.makefile("wb"))
            for seed in (1, 2):
                first.ok("game.create", players=2, seed=seed)
            refused = first.call("game.create", players=2, seed=3)
            assert not hasattr(refused, "result") and "--max-games-per-client" in str(refused)
            second.ok("game.create", players=2, seed=4)  # another connection, another quota
    finally:
        stop_server(process)


def test_a_content_length_over_the_cap_is_answered_and_the_next_frames_too() -> None:
    """Issue 32 item 3's repro: ``Content-Length: 1048577`` then five good frames into
    ``nataterra-rpc --framing content-length``: 0 of 5 were answered, and no -32600."""
    process = start_server("--framing", "content-length", "--no-store")
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"Content-Length: 1048577\r\n\r\n")
        for n in range(5):
            body = b'{"jsonrpc":"2.0","method":"server.info","id":%d}' % n
            process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        process.stdin.flush()
        replies: list[dict[str, Any]] = []
        stdout = process.stdout

        def read_six() -> None:
            replies.extend(json.loads(read_content_length(stdout)) for _ in range(6))

        reading = threading.Thread(target=read_six, daemon=True)
        reading.start()
        reading.join(timeout=60)  # before: nothing ever came
        assert len(replies) == 6, replies
        assert replies[0]["error"]["code"] == -32600 and replies[0]["id"] is None
        assert {reply["id"] for reply in replies[1:]} == set(range(5))
    finally:
        stop_server(process)
