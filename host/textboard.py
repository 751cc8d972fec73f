"""A game's text board (``game_render_text``) as plain data a browser can lay out.

The terminal client prints what ``game_render_text`` returns: a ``str`` or a ``rich``
renderable (a ``Table``, a ``Panel``, a ``Group``...). A browser cannot run rich, so a
connection that said ``hello.words`` gets the same board as a list of **blocks** in the
update's ``board_text`` (docs/protocol.md, "Update"), built here from the recipient's
own view, like the labels and sentences (host/words.py):

- ``{"kind": "heading", "text": str}``: a title (a table's or a panel's);
- ``{"kind": "text", "text": str}``: lines of prose (the client splits them);
- ``{"kind": "pre", "text": str}``: drawn text whose columns matter (an ASCII map, a
  box): shown in a fixed-width font, scrolled sideways on a phone rather than wrapped;
- ``{"kind": "table", "title": str, "columns": [str], "rows": [[str]], "caption": str}``;
- ``{"kind": "group", "title": str, "blocks": [block]}``: a panel or a group.

Markup (``[bold]``) is dropped, text only: the browser styles it itself. Anything
rich can print that has no block of its own is printed to plain text in a ``pre``.
"""

from __future__ import annotations

import io
import re
from typing import Any

from rich.console import Console, Group
from rich.errors import MarkupError
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

Block = dict[str, Any]
_PAIR = re.compile(r"^(\w[\w.-]*) {2,}(\S.*)$")
MAX_DEPTH = 8
# Box drawing, or a run of 4+ spaces inside a line: a drawing, not prose.
_DRAWN = re.compile(r"[\u2500-\u257f+|#=-]{3,}|\S {4,}\S")


def board_blocks(board: Any) -> list[Block]:
    """The blocks of ``board`` (what ``game_render_text`` returned)."""
    return _blocks(board, 0)


def _blocks(node: Any, depth: int) -> list[Block]:
    if node is None:
        return []
    if depth > MAX_DEPTH:
        return [{"kind": "pre", "text": _printed(node)}]
    if isinstance(node, str):
        return _text_blocks(_plain(node))
    if isinstance(node, Text):
        return _text_blocks(node.plain)
    if isinstance(node, Table):
        return [_table(node)]
    if isinstance(node, Panel):
        inner = _blocks(node.renderable, depth + 1)
        return [{"kind": "group", "title": _cell(node.title) if node.title else "",
                 "blocks": inner}]
    if isinstance(node, Group):
        out: list[Block] = []
        for item in node.renderables:
            out.extend(_blocks(item, depth + 1))
        return out
    if isinstance(node, Padding):
        return _blocks(node.renderable, depth + 1)
    renderables = getattr(node, "renderables", None)  # Columns and the like
    if isinstance(renderables, list):
        return [b for item in renderables for b in _blocks(item, depth + 1)]
    return [{"kind": "pre", "text": _printed(node)}]


def _text_blocks(text: str) -> list[Block]:
    """Prose, or a drawing when its lines keep columns (an ASCII map)."""
    text = text.rstrip("\n")
    if not text.strip():
        return []
    lines = text.split("\n")
    pairs = [_PAIR.match(line) for line in lines]
    if len(lines) > 1 and all(pairs):  # "key   value" lines (the generic board): a table
        return [{"kind": "table", "title": "", "columns": [], "caption": "",
                 "rows": [[m.group(1), m.group(2)] for m in pairs if m]}]
    drawn = sum(1 for line in lines if _DRAWN.search(line))
    kind = "pre" if drawn and drawn * 3 >= len(lines) else "text"
    return [{"kind": kind, "text": text}]


def _table(table: Table) -> Block:
    columns = [_cell(c.header) for c in table.columns]
    cells = [[_cell(x) for x in c._cells] for c in table.columns]
    rows = [[col[r] if r < len(col) else "" for col in cells] for r in range(table.row_count)]
    return {"kind": "table", "title": _cell(table.title) if table.title else "",
            "columns": columns, "rows": rows,
            "caption": _cell(table.caption) if table.caption else ""}


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return _plain(value)
    if isinstance(value, Text):
        return value.plain
    return _printed(value).strip()


def _plain(markup: str) -> str:
    """What rich prints for a markup string, without the styles."""
    try:
        return Text.from_markup(markup).plain
    except MarkupError:
        return markup


def _printed(node: Any) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None, force_terminal=False,
                      legacy_windows=False)
    with console.capture() as capture:
        console.print(node)
    return capture.get().rstrip("\n")
