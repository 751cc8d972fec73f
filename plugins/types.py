"""Named aliases for the plain data that crosses the game API."""

from __future__ import annotations

from typing import Any, TypeAlias

State: TypeAlias = dict[str, Any]
"""A game's full state: plain msgpack data, owned by the game."""
Action: TypeAlias = dict[str, Any]
"""One decision: a dict with a ``"type"`` key."""
Event: TypeAlias = dict[str, Any]
"""Something that happened: a dict with ``"type"``; ``"to": [seats]`` makes it private."""
View: TypeAlias = dict[str, Any]
"""What one seat (or a spectator) may know."""
GameInfo: TypeAlias = dict[str, Any]
Scores: TypeAlias = dict[str, Any]
