"""Deprecated alias (session 10, issue 28): the rules-coverage tool moved to
:mod:`nataterra_core.tools.coverage`.

``nataterra_core.kernel.coverage`` re-exports it with a ``DeprecationWarning`` for at least one
release; import :mod:`nataterra_core.tools.coverage` instead.
"""

from __future__ import annotations

import warnings

from nataterra_core.tools.coverage import *  # noqa: F403
from nataterra_core.tools.coverage import __all__ as __all__

warnings.warn(
    "nataterra_core.kernel.coverage is deprecated: import nataterra_core.tools.coverage",
    DeprecationWarning,
    stacklevel=2,
)
