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
from collections.abc import Iterator
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


def _walk(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every (path, value) of the view under ``path``: map keys joined with '.', list
    items as '[]'."""
    if isinstance(value, dict):
        for key, item in value.items():
            child = f"{path}.{key}" if path else str(key)
            yield child, item
            yield from _walk(item, child)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, f"{path}[]")


def _matches(path: str, pattern: str) -> bool:
    got, want = _split(path), _split(pattern)
    return len(got) == len(want) and all(w in ("*", g) for g, w in zip(got, want, strict=True))


def _split(path: str) -> list[str]:
    # "a[].b.*[]" -> ["a", "[]", "b", "*", "[]"]
    parts: list[str] = []
    for piece in path.split("."):
        name = piece.split("[]")[0]
        if name:
            parts.append(name)
        parts.extend(["[]"] * piece.count("[]"))
    return parts


def undescribed(view: Any, paths: set[str]) -> list[str]:
    """The view's paths that no row of the page matches, in the order first met (a
    map's keys under an undescribed key are not listed again)."""
    missing: list[str] = []
    seen: set[str] = set()
    for path, _ in _walk(view, ""):
        general = _general(path, paths)
        if general in seen or any(general.startswith(m + ".") or general.startswith(m + "[]")
                                  for m in missing):
            continue
        seen.add(general)
        if not any(_matches(path, p) for p in paths):
            missing.append(general)
    return missing


def _general(path: str, paths: set[str]) -> str:
    # The path as the page would write it: under the longest row that matches a prefix,
    # a key matched by '*' is shown as '*' (one missing key under every province is
    # named once, not once per province).
    got = _split(path)
    best: list[str] = []
    for pattern in paths:
        want = _split(pattern)
        if len(best) < len(want) <= len(got) and all(
                w in ("*", g) for g, w in zip(got, want, strict=False)):
            best = want
    return _join([("*" if i < len(best) and best[i] == "*" else g) for i, g in enumerate(got)])


def _join(parts: list[str]) -> str:
    out = ""
    for part in parts:
        out += part if part == "[]" else (f".{part}" if out else part)
    return out


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
