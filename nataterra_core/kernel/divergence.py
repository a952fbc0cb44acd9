"""Where a re-executed record differs from its logged line, said without a secret.

Resuming a suspended game (``nataterra play --resume``, a server's store) re-executes its log
before the seed is revealed: a record that does not match names its first differing field,
and shows both values only when a spectator may see that field (the record's class's declared
visibility, :func:`~.visibility.record_view`). A difference in a hidden field (a deck's order,
a drawn card) is named by its path alone: the recomputed value is the secret itself.
"""

from __future__ import annotations

from typing import Any

import msgspec

from .errors import ReplayDiverged
from .visibility import MessageTypes, record_view

__all__ = ["divergence", "first_difference"]


def divergence(
    messages: MessageTypes, seq: int, logged: bytes, recomputed: bytes, *, revealed: bool
) -> ReplayDiverged:
    """The error for record ``seq``, logged as ``logged`` but re-executed as ``recomputed``:
    its first differing path, with both values when the log is ``revealed`` or a spectator
    may see them (``messages``: the rule system's classes, whose declarations say)."""
    path, was, now = first_difference(logged, recomputed)
    if revealed or _public(messages, logged, recomputed, (path, was, now)):
        return ReplayDiverged(seq, path, was, now)
    return ReplayDiverged(
        seq,
        path,
        None,
        None,
        f"{path} differs from the re-executed record (a field hidden until the seed is "
        "revealed: its values are not shown)",
    )


def _public(
    messages: MessageTypes, logged: bytes, recomputed: bytes, found: tuple[str, Any, Any]
) -> bool:
    """Whether a spectator's views of both lines show the same first difference (so its
    values are no secret); the chain's ``prev`` is public (a hash of the line before, which
    matched)."""
    if found[0] == "$.prev":
        return True
    try:
        seen = (record_view(logged, None, messages), record_view(recomputed, None, messages))
        whole = [msgspec.json.decode(line) for line in (logged, recomputed)]
    except (msgspec.DecodeError, ValueError, TypeError, AttributeError):
        return False  # not a record a view can cut: show nothing of it
    if found[0] == "$":  # the raw text: public only if nothing in it is cut
        return all(
            cut == {k: v for k, v in line.items() if k != "prev"}
            for cut, line in zip(seen, whole, strict=True)
        )
    return _diff("$", *seen) == found


def first_difference(logged: bytes, recomputed: bytes) -> tuple[str, Any, Any]:
    """The JSON path and both values of the first difference between two record lines.

    If both decode to equal values the difference is in the encoding itself (spacing,
    escapes, key order), reported at ``$`` with the raw text.
    """
    try:
        a = msgspec.json.decode(logged)
    except msgspec.DecodeError:
        return "$", logged.decode("utf-8", "replace"), recomputed.decode()
    b = msgspec.json.decode(recomputed)
    found = _diff("$", a, b)
    if found is None:
        return "$", logged.decode("utf-8", "replace"), recomputed.decode()
    return found


def _diff(path: str, a: Any, b: Any) -> tuple[str, Any, Any] | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(b) + [k for k in a if k not in b]:
            if key not in a or key not in b:
                return f"{path}.{key}", a.get(key), b.get(key)
            found = _diff(f"{path}.{key}", a[key], b[key])
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _diff(f"{path}[{i}]", x, y)
            if found:
                return found
        if len(a) != len(b):
            n = min(len(a), len(b))
            return f"{path}[{n}]", a[n] if n < len(a) else None, b[n] if n < len(b) else None
        return None
    if type(a) is not type(b) or a != b:
        return path, a, b
    return None
