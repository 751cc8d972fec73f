"""lantable for bot builders and researchers (docs/research.md): every installed game
as a PettingZoo AEC environment (:func:`env`), one seat against lantable's bots as a
Gymnasium environment (:func:`single`), and the encoding of a view as a vector.

Needs the optional extra: ``pip install 'lantable[rl]'``.
"""

from __future__ import annotations

from .aec import MAX_ACTIONS, LanTableEnv, env, placing_reward
from .encode import encode
from .single import SingleSeatEnv, single

__all__ = ["MAX_ACTIONS", "LanTableEnv", "SingleSeatEnv", "encode", "env", "placing_reward",
           "single"]
