"""A sans-IO JSON-RPC 2.0 dispatcher: the bytes of one frame in, the bytes of the reply out.

:meth:`Dispatcher.handle` implements the specification exactly (https://www.jsonrpc.org/
specification): a parse error is -32700 with id ``null``; a value that is not a request is
-32600; an unknown method -32601; params that do not fit the method -32602; any unexpected
failure -32603, with no details (they might quote hidden state). Notifications (requests
without ``id``) get no reply, even on error. A batch is answered entry by entry in order;
an empty batch gets one -32600; a batch of notifications gets nothing. It never raises.

Methods declare their params as a msgspec Struct: named params are converted into it,
positional params are matched to its fields in declaration order.

:meth:`Dispatcher.handle` calls every method where it stands (an embedded method table, the
tests); :meth:`Dispatcher.handle_async` lets a server choose how each is called (an
:data:`Invoke`): a slow method (``Method.offload``) in its worker pool, a waiting one
(``Method.waits``) awaited on its event loop. Both share one implementation: ``handle``
drives the coroutine with calls that never suspend.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from .errors import PROTOCOL_MESSAGES, ProtocolCode, RpcError

__all__ = ["DEFAULT_MAX_BATCH", "Dispatcher", "Invoke", "Method", "error_reply", "invoke_inline"]

_ENCODER = msgspec.json.Encoder()
DEFAULT_MAX_BATCH = 100
"""Requests in one batch at most (``--max-batch``)."""
_INT_RANGE = range(-(2**63), 2**64)
_ABSENT = object()
_ID_TYPES = (str, int, float, type(None))


@dataclass(frozen=True)
class Method:
    """A method: its params type and the function called with the converted params."""

    params: type[msgspec.Struct]
    handler: Callable[[Any], Any]
    offload: bool = False
    """Slow (a whole log verified or folded): a server runs ``handler`` off its event loop,
    in its worker pool, within a time bound."""
    waits: Callable[[Any], Awaitable[Any]] | None = None
    """What a server with an event loop awaits instead of ``handler`` (``game.wait``);
    ``handler`` is the answer without waiting."""
    acts: bool = False
    """Changes the game it names: a server whose store other processes write too reads
    the game again first if its copy is behind."""


Invoke = Callable[[Method, Any], Awaitable[Any]]
"""How a dispatcher calls a method with its converted params (a server's choice)."""


async def invoke_inline(method: Method, params: Any) -> Any:
    """Call the method's handler where we stand (never suspends)."""
    return method.handler(params)


def _error(code: int, message: str, data: Any, request_id: Any) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "error": error, "id": request_id}


def _protocol_error(code: ProtocolCode, request_id: Any = None, data: Any = None) -> dict[str, Any]:
    return _error(int(code), PROTOCOL_MESSAGES[code], data, request_id)


def error_reply(code: ProtocolCode, data: Any = None) -> bytes:
    """A complete error response with id ``null`` (for errors found before parsing)."""
    return _ENCODER.encode(_protocol_error(code, None, data))


