"""The layer rules of docs/architecture.md, checked on the source.

The rules are read from the page itself (the table under "Who may import whom"), so
the documentation and this test cannot drift apart. Every ``import`` of a
``lantable`` module in every package folder is read from the source (the AST, so
nothing is executed), including imports inside functions and under
``TYPE_CHECKING``: a layer may not even *mention* a layer it must not use.
Module-level runtime imports must also form no cycle.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"


def _doc_rules(text: str) -> list[tuple[str, set[str]]]:
    """(code, the packages it may import) for each row of the doc's import table.

    A row's first cell is one path in backticks (``host/``, ``clients/cli.py``); the
    packages are the backticked words of the second cell (prose in it is for people).
    """
    section = text.split("## Who may import whom", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    assert rows and [c.strip() for c in rows[0].strip("|").split("|")] == ["code", "may import"]
    rules = []
    for row in rows[2:]:  # past the header and its |---| line
        code, allowed = (c.strip() for c in row.strip("|").split("|", 1))
        match = re.fullmatch(r"`([\w./]+)`", code)
        assert match, f"not a path in backticks: {code!r}"
        rules.append((match.group(1), set(re.findall(r"`(\w+)`", allowed))))
    return rules


def _folders() -> set[str]:
    """The top-level folders installed as ``lantable.<folder>`` (pyproject's package-dir)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(config["tool"]["setuptools"]["package-dir"].values())


RULES = _doc_rules(DOC.read_text(encoding="utf-8"))
# Folder -> the lantable packages its modules may import (besides its own).
LAYERS: dict[str, set[str]] = {c.rstrip("/"): a for c, a in RULES if c.count("/") == 1
                               and c.endswith("/")}
# Modules (a file, or every file under a folder ending in /) allowed more than their layer.
EXCEPTIONS: dict[str, set[str]] = {c: a for c, a in RULES if c.rstrip("/") not in LAYERS}


def test_the_doc_names_every_layer_once_and_only_real_code() -> None:
    assert set(LAYERS) == _folders(), "docs/architecture.md must give a row to every folder"
    codes = [c for c, _ in RULES]
    assert len(codes) == len(set(codes)), f"a row appears twice: {codes}"
    for code, allowed in RULES:
        assert (ROOT / code).exists(), f"docs/architecture.md names {code}, which is not there"
        assert allowed <= set(LAYERS), f"{code} may import {sorted(allowed - set(LAYERS))}?"
    for code, allowed in EXCEPTIONS.items():
        layer = code.split("/")[0]
        assert LAYERS[layer] < allowed, f"{code} is listed but allowed nothing more than {layer}/"


def test_the_table_parser_reads_a_table() -> None:
    text = ("## Who may import whom\n\n| code | may import |\n|---|---|\n"
            "| `a/` | nothing of ours |\n| `b/` | `a` (because) |\n| `b/x.py` | `a`, `c`: root |\n"
            "\n## Next\n| `z/` | `a` |\n")
    assert _doc_rules(text) == [("a/", set()), ("b/", {"a"}), ("b/x.py", {"a", "c"})]


def _allowed(folder: str, rel: str) -> set[str]:
    allowed = {folder} | LAYERS[folder]
    for where, extra in EXCEPTIONS.items():
        if rel == where or (where.endswith("/") and rel.startswith(where)):
            allowed |= extra
    return allowed


def _modules() -> list[tuple[str, Path]]:
    out = []
    for folder in LAYERS:
        base = ROOT / folder
        if base.is_dir():
            out += [(folder, path) for path in sorted(base.rglob("*.py"))]
    return out


def _module_name(folder: str, path: Path) -> str:
    rel = path.relative_to(ROOT / folder).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(["lantable", folder, *parts])


def _imports(folder: str, path: Path) -> set[str]:
    """Absolute names of the lantable modules ``path`` imports, anywhere in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = _module_name(folder, path).split(".")
    package = me if path.name == "__init__.py" else me[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("lantable.")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if not mod.startswith("lantable."):
                continue
            if node.module is None:  # from . import a, b: each may be a module
                found |= {f"{mod}.{a.name}" for a in node.names}
            else:
                found.add(mod)
    return found


@pytest.mark.parametrize(("folder", "path"), _modules(),
                         ids=[str(p.relative_to(ROOT)) for _, p in _modules()])
def test_layer_rules(folder: str, path: Path) -> None:
    rel = str(path.relative_to(ROOT))
    allowed = _allowed(folder, rel)
    used = {name.split(".")[1] for name in _imports(folder, path)}
    assert used <= allowed, f"{rel} imports {sorted(used - allowed)} (allowed: {sorted(allowed)})"


def test_plugins_host_never_imports_a_specific_game() -> None:
    """The host finds games through the registry only."""
    for folder in ("host", "web"):
        for _, path in [m for m in _modules() if m[0] == folder]:
            games = {n for n in _imports(folder, path) if n.count(".") >= 2
                     and n.split(".")[1] == "plugins" and n.split(".")[2] not in
                     {"registry", "hookspecs", "types", "errors", "decks", "params"}}
            assert not games, f"{path.relative_to(ROOT)} imports a game: {sorted(games)}"


def test_games_import_only_the_api_and_themselves() -> None:
    for _, path in [m for m in _modules() if m[0] == "plugins"]:
        rel = path.relative_to(ROOT / "plugins")
        if len(rel.parts) < 2:
            continue  # the API itself
        game = rel.parts[0]
        for name in _imports("plugins", path):
            parts = name.split(".")
            ok = len(parts) < 3 or parts[2] == game or parts[2] in {
                "hookspecs", "types", "errors", "registry", "decks", "text"}
            assert ok, f"plugins/{rel} imports another game's module {name}"


def _module_graph() -> dict[str, set[str]]:
    names = {_module_name(f, p) for f, p in _modules()}
    graph: dict[str, set[str]] = {}
    for folder, path in _modules():
        deps = set()
        for name in _imports(folder, path):
            # ``from pkg import name`` may name a module or an attribute of pkg.
            deps.add(name if name in names else name.rsplit(".", 1)[0])
        graph[_module_name(folder, path)] = {d for d in deps if d in names}
    return graph


# Cycles that exist today, each hidden by an import inside a function or under
# TYPE_CHECKING (a cycle in the design all the same). The list may
# only shrink: a new cycle fails the test, and so does an entry that no longer exists.
KNOWN_CYCLES: set[frozenset[str]] = set()


def _cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(mod: str) -> None:
        index[mod] = low[mod] = len(index)
        stack.append(mod)
        for dep in graph.get(mod, ()):
            if dep not in index:
                visit(dep)
                low[mod] = min(low[mod], low[dep])
            elif dep in stack:
                low[mod] = min(low[mod], index[dep])
        if low[mod] == index[mod]:
            component = set()
            while True:
                top = stack.pop()
                component.add(top)
                if top == mod:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for mod in sorted(graph):
        if mod not in index:
            visit(mod)
    return found


def test_no_import_cycles() -> None:
    """Imports, wherever they stand, form no cycle but the known ones (a
    package's ``__init__`` importing its own submodules re-exports, and is skipped)."""
    graph = _module_graph()
    for mod in graph:
        graph[mod] = {d for d in graph[mod] if not mod.startswith(d + ".")}
    cycles = _cycles(graph)
    new = [" <-> ".join(sorted(c)) for c in cycles - KNOWN_CYCLES]
    assert not new, f"new import cycles: {new}"
    gone = [" <-> ".join(sorted(c)) for c in KNOWN_CYCLES - cycles]
    assert not gone, f"these cycles are gone: remove them from KNOWN_CYCLES: {gone}"


def test_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == {frozenset({"a", "b", "c"})}


@pytest.mark.parametrize("name", ["DEFAULT_PORT", "DEFAULT_WEB_PORT"])
def test_each_default_port_is_defined_once_where_every_layer_may_import_it(name: str) -> None:
    """Every layer uses the default ports; defined twice, they could disagree."""
    where = []
    for _, path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = (node.targets if isinstance(node, ast.Assign) else
                       [node.target] if isinstance(node, ast.AnnAssign) else [])
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                where.append(str(path.relative_to(ROOT)))
    assert where == ["protocol/discovery.py"]
