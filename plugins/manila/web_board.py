"""The game's board for the browser: ``web/board.js`` in this package (package data)."""

from __future__ import annotations

from importlib import resources
from typing import Any

from lantable.plugins import hookimpl


@hookimpl
def game_web_renderer() -> Any:
    return resources.files(__package__) / "web"
