"""The game's board for the browser: ``web/board.js`` in this package (package data),
with ``web/cards.json``, the ship cards and hull sizes it draws from (an export of
``data.json`` kept in step by tests/web/test_renderers.py)."""

from __future__ import annotations

from importlib import resources
from typing import Any

from lantable.plugins import hookimpl

from . import data


@hookimpl
def game_web_renderer() -> Any:
    return resources.files(__package__) / "web"


def web_cards() -> dict[str, Any]:
    """What ``web/cards.json`` must hold: hull sizes by masts (mm, 8.4.1) and, per ship
    card, its name, nation, move, cargo, cannons and keywords."""
    d = data.load()
    hulls = {k: v for k, v in d["hulls"].items() if not k.startswith("_")}
    cards = {**data.ships(), **{k: v for k, v in d["monsters"].items() if not k.startswith("_")}}
    ships = {sid: {k: s[k] for k in ("name", "nation", "move", "cargo", "cannons", "keywords")}
             for sid, s in sorted(cards.items())}
    return {"hulls": hulls, "ships": ships,
            "musket": d["crew_types"]["Musketeer"]["cannon"]}
