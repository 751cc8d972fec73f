"""The card engine the peer serves to a browser seat at a hidden-deck table
(docs/fair-play.md, "A browser seat at a hidden-deck table"): Pyodide (CPython compiled
to WebAssembly) and the Python the seat's side runs in it.

- ``/pyodide/<file>``: Pyodide's core files, from a directory on this machine
  (:func:`pyodide_dir`; about 13.5 MB, fetched once from the npm registry by
  ``.ci/run`` or by hand, see docs/fair-play.md). Nothing is fetched while playing: a
  peer works with no internet.
- ``/engine/python.zip``: the seat's Python, taken from this very installation, so
  the page runs the same client half as ``lantable play`` (:func:`python_zip`):
  ``lantable.protocol``, ``lantable.plugins`` (every seed game), the client's
  ``fairdecks``, the host's ``textboard`` (to draw the seat's board with its hand),
  the pure-Python parts of msgpack, pluggy and rich, the game modules of installed
  third-party games, and the stand-ins in ``web/engine/`` (a pure-Python ``rbcl``, a
  ``cryptography`` the page never calls, the bootstrap ``lantable_engine``).
  ``engine.json`` inside says which module holds each game.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import io
import json
import os
import zipfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

PYODIDE_VERSION: Final = "314.0.8"  # the npm package `pyodide` this page is tested with
# What loadPyodide fetches from its indexURL (no packages beyond the core: the rest
# is in python.zip).
PYODIDE_FILES: Final = frozenset({"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                                  "python_stdlib.zip", "pyodide-lock.json"})
ENGINE: Final = resources.files(__package__) / "engine"
# Pure-Python packages the client halves import, shipped from this installation
# (msgpack's C extension is left out: msgpack falls back to its pure-Python codec).
PURE_PACKAGES: Final = ("msgpack", "pluggy", "rich")
LANTABLE: Final = ("protocol", "plugins")  # whole sub-packages; of clients only fairdecks


def pyodide_dir() -> Path | None:
    """Where this peer's Pyodide is: ``$LANTABLE_PYODIDE``, else ``pyodide`` in the data
    directory (``$LANTABLE_HOME``, else the user's lantable data directory); None when
    it holds no ``pyodide.asm.wasm`` (the page then says the browser cannot sit at a
    hidden-deck table here)."""
    given = os.environ.get("LANTABLE_PYODIDE")
    if given:
        where = Path(given)
    elif os.environ.get("LANTABLE_HOME"):
        where = Path(os.environ["LANTABLE_HOME"]) / "pyodide"
    else:
        import platformdirs

        where = Path(platformdirs.user_data_dir("lantable", appauthor=False)) / "pyodide"
    return where if (where / "pyodide.asm.wasm").is_file() else None


def pyodide_file(name: str) -> bytes | None:
    """One of Pyodide's core files, or None."""
    where = pyodide_dir()
    if where is None or name not in PYODIDE_FILES:
        return None
    path = where / name
    return path.read_bytes() if path.is_file() else None


def game_modules(game_ids: list[str]) -> dict[str, str]:
    """``game id -> "module:attribute"`` for the installed games (their entry points)."""
    found = {}
    for ep in importlib.metadata.entry_points(group="lantable.games"):
        if ep.name in game_ids:
            found[ep.name] = ep.value
    return found


def _add_tree(zf: zipfile.ZipFile, base: Traversable | Path, prefix: str) -> None:
    for item in sorted(base.iterdir(), key=lambda i: i.name):
        if item.name == "__pycache__" or item.name.endswith((".so", ".pyd", ".pyc")):
            continue
        if item.is_dir():
            _add_tree(zf, item, f"{prefix}{item.name}/")
        elif item.is_file():
            zf.writestr(f"{prefix}{item.name}", item.read_bytes())


def _add_module(zf: zipfile.ZipFile, name: str) -> bool:
    """A top-level module or package of this installation, as source; False if absent."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return False
    origin = Path(spec.origin)
    if spec.submodule_search_locations:
        _add_tree(zf, origin.parent, f"{name}/")
    elif origin.suffix == ".py":
        zf.writestr(f"{name}.py", origin.read_bytes())
    return True


def python_zip(game_ids: list[str]) -> bytes:
    """The zip of the seat's Python (see the module docstring)."""
    games = game_modules(game_ids)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for sub in LANTABLE:
            _add_tree(zf, resources.files(f"lantable.{sub}"), f"lantable/{sub}/")
        host = resources.files("lantable.host")  # only its text board (imports rich)
        for name in ("__init__.py", "textboard.py"):
            zf.writestr(f"lantable/host/{name}", host.joinpath(name).read_bytes())
        clients = resources.files("lantable.clients")
        for name in ("__init__.py", "fairdecks.py"):
            zf.writestr(f"lantable/clients/{name}", clients.joinpath(name).read_bytes())
        for name in PURE_PACKAGES:
            _add_module(zf, name)
        for value in games.values():
            top = value.partition(":")[0].split(".")[0]
            if top != "lantable":
                _add_module(zf, top)
        _add_tree(zf, ENGINE, "")
        zf.writestr("engine.json", json.dumps({"games": games, "pyodide": PYODIDE_VERSION}))
    return buf.getvalue()
