"""What a verification worker starts with, imported once by the fork server that forks them
(:func:`nataterra_core.tools.workers.process_context`): the batch verifier, every registered
rule system and each system's own content pack (loading them costs ten short verifications).
"""

from __future__ import annotations

from .batch_verify import engine_id

__all__ = ["ENGINE"]

ENGINE = engine_id()
"""The rule systems and packs the workers verify with (loaded here, at import)."""
