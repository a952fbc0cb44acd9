"""Deprecated alias (session 10, issue 28): the search player moved to
:mod:`nataterra_core.search.ismcts`.

``nataterra_core.kernel.ismcts`` re-exports it with a ``DeprecationWarning`` for at least one
release; import :mod:`nataterra_core.search.ismcts` instead.
"""

from __future__ import annotations

import warnings

from nataterra_core.search.ismcts import *  # noqa: F403
from nataterra_core.search.ismcts import __all__ as __all__

warnings.warn(
    "nataterra_core.kernel.ismcts is deprecated: import nataterra_core.search.ismcts",
    DeprecationWarning,
    stacklevel=2,
)
