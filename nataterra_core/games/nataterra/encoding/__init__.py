"""Nataterra's research hooks: the observation encoder and the stable action codec
(:mod:`nataterra_core.kernel.encoding`), for the game and for the combat sandbox."""

from .actions import nataterra_codec, sandbox_codec
from .observations import nataterra_observation, sandbox_observation

__all__ = ["nataterra_codec", "nataterra_observation", "sandbox_codec", "sandbox_observation"]
