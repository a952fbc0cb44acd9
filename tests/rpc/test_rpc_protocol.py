"""The sans-IO dispatcher against the JSON-RPC 2.0 specification's own examples (§7).

Each example is the specification's, with its methods replaced by ours: ``subtract`` by
``game.legal_commands`` (positional and named params), ``update``/``foobar`` notifications
by ``game.view``/``server.info``, ``sum``/``get_data`` by ``server.info``.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nataterra_adapters.rpc.errors import RpcError
from nataterra_adapters.rpc.protocol import Dispatcher, Method
from nataterra_adapters.rpc.server import Server


@pytest.fixture
def server() -> Server:
    return Server(test_seeds=True)


@pytest.fixture
def game(server: Server) -> tuple[str, str]:
    """A game id and the acting seat's token."""
    created = call(
        server, {"jsonrpc": "2.0", "method": "game.create", "params": {"seed": 1}, "id": 0}
    )
    result = created["result"]
    return result["game_id"], result["tokens"][result["acting"][0]]


def call(server: Server, message: Any) -> Any:
    raw = message if isinstance(message, bytes) else json.dumps(message).encode()
    reply = server.dispatcher.handle(raw)
    return None if reply is None else json.loads(reply)


def error(code: int, message: str, request_id: Any) -> dict[str, Any]:
    return {"code": code, "message": message, "id": request_id}


def shape(reply: dict[str, Any]) -> dict[str, Any]:
    """An error reply without its optional ``data``, as the specification prints them."""
    assert reply["jsonrpc"] == "2.0"
    return {"code": reply["error"]["code"], "message": reply["error"]["message"], "id": reply["id"]}


def test_positional_params(server: Server, game: tuple[str, str]) -> None:
    game_id, token = game
    reply = call(
        server,
        {"jsonrpc": "2.0", "method": "game.legal_commands", "params": [game_id, token], "id": 1},
    )
    assert reply["id"] == 1 and reply["result"]["commands"]
    # Order matters, as with subtract [23, 42]: now the token is taken for a game id.
    swapped = call(
        server,
        {"jsonrpc": "2.0", "method": "game.legal_commands", "params": [token, game_id], "id": 2},
    )
    assert swapped["id"] == 2 and swapped["error"]["code"] == 7


def test_named_params_in_any_order(server: Server, game: tuple[str, str]) -> None:
    game_id, token = game
    one = call(
        server,
        {
            "jsonrpc": "2.0",
            "method": "game.legal_commands",
            "params": {"game_id": game_id, "token": token},
            "id": 3,
        },
    )
    two = call(
        server,
        {
            "jsonrpc": "2.0",
            "method": "game.legal_commands",
            "params": {"token": token, "game_id": game_id},
            "id": 4,
        },
    )
    positional = call(
        server,
        {"jsonrpc": "2.0", "method": "game.legal_commands", "params": [game_id, token], "id": 1},
    )
    assert one["result"] == two["result"] == positional["result"]
    assert (one["id"], two["id"]) == (3, 4)


def test_notifications_get_no_reply(server: Server, game: tuple[str, str]) -> None:
    assert call(server, {"jsonrpc": "2.0", "method": "game.view", "params": [game[0]]}) is None
    assert call(server, {"jsonrpc": "2.0", "method": "server.info"}) is None
    # Even a failing notification stays silent.
    assert call(server, {"jsonrpc": "2.0", "method": "foobar"}) is None
    assert call(server, {"jsonrpc": "2.0", "method": "game.view", "params": {"nope": 1}}) is None


def test_non_existent_method(server: Server) -> None:
    reply = call(server, {"jsonrpc": "2.0", "method": "foobar", "id": "1"})
    assert shape(reply) == error(-32601, "Method not found", "1")


def test_invalid_json(server: Server) -> None:
    reply = call(server, b'{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]')
    assert shape(reply) == error(-32700, "Parse error", None)


def test_invalid_request_object(server: Server) -> None:
    reply = call(server, {"jsonrpc": "2.0", "method": 1, "params": "bar"})
    assert shape(reply) == error(-32600, "Invalid Request", None)


def test_batch_invalid_json(server: Server) -> None:
    reply = call(
        server,
        b'[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},'
        b'{"jsonrpc": "2.0", "method"]',
    )
    assert shape(reply) == error(-32700, "Parse error", None)


def test_empty_array(server: Server) -> None:
    assert shape(call(server, b"[]")) == error(-32600, "Invalid Request", None)


def test_invalid_batch_but_not_empty(server: Server) -> None:
    assert [shape(r) for r in call(server, b"[1]")] == [error(-32600, "Invalid Request", None)]


def test_invalid_batch(server: Server) -> None:
    replies = call(server, b"[1,2,3]")
    assert [shape(r) for r in replies] == [error(-32600, "Invalid Request", None)] * 3


