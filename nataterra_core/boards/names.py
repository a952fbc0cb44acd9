"""Short names for tokens on a board (no XML here: the board-geometry hooks of the games
import this while a process that only verifies logs never loads the SVG renderer)."""

from __future__ import annotations

__all__ = ["short_name"]


def short_name(title: str, limit: int = 10) -> str:
    """A name short enough for a token: ``title`` itself when it fits ``limit`` letters, else
    its last word (``King's Champion`` -> ``Champion``), else its first word cut to ``limit``.

    >>> short_name("Cave Golem"), short_name("King's Champion"), short_name("Orc")
    ('Cave Golem', 'Champion', 'Orc')
    """
    if len(title) <= limit:
        return title
    words = title.replace("(", " ").replace(")", " ").split()
    last = words[-1] if words else title
    return last if len(last) <= limit else (words[0] if words else title)[:limit]
