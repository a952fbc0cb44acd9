"""``nataterra serve``: the JSON-RPC methods over a WebSocket and a browser client for them.

An ASGI application (starlette, served by uvicorn; the optional extra ``web``) with two
routes: ``/rpc``, a WebSocket on which every text message is one JSON-RPC 2.0 frame answered
by the same dispatcher and method table as ``nataterra-rpc``, and ``/``, the client: plain
HTML, CSS and JavaScript modules shipped in this package (``static/``), no build step and
nothing fetched from elsewhere. The client knows no game: it reads the rule systems from
``server.info``, draws the board from the view's ``board`` (the system's board-geometry
hook) and words everything with the sentences the methods return. See ``docs/WEB.md``.
"""

from __future__ import annotations

from .app import create_app, serve

__all__ = ["create_app", "serve"]