def test_mixed_batch(server: Server, game: tuple[str, str]) -> None:
    game_id, token = game
    replies = call(
        server,
        [
            {
                "jsonrpc": "2.0",
                "method": "game.legal_commands",
                "params": [game_id, token],
                "id": "1",
            },
            {"jsonrpc": "2.0", "method": "game.view", "params": [game_id]},
            {
                "jsonrpc": "2.0",
                "method": "game.view",
                "params": {"game_id": game_id, "token": token},
                "id": "2",
            },
            {"foo": "boo"},
            {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
            {"jsonrpc": "2.0", "method": "server.info", "id": "9"},
        ],
    )
    assert [r["id"] for r in replies] == ["1", "2", None, "5", "9"]
    assert replies[0]["result"]["commands"] and replies[1]["result"]["view"]["seat"]
    assert shape(replies[2]) == error(-32600, "Invalid Request", None)
    assert shape(replies[3]) == error(-32601, "Method not found", "5")
    assert replies[4]["result"]["server"] == "nataterra-rpc"


def test_all_notification_batch(server: Server, game: tuple[str, str]) -> None:
    batch = [
        {"jsonrpc": "2.0", "method": "game.view", "params": [game[0]]},
        {"jsonrpc": "2.0", "method": "server.info"},
    ]
    assert server.dispatcher.handle(json.dumps(batch).encode()) is None


@pytest.mark.parametrize(
    "request_object",
    [
        {"jsonrpc": "1.0", "method": "server.info", "id": 1},
        {"method": "server.info", "id": 1},
        {"jsonrpc": "2.0", "method": "server.info", "params": 3, "id": 1},
        {"jsonrpc": "2.0", "method": "server.info", "id": True},
        {"jsonrpc": "2.0", "method": "server.info", "id": {"a": 1}},
        {"jsonrpc": "2.0", "id": 1},
    ],
)
def test_other_invalid_requests(server: Server, request_object: dict[str, Any]) -> None:
    reply = call(server, request_object)
    assert reply["error"]["code"] == -32600 and reply["error"]["message"] == "Invalid Request"
    valid_id = (
        request_object.get("id") if not isinstance(request_object.get("id"), bool | dict) else None
    )
    assert reply["id"] == valid_id


def test_ids_are_echoed_as_sent(server: Server) -> None:
    for request_id in ("abc", 0, -5, 2.5, None, 2**64 - 1, -(2**63)):
        reply = call(server, {"jsonrpc": "2.0", "method": "server.info", "id": request_id})
        assert reply["id"] == request_id and "result" in reply


@pytest.mark.parametrize("request_id", [2**64, 2**70, -(2**63) - 1])
def test_ids_beyond_64_bits_are_a_parse_error_as_documented(
    server: Server, request_id: int
) -> None:
    """Issue 14 item 6: docs/RPC.md's -32700 for numbers beyond 64 bits, id null."""
    reply = call(server, {"jsonrpc": "2.0", "method": "server.info", "id": request_id})
    assert reply["error"]["code"] == -32700 and reply["id"] is None


def test_batches_are_capped() -> None:
    capped = Server(max_batch=3)
    batch = [{"jsonrpc": "2.0", "method": "server.info", "id": i} for i in range(4)]
    reply = json.loads(capped.dispatcher.handle(json.dumps(batch).encode()) or b"{}")
    assert reply["error"]["code"] == -32600 and "cap" in reply["error"]["data"]["reason"]
    answered = json.loads(capped.dispatcher.handle(json.dumps(batch[:3]).encode()) or b"[]")
    assert [r["id"] for r in answered] == [0, 1, 2]


def test_the_number_of_games_is_capped() -> None:
    capped = Server(max_games=2, test_seeds=True)
    for n in range(3):
        message = {"jsonrpc": "2.0", "method": "game.create", "params": {"seed": n}, "id": n}
        reply = json.loads(capped.dispatcher.handle(json.dumps(message).encode()) or b"{}")
        assert ("error" in reply) == (n == 2)
    assert "--max-games" in reply["error"]["message"]


@pytest.mark.parametrize(
    "params",
    [
        {"game_id": "x", "token": 5},
        {"game_id": "x"},
        {"game_id": "x", "token": "t", "extra": 1},
        ["a", "b", "c"],
    ],
)
def test_invalid_params(server: Server, params: Any) -> None:
    reply = call(
        server, {"jsonrpc": "2.0", "method": "game.legal_commands", "params": params, "id": 1}
    )
    assert shape(reply) == error(-32602, "Invalid params", 1)
    assert reply["error"]["data"]["reason"]


class _Nothing(msgspec.Struct, forbid_unknown_fields=True):
    pass


def _fail(params: object) -> object:
    raise ZeroDivisionError("secret detail")


def _refuse(params: object) -> object:
    raise RpcError(42, "no", {"why": "because"})


def test_internal_errors_carry_no_details(capsys: pytest.CaptureFixture[str]) -> None:
    dispatcher = Dispatcher({"fail": Method(_Nothing, _fail), "refuse": Method(_Nothing, _refuse)})
    reply = json.loads(dispatcher.handle(b'{"jsonrpc":"2.0","method":"fail","id":1}') or b"")
    assert reply == {
        "jsonrpc": "2.0",
        "error": {"code": -32603, "message": "Internal error"},
        "id": 1,
    }
    assert "secret detail" in capsys.readouterr().err  # for the operator only
    reply = json.loads(dispatcher.handle(b'{"jsonrpc":"2.0","method":"refuse","id":2}') or b"")
    assert reply["error"] == {"code": 42, "message": "no", "data": {"why": "because"}}


@given(st.binary(max_size=200))
def test_any_bytes_get_a_reply_or_nothing_and_never_raise(data: bytes) -> None:
    reply = Server(test_seeds=True).dispatcher.handle(data)
    if reply is not None:
        assert isinstance(json.loads(reply), dict | list)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(["jsonrpc", "method", "params", "id", "x"]), inner, max_size=5
            )
        ),
        max_leaves=12,
    )
)
def test_any_json_value_is_answered_by_the_spec(value: Any) -> None:
    reply = Server(test_seeds=True).dispatcher.handle(json.dumps(value).encode())
    if reply is None:  # only notifications, or batches of them, go unanswered
        items = value if isinstance(value, list) else [value]
        assert items and all(isinstance(i, dict) and "id" not in i for i in items)
        return
    parsed = json.loads(reply)
    for item in parsed if isinstance(parsed, list) else [parsed]:
        assert item["jsonrpc"] == "2.0" and ("result" in item) != ("error" in item)
