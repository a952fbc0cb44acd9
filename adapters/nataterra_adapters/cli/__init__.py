"""The ``nataterra`` command line, one module per command, for any registered rule system.

* ``demo`` plays a seeded game between bots (``--game ID``, ``--bot`` one of the game's
  players), writes its log and verifies it;
* ``play`` is a hot-seat game in the terminal, with undo and redo;
* ``show`` prints the position after any record of a log, as one seat sees it;
* ``replay`` steps through a log, one sentence per command and event;
* ``verify`` checks logs (in this process, in local worker processes or on a Dask cluster)
  and exits with the code of the most severe failure (:data:`EXIT_CODES`);
* plus each rule system's own commands (Nataterra: ``odds``, ``coverage``).

``show``, ``replay`` and ``verify`` take the rule system from the log's header; all words
come from that system's presenter. ``docs/CLI.md`` is the reference.
"""

from __future__ import annotations

from nataterra_adapters.batch_verify import EXIT_CODES

from .app import app, build_app, main
from .words import verdict_line

__all__ = ["EXIT_CODES", "app", "build_app", "main", "verdict_line"]
