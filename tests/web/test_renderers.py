"""The games' browser renderers: where they are, what they register, and the card data
Kaiser's Pirates' renderer reads (an export of its data.py that must not drift)."""

from __future__ import annotations

import json
import os

import pytest

from lantable.plugins import load_registry
from lantable.plugins.kaisers_pirates.web_board import card_faces

REGISTRY = load_registry()


def kp_cards() -> dict:
    """What ``kaisers_pirates/web/cards.json`` must hold: the faces the board shows."""
    return card_faces()


@pytest.mark.parametrize("game_id", ["manila", "kaisers-pirates", "nero", "blackbeard"])
def test_the_game_ships_a_board_that_registers_itself(game_id) -> None:
    folder = REGISTRY[game_id].web_renderer()
    assert folder is not None
    source = folder.joinpath("board.js").read_text(encoding="utf-8")
    assert f'lantable.registerRenderer("{game_id}"' in source


def test_a_game_without_a_renderer_has_none() -> None:
    assert REGISTRY["race"].web_renderer() is None


def test_kaisers_pirates_card_data_matches_the_game() -> None:
    """Regenerate with LANTABLE_REGEN_CARDS=1 after changing data.py."""
    path = REGISTRY["kaisers-pirates"].web_renderer().joinpath("cards.json")
    expected = kp_cards()
    if os.environ.get("LANTABLE_REGEN_CARDS"):
        with open(str(path), "w", encoding="utf-8") as out:
            out.write(json.dumps(expected, separators=(",", ":")) + "\n")
    assert json.loads(path.read_text(encoding="utf-8")) == expected, (
        "plugins/kaisers_pirates/web/cards.json is stale: LANTABLE_REGEN_CARDS=1 pytest "
        "tests/web/test_renderers.py")