def _beyond_64_bits(value: Any) -> bool:
    """Whether a decoded frame holds an integer outside the signed/unsigned 64-bit range."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, int) and not isinstance(item, bool):
            if item not in _INT_RANGE:
                return True
        elif isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


class Dispatcher:
    """Answers JSON-RPC 2.0 frames from a method table."""

    def __init__(
        self, methods: Mapping[str, Method], *, max_batch: int = DEFAULT_MAX_BATCH
    ) -> None:
        self._methods = dict(methods)
        self._max_batch = max_batch

    def handle(self, frame: bytes) -> bytes | None:
        """The reply to one frame, or ``None`` when nothing is to be sent back; every method
        is called here and now."""
        answering = self.handle_async(frame, invoke_inline)
        try:
            answering.send(None)
        except StopIteration as done:
            reply: bytes | None = done.value
            return reply
        answering.close()  # only an invoke that suspends gets here, and invoke_inline never does
        _log_internal(RuntimeError("an inline call suspended"))
        return error_reply(ProtocolCode.INTERNAL_ERROR)

    async def handle_async(self, frame: bytes, invoke: Invoke = invoke_inline) -> bytes | None:
        """As :meth:`handle`, each method called through ``invoke``."""
        try:
            return await self._handle(frame, invoke)
        except Exception as exc:  # the one promise: a frame never brings the server down
            _log_internal(exc)
            return error_reply(ProtocolCode.INTERNAL_ERROR)

    async def _handle(self, frame: bytes, invoke: Invoke) -> bytes | None:
        try:
            message = msgspec.json.decode(frame)
        except (msgspec.DecodeError, RecursionError, ValueError):
            return error_reply(ProtocolCode.PARSE_ERROR)
        if _beyond_64_bits(message):
            # Valid JSON, but over our reader's limits (RFC 8259 §9): as docs/RPC.md says.
            return error_reply(ProtocolCode.PARSE_ERROR, {"reason": "a number beyond 64 bits"})
        if isinstance(message, list):
            if not message:
                return error_reply(ProtocolCode.INVALID_REQUEST, {"reason": "empty batch"})
            if len(message) > self._max_batch:
                return error_reply(
                    ProtocolCode.INVALID_REQUEST,
                    {"reason": f"a batch of {len(message)} exceeds the cap of {self._max_batch}"},
                )
            replies = [await self._one(request, invoke) for request in message]
            kept = [reply for reply in replies if reply is not None]
            return b"[" + b",".join(kept) + b"]" if kept else None
        return await self._one(message, invoke)

    async def _one(self, request: Any, invoke: Invoke) -> bytes | None:
        """The encoded response to one request object, or ``None`` for a notification."""
        if not isinstance(request, dict):
            return self._encode(
                _protocol_error(ProtocolCode.INVALID_REQUEST, None, {"reason": "not an object"})
            )
        request_id = request.get("id", _ABSENT)
        valid_id = request_id is _ABSENT or (
            isinstance(request_id, _ID_TYPES) and not isinstance(request_id, bool)
        )
        reply_id = request_id if valid_id and request_id is not _ABSENT else None
        problem = _request_problem(request, valid_id)
        if problem is not None:
            return self._encode(
                _protocol_error(ProtocolCode.INVALID_REQUEST, reply_id, {"reason": problem})
            )
        response = await self._call(
            request["method"], request.get("params", _ABSENT), reply_id, invoke
        )
        if request_id is _ABSENT:
            return None
        return self._encode(response)

    async def _call(
        self, name: str, params: Any, request_id: Any, invoke: Invoke
    ) -> dict[str, Any]:
        method = self._methods.get(name)
        if method is None:
            return _protocol_error(ProtocolCode.METHOD_NOT_FOUND, request_id, {"method": name})
        try:
            converted = _convert(method.params, params)
        except (msgspec.ValidationError, TypeError, ValueError) as exc:
            return _protocol_error(ProtocolCode.INVALID_PARAMS, request_id, {"reason": str(exc)})
        try:
            result = await invoke(method, converted)
        except RpcError as exc:
            return _error(exc.code, exc.message, exc.data, request_id)
        except Exception as exc:
            _log_internal(exc)
            return _protocol_error(ProtocolCode.INTERNAL_ERROR, request_id)
        return {"jsonrpc": "2.0", "result": result, "id": request_id}

    @staticmethod
    def _encode(response: dict[str, Any]) -> bytes:
        try:
            return _ENCODER.encode(response)
        except (TypeError, ValueError, OverflowError) as exc:
            _log_internal(exc)
            return _ENCODER.encode(_protocol_error(ProtocolCode.INTERNAL_ERROR, response.get("id")))


def _request_problem(request: dict[str, Any], valid_id: bool) -> str | None:
    if request.get("jsonrpc") != "2.0":
        return 'jsonrpc must be "2.0"'
    if not isinstance(request.get("method"), str):
        return "method must be a string"
    if "params" in request and not isinstance(request["params"], list | dict):
        return "params must be an array or an object"
    if not valid_id:
        return "id must be a string, a number or null"
    return None


def _convert(params_type: type[msgspec.Struct], params: Any) -> msgspec.Struct:
    if params is _ABSENT:
        params = {}
    elif isinstance(params, list):
        fields = params_type.__struct_fields__
        if len(params) > len(fields):
            raise ValueError(f"at most {len(fields)} positional params: {', '.join(fields)}")
        params = dict(zip(fields, params, strict=False))
    return msgspec.convert(params, params_type)


def _log_internal(exc: BaseException) -> None:
    # The operator's stream, never the client's: the traceback may show hidden state.
    print("nataterra-rpc: internal error", file=sys.stderr)
    traceback.print_exception(exc, file=sys.stderr)
