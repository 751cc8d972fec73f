"""host/textboard.py: a game's text board (game_render_text) as blocks the browser lays
out, and update_words sending it as ``board_text`` to a game without a browser board."""

from __future__ import annotations

import random

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from lantable.host.textboard import board_blocks
from lantable.host.words import update_words
from lantable.plugins import load_registry

REGISTRY = load_registry()


def test_a_rich_table_becomes_columns_and_rows_without_markup() -> None:
    table = Table(title="The sea", caption="Ship: speed/combat")
    table.add_column("where")
    table.add_column(Text("pirates"))
    table.add_row("[bold]N. Atlantic[/]", "Teach (bob)")
    table.add_row("Caribbean", "")
    assert board_blocks(table) == [{
        "kind": "table", "title": "The sea", "caption": "Ship: speed/combat",
        "columns": ["where", "pirates"],
        "rows": [["N. Atlantic", "Teach (bob)"], ["Caribbean", ""]]}]


def test_groups_panels_and_text_keep_their_order_and_titles() -> None:
    board = Group(Text("Round 1 of 3"), Panel("Your hand: Storm", title="alice"),
                  "[dim]Deck 44 cards[/dim]")
    assert board_blocks(board) == [
        {"kind": "text", "text": "Round 1 of 3"},
        {"kind": "group", "title": "alice",
         "blocks": [{"kind": "text", "text": "Your hand: Storm"}]},
        {"kind": "text", "text": "Deck 44 cards"}]


def test_a_drawing_is_preformatted_and_key_value_lines_are_a_table() -> None:
    drawing = "+------+\n|  ##  |\n|      |\n+------+"
    assert board_blocks(drawing) == [{"kind": "pre", "text": drawing}]
    assert board_blocks("target    21\ncounter   4")[0]["rows"] == [["target", "21"],
                                                                  ["counter", "4"]]


def test_the_generic_board_of_a_game_without_render_text_is_a_table() -> None:
    race = REGISTRY["race"]
    state = race.setup(2, {"target": 9}, random.Random(1))
    words = update_words(race, race.view(state, 0), 0, race.legal_actions(state, 0), None,
                         ["ann", "bo"], board=True)
    rows = dict(tuple(r) for r in words["board_text"][0]["rows"])
    assert rows["target"] == "9" and rows["counter"] == "0"
    assert "board_text" not in update_words(race, race.view(state, 0), 0, None, None,
                                            ["ann", "bo"])


def test_nero_names_the_cards_in_the_hand() -> None:
    nero = REGISTRY["nero"]
    state = nero.setup(3, None, random.Random(1))
    blocks = update_words(nero, nero.view(state, 0), 0, None, None, ["a", "b", "c"],
                          board=True)["board_text"]
    text = repr(blocks)
    assert "your hand: " in text.lower() and "MP" in text  # names, not card numbers


def test_a_board_that_raises_is_a_sentence_not_a_fault() -> None:
    class Broken:
        id = "broken"

        def render_text(self, view, seat, names):
            raise RuntimeError("bug")

    words = update_words(Broken(), {"n": 1}, None, None, None, ["a"], board=True)  # type: ignore[arg-type]
    assert words["board_text"] == [
        {"kind": "text", "text": "The game could not draw its board for this move."}]
