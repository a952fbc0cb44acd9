"""Deprecated alias (session 10, issue 28): statistics (Wilson, Bradley-Terry) moved to
:mod:`nataterra_core.tools.stats`.

``nataterra_core.kernel.stats`` re-exports it with a ``DeprecationWarning`` for at least one
release; import :mod:`nataterra_core.tools.stats` instead.
"""

from __future__ import annotations

import warnings

from nataterra_core.tools.stats import *  # noqa: F403
from nataterra_core.tools.stats import __all__ as __all__

warnings.warn(
    "nataterra_core.kernel.stats is deprecated: import nataterra_core.tools.stats",
    DeprecationWarning,
    stacklevel=2,
)
