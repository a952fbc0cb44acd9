"""Deprecated alias (session 10, issue 28): worker pools moved to
:mod:`nataterra_core.tools.workers`.

``nataterra_core.kernel.workers`` re-exports it with a ``DeprecationWarning`` for at least one
release; import :mod:`nataterra_core.tools.workers` instead.
"""

from __future__ import annotations

import warnings

from nataterra_core.tools.workers import *  # noqa: F403
from nataterra_core.tools.workers import __all__ as __all__

warnings.warn(
    "nataterra_core.kernel.workers is deprecated: import nataterra_core.tools.workers",
    DeprecationWarning,
    stacklevel=2,
)
