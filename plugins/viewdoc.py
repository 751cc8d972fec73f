"""A game's page (``docs/games/GAME.md``) against its views: every key a seat's view
holds must be described on the page, so that bot and board authors never read the
engine.

The page describes the view in a section headed ``## View``: markdown table rows whose
first cell is a backticked *path*::

    | `players[].cash` | int | money in hand |

A path is dotted keys from the view's root; ``[]`` after a key means "each item of this
list" and a ``*`` segment means "any key of this map" (maps keyed by data: provinces,
ship ids). ``boats.*.crew`` describes the crew list of every boat. A row for ``a.b.c`` describes
only that key: ``a`` and ``a.b`` need rows of their own. A list's items need no row
(the list's row says what they are); keys inside them do (``players[].cash``).

Pure functions, no I/O: :func:`paths_in_page` reads the page's text,
:func:`undescribed` walks a view.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_ROW = re.compile(r"^\s*\|\s*`([^`]+)`\s*\|")
_SECTION = re.compile(r"^#{1,6}\s")


def paths_in_page(text: str) -> set[str]:
    """The paths the page's ``## View`` section describes (empty when it has none)."""
    paths: set[str] = set()
    inside = False
    for line in text.splitlines():
        if _SECTION.match(line):
            inside = line.strip() == "## View" or (inside and not line.startswith("## "))
            continue
        match = _ROW.match(line) if inside else None
        if match:
            paths.add(_normal(match.group(1)))
    return paths


def _normal(path: str) -> str:
    # "a[].b" and "a.[].b" are the same path; spaces are not part of a key.
    return path.strip().replace(".[]", "[]")


class _Node:
    """One segment of the page's paths: its children by segment, and whether a row ends
    here (the key is described)."""

    __slots__ = ("children", "row")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.row = False


def _split(path: str) -> list[str]:
    # "a[].b.*[]" -> ["a", "[]", "b", "*", "[]"]
    parts: list[str] = []
    for piece in path.split("."):
        name = piece.split("[]")[0]
        if name:
            parts.append(name)
        parts.extend(["[]"] * piece.count("[]"))
    return parts


def _join(parts: list[str]) -> str:
    out = ""
    for part in parts:
        out += part if part == "[]" else (f".{part}" if out else part)
    return out


_TRIES: dict[frozenset[str], _Node] = {}


def _trie(paths: set[str]) -> _Node:
    key = frozenset(paths)
    root = _TRIES.get(key)
    if root is None:
        root = _Node()
        for path in paths:
            node = root
            for part in _split(path):
                node = node.children.setdefault(part, _Node())
            node.row = True
        if len(_TRIES) > 64:
            _TRIES.clear()
        _TRIES[key] = root
    return root


def undescribed(view: Any, paths: set[str]) -> list[str]:
    """The view's keys that no row of the page describes, each named once as the page
    would write it (``*`` for a key a ``*`` row stands for), in the order first met; the
    keys under an undescribed key are not listed again."""
    missing: list[str] = []
    seen: set[str] = set()

    def walk(value: Any, nodes: list[tuple[_Node, list[str]]]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                name = str(key)
                nexts = []
                for node, at in nodes:
                    for seg in (name, "*"):
                        child = node.children.get(seg)
                        if child is not None:
                            nexts.append((child, [*at, seg]))
                described = [(n, at) for n, at in nexts if n.row]
                if not described:
                    at = [*nodes[0][1], name] if nodes else [name]
                    where = _join(at)
                    if where not in seen:
                        seen.add(where)
                        missing.append(where)
                    continue
                walk(item, described)
        elif isinstance(value, list):
            nexts = [(child, [*at, "[]"]) for node, at in nodes
                     if (child := node.children.get("[]")) is not None]
            if not nexts:  # keys inside the items are named against the list's path
                nexts = [(_Node(), [*at, "[]"]) for _, at in nodes[:1]]
            for item in value:
                walk(item, nexts)

    walk(view, [(_trie(paths), [])])
    return missing


def find_page(game_id: str, module_file: str | None) -> Path | None:
    """``docs/games/GAME.md`` in the current folder, or in a folder above the game's
    module (a game checked out from source): the first that exists."""
    places = [Path.cwd()]
    if module_file:
        places.extend(Path(module_file).resolve().parents[:4])
    for place in places:
        page = place / "docs" / "games" / f"{game_id}.md"
        if page.is_file():
            return page
    return None
