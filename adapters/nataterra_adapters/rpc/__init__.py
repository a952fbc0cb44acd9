"""``nataterra-rpc``: Nataterra games over JSON-RPC 2.0 (protocol, transports: docs/RPC.md).

Layers, each usable alone: :mod:`.protocol` (sans-IO dispatcher: one frame's bytes in, the
reply's bytes out), :mod:`.framing` (newline and Content-Length framing with a size cap),
:mod:`.games` (the method table over games in memory), :mod:`.errors` (every error code)
and :mod:`.server` (the process: stdio or TCP).
"""

from .server import Server, main

__all__ = ["Server", "main"]
